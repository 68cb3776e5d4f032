// The server's HTTP API (docs/protocol.md): JSON in and out, the CSRF token repeated in a
// header on every state-changing request, errors thrown with the server's stable code.

let csrf = null;

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

/** `key`: an idempotency key, so that the same request sent twice does its work once. */
async function call(method, path, body, key = null) {
  const headers = { Accept: "application/json" };
  if (key) headers["Idempotency-Key"] = key;
  if (method !== "GET") {
    if (csrf === null) await session();
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = csrf;
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "offline", String(err));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.error || "http", data?.message);
  if (data && typeof data.csrf === "string") csrf = data.csrf;
  return data;
}

/** {user, csrf}: who this browser is signed in as (user null when nobody). */
export async function session() {
  const data = await call("GET", "/api/session");
  csrf = data.csrf;
  return data;
}

export const signUp = (username, password) => call("POST", "/api/signup", { username, password });
export const signIn = (username, password) => call("POST", "/api/signin", { username, password });
export const guest = () => call("POST", "/api/guest");
export const signOut = () => call("POST", "/api/signout");
export const savePreferences = (changes) => call("PUT", "/api/me/preferences", changes);
/** A new game; `key` (an idempotency key) makes the same request sent twice make one game. */
export const createGame = (request, key) => call("POST", "/api/games", request, key);
/** Quick pairing: the game found, or one's quick seek waiting (asked again with `seek`). */
export const playNow = (request, key) => call("POST", "/api/quick", request, key);
/** This browser is still open: the user's seeks stay. */
export const stillHere = () => call("POST", "/api/me/here");
/** A fresh idempotency key, for one intent (a click on Start, however often it lands). */
export const requestKey = () => crypto.randomUUID();
export const seeks = () => call("GET", "/api/seeks");
export const variants = () => call("GET", "/api/variants");
export const joinGame = (id) => call("POST", `/api/games/${encodeURIComponent(id)}/join`);
export const acceptInvitation = (token) => call("POST", `/api/invitations/${encodeURIComponent(token)}`);
export const liveGames = () => call("GET", "/api/games/live");
export const myGames = () => call("GET", "/api/me/games");
export const game = (id) => call("GET", `/api/games/${encodeURIComponent(id)}`);
export const createTable = (request, key) => call("POST", "/api/tables", request, key);
export const tables = () => call("GET", "/api/tables");
export const joinTable = (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, body);
export const cancelGame = (id) => call("POST", `/api/games/${encodeURIComponent(id)}/cancel`);
export const profile = (name) => call("GET", `/api/users/${encodeURIComponent(name)}`);
export const history = (name, page = 1) => call("GET", `/api/users/${encodeURIComponent(name)}/games?page=${page}`);
export const replay = (id) => call("GET", `/api/games/${encodeURIComponent(id)}/replay`);
export const records = (id) => call("GET", `/api/games/${encodeURIComponent(id)}/record.json`);
/** Where the match downloads as a file: "json" (the records) or "mat" (GNU Backgammon). */
export const recordUrl = (id, kind) => `/api/games/${encodeURIComponent(id)}/record.${kind}`;
/** A finished match's analysis: where it stands, with it once done (docs/protocol.md). */
export const analysis = (id) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis`);
export const analyse = (id) => call("POST", `/api/games/${encodeURIComponent(id)}/analysis`);
export const analysisUrl = (id) => `/api/games/${encodeURIComponent(id)}/analysis.json`;
export const diceStats = () => call("GET", "/api/dice/stats");
