// Who sits where in a room: the one place where a two-player match and a table (a chouette
// or a consultation, table.js) give different answers — the name of a side or a person,
// whether the viewer created the game that waits, what the panel beside the board shows,
// and which of the room's parts a kind of game has. The room asks `seatingOf(state)` once
// per drawing and never tells the kinds apart itself.

import { t } from "/js/i18n.js";
import { botName } from "/js/names.js";
import { TABLE_SEATING, isTable } from "/js/table.js";

/** A two-player match's answers (the table's are table.js's TABLE_SEATING). */
const MATCH_SEATING = {
  /** A seat's player (0 or 1), as people read it. */
  name(state, seat) {
    const player = state?.players?.[seat];
    if (!player) return t("room.waiting-player");
    if (player.bot) return t("room.bot", { level: botName(player.bot) });
    return player.username;
  },
  /** The creator sits at seat 0 while the game waits for an opponent. */
  creator: (state, you) => you.seat === 0,
  waitingText: () => t("room.waiting-opponent"),
  replayable: true,
  invites: true,
  /** Only a player types plays; a spectator has nothing to type. */
  types: (you) => you.seat !== null,
  scoreLine: () => true,
  /** Whether these open actions are a decision of the game's (any is, in a match). */
  decides: (kinds) => kinds.length > 0,
  /** The sides the game waits for now (the strips mark them): the seats it awaits. */
  acting: (state) => (state.board?.awaiting?.actors || []).map((a) => a.player),
  /** What a player the game does not wait for is told besides whom it waits for: nothing. */
  aside: () => null,
  /** A match's roll waits for no team's votes. */
  votesAwaited: () => null,
  panel: null, // no panel beside the board: the strips say it all
  buttons: () => {},
};

/** What the room asks of who sits where, for the kind of game this state is of. */
export function seatingOf(state) {
  return isTable(state) ? TABLE_SEATING : MATCH_SEATING;
}
