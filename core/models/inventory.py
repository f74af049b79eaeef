"""What the platform sells: countries, vendors, tracking numbers and their upload batches."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import CheckConstraint
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, jsonb, money, string, timestamp
from core.values.enums import NumberStatus, Status, sql_in


class Country(SQLModel, table=True):
    __tablename__ = "country"

    id: int | None = Field(default=None, primary_key=True)
    iso2: str = string(2, unique=True)
    iso3: str = string(3)
    name: str = string(128)
    # International calling code without '+', e.g. "44"; empty where none is assigned.
    dial_code: str = string(8, default="")


class Vendor(SQLModel, table=True):
    """A carrier that supplies numbers and inbound trunks."""

    __tablename__ = "vendor"
    __table_args__ = (CheckConstraint(sql_in("status", Status), name="status"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = string(120, unique=True)
    contact_name: str | None = string(120, nullable=True)
    email: str | None = string(254, nullable=True)
    phone: str | None = string(32, nullable=True)
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()


class NumberUploadBatch(SQLModel, table=True):
    """One CSV upload of numbers, with its per-line report."""

    __tablename__ = "number_upload_batch"

    id: int | None = Field(default=None, primary_key=True)
    uploaded_by: int | None = fk("users.id", ondelete="SET NULL")
    filename: str = string(255)
    total: int = 0
    imported: int = 0
    skipped: int = 0
    lines: list[Any] = jsonb()  # the skipped lines and why (portal_api/services/number_upload.py)
    created_at: datetime = created_at()


class Number(SQLModel, table=True):
    """A tracking number (DID). `user_id` null means it sits in the unassigned pool."""

    __tablename__ = "number"
    __table_args__ = (
        CheckConstraint(r"number ~ '^\+[1-9][0-9]{6,14}$'", name="e164"),
        CheckConstraint(sql_in("status", NumberStatus), name="status"),
        CheckConstraint("setup_fee >= 0 AND monthly_fee >= 0", name="fees"),
    )

    id: int | None = Field(default=None, primary_key=True)
    number: str = string(16, unique=True)
    country_id: int | None = fk("country.id")
    vendor_id: int | None = fk("vendor.id")
    user_id: int | None = fk("users.id")
    campaign_id: int | None = fk("campaign.id", ondelete="SET NULL")
    # Its calls' traffic source (static attribution: print, radio, a publisher's own number).
    source_id: int | None = fk("traffic_source.id", ondelete="SET NULL")
    setup_fee: Decimal = money()
    monthly_fee: Decimal = money()
    status: str = string(16, default=NumberStatus.ACTIVE.value)
    assigned_at: datetime | None = timestamp()
    # The monthly fee is paid up to this moment; the next charge falls due then.
    paid_until: datetime | None = timestamp(index=True)
    batch_id: int | None = fk("number_upload_batch.id", ondelete="SET NULL")
    # In its campaign's website pool (core.models.dni.DniPool): handed to visitors, not printed.
    website_pool: bool = Field(default=False, sa_column_kwargs={"server_default": "false"})
    created_at: datetime = created_at()
