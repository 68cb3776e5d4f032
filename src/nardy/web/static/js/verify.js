// Verifying the dice in the browser (docs/dice.md, scheme nardy-hmac-sha256-v1): the revealed
// server seed must hash (SHA-256) to the commitment published before the first roll, and
// every roll of the record must be the one HMAC-SHA256 over the seeds, the game id and the
// roll's number gives, read by rejection sampling. Nothing here trusts the server: the
// inputs are the record the player can download, the arithmetic is WebCrypto's.

import { DICE_SCHEME, EVENT } from "/js/vocab.js";

const ACCEPT = 252; // 7 x 36: each of the 36 ordered rolls takes exactly 7 byte values
const ascii = new TextEncoder();

/** Whether this browser can verify (WebCrypto exists only on https:// and localhost pages). */
export function canVerify() {
  return Boolean(globalThis.crypto?.subtle);
}

function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  if (typeof text !== "string" || !/^([0-9a-f]{2})+$/i.test(text)) throw new Error("not hex digits");
  return new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
}

/** A length-prefixed field: 4 bytes big-endian, then the bytes (so no two inputs collide). */
function field(bytes) {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

/** The HMAC message of block `block` of roll `n`. */
export function rollMessage(clientSeeds, gameId, n, block) {
  const parts = [
    field(ascii.encode(DICE_SCHEME)),
    field(ascii.encode(clientSeeds[0] ?? "")),
    field(ascii.encode(clientSeeds[1] ?? "")),
    field(ascii.encode(gameId)),
  ];
  const tail = new Uint8Array(12);
  const view = new DataView(tail.buffer);
  view.setBigUint64(0, BigInt(n));
  view.setUint32(8, block);
  parts.push(tail);
  const message = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    message.set(p, at);
    at += p.length;
  }
  return message;
}

/** Roll n as the seeds give it: [first die, second die]. */
export async function deriveRoll(key, clientSeeds, gameId, n) {
  for (let block = 0; ; block++) {
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, rollMessage(clientSeeds, gameId, n, block)));
    for (const byte of digest) {
      if (byte < ACCEPT) {
        const value = byte % 36;
        return [1 + Math.floor(value / 6), 1 + (value % 6)];
      }
    }
  }
}

/** The rolls of a record, in the order rolled: the dice of each opening-rolled and
 * dice-rolled event of its log (ties of the opening included). */
export function recordRolls(record) {
  return (record.log || [])
    .filter((e) => e.type === EVENT.OPENING_ROLLED || e.type === EVENT.DICE_ROLLED)
    .map((e) => [e.dice[0], e.dice[1]]);
}

/**
 * Check one game record. The answer: {revealed: false} when its server seed is not shown
 * yet; else {revealed: true, commitment: {expected, actual, ok}, rolls: [{n, recorded,
 * derived, ok}], ok} where ok says everything holds.
 */
export async function verifyRecord(record) {
  const dice = record.dice;
  if (!dice || !dice["server-seed"]) return { revealed: false };
  if (dice.scheme !== DICE_SCHEME) throw new Error(`unknown dice scheme ${dice.scheme}`);
  const seed = fromHex(dice["server-seed"]);
  const actual = hex(await crypto.subtle.digest("SHA-256", seed));
  const commitment = { expected: String(dice.commitment).toLowerCase(), actual };
  commitment.ok = commitment.expected === actual;
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const seeds = dice["client-seeds"] || [null, null];
  const rolls = [];
  for (const [n, recorded] of recordRolls(record).entries()) {
    const derived = await deriveRoll(key, seeds, dice["game-id"], n);
    rolls.push({ n, recorded, derived, ok: derived[0] === recorded[0] && derived[1] === recorded[1] });
  }
  return { revealed: true, commitment, rolls, ok: commitment.ok && rolls.every((r) => r.ok) };
}
