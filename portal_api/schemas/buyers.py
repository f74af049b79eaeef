"""Buyer bodies; a buyer's email and password are its role-3 login."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.values.enums import Disposition, Status
from portal_api.deps import MAX_ID
from portal_api.schemas.common import Day, Email, MoneyOut, Name, Password, Phone, StrictBody


class BuyerIn(StrictBody):
    name: Name
    email: Email = Field(description="The buyer's sign-in email")
    password: Password = Field(description="The buyer's first password")
    phone: Phone | None = None
    user_id: int | None = Field(default=None, ge=1, le=MAX_ID, description="Owner customer (admin only)")


class BuyerUpdate(StrictBody):
    not_null = ("name", "email")
    name: Name | None = None
    email: Email | None = None
    password: Password | None = None
    phone: Phone | None = None


# Whether the buyer can sign in: no sign-in yet, an invitation out (its person has not chosen a
# password), or a sign-in with a password (docs/security.md, "Adding a buyer").
SignIn = Literal["none", "invited", "active"]


class BuyerOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    name: str
    email: str | None
    phone: str | None
    status: Status
    created_at: datetime
    sign_in: SignIn = Field(description="none: no sign-in yet; invited: invitation sent; active: can sign in")
    invited_at: datetime | None = Field(description="When an invitation was last sent")


class BuyerBrief(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    status: Status


class BuyerReportFilter(StrictBody):
    buyer_id: int | None = Field(default=None, ge=1, le=MAX_ID)
    # The spec's spelling of the report filters.
    fromDate: Day | None = None
    toDate: Day | None = None
    disposition: Disposition | None = None
    caller_number: str | None = Field(default=None, max_length=32)


class BuyerCallRow(BaseModel):
    """A call as its buyer sees it: no customer cost, only the payout it owes."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    started_at: datetime
    did: str
    caller: str
    buyer_id: int | None
    target_id: int | None
    target_name: str | None = None
    campaign_id: int | None
    ended_at: datetime | None = Field(description="Unset while the call is in progress")
    disposition: Disposition
    duration: int
    talk_seconds: int
    converted: bool
    payout: MoneyOut
    recording: str | None = Field(default=None, description="Set when recorded: GET /report/recording/{id}")
