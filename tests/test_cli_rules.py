"""The project's rules document (src/nardy/rules.md), ``nardy rules`` and ``nardy --version``.

The document must ship in the package, hold every section the code and the tests cite
("RULES.md 1.5"), and list every game setting with the defaults the code really uses.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from nardy.cli.main import main
from nardy.cli.rules import (
    DOCUMENT,
    PREAMBLE,
    VARIANT_SECTIONS,
    RulesLookupError,
    lookup,
    rules_text,
    sections,
)
from nardy.core import fastpath, variants
from nardy.core.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
TEXT = rules_text()
SECTIONS = sections(TEXT)
CITATION = re.compile(
    r"(?:RULES\.md|rules\.md|nardy rules|\(rules)[,:]? "
    r"(\d+(?:\.\d+)?(?:(?:\s*[-/,]\s*|\s+and\s+)\d+(?:\.\d+)?)*)"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _cited_files() -> list[Path]:
    found = [ROOT / "README.md"]
    for folder in ("src", "tests", "bench", "train", "docs"):
        found += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md"))
    return found


def test_every_cited_section_exists() -> None:
    """Every "RULES.md N.N" (or "rules.md", "nardy rules") citation in the code, the tests and
    the docs names a section the rules document has."""
    cited: dict[str, Path] = {}
    for path in _cited_files():
        for m in CITATION.finditer(path.read_text(encoding="utf-8")):
            for number in re.findall(r"\d+(?:\.\d+)?", m[1]):
                cited.setdefault(number, path)
    assert {"1.1", "1.5", "1.9", "2", "3.2", "3.5", "4"} <= set(cited)  # the scan finds them
    missing = {n: str(p.relative_to(ROOT)) for n, p in cited.items() if n not in SECTIONS}
    assert missing == {}


def test_sections_follow_the_specifications_numbers() -> None:
    """The numbers and the meaning the code relies on: 1.5 the cube, 3.2 long nardy's moves…"""
    titles = {n: s.title for n, s in SECTIONS.items()}
    assert titles["1.5"] == "The doubling cube"
    assert titles["1.7"] == "Chouette"
    assert titles["2"] == "Variants of backgammon"
    assert titles["3.2"] == "Moving"
    assert "Head rule" in SECTIONS["3.2"].text and "Six-block rule" in SECTIONS["3.2"].text
    assert titles["4"] == "Common to every variant"
    assert list(SECTIONS)[:4] == [PREAMBLE, "1", "1.1", "1.2"]


def test_both_nackgammon_layouts_are_given() -> None:
    """rules 2.1: the source document's layout and Nack Ballard's (GNU Backgammon's)."""
    text = SECTIONS["2.1"].text
    assert "`nackgammon`" in text and "24:4 23:1 13:2 8:3 6:5" in text
    assert "`nackgammon-ballard`" in text and "24:2 23:2 13:4 8:3 6:4" in text


def test_every_variant_has_its_section() -> None:
    for v in variants():
        assert v.key in VARIANT_SECTIONS, v.key
        assert VARIANT_SECTIONS[v.key] in SECTIONS
        for name in (v.key, *v.aliases):  # every name the code accepts, as it spells it
            assert f"`{name}`" in SECTIONS[VARIANT_SECTIONS[v.key]].text, name


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"`{value}`" if isinstance(value, str) else str(value)


def _settings_table() -> dict[str, list[str]]:
    rows = {}
    for line in SECTIONS["5"].text.splitlines():
        if m := re.match(r"\| `([a-z-]+)` \|", line):
            rows[m[1]] = [c.strip() for c in line.strip().strip("|").split("|")]
    return rows


def test_every_setting_is_listed_with_the_codes_defaults() -> None:
    """rules 5: one row per setting, named as Settings.to_dict names it, whose default columns
    are what Settings().resolve() fills in for money play (— where the variant lacks it)."""
    table = _settings_table()
    every = {f.replace("_", "-") for f in Settings.__dataclass_fields__}
    assert set(table) == every
    for column, name in ((2, "backgammon"), (2, "nackgammon"), (2, "acey-deucey"), (3, "long")):
        resolved = Settings(variant=name).resolve().to_dict()
        for setting, row in table.items():
            expected = _cell(resolved[setting]) if setting in resolved else "—"
            if setting == "variant":
                expected = "`backgammon`" if column == 2 else "`long`"
            assert row[column].split()[0] == expected, (name, setting, row[column])
    for setting in every - {"variant"}:  # each is explained where its rule is
        assert f"**Setting** `{setting}`" in TEXT, setting


def test_the_settings_flags_exist(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    help_text = capsys.readouterr().out
    for row in _settings_table().values():
        for flag in re.findall(r"--[a-z-]+", row[4]):
            assert re.search(rf"{flag}\b", help_text), flag


def test_rules_prints_the_whole_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules")
    assert (code, err) == (0, "")
    assert out == TEXT
    assert out.startswith("# The rules of play\n")


def test_rules_section_prints_that_section_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "1.5")
    assert code == 0
    assert out.startswith("### 1.5 The doubling cube\n")
    assert "`beaver`" in out and "`jacoby`" in out
    assert "### 1.6" not in out and "### 1.4" not in out


def test_a_top_level_section_includes_its_subsections(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "rules", "3")
    assert out.startswith('## 3. Long nardy ("long backgammon")\n')
    for n in ("3.1", "3.2", "3.3", "3.4", "3.5"):
        assert f"### {n} " in out
    assert "## 4." not in out and "### 2.2" not in out


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("long", "3"),
        ("long-nardy", "3"),
        ("backgammon", "1"),
        ("BG", "1"),
        ("nack", "2.1"),
        ("nackgammon-ballard", "2.1"),
        ("acey-deucey", "2.2"),
        ("jacoby", "1.5"),
        ("cube", "1.5"),
        ("limit-minutes", "1.6"),
        ("last-roll", "3.4"),
    ],
)
def test_rules_variant_or_setting_prints_its_section(
    capsys: pytest.CaptureFixture[str], name: str, number: str
) -> None:
    """A variant's rules (its name or an alias), or the section that defines a setting."""
    code, out, _ = run(capsys, "rules", name)
    assert code == 0
    assert out == SECTIONS[number].text


def test_every_setting_has_a_section() -> None:
    for name in _settings_table():
        if name != "variant":  # a variant's section is found by the variant's name
            assert f"**Setting** `{name}`" in lookup(name).text


def test_an_unknown_section_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "6.1")
    assert (code, out) == (2, "")
    assert "no section, variant or setting '6.1'" in err and "1.5" in err and "long" in err
    with pytest.raises(RulesLookupError):
        lookup("chess")


def test_contents_lists_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--contents")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == [n for n in SECTIONS if n != PREAMBLE]
    assert "  1.5  The doubling cube" in out.splitlines()
    code, out, err = run(capsys, "rules", "--contents", "1.5")
    assert (code, out) == (2, "")
    assert "--contents" in err


def test_version_comes_from_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out == f"nardy {metadata.version('nardy')} ({fastpath.summary()})\n"
    assert re.fullmatch(r"nardy \d+\.\d+\S* \((compiled|pure-Python) [^\n]+\)\n", out)


def test_the_built_package_ships_the_rules_document(tmp_path: Path) -> None:
    """setuptools' build of the package (what a wheel holds) includes the document, so an
    installed nardy can print its rules."""
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    built = tmp_path / "built"
    subprocess.run(
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "build_py", "-d", built],
        cwd=tree,
        check=True,
        capture_output=True,
    )
    assert (built / "nardy" / DOCUMENT).read_text(encoding="utf-8") == TEXT


def test_nothing_points_outside_the_clone() -> None:
    """README and the docs link the project's rules document, not the specification
    beside the repository."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path
    assert "src/nardy/rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../src/nardy/rules.md" in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
