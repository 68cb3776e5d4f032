// The players' strips above and below the board: each side's colour, name, pip count and
// checkers borne off as the server's board view counts them, its clock, and a mark on the
// side the game waits for. The clocks count on between states, five times a second.

import { t, tn } from "/js/i18n.js";
import { escapeHtml } from "/js/ui.js";

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

/** One side's strip: `board` is the server's board view (null while a game waits for its
 * players, when there are no counts to show yet); `onTurn` whether the game waits for this
 * side (its mark). */
export function stripHtml(side, name, board, onTurn = false) {
  const counts = board
    ? `<span class="pips" data-seat="${side}">${escapeHtml(tn("room.pips", board.pips[side]))}</span>
        <span class="off" data-seat="${side}">${escapeHtml(tn("room.off", board.off[side]))}</span>`
    : "";
  return `<span class="swatch c${side}" aria-hidden="true"></span>
        <strong class="who-name">${escapeHtml(name)}</strong>
        ${counts}
        <span class="clock" data-seat="${side}" role="timer" hidden><span class="sr">${escapeHtml(t("clock.reserve"))}</span><span class="reserve"></span><span class="delay"></span></span>
        ${onTurn ? `<span class="turnmark">${escapeHtml(board.pending ? t("room.to-answer") : t("room.to-act"))}</span>` : ""}`;
}

/** Both strips: the viewer's own side below when the home board is at the bottom;
 * `acting` the sides the game waits for (seats.js: at a table, the side of whoever decides). */
export function drawStrips(top, bottom, { board, viewer, home, name, acting = [] }) {
  const topIsOpponent = home.startsWith("bottom");
  const topSide = topIsOpponent ? 1 - viewer : viewer;
  top.innerHTML = stripHtml(topSide, name(topSide), board, acting.includes(topSide));
  bottom.innerHTML = stripHtml(1 - topSide, name(1 - topSide), board, acting.includes(1 - topSide));
}

/** The clocks in the strips, `since` seconds after the state with `clock` came. */
export function drawClocks(clock, running, since) {
  const now = clock ? clockNow(running ? clock : { ...clock, running: null }, since) : null;
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
