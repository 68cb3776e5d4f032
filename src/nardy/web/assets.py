"""The client's static files and their fingerprinted URLs.

Every file under ``static/`` except the page itself is served at
``/assets/{digest}/{path}``, the digest being the first hex digits of its SHA-256, so a
changed file gets a new URL and an unchanged one may be cached for a year. The scripts
import each other by their plain paths (``/js/board.js``); an import map in the page sends
each such path to its fingerprinted URL, and the same map (as JSON in the page) gives the
scripts the URLs of the catalogues and images.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import json
import mimetypes
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).with_name("static")
PAGE = "index.html"
IMPORTMAP = '<script type="importmap">'
DIGEST_CHARS = 16
"""Hex digits of the SHA-256 kept in a URL: 64 bits, enough that no two versions collide."""
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


@dataclass(frozen=True, slots=True)
class Asset:
    """One file of the client: its plain path (``/js/app.js``), content and media type."""

    path: str
    body: bytes
    media_type: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.body).hexdigest()[:DIGEST_CHARS]

    @property
    def url(self) -> str:
        """Where the browser fetches it: changes whenever the content does."""
        return f"/assets/{self.digest}{self.path}"


class Assets:
    """All the files of one client folder, read once, and the page that names them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        files: dict[str, Asset] = {}
        for file in sorted(root.rglob("*")):
            if not file.is_file() or file.name == PAGE or file.name.startswith("."):
                continue
            path = "/" + file.relative_to(root).as_posix()
            media = TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0]
            files[path] = Asset(path, file.read_bytes(), media or "application/octet-stream")
        self.files = files
        self.page = self._render((root / PAGE).read_text(encoding="utf-8"))
        self.csp = (
            "default-src 'self'; script-src 'self' 'sha256-"
            + _inline_script_hash(self.page)
            + "'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        )
        """The page's Content-Security-Policy: scripts only from this site, and of inline
        scripts only the import map."""

    def find(self, digest: str, path: str) -> Asset | None:
        """The asset at this fingerprinted URL; None for an unknown path or a stale digest
        (an old page asking for a file that has changed since must not get the new one
        under the old name)."""
        asset = self.files.get("/" + path)
        if asset is None or asset.digest != digest:
            return None
        return asset

    def url(self, path: str) -> str:
        """The fingerprinted URL of a plain path such as ``/css/site.css``."""
        return self.files[path].url

    def _render(self, template: str) -> str:
        urls = {path: asset.url for path, asset in self.files.items()}
        importmap = json.dumps({"imports": urls}, indent=None, sort_keys=True)
        # "</" cannot end the script element early: JSON allows "<\/" for "</".
        importmap = importmap.replace("</", "<\\/")
        page = template.replace("{{importmap}}", importmap)
        for path, url in urls.items():
            page = page.replace("{{" + path + "}}", html.escape(url))
        if "{{" in page:
            start = page.index("{{")
            raise ValueError(
                f"{PAGE} names an asset that does not exist: {page[start : start + 60]}"
            )
        return page


def _inline_script_hash(page: str) -> str:
    """The CSP hash of the page's one inline script, the import map."""
    start = page.index(IMPORTMAP) + len(IMPORTMAP)
    end = page.index("</script>", start)
    return base64.b64encode(hashlib.sha256(page[start:end].encode()).digest()).decode()


@functools.cache
def default_assets() -> Assets:
    """The client shipped in this package, read at the first request."""
    return Assets(STATIC)
