"""Accounts: names and passwords (argon2id), sign-in sessions behind a random token, guests
who later claim an account, and each user's preferences.

The cookie carries a random token; the database keeps only its SHA-256, so neither a copy of
the database nor its logs sign anyone in.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import secrets
from dataclasses import asdict, dataclass, fields
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from nardy.server.store.store import ConflictError, Store, User, now

SESSION_LIFETIME = datetime.timedelta(days=30)
USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
PASSWORD_LENGTH = (8, 256)
HOME_CORNERS = ("bottom-right", "bottom-left", "top-right", "top-left")
LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?")

_hasher = PasswordHasher()  # argon2id with the library's current recommended parameters


class AccountError(ValueError):
    """A request about an account that cannot be granted; ``code`` says why for a program
    (``bad-username``, ``bad-password``, ``username-taken``, ``wrong-credentials``,
    ``not-a-guest``, ``bad-preferences``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Preferences:
    """How a user likes the board: the language of the interface, the corner of their home
    board (RULES.md 4), whether the board turns when they switch sides, which forced choices
    the client makes for them (passing when no move is legal, rolling when doubling is
    impossible, playing a single move that is the only legal one, bearing off in a race),
    sound and animation."""

    language: str = "en"
    home: str = "bottom-right"
    auto_switch_side: bool = False  # a board that turns between games surprises a new player
    auto_pass: bool = True
    auto_roll: bool = False
    auto_play_forced: bool = False
    auto_bear_off: bool = False
    sound: bool = True
    animation: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if type(value) is not type(f.default):
                kind = "true or false" if isinstance(f.default, bool) else "text"
                raise AccountError("bad-preferences", f"{_name(f.name)} must be {kind}")
        if not LANGUAGE.fullmatch(self.language):
            raise AccountError(
                "bad-preferences", f"language is a code like 'en' or 'ru', not {self.language!r}"
            )
        if self.home not in HOME_CORNERS:
            raise AccountError("bad-preferences", f"home is one of {', '.join(HOME_CORNERS)}")

    def to_dict(self) -> dict[str, Any]:
        """The preferences under their wire names (``auto-switch-side`` ...)."""
        return {_name(k): v for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: object, base: Preferences | None = None) -> Preferences:
        """Preferences from wire names, each missing one kept from ``base`` (the defaults);
        unknown names are refused."""
        if not isinstance(data, dict):
            raise AccountError("bad-preferences", "preferences are a JSON object")
        known = {_name(f.name): f.name for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise AccountError("bad-preferences", f"unknown preference(s): {', '.join(unknown)}")
        values = asdict(base or cls())
        values.update({known[k]: v for k, v in data.items()})
        return cls(**values)


def _name(attribute: str) -> str:
    return attribute.replace("_", "-")


def check_username(username: object) -> str:
    """A valid username: 3-20 letters, digits, ``_`` or ``-``, starting with a letter or
    digit. Names starting with ``guest-`` belong to guests."""
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise AccountError(
            "bad-username",
            "a username is 3-20 letters, digits, '_' or '-', starting with a letter or digit",
        )
    if username.casefold().startswith("guest-"):
        raise AccountError("bad-username", "names starting with 'guest-' are for guests")
    return username


def check_password(password: object) -> str:
    """A password of 8-256 characters."""
    low, high = PASSWORD_LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise AccountError("bad-password", f"a password has {low}-{high} characters")
    return password


def hash_token(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Sign-up, sign-in, guests and sessions over the store. Slow (argon2) calls: run them
    off the event loop."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def sign_up(self, username: object, password: object) -> User:
        """A new account; :class:`AccountError` for a bad or taken name, a bad password."""
        name, secret = check_username(username), check_password(password)
        try:
            return self.store.create_user(name, _hasher.hash(secret), Preferences().to_dict())
        except ConflictError:
            raise AccountError("username-taken", f"the name {name} is taken") from None

    def guest(self) -> User:
        """A guest who can play at once under a random name."""
        for _ in range(5):
            try:
                return self.store.create_user(
                    f"guest-{secrets.token_hex(4)}", None, Preferences().to_dict(), guest=True
                )
            except ConflictError:  # the random name exists already: draw another
                continue
        raise AccountError("username-taken", "no free guest name; try again")

    def claim(self, guest: User, username: object, password: object) -> User:
        """The guest becomes an account, keeping their games."""
        if not guest.is_guest:
            raise AccountError("not-a-guest", "this account has a name already")
        name, secret = check_username(username), check_password(password)
        try:
            return self.store.claim(guest.id, name, _hasher.hash(secret))
        except ConflictError:
            raise AccountError("username-taken", f"the name {name} is taken") from None

    def sign_in(self, username: object, password: object) -> User:
        """The account whose password this is; the same error whether the name or the
        password was wrong, so sign-in tells nobody which names exist."""
        wrong = AccountError("wrong-credentials", "wrong username or password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise wrong
        user = self.store.user_by_name(username)
        if user is None or user.password_hash is None:
            _hasher.hash(password)  # as slow as a real check: no timing tells
            raise wrong
        try:
            _hasher.verify(user.password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise wrong from None
        if _hasher.check_needs_rehash(user.password_hash):
            self.store.set_password_hash(user.id, _hasher.hash(password))
        return user

    def open_session(self, user: User) -> str:
        """A new session for the user; the token goes in the cookie."""
        token = secrets.token_urlsafe(32)
        self.store.create_session(hash_token(token), user.id, now() + SESSION_LIFETIME)
        return token

    def session_user(self, token: str | None) -> User | None:
        """Who this cookie's token signs in, if anyone."""
        if not token or len(token) > 128:
            return None
        return self.store.session_user(hash_token(token))

    def close_session(self, token: str) -> None:
        """Sign out this session."""
        self.store.delete_session(hash_token(token))

    def set_preferences(self, user: User, changes: object) -> Preferences:
        """Change some of the user's preferences; the rest stay."""
        current = Preferences.from_dict(dict(user.preferences))
        updated = Preferences.from_dict(changes, current)
        self.store.set_preferences(user.id, updated.to_dict())
        return updated
