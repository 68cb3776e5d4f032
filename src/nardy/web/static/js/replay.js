// The replay viewer: any finished game one may see, stepped through turn by turn (first,
// previous, next, last; the arrow keys, Home and End; or a click in the move list), drawn
// on a read-only board; the match downloads as .mat and JSON, and its dice are verified
// here in the browser from the downloaded record (verify.js); a finished match is analysed on
// request (analysis.js), its marks shown in the move list. Each turn comes with the sides,
// pips and checkers borne off before and after it, as the server counts them: the viewer
// draws them and computes no rules.

import { AnalysisPanel } from "/js/analysis.js";
import * as api from "/js/api.js";
import { Board } from "/js/board.js";
import { diceShown } from "/js/glides.js";
import { onLanguage, t, tn, translate } from "/js/i18n.js";
import { botName, errorText, localPlay, variantName } from "/js/names.js";
import { BOARD_TABLE, escapeHtml, startSides } from "/js/room.js";
import { FORFEIT_SAID } from "/js/say.js";
import { canVerify, verifyRecord } from "/js/verify.js";

const CUBE_WORDS = {
  double: () => t("replay.cube-double"),
  take: () => t("replay.cube-take"),
  pass: () => t("replay.cube-pass"),
  beaver: () => t("replay.cube-beaver"),
};

export class Replay {
  constructor(main, gameId, { user, prefs }) {
    this.id = gameId;
    this.user = user;
    this.prefs = prefs;
    this.data = null;
    this.gameIndex = 0;
    this.step = 0;
    main.innerHTML = `
      <section class="room replay">
        ${BOARD_TABLE}
        <aside class="panel">
          <h1 class="replay-title" id="replay-title"></h1>
          <p class="match" id="replay-result"></p>
          <label class="pref" id="game-choice" hidden><span data-i18n="replay.game-label"></span><select id="replay-game"></select></label>
          <div class="steps" role="group" data-i18n-aria="replay.steps">
            <button type="button" data-step="first" data-i18n-aria="replay.first" data-i18n-title="replay.first">⏮</button>
            <button type="button" data-step="prev" data-i18n-aria="replay.prev" data-i18n-title="replay.prev">◀</button>
            <button type="button" data-step="next" data-i18n-aria="replay.next" data-i18n-title="replay.next">▶</button>
            <button type="button" data-step="last" data-i18n-aria="replay.last" data-i18n-title="replay.last">⏭</button>
          </div>
          <p class="status" id="replay-where" aria-live="polite"></p>
          <ol class="movelist" id="movelist"></ol>
          <p class="hint" data-i18n="replay.keys"></p>
          <p class="downloads">
            <a id="download-mat" download data-i18n="replay.download-mat"></a>
            <a id="download-json" download data-i18n="replay.download-json"></a>
            <a id="download-analysis" download data-i18n="analysis.download" hidden></a>
          </p>
          <section class="analysis card" id="analysis" aria-live="polite"></section>
          <section class="verify card" id="verify">
            <h2 data-i18n="verify.title"></h2>
            <p class="small" data-i18n="verify.lead"></p>
            <button type="button" class="primary" id="verify-button" data-i18n="verify.button"></button>
            <div id="verify-result"></div>
          </section>
        </aside>
      </section>`;
    translate(main);
    this.main = main;
    this.board = new Board(main.querySelector("#boardbox"), () => {}, { readOnly: true });
    main.querySelector("#download-mat").href = api.recordUrl(gameId, "mat");
    main.querySelector("#download-json").href = api.recordUrl(gameId, "json");
    main.querySelector("#download-analysis").href = api.analysisUrl(gameId);
    main.querySelector(".steps").addEventListener("click", (e) => {
      const kind = e.target.closest("[data-step]")?.dataset.step;
      if (kind) this.go(kind);
    });
    main.querySelector("#movelist").addEventListener("click", (e) => {
      const item = e.target.closest("[data-to]");
      if (item) this.show(Number(item.dataset.to));
    });
    main.querySelector("#replay-game").addEventListener("change", (e) => {
      this.gameIndex = Number(e.target.value);
      this.step = 0;
      this.draw();
    });
    main.querySelector("#verify-button").addEventListener("click", () => this.verify());
    this.keys = (e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    this.offLanguage = onLanguage(() => this.draw());
    this.analysis = new AnalysisPanel(main.querySelector("#analysis"), gameId, this);
    this.load();
  }

  close() {
    this.analysis.close();
    document.removeEventListener("keydown", this.keys);
    this.offLanguage();
    delete document.body.dataset.step;
  }

  async load() {
    try {
      this.data = await api.replay(this.id);
    } catch (err) {
      this.main.innerHTML = `<p class="card">${escapeHtml(errorText(err))}</p>`;
      return;
    }
    const games = this.data.games;
    if (!games.length) {
      this.main.innerHTML = `<p class="card">${escapeHtml(t("replay.nothing"))}</p>`;
      this.data = null;
      return;
    }
    this.gameIndex = 0;
    const choice = this.main.querySelector("#game-choice");
    choice.hidden = games.length < 2;
    this.draw();
  }

  /** The game of the match on show. */
  get game() {
    return this.data.games[this.gameIndex];
  }

  get lastStep() {
    return this.game.turns.length;
  }

  /** The seat the board is seen from: the reader's own in a game of theirs, else seat 0. */
  get viewer() {
    const seat = this.data.game.players.findIndex((p) => p && this.user && p.id === this.user.id);
    return seat < 0 ? 0 : seat;
  }

  name(seat) {
    const player = this.data.game.players[seat];
    if (!player) return "—";
    return player.bot ? t("room.bot", { level: botName(player.bot) }) : player.username;
  }

  go(kind) {
    const to = { first: 0, prev: this.step - 1, next: this.step + 1, last: this.lastStep }[kind];
    this.show(to);
  }

  show(step) {
    this.step = Math.max(0, Math.min(this.lastStep, step));
    this.draw();
  }

  key(e) {
    if (e.target.closest?.("input, select, textarea")) return;
    const kind = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (!kind || !this.data) return;
    e.preventDefault();
    this.go(kind);
  }

  /** What one turn did, in words: the cube, the roll and the play, a resignation. */
  describe(turn) {
    const parts = turn.cube.map((word) => (CUBE_WORDS[word] ? CUBE_WORDS[word]() : word));
    if (turn.dice) {
      const play = turn.play === null ? "" : turn.play === "" ? t("replay.no-move") : localPlay(turn.play);
      parts.push(`${turn.dice.join("-")}${turn.chosen ? ` (${t("replay.chosen")})` : ""}: ${play}`.replace(/: $/, ""));
    }
    for (const r of turn.resign) {
      parts.push(r.accepted ? t("replay.resign-accepted") : t("replay.resign-declined"));
    }
    return parts.join(" · ");
  }

  draw() {
    if (!this.data) return;
    const { game: info, games } = this.data;
    const settings = info.settings;
    const game = this.game;
    const length = settings["match-length"];
    this.main.querySelector("#replay-title").textContent = t("replay.title", {
      a: this.name(0),
      b: this.name(1),
      variant: variantName(settings.variant),
    });
    const score = info.result?.score;
    this.main.querySelector("#replay-result").textContent = score
      ? length
        ? tn("room.match-to", length, { a: score[0], b: score[1] })
        : t("room.money", { a: score[0], b: score[1] })
      : t("replay.unfinished");
    if (info.practice) this.main.querySelector("#replay-result").textContent += ` · ${t("practice.mark")}`;
    const select = this.main.querySelector("#replay-game");
    select.innerHTML = games
      .map((g, i) => `<option value="${i}">${escapeHtml(t("replay.game", { n: g.number, a: g.score[0], b: g.score[1] }))}</option>`)
      .join("");
    select.value = String(this.gameIndex);

    // the board at this step: the start (before the first turn), or the one after turn `step`
    const turn = this.step > 0 ? game.turns[this.step - 1] : null;
    const rules = this.data.rules;
    // with the analysis, the best play's board may stand in for the one played
    const at = this.analysis.bestBoard(this.gameIndex, this.step) ?? (turn ? turn.after : game.turns[0]?.before ?? null);
    // a game without a turn never left the variant's starting position: no counts to tell
    const sides = at ? at.sides : startSides(rules);
    const [value, owner] = turn ? turn["cube-after"] : game.start.cube;
    const cube = settings.cube === false ? null : { value, owner };
    const dice = turn?.dice ? diceShown(turn.dice) : null;
    this.board.draw({
      rules, sides, viewer: this.viewer, home: this.prefs.home,
      dice, used: null, diceSeat: turn ? turn.player : 0, cube, legal: [],
    });
    translate(this.board.svg.parentNode);
    const label = (seat) => `<span class="swatch c${seat}" aria-hidden="true"></span>
      <strong class="who-name">${escapeHtml(this.name(seat))}</strong>
      ${at ? `<span class="pips" data-seat="${seat}">${escapeHtml(tn("room.pips", at.pips[seat]))}</span>
      <span class="off" data-seat="${seat}">${escapeHtml(tn("room.off", at.off[seat]))}</span>` : ""}`;
    const me = this.viewer;
    const topIsOpponent = this.prefs.home.startsWith("bottom");
    this.main.querySelector("#side-top").innerHTML = label(topIsOpponent ? 1 - me : me);
    this.main.querySelector("#side-bottom").innerHTML = label(topIsOpponent ? me : 1 - me);

    const where = this.main.querySelector("#replay-where");
    where.textContent = turn
      ? t("replay.where", { n: this.step, total: this.lastStep, who: this.name(turn.player), what: this.describe(turn) })
      : tn("replay.start", this.lastStep);
    const items = [`<li><button type="button" class="move${this.step === 0 ? " current" : ""}" data-to="0">${escapeHtml(t("replay.start-item"))}</button></li>`];
    game.turns.forEach((tr, i) => {
      const current = this.step === i + 1;
      items.push(`<li><button type="button" class="move${current ? " current" : ""}" data-to="${i + 1}"${current ? ' aria-current="step"' : ""}>
        <span class="swatch c${tr.player}" aria-hidden="true"></span><span class="n">${i + 1}.</span> ${escapeHtml(this.describe(tr))}${this.analysis.badge(this.gameIndex, i + 1)}</button></li>`);
    });
    if (game.end) {
      const { winner, points, reason } = game.end;
      // a forfeit says why the loser lost before who won
      const why = reason && winner !== null ? `${FORFEIT_SAID[reason]({ who: this.name(1 - winner) })} ` : "";
      items.push(`<li class="end">${escapeHtml(winner === null ? t("say.draw") : why + tn("say.wins", points, { who: this.name(winner) }))}</li>`);
    }
    const list = this.main.querySelector("#movelist");
    list.innerHTML = items.join("");
    // keep the current turn in sight inside the list, without scrolling the page
    const current = list.querySelector(".current");
    if (current) {
      const top = current.offsetTop;
      const bottom = top + current.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    }
    for (const [kind, off] of [["first", this.step === 0], ["prev", this.step === 0], ["next", this.step === this.lastStep], ["last", this.step === this.lastStep]]) {
      this.main.querySelector(`[data-step="${kind}"]`).disabled = off;
    }
    // what is on show, for tools that follow the page (and the browser tests)
    document.body.dataset.step = `${this.gameIndex}:${this.step}`;
    this.analysis.draw(this.gameIndex, this.step, {
      name: (seat) => this.name(seat), seat: this.viewer, finished: info.status === "finished", user: this.user,
    });
    this.main.querySelector("#download-analysis").hidden = !this.analysis.done;
    if (this.verified) this.showVerification(this.verified);
  }

  async verify() {
    const box = this.main.querySelector("#verify-result");
    if (!canVerify()) {
      box.innerHTML = `<p class="warn">${escapeHtml(t("verify.unavailable"))}</p>`;
      return;
    }
    box.innerHTML = `<p>${escapeHtml(t("verify.working"))}</p>`;
    try {
      const records = await api.records(this.id);
      const results = [];
      for (const record of records) results.push({ number: record.game, dice: record.dice, ...(await verifyRecord(record)) });
      this.verified = results;
      this.showVerification(results);
    } catch (err) {
      box.innerHTML = `<p class="warn">${escapeHtml(t("verify.failed", { reason: err.message }))}</p>`;
    }
  }

  showVerification(results) {
    const box = this.main.querySelector("#verify-result");
    const section = this.main.querySelector("#verify");
    const revealed = results.filter((r) => r.revealed);
    const allOk = revealed.length > 0 && revealed.every((r) => r.ok);
    section.dataset.verdict = allOk ? "match" : revealed.length ? "mismatch" : "unrevealed";
    const parts = [];
    parts.push(`<p class="verdict ${allOk ? "ok" : "bad"}">${escapeHtml(
      allOk ? t("verify.all-match") : revealed.length ? t("verify.mismatch") : t("verify.unrevealed"),
    )}</p>`);
    for (const r of results) {
      parts.push(`<h3>${escapeHtml(t("verify.game", { n: r.number }))}</h3>`);
      if (!r.revealed) {
        parts.push(`<p class="small">${escapeHtml(t("verify.not-revealed"))}</p>`);
        continue;
      }
      const matching = r.rolls.filter((x) => x.ok).length;
      parts.push(`<p class="check ${r.commitment.ok ? "ok" : "bad"}" data-check="commitment">${escapeHtml(
        r.commitment.ok ? t("verify.commitment-ok") : t("verify.commitment-bad"),
      )}</p>
        <p class="hash small"><span data-i18n="verify.commitment"></span> <code>${escapeHtml(r.commitment.expected)}</code><br>
        <span data-i18n="verify.seed"></span> <code>${escapeHtml(r.dice["server-seed"])}</code></p>
        <p class="check ${matching === r.rolls.length ? "ok" : "bad"}" data-check="rolls">${escapeHtml(
          tn("verify.rolls", r.rolls.length, { matching }),
        )}</p>`);
      parts.push(`<ol class="rolls" start="0">${r.rolls.map((x) => `<li class="${x.ok ? "ok" : "bad"}" data-roll="${x.n}"${x.ok ? "" : ` title="${escapeHtml(t("verify.roll-differs", { recorded: x.recorded.join("-"), derived: x.derived.join("-") }))}"`}>${x.recorded.join("-")}${x.ok ? "" : ` ≠ ${x.derived.join("-")}`}</li>`).join("")}</ol>`);
    }
    box.innerHTML = parts.join("");
    translate(box);
  }
}
