// The game room: one WebSocket to /ws/games/{id} (docs/protocol.md), the board, the panel
// of players, score, pips, cube and dice, and the buttons the server's `awaiting` opens.
// The client applies nothing itself: it draws each state the server sends, mid-turn single
// moves included, and announces the opponent's dice and moves in an aria-live region.

import { cancelGame } from "/js/api.js";
import { Board, theirPoint } from "/js/board.js";
import { t, tn, onLanguage, translate } from "/js/i18n.js";
import { botName, errorText } from "/js/names.js";
import { announce, notice } from "/js/ui.js";
import { isTable, personName, sideName, tableButtons, tablePanel, tableSide } from "/js/table.js";

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

export class Room {
  constructor(main, gameId, prefs) {
    this.id = gameId;
    this.prefs = prefs;
    this.seat = null;
    this.state = null;
    this.closed = false;
    this.retries = 0;
    this.proposals = []; // a consultation side's own proposals, as they arrive
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
          <div class="table-panel" id="table-panel" hidden></div>
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
    if (this.socket?.readyState !== WebSocket.OPEN) {
      notice(t("connection.lost"), "warn");
      return;
    }
    this.socket.send(JSON.stringify({ type: "action", action }));
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

  /** Announce what the other side did, for a player who does not see the board. */
  tell(events) {
    for (const e of events) {
      // at a table the board's events name a side (0 or 1), the table's a person
      const mine = e.player === this.seat || (isTable(this.state) && this.seat !== null && e.player === this.viewer);
      const other = e.player !== undefined && !mine;
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
    document.getElementById("match").hidden = state.kind === "chouette"; // its scores are the panel's

    this.status(state, kinds, game);
    this.buttons(kinds, game);
    const panel = document.getElementById("table-panel");
    panel.hidden = !isTable(state);
    if (!panel.hidden) this.drawTable(panel, kinds);
    const replay = document.getElementById("to-replay");
    replay.hidden = state.status !== "finished" || isTable(state); // a replay is of a two-player match
    replay.href = `/replay/${encodeURIComponent(this.id)}`;
    const invite = document.getElementById("invite");
    invite.hidden = state.status !== "open" || isTable(state);
    if (!invite.hidden) invite.textContent = t("room.waiting-opponent");
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
      b.addEventListener("click", () => this.send(action));
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
