"""The database: SQLAlchemy 2 over SQLite or PostgreSQL, migrated by Alembic at start-up.

Every method is synchronous and runs one transaction; the web layer calls them from a worker
thread so that the event loop never waits on the disk. The action log is the truth of a game:
:meth:`Store.append_action` writes an action and its events (and, at a checkpoint, the
snapshot and the dice after it: :mod:`nardy.server.store.checkpoints`) in one transaction, and
refuses it when another writer got there first (``seq`` moved), so the database serialises
each game's actions even with several processes.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite
from alembic import command
from alembic.config import Config

from nardy.server.games import SITTING, TABLE_KINDS, WAITING, GameKind, GameStatus
from nardy.server.ratings import Rating, rate_match
from nardy.server.store.checkpoints import Checkpoint, ReplayError
from nardy.server.store.schema import (
    ROLL_COLUMNS,
    actions,
    chat_lines,
    chat_mutes,
    dice_tallies,
    games,
    metadata,
    rating_changes,
    ratings,
    table_members,
    users,
)
from nardy.server.store.schema import sessions as sessions_table


class StoreError(Exception):
    """The database refused a write the server expected to succeed."""


class ConflictError(StoreError):
    """Someone else changed the row first (a name taken, a seat filled, an action raced)."""


def now() -> datetime.datetime:
    """The current time in UTC."""
    return datetime.datetime.now(datetime.UTC)


def _utc(value: datetime.datetime | None) -> datetime.datetime | None:
    # SQLite keeps no time zone: what the server wrote was UTC.
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=datetime.UTC)


def _json_or_text(text: str) -> Any:
    """A JSON column's value; its text as it is where it is not JSON (SQLite keeps any text:
    a row damaged outside the server), so that reading it fails only that game
    (:func:`_game` sets it aside), never the list it is in."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def create_engine(url: str) -> sa.Engine:
    """An engine for the URL; SQLite gets write-ahead logging and foreign keys, so readers do
    not wait for a writer and the schema's references hold."""
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            json_deserializer=_json_or_text,
        )

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def migrate(engine: sa.Engine) -> None:
    """Create or upgrade the schema to the newest migration shipped in the package."""
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("nardy.server.store") / "migrations")
    )
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes may start at once: one migrates, the others wait for it.
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(7263519)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass(frozen=True, slots=True)
class User:
    """An account (or a guest, who has no password yet)."""

    id: int
    username: str
    is_guest: bool
    preferences: Mapping[str, Any]
    password_hash: str | None = None

    def public(self) -> dict[str, Any]:
        """What anyone may see of this user."""
        return {"id": self.id, "username": self.username, "guest": self.is_guest}


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as the database keeps it."""

    id: str
    settings: Mapping[str, Any]
    status: GameStatus
    private: bool
    creator_id: int
    seats: tuple[int | None, int | None]
    bot: str | None
    bot_delay_ms: int
    seq: int
    snapshot: Mapping[str, Any] | None
    dice: Mapping[str, Any] | None
    result: Mapping[str, Any] | None
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    clock: Mapping[str, Any] | None = None
    clock_state: Mapping[str, Any] | None = None
    kind: GameKind = GameKind.MATCH
    """What the room holds: a two-player match, a chouette or a consultation."""
    seating: Mapping[str, Any] | None = None
    """A chouette's or consultation's seats and bots (nardy.server.lobby.tables)."""
    unavailable: str | None = None
    """Why the server cannot restore this game from its data (None: it can); such a game is
    set aside, not resumed (:meth:`Store.set_aside`)."""
    snapshot_seq: int = 0
    """The action the stored ``snapshot`` and ``dice`` are at (a checkpoint: the actions
    after it, replayed, give the game at ``seq``)."""
    practice: bool = False
    """A practice game against the bot: its human player may ask for hints; never rated."""
    quick: bool = False
    """A quick pairing's seek ("Play now"): paired by rating, not listed with the seeks."""
    started_at: datetime.datetime | None = None
    """When the game began to be played (its players found; None while it waits)."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat (0 or 1) this user plays, or None for a spectator."""
        for seat, holder in enumerate(self.seats):
            if holder == user_id:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line said in a room's chat, as every server process reads it back: ``id`` orders
    the lines, ``seat`` is None for a spectator (at a table, the speaker's name there)."""

    id: int
    user_id: int
    username: str
    seat: int | str | None
    text: str
    said_at: datetime.datetime


_OBJECTS = ("settings", "snapshot", "dice", "result", "clock", "clock_state", "seating")
"""A game's JSON columns, each a JSON object (or NULL, except the settings)."""


def _keeps(text: str) -> bool:
    """Whether a database could hold this text: a name or id from a request's path may
    have a NUL (PostgreSQL refuses one in any text, so the query itself would fail) and no
    row has one."""
    return "\x00" not in text


def _game(row: sa.Row[Any]) -> GameRow:
    m = {**row._mapping}
    created = _utc(m["created_at"])
    assert created is not None
    unavailable = m["unavailable"]
    for column in _OBJECTS:
        if not isinstance(m[column], Mapping) and (column == "settings" or m[column] is not None):
            # Damaged outside the server: the game is shown, unavailable, without it.
            unavailable = unavailable or f"its {column.replace('_', ' ')} is not a JSON object"
            m[column] = {} if column == "settings" else None
    try:
        status = GameStatus(m["status"])
    except ValueError:  # written outside the server: shown as unavailable, never resumed
        status = GameStatus.UNAVAILABLE
        unavailable = unavailable or f"its status {str(m['status'])[:40]!r} is unknown"
    try:
        kind = GameKind(m["kind"])
    except ValueError:
        kind = GameKind.MATCH
        unavailable = unavailable or f"its kind {str(m['kind'])[:40]!r} is unknown"
    return GameRow(
        id=m["id"],
        settings=m["settings"],
        status=status,
        private=m["private"],
        creator_id=m["creator_id"],
        seats=(m["seat0_id"], m["seat1_id"]),
        bot=m["bot"],
        bot_delay_ms=m["bot_delay_ms"],
        seq=m["seq"],
        snapshot=m["snapshot"],
        dice=m["dice"],
        result=m["result"],
        created_at=created,
        finished_at=_utc(m["finished_at"]),
        clock=m["clock"],
        clock_state=m["clock_state"],
        kind=kind,
        seating=m["seating"],
        unavailable=unavailable,
        snapshot_seq=m["snapshot_seq"],
        practice=bool(m["practice"]),
        quick=bool(m["quick"]),
        started_at=_utc(m["started_at"]),
    )


def _public_seek() -> sa.ColumnElement[bool]:
    """A public two-player seek waiting for its opponent (an invitation waits for the one
    who has its link, a table for its people: neither expires)."""
    return sa.and_(
        games.c.status == GameStatus.OPEN,
        games.c.private.is_(False),
        games.c.kind == GameKind.MATCH,
        games.c.seat1_id.is_(None),
    )


def _public_seeks(*, quick: bool) -> sa.Select[Any]:
    return games.select().where(_public_seek(), games.c.quick.is_(quick))


def _checkpoint_values(seq: int, checkpoint: Checkpoint) -> dict[str, Any]:
    """A game row's columns that keep a checkpoint at action ``seq``."""
    return {
        "snapshot": dict(checkpoint.snapshot),
        "dice": dict(checkpoint.dice),
        "snapshot_seq": seq,
    }


# The statements of every action (Store.append_action, and _LOCK for a batch of them),
# built once: building a statement anew each time cost more CPU than SQLite's work
# (bench/load.py; docs/server.md). The columns set are the keys of the parameters given (the
# new seq, and where due the checkpoint, the result and the clock), the game matched by
# at_game and at_seq.
_ADVANCE = games.update().where(
    games.c.id == sa.bindparam("at_game"),
    games.c.seq == sa.bindparam("at_seq"),
    games.c.status == GameStatus.PLAYING,
)
_APPEND = actions.insert()
_LOCK = (
    sa.select(games.c.id, games.c.seq, games.c.status)
    .where(games.c.id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(games.c.id)
    .with_for_update()
)


@dataclass(frozen=True, slots=True)
class Append:
    """One action to commit (:meth:`Store.append_action`'s arguments): action number
    ``seq + 1`` of a game, its events, and what is due with it."""

    game_id: str
    seq: int
    action: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    checkpoint: Checkpoint | None = None
    result: Mapping[str, Any] | None = None
    clock_state: Mapping[str, Any] | None = None


def _advance(a: Append) -> dict[str, Any]:
    """The parameters of :data:`_ADVANCE` that move a's game on to action ``a.seq + 1``."""
    values: dict[str, Any] = {
        "seq": a.seq + 1,
        "moved_at": now(),
        "at_game": a.game_id,
        "at_seq": a.seq,
    }
    if a.checkpoint is not None:
        values.update(_checkpoint_values(a.seq + 1, a.checkpoint))
    if a.result is not None:
        values.update(status=GameStatus.FINISHED, result=dict(a.result), finished_at=now())
    if a.clock_state is not None:
        values["clock_state"] = dict(a.clock_state)
    return values


def _action_row(a: Append) -> dict[str, Any]:
    """The parameters of :data:`_APPEND`: a's row of the action log."""
    return {
        "game_id": a.game_id,
        "seq": a.seq + 1,
        "action": dict(a.action),
        "events": [dict(e) for e in a.events],
        "created_at": now(),
    }


def _moved_on(a: Append) -> ConflictError:
    return ConflictError(f"game {a.game_id} is no longer at action {a.seq}")


def _append(c: sa.Connection, a: Append) -> None:
    """Write one action in the open transaction; :class:`ConflictError` (nothing written)
    if its game is no longer at ``a.seq`` or no longer being played."""
    if c.execute(_ADVANCE, _advance(a)).rowcount != 1:
        raise _moved_on(a)
    c.execute(_APPEND, _action_row(a))


def _append_many(c: sa.Connection, appends: Sequence[Append]) -> list[ConflictError | None]:
    """Write many games' actions (one a game) in the open transaction with a few
    statements, not two an action: each statement's own cost in SQLAlchemy and the driver
    was most of the group commit's CPU (bench/load.py). The games' rows are read first, and
    locked in the order of their ids (PostgreSQL: two processes' batches never wait for
    each other's locks in a cycle), so an action whose game moved on is told apart before
    anything is written, and the rest are written with one statement for each set of
    columns they change and one for the log."""
    at = {
        row.id: (row.seq, row.status)
        for row in c.execute(_LOCK, {"ids": [a.game_id for a in appends]})
    }
    outcomes: list[ConflictError | None] = []
    advances: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    rows: list[dict[str, Any]] = []
    for a in appends:
        if at.get(a.game_id) != (a.seq, GameStatus.PLAYING):
            outcomes.append(_moved_on(a))
            continue
        outcomes.append(None)
        values = _advance(a)
        advances.setdefault(tuple(sorted(values)), []).append(values)
        rows.append(_action_row(a))
    for same_columns in advances.values():
        if c.execute(_ADVANCE, same_columns).rowcount != len(same_columns):
            raise StoreError("a game locked for the batch moved on")  # never: rows are locked
    if rows:
        c.execute(_APPEND, rows)
    return outcomes


def _available(rows: list[GameRow]) -> list[GameRow]:
    """The games of a list that are not set aside: those to join or watch."""
    return [g for g in rows if g.unavailable is None]


@dataclass(frozen=True, slots=True)
class TableMember:
    """A person at a chouette table or in a consultation game: their name there, their
    side (consultation), whether they are still seated, and their own result so far."""

    user_id: int
    name: str
    side: int | None
    seated: bool
    score: int


def member_name(user_id: int) -> str:
    """The name a person has in the core's chouette or consultation: their id, which never
    changes (a username does, when a guest claims an account)."""
    return f"u{user_id}"


def _member_row(game_id: str, user_id: int, side: int | None) -> sa.Insert:
    return table_members.insert().values(
        game_id=game_id,
        user_id=user_id,
        name=member_name(user_id),
        side=side,
        seated=True,
        score=0,
        joined_at=now(),
    )


def _member(row: sa.Row[Any]) -> TableMember:
    m = row._mapping
    return TableMember(m["user_id"], m["name"], m["side"], m["seated"], m["score"])


def _user(row: sa.Row[Any]) -> User:
    m = row._mapping
    return User(
        id=m["id"],
        username=m["username"],
        is_guest=m["is_guest"],
        preferences=m["preferences"],
        password_hash=m["password_hash"],
    )


class Store:
    """The server's data, one method per question or change."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        # SQLite has one writer at a time, and a writer that finds another sleeps in its busy
        # handler (1, 2, 5 ... up to 100 ms a try): under load those sleeps, not the work,
        # were the latency (bench/load.py, docs/benchmarks.md). This process's writes take
        # turns on a lock instead; PostgreSQL serialises its own.
        self._write_turn: contextlib.AbstractContextManager[object] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )

    @classmethod
    def open(cls, url: str) -> Store:
        """Connect to the database at ``url`` and bring its schema up to date."""
        engine = create_engine(url)
        migrate(engine)
        return cls(engine)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        try:
            with self._write_turn, self.engine.begin() as connection:
                yield connection
        except sa.exc.IntegrityError as exc:
            raise ConflictError(str(exc.orig)) from exc

    # -- users and sessions ------------------------------------------------------------------

    def create_user(
        self,
        username: str,
        password_hash: str | None,
        preferences: Mapping[str, Any],
        *,
        guest: bool = False,
    ) -> User:
        """A new user; :class:`ConflictError` when the name is taken (in any case)."""
        with self._write() as c:
            result = c.execute(
                users.insert().values(
                    username=username,
                    username_key=username.casefold(),
                    password_hash=password_hash,
                    is_guest=guest,
                    preferences=dict(preferences),
                    created_at=now(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return User(key[0], username, guest, dict(preferences), password_hash)

    def user_by_name(self, username: str) -> User | None:
        """The user of this name (case-insensitive), if any."""
        if not _keeps(username):
            return None
        with self.engine.connect() as c:
            row = c.execute(
                users.select().where(users.c.username_key == username.casefold())
            ).first()
            return None if row is None else _user(row)

    def user(self, user_id: int) -> User | None:
        """The user with this id, if any."""
        with self.engine.connect() as c:
            row = c.execute(users.select().where(users.c.id == user_id)).first()
            return None if row is None else _user(row)

    def usernames(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The names of these users."""
        if not user_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(users.c.id, users.c.username).where(users.c.id.in_(list(user_ids)))
            )
            return {int(i): str(n) for i, n in rows}

    def claim(self, user_id: int, username: str, password_hash: str) -> User:
        """A guest becomes an account with a name and password, keeping their id (and so
        every game played as the guest)."""
        with self._write() as c:
            changed = c.execute(
                users.update()
                .where(users.c.id == user_id, users.c.is_guest.is_(True))
                .values(
                    username=username,
                    username_key=username.casefold(),
                    password_hash=password_hash,
                    is_guest=False,
                )
            ).rowcount
            if changed != 1:
                raise ConflictError("only a guest can claim an account")
            row = c.execute(users.select().where(users.c.id == user_id)).one()
            return _user(row)

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        """Store a new hash of the same password (argon2's parameters changed)."""
        with self._write() as c:
            c.execute(
                users.update().where(users.c.id == user_id).values(password_hash=password_hash)
            )

    def set_preferences(self, user_id: int, preferences: Mapping[str, Any]) -> None:
        """Replace the user's preferences (already validated)."""
        with self._write() as c:
            c.execute(
                users.update().where(users.c.id == user_id).values(preferences=dict(preferences))
            )

    def create_session(self, token_hash: str, user_id: int, expires_at: datetime.datetime) -> None:
        """Remember a signed-in browser by the hash of its cookie's token."""
        with self._write() as c:
            c.execute(
                sessions_table.insert().values(
                    token_hash=token_hash,
                    user_id=user_id,
                    created_at=now(),
                    expires_at=expires_at,
                )
            )

    def session_user(self, token_hash: str) -> User | None:
        """The user signed in by this session, if it exists and has not expired."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(users, sessions_table.c.expires_at)
                .join(sessions_table, sessions_table.c.user_id == users.c.id)
                .where(sessions_table.c.token_hash == token_hash)
            ).first()
        if row is None:
            return None
        expires = _utc(row._mapping["expires_at"])
        if expires is None or expires <= now():
            return None
        return _user(row)

    def delete_session(self, token_hash: str) -> None:
        """Sign a session out."""
        with self._write() as c:
            c.execute(sessions_table.delete().where(sessions_table.c.token_hash == token_hash))

    # -- games -------------------------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        settings: Mapping[str, Any],
        creator_id: int,
        seats: tuple[int | None, int | None],
        *,
        status: GameStatus,
        private: bool,
        invite_hash: str | None = None,
        bot: str | None = None,
        bot_delay_ms: int = 0,
        dice: Mapping[str, Any] | None = None,
        clock: Mapping[str, Any] | None = None,
        kind: GameKind = GameKind.MATCH,
        seating: Mapping[str, Any] | None = None,
        practice: bool = False,
        quick: bool = False,
        request_key: str | None = None,
    ) -> GameRow:
        """A new game (a seek, an invitation, or a game starting at once against the bot,
        a ``practice`` one or not), with its clock's settings (None: no clock), or a
        chouette table or consultation game (``kind``, with its ``seating``); a quick
        pairing's seek with ``quick``. ``request_key`` is the creator's idempotency key of
        the request: a second game with the same key is :class:`ConflictError`
        (:meth:`game_by_request` finds the first)."""
        values = {
            "id": game_id,
            "settings": dict(settings),
            "status": status,
            "private": private,
            "invite_hash": invite_hash,
            "creator_id": creator_id,
            "seat0_id": seats[0],
            "seat1_id": seats[1],
            "bot": bot,
            "bot_delay_ms": bot_delay_ms,
            "seq": 0,
            "snapshot": None,
            "dice": None if dice is None else dict(dice),
            "result": None,
            "created_at": now(),
            "started_at": now() if status == GameStatus.PLAYING else None,
            "finished_at": None,
            "clock": None if clock is None else dict(clock),
            "clock_state": None,
            "kind": kind,
            "seating": None if seating is None else dict(seating),
            "practice": practice,
            "quick": quick,
            "seen_at": now(),
            "request_key": request_key,
        }
        with self._write() as c:
            c.execute(games.insert().values(**values))
            if kind in TABLE_KINDS:  # the creator is the table's first member
                side = 0 if kind == GameKind.CONSULTATION else None
                c.execute(_member_row(game_id, creator_id, side))
            return _game(c.execute(games.select().where(games.c.id == game_id)).one())

    def game(self, game_id: str) -> GameRow | None:
        """The game with this id, if any."""
        if not _keeps(game_id):
            return None
        with self.engine.connect() as c:
            row = c.execute(games.select().where(games.c.id == game_id)).first()
            return None if row is None else _game(row)

    def game_by_request(self, creator_id: int, request_key: str) -> GameRow | None:
        """The game this user's request with this idempotency key made, if any."""
        query = games.select().where(
            games.c.creator_id == creator_id, games.c.request_key == request_key
        )
        found = self._select(query)
        return found[0] if found else None

    def game_by_invite(self, invite_hash: str) -> GameRow | None:
        """The invitation game whose link hashes to this."""
        with self.engine.connect() as c:
            row = c.execute(games.select().where(games.c.invite_hash == invite_hash)).first()
            return None if row is None else _game(row)

    def take_seat(self, game_id: str, seat: int, user_id: int) -> GameRow:
        """Seat a second player in a waiting game, which starts; :class:`ConflictError` when
        someone was seated first."""
        column = games.c.seat0_id if seat == 0 else games.c.seat1_id
        return self._change_game(
            game_id,
            (games.c.status.in_(WAITING), column.is_(None)),
            {column: user_id, "status": GameStatus.PLAYING, "started_at": now()},
            "the game has already found its players",
        )

    def set_practice(self, game_id: str) -> GameRow:
        """Make a game against the bot being played a practice game, for good (its player
        switched it on); :class:`ConflictError` for a game that is not one against the bot
        under way. Switching it on again changes nothing."""
        return self._change_game(
            game_id,
            (games.c.bot.is_not(None), games.c.status == GameStatus.PLAYING),
            {"practice": True},
            f"game {game_id} is not a game against the bot under way",
        )

    def _change_game(
        self,
        game_id: str,
        conditions: Sequence[sa.ColumnElement[bool]],
        values: Mapping[Any, Any],
        conflict: str,
    ) -> GameRow:
        """Change a game's row where it still meets ``conditions``, and read it back;
        :class:`ConflictError` (saying ``conflict``) where it no longer does."""
        with self._write() as c:
            changed = c.execute(
                games.update().where(games.c.id == game_id, *conditions).values(dict(values))
            ).rowcount
            if changed != 1:
                raise ConflictError(conflict)
            return _game(c.execute(games.select().where(games.c.id == game_id)).one())

    def set_checkpoint(self, game_id: str, seq: int, checkpoint: Checkpoint) -> None:
        """Keep a checkpoint of a game at action ``seq`` where something besides an action
        changed it (a player added a seed to the dice); :class:`ConflictError` if the game
        is no longer at ``seq``."""
        with self._write() as c:
            changed = c.execute(
                games.update()
                .where(games.c.id == game_id, games.c.seq == seq)
                .values(_checkpoint_values(seq, checkpoint))
            ).rowcount
            if changed != 1:
                raise ConflictError(f"game {game_id} is no longer at action {seq}")

    def actions_between(
        self, game_id: str, after: int, upto: int
    ) -> tuple[list[dict[str, Any]], float]:
        """The wire forms of the game's actions ``after + 1`` to ``upto``, in order (those to
        replay after a checkpoint at ``after``), and the seconds from action ``after`` (the
        checkpoint's; with none, the first of them) to action ``upto``: the time played
        since the checkpoint's snapshot was taken. :class:`ReplayError` (damaged data: the
        game is set aside) if some are missing."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(actions.c.seq, actions.c.action, actions.c.created_at)
                .where(actions.c.game_id == game_id, actions.c.seq >= after, actions.c.seq <= upto)
                .order_by(actions.c.seq)
            ).all()
        replayed = [dict(action) for seq, action, _ in rows if seq > after]
        if len(replayed) != upto - after:
            raise ReplayError(f"the log lacks some of the actions {after + 1}-{upto}")
        first, last = _utc(rows[0].created_at), _utc(rows[-1].created_at)
        assert first is not None and last is not None
        return replayed, (last - first).total_seconds()

    def first_dice(self, game_id: str, dice: Mapping[str, Any]) -> Mapping[str, Any]:
        """Keep the dice of a game's first roll unless a game already has some (another
        server process got there first), and return the dice kept: every process deals
        from the same committed seed."""
        with self._write() as c:
            # The row locked while it is read (PostgreSQL): of two processes, the second
            # waits, then finds the first one's dice. (A JSON column's None may be stored as
            # JSON null, which SQL's IS NULL does not match: hence the read, not a WHERE.)
            kept = c.execute(
                sa.select(games.c.dice).where(games.c.id == game_id).with_for_update()
            ).scalar_one()
            if kept is None:
                kept = dict(dice)
                c.execute(games.update().where(games.c.id == game_id).values(dice=kept))
            return dict(kept)

    def seeks(self, variant: str | None = None, length: int | None = None) -> list[GameRow]:
        """Open public games waiting for an opponent, the oldest first."""
        rows = self._select(_public_seeks(quick=False).order_by(games.c.created_at))
        return [
            g
            for g in _available(rows)
            if (variant is None or g.settings.get("variant") == variant)
            and (length is None or g.settings.get("match-length") == length)
        ]

    def quick_seeks(self) -> list[GameRow]:
        """Quick pairing's seeks waiting for an opponent, the oldest first."""
        return _available(self._select(_public_seeks(quick=True).order_by(games.c.created_at)))

    def touch_seeks(self, user_id: int) -> int:
        """The user is still here: their public seeks stay (how many they have)."""
        with self._write() as c:
            return int(
                c.execute(
                    games.update()
                    .where(_public_seek(), games.c.creator_id == user_id)
                    .values(seen_at=now())
                ).rowcount
            )

    def expire_seeks(self, before: datetime.datetime) -> list[GameRow]:
        """Withdraw the public seeks whose creator was last seen before ``before`` (a
        closed browser's); the seeks withdrawn."""
        stale = sa.and_(_public_seek(), games.c.seen_at < before)
        with self._write() as c:
            ids = [row.id for row in c.execute(sa.select(games.c.id).where(stale))]
            if not ids:
                return []
            c.execute(
                games.update()
                .where(stale, games.c.id.in_(ids))
                .values(status=GameStatus.CANCELLED, finished_at=now())
            )
            query = games.select().where(
                games.c.id.in_(ids), games.c.status == GameStatus.CANCELLED
            )
            return [_game(row) for row in c.execute(query)]

    def live_games(self, since: datetime.datetime) -> list[GameRow]:
        """Public games being played now, to watch: those someone moved in (or that
        started) at ``since`` or later. A game whose players left it, with no clock to end
        it, is still being played, but nobody would watch it."""
        last_sign = sa.func.coalesce(games.c.moved_at, games.c.started_at)
        return _available(
            self._select(
                games.select()
                .where(
                    games.c.status == GameStatus.PLAYING,
                    games.c.private.is_(False),
                    games.c.kind == GameKind.MATCH,
                    last_sign >= since,
                )
                .order_by(games.c.started_at)
            )
        )

    def playing_games(self) -> list[GameRow]:
        """Every game being played, public or private, that is not set aside: the rooms to
        restore at start-up."""
        query = games.select().where(
            games.c.status == GameStatus.PLAYING, games.c.unavailable.is_(None)
        )
        return self._select(query)

    def set_aside(self, game_id: str, reason: str) -> bool:
        """Mark a game whose data cannot be restored: it is not resumed (nor listed to join
        or watch) until an operator repairs it and clears ``unavailable``. Whether it was
        not marked before."""
        with self._write() as c:
            return bool(
                c.execute(
                    games.update()
                    .where(games.c.id == game_id, games.c.unavailable.is_(None))
                    .values(unavailable=reason[:500])
                ).rowcount
            )

    def games_of(self, user_id: int, status: GameStatus | None = None) -> list[GameRow]:
        """The user's games (as either player, or as a member of a table), the newest
        first."""
        tables = sa.select(table_members.c.game_id).where(table_members.c.user_id == user_id)
        query = games.select().where(
            sa.or_(games.c.seat0_id == user_id, games.c.seat1_id == user_id, games.c.id.in_(tables))
        )
        if status is not None:
            query = query.where(games.c.status == status)
        return self._select(query.order_by(games.c.created_at.desc()))

    def finished_games_of(self, user_id: int, limit: int, offset: int = 0) -> list[GameRow]:
        """A page of the user's finished games (their match history: as either player, or
        as a member of a chouette table or consultation game), the last finished first."""
        tables = sa.select(table_members.c.game_id).where(table_members.c.user_id == user_id)
        mine = sa.or_(
            games.c.seat0_id == user_id, games.c.seat1_id == user_id, games.c.id.in_(tables)
        )
        query = games.select().where(mine, games.c.status == GameStatus.FINISHED)
        query = query.order_by(games.c.finished_at.desc(), games.c.id).limit(limit).offset(offset)
        return self._select(query)

    def cancel_game(self, game_id: str, user_id: int) -> GameRow:
        """Withdraw a seek, invitation or table that nobody has joined: only its creator
        can, and only while it waits; :class:`ConflictError` when it has started, someone
        else has sat down at the table (or it is not theirs or not waiting)."""
        others = sa.exists().where(
            table_members.c.game_id == game_id, table_members.c.user_id != user_id
        )
        with self._write() as c:
            changed = c.execute(
                games.update()
                .where(
                    games.c.id == game_id,
                    games.c.creator_id == user_id,
                    games.c.status.in_(WAITING),
                    games.c.seat1_id.is_(None),
                    ~others,
                )
                .values(status=GameStatus.CANCELLED, finished_at=now())
            ).rowcount
            if changed != 1:
                raise ConflictError("the game is no longer waiting for an opponent")
            return _game(c.execute(games.select().where(games.c.id == game_id)).one())

    def expire_unstarted(self, game_id: str) -> GameRow | None:
        """Withdraw a two-player match being played whose opening roll nobody has made (no
        action yet): its row, or None where it has started meanwhile (or is not one)."""
        try:
            return self._change_game(
                game_id,
                (
                    games.c.kind == GameKind.MATCH,
                    games.c.status == GameStatus.PLAYING,
                    games.c.seq == 0,
                ),
                {"status": GameStatus.CANCELLED, "finished_at": now()},
                "the game has started",
            )
        except ConflictError:
            return None

    def _select(self, query: sa.Select[Any]) -> list[GameRow]:
        with self.engine.connect() as c:
            return [_game(row) for row in c.execute(query)]

    def append_action(
        self,
        game_id: str,
        seq: int,
        action: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        checkpoint: Checkpoint | None = None,
        result: Mapping[str, Any] | None = None,
        clock_state: Mapping[str, Any] | None = None,
    ) -> None:
        """Commit action number ``seq + 1`` with its events, the checkpoint after it where
        one is due (:mod:`nardy.server.store.checkpoints`), the clock's state after it (for a game
        with a clock), and the result when it ended the match;
        :class:`ConflictError` if the game is no longer at ``seq`` (another process accepted
        an action first) or no longer being played."""
        append = Append(game_id, seq, action, events, checkpoint, result, clock_state)
        with self._write() as c:
            _append(c, append)

    def append_actions(self, appends: Sequence[Append]) -> list[Exception | None]:
        """Commit the actions of many games in one transaction (a group commit: one commit
        instead of one a game), each as :meth:`append_action` would; the outcome of each in
        order: None (committed) or the error that refuses that action alone, never raised: a
        :class:`ConflictError` where its game moved on (nothing of it was written). Should
        anything else fail, each action is committed again on its own, so that it fails only
        itself. At most one action a game (a room waits for its commit before its next)."""
        if len(appends) == 1:
            return [self._append_alone(appends[0])]
        try:
            with self._write() as c:
                return list(_append_many(c, appends))
        except Exception:
            return [self._append_alone(a) for a in appends]

    def _append_alone(self, a: Append) -> Exception | None:
        """One action committed by :meth:`append_action`, its error returned, not raised."""
        try:
            self.append_action(
                a.game_id, a.seq, a.action, a.events, a.checkpoint, a.result, a.clock_state
            )
        except Exception as exc:
            return exc
        return None

    # -- chouette tables and consultation games ---------------------------------------------

    def tables(self) -> list[GameRow]:
        """Public chouette tables and consultation games, waiting or being played, the
        oldest first."""
        return _available(
            self._select(
                games.select()
                .where(
                    games.c.kind.in_(TABLE_KINDS),
                    games.c.status.in_(SITTING),
                    games.c.private.is_(False),
                )
                .order_by(games.c.created_at)
            )
        )

    def members(self, game_id: str) -> list[TableMember]:
        """Everyone who has sat at the table, in the order they sat down."""
        with self.engine.connect() as c:
            rows = c.execute(
                table_members.select()
                .where(table_members.c.game_id == game_id)
                .order_by(table_members.c.joined_at, table_members.c.name)
            )
            return [_member(row) for row in rows]

    def add_member(self, game_id: str, user_id: int, side: int | None, start: bool) -> GameRow:
        """Seat a person at a table (on ``side`` in a consultation), the game starting when
        ``start``; :class:`ConflictError` if they sat there before or the table is gone
        (withdrawn by its creator, or over)."""
        with self._write() as c:
            status = c.execute(
                sa.select(games.c.status).where(games.c.id == game_id).with_for_update()
            ).scalar_one_or_none()
            if status not in SITTING:
                raise ConflictError("the table is no longer there to sit at")
            c.execute(_member_row(game_id, user_id, side))
            if start:
                changed = c.execute(
                    games.update()
                    .where(games.c.id == game_id, games.c.status == GameStatus.OPEN)
                    .values(status=GameStatus.PLAYING, started_at=now())
                ).rowcount
                if changed != 1:
                    raise ConflictError("the table has already started")
            return _game(c.execute(games.select().where(games.c.id == game_id)).one())

    def unseat_member(self, game_id: str, user_id: int) -> None:
        """A member left the table (between games); their result stays."""
        with self._write() as c:
            c.execute(
                table_members.update()
                .where(table_members.c.game_id == game_id, table_members.c.user_id == user_id)
                .values(seated=False)
            )

    def settle_members(self, game_id: str, scores: Mapping[str, int]) -> None:
        """Each member's own result at the table so far, by their name there."""
        with self._write() as c:
            for name, score in scores.items():
                c.execute(
                    table_members.update()
                    .where(table_members.c.game_id == game_id, table_members.c.name == name)
                    .values(score=score)
                )

    # -- chat --------------------------------------------------------------------------------

    def add_chat_line(
        self, game_id: str, user_id: int, username: str, seat: int | str | None, text: str
    ) -> ChatLine:
        """Keep a line said in a game's room (``seat``: at a table, the speaker's name
        there); the line as stored (with its id and time)."""
        said_at = now()
        with self._write() as c:
            result = c.execute(
                chat_lines.insert().values(
                    game_id=game_id,
                    user_id=user_id,
                    username=username,
                    seat=seat if isinstance(seat, int) else None,
                    member=seat if isinstance(seat, str) else None,
                    text=text,
                    said_at=said_at,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return ChatLine(int(key[0]), user_id, username, seat, text, said_at)

    def chat_history(self, game_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines said in a game's room, the oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                chat_lines.select()
                .where(chat_lines.c.game_id == game_id)
                .order_by(chat_lines.c.id.desc())
                .limit(limit)
            ).all()
        lines = []
        for row in reversed(rows):
            m = row._mapping
            said_at = _utc(m["said_at"])
            assert said_at is not None
            seat = m["seat"] if m["member"] is None else m["member"]
            lines.append(ChatLine(m["id"], m["user_id"], m["username"], seat, m["text"], said_at))
        return lines

    def set_chat_muted(self, game_id: str, user_id: int, muted: bool) -> None:
        """Remember that this user muted (or unmuted) the chat of this game's room."""
        where = (chat_mutes.c.game_id == game_id, chat_mutes.c.user_id == user_id)
        with self._write() as c:
            c.execute(chat_mutes.delete().where(*where))
            if muted:
                c.execute(chat_mutes.insert().values(game_id=game_id, user_id=user_id))

    def chat_muted(self, game_id: str) -> set[int]:
        """The users who muted the chat of this game's room."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(chat_mutes.c.user_id).where(chat_mutes.c.game_id == game_id))
            return {int(u) for (u,) in rows}

    # -- ratings -----------------------------------------------------------------------------

    def ratings_of(self, user_id: int) -> dict[str, Rating]:
        """The user's rating in each pool where they have played a rated game."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(ratings.c.pool, ratings.c.rating, ratings.c.experience).where(
                    ratings.c.user_id == user_id
                )
            )
            return {str(p): Rating(float(r), int(e)) for p, r, e in rows}

    def rated_outcomes(self, game_id: str) -> int:
        """How many outcomes of this game have been rated."""
        with self.engine.connect() as c:
            count = c.execute(
                sa.select(sa.func.count(sa.distinct(rating_changes.c.outcome))).where(
                    rating_changes.c.game_id == game_id
                )
            ).scalar_one()
            return int(count)

    def rate(
        self, game_id: str, outcome: int, pool: str, length: int, winner: int, loser: int
    ) -> None:
        """Rate outcome ``outcome`` of a game (``winner`` beat ``loser`` over ``length``
        points, in ``pool``), once: both ratings and both changes in one transaction."""
        with self._write() as c:
            done = c.execute(
                sa.select(sa.func.count())
                .select_from(rating_changes)
                .where(rating_changes.c.game_id == game_id, rating_changes.c.outcome == outcome)
            ).scalar_one()
            if done:
                return
            current = {}
            for user in (winner, loser):
                row = c.execute(
                    sa.select(ratings.c.rating, ratings.c.experience).where(
                        ratings.c.user_id == user, ratings.c.pool == pool
                    )
                ).first()
                current[user] = None if row is None else Rating(float(row[0]), int(row[1]))
            change = rate_match(current[winner] or Rating(), current[loser] or Rating(), length)
            for user, after in ((winner, change.winner), (loser, change.loser)):
                before = current[user]
                if before is None:
                    c.execute(
                        ratings.insert().values(
                            user_id=user, pool=pool, rating=after.value, experience=after.experience
                        )
                    )
                else:
                    c.execute(
                        ratings.update()
                        .where(ratings.c.user_id == user, ratings.c.pool == pool)
                        .values(rating=after.value, experience=after.experience)
                    )
                c.execute(
                    rating_changes.insert().values(
                        game_id=game_id,
                        user_id=user,
                        outcome=outcome,
                        pool=pool,
                        before=(before or Rating()).value,
                        after=after.value,
                    )
                )

    def rating_changes_of(self, game_id: str) -> dict[int, tuple[float, float]]:
        """Each rated player's rating before the game's first rated outcome and after its
        last."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(rating_changes.c.user_id, rating_changes.c.before, rating_changes.c.after)
                .where(rating_changes.c.game_id == game_id)
                .order_by(rating_changes.c.outcome)
            )
            changes: dict[int, tuple[float, float]] = {}
            for user, before, after in rows:
                first = changes.get(int(user), (float(before), 0.0))[0]
                changes[int(user)] = (first, float(after))
            return changes

    # -- the public dice page ----------------------------------------------------------------

    def untallied_dice(
        self, after: str, limit: int
    ) -> list[tuple[str, int, dict[str, Any], list[int] | None]]:
        """Up to ``limit`` games, in the order of their ids and after the id ``after``, that
        have dealt dice since they were last tallied (or never were): each one's id, the
        action its stored dice state is at (its checkpoint's: the dice dealt after it are
        counted at the next one, at the latest when the game ends), that state (secret: it
        holds the seeds) and the last tally (None if none). Walking on from the last id
        returned visits each game once, even while games go on moving."""
        joined = games.outerjoin(dice_tallies, dice_tallies.c.game_id == games.c.id)
        query = (
            sa.select(
                games.c.id,
                games.c.snapshot_seq.label("seq"),
                games.c.dice,
                dice_tallies.c.seq.label("tallied"),
                *(dice_tallies.c[name] for name in ROLL_COLUMNS),
            )
            .select_from(joined)
            .where(
                games.c.id > after,
                games.c.dice.is_not(None),
                # the first roll is an action: before it nothing was dealt
                games.c.snapshot_seq > 0,
                sa.or_(dice_tallies.c.seq.is_(None), dice_tallies.c.seq != games.c.snapshot_seq),
            )
            .order_by(games.c.id)
            .limit(limit)
        )
        with self.engine.connect() as c:
            return [
                (
                    row.id,
                    row.seq,
                    dict(row.dice),
                    None if row.tallied is None else [int(row._mapping[n]) for n in ROLL_COLUMNS],
                )
                for row in c.execute(query)
            ]

    def tally_dice(self, tallies: Sequence[tuple[str, int, Sequence[int]]]) -> None:
        """Keep, in one transaction, how often each roll (in the order of ``ROLL_COLUMNS``)
        came up in each game ``(game id, seq, counts)`` as of its action ``seq``. A tally of a
        later action already kept is left alone, so two processes counting at once agree."""
        for _, _, counts in tallies:
            if len(counts) != len(ROLL_COLUMNS):
                raise ValueError(f"a tally has {len(ROLL_COLUMNS)} counts, not {len(counts)}")
        if not tallies:
            return
        insert = (
            sa.dialects.postgresql.insert
            if self.engine.dialect.name == "postgresql"
            else sa.dialects.sqlite.insert
        )
        statement = insert(dice_tallies)
        upsert = statement.on_conflict_do_update(
            index_elements=[dice_tallies.c.game_id],
            set_={name: statement.excluded[name] for name in ("seq", *ROLL_COLUMNS)},
            where=dice_tallies.c.seq < statement.excluded.seq,
        )
        rows = [
            {"game_id": game_id, "seq": seq, **dict(zip(ROLL_COLUMNS, counts, strict=True))}
            for game_id, seq, counts in tallies
        ]
        with self._write() as c:
            c.execute(upsert, rows)  # one statement, executed for every row

    def dice_totals(self) -> list[int]:
        """How often each roll (in the order of ``ROLL_COLUMNS``) came up in all the games
        tallied."""
        sums = [sa.func.coalesce(sa.func.sum(dice_tallies.c[name]), 0) for name in ROLL_COLUMNS]
        with self.engine.connect() as c:
            return [int(n) for n in c.execute(sa.select(*sums)).one()]


__all__ = [
    "ChatLine",
    "ConflictError",
    "GameRow",
    "Store",
    "StoreError",
    "TableMember",
    "User",
    "member_name",
    "metadata",
    "migrate",
]
