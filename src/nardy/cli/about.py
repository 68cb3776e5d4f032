"""What is installed: nardy's version and which code it runs, for ``nardy --version`` and the
first line ``nardy serve`` prints."""

from __future__ import annotations

from importlib import metadata

import nardy.engine.features  # noqa: F401  (looks for the compiled encodings, for summary())
from nardy.core import fastpath


def version() -> str:
    """``0.1.0 (compiled move generator and encodings)``: the installed package's version, from
    its metadata (pyproject.toml's ``version``), and which code runs; a nardy installed where
    no C compiler was found says ``(pure-Python move generator and encodings: C extensions not
    built)``."""
    try:
        installed = metadata.version("nardy")
    except metadata.PackageNotFoundError:  # imported from a source tree that is not installed
        installed = "(not installed: no package metadata)"
    return f"{installed} ({fastpath.summary()})"
