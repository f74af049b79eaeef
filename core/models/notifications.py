"""Notices shown under the header bell."""

from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import SQLModel

from core.models.columns import big_pk, created_at, fk, string, timestamp


class Notification(SQLModel, table=True):
    __tablename__ = "notification"
    __table_args__ = (
        # A job that runs twice sends one notice: same (user, dedupe_key) is refused.
        UniqueConstraint("user_id", "dedupe_key", name="uq_notification_dedupe"),
        Index("ix_notification_user_created", "user_id", "created_at"),
    )

    id: int | None = big_pk()
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False, index=False)
    kind: str = string(32, default="info")
    text: str = string(1000)
    dedupe_key: str | None = string(128, nullable=True)
    read_at: datetime | None = timestamp()
    created_at: datetime = created_at()
