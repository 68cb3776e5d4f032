"""Game clocks as online backgammon uses them: a delay per move and a reserve per player.

Each time the game waits for one player (a roll, a move, an answer to a double), that
player's clock runs. The first ``delay`` seconds of the wait do not count (a Bronstein-style
delay); what goes beyond them comes off the player's ``reserve``. The wait ends when the
game waits for the other player, or for the same player again in a new turn (a play
confirmed, a game started); it goes on through the single moves of one turn. Nobody's clock
runs while the game waits for both (the opening roll) or for nobody.

A player whose reserve runs out loses: the server applies the core's
:class:`~nardy.core.actions.Forfeit` (``time``), which loses the match in match play and the
game at the cube's value in money play. In a match the reserve is per match point when the
settings say ``per-point`` (the USBGF convention: 12 s delay and 2 minutes per point); in
money play, and in long nardy's unlimited series, each game starts with a full reserve.

The clock's state is committed with every action (``games.clock_state``), so another
process, or the same one after a restart, goes on with it where it was; times are wall-clock
seconds since the epoch for that reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nardy.core.events import Event, GameStarted, NoLegalMove, PlayConfirmed, RollAgain

TURN_EVENTS: tuple[type[Event], ...] = (PlayConfirmed, NoLegalMove, GameStarted, RollAgain)
"""Events after which the player awaited next starts a new move, with a fresh delay, even if
it is the same player (acey-deucey's roll again, a turn passed, a new game)."""

DELAY_RANGE = (0.0, 600.0)
"""Seconds a delay may be: none to ten minutes."""
RESERVE_RANGE = (0.1, 36_000.0)
"""Seconds a reserve may be (per match point or per game): a tenth of a second to ten
hours."""


class ClockError(ValueError):
    """A clock setting the lobby refuses (``invalid-clock``)."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """How a game's clock runs: ``delay`` seconds of each move free, then the ``reserve``
    (seconds; per match point in a match when ``per_point``, else for the whole match; per
    game in money play)."""

    delay: float
    reserve: float
    per_point: bool = True

    def reserve_for(self, length: int) -> float:
        """The reserve each player starts with: for the match (length > 0) or a game of
        money play (length 0); at most ``RESERVE_RANGE``'s top per point times 64 points,
        the longest match (``nardy.core.settings.BOUNDS``)."""
        return self.reserve * length if self.per_point and length else self.reserve

    def to_json(self) -> dict[str, Any]:
        """``{"delay": seconds, "reserve": seconds, "per-point": bool}``."""
        return {"delay": self.delay, "reserve": self.reserve, "per-point": self.per_point}


PRESETS: dict[str, ClockSettings] = {
    "blitz": ClockSettings(8.0, 60.0),
    "standard": ClockSettings(12.0, 120.0),  # the USBGF convention
    "slow": ClockSettings(20.0, 240.0),
}
"""The lobby's named clocks; ``none`` (the default) is no clock."""


def _seconds(value: object, name: str, bounds: tuple[float, float]) -> float:
    low, high = bounds
    # A bool is no number of seconds; NaN and JSON's 1e999 (infinity) fail the comparison,
    # and a huge int is compared as it is, never turned into a float that overflows.
    if not (type(value) in (int, float) and low <= value <= high):  # type: ignore[operator]
        shown = f"{value:g}" if type(value) is float else repr(value)[:40]
        raise ClockError(f"the clock's {name} is {low:g}-{high:g} seconds, not {shown}")
    return float(value)  # type: ignore[arg-type]


def clock_from(data: object) -> ClockSettings | None:
    """The clock a lobby request asks for: ``null`` or ``"none"`` (no clock), a preset's
    name (``blitz``, ``standard``, ``slow``), or ``{"delay": s, "reserve": s, "per-point":
    bool}`` (``per-point`` true by default). :class:`ClockError` for anything else."""
    if data is None or data == "none":
        return None
    if isinstance(data, str):
        if data not in PRESETS:
            raise ClockError(f"the clock is none, {', '.join(PRESETS)} or an object, not {data!r}")
        return PRESETS[data]
    if not isinstance(data, dict):
        raise ClockError("the clock is none, a preset's name or {delay, reserve, per-point}")
    unknown = sorted(set(data) - {"delay", "reserve", "per-point"})
    if unknown:
        raise ClockError(f"the clock has no field(s) {', '.join(map(str, unknown))}")
    if "delay" not in data or "reserve" not in data:
        raise ClockError("a clock needs its delay and its reserve, in seconds")
    per_point = data.get("per-point", True)
    if type(per_point) is not bool:
        raise ClockError(f"the clock's per-point is true or false, not {per_point!r}")
    return ClockSettings(
        _seconds(data["delay"], "delay", DELAY_RANGE),
        _seconds(data["reserve"], "reserve", RESERVE_RANGE),
        per_point,
    )


def stored_clock(data: Mapping[str, Any] | None) -> ClockSettings | None:
    """The clock a game row keeps (what :meth:`ClockSettings.to_json` wrote)."""
    if data is None:
        return None
    return ClockSettings(float(data["delay"]), float(data["reserve"]), bool(data["per-point"]))


@dataclass(frozen=True, slots=True)
class ClockState:
    """Where a game's clock stands: each player's ``reserve`` left (for the player whose
    clock runs, as it was when the move began), whose clock ``running`` (None: nobody's),
    and ``since`` when (wall-clock seconds)."""

    reserve: tuple[float, float]
    running: int | None = None
    since: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"reserve": list(self.reserve), "running": self.running, "since": self.since}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockState:
        a, b = data["reserve"]
        running = data["running"]
        since = float(data["since"])
        return cls((float(a), float(b)), None if running is None else int(running), since)


def start(clock: ClockSettings, length: int) -> ClockState:
    """A match's clock before its first action: full reserves, nobody's running."""
    full = clock.reserve_for(length)
    return ClockState((full, full))


def used(clock: ClockSettings, state: ClockState, now: float) -> float:
    """Seconds of reserve the running player has used in this move by ``now``."""
    if state.running is None:
        return 0.0
    return max(0.0, now - state.since - clock.delay)


def deadline(clock: ClockSettings, state: ClockState) -> float | None:
    """When the running player's reserve runs out (None when nobody's clock runs)."""
    if state.running is None:
        return None
    return state.since + clock.delay + state.reserve[state.running]


def flagged(clock: ClockSettings, state: ClockState, now: float) -> int | None:
    """The player whose reserve has run out by ``now``, if any."""
    end = deadline(clock, state)
    return None if end is None or now < end else state.running


def after(
    clock: ClockSettings,
    state: ClockState,
    length: int,
    now: float,
    awaited: int | None,
    events: Sequence[Event],
) -> ClockState:
    """The clock after an action committed at ``now``: the player awaited next (None for
    both or nobody) and the action's events decide whose clock runs. A move that ends is
    charged to its player's reserve; money play refills both reserves for a new game."""
    new_move = awaited != state.running or any(isinstance(e, TURN_EVENTS) for e in events)
    if not new_move:
        return state  # the same move goes on: nothing charged yet
    reserve = list(state.reserve)
    if state.running is not None:
        seat = state.running
        reserve[seat] = max(0.0, reserve[seat] - used(clock, state, now))
    if not length and any(isinstance(e, GameStarted) for e in events):
        reserve = [clock.reserve_for(length)] * 2
    return replace(state, reserve=(reserve[0], reserve[1]), running=awaited, since=now)


def view(clock: ClockSettings, state: ClockState, now: float) -> dict[str, Any]:
    """The clock as the room's state shows it: the settings, each player's reserve as it was
    when the running move began, whose clock runs and for how long it has (``elapsed``,
    seconds, of which the first ``delay`` are free). A client counts on from ``elapsed``."""
    return {
        **clock.to_json(),
        "reserve": list(state.reserve),
        "running": state.running,
        "elapsed": 0.0 if state.running is None else max(0.0, now - state.since),
    }
