"""Signed-in people for tests: a user row (and for buyers its buyer record) with a live session."""

import functools
from dataclasses import dataclass
from typing import Any

PASSWORD = "s3cret-pass"


@dataclass
class Actor:
    """A signed-in person for tests: their user row id, token and auth header."""

    id: int
    email: str
    password: str
    token: str
    buyer_id: int | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@functools.cache
def _password_hash() -> str:
    # Argon2 is slow on purpose; hash the shared test password once per run.
    from core.values.passwords import hash_password

    return hash_password(PASSWORD)


def make_actor(role: int, name: str, owner: Actor | None = None, **extra: Any) -> Actor:
    """Create a user (and for buyers, its buyer record under `owner`) with a live session token."""
    from core.infra.db import session_scope
    from core.models import Buyer, User
    from core.values.enums import TokenKind
    from portal_api.auth import tokens

    email = f"{name.lower().replace(' ', '.')}@example.com"
    with session_scope() as session:
        user = User(email=email, password_hash=_password_hash(), name=name, role=role, **extra)
        session.add(user)
        session.flush()
        buyer_id = None
        if role == 3:
            assert owner is not None
            buyer = Buyer(user_id=owner.id, login_user_id=user.id, name=name, email=email)
            session.add(buyer)
            session.flush()
            buyer_id = buyer.id
        token, _ = tokens.issue(session, user.id or 0, TokenKind.SESSION, 24)
        return Actor(user.id or 0, email, PASSWORD, token, buyer_id)
