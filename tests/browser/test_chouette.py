"""A chouette of three browsers (issue 11, point 5): one opens a chouette table in the lobby,
two others sit down at it from theirs, and they play a whole game by clicking; the box
doubles, one member passes and the other takes, each on their own, and the room shows the
box, the captain, the team, the answers and the scores, settled per member."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from tests.browser.players import Player
from tests.server.serverutil import ServerProcess


def _role(player: Player, role: str) -> bool:
    """Whether this player's own row in the table's panel carries ``role``."""
    return bool(player.page.locator(f".table-panel li.me .role.{role}").count())


def _three_at_a_chouette(
    pages: Any, server: ServerProcess, shots: Path, prefix: str
) -> tuple[list[Player], Player, Player]:
    """Three people who signed up as ``prefix0``.. sit down at a chouette table the first
    opened in the lobby; the players, the box and the captain once it has started."""
    players = [Player(pages("en-GB"), server.url) for _ in range(3)]
    for n, player in enumerate(players):
        player.sign_up(f"{prefix}{n}")
    first = players[0].page
    first.check("input[name=kind][value=chouette]")
    first.select_option("select[name=seats]", "3")
    first.select_option("select[name=bots]", "0")
    first.click("#create-table-button")
    first.wait_for_selector("body[data-seq]")
    game = first.url.rsplit("/", 1)[1]
    assert first.inner_text("#status") == "Waiting for the table to fill."
    for player in players[1:]:
        player.open("/lobby")
        player.page.wait_for_selector(f'#tables [data-table="{game}"]')
        if player is players[1]:
            player.page.screenshot(path=str(shots / f"{prefix}-lobby.png"), full_page=True)
        player.page.click(f'#tables [data-table="{game}"]')
        player.page.wait_for_selector("body[data-seq]")
    for player in players:
        player.wait_until("document.body.dataset.status === 'playing'")
        player.wait_until("document.querySelectorAll('.table-panel li').length === 3")
    box = next(p for p in players if _role(p, "box"))
    captain = next(p for p in players if _role(p, "captain"))
    assert box is not captain
    return players, box, captain


def _name(player: Player) -> str:
    """The username a player's own row in the table's panel shows."""
    return str(player.page.inner_text(".table-panel li.me .who-name"))


def _marked_side(player: Player) -> list[int]:
    """The sides of the board whose strip carries the "to play" mark on this page."""
    return list(
        player.page.eval_on_selector_all(
            ".side .turnmark",
            "ms => ms.map(m => m.closest('.side').querySelector('.swatch.c0') ? 0 : 1)",
        )
    )


def test_a_chouette_of_three_browsers(pages: Any, server: ServerProcess, shots: Path) -> None:
    players, box, _ = _three_at_a_chouette(pages, server, shots, "chouette")
    players[0].page.screenshot(path=str(shots / "chouette-start.png"))
    assert "Chouette of 3" in box.page.inner_text(".table-panel h3")

    doubled = answered = over = drawn = False
    deadline = time.monotonic() + 300
    while not over:
        assert time.monotonic() < deadline, [p.buttons() for p in players]
        acted = False
        for player in players:
            if player.page.locator(".table-panel .settled").count():
                over = True  # between games: nobody starts the next one
                break
            kinds = player.buttons()
            if "double" in kinds and player is box and not doubled:
                player.press("double")
                doubled = acted = True
                break
            if "pass" in kinds and player is not box and not answered:
                player.press("pass")  # the first member to answer passes; the other takes
                answered = acted = True
                break
            if player.step():
                acted = True
                break
        if doubled and not drawn:
            # the board and the strips are drawn from the server's board view at a table too
            for player in players:
                assert player.page.locator(".board .checker").count() > 0
                player.strips_agree()
            drawn = True
        if doubled and answered and not (shots / "chouette-answers.png").exists():
            watcher = next(p for p in players if p is not box)
            watcher.wait_until("document.querySelector('.table-panel .mark.out') !== null")
            watcher.page.screenshot(path=str(shots / "chouette-answers.png"))
        if not acted:
            time.sleep(0.05)
    assert doubled and answered and drawn
    for player in players:
        player.wait_until("document.querySelector('.table-panel .settled') !== null")
    scores = [
        int(s)
        for s in players[0].page.eval_on_selector_all(
            ".table-panel .score", "ss => ss.map(s => s.dataset.score)"
        )
    ]
    assert sum(scores) == 0 and any(scores)  # each member settled with the box on their own
    # between games, who does not start the next game is told who does
    starter = {p for p in players if "roll-opening" in p.buttons()}
    assert len(starter) == 2
    other = next(p for p in players if p not in starter)
    status = other.page.inner_text("#status")
    head, tail = "Between games: ", " may start the next game."
    assert status.startswith(head) and status.endswith(tail), status
    assert set(status[len(head) : -len(tail)].split(", ")) == {_name(p) for p in starter}
    players[1].page.screenshot(path=str(shots / "chouette-settled.png"))
    # a player who leaves keeps their result in the standings: the scores still sum to zero
    leaver = players[0]
    left_score = int(leaver.page.get_attribute(".table-panel li.me .score", "data-score") or 0)
    assert "leave" in leaver.buttons()  # between games a player may leave
    leaver.press("leave")
    for player in players[1:]:
        player.wait_until("document.querySelector('.table-panel li.left') !== null")
        row = player.page.locator(".table-panel li.left")
        assert row.locator(".who-name").inner_text() == "chouette0"
        assert int(row.locator(".score").get_attribute("data-score") or 0) == left_score
        shown = player.page.eval_on_selector_all(
            ".table-panel .score", "ss => ss.map(s => Number(s.dataset.score))"
        )
        assert len(shown) == 3 and sum(shown) == 0
    for player in players:
        assert not player.errors, player.errors


def test_a_chouette_vote_says_who_voted_how_and_why_it_ended(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    """Issue 21: a member who may only vote is told the captain rolls and that they may vote
    first, the captain's roll waits a moment for the votes, the "to play" mark is on the
    team's strip alone, and every page says who voted for the double and why the vote
    ended: the captain's vote against, then its roll."""
    players, box, captain = _three_at_a_chouette(pages, server, shots, "voter")
    member = next(p for p in players if p is not box and p is not captain)
    deadline = time.monotonic() + 120
    while "vote" not in captain.buttons():  # the team on roll, the cube in the middle
        assert time.monotonic() < deadline, [p.buttons() for p in players]
        if not any(p.step(stop_at="vote") for p in (box, captain)):
            time.sleep(0.05)
    # the captain's roll waits a moment for the members' votes, then may go
    roll = "#actions button[data-action=roll]"
    assert captain.page.locator(roll).is_disabled()
    assert captain.page.inner_text(roll).startswith("Roll (the team may vote: ")
    member.wait_until("document.querySelector('#actions [data-action=vote]') !== null")
    assert member.page.inner_text("#status") == (
        f"{_name(captain)} rolls for the team: you may vote to double first."
    )
    assert captain.page.inner_text("#status") == "Your turn."
    assert box.page.inner_text("#status") == f"{_name(captain)} to play."
    for player in players:
        assert _marked_side(player) == [1]  # the team's strip, whoever looks
    assert "The captain plays for the team." in member.page.inner_text(".table-panel .how")
    captain.wait_until(f"!document.querySelector('{roll}').disabled", 5)
    assert captain.page.inner_text(roll) == "Roll"
    # the captain's option to roll by itself waits while the captain may vote to double
    rolls = captain.page.evaluate(
        """async () => {
          const { optionAction } = await import("/js/options.js");
          const prefs = { "auto-roll": true };
          return [optionAction(prefs, ["roll", "vote"], null), optionAction(prefs, ["roll"], null)];
        }"""
    )
    assert rolls == [None, {"type": "roll"}]
    member.press("vote")
    captain.wait_until("document.querySelector('.table-panel .mark.voted') !== null")
    captain.press("vote-against")
    for player in players:
        player.wait_until("document.querySelector('.table-panel .last-vote') !== null")
        assert player.page.inner_text(".table-panel .last-vote") == (
            f"No double: {_name(captain)} voted against. For: {_name(member)}."
        )
    member.page.screenshot(path=str(shots / "chouette-vote-against.png"))
    member.press("vote")  # a new vote: the last one's line goes
    assert not member.page.locator(".table-panel .last-vote").count()
    captain.wait_until("document.querySelector('.table-panel .mark.voted') !== null")
    captain.press("roll")
    for player in players:
        player.wait_until(
            "document.querySelector('.table-panel .last-vote[data-ended=rolled]') !== null"
        )
        assert player.page.inner_text(".table-panel .last-vote") == (
            f"No double: {_name(captain)} rolled before everyone had voted. For: {_name(member)}."
        )
    for player in players:
        assert not player.errors, player.errors


def test_a_consultation_game_against_the_computer(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    captain, partner = (Player(pages("en-GB"), server.url) for _ in range(2))
    captain.sign_up("captain")
    partner.sign_up("partner")
    page = captain.page
    page.check("input[name=kind][value=consultation]")
    page.select_option("select[name=side0]", "2")
    page.select_option("select[name=side1]", "0")  # the other side is the computer
    page.select_option("select[name=table-bot]", "beginner")
    page.click("#create-table-button")
    page.wait_for_selector("body[data-seq]")
    game = page.url.rsplit("/", 1)[1]
    partner.open("/lobby")
    partner.page.click(f'#tables [data-table="{game}"][data-side="0"]')
    partner.page.wait_for_selector("body[data-seq]")
    for player in (captain, partner):
        player.wait_until("document.body.dataset.status === 'playing'")
    assert captain.page.locator(".table-panel li.me .role.captain").count() == 1
    assert partner.page.locator(".table-panel li.me .role.captain").count() == 0
    assert "roll-opening" in captain.buttons() and not partner.buttons()
    # the opening roll, by the captain unless the computer rolls it first for both sides
    with contextlib.suppress(Exception):  # Playwright's timeout: the button went first
        captain.page.click("#actions button[data-action=roll-opening]", timeout=2000)
    captain.wait_until("document.querySelectorAll('.board .die').length > 0", timeout_s=90)
    deadline = time.monotonic() + 90
    while "move" not in captain.kinds():  # the captain's move, whoever won the opening
        assert time.monotonic() < deadline, captain.kinds()
        if "roll" in captain.buttons():
            captain.press("roll")
        else:
            time.sleep(0.05)
    # only the captain is told to move; the partner that the captain plays for their side,
    # the "to play" mark is on the side that plays, and the panel says how a side decides
    partner.wait_until("document.getElementById('status').textContent.includes('suggest')")
    assert (
        partner.page.inner_text("#status") == "captain plays for your side: you may suggest a move."
    )
    assert captain.page.inner_text("#status").startswith("Your move")
    for player in (captain, partner):
        assert _marked_side(player) == [0]
    assert "proposals are advice" in partner.page.inner_text(".table-panel .how")
    partner.page.fill(".table-panel .propose input", "8/2 6/2")
    partner.page.click(".table-panel .propose button")
    captain.wait_until("document.querySelector('.table-panel .proposals') !== null")
    assert "8/2 6/2" in captain.page.inner_text(".table-panel .proposals")
    # a member who may only propose is not told it is their move: the captain decides
    assert partner.kinds() == ["propose"]
    assert not partner.page.inner_text("#status").startswith("Your")
    # a proposal reaches its own side only: the state of each says so (`state.proposals`)
    assert [p["text"] for p in (captain.state or {})["proposals"]] == ["8/2 6/2"]
    # the board is drawn from the server's board view: checkers, dice, the strips' counts
    for player in (captain, partner):
        assert player.page.locator(".board .checker").count() > 0
        player.strips_agree()
    captain.page.screenshot(path=str(shots / "consultation.png"))
    for player in (captain, partner):
        assert not player.errors, player.errors


def test_any_cube_value_is_drawn_inside_the_cube(pages: Any, server: ServerProcess) -> None:
    """Issue 21: a cube of 65,536 or more (a long chouette, a money game without a limit)
    is drawn inside the cube's face, as 2 and 64 are."""
    me = Player(pages("en-US"), server.url)
    me.open("/")
    found = me.page.evaluate(
        """async () => {
          const { Board } = await import("/js/board.js");
          const { startSides } = await import("/js/room.js");
          const { variants } = await import("/js/api.js");
          const rules = (await variants()).find((facts) => facts.key === "backgammon");
          const box = document.createElement("div");
          box.style.width = "800px";
          document.body.appendChild(box);
          const board = new Board(box, () => {}, { readOnly: true });
          const fits = {};
          for (const value of [1, 2, 64, 4096, 65536, 131072, 1048576]) {
            board.draw({
              rules, seq: 0, roll: null, sides: startSides(rules), viewer: 0,
              home: "bottom-right", dice: null, used: null, diceSeat: 0,
              cube: { value, owner: value === 1 ? null : 0 }, legal: [], last: null, glide: [],
            });
            const face = box.querySelector(".cube rect").getBoundingClientRect();
            const text = box.querySelector(".cube text");
            const drawn = text.getBoundingClientRect();
            fits[value] = {
              text: text.textContent,
              inside: drawn.left >= face.left && drawn.right <= face.right
                && drawn.top >= face.top && drawn.bottom <= face.bottom,
            };
          }
          box.remove();
          return fits;
        }"""
    )
    assert found["1"]["text"] == "64" and found["131072"]["text"] == "131072"
    assert all(fit["inside"] for fit in found.values()), found
    assert not me.errors, me.errors
