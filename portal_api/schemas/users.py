"""Request and response bodies for users, sign-in and profiles."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from core.models import User, WalletTransaction
from core.values.enums import AdminAction, ImpersonationAction, Role, TransactionType, UserStatus
from portal_api.schemas.common import Email, MoneyOut, Name, Password, Phone, ShortText, StrictBody, Timezone


class StoredUser(BaseModel):
    """The record the UI keeps in local storage under `user`."""

    user_id: int
    role: int
    role_name: str
    name: str
    email: str
    balance: MoneyOut
    timezone: str
    status: str

    @classmethod
    def of(cls, user: User) -> "StoredUser":
        return cls(
            user_id=user.id or 0,
            role=user.role,
            role_name=Role(user.role).label,
            name=user.name,
            email=user.email,
            balance=user.balance,
            timezone=user.timezone,
            status=user.status,
        )


class SignedIn(BaseModel):
    token: str
    user: StoredUser


class Impersonating(SignedIn):
    impersonator_id: int


class ReturnedToAdmin(BaseModel):
    user: StoredUser


class AuditRow(BaseModel):
    """One impersonation audit record: a start, a stop (`detail`: why) or a change (`detail`:
    what was inserted, updated or deleted, as `insert buyer 7; update users 3`)."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    action: ImpersonationAction
    admin_id: int | None
    admin_email: str
    user_id: int | None
    user_email: str
    token_id: int | None
    detail: str | None
    ip: str | None
    user_agent: str | None
    created_at: datetime


class AdminAuditRow(BaseModel):
    """One administrator action on an account: who (`admin_*`), whom (`user_*`), what, when and
    from where; `detail` says what changed where the action alone does not."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    action: AdminAction
    admin_id: int | None
    admin_email: str
    user_id: int | None
    user_email: str
    detail: str | None
    ip: str | None
    user_agent: str | None
    created_at: datetime


class UserOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    email: str
    name: str
    role: int
    role_name: str
    status: str
    timezone: str
    balance: MoneyOut
    tariff_id: int | None
    company: str | None
    phone: str | None
    created_at: datetime

    @classmethod
    def of(cls, user: User) -> "UserOut":
        return cls.model_validate({**user.model_dump(), "role_name": Role(user.role).label})


class UserBrief(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    email: str


class LoginIn(BaseModel):
    email: str = Field(max_length=254)
    password: str = Field(max_length=256)


class ForgotPasswordIn(StrictBody):
    email: str = Field(min_length=3, max_length=254)


class ResetPasswordIn(StrictBody):
    token: str = Field(min_length=10, max_length=128, description="From the link in the reset mail")
    new_password: Password


class RegisterIn(StrictBody):
    name: Name
    email: Email
    password: Password
    timezone: Timezone = "UTC"
    company: ShortText | None = None
    phone: Phone | None = None


class SignUpConfirmIn(StrictBody):
    token: str = Field(min_length=10, max_length=128, description="From the link in the sign-up mail")


class UserCreate(StrictBody):
    name: Name
    email: Email
    password: Password
    timezone: Timezone = "UTC"
    tariff_id: int | None = Field(default=None, ge=1, le=2**31 - 1)
    company: ShortText | None = None
    phone: Phone | None = None


class UserUpdate(StrictBody):
    not_null = ("name", "email", "timezone")
    name: Name | None = None
    email: Email | None = None
    password: Password | None = None
    timezone: Timezone | None = None
    tariff_id: int | None = Field(default=None, ge=1, le=2**31 - 1)
    company: ShortText | None = None
    phone: Phone | None = None


class ProfileUpdate(StrictBody):
    not_null = ("name", "timezone")
    name: Name | None = None
    timezone: Timezone | None = None
    company: ShortText | None = None
    phone: Phone | None = None


class PasswordChange(StrictBody):
    current_password: str = Field(max_length=256)
    new_password: Password
    revoke_api_token: bool = Field(
        default=False, description="Also revoke the API token (scripts using it stop working)"
    )


class UserStatusIn(StrictBody):
    status: UserStatus


class ApiToken(BaseModel):
    user_id: int
    token: str


class Balance(BaseModel):
    user_id: int
    balance: MoneyOut
    currency: str


class ServerTime(BaseModel):
    server_time: str = Field(examples=["2026-11-21 19:30:00"])
    timezone: str


class ReturnToAdminIn(StrictBody):
    impersonator_id: int = Field(ge=1, le=2**31 - 1)


class WalletTransactionOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    transaction_type: TransactionType
    amount: MoneyOut
    balance_after: MoneyOut
    description: str
    reference: str
    call_id: int | None
    number_id: int | None
    # Set when an administrator caused the row while impersonating the wallet's owner or its buyer.
    acting_admin_id: int | None = None
    date: datetime = Field(validation_alias="created_at")

    @classmethod
    def of(cls, row: WalletTransaction) -> "WalletTransactionOut":
        return cls.model_validate(row)
