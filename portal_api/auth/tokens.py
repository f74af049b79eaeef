"""Opaque bearer tokens; the database keeps only their SHA-256."""

import hashlib
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from core.infra.db import get_engine
from core.models import AuthToken
from core.values.enums import TokenKind

# A token renewed while used is written at most this often, not on every request.
RENEW_STEP = timedelta(minutes=1)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue(
    session: Session,
    user_id: int,
    kind: TokenKind,
    hours: float | None = None,
    impersonator_id: int | None = None,
    ip: str | None = None,
    parent_id: int | None = None,
) -> tuple[str, AuthToken]:
    token = "cr_" + secrets.token_urlsafe(32)
    row = AuthToken(
        token_hash=token_hash(token),
        user_id=user_id,
        impersonator_id=impersonator_id,
        parent_id=parent_id,
        kind=kind.value,
        expires_at=datetime.now(UTC) + timedelta(hours=hours) if hours else None,
        created_ip=ip,
    )
    session.add(row)
    session.flush()
    return token, row


def _live(row: AuthToken | None, now: datetime) -> bool:
    return row is not None and row.revoked_at is None and (row.expires_at is None or row.expires_at > now)


def find_live(session: Session, token: str) -> AuthToken | None:
    """The token's row while it works: not revoked, not expired, and its parent (the admin's token
    an impersonation hangs off) neither."""
    row = session.exec(select(AuthToken).where(AuthToken.token_hash == token_hash(token))).first()
    now = datetime.now(UTC)
    if row is None or not _live(row, now):
        return None
    if row.parent_id is not None and not _live(session.get(AuthToken, row.parent_id), now):
        return None
    return row


def renew(row: AuthToken, lifetime: timedelta) -> None:
    """Slide an expiring token's end to `lifetime` from now: it lives while it is used.

    Written on its own connection, so a read-only request renews too (its session never commits)."""
    now = datetime.now(UTC)
    if row.expires_at is None or row.expires_at >= now + lifetime - RENEW_STEP:
        return
    expires = now + lifetime
    with get_engine().begin() as conn:
        conn.execute(
            update(AuthToken)
            .where(AuthToken.id == row.id, AuthToken.revoked_at.is_(None))
            .values(expires_at=expires)
        )
    set_committed_value(row, "expires_at", expires)


def revoke_where(session: Session, *conditions: ColumnElement[bool]) -> Sequence[AuthToken]:
    """Revoke every live token matching `conditions` and the impersonation tokens started from
    them; the rows revoked (the caller commits)."""
    now = datetime.now(UTC)
    revoke = update(AuthToken).where(AuthToken.revoked_at.is_(None)).values(revoked_at=now)
    rows = list(session.scalars(revoke.where(*conditions).returning(AuthToken)))
    if rows:
        children = revoke.where(AuthToken.parent_id.in_([r.id for r in rows])).returning(AuthToken)
        rows.extend(session.scalars(children))
    return rows


def revoke_all(session: Session, user_id: int, kinds: list[TokenKind], keep_id: int | None = None) -> None:
    conditions = [AuthToken.user_id == user_id, AuthToken.kind.in_([k.value for k in kinds])]
    if keep_id is not None:
        conditions.append(AuthToken.id != keep_id)
    revoke_where(session, *conditions)
