// A finished match's analysis in the replay viewer (docs/analysis.md, "In the browser"): the
// "Analyse" button, the job's place in the queue and its progress while the server works,
// then each turn's checker play and cube decision marked (doubtful ?!, bad ?, very bad ??) as
// `nardy analyze` judges them, the best play to show on the board, the equity lost, the luck,
// each player's error rate and rating, and a graph of the winning chances over the moves.
// The server judges; this draws what it sent.

import * as api from "/js/api.js";
import { decimal, t, translate } from "/js/i18n.js";
import { errorText, localPlay } from "/js/names.js";
import { escapeHtml } from "/js/ui.js";

const POLL_MS = 1000;
// The chances graph's drawing, in its own units (a turn's x is its share of GRAPH_W).
const GRAPH_W = 300;
const GRAPH_H = 100;

/** A mark's sign, after the chess and gnubg habit, and its words. */
const MARKS = {
  doubtful: { sign: "?!", words: () => t("analysis.mark-doubtful") },
  bad: { sign: "?", words: () => t("analysis.mark-bad") },
  "very-bad": { sign: "??", words: () => t("analysis.mark-very-bad") },
};
const MARK_ORDER = ["doubtful", "bad", "very-bad"];

const LUCK = {
  "very-lucky": () => t("analysis.luck-very-lucky"),
  lucky: () => t("analysis.luck-lucky"),
  unlucky: () => t("analysis.luck-unlucky"),
  "very-unlucky": () => t("analysis.luck-very-unlucky"),
};

// the ratings as `nardy analyze` words them (gnubg's), each in the reader's language
const RATINGS = {
  Supernatural: () => t("analysis.rating-supernatural"),
  "World class": () => t("analysis.rating-world-class"),
  Expert: () => t("analysis.rating-expert"),
  Advanced: () => t("analysis.rating-advanced"),
  Intermediate: () => t("analysis.rating-intermediate"),
  "Casual player": () => t("analysis.rating-casual"),
  Beginner: () => t("analysis.rating-beginner"),
  "Awful!": () => t("analysis.rating-awful"),
};
const LUCK_RATINGS = {
  "Go to Las Vegas": () => t("analysis.luck-rating-vegas"),
  "Good dice, man!": () => t("analysis.luck-rating-good"),
  None: () => t("analysis.luck-rating-none"),
  "Bad dice, man!": () => t("analysis.luck-rating-bad"),
  "Go to bed": () => t("analysis.luck-rating-bed"),
};

const ACTIONS = {
  "no double": () => t("analysis.action-no-double"),
  double: () => t("analysis.action-double"),
  take: () => t("analysis.action-take"),
  pass: () => t("analysis.action-pass"),
  beaver: () => t("analysis.action-beaver"),
};
const PROPER = {
  "no-double": () => t("analysis.proper-no-double"),
  "double-take": () => t("analysis.proper-double-take"),
  "double-pass": () => t("analysis.proper-double-pass"),
  "double-beaver": () => t("analysis.proper-double-beaver"),
  "too-good": () => t("analysis.proper-too-good"),
  "cannot-double": () => t("analysis.proper-cannot-double"),
  take: () => t("analysis.action-take"),
  pass: () => t("analysis.action-pass"),
  beaver: () => t("analysis.action-beaver"),
};

function words(table, key) {
  return table[key] ? table[key]() : key ?? "—";
}

/** A mark as a key: `nardy analyze` writes a play's "very bad" with a space. */
const markKey = (mark) => (mark ? mark.replace(/ /g, "-") : null);

const worst = (marks) => marks.map(markKey).filter((m) => MARKS[m]).sort((a, b) => MARK_ORDER.indexOf(b) - MARK_ORDER.indexOf(a))[0] ?? null;

export class AnalysisPanel {
  /** The panel in `box`, for match `gameId`; `replay` is told when the analysis arrives
   * (to mark its move list) and asked to go to a step (a click in the graph). */
  constructor(box, gameId, replay) {
    this.box = box;
    this.id = gameId;
    this.replay = replay;
    this.view = null;
    this.timer = null;
    this.showBest = false;
    box.addEventListener("click", (e) => {
      if (e.target.closest("#analyse")) this.start();
      const graph = e.target.closest("svg.chances");
      if (graph) this.pick(graph, e);
    });
    box.addEventListener("change", (e) => {
      if (e.target.id === "show-best") {
        this.showBest = e.target.checked;
        this.replay.draw();
      }
    });
    this.load();
  }

  close() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  async load() {
    try {
      this.view = await api.analysis(this.id);
    } catch (err) {
      this.view = { status: "error", error: errorText(err) };
    }
    this.settle();
  }

  async start() {
    try {
      this.view = await api.analyse(this.id);
    } catch (err) {
      this.view = { status: "refused", error: errorText(err), before: this.view };
    }
    this.settle();
  }

  /** After news of the job: draw it, and ask again while it waits or runs. */
  settle() {
    clearTimeout(this.timer);
    if (this.view && ["queued", "running"].includes(this.view.status)) {
      this.timer = setTimeout(() => this.load(), POLL_MS);
    }
    this.replay.draw();
  }

  /** The analysis, once done. */
  get done() {
    return this.view?.status === "done" ? this.view : null;
  }

  /** Game `index`'s judged turns, by turn number: {play, cubes, roll}. */
  turns(index) {
    const game = this.done?.analysis.games[index];
    if (!game) return null;
    const turns = {};
    const at = (n) => (turns[n] ??= { play: null, cubes: [], roll: null });
    for (const p of game.plays) at(p.turn).play = p;
    for (const c of game["cube-decisions"] ?? []) at(c.turn).cubes.push(c);
    for (const r of game.rolls) at(r.turn).roll = r;
    return turns;
  }

  /** The worst mark of a turn of game `index`, or null. */
  mark(index, turn) {
    const judged = this.turns(index)?.[turn];
    return judged ? worst([judged.play?.mark, ...judged.cubes.map((c) => c.mark)]) : null;
  }

  /** The move list's badge of a turn: its worst mark's sign. */
  badge(index, turn) {
    const mark = this.mark(index, turn);
    if (!mark) return "";
    return ` <span class="mark ${mark}" data-mark="${mark}" title="${escapeHtml(MARKS[mark].words())}">${MARKS[mark].sign}</span>`;
  }

  /** The board after the best play of turn `turn` when it is to be shown instead of the
   * play made; else null. */
  bestBoard(index, turn) {
    if (!this.showBest || !turn) return null;
    return this.done?.boards[index]?.best[String(turn)] ?? null;
  }

  /** Go to the step under a click in the graph: the click is read in the graph's own
   * coordinates, since the drawing sits inside a margin (its dots and the line's ends) and
   * keeps its aspect in whatever box the page gives it; a click in the margin takes the
   * nearest end. */
  pick(svg, e) {
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const steps = Number(svg.dataset.steps);
    this.replay.show(Math.min(steps, Math.max(0, Math.round((at.x / GRAPH_W) * steps))));
  }

  /** Draw the panel for step `step` of game `index`; `name(seat)` names the players and
   * `seat` is the one the graph follows. */
  draw(index, step, { name, seat, finished, user }) {
    const view = this.view;
    const parts = [`<h2 data-i18n="analysis.title"></h2>`];
    if (!view) {
      parts.push(`<p class="small" data-i18n="analysis.loading"></p>`);
    } else if (view.status === "done") {
      parts.push(this.summary(name), this.turnText(index, step), this.graph(index, step, seat, name));
      parts.push(`<label class="toggle"><input type="checkbox" id="show-best"${this.showBest ? " checked" : ""}> <span data-i18n="analysis.show-best"></span></label>`);
    } else if (view.status === "queued") {
      parts.push(`<p class="job" data-job="queued">${escapeHtml(t("analysis.queued", { n: view.ahead }))}</p>`);
    } else if (view.status === "running") {
      parts.push(`<p class="job" data-job="running">${escapeHtml(t("analysis.running", { done: view.done, total: view.total }))}</p>
        <progress max="${view.total || 1}" value="${view.done}"></progress>`);
    } else if (!finished) {
      parts.push(`<p class="small" data-i18n="analysis.unfinished"></p>`);
    } else if (!user) {
      parts.push(`<p class="small" data-i18n="analysis.sign-in"></p>`);
    } else {
      if (view.status === "failed") parts.push(`<p class="warn">${escapeHtml(t("analysis.failed", { reason: view.error }))}</p>`);
      if (view.status === "refused" || view.status === "error") parts.push(`<p class="warn">${escapeHtml(view.error)}</p>`);
      parts.push(`<p class="small" data-i18n="analysis.lead"></p>`, view.status === "failed"
        ? `<button type="button" class="primary" id="analyse" data-i18n="analysis.again"></button>`
        : `<button type="button" class="primary" id="analyse" data-i18n="analysis.button"></button>`);
    }
    this.box.innerHTML = parts.join("");
    this.box.dataset.status = view?.status ?? "loading";
    translate(this.box);
  }

  /** Each player's error rate and rating, errors by mark, and luck, over the match: a
   * column a player and a row a figure, so that the table stays three columns wide however
   * long a language's headings are (Russian's did not fit the panel as columns). */
  summary(name) {
    const { analysis } = this.done;
    const count = (s, mark) => (s.marked[mark] ?? 0) + (s["cube-marked"]?.[mark] ?? 0);
    const per = (fn) => analysis.stats.map((s, seat) => fn(s, seat)).join("");
    const figures = [
      [`<th scope="row" data-i18n="analysis.error-rate"></th>`, (s) => `<td class="num">${decimal(s["error-rate"] === null ? null : s["error-rate"] * 1000, 1)}</td>`],
      [`<th scope="row" data-i18n="analysis.rating"></th>`, (s, seat) => `<td data-seat="${seat}" data-rating="${escapeHtml(s.rating ?? "")}">${escapeHtml(words(RATINGS, s.rating))}</td>`],
      [`<th scope="row" data-i18n="analysis.errors"></th>`, (s) => `<td class="num">${MARK_ORDER.map((m) => count(s, m)).join(" / ")}</td>`],
      [`<th scope="row" data-i18n="analysis.luck"></th>`, (s) => `<td class="num">${decimal(s["luck-rate"] === null ? null : s["luck-rate"] * 1000, 1, "exceptZero")}</td>`],
      [`<th scope="row" data-i18n="analysis.luck-rating"></th>`, (s) => `<td>${escapeHtml(words(LUCK_RATINGS, s["luck-rating"]))}</td>`],
    ];
    const rows = figures.map(([heading, cell]) => `<tr>${heading}${per(cell)}</tr>`);
    return `<table class="analysis-stats">
      <thead><tr><th></th>${per((s, seat) => `<th scope="col" data-seat="${seat}">${escapeHtml(name(seat))}</th>`)}</tr></thead>
      <tbody>${rows.join("")}</tbody></table>
      <p class="small">${escapeHtml(t("analysis.about", { ply: analysis.ply }))}</p>`;
  }

  /** What the analysis says of the turn on show. */
  turnText(index, step) {
    const judged = step > 0 ? this.turns(index)?.[step] : null;
    if (!judged) return `<div class="turn-analysis" id="turn-analysis"><p class="small" data-i18n="analysis.pick-turn"></p></div>`;
    const lines = [];
    const marked = (raw) => {
      const mark = worst([raw]);
      return mark ? ` <span class="mark ${mark}" data-mark="${mark}">${MARKS[mark].sign} ${escapeHtml(MARKS[mark].words())}</span>` : "";
    };
    for (const c of judged.cubes) {
      lines.push(`<p data-kind="cube">${escapeHtml(t("analysis.cube", {
        action: words(ACTIONS, c.action), proper: words(PROPER, c["proper-action"]), loss: decimal(c.loss),
      }))}${marked(c.mark)}</p>`);
      // a close cube decision is judged on the position's chances rolled out: say so
      if (c.rollout) lines.push(`<p class="small" data-kind="cube-rollout">${escapeHtml(t("analysis.cube-rolled-out", { games: c.rollout }))}</p>`);
    }
    const p = judged.play;
    if (p) {
      const best = p.best === p.played || !p.best;
      lines.push(`<p data-kind="play">${escapeHtml(t("analysis.played", { play: p.played ? localPlay(p.played) : t("replay.no-move"), equity: decimal(p["played-equity"], 3, "exceptZero") }))}${marked(p.mark)}</p>`);
      lines.push(best
        ? `<p class="small" data-i18n="analysis.was-best"></p>`
        : `<p data-kind="best">${escapeHtml(t("analysis.best", { play: localPlay(p.best), equity: decimal(p["best-equity"], 3, "exceptZero"), loss: decimal(p.loss) }))}</p>`);
      // a play the lookahead marked bad or very bad is judged by a rollout: say so
      if (p.rollout) lines.push(`<p class="small" data-kind="rollout">${escapeHtml(t("analysis.rolled-out", { games: p.rollout }))}</p>`);
    }
    if (judged.roll && judged.roll.luck !== null) {
      const luck = judged.roll.mark ? ` (${words(LUCK, markKey(judged.roll.mark))})` : "";
      lines.push(`<p class="small" data-kind="luck">${escapeHtml(t("analysis.roll-luck", { luck: decimal(judged.roll.luck, 3, "exceptZero") }) + luck)}</p>`);
    }
    return `<div class="turn-analysis" id="turn-analysis">${lines.join("")}</div>`;
  }

  /** The graph of `seat`'s winning chances over the game's turns, drawn in SVG: the line,
   * the even line, the errors as dots and the turn on show. */
  graph(index, step, seat, name) {
    const chances = this.done.boards[index]?.chances ?? [];
    const steps = Math.max(1, chances.length - 1);
    const W = GRAPH_W;
    const H = GRAPH_H;
    const x = (i) => ((i / steps) * W).toFixed(1);
    const y = (c) => ((1 - (seat === 0 ? c : 1 - c)) * H).toFixed(1);
    const points = chances.map((c, i) => `${x(i)},${y(c ?? 0.5)}`).join(" ");
    const dots = [];
    const turns = this.turns(index) ?? {};
    for (const [turn] of Object.entries(turns)) {
      const mark = this.mark(index, Number(turn));
      if (mark) dots.push(`<circle class="dot ${mark}" data-mark="${mark}" cx="${x(Number(turn))}" cy="${y(chances[turn] ?? 0.5)}" r="3.5"><title>${escapeHtml(`${turn}. ${MARKS[mark].words()}`)}</title></circle>`);
    }
    const label = this.done.analysis["match-length"]
      ? t("analysis.graph-match", { who: name(seat) })
      : t("analysis.graph-game", { who: name(seat) });
    const now = chances[step];
    return `<figure class="chances-graph">
      <svg class="chances" viewBox="-4 -4 ${W + 8} ${H + 8}" role="img" aria-label="${escapeHtml(label)}" data-steps="${steps}">
        <rect class="frame" x="0" y="0" width="${W}" height="${H}"></rect>
        <line class="even" x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}"></line>
        <polyline class="line" points="${points}"></polyline>
        ${dots.join("")}
        <line class="now" x1="${x(step)}" y1="0" x2="${x(step)}" y2="${H}"></line>
      </svg>
      <figcaption class="small">${escapeHtml(label)}${now === undefined || now === null ? "" : `: ${escapeHtml(decimal(100 * (seat === 0 ? now : 1 - now), 1))} %`}</figcaption>
    </figure>`;
  }
}
