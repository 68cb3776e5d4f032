"""A match (or money session, or long-nardy series) of two players at a terminal: a person
against the bot, or two people at one screen, from the start or from a chosen position
(:mod:`nardy.core.setup`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from nardy.cli.options import describe_settings
from nardy.cli.terminal import Terminal
from nardy.cli.words import counted, dice_text, rolled
from nardy.core.game import Game, GameResult, Phase
from nardy.core.match import Match
from nardy.engine.bots import Bot, step
from nardy.notation.record import match_records


def mirrored(home: str) -> str:
    """The same corner on the other side: the display setting "automatic switching of
    sides after each game" (RULES.md 4)."""
    vertical, side = home.split("-")
    return f"{vertical}-{'left' if side == 'right' else 'right'}"


class TerminalSession(Terminal):
    """A match (or money session) of two players at a terminal.

    ``bots`` has one entry per seat: a :class:`Bot` plays that seat, None is a person typing
    at ``inp``. A game already under way in ``match`` (one from a chosen position,
    :func:`nardy.core.setup.start_game`) is played first; ``notes`` are said before it.
    """

    def __init__(
        self,
        match: Match,
        bots: Sequence[Bot | None],
        inp: TextIO,
        out: TextIO,
        *,
        home: str = "bottom-right",
        record: Path | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__(inp, out, home=home, record=record, notes=notes)
        self.match = match
        self.bots = tuple(bots)
        game = match.game
        self._chosen = game if game is not None and not game.over else None

    def name(self, player: int) -> str:
        return self.match.players[player]

    def _viewer(self, game: Game) -> int:
        people = [seat for seat, bot in enumerate(self.bots) if bot is None]
        return people[0] if len(people) == 1 else game.turn

    def _records(self) -> list[dict[str, Any]]:
        return match_records(self.match)

    def _session(self) -> None:
        self.say(self._title())
        self.say(f"Settings: {describe_settings(self.match.settings)}.")
        self._introduce()
        while not self.match.over:
            game = self.match.game
            if game is None or game.over:
                game = self.match.new_game()
            self._play(game)
            self.save()
            if not self.match.over:
                self._between_games(len(self.match.games) + 1)
        self._match_over()

    def _title(self) -> str:
        settings = self.match.settings
        what = settings.rules.name
        if self.match.length:
            what += f", a {self.match.length}-point match"
        elif settings.rules.resignation_levels:
            what += ", money play"
        else:
            what += ", an unlimited series"
        return f"{what}: {self.name(0)} against {self.name(1)}."

    def _match_over(self) -> None:
        a, b = self.match.score
        winner = self.match.winner
        if self.match.length and winner is not None:
            self.say(f"{self._does(winner, 'win')} the match {max(a, b)}-{min(a, b)}.")
        else:
            self.say(f"The session is over: {self._score()}.")

    def _score(self) -> str:
        """``You 1, Bot 0``, and in a match ``(1-0 of 3)`` after it."""
        a, b = self.match.score
        length = self.match.length
        of = f" ({a}-{b} of {length})" if length else ""
        return f"{self.name(0)} {a}, {self.name(1)} {b}{of}"

    def _play(self, game: Game) -> None:
        number = len(self.match.games)
        if self.switch_sides and number > 1:
            self.home = mirrored(self.home)
        crawford = " (the Crawford game: no doubling)" if game.crawford else ""
        self.say(f"\nGame {number}{crawford}. Score: {self._score()}.")
        if game is self._chosen:
            self.say(self._chosen_start(game))
        elif game.phase is Phase.ROLL:  # a later game of a long-nardy series: no lot
            self.say(f"{self._does(game.turn, 'start')}.")
        while not game.over:
            if game.phase is Phase.OPENING:
                self._opening(game)
                continue
            self._announce_last_roll(game)
            player = game.awaiting(moves=False).player
            assert isinstance(player, int)
            bot = self.bots[player]
            if bot is None:
                self._human(game, player)
                continue
            rolling = game.phase is Phase.ROLL
            done = step(game, self.bots)
            if rolling and game.phase is not Phase.DOUBLED:  # the dice, larger first
                done = f"rolls {rolled(game)}"
            self.say(f"{self.name(player)} {done}.")
        self._show(game, self._viewer(game))
        assert game.result is not None
        self.say(self._last_roll_outcome(game, game.result) + self._result(game.result))
        self.say(f"Score: {self._score()}.")

    def _chosen_start(self, game: Game) -> str:
        """How a game from a chosen position begins: who is on roll, with which dice."""
        first = game.first_player
        assert first is not None
        said = f"A game from a chosen position: {self._does(first, 'be')} on roll"
        if game.records:  # the chosen dice had no legal move
            said += f" and {self._verb(first, 'roll')} {rolled(game)}"
        elif game.phase is Phase.MOVING:
            assert game.dice is not None
            said += f" with {dice_text(game.dice)}"
        elif game.phase is Phase.DOUBLED:
            said += f" and {self._verb(first, 'double')} to {2 * game.cube.value}"
        return said + "."

    def _result(self, result: GameResult) -> str:
        if result.winner is None:
            return "The game is a draw: the last roll bore every checker off."
        winner, loser = result.winner, 1 - result.winner
        points = counted(result.points, "point")
        wins = self._does(winner, "win")
        if result.kind == "pass":
            return f"{self._does(loser, 'pass')} the double. {wins} {points}."
        if result.kind == "resign":
            gave_up = "surrender" if not self.match.settings.rules.resignation_levels else "resign"
            return f"{self._does(loser, gave_up)} ({result.level}). {wins} {points}."
        article = "an" if result.kind[0] in "aeiou" else "a"
        return f"{wins} {article} {result.kind}: {points}."
