"""Website visitors' sessions in Redis and the pool number each holds (docs/attribution.md).

The portal's public endpoints assign and touch sessions (`assign`, `touch`); the bridge asks, at a
call's start, which sessions held the dialled number then (`holders_at`). Every step is one Lua
script: atomic (two visitors never get the same free number at once) and one round trip.

Layout (names in core.infra.names): a session's JSON (`VisitorSession`) and its pages (a list,
bounded); per pool number the sessions that held it by last activity (ms), kept a day; per pool its
numbers by last activity, its active sessions, and counters (sessions, reused, peak active).
"""

import math
import secrets
from datetime import UTC, datetime
from typing import Literal
from urllib.parse import parse_qs, urlsplit

import orjson
from pydantic import BaseModel
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from core.infra import names
from core.values.enums import ClickIdKind

PAGES_KEPT = 20  # a session's pages: the latest this many
HOLDERS_KEPT_MS = 86_400_000  # a number's past holders are remembered a day (ambiguity needs minutes)
SESSION_GRACE_S = 3600  # a session outlives its timeout this long: a call may come a little after

Status = Literal["matched", "ambiguous"]


class PageView(BaseModel):
    url: str
    at: int  # ms since the epoch


class VisitorSession(BaseModel):
    """A visitor's session in a campaign's pool: where it came from and the number it holds."""

    session_id: str
    visitor_id: str
    user_id: int
    campaign_id: int
    number: str = ""  # filled by `assign`'s script with the number it picked
    timeout_ms: int
    started_at: int  # ms since the epoch
    landing_page: str
    referrer: str | None = None
    utm_source: str | None = None
    utm_medium: str | None = None
    utm_campaign: str | None = None
    utm_term: str | None = None
    utm_content: str | None = None
    click_id: str | None = None
    click_id_kind: ClickIdKind | None = None

    @property
    def source(self) -> str:
        """utm_source, else the referrer's host, else 'direct' (call_attribution.source)."""
        if self.utm_source:
            return self.utm_source
        host = urlsplit(self.referrer or "").hostname
        return host or "direct"


class Holder(BaseModel):
    """A session that held a number at a moment, with its pages and last activity."""

    session: VisitorSession
    last_seen: int
    pages: list[PageView]


class Assigned(BaseModel):
    session_id: str
    number: str
    reused: bool  # the pool was exhausted: the least recently active session's number


def new_session_id() -> str:
    return secrets.token_urlsafe(18)


def _clip(value: str | None, length: int) -> str | None:
    return value[:length] if value else None


def new_session(
    visitor_id: str,
    user_id: int,
    campaign_id: int,
    timeout_ms: int,
    now: datetime,
    landing_page: str,
    referrer: str | None,
) -> VisitorSession:
    """A session for a visitor landing on `landing_page`: its UTM parameters and first click id."""
    query = parse_qs(urlsplit(landing_page).query)

    def first(name: str, length: int) -> str | None:
        values = query.get(name)
        return _clip(values[0], length) if values else None

    kind = next((k for k in ClickIdKind if first(k.value, 256)), None)
    return VisitorSession(
        session_id=new_session_id(),
        visitor_id=visitor_id,
        user_id=user_id,
        campaign_id=campaign_id,
        timeout_ms=timeout_ms,
        started_at=_ms(now),
        landing_page=landing_page[:2048],
        referrer=_clip(referrer, 2048),
        utm_source=first("utm_source", 128),
        utm_medium=first("utm_medium", 128),
        utm_campaign=first("utm_campaign", 256),
        utm_term=first("utm_term", 256),
        utm_content=first("utm_content", 256),
        click_id=first(kind.value, 256) if kind else None,
        click_id_kind=kind,
    )


# KEYS: visitor key, pool key. ARGV: now, timeout ms, session ttl s, prefix, session JSON (number
# empty), page JSON, pages kept, holders kept ms, then the pool's numbers.
# The visitor's active session keeps its number; else the pool's least recently active number
# (never active: score 0), reused when its activity is within the timeout.
_ASSIGN = """
local now, timeout, ttl, prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local pool, kept, holders_ms = KEYS[2], tonumber(ARGV[7]), tonumber(ARGV[8])
local function touch(sid, number)
  redis.call('ZADD', pool, now, number)
  redis.call('ZADD', pool .. ':active', now, sid)
  local holders = prefix .. 'n:' .. number
  redis.call('ZADD', holders, now, sid)
  redis.call('ZREMRANGEBYSCORE', holders, '-inf', now - holders_ms)
  redis.call('PEXPIRE', holders, holders_ms)
  local pages = prefix .. 's:' .. sid .. ':pages'
  redis.call('RPUSH', pages, ARGV[6])
  redis.call('LTRIM', pages, -kept, -1)
  redis.call('EXPIRE', pages, ttl)
  redis.call('EXPIRE', prefix .. 's:' .. sid, ttl)
  redis.call('PEXPIRE', KEYS[1], timeout)
end
local sid = redis.call('GET', KEYS[1])
if sid then
  local raw = redis.call('GET', prefix .. 's:' .. sid)
  if raw then
    local number = cjson.decode(raw)['number']
    for i = 9, #ARGV do
      if ARGV[i] == number then
        touch(sid, number)
        return {sid, number, 0}
      end
    end
  end
end
local pick, best = nil, nil
for i = 9, #ARGV do
  local score = tonumber(redis.call('ZSCORE', pool, ARGV[i]) or '0')
  if best == nil or score < best then pick, best = ARGV[i], score end
end
if pick == nil then return false end
local reused = 0
if best > now - timeout then
  reused = 1
  redis.call('HINCRBY', pool .. ':stats', 'reused', 1)
end
local session = cjson.decode(ARGV[5])
session['number'] = pick
sid = session['session_id']
redis.call('SET', prefix .. 's:' .. sid, cjson.encode(session), 'EX', ttl)
redis.call('SET', KEYS[1], sid)
touch(sid, pick)
redis.call('HINCRBY', pool .. ':stats', 'sessions', 1)
redis.call('ZREMRANGEBYSCORE', pool .. ':active', '-inf', now - timeout)
local active = redis.call('ZCARD', pool .. ':active')
if active > tonumber(redis.call('HGET', pool .. ':stats', 'peak') or '0') then
  redis.call('HSET', pool .. ':stats', 'peak', active)
end
return {sid, pick, reused}
"""

# KEYS: the session's key. ARGV: now, prefix, page JSON or '', pages kept, holders kept ms.
# A session still stored is active again: its number, its pool and its own visitor key say so.
_TOUCH = """
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local s = cjson.decode(raw)
local now, prefix, kept = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[4])
local sid, number, pool = s['session_id'], s['number'], prefix .. 'p:' .. s['campaign_id']
local holders = prefix .. 'n:' .. number
redis.call('ZADD', holders, now, sid)
redis.call('PEXPIRE', holders, tonumber(ARGV[5]))
redis.call('ZADD', pool, now, number)
redis.call('ZADD', pool .. ':active', now, sid)
redis.call('SET', prefix .. 'v:' .. s['campaign_id'] .. ':' .. s['visitor_id'], sid, 'PX', s['timeout_ms'])
if ARGV[3] ~= '' then
  redis.call('RPUSH', KEYS[1] .. ':pages', ARGV[3])
  redis.call('LTRIM', KEYS[1] .. ':pages', -kept, -1)
end
return {s['campaign_id'], number}
"""

# KEYS: the number's holders. ARGV: the moment (ms), prefix. Each session that held the number then
# (started by then, active within its timeout of it): {JSON, last activity, pages JSON...}.
_HOLDERS_AT = """
local at, prefix = tonumber(ARGV[1]), ARGV[2]
local out = {}
local held = redis.call('ZRANGEBYSCORE', KEYS[1], at - 86400000, '+inf', 'WITHSCORES')
for i = 1, #held, 2 do
  local raw = redis.call('GET', prefix .. 's:' .. held[i])
  if raw then
    local s = cjson.decode(raw)
    local last = tonumber(held[i + 1])
    if s['started_at'] <= at and last >= at - s['timeout_ms'] then
      local pages = redis.call('LRANGE', prefix .. 's:' .. held[i] .. ':pages', 0, -1)
      table.insert(out, {raw, held[i + 1], pages})
    end
  end
end
return out
"""


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _page(url: str, at: int) -> str:
    return orjson.dumps({"url": url[:2048], "at": at}).decode()


def assign(client: Redis, session: VisitorSession, numbers: list[str], now: datetime) -> Assigned | None:
    """The number `session`'s visitor holds in its pool: the one it holds while active, else a
    free one, else the least recently active session's (reused). None for an empty pool."""
    if not numbers:
        return None
    at = _ms(now)
    ttl = session.timeout_ms // 1000 + SESSION_GRACE_S
    keys = [
        names.dni_visitor_key(session.campaign_id, session.visitor_id),
        names.dni_pool_key(session.campaign_id),
    ]
    args: list[str | int] = [
        at,
        session.timeout_ms,
        ttl,
        names.DNI_PREFIX,
        session.model_dump_json(),
        _page(session.landing_page, at),
        PAGES_KEPT,
        HOLDERS_KEPT_MS,
        *numbers,
    ]
    answer = client.register_script(_ASSIGN)(keys=keys, args=args)
    if not answer:
        return None
    sid, number, reused = answer
    return Assigned(session_id=str(sid), number=str(number), reused=bool(int(reused)))


class Held(BaseModel):
    campaign_id: int
    number: str


def touch(client: Redis, session_id: str, page: str | None, now: datetime) -> Held | None:
    """The session is active (a page, or activity on one): the pool and number it holds, None
    when it is gone."""
    at = _ms(now)
    args: list[str | int] = [
        at,
        names.DNI_PREFIX,
        _page(page, at) if page else "",
        PAGES_KEPT,
        HOLDERS_KEPT_MS,
    ]
    held = client.register_script(_TOUCH)(keys=[names.dni_session_key(session_id)], args=args)
    return Held(campaign_id=int(held[0]), number=str(held[1])) if held else None


def _holders(answer: list[tuple[str, str, list[str]]]) -> list[Holder]:
    holders = [
        Holder(
            session=VisitorSession.model_validate_json(raw),
            last_seen=int(float(last)),
            pages=[PageView.model_validate_json(p) for p in pages],
        )
        for raw, last, pages in answer
    ]
    return sorted(holders, key=lambda h: h.session.started_at, reverse=True)


async def holders_at(client: AsyncRedis, number: str, moment: datetime) -> list[Holder]:
    """The sessions that held pool number `number` at `moment` (a call's start), latest assigned
    first: one round trip. Empty for a number no visitor held (a static number)."""
    script = client.register_script(_HOLDERS_AT)
    return _holders(await script(keys=[names.dni_holders_key(number)], args=[_ms(moment), names.DNI_PREFIX]))


def holders_at_sync(client: Redis, number: str, moment: datetime) -> list[Holder]:
    """`holders_at` for a blocking client (the portal, tests)."""
    script = client.register_script(_HOLDERS_AT)
    return _holders(script(keys=[names.dni_holders_key(number)], args=[_ms(moment), names.DNI_PREFIX]))


class PoolPressure(BaseModel):
    """How hard a pool is used: its sessions, how often a number was reused while held, the peak
    of sessions active together, and how many numbers that traffic needs (`needed`)."""

    sessions: int
    reused: int
    active: int
    peak_active: int
    needed: int


def needed_numbers(peak_active: int) -> int:
    """One number per session active at once, at the peak seen, plus a tenth for headroom."""
    return math.ceil(peak_active * 1.1)


def pressure(client: Redis, campaign_id: int, timeout_ms: int, now: datetime) -> PoolPressure:
    pool = names.dni_pool_key(campaign_id)
    with client.pipeline(transaction=False) as pipe:
        pipe.hgetall(f"{pool}:stats")
        pipe.zcount(f"{pool}:active", _ms(now) - timeout_ms, "+inf")
        stats, active = pipe.execute()
    peak = int(stats.get("peak", 0))
    return PoolPressure(
        sessions=int(stats.get("sessions", 0)),
        reused=int(stats.get("reused", 0)),
        active=int(active),
        peak_active=peak,
        needed=needed_numbers(peak),
    )


class Candidate(BaseModel):
    """A session that held the called number within its timeout of the call's start."""

    session_id: str
    source: str
    landing_page: str
    last_seen: datetime


class Attribution(BaseModel):
    """What the bridge writes to `call_attribution` for a call to a pool number: the session that
    held the number at the call's start (the latest assigned, when several did: then `ambiguous`,
    with every one of them as `candidates`)."""

    status: Status
    session_id: str
    visitor_id: str
    source: str
    medium: str | None
    campaign: str | None
    keyword: str | None
    content: str | None
    landing_page: str
    referrer: str | None
    click_id: str | None
    click_id_kind: ClickIdKind | None
    utm_source: str | None  # what a traffic source's `utm_source` is matched against
    pages: list[PageView]
    candidates: list[Candidate]


def _when(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def attribution_of(holders: list[Holder]) -> Attribution | None:
    """The attribution of a call to a number these sessions held at its start (`holders_at`)."""
    if not holders:
        return None
    held, s = holders[0], holders[0].session
    candidates = [
        Candidate(
            session_id=h.session.session_id,
            source=h.session.source,
            landing_page=h.session.landing_page,
            last_seen=_when(h.last_seen),
        )
        for h in holders
    ]
    return Attribution(
        status="ambiguous" if len(holders) > 1 else "matched",
        session_id=s.session_id,
        visitor_id=s.visitor_id,
        source=s.source[:128],
        medium=s.utm_medium,
        campaign=s.utm_campaign,
        keyword=s.utm_term,
        content=s.utm_content,
        landing_page=s.landing_page[:2048],
        referrer=s.referrer,
        click_id=s.click_id,
        click_id_kind=s.click_id_kind,
        utm_source=s.utm_source,
        pages=held.pages,
        candidates=candidates if len(holders) > 1 else [],
    )
