// The client's entry: who is signed in, the language, the preferences, and which page the
// address shows: sign-in (or guest), the lobby, a game room, an invitation.

import * as api from "/js/api.js";
import { ENDONYMS, LANGUAGES, browserLanguage, language, onLanguage, setLanguage, t, translate } from "/js/i18n.js";
import { Room, escapeHtml } from "/js/room.js";
import { clearNotice, notice } from "/js/ui.js";
import { lobbyPage } from "/js/lobby.js";
import { errorText } from "/js/names.js";

const STORED = "nardy.preferences";
let user = null;
let room = null;

// The board's preferences under their wire names (GET /api/me/preferences), as a new user has them.
const BOARD_DEFAULTS = {
  home: "bottom-right",
  "auto-switch-side": true,
  "auto-pass": true,
  "auto-roll": false,
  "auto-play-forced": false,
  "auto-bear-off": false,
  sound: true,
  animation: true,
};

/** The preferences that change the page: the server's for a signed-in user, else this browser's. */
export const prefs = {
  ...BOARD_DEFAULTS,
  /** The board's preferences alone (no language), as saved. */
  board() {
    return Object.fromEntries(Object.keys(BOARD_DEFAULTS).map((k) => [k, this[k]]));
  },
  async save(changes) {
    Object.assign(this, changes);
    localStorage.setItem(STORED, JSON.stringify({ ...this.board(), language: language() }));
    if (user) {
      try {
        user.preferences = await api.savePreferences(changes);
      } catch (err) {
        notice(errorText(err), "warn", 5000);
      }
    }
  },
};

function stored() {
  try {
    return JSON.parse(localStorage.getItem(STORED) || "{}");
  } catch {
    return {};
  }
}

export function navigate(path) {
  history.pushState(null, "", path);
  route();
}

function header() {
  const who = document.getElementById("who");
  if (!user) {
    who.innerHTML = `<a href="/signin" data-link data-i18n="nav.signin"></a>`;
  } else {
    who.innerHTML = `<a href="/lobby" data-link data-i18n="nav.lobby"></a>
      <span class="me">${escapeHtml(user.username)}</span>
      ${user.guest ? `<a href="/signin" data-link data-i18n="nav.claim"></a>` : ""}
      <button type="button" class="link" id="signout" data-i18n="nav.signout"></button>`;
    who.querySelector("#signout").addEventListener("click", async () => {
      await api.signOut();
      user = null;
      navigate("/signin");
    });
  }
  translate(who);
}

/** After signing in: the account's preferences win over this browser's. */
async function signedIn(data, fresh) {
  user = data.user;
  if (fresh) {
    // a new account (or guest) starts with the language and board this browser already uses
    await prefs.save({ language: language(), ...prefs.board() });
  } else {
    for (const key of Object.keys(BOARD_DEFAULTS)) if (key in user.preferences) prefs[key] = user.preferences[key];
    if (user.preferences.language !== language() && LANGUAGES.includes(user.preferences.language)) {
      await setLanguage(user.preferences.language);
    }
  }
  header();
}

function signInPage(main, then = "/lobby") {
  main.innerHTML = `
    <section class="auth">
      <h1 data-i18n="auth.title"></h1>
      <p class="lead" data-i18n="auth.lead"></p>
      <button type="button" class="primary big" id="guest" data-i18n="auth.guest"></button>
      <div class="forms">
        <form id="signin" class="card">
          <h2 data-i18n="auth.signin"></h2>
          <label><span data-i18n="auth.username"></span><input name="username" autocomplete="username" required></label>
          <label><span data-i18n="auth.password"></span><input name="password" type="password" autocomplete="current-password" required></label>
          <button class="primary" data-i18n="auth.signin-button"></button>
        </form>
        <form id="signup" class="card">
          <h2 data-i18n="auth.signup"></h2>
          <label><span data-i18n="auth.username"></span><input name="username" autocomplete="username" required minlength="3" maxlength="20"></label>
          <label><span data-i18n="auth.password"></span><input name="password" type="password" autocomplete="new-password" required minlength="8"></label>
          <p class="small" data-i18n="auth.rules"></p>
          <button class="primary" data-i18n="auth.signup-button"></button>
        </form>
      </div>
    </section>`;
  translate(main);
  const fail = (err) => notice(errorText(err), "warn", 6000);
  main.querySelector("#guest").addEventListener("click", async () => {
    try {
      await signedIn(await api.guest(), true);
      navigate(then);
    } catch (err) {
      fail(err);
    }
  });
  for (const [id, call, fresh] of [["signin", api.signIn, false], ["signup", api.signUp, true]]) {
    main.querySelector(`#${id}`).addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = new FormData(e.target);
      try {
        await signedIn(await call(form.get("username"), form.get("password")), fresh);
        clearNotice();
        navigate(then);
      } catch (err) {
        fail(err);
      }
    });
  }
}

async function invitationPage(main, token) {
  if (!user) return signInPage(main, location.pathname);
  try {
    const game = await api.acceptInvitation(token);
    navigate(`/game/${game.id}`);
  } catch (err) {
    main.innerHTML = `<p class="card">${escapeHtml(t("error.no-such-game"))}</p>`;
  }
}

export async function route() {
  if (room) {
    room.close();
    room = null;
  }
  const main = document.getElementById("main");
  const path = location.pathname;
  const gameMatch = path.match(/^\/game\/([^/]+)$/);
  const inviteMatch = path.match(/^\/invite\/([^/]+)$/);
  if (gameMatch) {
    if (!user) return signInPage(main, path);
    room = new Room(main, decodeURIComponent(gameMatch[1]), prefs);
  } else if (inviteMatch) {
    await invitationPage(main, decodeURIComponent(inviteMatch[1]));
  } else if (path === "/signin" || !user) {
    signInPage(main);
  } else {
    await lobbyPage(main, { user, navigate, prefs });
  }
}

function languageMenu() {
  const select = document.getElementById("language");
  select.replaceChildren(
    ...LANGUAGES.map((code) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = ENDONYMS[code];
      return option;
    }),
  );
  select.value = language();
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    prefs.save({ language: select.value });
  });
  onLanguage((lang) => (select.value = lang));
}

async function start() {
  const saved = stored();
  for (const key of Object.keys(BOARD_DEFAULTS)) {
    if (typeof saved[key] === typeof BOARD_DEFAULTS[key]) prefs[key] = saved[key];
  }
  await setLanguage(saved.language || browserLanguage());
  languageMenu();
  try {
    const data = await api.session();
    if (data.user) await signedIn(data, false);
  } catch (err) {
    notice(t("connection.lost"), "warn");
  }
  header();
  document.addEventListener("click", (e) => {
    const link = e.target.closest("a[data-link]");
    if (link && link.origin === location.origin && !e.metaKey && !e.ctrlKey) {
      e.preventDefault();
      navigate(link.pathname);
    }
  });
  addEventListener("popstate", route);
  onLanguage(() => {
    header();
    if (!room) route();
  });
  await route();
  document.body.dataset.ready = "1";
}

start();
