"""Every variant nardy plays, in one explicit list, and finding one by name.

To add a variant, write its :class:`~nardy.core.variant.Variant` subclass and add an
instance to :data:`VARIANTS`; nothing is registered as a side effect of importing a module.
"""

from __future__ import annotations

from nardy.core.backgammon import AceyDeucey, Backgammon, BallardNackgammon, Nackgammon
from nardy.core.errors import UnknownVariantError
from nardy.core.long_nardy import LongNardy
from nardy.core.variant import Variant

VARIANTS: tuple[Variant, ...] = (
    Backgammon(),
    Nackgammon(),
    BallardNackgammon(),
    AceyDeucey(),
    LongNardy(),
)
"""Every variant, each a stateless singleton, in the order nardy lists them."""

_BY_NAME = {name: v for v in VARIANTS for name in (v.key, *v.aliases)}


def variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (key or alias, case-insensitive); a variant is itself."""
    if isinstance(name, Variant):
        return name
    try:
        return _BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        known = ", ".join(sorted(v.key for v in VARIANTS))
        raise UnknownVariantError(f"unknown variant {name!r}; known: {known}") from None


def variants() -> list[Variant]:
    """Every variant, each once (:data:`VARIANTS`)."""
    return list(VARIANTS)
