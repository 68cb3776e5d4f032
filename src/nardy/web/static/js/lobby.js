// The lobby: play now (quick pairing by rating), create a game (variant, length, cube
// settings; an open seek, a private invitation or the bot), join the open seeks, go back to
// one's games, watch the games being played.

import * as api from "/js/api.js";
import { t, tn, translate } from "/js/i18n.js";
import { botName, errorText, variantName } from "/js/names.js";
import { escapeHtml } from "/js/room.js";
import { notice } from "/js/ui.js";
import {
  BOT_LEVELS, CHOUETTE_SEATS, CLOCK_LIMITS, CLOCK_PRESETS, CONSULTATION_SIDE, GAME_KIND,
  GAME_STATUS, OPPONENT, VARIANT_KEYS,
} from "/js/vocab.js";

const LENGTHS = [1, 3, 5, 7, 9, 11, 0];
const CLOCK_NAMES = {
  blitz: () => t("clock.blitz"),
  standard: () => t("clock.standard"),
  slow: () => t("clock.slow"),
};

/** The whole numbers from low to high, both included. */
function span([low, high]) {
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

function clockName(preset) {
  return CLOCK_NAMES[preset] ? CLOCK_NAMES[preset]() : preset;
}

/** The computer's paces (its delay before each action, ms) a game or table may choose. */
const PACES = `<option value="250" data-i18n="pace.fast"></option>
  <option value="1000" selected data-i18n="pace.human"></option>
  <option value="2500" data-i18n="pace.slow"></option>`;

function lengthName(n) {
  return n === 0 ? t("lobby.money") : tn("lobby.points", n);
}

/** The computer's strengths a game or table may choose (intermediate unless one is chosen). */
const botOptions = () =>
  BOT_LEVELS.map((b) => `<option value="${b}"${b === "intermediate" ? " selected" : ""}>${escapeHtml(botName(b))}</option>`).join("");

const kindName = (game) => (game.kind === GAME_KIND.CHOUETTE ? t("table.chouette") : t("table.consultation"));

/** A game in a list, in words (HTML): its kind, variant, length, clock and people. */
function describe(game) {
  const s = game.settings;
  if (game.members) {
    const people = game.members.filter((m) => m.seated).map((m) => m.username);
    if (game.bot) people.push(tn("lobby.table-bots-n", game.seating.bots ?? 1, { level: botName(game.bot) }));
    return `${escapeHtml(kindName(game))}, ${escapeHtml(variantName(s.variant))} · ${escapeHtml(people.join(", "))}`;
  }
  const who = game.players.filter(Boolean).map((p) => (p.bot ? t("room.bot", { level: botName(p.bot) }) : p.username)).join(" – ");
  const clock = game.clock ? ` · ${escapeHtml(t("lobby.clock-seek", { delay: game.clock.delay, minutes: Number((game.clock.reserve / 60).toFixed(2)) }))}` : "";
  return `${escapeHtml(variantName(s.variant))}, ${escapeHtml(lengthName(s["match-length"]))}${clock} · ${escapeHtml(who)}`;
}

/** The public games being played, each with a link to watch it (anybody may, signed in or
 * not). */
export async function drawLive(list) {
  try {
    const live = await api.liveGames();
    list.innerHTML = live.length
      ? live.slice(0, 30).map((g) => `<li><span>${describe(g)}</span><a class="watch" href="/game/${encodeURIComponent(g.id)}" data-link data-watch="${escapeHtml(g.id)}">${escapeHtml(t("lobby.watch"))}</a></li>`).join("")
      : `<li class="empty">${escapeHtml(t("lobby.no-live"))}</li>`;
  } catch (err) {
    notice(errorText(err), "warn", 6000);
  }
}

/** "Play now": asks the server to pair the player (again every few seconds, which keeps the
 * quick seek alive and lets the rating range widen) until a game is found or they stop. */
function quickPairing(form, navigate) {
  const button = form.querySelector("#quick-button");
  const searching = form.querySelector("#searching");
  let looking = null; // {seek, timer} while looking
  const stop = () => {
    clearTimeout(looking?.timer);
    const seek = looking?.seek;
    looking = null;
    searching.hidden = true;
    button.disabled = false;
    if (seek) api.cancelGame(seek).catch(() => {});
  };
  const ask = async (request, key) => {
    if (!looking) return;
    if (!form.isConnected) { // the lobby was left: the seek lapses after the grace period
      looking = null;
      return;
    }
    try {
      const game = await api.playNow(looking.seek ? { ...request, seek: looking.seek } : request, key);
      if (!looking) { // stopped meanwhile
        if (game.status === GAME_STATUS.OPEN) api.cancelGame(game.id).catch(() => {});
        return;
      }
      if (game.status === GAME_STATUS.PLAYING) {
        looking = null;
        navigate(`/game/${encodeURIComponent(game.id)}`);
        return;
      }
      looking.seek = game.id;
      form.querySelector("#searching-text").textContent = t("lobby.quick-searching", { range: game.range });
      looking.timer = setTimeout(() => ask(request), 1000 * game["ask-again"]);
    } catch (err) {
      notice(errorText(err), "warn", 6000);
      stop();
    }
  };
  form.querySelector("#quick-stop").addEventListener("click", stop);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (looking) return; // one search at a time, however often Play now is clicked
    const data = new FormData(form);
    const request = { settings: { variant: data.get("quick-variant"), "match-length": Number(data.get("quick-length")) } };
    if (data.get("quick-clock") !== "none") request.clock = data.get("quick-clock");
    looking = { seek: null, timer: null };
    button.disabled = true;
    searching.hidden = false;
    form.querySelector("#searching-text").textContent = "";
    ask(request, api.requestKey());
  });
}

export async function lobbyPage(main, { user, navigate }) {
  main.innerHTML = `
    <section class="lobby">
      <form class="card quick" id="quick">
        <h2 data-i18n="lobby.quick"></h2>
        <p class="small" data-i18n="lobby.quick-about"></p>
        <label><span data-i18n="lobby.variant"></span><select name="quick-variant">${VARIANT_KEYS.map((v) => `<option value="${v}">${escapeHtml(variantName(v))}</option>`).join("")}</select></label>
        <label><span data-i18n="lobby.length"></span><select name="quick-length">${LENGTHS.map((n) => `<option value="${n}"${n === 3 ? " selected" : ""}>${escapeHtml(lengthName(n))}</option>`).join("")}</select></label>
        <label><span data-i18n="lobby.clock"></span><select name="quick-clock">
          <option value="none" selected data-i18n="clock.none"></option>
          ${Object.keys(CLOCK_PRESETS).map((c) => `<option value="${c}">${escapeHtml(clockName(c))}</option>`).join("")}
        </select></label>
        <button class="primary" id="quick-button" data-i18n="lobby.quick-button"></button>
        <p class="searching" id="searching" hidden><span id="searching-text" role="status"></span>
          <button type="button" class="quiet" id="quick-stop" data-i18n="lobby.quick-stop"></button></p>
      </form>
      <form class="card create" id="create">
        <h2 data-i18n="lobby.create"></h2>
        <label><span data-i18n="lobby.variant"></span><select name="variant">${VARIANT_KEYS.map((v) => `<option value="${v}">${escapeHtml(variantName(v))}</option>`).join("")}</select></label>
        <label><span data-i18n="lobby.length"></span><select name="length">${LENGTHS.map((n) => `<option value="${n}">${escapeHtml(lengthName(n))}</option>`).join("")}</select></label>
        <fieldset class="checks">
          <label><input type="checkbox" name="cube" checked><span data-i18n="lobby.cube"></span></label>
          <label><input type="checkbox" name="crawford" checked><span data-i18n="lobby.crawford"></span></label>
          <label><input type="checkbox" name="jacoby"><span data-i18n="lobby.jacoby"></span></label>
          <label><input type="checkbox" name="beaver"><span data-i18n="lobby.beaver"></span></label>
        </fieldset>
        <label><span data-i18n="lobby.clock"></span><select name="clock">
          <option value="none" selected data-i18n="clock.none"></option>
          ${Object.keys(CLOCK_PRESETS).map((c) => `<option value="${c}">${escapeHtml(clockName(c))}</option>`).join("")}
          <option value="custom" data-i18n="clock.custom"></option>
        </select></label>
        <fieldset class="custom-clock" id="custom-clock" hidden>
          <label class="sub"><span data-i18n="clock.delay-seconds"></span><input type="number" name="delay" min="${CLOCK_LIMITS.delay[0]}" max="${CLOCK_LIMITS.delay[1]}" step="any" value="12"></label>
          <label class="sub"><span data-i18n="clock.reserve-minutes"></span><input type="number" name="reserve" min="0.01" max="${CLOCK_LIMITS.reserve[1] / 60}" step="any" value="2"></label>
        </fieldset>
        <fieldset class="opponent">
          <legend data-i18n="lobby.opponent"></legend>
          <label><input type="radio" name="opponent" value="${OPPONENT.OPEN}" checked><span data-i18n="lobby.open"></span></label>
          <label><input type="radio" name="opponent" value="${OPPONENT.INVITE}"><span data-i18n="lobby.invite"></span></label>
          <label><input type="radio" name="opponent" value="${OPPONENT.BOT}"><span data-i18n="lobby.bot"></span></label>
          <label class="sub for-bot"><span data-i18n="lobby.bot-pace"></span><select name="pace">${PACES}</select></label>
          <label class="sub for-bot"><span data-i18n="lobby.bot-level"></span><select name="bot">${botOptions()}</select></label>
          <label class="sub for-bot"><input type="checkbox" name="practice"><span data-i18n="lobby.practice"></span></label>
        </fieldset>
        <button class="primary" id="create-button" data-i18n="lobby.create-button"></button>
        <p class="invitation" id="invitation" hidden></p>
      </form>
      <div class="card seeks">
        <h2 data-i18n="lobby.seeks"></h2>
        <button type="button" class="link" id="refresh" data-i18n="lobby.refresh"></button>
        <ul id="seeks"></ul>
      </div>
      <form class="card create-table" id="create-table">
        <h2 data-i18n="lobby.tables-create"></h2>
        <fieldset class="kind">
          <label><input type="radio" name="kind" value="${GAME_KIND.CHOUETTE}" checked><span data-i18n="table.chouette"></span></label>
          <label><input type="radio" name="kind" value="${GAME_KIND.CONSULTATION}"><span data-i18n="table.consultation"></span></label>
        </fieldset>
        <label><span data-i18n="lobby.variant"></span><select name="variant">${VARIANT_KEYS.map((v) => `<option value="${v}">${escapeHtml(variantName(v))}</option>`).join("")}</select></label>
        <label class="for-chouette"><span data-i18n="lobby.table-seats"></span><select name="seats">${span(CHOUETTE_SEATS).map((n) => `<option${n === 4 ? " selected" : ""}>${n}</option>`).join("")}</select></label>
        <label class="for-chouette"><span data-i18n="lobby.table-bots"></span><select name="bots">${span([0, CHOUETTE_SEATS[1] - 1]).map((n) => `<option>${n}</option>`).join("")}</select></label>
        <label class="for-consultation" hidden><span data-i18n="lobby.length"></span><select name="length">${LENGTHS.map((n) => `<option value="${n}">${escapeHtml(lengthName(n))}</option>`).join("")}</select></label>
        <label class="for-consultation" hidden><span data-i18n="lobby.side-0"></span><select name="side0">${span(CONSULTATION_SIDE).map((n) => `<option>${n}</option>`).join("")}</select></label>
        <label class="for-consultation" hidden><span data-i18n="lobby.side-1"></span><select name="side1"><option value="0" data-i18n="lobby.side-bot"></option>${span(CONSULTATION_SIDE).map((n) => `<option${n === 2 ? " selected" : ""}>${n}</option>`).join("")}</select></label>
        <label class="for-table-bot"><span data-i18n="lobby.bot-pace"></span><select name="table-pace">${PACES}</select></label>
        <label class="for-table-bot"><span data-i18n="lobby.bot-level"></span><select name="table-bot">${botOptions()}</select></label>
        <button class="primary" id="create-table-button" data-i18n="lobby.create-table"></button>
      </form>
      <div class="card tables">
        <h2 data-i18n="lobby.tables"></h2>
        <ul id="tables"></ul>
      </div>
      <div class="card mine">
        <h2 data-i18n="lobby.mine"></h2>
        <ul id="mine"></ul>
      </div>
      <div class="card live">
        <h2 data-i18n="lobby.live"></h2>
        <ul id="live"></ul>
      </div>
    </section>`;
  translate(main);
  quickPairing(main.querySelector("#quick"), navigate);
  const rules = api.variants().then(
    (list) => Object.fromEntries(list.map((facts) => [facts.key, facts])),
    () => ({}),
  );
  const form = main.querySelector("#create");
  let startKey = api.requestKey(); // one per game the player means to start
  // only what applies to the game chosen: the Crawford rule to a match, Jacoby and beavers to
  // money play, all three to a game with the cube (RULES.md 1.5-1.6); the bot's pace and
  // strength, and practice, to a game against it (a box switched off is not sent: false)
  const fit = () => {
    const money = form.querySelector('select[name="length"]').value === "0";
    const cube = form.querySelector('input[name="cube"]').checked;
    form.querySelector('input[name="crawford"]').disabled = money || !cube;
    for (const name of ["jacoby", "beaver"]) form.querySelector(`input[name="${name}"]`).disabled = !money || !cube;
    const bot = form.querySelector('input[name="opponent"]:checked')?.value === OPPONENT.BOT;
    for (const label of form.querySelectorAll(".for-bot")) label.hidden = !bot;
  };
  form.addEventListener("change", fit);
  fit();
  const clockMenu = form.querySelector('select[name="clock"]');
  clockMenu.addEventListener("change", () => {
    form.querySelector("#custom-clock").hidden = clockMenu.value !== "custom";
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const variant = data.get("variant");
    const settings = { variant, "match-length": Number(data.get("length")) };
    // the cube's settings go with a variant whose cube is on by default (the server's facts)
    if ((await rules)[variant]?.["cube-by-default"] ?? true) {
      settings.cube = data.get("cube") === "on";
      settings.crawford = data.get("crawford") === "on";
      settings.jacoby = data.get("jacoby") === "on";
      settings.beaver = data.get("beaver") === "on";
    }
    const opponent = data.get("opponent");
    const request = { settings, opponent };
    const clock = data.get("clock");
    if (clock === "custom") {
      // the reserve is asked in minutes (per point; per game in money play), sent in seconds
      request.clock = { delay: Number(data.get("delay")), reserve: Math.round(60_000 * Number(data.get("reserve"))) / 1000, "per-point": true };
    } else if (clock !== "none") {
      request.clock = clock;
    }
    if (opponent === OPPONENT.BOT) {
      request.bot = data.get("bot");
      request["bot-delay-ms"] = Number(data.get("pace"));
      request.practice = data.get("practice") === "on";
    }
    const button = form.querySelector("#create-button");
    button.disabled = true; // and the key: a Start that lands twice makes one game
    try {
      const game = await api.createGame(request, startKey);
      startKey = api.requestKey();
      if (game.invitation) {
        const link = `${location.origin}/invite/${game.invitation}`;
        const box = main.querySelector("#invitation");
        box.hidden = false;
        box.innerHTML = `${escapeHtml(t("lobby.invitation"))} <a href="/game/${encodeURIComponent(game.id)}" data-link class="go" data-i18n="lobby.to-room"></a><input readonly value="${escapeHtml(link)}" aria-label="">`;
        translate(box);
        box.querySelector("input").setAttribute("aria-label", t("lobby.invitation"));
        box.querySelector("input").select();
      } else {
        navigate(`/game/${game.id}`);
      }
    } catch (err) {
      notice(errorText(err), "warn", 6000);
    } finally {
      button.disabled = false;
    }
  });
  const tableForm = main.querySelector("#create-table");
  let tableKey = api.requestKey(); // one per table the player means to open
  // how many of the table's seats the computer takes: a chouette's chosen number (at most all
  // but one), a consultation's one when its second side is the computer
  const tableBots = (data) =>
    data.get("kind") === GAME_KIND.CHOUETTE ? Math.min(Number(data.get("bots")), Number(data.get("seats")) - 1) : Number(data.get("side1")) === 0 ? 1 : 0;
  const showKind = () => {
    const data = new FormData(tableForm);
    const kind = data.get("kind");
    for (const el of tableForm.querySelectorAll(".for-chouette")) el.hidden = kind !== GAME_KIND.CHOUETTE;
    for (const el of tableForm.querySelectorAll(".for-consultation")) el.hidden = kind !== GAME_KIND.CONSULTATION;
    // the computer's pace and strength only where the computer sits at the table
    for (const el of tableForm.querySelectorAll(".for-table-bot")) el.hidden = !tableBots(data);
  };
  showKind();
  tableForm.addEventListener("change", showKind);
  tableForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(tableForm);
    const kind = data.get("kind");
    const request = { kind, settings: { variant: data.get("variant") } };
    const bots = tableBots(data);
    if (kind === GAME_KIND.CHOUETTE) {
      request.settings["match-length"] = 0; // a chouette is money play
      request.seats = Number(data.get("seats"));
      request.bots = bots;
    } else {
      request.settings["match-length"] = Number(data.get("length"));
      request.sides = [Number(data.get("side0")), Number(data.get("side1"))];
    }
    if (bots) {
      request.bot = data.get("table-bot");
      request["bot-delay-ms"] = Number(data.get("table-pace"));
    }
    try {
      const table = await api.createTable(request, tableKey);
      tableKey = api.requestKey();
      navigate(`/game/${table.id}`);
    } catch (err) {
      notice(errorText(err), "warn", 6000);
    }
  });
  const refresh = async () => {
    const list = main.querySelector("#seeks");
    try {
      const open = await api.seeks();
      // one's own seek is withdrawn here, not joined
      const seekButton = (g) => (g.players[0]?.id === user?.id
        ? `<button type="button" class="quiet" data-cancel="${escapeHtml(g.id)}">${escapeHtml(t("lobby.cancel"))}</button>`
        : `<button type="button" data-join="${escapeHtml(g.id)}">${escapeHtml(t("lobby.join"))}</button>`);
      list.innerHTML = open.length
        ? open.map((g) => `<li><span>${describe(g)}</span>${seekButton(g)}</li>`).join("")
        : `<li class="empty">${escapeHtml(t("lobby.no-seeks"))}</li>`;
      const tables = await api.tables();
      main.querySelector("#tables").innerHTML = tables.length
        ? tables.map((g) => {
          const seats = g.kind === GAME_KIND.CONSULTATION && g.status === GAME_STATUS.OPEN
            ? [0, 1].map((side) => `<button type="button" data-table="${escapeHtml(g.id)}" data-side="${side}">${escapeHtml(side === 0 ? t("lobby.join-side-0") : t("lobby.join-side-1"))}</button>`).join("")
            : g.free > 0 ? `<button type="button" data-table="${escapeHtml(g.id)}">${escapeHtml(t("lobby.sit-down"))}</button>` : "";
          return `<li><span>${describe(g)} <span class="small">${escapeHtml(tn("table.free", g.free))}</span></span>
            <a href="/game/${encodeURIComponent(g.id)}" data-link class="small">${escapeHtml(t("lobby.watch"))}</a>${seats}</li>`;
        }).join("")
        : `<li class="empty">${escapeHtml(t("lobby.no-tables"))}</li>`;
      const mine = (await api.myGames()).filter((g) => g.status !== GAME_STATUS.CANCELLED);
      // a table is withdrawn by its creator while nobody else has sat down (as the server has it)
      const withdrawable = (g) => g.kind === GAME_KIND.MATCH || (g.members?.length === 1 && g.members[0].id === user?.id);
      const extra = (g) => {
        if (g.status === GAME_STATUS.FINISHED && g.kind === GAME_KIND.MATCH) return `<a class="small" href="/replay/${encodeURIComponent(g.id)}" data-link>${escapeHtml(t("lobby.replay"))}</a>`;
        if ((g.status === GAME_STATUS.OPEN || g.status === GAME_STATUS.INVITED) && withdrawable(g)) return `<button type="button" class="quiet" data-cancel="${escapeHtml(g.id)}">${escapeHtml(t("lobby.cancel"))}</button>`;
        return "";
      };
      main.querySelector("#mine").innerHTML = mine.length
        ? mine.slice(0, 20).map((g) => `<li><a href="/game/${encodeURIComponent(g.id)}" data-link>${describe(g)}</a> <span class="small">${escapeHtml(statusName(g.status))}</span> ${extra(g)}</li>`).join("")
        : `<li class="empty">${escapeHtml(t("lobby.no-games"))}</li>`;
      await drawLive(main.querySelector("#live"));
    } catch (err) {
      notice(errorText(err), "warn", 6000);
    }
  };
  main.querySelector(".lobby").addEventListener("click", async (e) => {
    const id = e.target.dataset?.cancel;
    if (!id) return;
    try {
      await api.cancelGame(id);
      notice(t("lobby.cancelled"), "ok", 3000);
    } catch (err) {
      notice(errorText(err), "warn", 6000);
    }
    refresh();
  });
  main.querySelector("#seeks").addEventListener("click", async (e) => {
    const id = e.target.dataset?.join;
    if (!id) return;
    try {
      await api.joinGame(id);
      navigate(`/game/${id}`);
    } catch (err) {
      notice(errorText(err), "warn", 6000);
      refresh();
    }
  });
  main.querySelector("#tables").addEventListener("click", async (e) => {
    const id = e.target.dataset?.table;
    if (!id) return;
    const side = e.target.dataset.side;
    try {
      await api.joinTable(id, side === undefined ? {} : { side: Number(side) });
      navigate(`/game/${id}`);
    } catch (err) {
      notice(errorText(err), "warn", 6000);
      refresh();
    }
  });
  main.querySelector("#refresh").addEventListener("click", refresh);
  await refresh();
}

function statusName(status) {
  const names = {
    [GAME_STATUS.OPEN]: () => t("status.open"),
    [GAME_STATUS.INVITED]: () => t("status.invited"),
    [GAME_STATUS.PLAYING]: () => t("status.playing"),
    [GAME_STATUS.FINISHED]: () => t("status.finished"),
    [GAME_STATUS.CANCELLED]: () => t("status.cancelled"),
    [GAME_STATUS.UNAVAILABLE]: () => t("status.unavailable"),
  };
  return names[status] ? names[status]() : status;
}
