// The game room: one WebSocket to /ws/games/{id} (docs/protocol.md), the board, the panel
// of players, score, pips, cube and dice, and the buttons the server's `awaiting` opens.
// The client applies nothing itself: it draws each state the server sends, mid-turn single
// moves included, and announces the opponent's dice and moves in an aria-live region.

import { cancelGame } from "/js/api.js";
import { Board, theirPoint } from "/js/board.js";
import { t, tn, onLanguage, translate } from "/js/i18n.js";
import { botName, errorText } from "/js/names.js";
import { rulesPath } from "/js/rules.js";
import { announce, notice } from "/js/ui.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];

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
export function sidesOf(game) {
  const mover = game.turn;
  const sides = sidesFromPosition(game.position, mover);
  if (game.phase === "moving") {
    for (const [start, end, hit] of game.current.moves) {
      sides[mover][start] -= 1;
      sides[mover][end] += 1;
      if (hit) {
        const q = theirPoint(game.variant, end);
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
    main.innerHTML = `
      <section class="room">
        <div class="table">
          <div class="side top" id="side-top"></div>
          <div class="boardbox" id="boardbox"></div>
          <div class="side bottom" id="side-bottom"></div>
        </div>
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
          <p class="match" id="match"></p>
          <p class="hint" data-i18n="room.keys"></p>
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
    this.board = new Board(main.querySelector("#boardbox"), (from, to) => this.send({ type: "move", from, to }));
    const home = main.querySelector("#home");
    home.value = prefs.home;
    home.addEventListener("change", () => {
      prefs.home = home.value;
      prefs.save({ home: home.value });
      this.draw();
    });
    main.querySelector("#claim").addEventListener("click", () => this.message({ type: "claim" }));
    main.querySelector("#wait").addEventListener("click", () => {
      this.waiting = true;
      this.drawPresence();
    });
    main.querySelector("#rematch-button").addEventListener("click", () => this.message({ type: "rematch" }));
    this.ticker = setInterval(() => this.tick(), 200);
    this.keys = (e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    this.offLanguage = onLanguage(() => this.draw());
    this.connect();
  }

  close() {
    this.closed = true;
    delete document.body.dataset.seq;
    delete document.body.dataset.status;
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ticker);
    this.offLanguage();
    if (this.socket) this.socket.close();
    clearTimeout(this.retryTimer);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(this.id)}`);
    this.socket = socket;
    socket.addEventListener("message", (e) => this.receive(JSON.parse(e.data)));
    socket.addEventListener("close", () => {
      if (this.closed || this.socket !== socket) return;
      notice(t("connection.lost"), "warn");
      const wait = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
      this.retries += 1;
      this.retryTimer = setTimeout(() => this.connect(), wait);
    });
  }

  send(action) {
    this.message({ type: "action", action });
  }

  /** Send a protocol message (an action, a claim, a rematch). */
  message(body) {
    if (this.socket?.readyState !== WebSocket.OPEN) {
      notice(t("connection.lost"), "warn");
      return;
    }
    this.socket.send(JSON.stringify(body));
  }

  receive(message) {
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
        this.show(message.state);
        break;
      case "state":
        this.show(message.state);
        break;
      case "refused":
        notice(t("refused", { reason: message.message }), "warn", 5000);
        break;
      case "error":
        notice(t("refused", { reason: message.message }), "warn", 5000);
        break;
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
    return this.seat ?? 0;
  }

  name(seat) {
    const player = this.state?.players?.[seat];
    if (!player) return t("room.waiting-player");
    if (player.bot) return t("room.bot", { level: botName(player.bot) });
    return player.username;
  }

  /** Announce what the other side did, for a player who does not see the board. */
  tell(events) {
    for (const e of events) {
      const other = e.player !== undefined && e.player !== this.seat;
      const who = e.player !== undefined ? this.name(e.player) : "";
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
    const variant = state.settings.variant;
    const kinds = this.mine();
    const awaiting = state.awaiting;
    let sides = [new Array(26).fill(0), new Array(26).fill(0)];
    let dice = null;
    let used = null;
    let cube = state.settings.cube === false ? null : { value: 1, owner: null };
    let diceSeat = 0;
    if (game) {
      sides = sidesOf(game);
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
    const legal = kinds.includes("move") ? awaiting.moves : [];
    document.getElementById("rules-link").href = rulesPath(variant); // opens beside the game
    this.board.draw({ variant, sides, viewer: this.viewer, home: this.prefs.home, dice, used, diceSeat, cube, legal });
    translate(this.board.svg.parentNode);

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
    const topIsOpponent = this.prefs.home.startsWith("bottom");
    top.innerHTML = label(topIsOpponent ? 1 - me : me);
    bottom.innerHTML = label(topIsOpponent ? me : 1 - me);

    const length = state.settings["match-length"];
    const score = state.score || [0, 0];
    document.getElementById("match").textContent = length
      ? tn("room.match-to", length, { a: score[0], b: score[1] })
      : t("room.money", { a: score[0], b: score[1] });

    this.status(state, kinds, game);
    this.buttons(kinds, game);
    const replay = document.getElementById("to-replay");
    replay.hidden = state.status !== "finished";
    replay.href = `/replay/${encodeURIComponent(this.id)}`;
    const invite = document.getElementById("invite");
    invite.hidden = state.status !== "open";
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
      el.textContent = t("room.waiting-opponent");
      return;
    }
    const phase = state.awaiting?.phase;
    if (this.seat === null) el.textContent = t("room.watching");
    else if (!kinds.length) el.textContent = t("room.their-turn", { who: this.name(1 - this.seat) });
    else if (phase === "moving") el.textContent = t("room.your-move");
    else if (phase === "doubled" || phase === "beavered") el.textContent = t("room.doubled", { value: 2 * game.cube[0] });
    else if (phase === "resigned") el.textContent = t("room.resign-offered");
    else el.textContent = t("room.your-turn");
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
      b.addEventListener("click", () => this.send(action));
      box.appendChild(b);
      return b;
    };
    const waiting = this.state.status === "open" || this.state.status === "invited";
    if (waiting && this.seat === 0) {
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
  }

  key(e) {
    if (e.target.closest?.("input, select, textarea")) return;
    const kinds = this.mine();
    if (e.key === "Enter") {
      const primary = kinds.includes("confirm") ? "confirm" : kinds.includes("roll") ? "roll" : kinds.includes("roll-opening") ? "roll-opening" : null;
      if (primary) {
        e.preventDefault();
        this.send({ type: primary });
      }
    } else if (e.key === "Backspace" && kinds.includes("undo")) {
      e.preventDefault();
      this.send({ type: "undo" });
    }
  }
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
