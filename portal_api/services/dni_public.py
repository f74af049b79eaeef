"""The website script's public endpoints (docs/attribution.md): they reveal only a number, are
rate limited per client address and per script key, answer only the customer's site origins, and
give nothing to obvious bots.

What a key stands for (its customer, origins and pools with their numbers) is read from the
database once per CACHE_SECONDS per process, so an assignment is two Redis round trips (the
limits, then the assignment's script) and no database query; a change saved in another portal
process reaches this one within CACHE_SECONDS.
"""

import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TypeVar

import orjson
from pydantic import ValidationError
from sqlmodel import col, select

from core.calls import visits
from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import DniPool, DniSite, Number
from core.values.enums import NumberStatus
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.schemas.dni import AssignIn, Swap, Swaps, TouchIn

SCRIPT = Path(__file__).resolve().parents[1] / "dni" / "script.js"
WINDOW_SECONDS = 60
CACHE_SECONDS = 5.0
CACHE_KEYS = 10_000  # keys remembered at most (unknown ones too): beyond, the cache starts again
# Crawlers, link previews, monitors and HTTP libraries say what they are; none of them calls.
BOTS = re.compile(
    r"bot|crawl|spider|slurp|scrape|headless|lighthouse|pingdom|uptime|preview|facebookexternalhit|"
    r"curl|wget|python-|httpclient|java/|go-http|okhttp|node-fetch|axios",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Pool:
    campaign_id: int
    timeout_ms: int
    page_number: str  # its digits
    numbers: list[str]


@dataclass(frozen=True)
class Site:
    user_id: int
    key: str
    origins: frozenset[str]
    pools: dict[int, Pool]  # the pools that are on, by campaign


_cache: dict[str, tuple[float, Site | None]] = {}


def forget() -> None:
    """A site or a pool changed: read them again at the next request."""
    _cache.clear()


def _site(key: str) -> Site:
    now = time.monotonic()
    hit = _cache.get(key)
    if hit is None or hit[0] < now:
        if len(_cache) >= CACHE_KEYS:
            _cache.clear()
        hit = (now + CACHE_SECONDS, _load(key))
        _cache[key] = hit
    if hit[1] is None:
        raise not_found("Script key")
    return hit[1]


def _load(key: str) -> Site | None:
    with session_scope() as s:
        row = s.exec(select(DniSite).where(DniSite.script_key == key)).first()
        if row is None:
            return None
        on = s.exec(select(DniPool).where(DniPool.user_id == row.user_id, DniPool.enabled.is_(True))).all()
        numbers = s.exec(
            select(Number.campaign_id, Number.number)
            .where(
                col(Number.campaign_id).in_([p.campaign_id for p in on]),
                Number.website_pool.is_(True),
                Number.status == NumberStatus.ACTIVE.value,
            )
            .order_by(col(Number.number))
        ).all()
        pools = {
            p.campaign_id: Pool(
                p.campaign_id,
                p.timeout_minutes * 60_000,
                re.sub(r"\D", "", p.page_number or ""),
                [n for c, n in numbers if c == p.campaign_id],
            )
            for p in on
        }
        return Site(row.user_id, row.script_key, frozenset(row.origins), pools)


@cache
def _script_source() -> str:
    return SCRIPT.read_text()


def script(key: str, address: str) -> str:
    """The customer's script with its key and pools filled in: nothing a request says shapes it."""
    _throttle(address, key)
    site = _site(key)
    config = [
        {"c": p.campaign_id, "n": p.page_number}
        for p in sorted(site.pools.values(), key=lambda p: p.campaign_id)
    ]
    source = _script_source().replace("__KEY__", site.key)
    return source.replace("__POOLS__", orjson.dumps(config).decode())


def assign(key: str, origin: str | None, agent: str | None, address: str, body: bytes) -> Swaps:
    """The number the visitor holds in each of the pools its page shows."""
    site = _checked(key, origin, address)
    request = _parse(AssignIn, body)
    if _bot(agent):
        return Swaps(swaps=[])
    now = datetime.now(UTC)
    swaps = []
    for pool in (site.pools[c] for c in dict.fromkeys(request.pools) if c in site.pools):
        visit = visits.new_session(
            request.visitor_id,
            site.user_id,
            pool.campaign_id,
            pool.timeout_ms,
            now,
            request.page,
            request.referrer,
        )
        got = visits.assign(get_redis(), visit, pool.numbers, now)
        if got is not None:
            swaps.append(Swap(pool=pool.campaign_id, number=got.number, session_id=got.session_id))
    return Swaps(swaps=swaps)


def touch(key: str, origin: str | None, agent: str | None, address: str, body: bytes) -> Swaps:
    """The visitor is active: its sessions are held again; the numbers they still hold."""
    site = _checked(key, origin, address)
    request = _parse(TouchIn, body)
    if _bot(agent):
        return Swaps(swaps=[])
    now = datetime.now(UTC)
    swaps = []
    for sid in request.sessions:
        held = visits.touch(get_redis(), sid, request.page, now)
        if held is not None and held.campaign_id in site.pools:
            swaps.append(Swap(pool=held.campaign_id, number=held.number, session_id=sid))
    return Swaps(swaps=swaps)


def _checked(key: str, origin: str | None, address: str) -> Site:
    """The key's site, for a request within the limits from one of its origins; else refused."""
    _throttle(address, key)
    site = _site(key)
    if origin is None or origin.lower() not in site.origins:
        raise DomainError(ErrorId.DNI_ORIGIN_REFUSED, "This site is not one of the customer's site origins.")
    return site


Body = TypeVar("Body", AssignIn, TouchIn)


def _parse(model: type[Body], body: bytes) -> Body:
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise DomainError(ErrorId.DNI_BAD_REQUEST, "The request is not what the script sends.") from exc


def _bot(agent: str | None) -> bool:
    return not agent or BOTS.search(agent) is not None


def _throttle(address: str, key: str) -> None:
    """Count the request per address and per key (one round trip); 429 past either limit."""
    settings = get_settings()
    now = int(time.time())
    window = now // WINDOW_SECONDS
    per_address, per_key = (
        names.dni_limit_key("address", address, window),
        names.dni_limit_key("key", key, window),
    )
    pipe = get_redis().pipeline(transaction=False)
    pipe.incr(per_address)
    pipe.expire(per_address, WINDOW_SECONDS)
    pipe.incr(per_key)
    pipe.expire(per_key, WINDOW_SECONDS)
    from_address, _, for_key, _ = pipe.execute()
    if int(from_address) > settings.dni_max_per_address or int(for_key) > settings.dni_max_per_key:
        wait = WINDOW_SECONDS - now % WINDOW_SECONDS
        raise DomainError(
            ErrorId.DNI_THROTTLED, f"Too many requests; try again in {wait} s.", retry_after=wait
        )
