// What the room says and sounds as events arrive: the opponent's dice and moves, the cube,
// resignations, a table's votes and answers, the end of a game — announced in the aria-live
// region for a player who does not see the board — and the sounds of dice and checkers.

import { t, tn } from "/js/i18n.js";
import { sound } from "/js/sound.js";
import { announce, notice } from "/js/ui.js";
import { EVENT } from "/js/vocab.js";

/** What is said of a player who lost by forfeit, by its reason (the replay says it too). */
export const FORFEIT_SAID = {
  time: (params) => t("say.forfeit-time", params),
  absent: (params) => t("say.forfeit-absent", params),
};

function diceLine(dice) {
  return dice.join("-");
}

/**
 * Say what these events did. `you` is the state's viewer ({seat, side}): a board's events
 * name a side (0 or 1), a table's a person, so an event is the viewer's own when it names
 * either. `name(who)` names a side or a person; `loud` is the sound option; `before` the
 * state the events came after (what the board showed), or null.
 */
export function say(events, { you, name, loud, before = null }) {
  for (const e of events) {
    const mine = e.player === you.seat || (you.side !== null && e.player === you.side);
    const other = e.player !== undefined && !mine;
    const who = e.player !== undefined ? name(e.player) : "";
    if (e.type === EVENT.DICE_ROLLED || e.type === EVENT.OPENING_ROLLED) sound("dice", loud);
    if (e.type === EVENT.CHECKER_MOVED || e.type === EVENT.MOVE_UNDONE) sound("checker", loud);
    if (e.type === EVENT.DICE_ROLLED && !other) announce(t("say.you-rolled", { dice: diceLine(e.dice) }));
    if (e.type === EVENT.DICE_ROLLED && other) announce(t("say.rolled", { who, dice: diceLine(e.dice) }));
    else if (e.type === EVENT.CHECKER_MOVED && other) {
      announce(t("say.moved", { who, move: `${e.from === 25 ? t("notation.bar") : e.from}/${e.to === 0 ? t("notation.off") : e.to}${e.hit ? "*" : ""}` }));
    } else if (e.type === EVENT.PLAY_CONFIRMED && other) announce(t("say.played", { who, play: e.play || "—" }));
    else if (e.type === EVENT.NO_LEGAL_MOVE) announce(t("say.no-move", { who, dice: diceLine(e.dice) }));
    else if (e.type === EVENT.CUBE_OFFERED && other) announce(t("say.doubles", { who, value: e.value }));
    else if (e.type === EVENT.CUBE_TAKEN && other) announce(t("say.takes", { who, value: e.value }));
    else if (e.type === EVENT.CUBE_PASSED && other) announce(t("say.passes", { who }));
    else if (e.type === EVENT.OPENING_ROLLED) {
      announce(t("say.opening", { a: name(0), b: name(1), da: e.dice[0], db: e.dice[1] }));
    } else if (e.type === EVENT.RESIGNATION_OFFERED && other) announce(t("say.resigns", { who, points: e.level }));
    else if (e.type === EVENT.FORFEITED) {
      // the forfeit takes back the loser's unconfirmed moves: the board changes, say why
      const board = before?.board;
      const undone = board?.turn === e.player && board["moves-made"].length > 0;
      const lost = (FORFEIT_SAID[e.reason] ?? FORFEIT_SAID.absent)({ who });
      const text = undone ? `${lost} ${t("say.forfeit-undone", { who })}` : lost;
      announce(text);
      notice(text, "warn", 8000);
    } else if (e.type === EVENT.VOTE_CAST && other) announce(e.agree ? t("say.votes-for", { who }) : t("say.votes-against", { who }));
    else if (e.type === EVENT.DOUBLE_ANSWERED && other) announce(e.take ? t("say.member-takes", { who }) : t("say.member-passes", { who }));
    else if (e.type === EVENT.PLAYER_JOINED) announce(t("say.joined", { who }));
    else if (e.type === EVENT.PLAYER_LEFT) announce(t("say.left", { who }));
    else if (e.type === EVENT.GAME_OVER) {
      announce(e.winner === null ? t("say.draw") : tn("say.wins", e.points, { who: name(e.winner) }));
    }
  }
}
