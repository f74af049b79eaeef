"""Website number swapping in the portal (docs/attribution.md): a customer's script key and site
origins, a campaign's pool and its pressure, a call's attribution. The script's public endpoints
are portal_api.services.dni_public."""

import re
import secrets
from datetime import UTC, datetime
from pathlib import Path

from sqlmodel import Session, col, select

from core.calls import visits
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import Call, CallAttribution, Campaign, DniPool, DniSite, Number, User
from core.models.dni import DEFAULT_TIMEOUT_MINUTES
from core.values.enums import NumberStatus, Role
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.auth.principal import Principal
from portal_api.schemas.dni import (
    AttributionOut,
    PoolEdit,
    PoolNumber,
    PoolOut,
    PoolRow,
    SiteEdit,
    SiteOut,
)
from portal_api.services import dni_public
from portal_api.services.tenancy import get_visible, scoped

SCRIPT = Path(__file__).resolve().parents[1] / "dni" / "script.js"
WINDOW_SECONDS = 60
# Crawlers, link previews, monitors and HTTP libraries say what they are; none of them calls.
BOTS = re.compile(
    r"bot|crawl|spider|slurp|scrape|headless|lighthouse|pingdom|uptime|preview|facebookexternalhit|"
    r"curl|wget|python-|httpclient|java/|go-http|okhttp|node-fetch|axios",
    re.IGNORECASE,
)


# --- the customer's script and site ------------------------------------------------------------


def _script_path(key: str) -> str:
    return f"/api/dni/{key}/script.js"


def site(session: Session, principal: Principal, user_id: int) -> SiteOut:
    """The customer's script key (made at the first look) and site origins."""
    row = _site(session, principal, user_id)
    return SiteOut(
        user_id=row.user_id,
        script_key=row.script_key,
        origins=row.origins,
        script_path=_script_path(row.script_key),
        public_url=get_settings().public_url,
    )


def edit_site(session: Session, principal: Principal, user_id: int, body: SiteEdit) -> SiteOut:
    row = _site(session, principal, user_id)
    row.origins = list(dict.fromkeys(o.lower() for o in body.origins))
    row.updated_at = datetime.now(UTC)
    session.add(row)
    session.commit()
    dni_public.forget()
    return site(session, principal, user_id)


def new_key(session: Session, principal: Principal, user_id: int) -> SiteOut:
    """A new script key: the old tag stops working (pages must carry the new one)."""
    row = _site(session, principal, user_id)
    row.script_key, row.updated_at = secrets.token_urlsafe(24), datetime.now(UTC)
    session.add(row)
    session.commit()
    dni_public.forget()
    return site(session, principal, user_id)


def _site(session: Session, principal: Principal, user_id: int) -> DniSite:
    user = get_visible(session, User, user_id, principal, "Customer")
    if user.role != Role.CUSTOMER:
        raise not_found("Customer")
    row = session.get(DniSite, user_id)
    if row is None:
        row = DniSite(user_id=user_id, script_key=secrets.token_urlsafe(24))
        session.add(row)
        session.commit()
        session.refresh(row)
    return row


# --- a campaign's pool -------------------------------------------------------------------------


def _timeout_ms(pool: DniPool | None) -> int:
    return (pool.timeout_minutes if pool else DEFAULT_TIMEOUT_MINUTES) * 60_000


def pool(session: Session, principal: Principal, campaign_id: int) -> PoolOut:
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    row = session.get(DniPool, campaign_id)
    numbers = session.exec(
        select(Number)
        .where(Number.campaign_id == campaign_id, Number.status == NumberStatus.ACTIVE.value)
        .order_by(col(Number.number))
    ).all()
    return PoolOut(
        campaign_id=campaign_id,
        enabled=bool(row and row.enabled),
        timeout_minutes=row.timeout_minutes if row else DEFAULT_TIMEOUT_MINUTES,
        page_number=row.page_number if row else None,
        numbers=[PoolNumber(id=n.id or 0, number=n.number, in_pool=n.website_pool) for n in numbers],
        pressure=visits.pressure(get_redis(), campaign.id or 0, _timeout_ms(row), datetime.now(UTC)),
    )


def edit_pool(session: Session, principal: Principal, campaign_id: int, body: PoolEdit) -> PoolOut:
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    numbers = session.exec(
        select(Number).where(Number.campaign_id == campaign_id, Number.status == NumberStatus.ACTIVE.value)
    ).all()
    if unknown := set(body.number_ids) - {n.id for n in numbers}:
        raise DomainError(
            ErrorId.DNI_NUMBER_NOT_CAMPAIGNS,
            f"Number ids {sorted(unknown)} are not active numbers of this campaign.",
            "number_ids",
        )
    row = session.get(DniPool, campaign_id) or DniPool(campaign_id=campaign_id, user_id=campaign.user_id)
    row.enabled, row.timeout_minutes = body.enabled, body.timeout_minutes
    row.page_number, row.updated_at = body.page_number, datetime.now(UTC)
    session.add(row)
    for n in numbers:
        n.website_pool = n.id in body.number_ids
        session.add(n)
    session.commit()
    dni_public.forget()
    return pool(session, principal, campaign_id)


def pools(session: Session, principal: Principal) -> list[PoolRow]:
    """The caller's pools that are on, with their pressure (the dashboard's card)."""
    stmt = scoped(select(Campaign), Campaign, principal).join(
        DniPool, col(DniPool.campaign_id) == Campaign.id
    )
    rows = []
    now = datetime.now(UTC)
    for campaign in session.exec(stmt.where(DniPool.enabled.is_(True)).order_by(col(Campaign.name))).all():
        settings = session.get(DniPool, campaign.id)
        count = len(_pool_numbers(session, campaign.id or 0))
        pressure = visits.pressure(get_redis(), campaign.id or 0, _timeout_ms(settings), now)
        rows.append(
            PoolRow(campaign_id=campaign.id or 0, campaign=campaign.name, numbers=count, pressure=pressure)
        )
    return rows


def _pool_numbers(session: Session, campaign_id: int) -> list[str]:
    return list(
        session.exec(
            select(Number.number).where(
                Number.campaign_id == campaign_id,
                Number.website_pool.is_(True),
                Number.status == NumberStatus.ACTIVE.value,
            )
        ).all()
    )


def attribution(session: Session, principal: Principal, call_id: int) -> AttributionOut | None:
    """Call `call_id`'s attribution, None when it has none."""
    call = get_visible(session, Call, call_id, principal, "Call")
    row = session.get(CallAttribution, call.id)
    return AttributionOut.model_validate(row, from_attributes=True) if row else None
