"""A person at the browser, as the tests drive one: signs up, opens games, and plays by
clicking or dragging checkers on the board, with the buttons or the keyboard."""

from __future__ import annotations

import json
import time
from typing import Any

TIMEOUT_MS = 15_000
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
"""A phone's browser context (a page's options): its screen, touch and no mouse."""


class Player:
    """One browser page and how this player likes to move: "click" or "drag", buttons or
    keys."""

    def __init__(self, page: Any, base_url: str, *, moves: str = "click", keys: bool = False):
        self.page = page
        self.base_url = base_url
        self.moves = moves
        self.keys = keys
        self.errors: list[str] = []
        self.state: dict[str, Any] | None = None
        """The last game state the page received (read off its WebSocket): protocol v2's
        state for this viewer, with its board view (``board``) and ``you``."""
        self.events: list[dict[str, Any]] = []
        """Every event the page has received, in order (the ``events`` messages')."""
        self.talk: list[str] = []
        """The page's last messages on its WebSocket, sent (``>``) and refused (``<``), to
        say in a failed test what the page asked and what the server answered."""
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("websocket", self._socket)
        page.set_default_timeout(TIMEOUT_MS)

    def _socket(self, socket: Any) -> None:
        def frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if not isinstance(message, dict):
                return
            if "state" in message:
                self.state = message["state"]
            if message.get("type") == "events":
                self.events.extend(message["events"])
            if message.get("type") in ("refused", "error"):
                self._said("<", payload)

        socket.on("framereceived", frame)
        socket.on("framesent", lambda payload: self._said(">", payload))

    def _said(self, direction: str, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode(errors="replace")
        self.talk = [*self.talk[-9:], f"{direction} {text[:300]}"]

    def open(self, path: str = "/") -> None:
        self.page.goto(self.base_url + path)
        self.page.wait_for_selector("body[data-ready]")

    def sign_up(self, name: str, password: str = "correct horse battery") -> None:
        self.open("/signin")
        form = self.page.locator("#signup")
        form.locator("input[name=username]").fill(name)
        form.locator("input[name=password]").fill(password)
        form.locator("button").click()
        self.page.wait_for_selector("#create")

    def guest(self) -> None:
        self.open("/")
        self.page.click("#guest")
        self.page.wait_for_selector("#create")

    def create(
        self,
        *,
        length: int = 1,
        variant: str = "backgammon",
        opponent: str = "open",
        bot: str = "beginner",
        pace: str = "250",
        cube: bool = True,
        practice: bool = False,
    ) -> str:
        """Create a game from the lobby (against the bot, a practice game or not); its id
        (from the room's address)."""
        page = self.page
        page.select_option("select[name=variant]", variant)
        page.select_option("select[name=length]", str(length))
        page.check(f"input[name=opponent][value={opponent}]")
        if not cube:
            page.uncheck("input[name=cube]")
        if opponent == "bot":
            page.select_option("select[name=bot]", bot)
            page.select_option("select[name=pace]", pace)
            page.set_checked("input[name=practice]", practice)
        page.click("#create-button")
        page.wait_for_selector("body[data-seq]")  # the room has drawn its first state
        return str(page.url.rsplit("/", 1)[1])

    def join_first_seek(self) -> None:
        self.page.click("#refresh")
        self.page.locator("[data-join]").first.click()
        self.page.wait_for_selector("body[data-seq]")  # the room has drawn its first state

    # -- the room -----------------------------------------------------------------------

    def seq(self) -> int:
        return int(self.page.evaluate("document.body.dataset.seq || -1"))

    def finished(self) -> bool:
        return self.page.evaluate("document.body.dataset.status") == "finished"

    def kinds(self) -> list[str]:
        """The actions the last state let this player send (``state.you.actions``)."""
        return list((self.state or {}).get("you", {}).get("actions", []))

    def board(self) -> dict[str, Any]:
        """The board view of the last state (``state.board``); empty before the first game."""
        return dict((self.state or {}).get("board") or {})

    def buttons(self) -> list[str]:
        return list(
            self.page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.dataset.action)")
        )

    def wait_until(self, expression: str, timeout_s: float = TIMEOUT_MS / 1000) -> None:
        """Poll a JavaScript expression until it is true (the page's CSP forbids the eval
        that Playwright's wait_for_function would use)."""
        deadline = time.monotonic() + timeout_s
        while not self.page.evaluate(expression):
            assert time.monotonic() < deadline, f"not true in {timeout_s} s: {expression}"
            time.sleep(0.02)

    def wait_change(self, before: int) -> None:
        """Until the page has drawn a state after ``before``."""
        self.wait_until(f"Number(document.body.dataset.seq) > {before}")

    def press(self, action: str) -> None:
        before = self.seq()
        if self.keys and action in ("confirm", "roll"):
            self.page.keyboard.press("Enter")
        else:
            self.page.click(f"#actions button[data-action={action}]")
        self.wait_change(before)

    def strips_agree(self) -> None:
        """Assert that the pips and checkers off in the players' strips are the server's
        board view's, of the state drawn (read with the seq it was drawn at: an option or
        the other side may act a moment later)."""
        deadline = time.monotonic() + 10
        while True:
            drawn = self.page.evaluate(
                """() => ({
                  seq: Number(document.body.dataset.seq),
                  pips: [0, 1].map((s) => document.querySelector(`.pips[data-seat="${s}"]`)
                    ?.textContent),
                  off: [0, 1].map((s) => document.querySelector(`.off[data-seat="${s}"]`)
                    ?.textContent),
                })"""
            )
            state = self.state or {}
            if drawn["seq"] == state.get("seq") and state.get("board"):
                board = state["board"]
                assert drawn["pips"] == [f"{n} pip{'' if n == 1 else 's'}" for n in board["pips"]]
                assert drawn["off"] == [f"{n} off" for n in board["off"]], drawn
                return
            assert time.monotonic() < deadline, (drawn, state.get("seq"))
            self.page.wait_for_timeout(20)

    def centre(self, selector: str) -> tuple[float, float]:
        box = self.page.locator(selector).first.bounding_box()
        assert box is not None, selector
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def apart(self, a: str, b: str) -> bool:
        """Whether the boxes of the elements ``a`` and ``b`` do not overlap on the screen."""
        one = self.page.locator(a).bounding_box()
        two = self.page.locator(b).bounding_box()
        assert one is not None and two is not None, (a, b)
        return bool(
            one["x"] + one["width"] <= two["x"]
            or two["x"] + two["width"] <= one["x"]
            or one["y"] + one["height"] <= two["y"]
            or two["y"] + two["height"] <= one["y"]
        )

    def ends(self, start: int) -> list[int]:
        """Where the checker on ``start`` may go (the board writes it on each movable one)."""
        ends = self.page.get_attribute(f'.board .movable[data-point="{start}"]', "data-ends")
        return [int(e) for e in (ends or "").split()]

    def ends_by_origin(self) -> dict[int, list[int]]:
        """Every checker that may move now (its point) and where it may go."""
        origins = self.page.eval_on_selector_all(
            ".board .movable", "cs => cs.map(c => Number(c.dataset.point))"
        )
        return {start: self.ends(start) for start in origins}

    def targets(self) -> list[int]:
        return list(
            self.page.eval_on_selector_all(
                "[data-target]", "ts => ts.map(t => Number(t.dataset.target))"
            )
        )

    def move_once(self) -> tuple[int, int]:
        """Make one legal single move: the rearmost checker that can move, as far as it can
        go. A click on a checker with one destination plays it; otherwise the click selects
        it and a click on the destination plays it. Returns (from, to)."""
        page = self.page
        origins = page.eval_on_selector_all(
            ".board .movable", "cs => cs.map(c => Number(c.dataset.point))"
        )
        start = max(origins)
        ends = self.ends(start)
        checker = f'.board .movable[data-point="{start}"]'
        before = self.seq()
        if self.moves == "drag":
            page.locator(checker).first.scroll_into_view_if_needed()
            x, y = self.centre(checker)
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x + 12, y + 12, steps=3)
            end = min(self.targets())
            tx, ty = self.centre(f'[data-target="{end}"]')
            page.mouse.move(tx, ty, steps=6)
            page.mouse.up()
        else:
            page.click(checker)
            end = min(ends)
            if len(ends) > 1:
                assert sorted(self.targets()) == sorted(ends)
                tx, ty = self.centre(f'[data-target="{end}"]')
                page.mouse.click(tx, ty)
        self.wait_change(before)
        return start, end

    def until_moving(self, limit_s: float = 60) -> None:
        """Roll (and play) until the board offers this player a move."""
        deadline = time.monotonic() + limit_s
        while not self.page.locator(".board .movable").count() and not self.finished():
            assert time.monotonic() < deadline, self.page.inner_text("#status")
            if not self.step():
                self.page.wait_for_timeout(50)

    def step(self, stop_at: str | None = None) -> bool:
        """Do whatever this player has to do now; False when nothing was theirs to do (or
        when ``stop_at`` is among the actions open to them)."""
        kinds = self.buttons()
        if stop_at in kinds:
            return False
        for action in ("roll-opening", "roll", "take", "accept"):
            if action in kinds:
                self.press(action)
                return True
        if self.page.locator(".board .movable").count():
            self.move_once()
            return True
        if "confirm" in kinds:
            self.press("confirm")
            return True
        if "play" in kinds:
            self.press("play")
            return True
        return False


def play_out(players: list[Player], limit_s: float = 240) -> None:
    """Let the players play until the match is over on every page."""
    deadline = time.monotonic() + limit_s
    while not all(p.finished() for p in players):
        if time.monotonic() > deadline:
            states = [(p.seq(), p.buttons(), p.page.inner_text("#status")) for p in players]
            raise AssertionError(f"the match did not end in {limit_s} s: {states}")
        if not any(p.step() for p in players):
            time.sleep(0.05)  # the other side (or the bot) is thinking
    for p in players:
        assert not p.errors, p.errors
