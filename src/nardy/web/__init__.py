"""The browser client: the pages, scripts, styles and language catalogues that ``nardy
serve`` sends to a browser. Plain ES modules, SVG and CSS, served as they are (no build
step), each under a URL that carries a hash of its content so browsers may keep it forever;
the one HTML page is never cached, so a new release is picked up at the next load."""

from nardy.web.assets import Assets, default_assets
from nardy.web.routes import PAGES, routes

__all__ = ["PAGES", "Assets", "default_assets", "routes"]
