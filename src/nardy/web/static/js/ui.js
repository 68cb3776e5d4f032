// What every page shares: the notice line at the top and the screen-reader announcements.

let noticeTimer = null;

/** Show a notice (kind: "ok", "warn"); gone after ms, or until the next one when ms is 0.
 * On a page with a board (an element marked `data-notice-over`) it floats over the board's
 * middle, kept on the screen; elsewhere under the header. */
export function notice(text, kind = "ok", ms = 0) {
  const box = document.getElementById("notice");
  clearTimeout(noticeTimer);
  box.textContent = text;
  const over = document.querySelector("[data-notice-over]");
  box.className = `notice ${kind}${over ? " over-board" : ""}`;
  if (over) {
    const r = over.getBoundingClientRect();
    const header = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
    box.style.left = `${r.left + r.width / 2}px`;
    box.style.top = `${Math.min(Math.max(r.top + r.height / 2, header + 40), innerHeight - 40)}px`;
  } else {
    box.style.left = box.style.top = "";
  }
  box.hidden = false;
  if (ms) noticeTimer = setTimeout(() => (box.hidden = true), ms);
}

/** Whether the player points with a finger (a phone, a tablet): the page says "tap" there. */
export function touching() {
  return window.matchMedia("(pointer: coarse)").matches;
}

export function clearNotice() {
  clearTimeout(noticeTimer);
  document.getElementById("notice").hidden = true;
}

/** Say something to a screen reader (the aria-live region), without moving the focus. */
export function announce(text) {
  const region = document.getElementById("announce");
  const line = document.createElement("p");
  line.textContent = text;
  region.appendChild(line);
  while (region.childElementCount > 6) region.firstElementChild.remove();
}

/** Text made safe to write into markup. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
