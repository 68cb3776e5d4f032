"""Import cycles (issue 8, item 6): the bots and the neural bot import one way only (the
neural bot asks the heuristic bot, in its own module, where it has no net), and the rules
core's moves module does not import the position module at run time."""

from __future__ import annotations

import grimp


def test_engine_modules_are_in_no_import_cycle() -> None:
    graph = grimp.build_graph("nardy", exclude_type_checking_imports=True)
    engine = sorted(m for m in graph.modules if m.startswith("nardy.engine."))
    cycles = [
        (a, b)
        for a in engine
        for b in graph.find_modules_directly_imported_by(a)
        if b.startswith("nardy.engine.") and graph.chain_exists(importer=b, imported=a)
    ]
    assert cycles == []


def test_position_imports_neither_moves_nor_variant_directly_at_run_time() -> None:
    """A position asks its variant for plays; only the name lookup of ``from_points`` reaches
    the variants' list."""
    graph = grimp.build_graph("nardy", exclude_type_checking_imports=True)
    direct = graph.find_modules_directly_imported_by("nardy.core.position")
    assert "nardy.core.moves" not in direct and "nardy.core.variant" not in direct
