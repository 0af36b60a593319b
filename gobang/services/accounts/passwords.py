"""Password hashing: argon2id, with older hashes upgraded on the next successful login."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from werkzeug.security import check_password_hash


class Passwords:
    def __init__(self, time_cost: int, memory_kib: int, parallelism: int) -> None:
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism
        )

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        if not stored.startswith("$argon2"):
            # Werkzeug's pbkdf2/scrypt hashes from before argon2id.
            return bool(stored) and check_password_hash(stored, password)
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        if not stored.startswith("$argon2"):
            return True
        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
