"""Website number swapping (docs/attribution.md): a customer's script and site origins, a
campaign's pool, and the public script's requests and answers."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from core.calls.visits import Candidate, PageView, PoolPressure
from portal_api.schemas.common import Phone, StrictBody

# An exact site origin as a browser sends it: scheme, host, and a port only when not the default.
Origin = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, max_length=255, pattern=r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$"
    ),
]
# What the script generates and keeps in the visitor's browser.
VisitorId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
SessionId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
Url = Annotated[str, StringConstraints(max_length=2048)]


class SiteOut(BaseModel):
    user_id: int
    script_key: str
    origins: list[str]
    script_path: str = Field(description="The script's path on the portal: `<script async src=...>`")
    public_url: str = Field(description="The portal's public address (PUBLIC_URL); empty: the UI's own")


class SiteEdit(StrictBody):
    origins: list[Origin] = Field(max_length=20, description="Exact origins, e.g. https://shop.example")


class PoolNumber(BaseModel):
    id: int
    number: str
    in_pool: bool


class PoolOut(BaseModel):
    campaign_id: int
    enabled: bool
    timeout_minutes: int
    page_number: str | None = Field(description="The number on the customer's pages the script replaces")
    numbers: list[PoolNumber] = Field(
        description="The campaign's active numbers; `in_pool` ones are handed out"
    )
    pressure: PoolPressure


class PoolEdit(StrictBody):
    enabled: bool
    timeout_minutes: int = Field(ge=1, le=1440)
    page_number: Phone | None = None
    number_ids: list[Annotated[int, Field(ge=1, le=2**31 - 1)]] = Field(max_length=500)


class PoolRow(BaseModel):
    """A pool on the dashboard's pressure card."""

    campaign_id: int
    campaign: str
    numbers: int
    pressure: PoolPressure


class AttributionOut(BaseModel):
    """A call's attribution (call_attribution) as the call detail shows it."""

    call_id: int
    status: str
    source: str
    medium: str | None
    campaign: str | None
    keyword: str | None
    content: str | None
    landing_page: str | None
    referrer: str | None
    click_id: str | None
    click_id_kind: str | None
    pages: list[PageView]
    candidates: list[Candidate]
    created_at: datetime


class AssignIn(StrictBody):
    """What the script sends (as text/plain JSON: a simple CORS request, no preflight)."""

    visitor_id: VisitorId
    pools: list[Annotated[int, Field(ge=1, le=2**31 - 1)]] = Field(min_length=1, max_length=5)
    page: Url
    referrer: Url | None = None


class TouchIn(StrictBody):
    sessions: list[SessionId] = Field(min_length=1, max_length=5)
    page: Url | None = None


class Swap(BaseModel):
    pool: int
    number: str = Field(description="E.164; the script writes it in the page's own format")
    session_id: str


class Swaps(BaseModel):
    """The numbers this visitor holds (none for a bot, or a pool without numbers)."""

    swaps: list[Swap]
