"""The impersonation audit: who acted as whom (start, stop) and every change made meanwhile.

A request made with an impersonation token marks its database session (`act_as`); from then on
the session stamps the acting admin on the rows it inserts that keep one (`acting_admin_id`:
status changes, ledger rows) and, at commit, writes one `change` row naming what it inserted,
updated or deleted. Statements outside the session's unit of work (COPY, raw SQL) are not seen;
no API path reachable by a customer or buyer writes that way except bulk UPDATE/DELETE, which
are named by table.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction
from sqlmodel import SQLModel

from core.models import AuthToken, ImpersonationAudit, User
from core.values.enums import ImpersonationAction, TokenKind

_ACTING = "impersonation_token"  # Session.info: the impersonation token of the request
_TOUCHED = "impersonation_touched"  # Session.info: what the request wrote, for the change row
# Rows that are the bookkeeping of sessions themselves, not changes made through one.
_NOT_CHANGES = (AuthToken, ImpersonationAudit)


@dataclass(frozen=True)
class Client:
    """Where a request came from, as the audit records it."""

    ip: str
    user_agent: str | None


def record(
    session: Session,
    action: ImpersonationAction,
    admin_id: int,
    user_id: int,
    token_id: int | None,
    client: Client | None = None,
    detail: str | None = None,
) -> None:
    admin, user = session.get(User, admin_id), session.get(User, user_id)
    session.add(
        ImpersonationAudit(
            admin_id=admin_id,
            user_id=user_id,
            admin_email=admin.email if admin else "",
            user_email=user.email if user else "",
            action=action.value,
            token_id=token_id,
            ip=client.ip if client else None,
            user_agent=client.user_agent if client else None,
            detail=detail[:255] if detail else None,
        )
    )


def stopped(session: Session, revoked: Iterable[AuthToken], why: str, client: Client | None = None) -> None:
    """A stop record for each impersonation token among `revoked`."""
    for row in revoked:
        if row.kind == TokenKind.IMPERSONATION and row.impersonator_id is not None:
            record(session, ImpersonationAction.STOP, row.impersonator_id, row.user_id, row.id, client, why)


def act_as(session: Session, token: AuthToken) -> None:
    """Changes this session commits were made by `token`'s admin, acting as its user."""
    session.info[_ACTING] = token


def _touched(session: Session) -> list[tuple[str, Any]]:
    return session.info.setdefault(_TOUCHED, [])  # type: ignore[no-any-return]  # info is dict[Any, Any]


@event.listens_for(Session, "before_flush")
def _stamp(session: Session, flush_context: UOWTransaction, instances: object) -> None:
    token: AuthToken | None = session.info.get(_ACTING)
    if token is None:
        return
    touched = _touched(session)
    for row in session.new:
        if hasattr(row, "acting_admin_id"):
            row.acting_admin_id = token.impersonator_id
    changed = [r for r in session.dirty if session.is_modified(r)]
    for verb, rows in (("insert", session.new), ("update", changed), ("delete", session.deleted)):
        touched.extend((verb, r) for r in rows if not isinstance(r, _NOT_CHANGES))


@event.listens_for(Session, "do_orm_execute")
def _bulk(state: ORMExecuteState) -> None:
    if state.session.info.get(_ACTING) is None or not (state.is_update or state.is_delete):
        return
    table = getattr(state.statement, "table", None)
    name = getattr(table, "name", "")
    if name and name not in {m.__tablename__ for m in _NOT_CHANGES}:
        _touched(state.session).append(("update" if state.is_update else "delete", name))


def _describe(verb: str, row: object) -> str:
    if isinstance(row, SQLModel):
        return f"{verb} {row.__tablename__} {getattr(row, 'id', '')}".rstrip()
    return f"{verb} {row} (bulk)"


@event.listens_for(Session, "before_commit")
def _write_change(session: Session) -> None:
    token: AuthToken | None = session.info.get(_ACTING)
    if token is None or token.impersonator_id is None:
        return
    session.flush()  # what is still pending gets its id (and is noted by _stamp)
    touched = session.info.pop(_TOUCHED, None)
    if not touched:
        return
    seen = dict.fromkeys(_describe(verb, row) for verb, row in touched)
    record(
        session,
        ImpersonationAction.CHANGE,
        token.impersonator_id,
        token.user_id,
        token.id,
        detail="; ".join(seen),
    )


@event.listens_for(Session, "after_soft_rollback")
def _forget(session: Session, previous_transaction: object) -> None:
    session.info.pop(_TOUCHED, None)
