// What every page shares: the notice line at the top and the screen-reader announcements.

let noticeTimer = null;

/** Show a notice (kind: "ok", "warn"); gone after ms, or until the next one when ms is 0. */
export function notice(text, kind = "ok", ms = 0) {
  const box = document.getElementById("notice");
  clearTimeout(noticeTimer);
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  if (ms) noticeTimer = setTimeout(() => (box.hidden = true), ms);
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
