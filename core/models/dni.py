"""Website number swapping (DNI, docs/attribution.md): a customer's script key and site origins,
and a campaign's pool of tracking numbers (the numbers themselves: `Number.website_pool`)."""

from datetime import datetime
from typing import Any

from sqlalchemy import ARRAY, CheckConstraint, Column, ForeignKey, Integer, String
from sqlalchemy import text as sql_text
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, string, timestamp

DEFAULT_TIMEOUT_MINUTES = 20


def _key(target: str) -> Any:
    """One row per customer / campaign: its id is the key, and goes with it."""
    return Field(
        default=None, sa_column=Column(Integer, ForeignKey(target, ondelete="CASCADE"), primary_key=True)
    )


class DniSite(SQLModel, table=True):
    """A customer's one `<script>` tag: its public key (random, unguessable) and the exact site
    origins (`https://shop.example`) whose pages may call the public endpoints (CORS)."""

    __tablename__ = "dni_site"

    user_id: int = _key("users.id")
    script_key: str = string(43, unique=True)
    origins: list[str] = Field(
        default_factory=list,
        sa_column=Column(ARRAY(String(255)), nullable=False, server_default=sql_text("'{}'")),
    )
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class DniPool(SQLModel, table=True):
    """A campaign's pool: on or off, how long a visitor holds its number after its last activity,
    and the number printed on the customer's pages that the script replaces (by its text)."""

    __tablename__ = "dni_pool"
    __table_args__ = (CheckConstraint("timeout_minutes BETWEEN 1 AND 1440", name="timeout"),)

    campaign_id: int = _key("campaign.id")
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    enabled: bool = False
    timeout_minutes: int = Field(default=DEFAULT_TIMEOUT_MINUTES, sa_column_kwargs={"server_default": "20"})
    page_number: str | None = string(32, nullable=True)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()
