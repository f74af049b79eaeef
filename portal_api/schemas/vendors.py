"""Request and response bodies for vendors (the carriers that supply numbers and trunks)."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from portal_api.schemas.common import Email, Name, Phone, StrictBody


class VendorCreate(StrictBody):
    name: Name
    contact_name: Name | None = None
    email: Email | None = None
    phone: Phone | None = None


class VendorUpdate(StrictBody):
    not_null = ("name",)
    name: Name | None = None
    contact_name: Name | None = None
    email: Email | None = None
    phone: Phone | None = None


class VendorOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    contact_name: str | None
    email: str | None
    phone: str | None
    status: str
    created_at: datetime


class VendorBrief(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
