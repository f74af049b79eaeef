"""The header bell: the caller's own notifications."""

from datetime import UTC, datetime

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select, update
from sqlmodel import Session

from core.models import Notification
from portal_api.auth.principal import PrincipalDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import not_found
from portal_api.services.common import page_of, text_filter

router = APIRouter(prefix="/notification", tags=["notifications"])


class NotificationOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    kind: str
    text: str
    read_at: datetime | None
    created_at: datetime


class UnreadCount(BaseModel):
    unread_notification_count: int


def unread_count(session: Session, user_id: int) -> int:
    stmt = (
        select(func.count())
        .select_from(Notification)
        .where(
            Notification.user_id == user_id,
            Notification.read_at.is_(None),  # type: ignore[union-attr]
        )
    )
    return session.scalar(stmt) or 0


@router.get(
    "/notification",
    response_model=Envelope[PageData[NotificationOut]],
    summary="The caller's notifications, newest first",
)
def listing(principal: PrincipalDep, session: SessionDep, pg: PageDep) -> dict:
    stmt = (
        select(Notification)
        .where(Notification.user_id == principal.user.id)
        .order_by(Notification.created_at.desc(), Notification.id.desc())  # type: ignore[attr-defined, union-attr]
    )
    stmt = text_filter(stmt, pg.params, Notification.text)
    return ok(page_of(session, stmt, pg, NotificationOut.model_validate))


@router.get("/unread-count", response_model=Envelope[UnreadCount], summary="How many are unread")
def unread(principal: PrincipalDep, session: SessionDep) -> dict:
    return ok(UnreadCount(unread_notification_count=unread_count(session, principal.user.id or 0)))


@router.patch("/read/{id}", response_model=Envelope[NotificationOut], summary="Mark one as read")
def mark_read(id: IdPath, principal: PrincipalDep, session: SessionDep) -> dict:
    row = session.get(Notification, id)
    if row is None or row.user_id != principal.user.id:
        raise not_found("Notification")
    row.read_at = row.read_at or datetime.now(UTC)
    session.add(row)
    session.commit()
    return ok(NotificationOut.model_validate(row), "Marked as read.")


@router.post("/read-all", response_model=Envelope[UnreadCount], summary="Mark all as read")
def mark_all_read(principal: PrincipalDep, session: SessionDep) -> dict:
    session.execute(
        update(Notification)
        .where(Notification.user_id == principal.user.id, Notification.read_at.is_(None))  # type: ignore[union-attr]
        .values(read_at=datetime.now(UTC))
    )
    session.commit()
    return ok(UnreadCount(unread_notification_count=0), "All marked as read.")
