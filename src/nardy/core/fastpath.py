"""The compiled fast path: the C extensions nardy uses where they are built (docs/engine.md).

Each extension has a pure-Python reference in the package that gives exactly the same answers
(the tests compare them): ``nardy.core._movegen`` for :meth:`Variant.play_paths
<nardy.core.variant.Variant.play_paths>`, ``nardy.engine._features`` for the nets' input
encodings. ``pip install`` builds them where it finds a C compiler and installs nardy without
them where it does not (they are optional in setup.py); in a source checkout ``pip install
-e .`` or ``python3 setup.py build_ext --inplace`` builds them in place. The environment
variable ``NARDY_FASTPATH``, read when nardy is imported, chooses: ``auto`` (the default) the
compiled code where it is built, ``compiled`` the compiled code or an ImportError, ``python``
the references only. :func:`summary` says which code runs, for ``nardy --version`` and the
server's start-up.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType

VARIABLE = "NARDY_FASTPATH"
CHOICES = ("auto", "compiled", "python")


@dataclass(frozen=True, slots=True)
class Loaded:
    """What nardy runs for one compiled module: the module, what it computes (``move
    generator``), and why its pure-Python reference runs instead (None: the compiled code
    runs)."""

    module: str
    what: str
    instead: str | None


_loaded: dict[str, Loaded] = {}


def choice() -> str:
    """What ``NARDY_FASTPATH`` asks for (``auto`` when unset)."""
    value = os.environ.get(VARIABLE, "auto").strip().lower()
    if value not in CHOICES:
        raise ValueError(f"{VARIABLE} must be one of {', '.join(CHOICES)}, not {value!r}")
    return value


def load(module: str, what: str) -> ModuleType | None:
    """The compiled module ``module`` (which computes ``what``, in words) if it is built and
    chosen, else None (the caller then uses its pure-Python reference)."""
    wanted = choice()
    found = None
    instead = f"{VARIABLE}=python"
    if wanted != "python":
        try:
            found = importlib.import_module(module)
        except ImportError as missing:
            if wanted == "compiled":
                raise ImportError(
                    f"{VARIABLE}=compiled, but {module} is not built: install nardy where a "
                    "C compiler is found (pip install .) or run python3 setup.py build_ext "
                    "--inplace"
                ) from missing
            instead = "C extensions not built"
    _loaded[module] = Loaded(module, what, None if found is not None else instead)
    return found


def in_use() -> dict[str, bool]:
    """Each compiled module nardy has looked for, and whether it uses it."""
    return {module: chosen.instead is None for module, chosen in _loaded.items()}


def summary() -> str:
    """Which code runs, in words: ``compiled move generator and encodings``, or the pure-Python
    one and why (``pure-Python move generator and encodings: C extensions not built``). Names
    the modules looked for so far: import the ones to be named first."""
    loaded = _loaded.values()
    compiled = [c.what for c in loaded if c.instead is None]
    references = [c for c in loaded if c.instead is not None]
    parts = [f"compiled {' and '.join(compiled)}"] if compiled else []
    if references:  # all for one reason: NARDY_FASTPATH=python, or not built
        whats = " and ".join(c.what for c in references)
        parts.append(f"pure-Python {whats}: {references[0].instead}")
    return "; ".join(parts)
