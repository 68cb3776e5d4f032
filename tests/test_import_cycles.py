"""Import cycles (issue 8, item 6): the bots and the neural bot import one way only (the
neural bot asks the heuristic bot, in its own module, where it has no net), the rules
core's moves module does not import the position module at run time, and no module of the
rules core is in a cycle: a position is built from a variant object, the name lookup lives
in ``nardy.core.variants`` alone."""

from __future__ import annotations

import grimp
import pytest

from nardy import LONG_NARDY, Position, variant
from nardy.core.errors import InvalidInputError


def cycles_within(package: str) -> list[tuple[str, str]]:
    """Each direct import ``a -> b`` inside ``package`` that ``b`` leads back from (a run-time
    import anywhere in a function counts; ``TYPE_CHECKING`` imports do not)."""
    graph = grimp.build_graph("nardy", exclude_type_checking_imports=True)
    inside = sorted(m for m in graph.modules if m.startswith(package + "."))
    return [
        (a, b)
        for a in inside
        for b in graph.find_modules_directly_imported_by(a)
        if b.startswith(package + ".") and graph.chain_exists(importer=b, imported=a)
    ]


def test_engine_modules_are_in_no_import_cycle() -> None:
    assert cycles_within("nardy.engine") == []


def test_core_modules_are_in_no_import_cycle() -> None:
    assert cycles_within("nardy.core") == []


def test_a_position_is_built_from_the_variant_not_its_name() -> None:
    """The name lookup is ``nardy.variant``'s; ``from_points`` refuses a name plainly."""
    start = Position.from_points(variant("long"), {24: 15}, {24: 15})
    assert start == LONG_NARDY.start()
    with pytest.raises(InvalidInputError, match=r"nardy.variant\('long'\) is the variant"):
        Position.from_points("long", {24: 15}, {24: 15})  # type: ignore[arg-type]


def test_position_imports_neither_moves_nor_variant_directly_at_run_time() -> None:
    """A position asks its variant for plays; it never reaches the variants' list."""
    graph = grimp.build_graph("nardy", exclude_type_checking_imports=True)
    direct = graph.find_modules_directly_imported_by("nardy.core.position")
    assert "nardy.core.moves" not in direct and "nardy.core.variant" not in direct
    assert "nardy.core.variants" not in direct
