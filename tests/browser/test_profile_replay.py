"""The profile, history, replay and lobby pages in a real browser (issue 11 item 2, issue 10
items 3, 5, 6): a finished match in both players' histories with the rating change, the
replay stepped through by buttons, keys and the move list, the dice verified in the page
(and a tampered record caught), preferences saved and applied at once and kept after a
reload, live games watched as a spectator, and a seek withdrawn by its creator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.browser.players import Player
from tests.server.serverutil import ServerProcess


def _finish_by_resigning(alice: Player, bob: Player, after_seq: int = 24) -> None:
    """Play (alice and bob) until action ``after_seq``, then the player who may resign
    resigns a single game and the other accepts: the 1-point match is over."""
    for _ in range(600):
        for me, other in ((alice, bob), (bob, alice)):
            if me.seq() >= after_seq and "resign" in me.buttons():
                before = me.seq()
                me.page.click("details.resign summary")
                me.page.click("details.resign button[data-action=resign]")
                me.wait_change(before)
                other.wait_change(before)
                other.press("accept")
                alice.wait_until("document.body.dataset.status === 'finished'")
                bob.wait_until("document.body.dataset.status === 'finished'")
                return
        if not (alice.step() or bob.step()):
            alice.page.wait_for_timeout(50)
    raise AssertionError("no resignation was offered")


def _history_row(player: Player, name: str, game: str) -> str:
    player.open(f"/u/{name}")
    row = player.page.locator(f'tr[data-game="{game}"]')
    row.wait_for()
    return str(row.inner_text())


def test_a_finished_match_is_in_both_histories_replays_and_its_dice_verify(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    alice = Player(pages("en-US"), server.url)
    bob = Player(pages("en-US"), server.url)
    alice.sign_up("alice")
    bob.sign_up("bob")
    game = alice.create(length=1)
    bob.join_first_seek()
    _finish_by_resigning(alice, bob)
    winner = alice if alice.page.inner_text("#status").startswith("alice") else bob
    loser = bob if winner is alice else alice

    # both histories, seen by anyone: the opponent, the result and the FIBS change of ±10
    for viewer in (alice, bob):
        rows = {who: _history_row(viewer, who, game) for who in ("alice", "bob")}
        won, lost = ("alice", "bob") if winner is alice else ("bob", "alice")
        assert "won 1 : 0" in rows[won] and "+10.0" in rows[won] and lost in rows[won]
        assert "lost 0 : 1" in rows[lost] and "\N{MINUS SIGN}10.0" in rows[lost]
        assert won in rows[lost]
    # alice's page is at bob's profile now: his ratings, none of his preferences
    bob_rating = "1510.0" if winner is bob else "1490.0"
    assert bob_rating in alice.page.inner_text(".ratings")
    assert alice.page.locator("#prefs").count() == 0
    loser.open(f"/u/{'alice' if loser is alice else 'bob'}")
    loser.page.locator(".history tr[data-game]").first.wait_for()
    assert loser.page.locator("#prefs").count() == 1  # one's own profile has them
    loser.page.screenshot(path=str(shots / "profile.png"), full_page=True)
    # in Russian a rating has a decimal comma, as the language writes numbers
    loser.page.select_option("#language", "ru")
    loser.wait_until("document.querySelector('.ratings').innerText.includes('1490,0')")
    loser.page.select_option("#language", "en")
    loser.wait_until("document.querySelector('.ratings').innerText.includes('1490.0')")

    # the replay: from the history's link, stepped by buttons, keys and the move list
    page = loser.page
    page.click(f'tr[data-game="{game}"] a[href^="/replay/"]')
    page.wait_for_selector("body[data-step]")
    turns = page.locator("#movelist button.move").count() - 1
    assert turns >= 5, turns
    assert page.get_attribute("body", "data-step") == "0:0"
    pips = [page.inner_text("#side-bottom .pips")]
    page.click('[data-step="next"]')
    assert page.get_attribute("body", "data-step") == "0:1"
    pips.append(page.inner_text("#side-bottom .pips") + page.inner_text("#side-top .pips"))
    # the counts are the replay endpoint's, after the first turn (the page computes none)
    replay = page.request.get(f"{loser.base_url}/api/games/{game}/replay").json()
    after = replay["games"][0]["turns"][0]["after"]
    shown = {page.inner_text(f'.pips[data-seat="{s}"]') for s in (0, 1)}
    assert shown == {f"{n} pips" for n in after["pips"]}
    assert {page.inner_text(f'.off[data-seat="{s}"]') for s in (0, 1)} == {"0 off"}
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-step") == "0:2"
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("body", "data-step") == "0:1"
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-step") == f"0:{turns}"
    assert page.is_disabled('[data-step="next"]')
    page.locator("#movelist button.move").nth(3).click()
    assert page.get_attribute("body", "data-step") == "0:3"
    assert page.locator("#movelist .current").inner_text().startswith("3.")
    assert "resigns" in page.inner_text("#movelist")
    assert page.locator(".board .movable").count() == 0  # only to look at
    page.keyboard.press("Home")
    assert page.get_attribute("body", "data-step") == "0:0"
    assert page.inner_text("#side-bottom .pips") == pips[0] == "167 pips"
    assert page.inner_text("#replay-where") == f"The starting position ({turns} turns follow)."
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#side-bottom .pips") + page.inner_text("#side-top .pips") == pips[1]
    assert page.get_attribute("#download-mat", "href") == f"/api/games/{game}/record.mat"
    assert page.get_attribute("#download-json", "href") == f"/api/games/{game}/record.json"

    # the dice, recomputed in the page from the record the player can download
    page.click("#verify-button")
    page.wait_for_selector("#verify[data-verdict]")
    assert page.get_attribute("#verify", "data-verdict") == "match"
    rolls = page.locator("#verify .rolls li").count()
    assert rolls >= turns // 2 and page.locator("#verify .rolls li.bad").count() == 0
    assert "All dice match" in page.inner_text("#verify")
    page.screenshot(path=str(shots / "replay.png"), full_page=True)

    # a record with one roll changed, then one with another server seed: both caught
    def tampered(change: Any) -> Any:
        def handle(route: Any) -> None:
            records = route.fetch().json()
            change(records[0])
            route.fulfill(body=json.dumps(records), content_type="application/json")

        return handle

    def another_roll(record: dict[str, Any]) -> None:
        rolled = [e for e in record["log"] if e["type"] == "dice-rolled"]
        d1, d2 = rolled[1]["dice"]
        rolled[1]["dice"] = [d1 % 6 + 1, d2]

    page.route("**/record.json", tampered(another_roll))
    page.evaluate("document.querySelector('#verify').removeAttribute('data-verdict')")
    page.click("#verify-button")
    page.wait_for_selector("#verify[data-verdict]")
    assert page.get_attribute("#verify", "data-verdict") == "mismatch"
    assert page.locator("#verify .rolls li.bad").count() == 1
    assert page.get_attribute('[data-check="commitment"]', "class") == "check ok"
    page.screenshot(path=str(shots / "replay-tampered.png"), full_page=True)
    page.unroute("**/record.json")

    def another_seed(record: dict[str, Any]) -> None:
        seed = record["dice"]["server-seed"]
        record["dice"]["server-seed"] = seed[:-1] + ("0" if seed[-1] != "0" else "1")

    page.route("**/record.json", tampered(another_seed))
    page.evaluate("document.querySelector('#verify').removeAttribute('data-verdict')")
    page.click("#verify-button")
    page.wait_for_selector("#verify[data-verdict]")
    assert page.get_attribute("#verify", "data-verdict") == "mismatch"
    assert page.get_attribute('[data-check="commitment"]', "class") == "check bad"
    for p in (alice, bob):
        assert not p.errors, p.errors


def test_the_page_derives_the_test_vectors_of_docs_dice(pages: Any, server: ServerProcess) -> None:
    me = Player(pages("en-US"), server.url)
    me.open("/")
    rolls = me.page.evaluate(
        """async () => {
          const { deriveRoll } = await import("/js/verify.js");
          const seed = new Uint8Array([...Array(32).keys()]);
          const key = await crypto.subtle.importKey(
            "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
          const out = [];
          for (const seeds of [[null, null], ["alice-seed", "bob-seed"]]) {
            for (let n = 0; n < 10; n++) {
              out.push((await deriveRoll(key, seeds, "game-1", n)).join("-"));
            }
          }
          out.push((await deriveRoll(key, ["alice-seed", "bob-seed"], "game-1", 121)).join("-"));
          return out.join(" ");
        }"""
    )
    assert rolls == (
        "1-5 5-4 5-6 3-1 6-2 5-4 6-5 6-3 1-2 3-3 1-6 4-1 3-4 2-1 2-3 1-6 5-6 6-3 5-2 6-6 4-2"
    )


def test_preferences_change_at_once_and_persist_after_a_reload(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    me = Player(pages("en-US"), server.url)
    me.sign_up("carol")
    me.page.click("a.me")
    me.page.wait_for_selector("#prefs")
    assert me.page.is_checked("#prefs input[name=animation]")
    me.page.select_option("#prefs select[name=home]", "top-left")
    me.page.uncheck("#prefs input[name=animation]")
    me.page.check("#prefs input[name=auto-roll]")
    me.page.uncheck("#prefs input[name=auto-pass]")
    me.page.check("#prefs input[name=auto-play-forced]")  # every preference the room acts on
    me.wait_until("document.documentElement.classList.contains('still')")  # applied at once
    me.page.select_option("#prefs select[name=language]", "lt")
    me.wait_until("document.documentElement.lang === 'lt'")
    me.page.wait_for_selector("#prefs")  # the page, drawn again in Lithuanian
    assert "Jūsų nustatymai" in me.page.inner_text("#prefs")
    me.page.screenshot(path=str(shots / "preferences-lt.png"), full_page=True)
    # every change reaches the server, none lost to another sent just before it
    me.wait_until(
        "fetch('/api/me/preferences').then(r => r.json()).then(p => p.language === 'lt'"
        " && p.home === 'top-left' && !p.animation && p['auto-roll'] && !p['auto-pass']"
        " && p['auto-play-forced'])"
    )

    me.page.reload()
    me.page.wait_for_selector("body[data-ready] #prefs")
    assert me.page.evaluate("document.documentElement.lang") == "lt"
    assert me.page.input_value("#prefs select[name=home]") == "top-left"
    assert not me.page.is_checked("#prefs input[name=animation]")
    assert me.page.is_checked("#prefs input[name=auto-roll]")
    assert me.page.evaluate("document.documentElement.classList.contains('still')")
    # the home board corner reaches the board: top left puts the tray on the left
    me.open("/lobby")
    me.create(opponent="bot", pace="2500")
    me.page.wait_for_selector(".board .checker")
    tray_x = "document.querySelector('.board .tray').getBBox().x"
    felt_x = "document.querySelector('.board .felt').getBBox().x"
    assert me.page.evaluate(f"{tray_x} < {felt_x}")
    # the room's options panel shows the same preferences the profile set
    checked = {
        key: me.page.is_checked(f"#options input[data-pref={key}]")
        for key in ("auto-pass", "auto-roll", "auto-play-forced", "animation")
    }
    assert checked == {
        "auto-pass": False,
        "auto-roll": True,
        "auto-play-forced": True,
        "animation": False,
    }
    # nobody else sees them
    other = Player(pages("en-US"), server.url)
    other.sign_up("dave")
    other.open("/u/carol")
    other.page.wait_for_selector(".ratings")
    assert other.page.locator("#prefs").count() == 0
    assert not me.errors and not other.errors, (me.errors, other.errors)


def test_live_games_are_watched_and_a_seek_is_withdrawn(
    pages: Any, server: ServerProcess, shots: Path
) -> None:
    erin = Player(pages("en-US"), server.url)
    erin.sign_up("erin")
    game = erin.create(opponent="bot", pace="250")
    fan = Player(pages("en-US"), server.url)
    fan.sign_up("fan")
    fan.page.wait_for_selector(f'#live [data-watch="{game}"]')
    assert "erin \u2013 Computer (" in fan.page.inner_text("#live")  # named as the room names it
    fan.page.screenshot(path=str(shots / "lobby-live.png"), full_page=True)
    fan.page.click(f'#live [data-watch="{game}"]')
    fan.page.wait_for_selector("body[data-seq]")
    # whose turn it is, as the players are told it
    assert fan.page.inner_text("#status") in ("erin to play.", "Computer (beginner) to play."), (
        fan.page.inner_text("#status")
    )
    # the spectator sees every action as it is made, and can do nothing
    for _ in range(8):
        before = erin.seq()
        while not erin.step():
            erin.page.wait_for_timeout(50)
        fan.wait_until(f"Number(document.body.dataset.seq) >= {max(before + 1, erin.seq())}")
        assert fan.buttons() == [] and fan.page.locator(".board .movable").count() == 0
    fan.wait_until(f"Number(document.body.dataset.seq) >= {erin.seq()}")
    checkers = ".board .checker"
    assert fan.page.locator(checkers).count() == erin.page.locator(checkers).count()

    # a seek withdrawn from its room; an invitation withdrawn from the lobby
    erin.open("/lobby")
    seek = erin.create(length=3)
    erin.page.click("#actions button[data-action=cancel]")
    erin.wait_until("document.body.dataset.status === 'cancelled'")
    assert erin.page.inner_text("#status") == "This game was withdrawn."
    fan.open("/lobby")
    fan.page.wait_for_selector("#seeks li")
    assert fan.page.locator(f'[data-join="{seek}"]').count() == 0
    erin.open("/lobby")
    erin.page.check("input[name=opponent][value=invite]")
    erin.page.click("#create-button")
    erin.page.wait_for_selector("#invitation:not([hidden])")
    erin.page.click("#refresh")
    erin.page.locator("#mine [data-cancel]").first.wait_for()
    assert erin.page.locator("#mine [data-cancel]").count() == 1
    erin.page.click("#mine [data-cancel]")
    erin.page.wait_for_selector("#notice:not([hidden])")
    assert erin.page.inner_text("#notice") == "The game is withdrawn."
    erin.wait_until("!document.querySelector('#mine [data-cancel]')")
    assert not erin.errors and not fan.errors, (erin.errors, fan.errors)
