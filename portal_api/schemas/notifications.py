"""Response bodies of the header bell."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict


class NotificationOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    kind: str
    text: str
    read_at: datetime | None
    created_at: datetime


class UnreadCount(BaseModel):
    unread_notification_count: int
