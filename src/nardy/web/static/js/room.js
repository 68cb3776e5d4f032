// The game room: one WebSocket to /ws/games/{id} (docs/protocol.md, version 2), the board,
// the players' strips, the status line, the buttons of the actions the server lets the
// viewer send, the chat and a table's panel. The client computes no rules: every state the
// server sends is drawn as it is — the board view (`state.board`: the sides after the moves
// made, pips, off, race, the dice shown and used, the cube, the last play) and what the
// viewer may do (`state.you`) — and the opponent's dice and moves are announced in an
// aria-live region.
//
// Three parts: the table of message handlers (HANDLERS: what each server message does), the
// controller (Room: the socket, sending, the player's options, typed plays, the keyboard,
// the last play shown again) and the views it draws with (strips.js, actions.js, status.js,
// presence.js, say.js). What differs between a match and a table (a chouette, a
// consultation) is asked of seats.js alone.
//
// The player's options (options.js) act here: an option's action is taken once per state,
// a moment after it is drawn, so it is seen.

import { cancelGame } from "/js/api.js";
import { drawActions, primaryAction } from "/js/actions.js";
import { Board } from "/js/board.js";
import { Chat } from "/js/chat.js";
import { diceShown, eventGlides, lastPlayFrames } from "/js/glides.js";
import { onLanguage, t, tn, translate } from "/js/i18n.js";
import { errorText } from "/js/names.js";
import { readPlay } from "/js/notation.js";
import { optionAction } from "/js/options.js";
import { Practice } from "/js/practice.js";
import { drawPresence, drawRematch } from "/js/presence.js";
import { InFlight, momentPassed, refusalText } from "/js/refusals.js";
import { rulesPath } from "/js/rules.js";
import { say } from "/js/say.js";
import { seatingOf } from "/js/seats.js";
import { sound } from "/js/sound.js";
import { statusText } from "/js/status.js";
import { drawClocks, drawStrips } from "/js/strips.js";
import { announce, escapeHtml, notice, touching } from "/js/ui.js";
import { ACTION, GAME_STATUS, PHASE } from "/js/vocab.js";

export { escapeHtml };

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const AUTO_MS = 450; // how long an option's automatic action waits, to be seen
const REPLAY_MS = 650; // between the single moves of a replayed play
const VOTE_WAIT_MS = 3000; // a chouette captain's wait for the members' votes (a bot's too)

/** The home corner a game is drawn with: the player's, left and right swapped on every
 * second game of a match when they switch sides after each game (RULES.md 4). */
export function homeFor(home, switchSides, gameIndex) {
  if (!switchSides || gameIndex % 2 === 0) return home;
  return home.endsWith("right") ? home.replace("right", "left") : home.replace("left", "right");
}

/** The board between the two players' strips, as the room and the replay lay it out. */
export const BOARD_TABLE = `<div class="table">
          <div class="side top" id="side-top"></div>
          <div class="boardbox" id="boardbox" data-notice-over></div>
          <div class="side bottom" id="side-bottom"></div>
        </div>`;

/** Each side's counts in the variant's starting position (its rule facts' `start`), the
 * checkers that start outside the board drawn at 25 as the board view draws them: a board
 * to show before a game has one. */
export function startSides(rules) {
  const counts = [...rules.start];
  counts[25] += rules.checkers - counts.reduce((a, b) => a + b, 0);
  return [counts, [...counts]];
}

/**
 * What the board draws of a state, besides who sees it and what they may move: the
 * server's board view as it is; before the first game (no board view yet), the variant's
 * starting position from its rule facts, checkers still to enter drawn at 25.
 */
export function drawingOf(state) {
  const { board, rules } = state;
  if (!board) {
    const cube = state.settings.cube === false ? null : { value: 1, owner: null };
    return { roll: null, sides: startSides(rules), dice: null, used: null, diceSeat: 0, cube, last: null };
  }
  const last = board["last-play"];
  // acey-deucey's 1-2 played, its double not yet chosen: the 1-2 stays on the table, used
  const played = board.phase === PHASE.CHOOSE_DOUBLE && !board["dice-shown"] && last ? diceShown(last.dice) : null;
  return {
    // what names this roll: a new one shows the larger die first again
    roll: board.dice ? `${board["game-number"]}:${board.turn}:${board.dice}` : null,
    sides: board.sides,
    dice: played ?? board["dice-shown"],
    used: played ? played.map(() => true) : board.used,
    diceSeat: board.turn ?? 0,
    cube: board.cube,
    pending: board.pending,
    last: last ? { seat: last.player, moves: last.moves } : null,
  };
}

/** A refusal or an error: said in the player's words, unless it only says the game had
 * moved on; the game set aside ends the room. */
function refusal(room, message) {
  const sent = room.inFlight.answer(message.ref);
  if (message.code === "game-unavailable") {
    room.closed = true; // set aside by the server: no reconnecting to it
    notice(refusalText(message.code, message.message), "warn");
    return;
  }
  room.legs = null;
  room.board.stop();
  if (!momentPassed(message.code, sent, room.state?.seq ?? 0)) {
    const text = refusalText(message.code, message.message, sent?.action, message);
    notice(text, "warn", 5000);
    announce(text);
  }
}

/** What each server message does in the room (the chat's own are the chat's). */
const HANDLERS = {
  welcome(room, message) {
    if (room.retries > 0) notice(t("connection.back"), "ok", 2500);
    room.retries = 0;
    room.show(message.state);
  },
  events(room, message) {
    // an action missed (a message lost on the way): the whole state again
    if (room.state && message.seq !== room.state.seq + 1) room.message({ type: "sync" });
    const state = message.state;
    say(message.events, {
      you: state.you, name: (who) => seatingOf(state).name(state, who), loud: room.prefs.sound, before: room.state,
    });
    room.show(state, eventGlides(message.events, state.rules));
  },
  state(room, message) {
    room.show(message.state);
  },
  refused: refusal,
  error: refusal,
  absent(room, message) {
    room.absence.set(message.seat, performance.now() + 1000 * message["claim-in"]);
    room.drawPresence();
  },
  present(room, message) {
    room.absence.delete(message.seat);
    room.waiting = false;
    room.drawPresence();
  },
  watching(room, message) {
    if (!room.state) return;
    room.state.spectators = message.spectators;
    room.drawWatching();
  },
  "rematch-offered"(room, message) {
    if (!room.state) return;
    const offers = new Set(room.state.rematch?.offers || []);
    offers.add(message.seat);
    room.state.rematch = { offers: [...offers], game: null };
    drawRematch(room.state, (who) => room.name(who));
  },
  rematch(room, message) {
    if (room.navigate) room.navigate(`/game/${encodeURIComponent(message.game)}`);
  },
};

export class Room {
  /** `anonymous`: the viewer is signed in as nobody (a visitor watching). */
  constructor(main, gameId, prefs, navigate = null, { anonymous = false } = {}) {
    this.id = gameId;
    this.prefs = prefs;
    this.navigate = navigate;
    this.anonymous = anonymous;
    this.stateAt = 0; // performance.now() when the last state arrived: the clocks count on
    this.absence = new Map(); // absent seat -> performance.now() when it may be claimed
    this.waiting = false; // the player chose to wait for the absent opponent
    this.state = null;
    this.closed = false;
    this.retries = 0;
    this.inFlight = new InFlight();
    this.glide = []; // the checkers the last events moved, to slide as they are drawn
    this.autoSeq = null; // the state an option's action was planned for
    this.replaying = false; // the last play is being shown again
    this.legs = null; // what is left of a typed play
    this.hold = null; // a chouette captain's roll waiting for votes: {key, until}
    main.innerHTML = `
      <section class="room">
        ${BOARD_TABLE}
        <aside class="panel">
          <p class="status" id="status" aria-live="polite"></p>
          <p class="spectators small" id="spectators" hidden></p>
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
          <section class="practice" id="practice" aria-live="polite" hidden></section>
          <p class="match" id="match"></p>
          <div class="tools">
            <button type="button" id="replay" class="quiet" data-i18n="room.replay-last" disabled></button>
            <button type="button" id="mute" class="quiet" aria-pressed="false"></button>
          </div>
          <section class="chat" id="chat" aria-labelledby="chat-title"></section>
          <p class="hint" id="keys" data-i18n="room.keys"></p>
          <p class="hint" id="spectator-help" hidden></p>
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
    this.board = new Board(main.querySelector("#boardbox"), (from, to) => this.send({ type: ACTION.MOVE, from, to }), {
      onRefuse: (point, to) => this.refuse(point, to),
      onNote: (key, params) => {
        // the dice drawn in their new order say it; a screen reader is told
        if (key === "board.dice-swapped") return announce(t("board.dice-swapped", params));
        const text = touching() ? t("board.ambiguous-touch") : t("board.ambiguous");
        notice(text, "ok", 4000);
        announce(text);
      },
    });
    this.chat = new Chat(main.querySelector("#chat"), (body) => this.message(body), { speaks: !anonymous });
    this.practice = new Practice(main.querySelector("#practice"), (body) => this.message(body));
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
      // the corner chosen is the one drawn now; in a game of switched sides the saved
      // corner is its mirror (homeFor undoes itself)
      prefs.home = homeFor(home.value, prefs["auto-switch-side"], this.gameIndex());
      prefs.save({ home: prefs.home });
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

  // -- the socket ---------------------------------------------------------------------

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

  receive(message) {
    if (this.chat.receive(message) || this.practice.receive(message)) return;
    if (message.state) this.inFlight.settle(message.state.seq);
    // the answer to this socket's own message (v2 `ref`), even one that changed no seq
    if (message.ref && message.type !== "refused" && message.type !== "error") this.inFlight.answer(message.ref);
    HANDLERS[message.type]?.(this, message);
  }

  /** Send an action, unless one is still awaiting the game's answer (then it is dropped:
   * it was chosen on the state before that one). */
  send(action) {
    const ref = this.inFlight.begin(action, this.state?.seq ?? 0);
    if (ref === null) return;
    // with the state it was meant for: the server applies it there only, never twice
    const seq = this.state?.seq;
    if (!this.message({ type: "action", action, ref, ...(seq === undefined ? {} : { seq }) })) this.inFlight.clear();
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

  // -- what the state says --------------------------------------------------------------

  /** The side of the board the viewer sees it from: their own, or side 0 for a spectator. */
  get viewer() {
    return this.state?.you.side ?? 0;
  }

  /** The 0-based number of the game drawn in its match (sides switch on every second). */
  gameIndex() {
    return (this.state?.board?.["game-number"] ?? 1) - 1;
  }

  /** The actions the viewer may send now. */
  mine() {
    return this.state?.you.actions || [];
  }

  /** A side (0 or 1) or a person by name, as people read it. */
  name(who) {
    return seatingOf(this.state).name(this.state, who);
  }

  show(state, glide = []) {
    this.state = state;
    this.stateAt = performance.now();
    this.absence = new Map((state.absent || []).map((a) => [a.seat, this.stateAt + 1000 * a["claim-in"]]));
    if (!this.absence.size) this.waiting = false;
    this.glide = glide;
    this.draw();
    this.glide = [];
    // what was drawn last, for tools that follow the page (and the browser tests)
    document.body.dataset.seq = state.seq;
    document.body.dataset.status = state.status;
  }

  // -- drawing --------------------------------------------------------------------------

  draw() {
    const state = this.state;
    if (!state) return;
    const seating = seatingOf(state);
    const { board, rules, you } = state;
    const kinds = you.actions;
    const home = homeFor(this.prefs.home, this.prefs["auto-switch-side"], this.gameIndex());
    this.home = home;
    document.getElementById("home").value = home; // the menu says the corner drawn
    const planned = this.plan(kinds, board);
    const legal = kinds.includes(ACTION.MOVE) && !planned && !this.replaying ? board.awaiting.moves : [];
    // opens beside the game; a table still filling has no rules yet, only its variant's name
    document.getElementById("rules-link").href = rulesPath(rules ? rules.key : state.settings.variant);
    if (rules && !this.replaying) {
      this.board.draw({
        ...drawingOf(state), rules, seq: state.seq, viewer: this.viewer, home, legal,
        glide: this.glide, animation: this.prefs.animation,
      });
    }
    translate(this.board.svg.parentNode);
    document.getElementById("replay").disabled = !board?.["last-play"] || this.replaying;
    if (!kinds.includes(ACTION.MOVE)) this.board.stop();
    if (planned) this.schedule(planned, state.seq);
    if (!this.replaying) this.playLegs();

    const name = (who) => seating.name(state, who);
    drawStrips(document.getElementById("side-top"), document.getElementById("side-bottom"), {
      board, viewer: this.viewer, home, name, acting: board ? seating.acting(state) : [],
    });
    const line = document.getElementById("match");
    const score = state.score || [0, 0];
    const length = state.length ?? state.settings["match-length"];
    line.textContent = length ? tn("room.match-to", length, { a: score[0], b: score[1] }) : t("room.money", { a: score[0], b: score[1] });
    line.hidden = !seating.scoreLine(state);
    if (!this.replaying) document.getElementById("status").textContent = statusText(state, { seating, name });
    const waiting = state.status === GAME_STATUS.OPEN || state.status === GAME_STATUS.INVITED;
    this.holdRoll(seating.votesAwaited(state));
    this.heldShown = this.rollHeld();
    drawActions(document.getElementById("actions"), {
      state, seating, kinds: planned ? [] : kinds, send: (action) => this.send(action),
      cancel: waiting && seating.creator(state, you) ? () => this.cancel() : null, held: this.heldShown,
    });
    const panel = document.getElementById("table-panel");
    panel.hidden = !seating.panel;
    if (seating.panel) seating.panel(panel, state, (action) => this.send(action));
    this.practice.draw(state);
    const replay = document.getElementById("to-replay");
    replay.hidden = state.status !== GAME_STATUS.FINISHED || !seating.replayable;
    replay.href = `/replay/${encodeURIComponent(this.id)}`;
    // the typed-move box only while there is a game to play in and someone to play it
    document.getElementById("typed").hidden = state.status !== GAME_STATUS.PLAYING || !seating.types(you);
    // a spectator is told what a spectator can do, not a player's keys and options
    const spectator = you.seat === null;
    document.getElementById("keys").hidden = spectator;
    document.getElementById("options").hidden = spectator;
    const help = document.getElementById("spectator-help");
    help.hidden = !spectator;
    help.textContent = this.anonymous ? t("room.spectator-help-anonymous") : t("room.spectator-help");
    this.drawWatching();
    const invite = document.getElementById("invite");
    invite.hidden = state.status !== GAME_STATUS.OPEN || !seating.invites;
    if (!invite.hidden) invite.textContent = t("room.waiting-opponent");
    this.tick();
    drawRematch(state, name);
  }

  /** How many watch (spectators, signed in or not), for everybody in the room. */
  drawWatching() {
    const line = document.getElementById("spectators");
    const count = this.state?.spectators ?? 0;
    line.hidden = count === 0;
    line.textContent = tn("room.spectators", count);
  }

  /** Count the clocks and the grace period on (five times a second). */
  tick() {
    if (this.hold && this.rollHeld() !== this.heldShown) this.draw(); // the roll's countdown
    const clock = this.state?.clock;
    drawClocks(clock, this.state?.status === GAME_STATUS.PLAYING, (performance.now() - this.stateAt) / 1000);
    this.drawPresence();
  }

  drawPresence() {
    drawPresence(this.state, { absence: this.absence, waiting: this.waiting, name: (who) => this.name(who) });
  }

  muteButton() {
    const button = document.getElementById("mute");
    if (!button) return;
    button.textContent = this.prefs.sound ? t("room.sound-on") : t("room.sound-off");
    button.setAttribute("aria-pressed", String(!this.prefs.sound));
  }

  // -- acting ---------------------------------------------------------------------------

  /** Withdraw the game nobody has joined yet. */
  cancel() {
    cancelGame(this.id).catch((err) => notice(errorText(err), "warn", 5000));
  }

  /** The action one of the player's options takes in this state, once, or null. */
  plan(kinds, board) {
    if (this.replaying || this.legs?.length || this.autoSeq === this.state.seq) return null;
    return optionAction(this.prefs, kinds, board);
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
      if (action.type === ACTION.PLAY && action.moves === "") announce(t("say.you-pass"));
      this.send(action);
    }, AUTO_MS);
  }

  /** A move the board does not offer (a click on a checker that cannot move, a drag or a
   * click to where it cannot go): sent all the same, for the game to say which rule
   * refuses it, the same words whatever the gesture (refusals.js). A checker clicked with no
   * destination is tried with the die used first (from the bar or a point alike). */
  refuse(point, to = null) {
    if (!this.mine().includes(ACTION.MOVE) || this.state.status !== GAME_STATUS.PLAYING) return;
    const die = this.board.order()[0] ?? 1; // with every die played the game says so
    this.send({ type: ACTION.MOVE, from: point, to: to ?? Math.max(point - die, 0) });
  }

  /** A play typed in notation ("13/7 8/7", "bar/22", "6/off", "24/18(2)"): played as
   * single moves, each leg of it as the server's legal moves allow, to be confirmed (Enter)
   * or taken back (Backspace) like moves made on the board. An empty line does what Enter
   * does elsewhere. */
  typed(input) {
    const text = input.value.trim();
    if (!text) return this.primary();
    if (!this.mine().includes(ACTION.MOVE)) {
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
   * used first first). A leg the position does not allow ends the typed play, the game
   * saying why. */
  playLegs() {
    if (!this.legs?.length || this.legSent === this.state.seq) return;
    if (!this.mine().includes(ACTION.MOVE)) {
      this.legs = null;
      return;
    }
    const legal = this.state.board.awaiting.moves;
    const leg = this.legs[0];
    let move = legal.find((m) => m.from === leg.from && m.to === leg.to);
    // part of the way: never past the leg's end (bearing off only where the leg does)
    if (!move) move = this.board.preferredOf(legal.filter((m) => m.from === leg.from && m.to !== 0 && m.to > leg.to));
    if (!move) {
      // as the board does with a move it does not offer: the game says which rule refuses it
      this.legs = null;
      return this.refuse(leg.from, leg.to);
    }
    if (move.to === leg.to) this.legs.shift();
    else leg.from = move.to;
    this.legSent = this.state.seq;
    this.send({ type: ACTION.MOVE, from: move.from, to: move.to });
  }

  /** A chouette captain's roll waits VOTE_WAIT_MS for the team's votes from the first
   * state of the turn (`key` names it; null: no person may still vote). */
  holdRoll(key) {
    if (key === null) this.hold = null;
    else if (this.hold?.key !== key) this.hold = { key, until: performance.now() + VOTE_WAIT_MS };
  }

  /** Whole seconds the captain's roll still waits for votes; 0 when it may roll. */
  rollHeld() {
    return this.hold ? Math.max(0, Math.ceil((this.hold.until - performance.now()) / 1000)) : 0;
  }

  /** Enter: confirm the turn, or roll. */
  primary() {
    const action = primaryAction(this.mine());
    if (action?.type === ACTION.ROLL && this.rollHeld()) return false; // the team may vote
    if (action) this.send(action);
    return action !== null;
  }

  key(e) {
    // typing a move: its keys are the input's, except Backspace in an empty line (undo)
    const typing = e.target.closest?.("input, select, textarea");
    if (typing && !(e.target.id === "notation" && e.key === "Backspace" && !e.target.value)) return;
    if (e.target.closest?.("button, summary, a")) return; // Enter there is that control's
    if (e.key === "Enter") {
      if (this.primary()) e.preventDefault();
    } else if (e.key === "Backspace" && this.mine().includes(ACTION.UNDO)) {
      e.preventDefault();
      this.board.stop();
      this.legs = null;
      this.send({ type: ACTION.UNDO });
    } else if (e.key === "Escape") {
      this.board.selected = null;
      this.board.render();
    }
  }

  /** Show the last play again (`board.last-play`): the position before it, then each of
   * its single moves in turn; then the game as it stands. */
  replay() {
    const play = this.state?.board?.["last-play"];
    if (!play || this.replaying) return;
    const { rules, board } = this.state;
    const frames = lastPlayFrames(play, rules);
    const dice = diceShown(play.dice);
    this.replaying = true;
    document.getElementById("replay").disabled = true;
    document.getElementById("status").textContent = t("room.replaying", { who: this.name(play.player) });
    const frame = ({ sides, glide, step }) => this.board.draw({
      rules, seq: this.state.seq, roll: null, sides, viewer: this.viewer, home: this.home,
      dice, used: dice.map((_, i) => i < step), diceSeat: play.player, cube: board.cube, legal: [],
      last: null, glide, animation: true,
    });
    frame(frames[0]);
    let next = 1;
    const advance = () => {
      if (next >= frames.length) {
        this.replaying = false;
        this.draw();
        return;
      }
      sound("checker", this.prefs.sound);
      frame(frames[next++]);
      this.replayTimer = setTimeout(advance, REPLAY_MS);
    };
    this.replayTimer = setTimeout(advance, REPLAY_MS);
  }
}
