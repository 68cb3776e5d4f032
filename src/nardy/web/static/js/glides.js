// What slides on the board: the checkers an `events` message moved, and the frames of the
// last play shown again. Both are drawing: where a hit checker was, the board finds with the
// variant's rule facts (`opponent-points`) as it does for every checker it draws; which
// moves were played and what stood where before them is the server's (`board.last-play`).

import { theirPoint } from "/js/board.js";
import { EVENT } from "/js/vocab.js";

/** The checkers that moved in these events (their wire form: `from`, `to`), to slide: each
 * in its owner's numbering. */
export function eventGlides(events, rules) {
  const moved = [];
  for (const e of events) {
    if (e.type === EVENT.CHECKER_MOVED) {
      moved.push({ seat: e.player, from: e.from, to: e.to });
      if (e.hit) moved.push({ seat: 1 - e.player, from: theirPoint(rules, e.to), to: 25 });
    } else if (e.type === EVENT.MOVE_UNDONE) {
      moved.push({ seat: e.player, from: e.to, to: e.from });
    }
  }
  return moved;
}

/** The dice of a roll as a board draws them: doubles four times. */
export function diceShown(dice) {
  return dice[0] === dice[1] ? Array(4).fill(dice[0]) : [...dice];
}

/**
 * The frames of the last play shown again (`board.last-play`: its player, dice, single
 * moves and the sides before it): the position before it, then after each single move, with
 * the checkers that moved to slide. Each frame: {sides, glide, step (moves made)}.
 */
export function lastPlayFrames(play, rules) {
  const mover = play.player;
  const sides = play.before.map((counts) => [...counts]);
  const frames = [{ sides: sides.map((c) => [...c]), glide: [], step: 0 }];
  play.moves.forEach(({ from, to, hit }, i) => {
    sides[mover][from] -= 1;
    sides[mover][to] += 1;
    const glide = [{ seat: mover, from, to }];
    if (hit) {
      const q = theirPoint(rules, to);
      sides[1 - mover][q] -= 1;
      sides[1 - mover][25] += 1;
      glide.push({ seat: 1 - mover, from: q, to: 25 });
    }
    frames.push({ sides: sides.map((c) => [...c]), glide, step: i + 1 });
  });
  return frames;
}
