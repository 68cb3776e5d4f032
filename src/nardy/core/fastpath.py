"""The compiled fast path: the C extensions nardy uses where they are built (docs/engine.md).

Each extension has a pure-Python reference in the package that gives exactly the same answers
(the tests compare them): ``nardy.core._movegen`` for :meth:`Variant.play_paths
<nardy.core.variant.Variant.play_paths>`, ``nardy.engine._features`` for the nets' input
encodings. ``pip install`` builds them; in a source checkout ``python3 setup.py build_ext
--inplace`` does. The environment variable ``NARDY_FASTPATH``, read when nardy is imported,
chooses: ``auto`` (the default) the compiled code where it is built, ``compiled`` the
compiled code or an ImportError, ``python`` the references only.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

VARIABLE = "NARDY_FASTPATH"
CHOICES = ("auto", "compiled", "python")

_in_use: dict[str, bool] = {}


def choice() -> str:
    """What ``NARDY_FASTPATH`` asks for (``auto`` when unset)."""
    value = os.environ.get(VARIABLE, "auto").strip().lower()
    if value not in CHOICES:
        raise ValueError(f"{VARIABLE} must be one of {', '.join(CHOICES)}, not {value!r}")
    return value


def load(module: str) -> ModuleType | None:
    """The compiled module ``module`` if it is built and chosen, else None (the caller then
    uses its pure-Python reference)."""
    wanted = choice()
    found = None
    if wanted != "python":
        try:
            found = importlib.import_module(module)
        except ImportError as missing:
            if wanted == "compiled":
                raise ImportError(
                    f"{VARIABLE}=compiled, but {module} is not built: install nardy "
                    "(pip install .) or run python3 setup.py build_ext --inplace"
                ) from missing
    _in_use[module] = found is not None
    return found


def in_use() -> dict[str, bool]:
    """Each compiled module nardy has looked for, and whether it uses it."""
    return dict(_in_use)
