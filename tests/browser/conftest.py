"""Fixtures of the browser suite: a real ``nardy serve`` process on a free port with its own
data directory, and Debian's Chromium driven by Playwright (its own browser download is not
used). Without Chromium or Playwright the suite is skipped with the reason, and fails
instead when ``CI=true``."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nardy
from tests.server.serverutil import ServerProcess

CHROMIUM = os.environ.get("NARDY_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(os.environ.get("NARDY_SCREENSHOTS", Path(tempfile.gettempdir()) / "nardy-screenshots"))
"""Where the tests leave their screenshots, to be looked at."""


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


# Package scope: Playwright's event loop must be gone before other packages run (asyncio.run)
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install playwright)")
    if not shutil.which(CHROMIUM):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium fonts-noto-core)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def start_server(data_dir: Path) -> ServerProcess:
    """The server of the nardy being tested (the source tree this test imported)."""
    source = Path(nardy.__file__).resolve().parents[1]
    data_dir.mkdir(parents=True, exist_ok=True)  # the server's log is written there
    return ServerProcess(data_dir, None, PYTHONPATH=str(source), NARDY_AUTH_RATE="1000/60").start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = start_server(tmp_path / "data")
    yield process
    process.kill()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


CONSOLE_KINDS = ("error", "warning")
"""What a page may not write to its console: an error or warning there is a defect of the
page's (a keyframe of NaN pixels, a failed script), even where the test's checks pass."""


class Pages:
    """Opens a page in a browser context of its own (a person of their own), and hears what
    the pages write to their consoles."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.console: list[str] = []
        self.expected: list[str] = []

    def __call__(self, locale: str = "en-US", **options: Any) -> Any:
        context = self.browser.new_context(locale=locale, **options)
        self.contexts.append(context)
        page = context.new_page()
        page.on("console", self._heard)
        return page

    def expect_console(self, text: str) -> None:
        """A console line with ``text`` is what the test brings about (a socket refused
        while the test has stopped the server), not a defect."""
        self.expected.append(text)

    def _heard(self, message: Any) -> None:
        if message.type in CONSOLE_KINDS and not any(e in message.text for e in self.expected):
            self.console.append(f"{message.type}: {message.text} ({message.location.get('url')})")


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    """Pages, each a person of their own; every context is closed after the test, so no page
    of one test reconnects to the next one's server. The test fails if any page wrote an
    error or a warning to its console that it did not expect."""
    opened = Pages(browser)
    yield opened
    for context in opened.contexts:
        context.close()
    assert not opened.console, "the pages wrote to their consoles:\n" + "\n".join(opened.console)
