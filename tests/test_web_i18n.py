"""The browser client's language catalogues against its code: every key the scripts and the
page name is in every catalogue, no catalogue keeps a key nothing uses, each counted phrase
has exactly the plural forms its language's CLDR rules need, and placeholders match."""

from __future__ import annotations

import json
import re

import pytest

from nardy.web.assets import STATIC

LANGUAGES = ("en", "lt", "ru", "uk", "ka")
CLDR_CARDINALS = {
    # the plural categories of each language for whole numbers, from CLDR's plurals.xml
    # (Intl.PluralRules in the browser picks among them); "many" in Lithuanian is for
    # fractions only, but Intl may name it, so the catalogue carries it too
    "en": {"one", "other"},
    "ka": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
    "lt": {"one", "few", "many", "other"},
}
CALL = re.compile(r"""\b(tn?)\(\s*["']([a-z0-9][a-z0-9.-]*)["']""")
ATTR = re.compile(
    r"""data-i18n(?:-aria|-placeholder|-title)?["']?\s*[=:]\s*["']([a-z0-9][a-z0-9.-]*)["']"""
)
DATASET = re.compile(r"""dataset\.i18n\w*\s*=\s*["']([a-z0-9][a-z0-9.-]*)["']""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def used_keys() -> dict[str, str]:
    """Every key the client names, mapped to how: "t" (a text) or "tn" (a counted phrase)."""
    keys: dict[str, str] = {}
    sources = [*STATIC.rglob("*.js"), STATIC / "index.html"]
    for source in sources:
        text = source.read_text(encoding="utf-8")
        for kind, key in CALL.findall(text):
            if keys.get(key, kind) != kind:
                raise AssertionError(f"{key} is used both as a text and as a counted phrase")
            keys[key] = kind
        for key in [*ATTR.findall(text), *DATASET.findall(text)]:
            keys.setdefault(key, "t")
    return keys


def catalogue(lang: str) -> dict[str, object]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_scanner_sees_the_code() -> None:
    keys = used_keys()
    assert keys["room.pips"] == "tn"  # written in room.js as tn("room.pips", ...)
    assert keys["auth.title"] == "t"  # a data-i18n attribute in a template
    assert len(keys) > 80


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_has_exactly_the_keys_in_use(lang: str) -> None:
    used = set(used_keys())
    have = set(catalogue(lang))
    assert not used - have, f"{lang} lacks {sorted(used - have)}"
    assert not have - used, f"{lang} has keys no code uses: {sorted(have - used)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_follow_cldr(lang: str) -> None:
    kinds = used_keys()
    for key, value in catalogue(lang).items():
        if kinds.get(key) == "tn":
            assert isinstance(value, dict), f"{lang} {key} is counted: one form per category"
            assert set(value) == CLDR_CARDINALS[lang], f"{lang} {key}: {sorted(value)}"
            assert all(isinstance(v, str) and v for v in value.values())
        else:
            assert isinstance(value, str) and value.strip(), f"{lang} {key} is a plain text"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_placeholders_match_english(lang: str) -> None:
    english = catalogue("en")

    def names(value: object) -> set[str]:
        texts = value.values() if isinstance(value, dict) else [value]
        return {name for text in texts for name in PLACEHOLDER.findall(str(text))}

    for key, value in catalogue(lang).items():
        assert names(value) == names(english[key]), f"{lang} {key}"
