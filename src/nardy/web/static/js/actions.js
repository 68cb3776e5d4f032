// The room's action buttons: one for each action the server lets the viewer send now
// (`state.you.actions`), labelled with what it does (the cube's next value from the board
// view), the resignation levels folded away, and a table's own buttons from its seating.

import { t } from "/js/i18n.js";
import { ACTION } from "/js/vocab.js";

/**
 * Fill `box` with the buttons of `kinds`. `send(action)` sends one; `cancel` (or null)
 * withdraws a game nobody has joined yet; `seating` adds a table's buttons; `held` the
 * seconds a chouette captain's roll still waits for the team's votes (0: none).
 */
export function drawActions(box, { state, kinds, seating, send, cancel, held = 0 }) {
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
  if (kinds.includes(ACTION.ROLL_OPENING)) add(ACTION.ROLL_OPENING, { type: ACTION.ROLL_OPENING }, t("act.roll"), "primary");
  if (kinds.includes(ACTION.ROLL)) {
    const roll = add(ACTION.ROLL, { type: ACTION.ROLL }, held ? t("act.roll-wait", { s: held }) : t("act.roll"), "primary");
    roll.disabled = held > 0;
  }
  if (kinds.includes(ACTION.DOUBLE)) add(ACTION.DOUBLE, { type: ACTION.DOUBLE }, t("act.double", { value: next }));
  if (kinds.includes(ACTION.TAKE)) add(ACTION.TAKE, { type: ACTION.TAKE }, t("act.take"), "primary");
  if (kinds.includes(ACTION.BEAVER)) add(ACTION.BEAVER, { type: ACTION.BEAVER }, t("act.beaver"));
  if (kinds.includes(ACTION.PASS)) add(ACTION.PASS, { type: ACTION.PASS }, t("act.pass"));
  if (kinds.includes(ACTION.CHOOSE_DOUBLE)) {
    for (let d = 1; d <= 6; d++) add(ACTION.CHOOSE_DOUBLE, { type: ACTION.CHOOSE_DOUBLE, die: d }, t("act.choose-double", { die: d }));
  }
  if (kinds.includes(ACTION.UNDO)) add(ACTION.UNDO, { type: ACTION.UNDO }, t("act.undo"));
  if (kinds.includes(ACTION.CONFIRM)) add(ACTION.CONFIRM, { type: ACTION.CONFIRM }, t("act.confirm"), "primary");
  if (kinds.includes(ACTION.PLAY) && !kinds.includes(ACTION.MOVE) && !kinds.includes(ACTION.CONFIRM)) {
    add(ACTION.PLAY, { type: ACTION.PLAY, moves: "" }, t("act.no-move"), "primary");
  }
  if (kinds.includes(ACTION.ACCEPT)) add(ACTION.ACCEPT, { type: ACTION.ACCEPT }, t("act.accept"), "primary");
  if (kinds.includes(ACTION.DECLINE)) add(ACTION.DECLINE, { type: ACTION.DECLINE }, t("act.decline"));
  if (kinds.includes(ACTION.SURRENDER)) add(ACTION.SURRENDER, { type: ACTION.SURRENDER }, t("act.surrender"), "quiet");
  if (kinds.includes(ACTION.RESIGN)) {
    // out of the way of the moving buttons: resigning takes two deliberate clicks
    const more = document.createElement("details");
    more.className = "resign";
    const summary = document.createElement("summary");
    summary.textContent = t("act.resign");
    more.appendChild(summary);
    box.appendChild(more);
    const levels = [t("act.resign-single"), t("act.resign-gammon"), t("act.resign-backgammon")];
    levels.forEach((label, i) => more.appendChild(add(ACTION.RESIGN, { type: ACTION.RESIGN, level: i + 1 }, label, "quiet")));
  }
  seating.buttons(state, state.you.seat, kinds, add);
}

/** The action Enter takes: confirm the turn, or roll; null when neither is open. */
export function primaryAction(kinds) {
  for (const kind of [ACTION.CONFIRM, ACTION.ROLL, ACTION.ROLL_OPENING]) if (kinds.includes(kind)) return { type: kind };
  return null;
}
