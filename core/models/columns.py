"""Column factories, so every table stores money, times and JSON the same way.

Each returns SQLModel's `Field(...)`, left untyped by SQLModel so it fits as the default of a field
of any type; the field's own annotation is what the type checker reads. JSON columns (`jsonb`) are
untyped inside: what they hold is each table's to say (its field's annotation)."""

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, ForeignKey, Integer, Numeric, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeEngine
from sqlmodel import Field, SQLModel

MONEY = Numeric(18, 4)

# Stable constraint names: migrations can address them and the API maps violations by name.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


def money(default: Decimal | None = Decimal("0"), nullable: bool = False) -> Any:
    server_default = None if default is None else str(default)
    return Field(
        default=default,
        sa_column=Column(MONEY, nullable=nullable, server_default=server_default),
    )


def created_at() -> Any:
    return Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now()),
    )


def timestamp(nullable: bool = True, index: bool = False) -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=nullable, index=index))


def jsonb(default_factory: Any = list) -> Any:
    server_default = "[]" if default_factory is list else "{}"
    return Field(
        default_factory=default_factory,
        sa_column=Column(JSONB, nullable=False, server_default=server_default),
    )


def fk(
    target: str,
    ondelete: str = "RESTRICT",
    nullable: bool = True,
    index: bool = True,
    type_: type[TypeEngine[int]] = Integer,
    unique: bool = False,
) -> Any:
    """A foreign key; RESTRICT by default so history is never orphaned."""
    return Field(
        default=None,
        sa_column=Column(
            type_,
            ForeignKey(target, ondelete=ondelete),
            nullable=nullable,
            index=index and not unique,
            unique=unique,
        ),
    )


def big_pk() -> Any:
    return Field(default=None, sa_column=Column(BigInteger, primary_key=True, autoincrement=True))


def string(length: int, default: str | None = None, nullable: bool = False, **kw: Any) -> Any:
    return Field(
        default=default,
        sa_column=Column(String(length), nullable=nullable, server_default=default, **kw),
    )
