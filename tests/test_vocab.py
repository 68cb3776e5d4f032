"""The client's generated vocabulary (``nardy/web/static/js/vocab.js``): the committed file
is what ``python3 -m nardy.server.vocabulary`` writes from the Python now, and every name a
script imports from it is one it exports."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from nardy.core.actions import ACTIONS
from nardy.core.events import EVENTS
from nardy.server import vocabulary
from nardy.server.accounts.users import Preferences
from nardy.server.games import GameKind, GameStatus
from nardy.web.assets import STATIC

IMPORT = re.compile(r'import\s*\{([^}]*)\}\s*from\s*"/js/vocab\.js"')
EXPORT = re.compile(r"^export const (\w+) =", re.MULTILINE)


def test_the_committed_vocabulary_is_current() -> None:
    committed = vocabulary.TARGET.read_text(encoding="utf-8")
    assert committed == vocabulary.render(), (
        f"{vocabulary.TARGET} is stale: run {vocabulary.COMMAND} and commit it"
    )


def test_check_fails_on_a_stale_file_until_it_is_written(tmp_path: Path) -> None:
    target = tmp_path / "vocab.js"
    target.write_text(vocabulary.render().replace('"roll-opening"', '"roll-first"'))
    assert vocabulary.main(["--check", "--output", str(target)]) == 1
    assert vocabulary.main(["--output", str(target)]) == 0
    assert vocabulary.main(["--check", "--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == vocabulary.render()


def test_it_names_every_kind_of_action_event_game_and_status() -> None:
    values: dict[str, Any] = {c.name: c.value for c in vocabulary.constants()}
    assert values["ACTION"]["ROLL_OPENING"] == "roll-opening"
    assert sorted(values["ACTION"].values()) == sorted(ACTIONS)
    assert sorted(values["EVENT"].values()) == sorted(EVENTS)
    assert list(values["GAME_KIND"].values()) == list(GameKind)
    assert list(values["GAME_STATUS"].values()) == list(GameStatus)
    assert values["PREFERENCES"] == Preferences().to_dict()


def test_every_name_a_script_imports_from_it_is_exported() -> None:
    exported = set(EXPORT.findall(vocabulary.render()))
    imported: dict[str, set[str]] = {}
    for script in sorted((STATIC / "js").glob("*.js")):
        for names in IMPORT.findall(script.read_text(encoding="utf-8")):
            for name in names.split(","):
                name = name.split(" as ")[0].strip()
                if name:
                    imported.setdefault(name, set()).add(script.name)
    missing = {name: sorted(files) for name, files in imported.items() if name not in exported}
    assert not missing, f"imported from vocab.js but not exported by it: {missing}"
