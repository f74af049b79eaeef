"""People and their access: users, tokens, the impersonation and admin audits, status-change audit."""

from datetime import datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Column, Index, SmallInteger
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, money, string, timestamp
from core.values.enums import AdminAction, ImpersonationAction, TokenKind, UserStatus, sql_in


class User(SQLModel, table=True):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role IN (1, 2, 3)", name="role"),
        CheckConstraint(sql_in("status", UserStatus), name="status"),
        # Stored lower-case, so uniqueness and the login lookup are one plain index.
        CheckConstraint("email = lower(email)", name="email_lower"),
    )

    id: int | None = Field(default=None, primary_key=True)
    email: str = string(254, unique=True)
    password_hash: str = string(255)
    name: str = string(120)
    role: int = Field(sa_column=Column(SmallInteger, nullable=False))
    status: str = string(16, default=UserStatus.ACTIVE.value)
    timezone: str = string(64, default="UTC")
    balance: Decimal = money()
    # Set when a low-balance notice was sent; cleared when the balance recovers (one notice per dip).
    low_balance_notified_at: datetime | None = timestamp()
    tariff_id: int | None = fk("tariff.id")
    company: str | None = string(160, nullable=True)
    phone: str | None = string(32, nullable=True)
    created_by: int | None = fk("users.id", ondelete="SET NULL")
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class AuthToken(SQLModel, table=True):
    """A bearer token; only its SHA-256 is stored, so a database leak leaks no sessions."""

    __tablename__ = "auth_token"
    __table_args__ = (CheckConstraint(sql_in("kind", TokenKind), name="token_kind"),)

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = string(64, unique=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    # Set on impersonation tokens: the admin acting as `user_id`.
    impersonator_id: int | None = fk("users.id", ondelete="CASCADE")
    # Set on impersonation tokens: the admin's own token they were started from; they die with it.
    parent_id: int | None = fk("auth_token.id", ondelete="CASCADE")
    kind: str = string(16)
    created_at: datetime = created_at()
    expires_at: datetime | None = timestamp()
    revoked_at: datetime | None = timestamp()
    created_ip: str | None = string(64, nullable=True)


class ImpersonationAudit(SQLModel, table=True):
    """Who acted as whom, when and from where. Names are copied so the record outlives the users."""

    __tablename__ = "impersonation_audit"
    __table_args__ = (CheckConstraint(sql_in("action", ImpersonationAction), name="action"),)

    id: int | None = Field(default=None, primary_key=True)
    admin_id: int | None = fk("users.id", ondelete="SET NULL")
    user_id: int | None = fk("users.id", ondelete="SET NULL")
    admin_email: str = string(254)
    user_email: str = string(254)
    action: str = string(8)
    token_id: int | None = None
    # Why an impersonation stopped, or what a change made through it touched ("insert buyer 7").
    detail: str | None = string(255, nullable=True)
    ip: str | None = string(64, nullable=True)
    user_agent: str | None = string(255, nullable=True)
    created_at: datetime = created_at()


class AdminAudit(SQLModel, table=True):
    """An administrator's action on an account: who, whom, what, when, from where. Emails are
    copied so the record outlives both accounts."""

    __tablename__ = "admin_audit"
    __table_args__ = (CheckConstraint(sql_in("action", AdminAction), name="action"),)

    id: int | None = Field(default=None, primary_key=True)
    admin_id: int | None = fk("users.id", ondelete="SET NULL")
    user_id: int | None = fk("users.id", ondelete="SET NULL")
    admin_email: str = string(254)
    user_email: str = string(254)
    action: str = string(16)
    # What changed, when the action alone does not say it ("active -> suspended", "10.0000 USD").
    detail: str | None = string(255, nullable=True)
    ip: str | None = string(64, nullable=True)
    user_agent: str | None = string(255, nullable=True)
    created_at: datetime = created_at()


class StatusChange(SQLModel, table=True):
    """Every PATCH .../status/{id}: which row, from what, to what, by whom."""

    __tablename__ = "status_change"
    __table_args__ = (Index("ix_status_change_entity", "entity", "entity_id"),)

    id: int | None = Field(default=None, primary_key=True)
    entity: str = string(32)
    entity_id: int
    old_status: str | None = string(16, nullable=True)
    new_status: str = string(16)
    changed_by: int | None = fk("users.id", ondelete="SET NULL")
    # The administrator who made the change while impersonating `changed_by`.
    acting_admin_id: int | None = fk("users.id", ondelete="SET NULL", index=False)
    created_at: datetime = created_at()
