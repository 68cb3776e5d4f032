// Practice against the bot (docs/protocol.md, "Practice and hints"): in a game against the
// computer, the room's panel for its player: the practice mark; the switch that makes the
// game a practice game for good, said before it is done; the Hint button, whose answer is
// the bot's advice as `nardy hint` gives it (the best plays with their equities, the cube
// decision before the roll, take or pass); and the option to hear after each of one's
// plays how the bot would have played it. Spectators see the mark only.

import { decimal, t } from "/js/i18n.js";
import { localPlay } from "/js/names.js";
import { refusalText } from "/js/refusals.js";
import { escapeHtml } from "/js/ui.js";
import { ACTION, GAME_KIND, GAME_STATUS, HINT_KIND } from "/js/vocab.js";

const REF = "hint:";
const REVIEW_KEY = "nardy.practice-review"; // this browser's choice, kept across games

// The engine's cube actions (`action` of a cube hint, nardy.engine.analysis_json) in words.
const ACTIONS = {
  "no-double": () => t("practice.no-double"),
  "double-take": () => t("practice.double-take"),
  "double-pass": () => t("practice.double-pass"),
  "double-beaver": () => t("practice.double-beaver"),
  "too-good": () => t("practice.too-good"),
  "cannot-double": () => t("practice.cannot-double"),
  take: () => t("practice.take"),
  pass: () => t("practice.pass"),
  beaver: () => t("practice.beaver"),
};

/** An equity as the engine's tables show it: signed (+0.000 too), three places. */
const signed = (value) => decimal(value, 3, "always");

/** A play in the reader's words, or that there was none. */
const playText = (play) => (play ? localPlay(play) : t("practice.no-move"));

/** A play as a table cell's markup: a narrow panel may break a long move after a slash
 * ("ბარი/22*" is wider than a phone's column), never inside a point's number. */
const playCell = (play) => escapeHtml(playText(play)).replaceAll("/", "/<wbr>");

/** The decision a state waits for (the game, whose turn, the dice, the phase): advice on
 * the decision now is shown while it is the same one, through the single moves of a turn. */
function decisionOf(state) {
  const board = state?.board;
  return board ? `${board["game-number"]}:${board.turn}:${board.dice}:${board.phase}` : "";
}

/** Whether the state is a game against the bot, and the viewer plays in it. */
function practisable(state) {
  const players = state?.players || [];
  return state?.kind === GAME_KIND.MATCH && players.some((p) => p?.bot) && state.you.seat !== null;
}

export class Practice {
  constructor(panel, send) {
    this.panel = panel;
    this.send = send; // a protocol message to the room, false if it could not go
    this.refs = 0;
    this.asking = null; // the ref of the hint in flight
    this.shown = null; // the last hint heard, {hint, at: the decision it is about}, or a refusal's {text}
    this.confirming = false;
    this.state = null;
    panel.addEventListener("click", (e) => {
      const button = e.target.closest("button[data-practice]");
      if (!button || e.detail > 1) return;
      const what = button.dataset.practice;
      if (what === "hint") this.ask(false);
      else if (what === "switch") this.confirming = true;
      else if (what === "no") this.confirming = false;
      else if (what === "yes") {
        this.confirming = false;
        this.send({ type: "practice", ref: `${REF}on` });
      }
      this.draw(this.state);
    });
    panel.addEventListener("change", (e) => {
      if (e.target.name === "review") localStorage.setItem(REVIEW_KEY, e.target.checked ? "1" : "");
    });
  }

  get review() {
    return !!localStorage.getItem(REVIEW_KEY);
  }

  /** Ask for the bot's advice now (or, with `review`, on the last play). */
  ask(review) {
    if (this.asking) return;
    const ref = `${REF}${++this.refs}`;
    if (!this.send({ type: "hint", ref, ...(review ? { review: true } : {}) })) return;
    this.asking = ref;
    this.draw(this.state);
  }

  /** A server message: true when it was the answer to a hint of this panel's (then the
   * room has nothing to do with it). After the viewer's own play, with the option on, the
   * review is asked for. */
  receive(message) {
    const ref = message.ref;
    if (typeof ref === "string" && ref.startsWith(REF)) {
      if (ref === this.asking) this.asking = null;
      if (message.type === "hint") this.shown = { hint: message.hint, at: decisionOf(this.state) };
      else if (message.type === "refused" || message.type === "error") {
        this.shown = { text: refusalText(message.code, message.message) };
      }
      this.draw(this.state);
      return true;
    }
    if (message.type === "events" && this.review && message.state?.practice) {
      const { action } = message;
      const mine = action.player === message.state.you.seat;
      if (mine && (action.type === ACTION.PLAY || action.type === ACTION.CONFIRM)) this.ask(true);
    }
    return false;
  }

  draw(state) {
    this.state = state;
    const panel = this.panel;
    // advice on a decision that has been taken is of no more use; a review stays
    if (this.shown?.at !== undefined && this.shown.hint.kind !== HINT_KIND.REVIEW && this.shown.at !== decisionOf(state)) this.shown = null;
    if (!state || !practisable(state) && !state.practice) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const player = practisable(state);
    const playing = state.status === GAME_STATUS.PLAYING;
    const parts = [];
    if (state.practice) parts.push(`<p class="practice-mark" id="practice-mark">${escapeHtml(t("practice.mark"))}</p>`);
    if (player && playing && !state.practice) {
      parts.push(this.confirming
        ? `<p>${escapeHtml(t("practice.switch-warning"))}</p>
           <div class="actions"><button type="button" class="primary" data-practice="yes">${escapeHtml(t("practice.switch-yes"))}</button>
           <button type="button" data-practice="no">${escapeHtml(t("practice.switch-no"))}</button></div>`
        : `<button type="button" class="quiet" data-practice="switch">${escapeHtml(t("practice.switch"))}</button>`);
    }
    if (player && playing && state.practice) {
      parts.push(`<div class="actions"><button type="button" id="hint-button" data-practice="hint"${this.asking ? " disabled" : ""}>${escapeHtml(this.asking ? t("practice.thinking") : t("practice.hint"))}</button></div>
        <label><input type="checkbox" name="review"${this.review ? " checked" : ""}> ${escapeHtml(t("practice.review-option"))}</label>`);
    }
    if (player && this.shown) parts.push(`<div class="hint-answer" id="hint-answer">${this.answer(this.shown)}</div>`);
    panel.innerHTML = parts.join("");
  }

  /** The last answer, as markup: a refusal's words, or the hint of its kind. */
  answer(shown) {
    if (shown.text) return `<p>${escapeHtml(shown.text)}</p>`;
    const hint = shown.hint;
    if (hint.kind === HINT_KIND.PLAYS || hint.kind === HINT_KIND.REVIEW) {
      const rows = hint.plays.map((p, i) => `<tr><td>${i + 1}.</td><td>${playCell(p.play)}</td><td>${escapeHtml(signed(p.equity))}</td><td>${i ? escapeHtml(signed(p.difference)) : ""}</td></tr>`).join("");
      // The first plays may have been valued a roll deeper than the rest (the analysis's
      // best few again at 2-ply): say so where the rows shown mix the two.
      const deeper = hint.plays.findIndex((p) => p.ply !== hint.plays[0].ply);
      const depth = deeper > 0 ? `<p class="small hint-depth">${escapeHtml(t("practice.depth", { n: deeper, deep: hint.plays[0].ply, shallow: hint.plays[deeper].ply }))}</p>` : "";
      const table = `<table class="hint-plays"><caption>${escapeHtml(t("practice.plays", { dice: hint.dice.join("-") }))}</caption>
        <thead><tr><th></th><th>${escapeHtml(t("practice.play"))}</th><th>${escapeHtml(t("practice.equity"))}</th><th>${escapeHtml(t("practice.difference"))}</th></tr></thead><tbody>${rows}</tbody></table>${depth}`;
      if (hint.kind === HINT_KIND.PLAYS) return table;
      const played = hint.played;
      const said = played.rank === 1
        ? t("practice.review-best", { play: playText(played.play) })
        : t("practice.review-worse", { play: playText(played.play), best: playText(hint.plays[0].play), difference: signed(played.difference) });
      return `<p class="hint-review">${escapeHtml(said)}</p>${table}`;
    }
    const answering = hint.kind === HINT_KIND.ANSWER;
    const options = answering
      ? Object.entries(hint.answers || {})
      : Object.entries(hint.cubeful);
    const rows = options
      .filter(([, value]) => value !== null)
      .map(([key, value]) => `<tr><td>${escapeHtml(ACTIONS[key]())}</td><td>${escapeHtml(signed(value))}</td></tr>`).join("");
    const proper = ACTIONS[hint.action] ? ACTIONS[hint.action]() : hint.proper;
    return `<p class="hint-cube">${escapeHtml(answering ? t("practice.answer", { action: proper }) : t("practice.cube", { action: proper }))}</p>
      <table class="hint-plays"><thead><tr><th></th><th>${escapeHtml(t("practice.equity"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
}
