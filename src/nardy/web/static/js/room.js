// The game room: one WebSocket to /ws/games/{id} (docs/protocol.md), the board, the panel
// of players, score, pips, cube and dice, and the buttons the server's `awaiting` opens.
// The client applies nothing itself: it draws each state the server sends, mid-turn single
// moves included, and announces the opponent's dice and moves in an aria-live region.
//
// The player's options (GET /api/me/preferences) act here: passing when no move is legal,
// rolling when doubling is impossible, playing a move that is the only one, bearing off in a
// race, the home board's corner and switching sides after each game, sound and animation.
// An option's action is taken once per state, a moment after it is drawn, so it is seen.

import { cancelGame } from "/js/api.js";
import { Board, theirPoint } from "/js/board.js";
import { Chat } from "/js/chat.js";
import { t, tn, onLanguage, translate } from "/js/i18n.js";
import { botName, errorText } from "/js/names.js";
import { readPlay } from "/js/notation.js";
import { InFlight, momentPassed, refusalText } from "/js/refusals.js";
import { rulesPath } from "/js/rules.js";
import { sound } from "/js/sound.js";
import { announce, notice } from "/js/ui.js";
import { isTable, personName, sideName, tableButtons, tablePanel, tableSide } from "/js/table.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const AUTO_MS = 450; // how long an option's automatic action waits, to be seen
const REPLAY_MS = 650; // between the single moves of a replayed play

/** The home corner a game is drawn with: the player's, left and right swapped on every
 * second game of a match when they switch sides after each game (RULES.md 4). */
export function homeFor(home, switchSides, gameIndex) {
  if (!switchSides || gameIndex % 2 === 0) return home;
  return home.endsWith("right") ? home.replace("right", "left") : home.replace("left", "right");
}

/** Whether no checker of either side can meet one of the other any more (a race): no
 * opponent checker still has to pass a point at or below the viewer's rearmost checker. */
export function isRace(rules, sides, viewer) {
  const mine = sides[viewer];
  const theirs = sides[1 - viewer];
  let rearmost = 0;
  for (let p = 1; p <= 25; p++) if (mine[p]) rearmost = p;
  if (rearmost === 25) return false;
  for (let q = 1; q <= 25; q++) {
    if (!theirs[q]) continue;
    // the points its way still passes, in the viewer's numbering (the bar: all of them)
    for (let r = 1; r <= Math.min(q, 24); r++) if (theirPoint(rules, r) <= rearmost) return false;
    if (q === 25) return false;
  }
  return true;
}

/** The sides with the checkers that have not entered yet (where checkers start outside the
 * board) counted where they enter from, 25, as they are drawn and moved and counted in pips. */
export function withWaiting(sides, rules) {
  if (!rules["enters-from-outside"]) return sides;
  return sides.map((counts) => {
    const shown = [...counts];
    shown[25] += rules.checkers - counts.reduce((a, b) => a + b, 0);
    return shown;
  });
}

/** Each seat's 26 counts (own numbering) of a position written as the server writes it:
 * 104 hex digits, the mover's 26 counts then the other side's. */
export function sidesFromPosition(position, mover) {
  const raw = position.match(/../g).map((h) => parseInt(h, 16));
  const sides = [];
  sides[mover] = raw.slice(0, 26);
  sides[1 - mover] = raw.slice(26);
  return sides;
}

/** Each seat's 26 counts (own numbering) after the turn's single moves so far. */
export function sidesOf(game, rules) {
  const mover = game.turn;
  const sides = sidesFromPosition(game.position, mover);
  if (game.phase === "moving") {
    for (const [start, end, hit] of game.current.moves) {
      sides[mover][start] -= 1;
      sides[mover][end] += 1;
      if (hit) {
        const q = theirPoint(rules, end);
        sides[1 - mover][q] -= 1;
        sides[1 - mover][25] += 1;
      }
    }
  }
  return sides;
}

/** A side's pip count: the pips its checkers still travel (the bar is 25 away). */
export function pips(counts) {
  let total = 0;
  for (let p = 1; p <= 25; p++) total += p * counts[p];
  return total;
}

function diceLine(dice) {
  return dice.join("-");
}

/** A clock's reserve as a player reads it: m:ss, and tenths in the last ten seconds. */
export function clockText(seconds) {
  if (seconds < 10) return seconds.toFixed(1);
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Where a game's clock stands `since` seconds after its state was sent: each player's
 * reserve left and, for the player whose clock runs, the delay left (null for the other). */
export function clockNow(clock, since) {
  const reserve = [...clock.reserve];
  const delay = [null, null];
  if (clock.running !== null) {
    const elapsed = clock.elapsed + since;
    const seat = clock.running;
    delay[seat] = Math.max(0, clock.delay - elapsed);
    reserve[seat] = Math.max(0, reserve[seat] - Math.max(0, elapsed - clock.delay));
  }
  return { reserve, delay };
}

/** The board between the two players' strips, as the room and the replay lay it out. */
export const BOARD_TABLE = `<div class="table">
          <div class="side top" id="side-top"></div>
          <div class="boardbox" id="boardbox"></div>
          <div class="side bottom" id="side-bottom"></div>
        </div>`;

export class Room {
  constructor(main, gameId, prefs, navigate = null) {
    this.id = gameId;
    this.prefs = prefs;
    this.navigate = navigate;
    this.stateAt = 0; // performance.now() when the last state arrived: the clocks count on
    this.absence = new Map(); // absent seat -> performance.now() when it may be claimed
    this.waiting = false; // the player chose to wait for the absent opponent
    this.seat = null;
    this.state = null;
    this.closed = false;
    this.retries = 0;
    this.proposals = []; // a consultation side's own proposals, as they arrive
    this.inFlight = new InFlight();
    main.innerHTML = `
      <section class="room">
        ${BOARD_TABLE}
        <aside class="panel">
          <p class="status" id="status" aria-live="polite"></p>
          <div class="actions" id="actions"></div>
          <div class="presence" id="presence" role="status" hidden>
            <p id="presence-text"></p>
            <div class="actions">
              <button type="button" class="primary" id="claim" data-action="claim" data-i18n="act.claim"></button>
              <button type="button" id="wait" data-action="wait" data-i18n="act.wait"></button>
            </div>
          </div>
          <div class="rematch" id="rematch" hidden>
            <p id="rematch-text"></p>
            <button type="button" class="primary" id="rematch-button" data-action="rematch" data-i18n="act.rematch"></button>
          </div>
          <form class="typed" id="typed" autocomplete="off">
            <label for="notation" data-i18n="room.type-move"></label>
            <div class="typed-row">
              <input id="notation" name="notation" spellcheck="false" autocapitalize="off" data-i18n-placeholder="room.type-example">
              <button type="submit" data-i18n="act.play"></button>
            </div>
          </form>
          <div class="table-panel" id="table-panel" hidden></div>
          <p class="match" id="match"></p>
          <div class="tools">
            <button type="button" id="replay" class="quiet" data-i18n="room.replay-last" disabled></button>
            <button type="button" id="mute" class="quiet" aria-pressed="false"></button>
          </div>
          <section class="chat" id="chat" aria-labelledby="chat-title"></section>
          <p class="hint" data-i18n="room.keys"></p>
          <details class="options" id="options"><summary data-i18n="room.options"></summary>
            <label><input type="checkbox" data-pref="auto-pass"> <span data-i18n="prefs.auto-pass"></span></label>
            <label><input type="checkbox" data-pref="auto-roll"> <span data-i18n="prefs.auto-roll"></span></label>
            <label><input type="checkbox" data-pref="auto-play-forced"> <span data-i18n="prefs.auto-play-forced"></span></label>
            <label><input type="checkbox" data-pref="auto-bear-off"> <span data-i18n="prefs.auto-bear-off"></span></label>
            <label><input type="checkbox" data-pref="auto-switch-side"> <span data-i18n="prefs.auto-switch-side"></span></label>
            <label><input type="checkbox" data-pref="animation"> <span data-i18n="prefs.animation"></span></label>
          </details>
          <label class="pref"><span data-i18n="prefs.home"></span>
            <select id="home">
              <option value="bottom-right" data-i18n="home.bottom-right"></option>
              <option value="bottom-left" data-i18n="home.bottom-left"></option>
              <option value="top-right" data-i18n="home.top-right"></option>
              <option value="top-left" data-i18n="home.top-left"></option>
            </select></label>
          <p class="invite" id="invite" hidden></p>
          <p><a id="to-replay" hidden data-link data-i18n="room.replay"></a></p>
          <a class="rules-link" id="rules-link" href="/rules" target="_blank" rel="noopener" data-i18n="room.rules"></a>
        </aside>
      </section>`;
    translate(main);
    this.board = new Board(main.querySelector("#boardbox"), (from, to) => this.send({ type: "move", from, to }), {
      onRefuse: (point) => this.refuse(point),
      onNote: (key, params) => {
        // the dice drawn in their new order say it; a screen reader is told
        if (key === "board.dice-swapped") return announce(t("board.dice-swapped", params));
        notice(t("board.ambiguous"), "ok", 4000);
        announce(t("board.ambiguous"));
      },
    });
    this.chat = new Chat(main.querySelector("#chat"), (body) => this.message(body));
    this.glide = [];
    this.autoSeq = null;
    this.replaying = null;
    main.querySelector("#typed").addEventListener("submit", (e) => {
      e.preventDefault();
      this.typed(main.querySelector("#notation"));
    });
    for (const box of main.querySelectorAll("[data-pref]")) {
      box.checked = !!prefs[box.dataset.pref];
      box.addEventListener("change", () => {
        prefs.save({ [box.dataset.pref]: box.checked });
        this.draw();
      });
    }
    main.querySelector("#replay").addEventListener("click", () => this.replay());
    main.querySelector("#mute").addEventListener("click", () => {
      prefs.save({ sound: !prefs.sound });
      this.muteButton();
    });
    this.muteButton();
    const home = main.querySelector("#home");
    home.value = prefs.home;
    home.addEventListener("change", () => {
      prefs.home = home.value;
      prefs.save({ home: home.value });
      this.draw();
    });
    main.querySelector("#claim").addEventListener("click", (e) => e.detail < 2 && this.message({ type: "claim" }));
    main.querySelector("#wait").addEventListener("click", () => {
      this.waiting = true;
      this.drawPresence();
    });
    main.querySelector("#rematch-button").addEventListener("click", (e) => e.detail < 2 && this.message({ type: "rematch" }));
    this.ticker = setInterval(() => this.tick(), 200);
    this.keys = (e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    this.offLanguage = onLanguage(() => {
      this.muteButton();
      this.draw();
    });
    this.connect();
  }

  close() {
    this.closed = true;
    delete document.body.dataset.seq;
    delete document.body.dataset.status;
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ticker);
    this.offLanguage();
    this.chat.close();
    if (this.socket) this.socket.close();
    clearTimeout(this.retryTimer);
    clearTimeout(this.autoTimer);
    clearTimeout(this.replayTimer);
    this.inFlight.clear();
  }

  muteButton() {
    const button = document.getElementById("mute");
    if (!button) return;
    button.textContent = this.prefs.sound ? t("room.sound-on") : t("room.sound-off");
    button.setAttribute("aria-pressed", String(!this.prefs.sound));
  }

  /** Why the viewer's checker on `point` cannot move now, in the player's words. */
  refuse(point) {
    const game = this.game();
    const rules = this.state?.rules;
    if (!game || !rules || !this.mine().includes("move")) return;
    const sides = sidesOf(game, rules);
    const fromHead = game.current.moves.some(([start]) => start === rules.head);
    let text;
    if (rules.head !== null && point === rules.head && fromHead) text = t("why.head");
    else if (rules.bar && sides[this.viewer][25] > 0 && point !== 25) text = t("why.bar");
    else text = t("why.no-move", { point });
    notice(text, "warn", 4000);
    announce(text);
  }

  /** A play typed in notation ("13/7 8/7", "bar/22", "6/off", "24/18(2)"): played as
   * single moves, each leg of it as the server's legal moves allow, to be confirmed (Enter)
   * or taken back (Backspace) like moves made on the board. An empty line does what Enter
   * does elsewhere. */
  typed(input) {
    const text = input.value.trim();
    if (!text) return this.primary();
    if (!this.mine().includes("move")) {
      notice(t("room.not-now"), "warn", 3000);
      return;
    }
    const read = readPlay(text, { bar: t("notation.bar"), off: t("notation.off") });
    if (read.error) {
      notice(t("room.typed-unread", { text: read.error }), "warn", 5000);
      announce(t("room.typed-unread", { text: read.error }));
      return;
    }
    input.value = "";
    this.board.stop();
    this.legs = read.legs;
    this.playLegs();
  }

  /** The next single move of a typed play, once the state after the last one has come: a
   * leg's own move if it is a single move, else a die's move toward the leg's end (the die
   * used first first). A leg the position does not allow ends the typed play, said why. */
  playLegs() {
    if (!this.legs?.length || this.legSent === this.state.seq) return;
    const kinds = this.mine();
    if (!kinds.includes("move")) {
      this.legs = null;
      return;
    }
    const legal = this.state.awaiting.moves;
    const leg = this.legs[0];
    let move = legal.find((m) => m.from === leg.from && m.to === leg.to);
    // part of the way: never past the leg's end (bearing off only where the leg does)
    if (!move) move = this.board.preferredOf(legal.filter((m) => m.from === leg.from && m.to !== 0 && m.to > leg.to));
    if (!move) {
      const said = t("room.typed-illegal", { move: `${leg.from === 25 ? t("notation.bar") : leg.from}/${leg.to === 0 ? t("notation.off") : leg.to}` });
      notice(said, "warn", 5000);
      announce(said);
      this.legs = null;
      return;
    }
    if (move.to === leg.to) this.legs.shift();
    else leg.from = move.to;
    this.legSent = this.state.seq;
    this.send({ type: "move", from: move.from, to: move.to });
  }

  /** Enter: confirm the turn, or roll. */
  primary() {
    const kinds = this.mine();
    const primary = kinds.includes("confirm") ? "confirm" : kinds.includes("roll") ? "roll" : kinds.includes("roll-opening") ? "roll-opening" : null;
    if (primary) this.send({ type: primary });
    return primary !== null;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(this.id)}`);
    this.socket = socket;
    socket.addEventListener("message", (e) => this.receive(JSON.parse(e.data)));
    socket.addEventListener("close", (e) => {
      if (this.closed || this.socket !== socket) return;
      this.inFlight.clear(); // its answer will not come on this socket
      // docs/protocol.md: 4001 the session ended (signed out, maybe in another tab): load
      // the page again as who this browser is now; 4029 too many sockets: retrying is no use.
      if (e.code === 4001) return location.reload();
      if (e.code === 4029) return notice(t("connection.too-many"), "warn");
      notice(t("connection.lost"), "warn");
      const wait = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
      this.retries += 1;
      this.retryTimer = setTimeout(() => this.connect(), wait);
    });
  }

  /** Send an action, unless one is still awaiting the game's answer (then it is dropped:
   * it was chosen on the state before that one). */
  send(action) {
    const ref = this.inFlight.begin(action, this.state?.seq ?? 0);
    if (ref === null) return;
    if (!this.message({ type: "action", action, ref })) this.inFlight.clear();
  }

  /** Send a protocol message (an action, a claim, a rematch); false if it could not go. */
  message(body) {
    if (this.socket?.readyState !== WebSocket.OPEN) {
      notice(t("connection.lost"), "warn");
      return false;
    }
    this.socket.send(JSON.stringify(body));
    return true;
  }

  receive(message) {
    if (this.chat.receive(message)) return;
    if (message.state) this.inFlight.settle(message.state.seq);
    switch (message.type) {
      case "welcome":
        if (this.retries > 0) notice(t("connection.back"), "ok", 2500);
        this.retries = 0;
        this.seat = message.seat;
        this.show(message.state);
        break;
      case "events":
        if (this.state && message.seq !== this.state.seq + 1) this.socket.send(JSON.stringify({ type: "sync" }));
        this.tell(message.events);
        this.glide = this.glides(message.events, message.state.rules);
        this.show(message.state);
        this.glide = [];
        break;
      case "state":
        this.show(message.state);
        break;
      case "refused":
      case "error": {
        const sent = this.inFlight.answer(message.ref);
        if (message.code === "game-unavailable") {
          this.closed = true; // set aside by the server: no reconnecting to it
          notice(refusalText(message.code, message.message), "warn");
          break;
        }
        this.legs = null;
        this.board.stop();
        if (!momentPassed(message.code, sent, this.state?.seq ?? 0)) {
          const text = refusalText(message.code, message.message, sent?.action);
          notice(text, "warn", 5000);
          announce(text);
        }
        break;
      }
      case "absent":
        this.absence.set(message.seat, performance.now() + 1000 * message["claim-in"]);
        this.drawPresence();
        break;
      case "present":
        this.absence.delete(message.seat);
        this.waiting = false;
        this.drawPresence();
        break;
      case "rematch-offered":
        if (this.state) {
          const offers = new Set(this.state.rematch?.offers || []);
          offers.add(message.seat);
          this.state.rematch = { offers: [...offers], game: null };
          this.drawRematch();
        }
        break;
      case "rematch":
        if (this.navigate) this.navigate(`/game/${encodeURIComponent(message.game)}`);
        break;
      default:
        break;
    }
  }

  get viewer() {
    if (isTable(this.state)) return tableSide(this.state, this.seat) ?? 0;
    return this.seat ?? 0;
  }

  name(seat) {
    if (isTable(this.state)) return typeof seat === "number" ? sideName(this.state, seat) : personName(this.state, seat);
    const player = this.state?.players?.[seat];
    if (!player) return t("room.waiting-player");
    if (player.bot) return t("room.bot", { level: botName(player.bot) });
    return player.username;
  }

  /** The checkers that moved in these events, to slide: each in its owner's numbering. */
  glides(events, rules) {
    const moved = [];
    for (const e of events) {
      if (e.type === "checker-moved") {
        moved.push({ seat: e.player, from: e.start, to: e.end });
        if (e.hit) moved.push({ seat: 1 - e.player, from: theirPoint(rules, e.end), to: 25 });
      } else if (e.type === "move-undone") {
        moved.push({ seat: e.player, from: e.end, to: e.start });
      }
    }
    return moved;
  }

  /** Announce what the other side did, and the viewer's own dice, for a player who does
   * not see the board; and make the sounds of dice and checkers. */
  tell(events) {
    for (const e of events) {
      // at a table the board's events name a side (0 or 1), the table's a person
      const mine = e.player === this.seat || (isTable(this.state) && this.seat !== null && e.player === this.viewer);
      const other = e.player !== undefined && !mine;
      const who = e.player !== undefined ? this.name(e.player) : "";
      if (e.type === "dice-rolled" || e.type === "opening-rolled") sound("dice", this.prefs.sound);
      if (e.type === "checker-moved" || e.type === "move-undone") sound("checker", this.prefs.sound);
      if (e.type === "dice-rolled" && !other) announce(t("say.you-rolled", { dice: diceLine(e.dice) }));
      if (e.type === "dice-rolled" && other) announce(t("say.rolled", { who, dice: diceLine(e.dice) }));
      else if (e.type === "checker-moved" && other) {
        announce(t("say.moved", { who, move: `${e.start === 25 ? t("notation.bar") : e.start}/${e.end === 0 ? t("notation.off") : e.end}${e.hit ? "*" : ""}` }));
      } else if (e.type === "play-confirmed" && other) announce(t("say.played", { who, play: e.play || "—" }));
      else if (e.type === "no-legal-move") announce(t("say.no-move", { who, dice: diceLine(e.dice) }));
      else if (e.type === "cube-offered" && other) announce(t("say.doubles", { who, value: e.value }));
      else if (e.type === "cube-taken" && other) announce(t("say.takes", { who, value: e.value }));
      else if (e.type === "cube-passed" && other) announce(t("say.passes", { who }));
      else if (e.type === "opening-rolled") {
        announce(t("say.opening", { a: this.name(0), b: this.name(1), da: e.dice[0], db: e.dice[1] }));
      } else if (e.type === "resignation-offered" && other) announce(t("say.resigns", { who, points: e.level }));
      else if (e.type === "forfeited") {
        const text = e.reason === "time" ? t("say.forfeit-time", { who }) : t("say.forfeit-absent", { who });
        announce(text);
        notice(text, "warn", 8000);
      }
      else if (e.type === "proposed") this.proposals = [...this.proposals.slice(-4), e];
      else if (e.type === "vote-cast" && other) announce(e.agree ? t("say.votes-for", { who }) : t("say.votes-against", { who }));
      else if (e.type === "double-answered" && other) announce(e.take ? t("say.member-takes", { who }) : t("say.member-passes", { who }));
      else if (e.type === "player-joined") announce(t("say.joined", { who }));
      else if (e.type === "player-left") announce(t("say.left", { who }));
      else if (e.type === "game-over") {
        announce(e.winner === null ? t("say.draw") : tn("say.wins", e.points, { who: this.name(e.winner) }));
      }
    }
  }

  show(state) {
    this.state = state;
    this.stateAt = performance.now();
    this.absence = new Map((state.absent || []).map((a) => [a.seat, this.stateAt + 1000 * a["claim-in"]]));
    if (!this.absence.size) this.waiting = false;
    this.draw();
    // what was drawn last, for tools that follow the page (and the browser tests)
    document.body.dataset.seq = state.seq;
    document.body.dataset.status = state.status;
  }

  /** The game under way (the last of the match), or null before the first action. */
  game() {
    const games = this.state?.match?.games;
    return games && games.length ? games[games.length - 1] : null;
  }

  mine() {
    const actors = this.state?.awaiting?.actors || [];
    return actors.find((a) => a.player === this.seat)?.actions || [];
  }

  draw() {
    const state = this.state;
    if (!state) return;
    const game = this.game();
    const rules = state.rules;
    const kinds = this.mine();
    const awaiting = state.awaiting;
    // before the first roll, the variant's starting position
    let sides = withWaiting([[...rules.start], [...rules.start]], rules);
    let dice = null;
    let used = null;
    let cube = state.settings.cube === false ? null : { value: 1, owner: null };
    let diceSeat = 0;
    if (game) {
      sides = withWaiting(sidesOf(game, rules), rules);
      // no cube on the board of a game played without one (long nardy's, or cube off)
      cube = state.settings.cube === false ? null : { value: game.cube[0], owner: game.cube[1] };
      if (game.current.dice) {
        const d = game.current.dice;
        dice = d[0] === d[1] ? [d[0], d[0], d[0], d[0]] : [...d];
        used = dice.map(() => false);
        for (const [, , , die] of game.current.moves) {
          const i = dice.findIndex((v, j) => v === die && !used[j]);
          if (i >= 0) used[i] = true;
        }
        diceSeat = game.turn;
      }
    }
    const games = state.match?.games || [];
    const home = homeFor(this.prefs.home, this.prefs["auto-switch-side"], Math.max(games.length - 1, 0));
    this.home = home;
    const planned = this.replaying || this.legs?.length ? null : this.plan(kinds, awaiting, sides, rules);
    const legal = kinds.includes("move") && !planned && !this.replaying ? awaiting.moves : [];
    const records = game?.records || [];
    const lastPlay = [...records].reverse().find((r) => r.play && r.play.length);
    const last = lastPlay ? { seat: lastPlay.player, moves: lastPlay.play } : null;
    // opens beside the game; a table still filling has no rules yet, only its variant's name
    document.getElementById("rules-link").href = rulesPath(rules ? rules.key : state.settings.variant);
    const roll = game ? `${games.length}:${records.length}:${game.current.dice}` : null;
    if (!this.replaying) {
      this.board.draw({
        rules, seq: state.seq, roll, sides, viewer: this.viewer, home, dice, used, diceSeat, cube, legal,
        last, glide: this.glide, animation: this.prefs.animation,
      });
    }
    translate(this.board.svg.parentNode);
    this.lastPlay = lastPlay || null;
    document.getElementById("replay").disabled = !lastPlay || !!this.replaying;
    if (!kinds.includes("move")) this.board.stop();
    if (planned) this.schedule(planned, state.seq);
    if (!this.replaying) this.playLegs();

    const top = document.getElementById("side-top");
    const bottom = document.getElementById("side-bottom");
    const me = this.viewer;
    const label = (seat) => {
      const onTurn = game && awaiting?.actors?.some((a) => a.player === seat);
      return `<span class="swatch c${seat}" aria-hidden="true"></span>
        <strong class="who-name">${escapeHtml(this.name(seat))}</strong>
        <span class="pips" data-seat="${seat}">${escapeHtml(tn("room.pips", pips(sides[seat])))}</span>
        <span class="off">${escapeHtml(tn("room.off", sides[seat][0]))}</span>
        <span class="clock" data-seat="${seat}" role="timer" hidden><span class="sr">${escapeHtml(t("clock.reserve"))}</span><span class="reserve"></span><span class="delay"></span></span>
        ${onTurn ? `<span class="turnmark">${escapeHtml(t("room.to-act"))}</span>` : ""}`;
    };
    const topIsOpponent = home.startsWith("bottom");
    top.innerHTML = label(topIsOpponent ? 1 - me : me);
    bottom.innerHTML = label(topIsOpponent ? me : 1 - me);

    const length = state.settings["match-length"];
    const score = state.score || [0, 0];
    document.getElementById("match").textContent = length
      ? tn("room.match-to", length, { a: score[0], b: score[1] })
      : t("room.money", { a: score[0], b: score[1] });
    document.getElementById("match").hidden = state.kind === "chouette"; // its scores are the panel's

    this.status(state, kinds, game);
    this.buttons(planned ? [] : kinds, game);
    const panel = document.getElementById("table-panel");
    panel.hidden = !isTable(state);
    if (!panel.hidden) this.drawTable(panel, kinds);
    const replay = document.getElementById("to-replay");
    replay.hidden = state.status !== "finished" || isTable(state); // a replay is of a two-player match
    replay.href = `/replay/${encodeURIComponent(this.id)}`;
    // the typed-move box only while there is a game to play in and a seat to play it from
    document.getElementById("typed").hidden = state.status !== "playing" || (this.seat === null && !isTable(state));
    const invite = document.getElementById("invite");
    invite.hidden = state.status !== "open" || isTable(state);
    if (!invite.hidden) invite.textContent = t("room.waiting-opponent");
    this.tick();
    this.drawRematch();
  }

  /** Count the clocks and the grace period on (five times a second). */
  tick() {
    this.drawClocks();
    this.drawPresence();
  }

  drawClocks() {
    const clock = this.state?.clock;
    const running = clock && this.state.status === "playing";
    const now = clock ? clockNow(running ? clock : { ...clock, running: null }, (performance.now() - this.stateAt) / 1000) : null;
    for (const box of document.querySelectorAll(".clock[data-seat]")) {
      box.hidden = !clock;
      if (!clock) continue;
      const seat = Number(box.dataset.seat);
      const delay = now.delay[seat];
      box.classList.toggle("running", delay !== null);
      box.classList.toggle("in-delay", delay !== null && delay > 0);
      box.classList.toggle("low", now.reserve[seat] < 10);
      box.querySelector(".reserve").textContent = clockText(now.reserve[seat]);
      box.querySelector(".delay").textContent = delay ? t("clock.delay", { s: Math.ceil(delay) }) : "";
    }
  }

  /** The grace period of an absent opponent: its countdown, then Claim or Wait. */
  drawPresence() {
    const box = document.getElementById("presence");
    if (!box) return;
    const playing = this.state?.status === "playing";
    const other = this.seat === null ? [...this.absence.keys()][0] : 1 - this.seat;
    const until = other === undefined ? undefined : this.absence.get(other);
    box.hidden = !playing || until === undefined || (this.waiting && this.seat !== null);
    if (box.hidden) return;
    const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
    const who = this.name(other);
    const text = document.getElementById("presence-text");
    const claim = document.getElementById("claim");
    const wait = document.getElementById("wait");
    claim.hidden = wait.hidden = this.seat === null;
    claim.disabled = left > 0;
    if (this.seat === null) text.textContent = t("absent.watch", { who });
    else if (left > 0) text.textContent = t("absent.wait", { who, s: left });
    else text.textContent = t("absent.claimable", { who });
  }

  /** After the match: the Rematch button and who has offered one. */
  drawRematch() {
    const box = document.getElementById("rematch");
    if (!box || !this.state) return;
    box.hidden = this.state.status !== "finished" || this.seat === null;
    if (box.hidden) return;
    const offers = this.state.rematch?.offers || [];
    const text = document.getElementById("rematch-text");
    const mine = offers.includes(this.seat);
    const theirs = offers.includes(1 - this.seat);
    document.getElementById("rematch-button").disabled = mine;
    if (mine) text.textContent = t("rematch.offered", { who: this.name(1 - this.seat) });
    else if (theirs) text.textContent = t("rematch.asked", { who: this.name(1 - this.seat) });
    else text.textContent = "";
  }

  /** The action one of the player's options takes now, or null: pass with no move, roll
   * when doubling is impossible, bear off in a race, play the only legal move. */
  plan(kinds, awaiting, sides, rules) {
    const p = this.prefs;
    if (this.autoSeq === this.state.seq) return null;
    const moving = kinds.includes("move");
    if (p["auto-pass"] && kinds.includes("play") && !moving && !kinds.includes("confirm")) return { type: "play", moves: "" };
    if (p["auto-roll"] && kinds.includes("roll") && !kinds.includes("double")) return { type: "roll" };
    if (!moving) return null;
    if (p["auto-bear-off"] && isRace(rules, sides, this.viewer)) {
      // the checker from the highest point that can go: no die is wasted on a lower one
      const off = awaiting.moves.filter((m) => m.to === 0).sort((a, b) => b.from - a.from);
      if (off.length) return { type: "move", from: off[0].from, to: 0 };
    }
    if (p["auto-play-forced"] && awaiting.moves.length === 1) {
      const [m] = awaiting.moves;
      return { type: "move", from: m.from, to: m.to };
    }
    return null;
  }

  /** Take an option's action a moment after drawing, if the game is still where it was. */
  schedule(action, seq) {
    this.autoSeq = seq;
    clearTimeout(this.autoTimer);
    this.autoTimer = setTimeout(() => {
      if (this.state?.seq !== seq) return;
      if (this.replaying) {
        this.autoSeq = null; // planned again when the replay is over
        return;
      }
      if (action.type === "play" && action.moves === "") {
        announce(t("say.you-pass"));
        this.send(action);
      } else {
        this.send(action);
      }
    }, AUTO_MS);
  }

  /** Show the last play again: its starting position, then each single move in turn. */
  replay() {
    const record = this.lastPlay;
    const game = this.game();
    if (!record || !game || this.replaying) return;
    const rules = this.state.rules;
    const sides = sidesFromPosition(record.before, record.player);
    const cube = this.state.settings.cube === false ? null : { value: game.cube[0], owner: game.cube[1] };
    const dice = record.dice[0] === record.dice[1] ? Array(4).fill(record.dice[0]) : [...record.dice];
    this.replaying = { step: 0 };
    document.getElementById("replay").disabled = true;
    document.getElementById("status").textContent = t("room.replaying", { who: this.name(record.player) });
    const frame = (glide) => this.board.draw({
      rules, seq: this.state.seq, roll: null, sides: withWaiting(sides, rules), viewer: this.viewer, home: this.home,
      dice, used: dice.map((_, i) => i < this.replaying.step), diceSeat: record.player, cube, legal: [],
      last: null, glide, animation: true,
    });
    frame([]);
    const next = () => {
      const move = record.play[this.replaying.step];
      if (!move) {
        this.replaying = null;
        this.draw();
        return;
      }
      const [from, to, hit] = move;
      sides[record.player][from] -= 1;
      sides[record.player][to] += 1;
      const glide = [{ seat: record.player, from, to }];
      if (hit) {
        const q = theirPoint(rules, to);
        sides[1 - record.player][q] -= 1;
        sides[1 - record.player][25] += 1;
        glide.push({ seat: 1 - record.player, from: q, to: 25 });
      }
      this.replaying.step += 1;
      sound("checker", this.prefs.sound);
      frame(glide);
      this.replayTimer = setTimeout(next, REPLAY_MS);
    };
    this.replayTimer = setTimeout(next, REPLAY_MS);
  }

  status(state, kinds, game) {
    const el = document.getElementById("status");
    if (state.status === "finished") {
      const winner = this.state.score[0] > this.state.score[1] ? 0 : 1;
      el.textContent = t("room.finished", { who: this.name(winner), score: state.score.join(" : ") });
      return;
    }
    if (state.status === "cancelled") {
      el.textContent = t("room.cancelled");
      return;
    }
    if (state.status === "open" || state.status === "invited") {
      el.textContent = isTable(state) ? t("table.waiting-people") : t("room.waiting-opponent");
      return;
    }
    const phase = state.awaiting?.phase;
    if (this.seat === null) el.textContent = t("room.watching");
    else if (!kinds.length) el.textContent = t("room.their-turn", { who: this.others() });
    else if (phase === "moving") el.textContent = t("room.your-move");
    else if (phase === "doubled" || phase === "beavered") el.textContent = t("room.doubled", { value: 2 * game.cube[0] });
    else if (phase === "resigned") el.textContent = t("room.resign-offered");
    else el.textContent = t("room.your-turn");
  }

  /** Who the game waits for, when it is not this player. */
  others() {
    if (!isTable(this.state)) return this.name(1 - this.seat);
    return (this.state.awaiting?.actors || []).map((a) => this.name(a.player)).join(", ");
  }

  drawTable(panel, kinds) {
    const typing = panel.querySelector(".propose input"); // kept across redraws
    const draft = typing ? typing.value : "";
    const focused = typing !== null && document.activeElement === typing;
    panel.innerHTML = tablePanel(this.state, this.seat, this.proposals);
    if (kinds.includes("propose")) {
      const form = document.createElement("form");
      form.className = "propose";
      form.innerHTML = `<input name="text" maxlength="200" aria-label=""><button type="submit"></button>`;
      form.querySelector("input").setAttribute("aria-label", t("table.propose-label"));
      form.querySelector("input").placeholder = t("table.propose-label");
      form.querySelector("button").textContent = t("act.propose");
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const text = form.querySelector("input").value.trim();
        if (text) this.send({ type: "propose", text });
        form.querySelector("input").value = "";
      });
      panel.appendChild(form);
      form.querySelector("input").value = draft;
      if (focused) form.querySelector("input").focus();
    }
  }

  buttons(kinds, game) {
    const box = document.getElementById("actions");
    box.replaceChildren();
    const add = (kind, action, label, extra = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `act ${kind} ${extra}`.trim();
      b.dataset.action = kind;
      b.textContent = label;
      // the second click of a double-click is no second decision (detail counts the clicks)
      b.addEventListener("click", (e) => e.detail < 2 && this.send(action));
      box.appendChild(b);
      return b;
    };
    const waiting = this.state.status === "open" || this.state.status === "invited";
    // at a table, the one person seated while it waits is its creator
    const creator = isTable(this.state)
      ? this.seat !== null && Object.values(this.state.people).filter((p) => !p.bot).length === 1
      : this.seat === 0;
    if (waiting && creator) {
      // the creator may withdraw the game while nobody has joined it
      const withdraw = document.createElement("button");
      withdraw.type = "button";
      withdraw.className = "act cancel quiet";
      withdraw.dataset.action = "cancel";
      withdraw.textContent = t("lobby.cancel");
      withdraw.addEventListener("click", () => cancelGame(this.id).catch((err) => notice(errorText(err), "warn", 5000)));
      box.appendChild(withdraw);
    }
    const next = game ? 2 * game.cube[0] : 2;
    if (kinds.includes("roll-opening")) add("roll-opening", { type: "roll-opening" }, t("act.roll"), "primary");
    if (kinds.includes("roll")) add("roll", { type: "roll" }, t("act.roll"), "primary");
    if (kinds.includes("double")) add("double", { type: "double" }, t("act.double", { value: next }));
    if (kinds.includes("take")) add("take", { type: "take" }, t("act.take"), "primary");
    if (kinds.includes("beaver")) add("beaver", { type: "beaver" }, t("act.beaver"));
    if (kinds.includes("pass")) add("pass", { type: "pass" }, t("act.pass"));
    if (kinds.includes("choose-double")) {
      for (let d = 1; d <= 6; d++) add("choose-double", { type: "choose-double", die: d }, t("act.choose-double", { die: d }));
    }
    if (kinds.includes("undo")) add("undo", { type: "undo" }, t("act.undo"));
    if (kinds.includes("confirm")) add("confirm", { type: "confirm" }, t("act.confirm"), "primary");
    if (kinds.includes("play") && !kinds.includes("move") && !kinds.includes("confirm")) {
      add("play", { type: "play", moves: "" }, t("act.no-move"), "primary");
    }
    if (kinds.includes("accept")) add("accept", { type: "accept" }, t("act.accept"), "primary");
    if (kinds.includes("decline")) add("decline", { type: "decline" }, t("act.decline"));
    if (kinds.includes("surrender")) add("surrender", { type: "surrender" }, t("act.surrender"), "quiet");
    if (kinds.includes("resign")) {
      // out of the way of the moving buttons: resigning takes two deliberate clicks
      const more = document.createElement("details");
      more.className = "resign";
      const summary = document.createElement("summary");
      summary.textContent = t("act.resign");
      more.appendChild(summary);
      box.appendChild(more);
      const levels = [t("act.resign-single"), t("act.resign-gammon"), t("act.resign-backgammon")];
      levels.forEach((label, i) => more.appendChild(add("resign", { type: "resign", level: i + 1 }, label, "quiet")));
    }
    if (isTable(this.state)) tableButtons(this.state, this.seat, kinds, add);
  }

  key(e) {
    // typing a move: its keys are the input's, except Backspace in an empty line (undo)
    const typing = e.target.closest?.("input, select, textarea");
    if (typing && !(e.target.id === "notation" && e.key === "Backspace" && !e.target.value)) return;
    if (e.target.closest?.("button, summary, a")) return; // Enter there is that control's
    const kinds = this.mine();
    if (e.key === "Enter") {
      if (this.primary()) e.preventDefault();
    } else if (e.key === "Backspace" && kinds.includes("undo")) {
      e.preventDefault();
      this.board.stop();
      this.legs = null;
      this.send({ type: "undo" });
    } else if (e.key === "Escape") {
      this.board.selected = null;
      this.board.render();
    }
  }
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
