"""Password hashing (Argon2) and the password rule shared by register, add-user and change."""

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
# Verified against when the email is unknown, so a miss costs as long as a hit.
_DUMMY_HASH = _hasher.hash("not-a-real-password-0")

MIN_LENGTH = 8


def hash_password(password: str) -> str:
    return _hasher.hash(password)


# The hash of a sign-in whose person has not chosen a password yet (a buyer invited by mail): no
# password matches it, and it is no hash the hasher reads.
NOT_CHOSEN = "!"


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def password_problem(password: str) -> str | None:
    """Why `password` is too weak, or None when it is acceptable."""
    if len(password) < MIN_LENGTH:
        return f"Password must be at least {MIN_LENGTH} characters long."
    if len(password) > 128:
        return "Password must be at most 128 characters long."
    if not re.search(r"[A-Za-z]", password) or not re.search(r"\d", password):
        return "Password must contain at least one letter and one digit."
    return None
