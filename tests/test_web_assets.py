"""The client's files as ``nardy serve`` sends them: under URLs that carry a hash of their
content, cached for a year; the page at every address of the client, never cached, naming
each file by its current URL; a stale or unknown URL is not found."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from nardy.web import PAGES, Assets, routes
from nardy.web.assets import STATIC


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(Starlette(routes=routes()))


def test_every_client_address_serves_the_page_uncached(client: TestClient) -> None:
    addresses = ("/", "/signin", "/claim", "/lobby", "/game/q3X0ab12cd9z", "/invite/abc")
    for address in (*addresses, "/u/alice", "/replay/q3X0ab12cd9z"):
        reply = client.get(address)
        assert reply.status_code == 200, address
        assert reply.headers["cache-control"] == "no-cache"
        assert "<main" in reply.text
    assert len(PAGES) == 8


def test_the_page_names_every_asset_by_its_content_hash(client: TestClient) -> None:
    page = client.get("/").text
    assert "{{" not in page
    for path in ("/js/app.js", "/css/site.css", "/i18n/ka.json", "/js/board.js"):
        body = (STATIC / path.lstrip("/")).read_bytes()
        url = f"/assets/{hashlib.sha256(body).hexdigest()[:16]}{path}"
        assert url in page, path
        reply = client.get(url)
        assert reply.status_code == 200
        assert reply.content == body
        assert reply.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get("/assets/0123456789abcdef/js/app.js").status_code == 404  # stale digest
    assert client.get("/assets/0123456789abcdef/js/nothing.js").status_code == 404


def test_media_types(client: TestClient) -> None:
    page = client.get("/").text
    for path, media in (("/js/app.js", "text/javascript"), ("/css/site.css", "text/css")):
        url = re.search(rf'"(/assets/[0-9a-f]+{re.escape(path)})"', page)
        assert url is not None
        assert client.get(url.group(1)).headers["content-type"].startswith(media)


def test_only_the_import_map_may_run_inline(client: TestClient) -> None:
    reply = client.get("/")
    policy = reply.headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in policy
    assert "unsafe-inline" not in policy
    assert reply.text.count("<script") == 2  # the import map and the entry module


def test_a_changed_file_gets_a_new_url(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "index.html").write_text(
        '<script type="importmap">{{importmap}}</script><script src="{{/js/a.js}}"></script>'
    )
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    before = Assets(tmp_path).url("/js/a.js")
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")
    after = Assets(tmp_path)
    assert after.url("/js/a.js") != before
    assert before not in after.page
    assert after.page.count(after.url("/js/a.js")) == 2  # the import map and the tag


def test_a_page_naming_a_missing_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<link href='{{/css/gone.css}}'>")
    with pytest.raises(ValueError, match="does not exist"):
        Assets(tmp_path)
