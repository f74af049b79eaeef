"""Opaque bearer tokens; the database keeps only their SHA-256."""

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, select

from core.enums import TokenKind
from core.models import AuthToken


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue(
    session: Session,
    user_id: int,
    kind: TokenKind,
    hours: int | None = None,
    impersonator_id: int | None = None,
    ip: str | None = None,
) -> tuple[str, AuthToken]:
    token = "cr_" + secrets.token_urlsafe(32)
    row = AuthToken(
        token_hash=token_hash(token),
        user_id=user_id,
        impersonator_id=impersonator_id,
        kind=kind.value,
        expires_at=datetime.now(UTC) + timedelta(hours=hours) if hours else None,
        created_ip=ip,
    )
    session.add(row)
    session.flush()
    return token, row


def find_live(session: Session, token: str) -> AuthToken | None:
    row = session.exec(select(AuthToken).where(AuthToken.token_hash == token_hash(token))).first()
    if row is None or row.revoked_at is not None:
        return None
    if row.expires_at is not None and row.expires_at <= datetime.now(UTC):
        return None
    return row


def revoke(session: Session, row: AuthToken) -> None:
    row.revoked_at = datetime.now(UTC)
    session.add(row)


def revoke_all(session: Session, user_id: int, kinds: list[TokenKind], keep_id: int | None = None) -> None:
    stmt = (
        update(AuthToken)
        .where(AuthToken.user_id == user_id)
        .where(AuthToken.kind.in_([k.value for k in kinds]))
        .where(AuthToken.revoked_at.is_(None))
        .values(revoked_at=datetime.now(UTC))
    )
    if keep_id is not None:
        stmt = stmt.where(AuthToken.id != keep_id)
    session.execute(stmt)
