// A user's profile (/u/NAME): what anyone may see — the name, the rating in each pool with
// its experience, the match history page by page with each rating change and a replay
// link — and on one's own profile the preferences, each saved and applied as it changes.

import * as api from "/js/api.js";
import { LANGUAGES, ENDONYMS, language, t, tn, translate } from "/js/i18n.js";
import { botName, errorText, variantName } from "/js/names.js";
import { escapeHtml } from "/js/room.js";
import { notice } from "/js/ui.js";
import { GAME_KIND, HOME_CORNERS, MONEY_POOL_SUFFIX } from "/js/vocab.js";

// the label of each on/off preference; which ones there are is the preferences' own list (app.js)
/** How the history says a match won or lost by forfeit, by the forfeit's reason: the
 * loser's clock ran out, or they did not come back. */
const FORFEITED = {
  time: (params) => t("profile.on-time", params),
  absent: (params) => t("profile.by-absence", params),
};

const SWITCH_LABELS = {
  "auto-switch-side": () => t("prefs.auto-switch-side"),
  "auto-pass": () => t("prefs.auto-pass"),
  "auto-roll": () => t("prefs.auto-roll"),
  "auto-play-forced": () => t("prefs.auto-play-forced"),
  "auto-bear-off": () => t("prefs.auto-bear-off"),
  sound: () => t("prefs.sound"),
  animation: () => t("prefs.animation"),
};

/** The preferences that are on or off, in the preferences' own order. */
function switches(prefs) {
  return Object.entries(prefs.board())
    .filter(([, value]) => typeof value === "boolean")
    .map(([key]) => key);
}
const HOME_LABELS = {
  "bottom-right": () => t("home.bottom-right"),
  "bottom-left": () => t("home.bottom-left"),
  "top-right": () => t("home.top-right"),
  "top-left": () => t("home.top-left"),
};

/** A rating pool as players name it: the variant, and whether matches or money play. */
export function poolName(pool) {
  const money = pool.endsWith(MONEY_POOL_SUFFIX);
  const variant = variantName(money ? pool.slice(0, -MONEY_POOL_SUFFIX.length) : pool);
  return money ? t("profile.pool-money", { variant }) : t("profile.pool-match", { variant });
}

function lengthName(n) {
  return n === 0 ? t("lobby.money") : tn("lobby.points", n);
}

/** A rating to one decimal as the page's language writes it ("1510.0", "1510,0"), without
 * grouping so that a rating reads as one number. */
function decimal(x) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }).format(x);
}

/** A rating change as "+10.0" or "−10.0" (the decimal sign the language's). */
export function signed(delta) {
  const text = decimal(Math.abs(delta));
  return delta >= 0 ? `+${text}` : `−${text}`;
}

function when(iso) {
  return iso ? new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)) : "";
}

function person(username) {
  return `<a href="/u/${encodeURIComponent(username)}" data-link>${escapeHtml(username)}</a>`;
}

// A chouette table or consultation game the subject sat at: the others at it, and the
// subject's own result there (their side's score in a consultation, their running score at
// a chouette); tables are not rated and have no replay.
function tableRow(game, subject) {
  const me = game.members.find((m) => m.id === subject.id);
  const others = game.members.filter((m) => m.id !== subject.id && (game.kind !== GAME_KIND.CONSULTATION || m.side !== me?.side));
  const names = others.map((m) => person(m.username));
  if (game.bot) names.push(escapeHtml(t("room.bot", { level: botName(game.bot) })));
  const result = game.result;
  let score = me ? `${me.score > 0 ? "+" : ""}${me.score}` : "";
  if (game.kind === GAME_KIND.CONSULTATION && result && me) score = `${result.score[me.side]} : ${result.score[1 - me.side]}`;
  const won = me && me.score > 0;
  const outcome = me ? (won ? t("profile.won", { score }) : t("profile.lost", { score })) : "";
  const kind = game.kind === GAME_KIND.CHOUETTE ? t("table.chouette") : t("table.consultation");
  return `<tr data-game="${escapeHtml(game.id)}">
    <td>${escapeHtml(when(game["finished-at"]))}</td>
    <td>${names.join(", ") || "—"}</td>
    <td>${escapeHtml(kind)}, ${escapeHtml(variantName(game.settings.variant))}</td>
    <td class="${won ? "up" : "down"}">${escapeHtml(outcome)}</td>
    <td class="rating-change"><span class="small">${escapeHtml(t("profile.unrated"))}</span></td>
    <td></td>
  </tr>`;
}

function historyRow(game, subject) {
  if (game.members) return tableRow(game, subject);
  const seat = game.players.findIndex((p) => p && p.id === subject.id);
  const other = game.players[1 - seat];
  const opponent = !other
    ? "—"
    : other.bot
      ? escapeHtml(t("room.bot", { level: botName(other.bot) }))
      : `<a href="/u/${encodeURIComponent(other.username)}" data-link>${escapeHtml(other.username)}</a>`;
  const result = game.result;
  const won = result && result.winner === seat;
  const score = result ? `${result.score[seat]} : ${result.score[1 - seat]}` : "";
  const outcome = result ? (won ? t("profile.won", { score }) : t("profile.lost", { score })) : "";
  const rating = game.practice
    ? `<span class="small practice-mark">${escapeHtml(t("practice.mark"))}</span>`
    : game.rating
    ? `<span class="${game.rating.after >= game.rating.before ? "up" : "down"}">${escapeHtml(signed(game.rating.after - game.rating.before))}</span> <span class="small">${escapeHtml(decimal(game.rating.after))}</span>`
    : `<span class="small">${escapeHtml(t("profile.unrated"))}</span>`;
  return `<tr data-game="${escapeHtml(game.id)}">
    <td>${escapeHtml(when(game["finished-at"]))}</td>
    <td>${opponent}</td>
    <td>${escapeHtml(variantName(game.settings.variant))}, ${escapeHtml(lengthName(game.settings["match-length"]))}</td>
    <td class="${won ? "up" : "down"}">${escapeHtml(FORFEITED[result?.forfeit]?.({ outcome }) ?? outcome)}</td>
    <td class="rating-change">${rating}</td>
    <td><a href="/replay/${encodeURIComponent(game.id)}" data-link>${escapeHtml(t("profile.replay"))}</a></td>
  </tr>`;
}

export async function profilePage(main, name, { user, prefs }) {
  let subject;
  try {
    subject = await api.profile(name);
  } catch (err) {
    main.innerHTML = `<p class="card">${escapeHtml(err.code === "no-such-user" ? t("profile.no-such-user") : errorText(err))}</p>`;
    return;
  }
  const own = user && user.id === subject.id;
  const ratings = Object.entries(subject.ratings);
  main.innerHTML = `
    <section class="profile">
      <header class="card who-card">
        <h1>${escapeHtml(subject.username)}${subject.guest ? ` <span class="badge">${escapeHtml(t("profile.guest"))}</span>` : ""}</h1>
      </header>
      <div class="card ratings">
        <h2 data-i18n="profile.ratings"></h2>
        ${ratings.length
          ? `<table><thead><tr><th data-i18n="profile.pool"></th><th data-i18n="profile.rating"></th><th data-i18n="profile.experience"></th></tr></thead>
             <tbody>${ratings.map(([pool, r]) => `<tr data-pool="${escapeHtml(pool)}"><td>${escapeHtml(poolName(pool))}</td><td class="num">${escapeHtml(decimal(r.rating))}</td><td class="num">${escapeHtml(tn("profile.points", r.experience))}</td></tr>`).join("")}</tbody></table>`
          : `<p class="empty" data-i18n="profile.no-ratings"></p>`}
      </div>
      <div class="card history">
        <h2 data-i18n="profile.history"></h2>
        <div id="history"></div>
        <p class="pager"><button type="button" id="newer" data-i18n="profile.newer"></button>
          <span id="page"></span>
          <button type="button" id="older" data-i18n="profile.older"></button></p>
      </div>
      ${own ? preferencesForm(prefs) : ""}
    </section>`;
  translate(main);
  let page = 1;
  const showPage = async () => {
    const box = main.querySelector("#history");
    try {
      const data = await api.history(subject.username, page);
      box.innerHTML = data.games.length
        ? `<table><thead><tr><th data-i18n="profile.date"></th><th data-i18n="profile.opponent"></th><th data-i18n="profile.game"></th><th data-i18n="profile.result"></th><th data-i18n="profile.rating-change"></th><th></th></tr></thead>
           <tbody>${data.games.map((g) => historyRow(g, subject)).join("")}</tbody></table>`
        : `<p class="empty" data-i18n="profile.no-games"></p>`;
      translate(box);
      main.querySelector("#newer").disabled = page === 1;
      main.querySelector("#older").disabled = !data.more;
      main.querySelector("#page").textContent = t("profile.page", { n: page });
    } catch (err) {
      notice(errorText(err), "warn", 6000);
    }
  };
  main.querySelector("#newer").addEventListener("click", () => { page -= 1; showPage(); });
  main.querySelector("#older").addEventListener("click", () => { page += 1; showPage(); });
  if (own) wirePreferences(main, prefs);
  await showPage();
}

function preferencesForm(prefs) {
  return `
    <form class="card prefs" id="prefs">
      <h2 data-i18n="prefs.title"></h2>
      <label><span data-i18n="language.label"></span><select name="language">${LANGUAGES.map((code) => `<option value="${code}">${escapeHtml(ENDONYMS[code])}</option>`).join("")}</select></label>
      <label><span data-i18n="prefs.home"></span><select name="home">${HOME_CORNERS.map((h) => `<option value="${h}">${escapeHtml(HOME_LABELS[h]())}</option>`).join("")}</select></label>
      <fieldset class="checks">
        ${switches(prefs).map((key) => `<label><input type="checkbox" name="${key}"><span>${escapeHtml(SWITCH_LABELS[key]())}</span></label>`).join("")}
      </fieldset>
      <p class="small" data-i18n="prefs.saved-at-once"></p>
    </form>`;
}

function wirePreferences(main, prefs) {
  const form = main.querySelector("#prefs");
  form.elements.language.value = language();
  form.elements.home.value = prefs.home;
  for (const key of switches(prefs)) form.elements[key].checked = Boolean(prefs[key]);
  form.addEventListener("change", async (e) => {
    const input = e.target;
    const value = input.type === "checkbox" ? input.checked : input.value;
    // saved on the server and applied at once (a new language redraws the page)
    if (await prefs.save({ [input.name]: value })) notice(t("prefs.saved"), "ok", 2500);
  });
}
