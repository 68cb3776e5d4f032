// The client's entry: who is signed in, the language, the preferences, and which page the
// address shows: sign-in (or guest), the lobby, a game room, an invitation.

import * as api from "/js/api.js";
import { ENDONYMS, LANGUAGES, browserLanguage, language, onLanguage, setLanguage, t, translate } from "/js/i18n.js";
import { Room, escapeHtml } from "/js/room.js";
import { clearNotice, notice } from "/js/ui.js";
import { drawLive, lobbyPage } from "/js/lobby.js";
import { errorText } from "/js/names.js";
import { profilePage } from "/js/profile.js";
import { Replay } from "/js/replay.js";
import { rulesPage } from "/js/rules.js";
import { dicePage } from "/js/dice.js";
import { PREFERENCES } from "/js/vocab.js";

const STORED = "nardy.preferences";
let saving = Promise.resolve(); // the last preference change sent to the server
let user = null;
let room = null;
let view = null; // a page that keeps its own state across a change of language (a replay)
let cameFrom = "/lobby"; // the page a guest left to keep their account, to go back to
let here = null; // the timer that tells the server this browser is open: its seeks stay

// The preferences under their wire names (GET /api/me/preferences) as a new user has them (the
// server's accounts.Preferences), all but the language: the one list the profile's form and the
// room's options panel are drawn from, and what this browser keeps for a visitor not signed in.
const { language: _language, ...DEFAULTS } = PREFERENCES;

/** The preferences that change the page: the server's for a signed-in user, else this browser's. */
export const prefs = {
  ...DEFAULTS,
  /** The preferences other than the language, under their wire names, as they are now. */
  board() {
    return Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, this[k]]));
  },
  /** Change some preferences: applied at once, kept in this browser and, for a signed-in
   * user, on the server. True when the server (if any) took them. */
  async save(changes) {
    applyPreferences(changes);
    if (changes.language && changes.language !== language()) await setLanguage(changes.language);
    localStorage.setItem(STORED, JSON.stringify({ ...this.board(), language: language() }));
    if (user) {
      // one change at a time: the server merges each into what it holds, so two in flight
      // at once would each keep the other's old value
      const request = saving.then(() => api.savePreferences(changes));
      saving = request.catch(() => {});
      try {
        user.preferences = await request;
      } catch (err) {
        notice(errorText(err), "warn", 5000);
        return false;
      }
    }
    return true;
  },
};

/** Take the page's preferences from these (the account's, or a change); the language is
 * set by whoever calls, since loading a catalogue waits. */
function applyPreferences(values) {
  for (const [key, value] of Object.entries(values)) {
    if (key in DEFAULTS && typeof value === typeof DEFAULTS[key]) prefs[key] = value;
  }
  // no moving pieces for a player who turned animation off
  document.documentElement.classList.toggle("still", !prefs.animation);
}

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
      <a class="me" href="/u/${encodeURIComponent(user.username)}" data-link>${escapeHtml(user.username)}</a>
      ${user.guest ? `<a href="/claim" data-link data-i18n="nav.claim"></a>` : ""}
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
    applyPreferences(user.preferences);
    if (user.preferences.language !== language() && LANGUAGES.includes(user.preferences.language)) {
      await setLanguage(user.preferences.language);
    }
  }
  header();
  stayHere();
}

/** While someone is signed in, say now and then that this browser is open: a seek lives only
 * while its creator is here (a closed browser's are withdrawn after the grace period). */
function stayHere() {
  clearTimeout(here);
  if (!user) return;
  api.stillHere().then((r) => r["ask-again"], () => 10).then((seconds) => {
    here = setTimeout(stayHere, 1000 * seconds);
  });
}

/** A new account's fields: its name and password, and what each may be. */
const NEW_ACCOUNT = `<label><span data-i18n="auth.username"></span><input name="username" autocomplete="username" required minlength="3" maxlength="20"></label>
          <label><span data-i18n="auth.password"></span><input name="password" type="password" autocomplete="new-password" required minlength="8"></label>
          <p class="small" data-i18n="auth.rules"></p>`;

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
          ${NEW_ACCOUNT}
          <button class="primary" data-i18n="auth.signup-button"></button>
        </form>
      </div>
      <div class="card live">
        <h2 data-i18n="lobby.live"></h2>
        <ul id="live"></ul>
      </div>
    </section>`;
  translate(main);
  drawLive(main.querySelector("#live")); // anybody may watch, without an account
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

/** A guest keeps their account: a name and a password, and every game, rating and
 * preference carries over (the same account, named); then back to the page they came from,
 * where their open games now show the new name (the server tells the rooms). */
function claimPage(main, back) {
  main.innerHTML = `
    <section class="auth">
      <h1 data-i18n="claim.title"></h1>
      <p class="lead" id="claim-lead"></p>
      <div class="forms">
        <form id="claim" class="card">
          ${NEW_ACCOUNT}
          <button class="primary" data-i18n="claim.button"></button>
        </form>
      </div>
    </section>`;
  translate(main);
  main.querySelector("#claim-lead").textContent = t("claim.lead", { name: user.username });
  main.querySelector("#claim").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    try {
      await signedIn(await api.signUp(form.get("username"), form.get("password")), false);
      notice(t("claim.done", { name: user.username }), "ok", 5000);
      history.replaceState(null, "", back); // the claim page is not one to come back to
      route();
    } catch (err) {
      notice(errorText(err), "warn", 6000);
    }
  });
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
  if (view) {
    view.close();
    view = null;
  }
  const main = document.getElementById("main");
  const path = location.pathname;
  if (path !== "/claim") cameFrom = path;
  const gameMatch = path.match(/^\/game\/([^/]+)$/);
  const inviteMatch = path.match(/^\/invite\/([^/]+)$/);
  const profileMatch = path.match(/^\/u\/([^/]+)$/);
  const replayMatch = path.match(/^\/replay\/([^/]+)$/);
  const rulesMatch = path.match(/^\/rules(?:\/([^/]+))?$/);
  if (rulesMatch) {
    // public pages: no sign-in needed
    await rulesPage(main, decodeURIComponent(rulesMatch[1] || "backgammon"), chooseLanguage);
  } else if (profileMatch) {
    await profilePage(main, decodeURIComponent(profileMatch[1]), { user, prefs });
  } else if (replayMatch) {
    view = new Replay(main, decodeURIComponent(replayMatch[1]), { user, prefs });
  } else if (path === "/dice") {
    await dicePage(main);
  } else if (gameMatch) {
    // anybody may watch a public game; a visitor signed in as nobody is a spectator
    room = new Room(main, decodeURIComponent(gameMatch[1]), prefs, navigate, { anonymous: !user });
  } else if (path === "/claim") {
    if (user?.guest) return claimPage(main, cameFrom);
    history.replaceState(null, "", user ? "/lobby" : "/signin"); // nothing to keep here
    return route();
  } else if (inviteMatch) {
    await invitationPage(main, decodeURIComponent(inviteMatch[1]));
  } else if (path === "/signin" || !user) {
    signInPage(main);
  } else {
    await lobbyPage(main, { user, navigate, prefs });
  }
}

/** Change the language (the header's menu and the rules pages' links) and remember it. */
async function chooseLanguage(lang) {
  await setLanguage(lang);
  prefs.save({ language: lang });
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
  select.addEventListener("change", () => chooseLanguage(select.value));
  onLanguage((lang) => (select.value = lang));
}

async function start() {
  const saved = stored();
  applyPreferences(saved);
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
    if (!room && !view) route();
  });
  await route();
  document.body.dataset.ready = "1";
}

start();
