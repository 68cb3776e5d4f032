// The room's status line: what the game is waiting for, in the viewer's words — the match
// over or cancelled, a game waiting for players, the viewer's move, roll or answer to a
// double or a resignation, or whom the game waits for.

import { t } from "/js/i18n.js";
import { touching } from "/js/ui.js";
import { GAME_STATUS, PHASE } from "/js/vocab.js";

/** The status line's text; `name(who)` names a side or a person. */
export function statusText(state, { seating, name }) {
  if (state.status === GAME_STATUS.FINISHED) {
    const winner = state.score[0] > state.score[1] ? 0 : 1;
    return t("room.finished", { who: name(winner), score: state.score.join(" : ") });
  }
  if (state.status === GAME_STATUS.CANCELLED) return t("room.cancelled");
  if (state.status === GAME_STATUS.OPEN || state.status === GAME_STATUS.INVITED) return seating.waitingText();
  const you = state.you;
  const board = state.board;
  const phase = board?.awaiting?.phase;
  const decides = you.seat !== null && seating.decides(you.actions);
  // what everyone sees of a cube offered or a 1-2 played, the players and the spectators
  if (!decides && board?.pending?.kind === "double") {
    return offered(state, you, name, (p) => t("room.you-doubled", p), (p) => t("room.doubles", p));
  }
  if (!decides && board?.pending?.kind === "beaver") {
    return offered(state, you, name, (p) => t("room.you-beavered", p), (p) => t("room.beavers", p));
  }
  if (!decides && phase === PHASE.CHOOSE_DOUBLE) return t("room.chooses-double", { who: name(board.turn) });
  if (you.seat === null) return t("room.watching");
  if (!decides) return t("room.their-turn", { who: waitedFor(state, you, name) });
  if (phase === PHASE.MOVING) return touching() ? t("room.your-move-touch") : t("room.your-move");
  if (phase === PHASE.DOUBLED || phase === PHASE.BEAVERED) return t("room.doubled", { value: board.pending?.value ?? 2 * board.cube.value });
  if (phase === PHASE.CHOOSE_DOUBLE) return t("room.choose-double");
  if (phase === PHASE.RESIGNED) return t("room.resign-offered");
  return t("room.your-turn");
}

/** A double or beaver waiting for its answer, said to whoever does not answer it: its
 * offerer (`mine`) or anyone else (`theirs`), with the cube's value and who answers. */
function offered(state, you, name, mine, theirs) {
  const { by, value } = state.board.pending;
  const answers = waitedFor(state, you, name);
  const own = by === you.side || by === you.seat;
  return own ? mine({ value, who: answers }) : theirs({ by: name(by), value, who: answers });
}

/** Whom the game waits for, when it is not the viewer: the sides (or people) it awaits
 * other than the viewer's own. */
function waitedFor(state, you, name) {
  const actors = (state.board?.awaiting?.actors || []).map((a) => a.player);
  const others = actors.filter((who) => who !== you.seat && who !== you.side);
  return (others.length ? others : you.side === null ? actors : [1 - you.side]).map(name).join(", ");
}
