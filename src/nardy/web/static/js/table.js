// A chouette table or a consultation game in the room (docs/protocol.md, "Chouette tables
// and consultation games"): who is the box, the captain and the team line, who is still in
// the game and who passed, the team's votes and each member's own answer to the box's
// double, the running scores; a consultation's two sides and the proposals of one's own.
// The board itself is the room's: the box (or side 0) is side 0, the team side 1.
//
// `TABLE_SEATING` is what the room asks of a table where a two-player match has its own
// answers (seats.js): the room reaches a table's specifics through it alone.

import { t, tn } from "/js/i18n.js";
import { botName } from "/js/names.js";
import { escapeHtml } from "/js/ui.js";
import { ACTION, GAME_KIND } from "/js/vocab.js";

/** Whether a room's state is a table's (its people are names, not two seats). */
export function isTable(state) {
  return Boolean(state && state.people);
}

/** A participant's name as people read it: the username, or the computer and its level. */
export function personName(state, name) {
  const who = state.people?.[name];
  if (!who) return name;
  if (who.bot) return t("room.bot", { level: botName(who.bot) });
  return who.username;
}

/** The side of the board (0 or 1) a participant plays on now; null for anybody else. */
export function tableSide(state, name) {
  const side = state?.table?.side?.[name];
  return side === undefined ? null : side;
}

/** Who plays a side of the board: the box, the team by its captain, a consultation side. */
export function sideName(state, side) {
  const table = state.table;
  if (!table) return t("room.waiting-player");
  if (state.kind === GAME_KIND.CHOUETTE) {
    if (side === 0) return personName(state, table.box);
    const team = table["in-game"] || table.line;
    return tn("table.team-of", team.length, { captain: personName(state, table.captain) });
  }
  return table.sides[side].map((n) => personName(state, n)).join(" & ");
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Whether these open actions are a decision of the game's: a consultation member's
 * proposal is advice and a chouette member's vote on doubling is not the team's turn. */
function decides(kinds) {
  return kinds.some((kind) => kind !== ACTION.PROPOSE && kind !== ACTION.VOTE);
}

/** Who the game waits for a decision from now, by name (the box, a captain, the members
 * answering the box's double; between games those who may start the next). */
function deciders(state) {
  return (state.board?.awaiting?.actors || []).filter((a) => decides(a.actions)).map((a) => a.player);
}

/** What a person at the table who has no decision to make now is told, or null for the
 * room's "… to play": a member who may vote, that the captain rolls unless they vote first;
 * a partner who may propose, that their captain plays; between games, who starts the next. */
function aside(state, name) {
  const who = deciders(state).map(name).join(", ");
  if (!who) return null;
  const kinds = state.you.actions;
  if (state.table?.["in-game"] === null) return t("table.next-by", { who });
  if (kinds.includes(ACTION.VOTE)) return t("table.may-vote", { who });
  const mine = deciders(state).some((d) => tableSide(state, d) === state.you.side);
  if (kinds.includes(ACTION.PROPOSE) && mine) return t("table.may-propose", { who });
  return null;
}

/** What names the team's turn on roll when the viewer is its captain and a person on the
 * team may still vote to double (the captain's roll waits a moment for them), else null. */
function votesAwaited(state) {
  const { board, you } = state;
  if (!you.actions.includes(ACTION.ROLL) || !you.actions.includes(ACTION.VOTE)) return null;
  const voters = (board?.awaiting?.actors || []).filter(
    (a) => a.player !== you.seat && a.actions.includes(ACTION.VOTE) && !state.people[a.player]?.bot,
  );
  if (!voters.length) return null;
  return `${board["game-number"]}:${board.pips}:${JSON.stringify(board["last-play"])}`;
}

/** How the team's last vote on doubling ended (`table["last-vote"]`), said in the panel:
 * who had voted for it and why it ended. */
function lastVote(state, vote) {
  if (!vote) return "";
  const by = personName(state, vote.by);
  const why = {
    against: () => t("table.vote-against", { who: by }),
    rolled: () => t("table.vote-rolled", { who: by }),
    doubled: () => t("table.vote-doubled"),
  }[vote.ended]?.() ?? "";
  const agreed = vote.agreed.length && vote.ended !== "doubled"
    ? ` ${t("table.vote-agreed", { who: vote.agreed.map((n) => personName(state, n)).join(", ") })}`
    : "";
  return `<p class="small last-vote" data-ended="${escapeHtml(vote.ended)}">${escapeHtml(why + agreed)}</p>`;
}

/** The table's panel: the line of players with their roles, answers and scores; in a
 * consultation, the recent proposals of the viewer's own side (the server sends only those). */
export function tablePanel(state, me) {
  const proposals = state.proposals || [];
  const table = state.table;
  if (!table) {
    const names = Object.keys(state.people);
    const rows = names.map((n) => `<li>${escapeHtml(personName(state, n))}</li>`).join("");
    return `<h3>${escapeHtml(state.kind === GAME_KIND.CHOUETTE ? t("table.chouette") : t("table.consultation"))}</h3>
      <ul class="line">${rows}</ul>
      <p class="small">${escapeHtml(tn("table.free", state.free))}</p>`;
  }
  if (state.kind === GAME_KIND.CONSULTATION) {
    const side = (s) => table.sides[s].map((n) => {
      const role = n === table.captains[s] ? `<span class="role captain">${escapeHtml(t("table.captain"))}</span>` : "";
      return `<li class="${n === me ? "me" : ""}">${escapeHtml(personName(state, n))} ${role}</li>`;
    }).join("");
    const mine = proposals.map((p) => `<li><strong>${escapeHtml(personName(state, p.player))}</strong>: ${escapeHtml(p.text)}</li>`).join("");
    return `<h3>${escapeHtml(t("table.consultation"))}</h3>
      <div class="sides"><div><h4><span class="swatch c0" aria-hidden="true"></span>${escapeHtml(t("table.side-0"))}</h4><ul class="line">${side(0)}</ul></div>
      <div><h4><span class="swatch c1" aria-hidden="true"></span>${escapeHtml(t("table.side-1"))}</h4><ul class="line">${side(1)}</ul></div></div>
      ${mine ? `<h4>${escapeHtml(t("table.proposals"))}</h4><ul class="proposals">${mine}</ul>` : ""}
      <p class="small how">${escapeHtml(t("table.how-consultation"))}</p>`;
  }
  const inGame = table["in-game"];
  const order = [table.box, ...table.line];
  // those who left keep their result in the standings: the scores shown sum to zero
  const left = Object.keys(table.scores).filter((n) => !order.includes(n));
  const rows = [...order, ...left].map((name) => {
    if (left.includes(name)) {
      const score = table.scores[name];
      return `<li class="left" data-name="${escapeHtml(name)}">
      <span class="who-name">${escapeHtml(personName(state, name))}</span> <span class="mark out">${escapeHtml(t("table.left"))}</span>
      <span class="score" data-score="${score}">${escapeHtml(signed(score))}</span></li>`;
    }
    const roles = [];
    if (name === table.box) roles.push(`<span class="role box">${escapeHtml(t("table.box"))}</span>`);
    if (name === table.captain) roles.push(`<span class="role captain">${escapeHtml(t("table.captain"))}</span>`);
    const marks = [];
    if (name in table.passed) marks.push(`<span class="mark out">${escapeHtml(t("table.passed", { points: table.passed[name] }))}</span>`);
    if (name in table.answers) {
      marks.push(table.answers[name]
        ? `<span class="mark took">${escapeHtml(t("table.took"))}</span>`
        : `<span class="mark out">${escapeHtml(t("table.will-pass"))}</span>`);
    }
    if (table.votes.includes(name)) marks.push(`<span class="mark voted">${escapeHtml(t("table.voted"))}</span>`);
    const out = inGame && name !== table.box && !inGame.includes(name);
    const score = table.scores[name] ?? 0;
    return `<li class="${[name === me ? "me" : "", out ? "out" : ""].join(" ").trim()}" data-name="${escapeHtml(name)}">
      <span class="swatch c${name === table.box ? 0 : 1}" aria-hidden="true"></span>
      <span class="who-name">${escapeHtml(personName(state, name))}</span> ${roles.join("")} ${marks.join("")}
      <span class="score" data-score="${score}">${escapeHtml(signed(score))}</span></li>`;
  }).join("");
  const settled = table.settled
    ? `<p class="small settled">${escapeHtml(t("table.last-game"))} ${Object.entries(table.settled).map(([n, v]) => `${escapeHtml(personName(state, n))} ${escapeHtml(signed(v))}`).join(", ")}</p>`
    : "";
  return `<h3>${escapeHtml(tn("table.chouette-of", order.length))}</h3>
    <ol class="line">${rows}</ol>${lastVote(state, table["last-vote"])}${settled}
    ${inGame === null ? `<p class="small">${escapeHtml(t("table.between-games"))}</p>` : ""}
    <p class="small how">${escapeHtml(t("table.how-chouette"))}</p>`;
}

/** The table's own buttons besides the board's: the team's vote, leaving between games. */
export function tableButtons(state, me, kinds, add) {
  if (kinds.includes(ACTION.VOTE)) {
    const next = 2 * (state.board?.cube?.value ?? 1);
    add(ACTION.VOTE, { type: ACTION.VOTE, agree: true }, t("act.vote", { value: next }));
    add("vote-against", { type: ACTION.VOTE, agree: false }, t("act.vote-against"), "quiet");
  }
  const table = state.table;
  if (state.kind === GAME_KIND.CHOUETTE && table && table["in-game"] === null && me && [table.box, ...table.line].includes(me)) {
    add(ACTION.LEAVE, { type: ACTION.LEAVE }, t("act.leave"), "quiet");
  }
}

/** Draw the table's panel in `box`, with the box where a consultation's member proposes a
 * play while they may (its draft and focus kept across redraws); `send(action)` sends. */
export function drawTablePanel(box, state, send) {
  const typing = box.querySelector(".propose input");
  const draft = typing ? typing.value : "";
  const focused = typing !== null && document.activeElement === typing;
  box.innerHTML = tablePanel(state, state.you.seat);
  if (!state.you.actions.includes(ACTION.PROPOSE)) return;
  const form = document.createElement("form");
  form.className = "propose";
  form.innerHTML = `<input name="text" maxlength="200" aria-label=""><button type="submit"></button>`;
  const input = form.querySelector("input");
  input.setAttribute("aria-label", t("table.propose-label"));
  input.placeholder = t("table.propose-label");
  form.querySelector("button").textContent = t("act.propose");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) send({ type: ACTION.PROPOSE, text });
    input.value = "";
  });
  box.appendChild(form);
  input.value = draft;
  if (focused) input.focus();
}

/** A table's answers to what the room asks of who sits where (seats.js has a match's). */
export const TABLE_SEATING = {
  /** A side of the board (0 or 1) by who plays it, or a participant by name. */
  name: (state, who) => (typeof who === "number" ? sideName(state, who) : personName(state, who)),
  /** Whether the viewer created this table, which waits for people: the one person seated. */
  creator: (state, you) => you.seat !== null && Object.values(state.people).filter((p) => !p.bot).length === 1,
  waitingText: () => t("table.waiting-people"),
  /** A replay is of a two-player match; an invitation link is a match's. */
  replayable: false,
  invites: false,
  /** Anybody at the table may type a play: the server says whose it is. */
  types: () => true,
  /** A chouette's scores are the panel's, not a match line's. */
  scoreLine: (state) => state.kind !== GAME_KIND.CHOUETTE,
  /** A consultation's members may always propose, a chouette's vote to double: that is
   * advice, or the team's say on the cube, not the side's turn. */
  decides,
  /** The sides of the board whose decision the game waits for (the strips mark them). */
  acting: (state) => deciders(state).map((who) => tableSide(state, who)).filter((side) => side !== null),
  aside,
  votesAwaited,
  panel: drawTablePanel,
  buttons: tableButtons,
};
