"""Accounts: registration, login checks, password changes, deletion, and ending sessions."""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable
from typing import Any

from confusable_homoglyphs import confusables
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gobang.extensions import db
from gobang.models import DELETED_NAME, User, username_key, utcnow
from gobang.services.accounts.passwords import Passwords
from gobang.services.notices import DISCONNECT_USER, Notice

USERNAME_MIN, USERNAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 1024
_USERNAME_EXTRA = set("0123456789_-")
# Letters (category Lo) that draw nothing: a name made of them, or padded with them, shows
# as blank or as someone else's name.
_FILLERS = {"\u115f", "\u1160", "\u3164", "\uffa0"}
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Zs"}
# Guests are named "Guest 482913" (gobang/services/guests), with a space no registered name
# has; a name that differs from one only there ("guest_482913") would pass for a guest.
_GUEST_LIKE = re.compile(r"guest[-_]?\d+")
# Scripts that one writing system uses together (UTS #39's "highly restrictive" sets): a
# Japanese name mixes Han and kana, a Korean one Han and Hangul.
_COMMON_SCRIPTS = {"COMMON", "INHERITED"}
_ONE_WRITING_SYSTEM = (
    {"HAN", "HIRAGANA", "KATAKANA"},
    {"HAN", "HANGUL"},
    {"HAN", "BOPOMOFO"},
)

# Where the session keeps the user's session generation as of its login.
SESSION_GENERATION_KEY = "generation"
# Session-ending reasons sent with `session_ended`.
LOGGED_OUT = "logged_out"
PASSWORD_CHANGED = "password_changed"
ACCOUNT_DELETED = "account_deleted"

Offload = Callable[..., Any]


class AccountError(ValueError):
    """A request about an account that cannot be granted; each problem is for the user."""

    def __init__(self, *problems: str) -> None:
        super().__init__(" ".join(str(p) for p in problems))
        self.problems = list(problems)


def normalize_username(raw: str) -> str:
    """NFKC folds full-width and mathematical letters into the plain ones they show as."""
    return unicodedata.normalize("NFKC", raw.strip())


def _prototype(ch: str) -> str:
    # confusables.txt maps each look-alike to one prototype; the package lists that mapping
    # under the look-alike, and every look-alike under the prototype.
    found = confusables.confusables_data.get(ch)
    if not found or len(found) != 1:
        return ch
    target = found[0]["c"].strip("\u200e")
    back = confusables.confusables_data.get(target) or []
    if len(back) == 1 and back[0]["c"].strip("\u200e") == ch:
        return min(ch, target)  # a pair listed both ways: either may be the prototype
    return target


def _prototypes(text: str) -> str:
    return "".join(_prototype(ch) for ch in text)


def username_skeleton(username: str) -> str:
    """What a name looks like: two names with one skeleton are easily taken for each other.

    Look-alikes are mapped before case is folded, as the name is shown: capital I is drawn as
    small l, which folding first (to small i) would lose. Names are one regardless of case,
    so the small letters are mapped again after folding (MODERN is modern, like rnodern)."""
    shown = _prototypes(normalize_username(username))
    return _prototypes(username_key(shown)).casefold()


def _mixes_scripts(username: str) -> bool:
    scripts = confusables.unique_aliases(username) - _COMMON_SCRIPTS
    return len(scripts) > 1 and not any(scripts <= s for s in _ONE_WRITING_SYSTEM)


def username_problem(username: str) -> str | None:
    """What is wrong with the form of a (normalized) name, whoever holds which names."""
    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        return gettext("Username must be %(min)d to %(max)d characters long.",
                       min=USERNAME_MIN, max=USERNAME_MAX)
    if any(ch in _FILLERS or (ch != " " and unicodedata.category(ch) in _INVISIBLE_CATEGORIES)
           for ch in username):
        return gettext("Username may not contain invisible or blank characters.")
    if not all(ch.isalpha() or ch in _USERNAME_EXTRA for ch in username):
        return gettext("Username may contain only letters, digits, '_' and '-'.")
    if _mixes_scripts(username) and confusables.is_confusable(username):
        return gettext("Username may not mix look-alike letters of different scripts.")
    if _GUEST_LIKE.fullmatch(username_key(username)):
        return gettext("Names like Guest 123456 are kept for guests.")
    return None


def password_problem(password: str) -> str | None:
    if len(password) < PASSWORD_MIN:
        return gettext("Password must be at least %(min)d characters long.", min=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        return gettext("Password must be at most %(max)d characters long.", max=PASSWORD_MAX)
    return None


def confirm_problem(password: str, confirm: str) -> str | None:
    return gettext("The two passwords do not match.") if password != confirm else None


def session_is_current(user: User | None, generation: object) -> bool:
    """Whether a session that stored `generation` at login still logs `user` in."""
    return (user is not None and user.is_active
            and type(generation) is int and generation == user.session_generation)


def _run_inline(func: Callable[..., Any], *args: Any) -> Any:
    return func(*args)


class Accounts:
    def __init__(
        self, passwords: Passwords, offload: Offload = _run_inline, initial_score: int = 1000
    ) -> None:
        self.passwords = passwords
        self.initial_score = initial_score
        # Hashing takes tens of milliseconds: on eventlet it must run off the event loop.
        self.offload = offload
        self._dummy_hash: str | None = None

    def find(self, username: str) -> User | None:
        name = normalize_username(username)
        found = db.session.scalar(select(User).where(User.username_key == username_key(name)))
        legacy = username_key(unicodedata.normalize("NFC", username.strip()))
        if found is None and legacy != username_key(name):
            # Names registered before NFKC (full-width letters) keep their key.
            found = db.session.scalar(select(User).where(User.username_key == legacy))
        return found

    def name_problem(self, username: str) -> str | None:
        """What stops this name being registered now: its form, or an existing name."""
        username = normalize_username(username)
        problem = username_problem(username)
        if problem is None and self.find(username) is not None:
            problem = gettext("That username is taken.")
        if problem is None and db.session.scalar(select(User.id).where(
                User.username_skeleton == username_skeleton(username)).limit(1)) is not None:
            problem = gettext("That username looks too much like an existing one.")
        return problem

    def register(self, username: str, password: str, confirm: str,
                 guest: User | None = None) -> User:
        """A new account; with `guest` (a guest's own session registering), that guest's row
        becomes the account instead, so the games it played stay with it."""
        username = normalize_username(username)
        problems = [p for p in (self.name_problem(username), password_problem(password),
                                confirm_problem(password, confirm)) if p]
        if problems:
            raise AccountError(*problems)
        user = guest if guest is not None and guest.guest else User(score=self.initial_score)
        user.username = username
        user.username_key = username_key(username)
        user.username_skeleton = username_skeleton(username)
        user.password_hash = self.offload(self.passwords.hash, password)
        user.guest = False
        db.session.add(user)
        try:
            db.session.commit()
        except IntegrityError as exc:  # two registrations of one name at once
            db.session.rollback()
            raise AccountError(gettext("That username is taken.")) from exc
        return user

    def authenticate(self, username: str, password: str) -> User | None:
        """The user whose password this is, or None; never says which part was wrong, nor,
        by taking longer or shorter, whether the name exists: one verification either way."""
        if len(password) > PASSWORD_MAX:
            return None
        user = self.find(username)
        stored = user.password_hash if user is not None else self._unknown_user_hash()
        if not self.offload(self.passwords.verify, stored, password):
            return None
        if user is None or not user.is_active:
            return None
        if self.passwords.needs_rehash(user.password_hash):
            user.password_hash = self.offload(self.passwords.hash, password)
        user.last_seen_at = utcnow()
        db.session.commit()
        return user

    def _unknown_user_hash(self) -> str:
        # Made once, at the configured cost, from a password nobody knows.
        if self._dummy_hash is None:
            self._dummy_hash = self.offload(self.passwords.hash, secrets.token_hex(16))
        return self._dummy_hash

    def change_password(self, user: User, old: str, new: str, confirm: str) -> list[Notice]:
        """Ends every session of the user; the caller keeps its own by storing the new
        generation. The notices close the live connections of the sessions ended."""
        if not self.offload(self.passwords.verify, user.password_hash, old):
            raise AccountError(gettext("The current password is wrong."))
        problems = [p for p in (password_problem(new), confirm_problem(new, confirm)) if p]
        if problems:
            raise AccountError(*problems)
        user.password_hash = self.offload(self.passwords.hash, new)
        return self.end_sessions(user, PASSWORD_CHANGED)

    def set_password(self, user: User, new: str) -> None:
        """Replace a password without knowing the old one (the host's `reset-password`);
        every session of the user ends."""
        problem = password_problem(new)
        if problem:
            raise AccountError(problem)
        user.password_hash = self.offload(self.passwords.hash, new)
        self.end_sessions(user, PASSWORD_CHANGED)

    def delete(self, user: User, password: str) -> list[Notice]:
        """Anonymise rather than delete, so finished games keep their other player."""
        if not self.offload(self.passwords.verify, user.password_hash, password):
            raise AccountError(gettext("The password is wrong."))
        return self.close(user)

    def close(self, user: User) -> list[Notice]:
        """The account anonymised and logged out everywhere (a moderator may close one)."""
        user.username = DELETED_NAME
        user.username_key = None
        user.username_skeleton = None
        user.password_hash = ""
        user.deleted = True
        return self.end_sessions(user, ACCOUNT_DELETED)

    def end_sessions(self, user: User, reason: str) -> list[Notice]:
        """Log the user out everywhere (commits): every session cookie issued so far stops
        working, and the notice closes the user's live connections."""
        user.session_generation += 1
        db.session.commit()
        return [Notice("session_ended", {"reason": reason}, DISCONNECT_USER, user.id)]
