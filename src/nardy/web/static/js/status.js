// The room's status line: what the game is waiting for, in the viewer's words — the match
// over or cancelled, a game waiting for players, the viewer's move, roll or answer to a
// double or a resignation, or whom the game waits for.

import { t } from "/js/i18n.js";
import { touching } from "/js/ui.js";
import { GAME_STATUS, PHASE } from "/js/vocab.js";

/** What the status line says of a match won by a forfeit, by the forfeit's reason. */
const FINISHED = {
  time: (params) => t("room.finished-time", params),
  absent: (params) => t("room.finished-absent", params),
};

/** A cube offered, by the pending offer's kind: what its offerer and everyone else read. */
const OFFERS = {
  double: { mine: (p) => t("room.you-doubled", p), theirs: (p) => t("room.doubles", p) },
  beaver: { mine: (p) => t("room.you-beavered", p), theirs: (p) => t("room.beavers", p) },
};

/** The status line's text; `name(who)` names a side or a person. */
export function statusText(state, { seating, name }) {
  if (state.status === GAME_STATUS.FINISHED) {
    const winner = state.score[0] > state.score[1] ? 0 : 1;
    const said = { who: name(winner), score: state.score.join(" : "), loser: name(1 - winner) };
    // a forfeit says why the loser lost, as long as the room is open (the board's result)
    const reason = state.board?.result?.reason;
    return (FINISHED[reason] ?? ((params) => t("room.finished", params)))(said);
  }
  if (state.status === GAME_STATUS.CANCELLED) return t("room.cancelled");
  if (state.status === GAME_STATUS.OPEN || state.status === GAME_STATUS.INVITED) return seating.waitingText();
  const you = state.you;
  const board = state.board;
  const phase = board?.awaiting?.phase;
  const decides = you.seat !== null && seating.decides(you.actions);
  // what everyone sees of a cube offered or a 1-2 played, the players and the spectators
  const offer = OFFERS[board?.pending?.kind];
  if (!decides && offer) return offered(state, you, seating, name, offer);
  if (!decides && phase === PHASE.CHOOSE_DOUBLE) return t("room.chooses-double", { who: name(board.turn) });
  if (you.seat === null) {
    // a spectator is told whose turn it is, as the players are (the panel says what they may do)
    const who = waitedFor(state, you, seating, name);
    return who ? t("room.their-turn", { who }) : t("room.watching");
  }
  if (!decides) return seating.aside(state, name) ?? t("room.their-turn", { who: waitedFor(state, you, seating, name) });
  if (phase === PHASE.MOVING) return touching() ? t("room.your-move-touch") : t("room.your-move");
  if (phase === PHASE.DOUBLED || phase === PHASE.BEAVERED) return t("room.doubled", { value: board.pending.value });
  if (phase === PHASE.CHOOSE_DOUBLE) return t("room.choose-double");
  if (phase === PHASE.RESIGNED) return t("room.resign-offered");
  return t("room.your-turn");
}

/** A double or beaver waiting for its answer, said to whoever does not answer it: its
 * offerer (`mine`) or anyone else (`theirs`), with the cube's value and who answers. */
function offered(state, you, seating, name, { mine, theirs }) {
  const { by, value } = state.board.pending;
  const answers = waitedFor(state, you, seating, name);
  const own = by === you.side || by === you.seat;
  return own ? mine({ value, who: answers }) : theirs({ by: name(by), value, who: answers });
}

/** Whom the game waits for, when it is not the viewer: the sides (or people) it awaits
 * for a decision of the game (at a table not a proposal or a vote) other than the viewer's
 * own. */
function waitedFor(state, you, seating, name) {
  const actors = (state.board?.awaiting?.actors || []).filter((a) => seating.decides(a.actions)).map((a) => a.player);
  const others = actors.filter((who) => who !== you.seat && who !== you.side);
  return (others.length ? others : you.side === null ? actors : [1 - you.side]).map(name).join(", ");
}
