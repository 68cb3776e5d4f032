"""The database schema: one table per thing the server keeps. Alembic's migrations in
``nardy/server/store/migrations`` create exactly these; a test compares the two."""

from __future__ import annotations

import sqlalchemy as sa

from nardy.core.fair_dice import ROLLS
from nardy.server.games import GameKind

metadata = sa.MetaData()

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # The name as the user typed it, and its case-folded key that makes names unique.
    sa.Column("username", sa.String(32), nullable=False),
    sa.Column("username_key", sa.String(32), nullable=False, unique=True),
    # argon2id hash; NULL for a guest, who has no password until claiming an account.
    sa.Column("password_hash", sa.String(256), nullable=True),
    sa.Column("is_guest", sa.Boolean, nullable=False),
    sa.Column("preferences", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    # SHA-256 of the cookie's token: a copy of the database does not sign anyone in.
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("settings", sa.JSON, nullable=False),
    # Where the game stands (nardy.server.games.GameStatus): open (a seek or table waiting
    # for its people), invited (a private invitation), playing, finished, cancelled
    # (withdrawn by its creator before anyone joined).
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("invite_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("creator_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("seat0_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
    sa.Column("seat1_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
    # The bot's level when the computer holds seat 1.
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("bot_delay_ms", sa.Integer, nullable=False),
    # A practice game against the bot (chosen when it is created, or switched on during it
    # for good): its human player may ask for hints, and it is never rated.
    sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    # How many actions have been accepted; the action log holds exactly this many rows.
    sa.Column("seq", sa.Integer, nullable=False),
    # The game object's checkpoint (nardy.server.store.checkpoints): the core's snapshot after
    # action "snapshot_seq" (NULL before the first), and the dice source's secret state and
    # public commitment as they were then (before the first action: the first game's). The
    # actions after it, replayed, give the game as it is: a snapshot is not written on
    # every action, only every few, when a game starts, when it ends and with a dice seed.
    sa.Column("snapshot", sa.JSON, nullable=True),
    sa.Column("dice", sa.JSON, nullable=True),
    sa.Column("snapshot_seq", sa.Integer, nullable=False, server_default="0"),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    # The game's clock (nardy.server.clocks: delay, reserve, per-point; NULL: none) and where
    # it stands after the last accepted action (NULL before the first).
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("clock_state", sa.JSON, nullable=True),
    # What the room holds (nardy.server.games.GameKind): a two-player match, a chouette or a
    # consultation game (whose people are in table_members, their seats and bots in
    # "seating"). Migration 0005 wrote the same default as text: a migration keeps the
    # schema as it was then, not the code's names now.
    sa.Column("kind", sa.String(16), nullable=False, server_default=GameKind.MATCH.value),
    sa.Column("seating", sa.JSON, nullable=True),
    # Why the server could not restore this game from its data (NULL: it can): a game set
    # aside is not resumed; its players see it as unavailable. An operator who repairs the
    # row clears this, and the game resumes.
    sa.Column("unavailable", sa.Text, nullable=True),
    # A quick pairing's seek ("Play now": paired by rating, not listed with the seeks), the
    # last sign of life of a public seek's creator (a seek whose creator is gone for the
    # grace period is withdrawn), and the creator's idempotency key of the request that
    # made the game (a repeated request finds this game instead of making another).
    sa.Column("quick", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("request_key", sa.String(64), nullable=True),
    # When the last action was accepted (NULL before the first): a game nobody has moved in
    # for a while (its players gone, no clock to end it) is still being played, but it is
    # not listed to watch.
    sa.Column("moved_at", sa.DateTime(timezone=True), nullable=True),
    sa.UniqueConstraint("creator_id", "request_key", name="uq_games_request_key"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("events", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column(
        "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    ),
    # The rating pool (nardy.server.ratings.rating_rule): a variant, or its money pool.
    sa.Column("pool", sa.String(32), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    # Match points completed (the FIBS experience).
    sa.Column("experience", sa.Integer, nullable=False),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    # Which rated outcome of the game (nardy.server.ratings.rated_outcomes): 0 for a match;
    # in money play one per game won.
    sa.Column("outcome", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("pool", sa.String(32), nullable=False),
    sa.Column("before", sa.Float, nullable=False),
    sa.Column("after", sa.Float, nullable=False),
)

table_members = sa.Table(
    "table_members",
    metadata,
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    # The member's name in the core's chouette or consultation ("u" and the user's id).
    sa.Column("name", sa.String(40), nullable=False),
    # The consultation side (0 or 1); NULL in a chouette.
    sa.Column("side", sa.Integer, nullable=True),
    # False once the member has left the chouette (between games).
    sa.Column("seated", sa.Boolean, nullable=False),
    # The member's own result at the table so far: the chouette's running score, or the
    # points their side won less those it lost in a consultation.
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
)

chat_lines = sa.Table(
    "chat_lines",
    metadata,
    # The order lines were said in, the same for every server process.
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("username", sa.String(32), nullable=False),
    # The speaker's seat when they said it; NULL for a spectator (hidden from the players
    # while the game runs).
    sa.Column("seat", sa.Integer, nullable=True),
    # At a chouette table or in a consultation game, the speaker's name there instead of a
    # seat (table_members.name); NULL for a spectator and in a two-player game.
    sa.Column("member", sa.String(40), nullable=True),
    sa.Column("text", sa.String(300), nullable=False),
    sa.Column("said_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_chat_lines_game", "game_id", "id"),
)

chat_mutes = sa.Table(
    "chat_mutes",
    metadata,
    # A user who muted the chat of one room: a row while muted.
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column(
        "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    ),
)


ROLL_COLUMNS = tuple(f"r{high}{low}" for high, low in ROLLS)
"""A tally's column for each of the 21 rolls, higher die first: ``r66``, ``r65`` ... ``r11``."""

dice_tallies = sa.Table(
    "dice_tallies",
    metadata,
    # How many times each roll came up in one game (match) so far: the public dice page sums
    # these instead of deriving every roll ever dealt again (nardy.server.dicestats).
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    # The game's action count when it was counted: a game whose seq has moved is counted again.
    sa.Column("seq", sa.Integer, nullable=False),
    *(sa.Column(name, sa.Integer, nullable=False) for name in ROLL_COLUMNS),
)

analyses = sa.Table(
    "analyses",
    metadata,
    # A finished match's analysis (nardy.server.analysis): one per game, asked by one user.
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    # queued, running, done or failed (nardy.server.analysis.jobs.JobStatus).
    sa.Column("status", sa.String(16), nullable=False),
    # The server process whose queue holds the job (its rooms' token): the queue's order is
    # per process.
    sa.Column("worker", sa.String(16), nullable=False),
    sa.Column("ply", sa.Integer, nullable=False),
    # Turns judged so far, of how many (0 of 0 before the job starts).
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    # The result (nardy.server.analysis.work.analyse_records) once done; why, once failed.
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
    # Written by the process holding the job at least every few seconds while it waits or
    # runs: a job not heard of for longer was lost with its process (a crash).
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_analyses_status", "status", "worker"),
)
