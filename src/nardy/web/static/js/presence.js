// The room's lines about the people rather than the board: an absent opponent's grace
// period (its countdown, then Claim or Wait; a spectator is told only that they are away),
// and after the match the Rematch button with who has offered one.

import { t } from "/js/i18n.js";
import { GAME_STATUS } from "/js/vocab.js";

/**
 * The grace period of an absent opponent. `absence`: absent seat -> performance.now() when
 * it may be claimed; `waiting`: the player chose to wait; `name(seat)` names a seat.
 */
export function drawPresence(state, { absence, waiting, name }) {
  const box = document.getElementById("presence");
  if (!box) return;
  const seat = state?.you.seat ?? null;
  const playing = state?.status === GAME_STATUS.PLAYING;
  const other = seat === null ? [...absence.keys()][0] : 1 - seat;
  const until = other === undefined ? undefined : absence.get(other);
  box.hidden = !playing || until === undefined || (waiting && seat !== null);
  if (box.hidden) return;
  const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
  const who = name(other);
  const text = document.getElementById("presence-text");
  const claim = document.getElementById("claim");
  const wait = document.getElementById("wait");
  claim.hidden = wait.hidden = seat === null;
  claim.disabled = left > 0;
  if (seat === null) text.textContent = t("absent.watch", { who });
  else if (left > 0) text.textContent = t("absent.wait", { who, s: left });
  else text.textContent = t("absent.claimable", { who });
}

/** After the match: the Rematch button and who has offered one. */
export function drawRematch(state, name) {
  const box = document.getElementById("rematch");
  if (!box || !state) return;
  const seat = state.you.seat;
  box.hidden = state.status !== GAME_STATUS.FINISHED || seat === null;
  if (box.hidden) return;
  const offers = state.rematch?.offers || [];
  const text = document.getElementById("rematch-text");
  const mine = offers.includes(seat);
  const theirs = offers.includes(1 - seat);
  document.getElementById("rematch-button").disabled = mine;
  if (mine) text.textContent = t("rematch.offered", { who: name(1 - seat) });
  else if (theirs) text.textContent = t("rematch.asked", { who: name(1 - seat) });
  else text.textContent = "";
}
