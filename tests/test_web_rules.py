"""The rules pages of the browser client: a page for every variant in every language, each
translation with the same sections and points as the English one and the same numbers in
each point (a point, a count, a roll), headings in the reader's language, and nothing in a
fragment that could run (the page's policy forbids inline scripts; the fragments have none)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from nardy.core import variants
from nardy.web import routes
from nardy.web.assets import STATIC
from nardy.web.routes import PUBLIC_PAGES

LANGUAGES = ("en", "lt", "ru", "uk", "ka")
RULES = STATIC / "rules"
SCRIPT = (STATIC / "js" / "rules.js").read_text(encoding="utf-8")
PAGES = re.findall(r'"([a-z-]+)"', re.search(r"RULE_PAGES = \[(.*?)\]", SCRIPT).group(1))  # type: ignore[union-attr]
PAGE_OF = dict(re.findall(r'^\s+"?([a-z-]+)"?: "/rules/([a-z-]+)[#"]', SCRIPT, re.MULTILINE))
ALLOWED_TAGS = {"h2", "h3", "p", "ul", "li", "strong", "em"}
NAMES = {"Crawford", "Jacoby", "Ballard", "Ballardo", "Nack", "GNU", "Backgammon", "Nackgammon"}
"""Proper names that stay as they are in any language."""
TERMS = {"Oin", "Mars"}
"""Long nardy's words for its results, from its Persian and Turkish past: Lithuanian players
write them so too (seeds/001)."""


class Fragment(HTMLParser):
    """A rules fragment read as its headings and its points (each ``<li>`` or ``<p>``), in
    order, with the tags and attributes it uses."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.headings: list[str] = []
        self.blocks: list[tuple[str, str | None, str]] = []  # tag, id, text
        self._open: list[tuple[str, str | None, list[str]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}
        if tag in {"h2", "h3", "li", "p"}:
            self._open.append((tag, dict(attrs).get("id"), []))

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            name, ident, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            self.blocks.append((name, ident, text))
            if name in {"h2", "h3"}:
                self.headings.append(text)

    def handle_data(self, data: str) -> None:
        for _, _, parts in self._open:
            parts.append(data)


def fragment(lang: str, page: str) -> Fragment:
    return Fragment((RULES / lang / f"{page}.html").read_text(encoding="utf-8"))


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


def test_every_variant_has_a_page_in_every_language() -> None:
    assert set(PAGE_OF) == {v.key for v in variants()}, "rules.js names each variant's page"
    assert set(PAGE_OF.values()) == set(PAGES)
    for lang in LANGUAGES:
        for page in PAGES:
            assert (RULES / lang / f"{page}.html").is_file(), (lang, page)
    present = {p.relative_to(RULES).as_posix() for p in RULES.rglob("*") if p.is_file()}
    assert present == {f"{lang}/{page}.html" for lang in LANGUAGES for page in PAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_a_fragment_is_plain_text_markup(lang: str, page: str) -> None:
    read = fragment(lang, page)
    assert read.tags <= ALLOWED_TAGS, sorted(read.tags - ALLOWED_TAGS)
    assert read.attributes <= {"id", "class"}, sorted(read.attributes)
    assert read.headings[0] and len(read.headings) >= 3


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("page", PAGES)
def test_a_translation_says_all_the_english_says(lang: str, page: str) -> None:
    english, other = fragment("en", page), fragment(lang, page)
    assert [(tag, ident) for tag, ident, _ in other.blocks] == [
        (tag, ident) for tag, ident, _ in english.blocks
    ], "the same sections and points, in the same order"
    for (_, ident, theirs), (_, _, ours) in zip(english.blocks, other.blocks, strict=True):
        assert numbers(ours) == numbers(theirs), (ident, ours)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("page", PAGES)
def test_no_heading_is_left_in_english(lang: str, page: str) -> None:
    english = fragment("en", page).headings
    words = {w.lower() for h in english for w in re.findall(r"[A-Za-z]{3,}", h)} - {
        n.lower() for n in NAMES
    }
    for ours, theirs in zip(fragment(lang, page).headings, english, strict=True):
        assert ours != theirs
        latin = [w for w in re.findall(r"[A-Za-z]+", ours) if w not in NAMES]
        if lang == "lt":  # written in Latin letters: none of the English headings' words
            assert not [w for w in latin if w.lower() in words and w not in TERMS], ours
        else:  # Cyrillic or Georgian script: no Latin word but a name
            assert not latin, ours


def test_the_rules_and_dice_addresses_open_the_client() -> None:
    client = TestClient(Starlette(routes=routes()))
    for address in ("/rules", "/rules/long", "/rules/acey-deucey", "/dice"):
        reply = client.get(address)
        assert reply.status_code == 200, address
        assert '<a href="/rules" data-link data-i18n="nav.rules">' in reply.text
    assert PUBLIC_PAGES == ("/rules", "/rules/{page}", "/dice")
    page = client.get("/").text
    url = re.search(r'"(/assets/[0-9a-f]+/rules/ka/long\.html)"', page)
    assert url is not None, "each fragment is a fingerprinted asset the import map names"
    reply = client.get(url.group(1))
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    assert "გრძელი ნარდი" in reply.text
