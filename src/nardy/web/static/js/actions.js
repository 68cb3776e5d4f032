// The room's action buttons: one for each action the server lets the viewer send now
// (`state.you.actions`), labelled with what it does (the cube's next value from the board
// view), the resignation levels folded away, and a table's own buttons from its seating.

import { t } from "/js/i18n.js";

/**
 * Fill `box` with the buttons of `kinds`. `send(action)` sends one; `cancel` (or null)
 * withdraws a game nobody has joined yet; `seating` adds a table's buttons.
 */
export function drawActions(box, { state, kinds, seating, send, cancel }) {
  box.replaceChildren();
  const add = (kind, action, label, extra = "") => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `act ${kind} ${extra}`.trim();
    b.dataset.action = kind;
    b.textContent = label;
    // the second click of a double-click is no second decision (detail counts the clicks)
    b.addEventListener("click", (e) => e.detail < 2 && send(action));
    box.appendChild(b);
    return b;
  };
  if (cancel) {
    const withdraw = document.createElement("button");
    withdraw.type = "button";
    withdraw.className = "act cancel quiet";
    withdraw.dataset.action = "cancel";
    withdraw.textContent = t("lobby.cancel");
    withdraw.addEventListener("click", cancel);
    box.appendChild(withdraw);
  }
  const next = 2 * (state.board?.cube?.value ?? 1);
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
  seating.buttons(state, state.you.seat, kinds, add);
}

/** The action Enter takes: confirm the turn, or roll; null when neither is open. */
export function primaryAction(kinds) {
  for (const kind of ["confirm", "roll", "roll-opening"]) if (kinds.includes(kind)) return { type: kind };
  return null;
}
