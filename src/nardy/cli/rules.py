"""``nardy rules``: the project's rules document, which ships inside the package.

The document is ``nardy/rules.md`` (package data; docs/rules.md points to it). Its sections are
numbered as the code, the tests and the help texts cite them ("RULES.md 1.5" is section 1.5):
``nardy rules`` prints the whole text, ``nardy rules 1.5`` one section with its subsections,
``nardy rules long`` the section of a variant, ``nardy rules jacoby`` the section that gives
a setting, and ``nardy rules --contents`` the headings.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from nardy.core import NardyError, UnknownVariantError, variant

DOCUMENT = "rules.md"
"""The file name of the rules document inside the ``nardy`` package."""

PREAMBLE = "preamble"
"""The key of the text before section 1: what the document is, its numbers and marks."""

VARIANT_SECTIONS = {
    "backgammon": "1",
    "nackgammon": "2.1",
    "nackgammon-ballard": "2.1",
    "acey-deucey": "2.2",
    "long": "3",
}
"""The section that gives each variant's rules, by the variant's key."""

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? (.+)$")


class RulesLookupError(NardyError):
    """A section number or variant name that the rules document does not have."""


@dataclass(frozen=True, slots=True)
class Section:
    """One numbered section of the rules: its number ("1.5"), its title and its whole text,
    from its heading to the next heading of the same or a higher level (so a top-level
    section includes its subsections)."""

    number: str
    title: str
    text: str


def rules_text() -> str:
    """The whole rules document, as installed with the package."""
    return resources.files("nardy").joinpath(DOCUMENT).read_text(encoding="utf-8")


def sections(text: str) -> dict[str, Section]:
    """Every section of ``text`` by its number, in the document's order, with the preamble
    (the text before the first numbered section) under :data:`PREAMBLE`."""
    lines = text.splitlines()
    starts = [
        (i, len(m[1]), m[2], m[3])
        for i, line in enumerate(lines)
        if (m := _HEADING.match(line)) is not None
    ]
    first = starts[0][0] if starts else len(lines)
    found = {PREAMBLE: Section(PREAMBLE, "", "\n".join(lines[:first]).strip() + "\n")}
    for k, (start, level, number, title) in enumerate(starts):
        end = next((s for s, lv, _, _ in starts[k + 1 :] if lv <= level), len(lines))
        found[number] = Section(number, title, "\n".join(lines[start:end]).strip() + "\n")
    return found


def lookup(query: str, text: str | None = None) -> Section:
    """The section a player asks for: a number ("3.2"), a variant name or alias ("long",
    "nack"), a setting ("jacoby": the section that defines it), or "preamble". Raises
    :class:`RulesLookupError` for anything else."""
    found = sections(rules_text() if text is None else text)
    key = query.strip().lower().rstrip(".")
    if key in found:
        return found[key]
    number = VARIANT_SECTIONS.get(key)
    if number is None:
        try:
            number = VARIANT_SECTIONS.get(variant(key).key)
        except UnknownVariantError:
            number = _setting_section(key, found)
    if number is None or number not in found:
        numbers = ", ".join(n for n in found if n != PREAMBLE)
        raise RulesLookupError(
            f"no section, variant or setting {query!r} in the rules; sections: {numbers}; "
            f"variants: {', '.join(VARIANT_SECTIONS)}"
        )
    return found[number]


def _setting_section(name: str, found: dict[str, Section]) -> str | None:
    """The most specific section that defines the setting ``name`` (marked "**Setting**")."""
    mark = f"**Setting** `{name}`"
    defining = [s.number for s in found.values() if s.number != PREAMBLE and mark in s.text]
    return max(defining, key=len, default=None)


def contents(text: str) -> str:
    """The headings of the rules, one per line, indented by level."""
    return "\n".join(
        ("  " if "." in s.number else "") + f"{s.number}  {s.title}"
        for s in sections(text).values()
        if s.number != PREAMBLE
    )


def add_parser(subparsers: Any) -> None:
    """Register ``nardy rules``."""
    parser = subparsers.add_parser(
        "rules",
        help="print the rules of play, or one section or variant of them",
        description="Print nardy's rules of play: the whole document, one numbered section "
        "with its subsections (SECTION, e.g. 1.5 or 3), the rules of a variant (VARIANT: "
        f"{', '.join(VARIANT_SECTIONS)}), or the section that gives a setting (SETTING, e.g. "
        "jacoby or last-roll). Help texts and the source cite these sections as 'RULES.md 1.5'.",
    )
    parser.add_argument("what", nargs="?", metavar="SECTION|VARIANT|SETTING", help="(default: all)")
    parser.add_argument(
        "--contents", action="store_true", help="list the numbered sections instead"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """``nardy rules``: print what was asked for."""
    text = rules_text()
    if args.contents:
        if args.what is not None:
            raise RulesLookupError("--contents lists every section: give no SECTION with it")
        print(contents(text))
    elif args.what is None:
        print(text, end="")
    else:
        print(lookup(args.what, text).text, end="")
    return 0
