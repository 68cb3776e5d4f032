// The lobby: create a game (variant, length, cube settings; an open seek, a private
// invitation or the bot), join the open seeks, go back to one's games.

import * as api from "/js/api.js";
import { t, tn, translate } from "/js/i18n.js";
import { BOT_LEVELS, VARIANT_KEYS, botName, errorText, variantName } from "/js/names.js";
import { escapeHtml } from "/js/room.js";
import { notice } from "/js/ui.js";

const LENGTHS = [1, 3, 5, 7, 9, 11, 0];

function lengthName(n) {
  return n === 0 ? t("lobby.money") : tn("lobby.points", n);
}

export async function lobbyPage(main, { user, navigate }) {
  main.innerHTML = `
    <section class="lobby">
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
          <option value="blitz" data-i18n="clock.blitz"></option>
          <option value="standard" data-i18n="clock.standard"></option>
          <option value="slow" data-i18n="clock.slow"></option>
          <option value="custom" data-i18n="clock.custom"></option>
        </select></label>
        <fieldset class="custom-clock" id="custom-clock" hidden>
          <label class="sub"><span data-i18n="clock.delay-seconds"></span><input type="number" name="delay" min="0" max="600" step="any" value="12"></label>
          <label class="sub"><span data-i18n="clock.reserve-minutes"></span><input type="number" name="reserve" min="0.01" max="600" step="any" value="2"></label>
        </fieldset>
        <fieldset class="opponent">
          <legend data-i18n="lobby.opponent"></legend>
          <label><input type="radio" name="opponent" value="open" checked><span data-i18n="lobby.open"></span></label>
          <label><input type="radio" name="opponent" value="invite"><span data-i18n="lobby.invite"></span></label>
          <label><input type="radio" name="opponent" value="bot"><span data-i18n="lobby.bot"></span></label>
          <label class="sub"><span data-i18n="lobby.bot-pace"></span><select name="pace">
            <option value="250" data-i18n="pace.fast"></option>
            <option value="1000" selected data-i18n="pace.human"></option>
            <option value="2500" data-i18n="pace.slow"></option>
          </select></label>
          <select name="bot" aria-label="">${BOT_LEVELS.map((b) => `<option value="${b}"${b === "intermediate" ? " selected" : ""}>${escapeHtml(botName(b))}</option>`).join("")}</select>
        </fieldset>
        <button class="primary" id="create-button" data-i18n="lobby.create-button"></button>
        <p class="invitation" id="invitation" hidden></p>
      </form>
      <div class="card seeks">
        <h2 data-i18n="lobby.seeks"></h2>
        <button type="button" class="link" id="refresh" data-i18n="lobby.refresh"></button>
        <ul id="seeks"></ul>
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
  const rules = api.variants().then(
    (list) => Object.fromEntries(list.map((facts) => [facts.key, facts])),
    () => ({}),
  );
  main.querySelector('select[name="bot"]').setAttribute("aria-label", t("lobby.bot-level"));
  const form = main.querySelector("#create");
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
    if (opponent === "bot") {
      request.bot = data.get("bot");
      request["bot-delay-ms"] = Number(data.get("pace"));
    }
    try {
      const game = await api.createGame(request);
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
    }
  });
  const describe = (game) => {
    const s = game.settings;
    const who = game.players.filter(Boolean).map((p) => (p.bot ? botName(p.bot) : p.username)).join(" – ");
    const clock = game.clock ? ` · ${escapeHtml(t("lobby.clock-seek", { delay: game.clock.delay, minutes: Number((game.clock.reserve / 60).toFixed(2)) }))}` : "";
    return `${escapeHtml(variantName(s.variant))}, ${escapeHtml(lengthName(s["match-length"]))}${clock} · ${escapeHtml(who)}`;
  };
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
      const mine = (await api.myGames()).filter((g) => g.status !== "cancelled");
      const extra = (g) => {
        if (g.status === "finished") return `<a class="small" href="/replay/${encodeURIComponent(g.id)}" data-link>${escapeHtml(t("lobby.replay"))}</a>`;
        if (g.status === "open" || g.status === "invited") return `<button type="button" class="quiet" data-cancel="${escapeHtml(g.id)}">${escapeHtml(t("lobby.cancel"))}</button>`;
        return "";
      };
      main.querySelector("#mine").innerHTML = mine.length
        ? mine.slice(0, 20).map((g) => `<li><a href="/game/${encodeURIComponent(g.id)}" data-link>${describe(g)}</a> <span class="small">${escapeHtml(statusName(g.status))}</span> ${extra(g)}</li>`).join("")
        : `<li class="empty">${escapeHtml(t("lobby.no-games"))}</li>`;
      const live = await api.liveGames();
      main.querySelector("#live").innerHTML = live.length
        ? live.slice(0, 30).map((g) => `<li><span>${describe(g)}</span><a class="watch" href="/game/${encodeURIComponent(g.id)}" data-link data-watch="${escapeHtml(g.id)}">${escapeHtml(t("lobby.watch"))}</a></li>`).join("")
        : `<li class="empty">${escapeHtml(t("lobby.no-live"))}</li>`;
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
  main.querySelector("#refresh").addEventListener("click", refresh);
  await refresh();
}

function statusName(status) {
  const names = {
    open: () => t("status.open"),
    invited: () => t("status.invited"),
    playing: () => t("status.playing"),
    finished: () => t("status.finished"),
    cancelled: () => t("status.cancelled"),
  };
  return names[status] ? names[status]() : status;
}
