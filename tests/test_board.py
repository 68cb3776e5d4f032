"""`nardy show` and nardy.cli.board.render: the text board, read back checker by checker."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest

from nardy.cli.board import HOME_CORNERS, render
from nardy.cli.main import main
from nardy.core import BAR, OFF, Position, variant, variants
from nardy.notation import position_from_id, position_id


@dataclass
class Board:
    """What a drawing shows, read back from its text."""

    points: dict[str, dict[int, int]] = field(default_factory=lambda: {"X": {}, "O": {}})
    bar: dict[str, int] = field(default_factory=lambda: {"X": 0, "O": 0})
    bar_half: dict[str, str] = field(default_factory=dict)  # "top" or "bottom"
    off: dict[str, int] = field(default_factory=dict)
    waiting: dict[str, int] = field(default_factory=dict)
    heads: set[int] = field(default_factory=set)
    top: list[int] = field(default_factory=list)  # point numbers left to right
    bottom: list[int] = field(default_factory=list)
    pips: tuple[int, int] = (0, 0)
    position_id: str = ""


def columns(border: str) -> dict[int, int]:
    """{text column of a point's checkers: point number} from a border line."""
    return {m.end() - 1: int(m.group()) for m in re.finditer(r"\d+", border)}


def read_stack(rows: list[str], col: int) -> tuple[str, int] | None:
    """(side, checkers) of one column of rows, or None when it is empty."""
    side, drawn, shown = "", 0, 0
    for row in rows:
        ch = row.ljust(col + 1)[col]
        if ch in "XO":
            assert side in ("", ch), f"two sides in one column: {rows}"
            side, drawn = ch, drawn + 1
        elif ch.isdigit():
            shown = int(row[col - 1 : col + 1])
    if shown:
        assert shown > 5 and drawn == 4, "a count only tops four checkers of a taller stack"
        return side, shown
    return (side, drawn) if drawn else None


def parse(text: str) -> Board:
    lines = text.splitlines()
    board = Board()
    found = re.search(r"Position ID: (\S+)", text)
    assert found
    board.position_id = found.group(1)
    top_i, bottom_i = (i for i, line in enumerate(lines) if line.startswith(" +"))
    assert bottom_i - top_i == 12, "five rows, the middle row, five rows"
    halves = {
        "top": (lines[top_i], lines[top_i + 1 : top_i + 6]),
        "bottom": (lines[bottom_i], lines[top_i + 7 : bottom_i]),
    }
    bar_col = lines[top_i + 6].index("|", 2) + 2
    for name, (border, rows) in halves.items():
        cols = columns(border)
        setattr(board, name, list(cols.values()))
        for col, point in cols.items():
            stack = read_stack(rows, col)
            if stack:
                board.points[stack[0]][point] = stack[1]
        stack = read_stack(rows, bar_col)
        if stack:
            board.bar[stack[0]] = stack[1]
            board.bar_half[stack[0]] = name
    for mark_i, border_i in ((top_i - 1, top_i), (bottom_i + 1, bottom_i)):
        if re.fullmatch(r"[ H]+", lines[mark_i]):
            cols = columns(lines[border_i])
            board.heads |= {cols[m.start()] for m in re.finditer("H", lines[mark_i])}
    board.off = {s: int(n) for s, n in re.findall(r"([XO])  off: (\d+)", text)}
    board.waiting = {s: int(n) for s, n in re.findall(r"([XO])  waiting: (\d+)", text)}
    m = re.search(r"Pip count  X: (\d+)  O: (\d+)", text)
    assert m
    board.pips = (int(m.group(1)), int(m.group(2)))
    return board


def expected(pos: Position) -> tuple[dict[int, int], dict[int, int]]:
    """Each side's checkers on points 1-24, both in the on-roll side's numbering."""
    theirs = pos.variant.to_mine(pos.theirs)
    return (
        {p: pos.mine[p] for p in range(1, 25) if pos.mine[p]},
        {p: theirs[p] for p in range(1, 25) if theirs[p]},
    )


def check(pos: Position, home: str = "bottom-right") -> Board:
    """Render, read back, and compare everything the drawing claims with the position."""
    board = parse(render(pos, home=home))
    assert (board.points["X"], board.points["O"]) == expected(pos)
    assert board.bar == {"X": pos.mine[BAR], "O": pos.theirs[BAR]}
    assert board.off == {"X": pos.mine[OFF], "O": pos.theirs[OFF]}
    assert board.pips == pos.pips()
    assert board.position_id == position_id(pos)
    if pos.variant.enters_from_outside:
        assert board.waiting == {"X": pos.waiting(True), "O": pos.waiting(False)}
    else:
        assert board.waiting == {}
    return board


# -- start positions ----------------------------------------------------------------------


def test_backgammon_start() -> None:
    board = check(variant("backgammon").start())
    assert board.points["X"] == {24: 2, 13: 5, 8: 3, 6: 5}
    assert board.points["O"] == {1: 2, 12: 5, 17: 3, 19: 5}
    assert board.top == list(range(13, 25))
    assert board.bottom == list(range(12, 0, -1))
    assert board.pips == (167, 167)
    assert board.position_id == "4HPwATDgc/ABMA"


def test_nackgammon_start() -> None:
    board = check(variant("nackgammon").start())
    assert board.points["X"] == {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}
    assert board.points["O"] == {1: 4, 2: 1, 12: 2, 17: 3, 19: 5}


def test_acey_deucey_start_shows_the_waiting_checkers() -> None:
    text = render(variant("acey-deucey").start())
    board = check(variant("acey-deucey").start())
    assert board.points == {"X": {}, "O": {}}
    assert board.waiting == {"X": 15, "O": 15}
    assert "AAAAAAAAAAAAAA-ff" in text


def test_acey_deucey_part_entered() -> None:
    pos = Position.from_points(variant("acey-deucey"), {1: 2, 24: 3, 25: 1}, {23: 4, 20: 2})
    board = check(pos)
    assert board.waiting == {"X": 9, "O": 9}
    assert board.bar == {"X": 1, "O": 0}


def test_long_nardy_start_and_heads() -> None:
    text = render(variant("long").start())
    board = check(variant("long").start())
    assert board.points == {"X": {24: 15}, "O": {12: 15}}
    assert board.heads == {24, 12}
    assert "|BAR|" not in text
    assert "H = head: X's on 24, O's on 12" in text
    assert board.pips == (360, 360)


def test_backgammon_has_no_heads() -> None:
    text = render(variant("backgammon").start())
    assert parse(text).heads == set()
    assert "|BAR|" in text and "head" not in text


# -- the bar, borne-off checkers and tall stacks -----------------------------------------


def test_bar_and_borne_off() -> None:
    pos = Position.from_points(
        variant("backgammon"), {25: 2, 0: 3, 6: 7, 5: 3}, {25: 1, 0: 4, 1: 2, 2: 8}
    )
    board = check(pos)
    assert board.bar == {"X": 2, "O": 1}
    assert board.off == {"X": 3, "O": 4}
    # each side's bar checkers stand in the half where they enter: X's on O's home board
    assert board.bar_half == {"X": "top", "O": "bottom"}
    assert check(pos, "top-left").bar_half == {"X": "bottom", "O": "top"}


def test_tall_stacks_show_their_count() -> None:
    pos = Position.from_points(variant("backgammon"), {6: 15}, {1: 9, 2: 6})
    rows = render(pos).splitlines()
    board = check(pos)
    assert board.points == {"X": {6: 15}, "O": {24: 9, 23: 6}}
    middle = next(i for i, row in enumerate(rows) if "|BAR|" in row)
    # four checkers from the edge, then the count in the fifth row, next to the middle
    assert rows[middle + 1].split("|")[3].split() == ["15"]
    assert rows[middle - 1].split("|")[3].split() == ["6", "9"]
    frame = [row[:44] for row in rows if row.startswith(" |")]
    assert sum(row.count("X") for row in frame) == 4
    assert sum(row.count("O") for row in frame) == 8


def test_many_on_the_bar() -> None:
    pos = Position.from_points(variant("backgammon"), {25: 7, 1: 8}, {25: 1, 19: 14})
    assert check(pos).bar == {"X": 7, "O": 1}


# -- home corners ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("home", "top", "bottom"),
    [
        ("bottom-right", range(13, 25), range(12, 0, -1)),
        ("bottom-left", range(24, 12, -1), range(1, 13)),
        ("top-right", range(12, 0, -1), range(13, 25)),
        ("top-left", range(1, 13), range(24, 12, -1)),
    ],
)
def test_home_corner(home: str, top: range, bottom: range) -> None:
    pos = variant("backgammon").start()
    board = check(pos, home)
    assert (board.top, board.bottom) == (list(top), list(bottom))
    text = render(pos, home=home)
    assert f"home board {home.replace('-', ' ')}" in text
    # X's home board (points 1-6) really is in that corner, with X's checkers on its 6-point
    vertical, horizontal = home.split("-")
    row = board.top if vertical == "top" else board.bottom
    six = row[:6] if horizontal == "left" else row[6:]
    assert sorted(six) == [1, 2, 3, 4, 5, 6]


def test_corners_are_mirror_images() -> None:
    pos = Position.from_points(
        variant("backgammon"), {25: 1, 24: 2, 13: 4, 6: 5, 5: 1, 0: 2}, {3: 5, 4: 2, 18: 5, 0: 3}
    )

    def checker_rows(home: str) -> list[str]:
        """The five rows of each half inside the frame (no numbers, no side notes)."""
        lines = render(pos, home=home).splitlines()
        return [line[1:44] for line in lines[2:7] + lines[8:13]]

    def left_right(rows: list[str]) -> list[str]:
        return [row[::-1] for row in rows]

    def top_bottom(rows: list[str]) -> list[str]:
        return rows[::-1]

    standard = checker_rows("bottom-right")
    assert checker_rows("bottom-left") == left_right(standard)
    assert checker_rows("top-right") == top_bottom(standard)
    assert checker_rows("top-left") == left_right(top_bottom(standard))


def test_unknown_corner() -> None:
    with pytest.raises(ValueError, match="home must be one of"):
        render(variant("backgammon").start(), home="middle")


@pytest.mark.parametrize("home", HOME_CORNERS)
def test_long_nardy_heads_in_every_corner(home: str) -> None:
    board = check(variant("long").start(), home)
    assert board.heads == {24, 12}
    assert board.points == {"X": {24: 15}, "O": {12: 15}}


# -- any position, any variant, any corner -----------------------------------------------


def random_positions(key: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    pos, seen = variant(key).start(), list[Position]()
    while len(seen) < count:
        play = rng.choice(pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6)))
        pos = play.position.swap()
        if pos.outcome() is not None:
            pos = variant(key).start()
        seen.append(pos)
    return seen


@pytest.mark.parametrize("key", sorted(v.key for v in variants()))
def test_played_positions_read_back_in_every_corner(key: str) -> None:
    for pos in random_positions(key, 60, seed=len(key)):
        for home in HOME_CORNERS:
            check(pos, home)


def test_long_nardy_middle_game() -> None:
    pos = Position.from_points(
        variant("long"),
        {3: 1, 4: 2, 10: 1, 17: 1, 24: 10},
        {2: 2, 4: 1, 13: 1, 14: 1, 18: 1, 20: 1, 23: 1, 24: 7},
    )
    board = check(pos)
    assert board.points["O"] == {14: 2, 16: 1, 1: 1, 2: 1, 6: 1, 8: 1, 11: 1, 12: 7}


# -- nardy show ----------------------------------------------------------------------------


def test_nardy_show_long(capsys: pytest.CaptureFixture[str]) -> None:
    pid = "JoBCoj80EBDwPw"
    assert main(["show", "--variant", "long", pid]) == 0
    out, err = capsys.readouterr()
    pos = position_from_id(pid, "long")
    assert out == render(pos) + "\n"
    assert err == ""
    assert parse(out).points["X"] == {3: 1, 4: 2, 10: 1, 17: 1, 24: 10}
    assert "Long nardy" in out


def test_nardy_show_default_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "4HPwATDgc/ABMA"]) == 0
    out, _ = capsys.readouterr()
    assert parse(out).points["X"] == {24: 2, 13: 5, 8: 3, 6: 5}


@pytest.mark.parametrize("bad", ["not-an-id", "4HPwATDgc/ABM", "////////////////"])
def test_nardy_show_malformed_id(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    assert main(["show", "--variant", "long", bad]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("nardy show: error:")
