// The room's refusals in the reader's language, and the one action a player has in flight.
//
// Every `refused` and `error` code the room sends (docs/protocol.md) has its own text in the
// catalogues, each key written out so the catalogue test sees it; the server's English
// (`message`) is shown only for a code this client does not know. A single move refused by a
// rule carries which (`reason`, with the numbers it names in `details`), and is said as that
// rule, whatever the gesture that made it (a click, a drag, a typed play); other refusals are
// told apart by the action refused where that says more (a double the cube does not allow).

import { language, t } from "/js/i18n.js";

const TEXTS = {
  // the core's (nardy.core.errors.ErrorCode)
  "not-your-turn": () => t("refusal.not-your-turn"),
  "wrong-phase": () => t("refusal.wrong-phase"),
  "not-allowed-by-settings": (action) => (action?.type === "double" ? t("refusal.no-double") : t("refusal.not-allowed")),
  "illegal-move": (action, why) => (WHY[why?.reason] ? WHY[why.reason](why.details ?? {}) : t("refusal.illegal-move")),
  "ambiguous-play": () => t("refusal.ambiguous-play"),
  "invalid-input": () => t("refusal.invalid-input"),
  // the room's
  spectator: () => t("refusal.spectator"),
  "not-your-seat": () => t("refusal.not-your-seat"),
  "referee-only": () => t("refusal.referee-only"),
  "game-over": () => t("refusal.game-over"),
  busy: () => t("refusal.busy"),
  stale: () => t("refusal.busy"), // sent for a state the game had left (sent twice)
  "internal-error": () => t("refusal.internal-error"),
  "not-absent": () => t("refusal.not-absent"),
  "grace-period": () => t("refusal.grace-period"),
  "game-unavailable": () => t("refusal.game-unavailable"),
  // the hints' (the practice panel shows them in its answer)
  "not-a-bot-game": () => t("practice.refused-not-bot"),
  "not-practice": () => t("practice.refused-not-practice"),
  "no-hint": () => t("practice.refused-no-hint"),
  "hint-pending": () => t("practice.refused-pending"),
  // the chat's (its panel shows them with the rest)
  "not-signed-in": () => t("chat.not-signed-in"),
  "chat-rate-limited": () => t("chat.rate-limited"),
  // the socket's `error` codes: a message this page should never have sent
  malformed: () => t("refusal.malformed"),
  "unknown-type": () => t("refusal.malformed"),
  "too-large": () => t("refusal.malformed"),
  "rate-limited": () => t("refusal.rate-limited"),
};

// Why a single move is refused, by the core's reason (nardy.core.errors.RefusalReason).
const WHY = {
  "dice-played": () => t("why.dice-played"),
  "larger-die": ({ die }) => t("why.larger-die", { die }),
  "both-dice": () => t("why.both-dice"),
  "most-dice": () => t("why.most-dice"),
  "no-checker": ({ point }) => t("why.no-checker", { point }),
  "no-die": (d) => t("why.no-die", { from: d.from === 25 ? t("notation.bar") : d.from, to: d.to === 0 ? t("notation.off") : d.to }),
  head: ({ limit }) => (limit === 2 ? t("why.head-two") : t("why.head")),
  "no-bar": () => t("why.no-bar"),
  "bar-first": () => t("why.bar"),
  "not-on-bar": () => t("why.not-on-bar"),
  "bear-off-early": () => t("why.bear-off-early"),
  "bear-off-highest": ({ point }) => t("why.bear-off-highest", { point }),
  blocked: ({ point }) => t("why.blocked", { point }),
  taken: ({ point }) => t("why.taken", { point }),
  "six-block": () => t("why.six-block"),
};

/** What a refusal (or error) with this code says to the player; `action` is the action it
 * refused, when known; `why` the refusal's {reason, details}, for a move a rule refused. */
export function refusalText(code, message, action = null, why = null) {
  // Until these refusals carry their reason as fields, the server's English names it (why
  // no double, the seconds to wait): an English reader gets it.
  if (DETAILED.has(code) && language() === "en" && message) return t("refused", { reason: message });
  return TEXTS[code] ? TEXTS[code](action, why) : t("refused", { reason: message });
}

// Codes whose English message says more than their code: why no double, how long.
const DETAILED = new Set(["not-allowed-by-settings", "grace-period"]);

// Codes that say only that the game had moved on when the action reached it: the new state
// already shows what happened instead, so they are not shown.
const MOMENT_PASSED = new Set(["not-your-turn", "wrong-phase", "busy", "stale", "game-over"]);
const ANSWER_MS = 5000; // an action unanswered this long is given up (its socket is gone)
const REF = "act:";

/** The action a player has sent and the game has not answered yet: while there is one, a
 * second is not sent (Enter pressed twice, or a double-click faster than the answer, acts
 * once), since the next choice depends on the state after it (docs/protocol.md, Order). A
 * double-click slower than the answer would act again on the new state: the buttons also
 * drop a click's second half (`event.detail`). */
export class InFlight {
  constructor() {
    this.pending = null; // {ref, seq, action}
    this.sent = new Map(); // ref -> {seq, action}, the last few, to read their refusals
    this.refs = 0;
    this.timer = null;
  }

  /** The ref to send `action` with at state `seq`, or null while another is in flight. */
  begin(action, seq) {
    if (this.pending) return null;
    const ref = `${REF}${++this.refs}`;
    this.pending = { ref, seq, action };
    this.sent.set(ref, this.pending);
    if (this.sent.size > 20) this.sent.delete(this.sent.keys().next().value);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), ANSWER_MS);
    return ref;
  }

  /** A state after `seq` has come: the action in flight (this player's or not) is answered. */
  settle(seq) {
    if (this.pending && seq > this.pending.seq) this.clear();
  }

  clear() {
    this.pending = null;
    clearTimeout(this.timer);
  }

  /** A refusal or error has come: the action it answers ({seq, action}) or null, and the
   * action in flight is answered if it was that one. */
  answer(ref) {
    if (this.pending && this.pending.ref === ref) this.clear();
    return this.sent.get(ref) ?? null;
  }
}

/** Whether a refusal of an action sent at state `sent.seq`, heard at state `seq`, only
 * says the moment had passed (the game moved on in between), which is not worth showing. */
export function momentPassed(code, sent, seq) {
  return sent !== null && seq > sent.seq && MOMENT_PASSED.has(code);
}
