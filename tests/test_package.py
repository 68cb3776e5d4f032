"""Packaging and architecture: what the rules core may import, and the layers."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_core_and_notation_import_only_the_standard_library() -> None:
    """`import nardy` in a fresh interpreter loads nothing outside the standard library."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import nardy, nardy.core, nardy.notation\n"
        "loaded = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(','.join(sorted(loaded - set(sys.stdlib_module_names) - {'nardy'})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == ""


def _tool(name: str) -> str:
    path = shutil.which(name) or str(Path(sys.executable).parent / name)
    if not Path(path).exists():
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["lint-imports"],
        ["ruff", "check", "src", "tests", "bench", "train"],
        ["ruff", "format", "--check", "src", "tests", "bench", "train"],
        ["mypy"],
    ],
    ids=["layers", "ruff", "ruff-format", "mypy"],
)
def test_code_quality(command: list[str]) -> None:
    """The layer contract (docs/architecture.md), ruff and mypy --strict all pass."""
    result = subprocess.run(
        [_tool(command[0]), *command[1:]], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stdout + result.stderr
