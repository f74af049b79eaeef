"""Website number swapping (docs/attribution.md): a customer's script key and site origins, a
campaign's pool, its pressure, a call's attribution; and the public script's endpoints, which
reveal only a number: rate limited per client address and per key, for the customer's own site
origins only, and nothing for obvious bots."""

import re
import secrets
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TypeVar

import orjson
from pydantic import ValidationError
from sqlmodel import Session, col, select

from core.calls import visits
from core.infra import names
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import Call, CallAttribution, Campaign, DniPool, DniSite, Number, User
from core.models.dni import DEFAULT_TIMEOUT_MINUTES
from core.values.enums import NumberStatus, Role
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.auth.principal import Principal
from portal_api.schemas.dni import (
    AssignIn,
    AttributionOut,
    PoolEdit,
    PoolNumber,
    PoolOut,
    PoolRow,
    SiteEdit,
    SiteOut,
    Swap,
    Swaps,
    TouchIn,
)
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
    return site(session, principal, user_id)


def new_key(session: Session, principal: Principal, user_id: int) -> SiteOut:
    """A new script key: the old tag stops working (pages must carry the new one)."""
    row = _site(session, principal, user_id)
    row.script_key, row.updated_at = secrets.token_urlsafe(24), datetime.now(UTC)
    session.add(row)
    session.commit()
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


# --- the public endpoints ------------------------------------------------------------------------


@cache
def _script_source() -> str:
    return SCRIPT.read_text()


def script(session: Session, key: str, address: str) -> str:
    """The customer's script with its key and pools filled in: nothing a request says shapes it."""
    _throttle("address", address, get_settings().dni_max_per_address)
    found = _by_key(session, key)
    on = session.exec(
        select(DniPool)
        .where(DniPool.user_id == found.user_id, DniPool.enabled.is_(True))
        .order_by(col(DniPool.campaign_id))
    ).all()
    config = [{"c": p.campaign_id, "n": re.sub(r"\D", "", p.page_number or "")} for p in on]
    source = _script_source().replace("__KEY__", found.script_key)
    return source.replace("__POOLS__", orjson.dumps(config).decode())


def allowed_origin(session: Session, key: str, origin: str | None) -> str:
    """The request's origin, if it is one of the key's customer's site origins; else a 403."""
    found = _by_key(session, key)
    if origin is None or origin.lower() not in found.origins:
        raise DomainError(ErrorId.DNI_ORIGIN_REFUSED, "This site is not one of the customer's site origins.")
    return origin


def assign(
    session: Session, key: str, origin: str | None, agent: str | None, address: str, body: bytes
) -> Swaps:
    """The number the visitor holds in each of the pools its page shows."""
    found = _checked(session, key, origin, address)
    request = _parse(AssignIn, body)
    if _bot(agent):
        return Swaps(swaps=[])
    now = datetime.now(UTC)
    swaps = []
    settings = session.exec(
        select(DniPool).where(
            DniPool.user_id == found.user_id,
            DniPool.enabled.is_(True),
            col(DniPool.campaign_id).in_(request.pools),
        )
    ).all()
    for pool_row in settings:
        visit = visits.new_session(
            request.visitor_id,
            found.user_id,
            pool_row.campaign_id,
            _timeout_ms(pool_row),
            now,
            request.page,
            request.referrer,
        )
        got = visits.assign(get_redis(), visit, _pool_numbers(session, pool_row.campaign_id), now)
        if got is not None:
            swaps.append(Swap(pool=pool_row.campaign_id, number=got.number, session_id=got.session_id))
    return Swaps(swaps=swaps)


def touch(
    session: Session, key: str, origin: str | None, agent: str | None, address: str, body: bytes
) -> Swaps:
    """The visitor is active: its sessions are held again; the numbers they still hold."""
    _checked(session, key, origin, address)
    request = _parse(TouchIn, body)
    if _bot(agent):
        return Swaps(swaps=[])
    now = datetime.now(UTC)
    swaps = []
    for sid in request.sessions:
        held = visits.touch(get_redis(), sid, request.page, now)
        if held is not None:
            swaps.append(Swap(pool=held.campaign_id, number=held.number, session_id=sid))
    return Swaps(swaps=swaps)


def _checked(session: Session, key: str, origin: str | None, address: str) -> DniSite:
    settings = get_settings()
    _throttle("address", address, settings.dni_max_per_address)
    found = _by_key(session, key)
    _throttle("key", key, settings.dni_max_per_key)
    allowed_origin(session, key, origin)
    return found


def _by_key(session: Session, key: str) -> DniSite:
    found = session.exec(select(DniSite).where(DniSite.script_key == key)).first()
    if found is None:
        raise not_found("Script key")
    return found


Body = TypeVar("Body", AssignIn, TouchIn)


def _parse(model: type[Body], body: bytes) -> Body:
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise DomainError(ErrorId.DNI_BAD_REQUEST, "The request is not what the script sends.") from exc


def _bot(agent: str | None) -> bool:
    return not agent or BOTS.search(agent) is not None


def _throttle(scope: str, who: str, limit: int) -> None:
    window = int(datetime.now(UTC).timestamp()) // WINDOW_SECONDS
    key = names.dni_limit_key(scope, who, window)
    pipe = get_redis().pipeline(transaction=False)
    pipe.incr(key)
    pipe.expire(key, WINDOW_SECONDS)
    if int(pipe.execute()[0]) > limit:
        wait = WINDOW_SECONDS - int(datetime.now(UTC).timestamp()) % WINDOW_SECONDS
        raise DomainError(
            ErrorId.DNI_THROTTLED, f"Too many requests; try again in {wait} s.", retry_after=wait
        )
