"""A person's saved views of the call report: the filters, columns, sort and grouping under a name."""

from datetime import datetime
from typing import Any

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, jsonb, string, timestamp


class ReportView(SQLModel, table=True):
    """One saved view, its owner's alone (every role's views are its own, an admin's too)."""

    __tablename__ = "report_view"
    __table_args__ = (UniqueConstraint("user_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    # The unique key (user_id, name) serves the owner's lookups: no index of its own.
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False, index=False)
    name: str = string(80)
    # The report's query as the URL carries it (filter name -> text, a date preset among them).
    filters: dict[str, Any] = jsonb(dict)
    columns: list[Any] = jsonb()
    sort: str = string(16, default="started_at")
    direction: str = string(4, default="desc")
    group_by: str | None = string(16, nullable=True)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()
