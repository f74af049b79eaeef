"""The header bell: each user's own notifications and how many are unread."""

from datetime import UTC, datetime

from sqlalchemy import func, select, update
from sqlmodel import Session

from core.models import Notification
from core.values.errors import not_found
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.notifications import NotificationOut
from portal_api.services.common import page_of, text_filter


def page(session: Session, user_id: int, pg: PageParams) -> PageData[NotificationOut]:
    stmt = (
        select(Notification)
        .where(Notification.user_id == user_id)
        .order_by(Notification.created_at.desc(), Notification.id.desc())
    )
    stmt = text_filter(stmt, pg.params, Notification.text)
    return page_of(session, stmt, pg, NotificationOut.model_validate)


def unread_count(session: Session, user_id: int) -> int:
    stmt = (
        select(func.count())
        .select_from(Notification)
        .where(
            Notification.user_id == user_id,
            Notification.read_at.is_(None),
        )
    )
    return session.scalar(stmt) or 0


def mark_read(session: Session, user_id: int, notification_id: int) -> Notification:
    row = session.get(Notification, notification_id)
    if row is None or row.user_id != user_id:
        raise not_found("Notification")
    row.read_at = row.read_at or datetime.now(UTC)
    session.add(row)
    session.commit()
    return row


def mark_all_read(session: Session, user_id: int) -> None:
    session.execute(
        update(Notification)
        .where(Notification.user_id == user_id, Notification.read_at.is_(None))
        .values(read_at=datetime.now(UTC))
    )
    session.commit()
