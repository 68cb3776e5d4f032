// The public dice page: every roll the server has dealt (GET /api/dice/stats), per face and
// per roll, with bars against what fair dice would give and the χ² tests.

import * as api from "/js/api.js";
import { language, t, tn, translate } from "/js/i18n.js";
import { escapeHtml } from "/js/room.js";

const BAR_W = 260;
const ROW_H = 22;

function percent(x) {
  return new Intl.NumberFormat(language(), { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}

function number(x, digits = 0) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x);
}

/** Bars of the counts, each with a mark where fair dice would put it. */
function bars(rows, label) {
  const top = Math.max(1, ...rows.map((r) => Math.max(r.count, r.expected)));
  const height = rows.length * ROW_H;
  const items = rows
    .map((r, i) => {
      const y = i * ROW_H;
      const w = (r.count / top) * BAR_W;
      const x = (r.expected / top) * BAR_W;
      return `<text class="name" x="44" y="${y + 15}" text-anchor="end">${escapeHtml(r.name)}</text>
        <rect class="count" x="50" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW_H - 6}"></rect>
        <line class="fair" x1="${(50 + x).toFixed(1)}" x2="${(50 + x).toFixed(1)}" y1="${y + 1}" y2="${y + ROW_H - 1}"></line>`;
    })
    .join("");
  return `<svg class="dicebars" viewBox="0 0 ${BAR_W + 60} ${height}" role="img" aria-label="${escapeHtml(label)}">${items}</svg>`;
}

function table(rows, head) {
  return `<table class="dicetable">
    <thead><tr><th scope="col">${escapeHtml(head)}</th><th scope="col">${escapeHtml(t("dice.count"))}</th><th scope="col">${escapeHtml(t("dice.share"))}</th><th scope="col">${escapeHtml(t("dice.expected"))}</th></tr></thead>
    <tbody>${rows.map((r) => `<tr><th scope="row">${escapeHtml(r.name)}</th><td>${number(r.count)}</td><td>${r.total ? percent(r.count / r.total) : "—"}</td><td>${percent(r.fair)}</td></tr>`).join("")}</tbody>
  </table>`;
}

function testLine(test) {
  if (!test) return "";
  return escapeHtml(t("dice.test", { chi2: number(test.chi2, 2), df: test.df, p: number(test.p, 3) }));
}

export async function dicePage(main) {
  main.innerHTML = `
    <section class="dice">
      <h1 data-i18n="dice.title"></h1>
      <p class="lead" data-i18n="dice.lead"></p>
      <div id="dice-figures"><p data-i18n="dice.loading"></p></div>
      <p class="small" data-i18n="dice.about-p"></p>
    </section>`;
  translate(main);
  const box = main.querySelector("#dice-figures");
  let stats;
  try {
    stats = await api.diceStats();
  } catch {
    box.innerHTML = `<p class="card">${escapeHtml(t("dice.unavailable"))}</p>`;
    return;
  }
  const dice = stats.rolls * 2;
  if (!stats.rolls) {
    box.innerHTML = `<p class="card">${escapeHtml(t("dice.none"))}</p>`;
    document.body.dataset.dice = "0";
    return;
  }
  const faces = Object.entries(stats.faces).map(([face, count]) => ({
    name: face, count, total: dice, fair: stats.expected.face, expected: dice * stats.expected.face,
  }));
  const rolls = Object.entries(stats["per-roll"]).map(([roll, count]) => {
    const [high, low] = roll.split("-");
    const fair = high === low ? stats.expected.double : stats.expected["non-double"];
    return { name: roll, count, total: stats.rolls, fair, expected: stats.rolls * fair };
  });
  box.innerHTML = `
    <p class="summary">${escapeHtml(tn("dice.rolls", stats.rolls))} ·
      ${escapeHtml(t("dice.doubles", { share: percent(stats["doubles-share"]), fair: percent(stats.expected.doubles) }))}</p>
    <div class="dicegrid">
      <div class="card">
        <h2>${escapeHtml(t("dice.faces"))}</h2>
        ${bars(faces, t("dice.faces"))}
        ${table(faces, t("dice.face"))}
        <p class="test" id="faces-test">${testLine(stats["faces-test"])}</p>
      </div>
      <div class="card">
        <h2>${escapeHtml(t("dice.per-roll"))}</h2>
        ${bars(rolls, t("dice.per-roll"))}
        ${table(rolls, t("dice.roll"))}
        <p class="test" id="rolls-test">${testLine(stats["rolls-test"])}</p>
      </div>
    </div>
    <p class="small"><span class="key count"></span> ${escapeHtml(t("dice.legend-count"))} <span class="key fair"></span> ${escapeHtml(t("dice.legend-fair"))}</p>`;
  document.body.dataset.dice = String(stats.rolls);
}
