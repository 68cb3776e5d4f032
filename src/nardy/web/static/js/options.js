// The player's options that act by themselves (GET /api/me/preferences): passing when no
// move is legal, rolling when doubling (or a chouette team's vote to double) is impossible, bearing off in a race, playing a move
// that is the only one. Each reads only what the server sent: the actions open to the
// viewer, the legal single moves, and whether the board is a race (`board.race`).

import { ACTION } from "/js/vocab.js";

/** The action one of the player's options takes now, or null. */
export function optionAction(prefs, kinds, board) {
  const moving = kinds.includes(ACTION.MOVE);
  if (prefs["auto-pass"] && kinds.includes(ACTION.PLAY) && !moving && !kinds.includes(ACTION.CONFIRM)) return { type: ACTION.PLAY, moves: "" };
  // a chouette captain's vote is the team's double: no rolling by itself past it either
  const mayDouble = kinds.includes(ACTION.DOUBLE) || kinds.includes(ACTION.VOTE);
  if (prefs["auto-roll"] && kinds.includes(ACTION.ROLL) && !mayDouble) return { type: ACTION.ROLL };
  if (!moving || !board) return null;
  const legal = board.awaiting.moves;
  if (prefs["auto-bear-off"] && board.race) {
    // the checker from the highest point that can go: no die is wasted on a lower one
    const off = legal.filter((m) => m.to === 0).sort((a, b) => b.from - a.from);
    if (off.length) return { type: ACTION.MOVE, from: off[0].from, to: 0 };
  }
  if (prefs["auto-play-forced"] && legal.length === 1) {
    const [m] = legal;
    return { type: ACTION.MOVE, from: m.from, to: m.to };
  }
  return null;
}
