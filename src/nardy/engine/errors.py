"""The engine's errors: questions it cannot answer, as nardy errors (``nardy.core.errors``).

A variant without a trained net, a lookahead out of range, a cube or score that cannot be,
a weights file that is not a net: each is an :class:`EngineError`, a
:class:`~nardy.core.errors.NardyError` (and so a ``ValueError``), never a bare
``ValueError``, so that every command reports it as bad input.
"""

from __future__ import annotations

from nardy.core.errors import NardyError


class EngineError(NardyError):
    """A question the engine cannot answer as asked (see the module docstring)."""


class NoNetError(EngineError):
    """A variant the engine has no trained net for (no family, or its weights not installed)."""
