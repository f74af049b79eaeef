"""Benchmark: the call report, the buyer report, the dashboard and the CSV export at millions of calls.

    .venv/bin/python -m bench.reports                  # 1 M calls (about 10 min on 2 cores)
    .venv/bin/python -m bench.reports --calls 10000000 # 10 M (seeding alone takes a long while)
    .venv/bin/python -m bench.reports --keep NAME      # seed database NAME once, reuse it next time
    .venv/bin/python -m bench.reports --keep NAME --only small   # those requests alone, no export

Seeds a database on BENCH_DATABASE_URL's server (testkit.databases: throw-away unless --keep) with
calls over the last 12 months, skewed as a call network's are: 50 customers, the biggest with a
quarter of all calls, 70 % answered, routing trails like the bridge writes them; COPY, not the ORM.
A reused database is migrated to head first, so the same rows measure the code before and after a
change. Then serves the API (uvicorn, testkit.processes) and prints, per request and role, p50/p95
over --reps runs of one client, the CSV export's rows/s, and --seconds of 20 clients mixing the
requests (req/s, p95, errors).
"""

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import orjson
import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench import DATABASE_SERVER  # noqa: E402
from testkit.databases import drop_database, fresh_database, servers  # noqa: E402

CUSTOMERS = 50
BIGGEST_SHARE = 0.25
ANSWERED_SHARE = 0.70
WORDS = ["Solar", "Insurance", "Legal", "Medicare", "Debt Relief", "HVAC", "Roofing", "Auto Repair"]
# Unanswered calls, in the proportions a network sees them (the rest of the 30 %).
MISSED = [("NO ANSWER", 0.45, 19, 480), ("BUSY", 0.25, 17, 486), ("FAILED", 0.15, 34, 503)]
REFUSED = [("NO_ROUTE", 0.05), ("BLOCKED", 0.03), ("NO_BALANCE", 0.04), ("DUPLICATE", 0.03)]
CALL_COLUMNS = (
    "linkedid, user_id, campaign_id, did, caller, target_id, buyer_id, trunk_id, destination,"
    " started_at, answered_at, connected_at, ended_at, duration, billsec, talk_seconds, billsec_ms,"
    " talk_ms, disposition, hangup_cause, hangup_cause_text, sip_status, hangup_by, converted, cost,"
    " payout, rating_status, rated_at, trail, source, created_at, caller_country, caller_region,"
    " caller_line_type"
)


@dataclass
class Tenant:
    """A seeded customer: its sign-in, campaigns (id, name, DIDs) and targets (id, buyer, number)."""

    user_id: int
    token: str
    campaigns: list[tuple[int, str, list[str]]] = field(default_factory=list)
    targets: list[tuple[int, int, str, str]] = field(default_factory=list)


def customer_weights() -> list[float]:
    """The biggest a quarter; the other 49 share the rest on a Zipf curve."""
    rest = [1 / (k**1.1) for k in range(1, CUSTOMERS)]
    scale = (1 - BIGGEST_SHARE) / sum(rest)
    return [BIGGEST_SHARE] + [w * scale for w in rest]


def seed_catalogue(rng: random.Random) -> tuple[str, list[Tenant], list[int]]:
    """An admin, the customers with campaigns, buyers (with sign-ins) and targets, three trunks."""
    from core.infra.db import session_scope
    from core.models import Campaign, Target, Trunk
    from testkit.actors import make_actor

    admin = make_actor(1, "Bench Admin")
    tenants = []
    with session_scope() as s:
        trunks = [
            Trunk(name=f"carrier-{n}", direction="outbound", host=f"c{n}.example.net") for n in range(3)
        ]
        s.add_all(trunks)
        s.flush()
        trunk_ids = [t.id or 0 for t in trunks]
    for n in range(CUSTOMERS):
        owner = make_actor(2, f"Customer {n:02d}")
        tenant = Tenant(owner.id, owner.token)
        with session_scope() as s:
            for k in range(rng.randint(2, 4)):
                camp = Campaign(user_id=owner.id, name=f"{rng.choice(WORDS)} {n:02d}-{k}")
                s.add(camp)
                s.flush()
                dids = [f"+1{rng.randint(200, 999)}555{rng.randint(1000, 9999)}" for _ in range(3)]
                tenant.campaigns.append((camp.id or 0, camp.name, dids))
        for b in range(3):
            buyer = make_actor(3, f"Buyer {n:02d}-{b}", owner)
            with session_scope() as s:
                for t in range(2):
                    number = f"1{rng.randint(200, 999)}{rng.randint(2000000, 9999999)}"
                    target = Target(
                        user_id=owner.id,
                        buyer_id=buyer.buyer_id or 0,
                        name=f"Desk {n}-{b}-{t}",
                        destination=number,
                    )
                    s.add(target)
                    s.flush()
                    tenant.targets.append((target.id or 0, buyer.buyer_id or 0, target.name, number))
        tenants.append(tenant)
    return admin.token, tenants, trunk_ids


def _trail(
    at: datetime, tenant: Tenant, campaign_id: int, picks: list[tuple[int, int, str, str]], outcome: str
) -> str:
    """A trail as the engine and the bridge write it: route, credit, the targets considered, the
    selection and one entry per dial attempt (about 1 KB, as real rows)."""
    stamp = at.isoformat()
    entries: list[dict[str, Any]] = [
        {
            "step": "route",
            "at": stamp,
            "result": "passed",
            "reason": "The number belongs to an active campaign.",
            "number_id": None,
            "campaign_id": campaign_id,
            "user_id": tenant.user_id,
        },
        {
            "step": "credit",
            "at": stamp,
            "result": "passed",
            "reason": "The balance covers the buffer.",
            "available": "1523.4100",
            "required": "0.6000",
        },
    ]
    for target_id, buyer_id, name, _ in picks:
        entries.append(
            {
                "step": "target",
                "at": stamp,
                "result": "candidate",
                "reason": "Open, under its caps.",
                "target_id": target_id,
                "name": name,
                "buyer_id": buyer_id,
                "priority": 1,
                "weight": 50,
            }
        )
    entries.append(
        {
            "step": "select",
            "at": stamp,
            "result": "passed",
            "reason": "Ordered by priority and weight.",
            "order": [p[0] for p in picks],
            "strategy": "priority_weight",
            "cursor": None,
        }
    )
    for target_id, _, name, number in picks:
        entries.append(
            {
                "step": "dial",
                "at": stamp,
                "result": outcome,
                "reason": "The target's answer.",
                "target_id": target_id,
                "name": name,
                "trunk_id": 1,
                "destination": number,
                "status": "ANSWER" if outcome == "passed" else "BUSY",
                "sip_status": 200,
            }
        )
    return orjson.dumps(entries).decode()


def _origins(callers: list[str]) -> dict[str, tuple[str, str, str]]:
    """Each caller's (country, region, line type) as the bridge stores them, read once per area
    code (`+1` and 3 digits, `+44` and 2): the geocoder per number would take minutes at 10 M."""
    from core.calls.caller_origin import caller_origin

    by_area: dict[str, tuple[str, str, str]] = {}
    out = {}
    for caller in callers:
        area = caller[:5]
        if area not in by_area:
            o = caller_origin(caller)
            by_area[area] = (o.country, o.region, o.line_type.value)
        out[caller] = by_area[area]
    return out


def seed_calls(
    conn: psycopg.Connection, rng: random.Random, tenants: list[Tenant], trunks: list[int], n: int
) -> None:
    """`n` ended, rated calls over the last 365 days, skewed over `tenants`."""
    weights = customer_weights()
    callers = [f"+1{rng.randint(200, 999)}{rng.randint(2000000, 9999999)}" for _ in range(max(1000, n // 5))]
    callers += [f"+447{rng.randint(100000000, 999999999)}" for _ in range(max(100, n // 50))]
    origins = _origins(callers)
    now = datetime.now(UTC)
    first = now - timedelta(days=365)
    span = (now - first).total_seconds()
    missed = [m for m in MISSED]
    refused_w = sum(w for _, w in REFUSED)
    chunk = 50_000
    with conn.cursor() as cur:
        for base in range(0, n, chunk):
            with cur.copy(f"COPY call ({CALL_COLUMNS}) FROM STDIN") as copy:
                for i in range(base, min(n, base + chunk)):
                    tenant = rng.choices(tenants, weights)[0]
                    campaign_id, _, dids = rng.choice(tenant.campaigns)
                    # In time order with jitter, as the bridge appends them: a month's rows sit
                    # together on disk, as in a real call table.
                    started = first + timedelta(seconds=(i + rng.random()) * span / n)
                    caller = rng.choice(callers)
                    draw = rng.random()
                    picks = rng.sample(tenant.targets, rng.randint(1, 3))
                    answered = connected = ended = None
                    billsec = talk = 0
                    cost = None
                    payout = "0"
                    cause, cause_text, sip = 16, "Normal Clearing", 200
                    target = trunk = None
                    destination = None
                    hangup_by = "caller"
                    if draw < ANSWERED_SHARE:
                        disposition = "ANSWERED"
                        target_id, buyer_id, _, destination = picks[-1]
                        target, trunk = (target_id, buyer_id), rng.choice(trunks)
                        answered = started + timedelta(seconds=rng.uniform(0.5, 3))
                        connected = answered + timedelta(seconds=rng.uniform(2, 15))
                        talk_ms = int(rng.expovariate(1 / 180_000))
                        ended = connected + timedelta(milliseconds=talk_ms)
                        billsec_ms = int((ended - answered).total_seconds() * 1000)
                        billsec, talk = -(-billsec_ms // 1000), -(-talk_ms // 1000)
                        cost = f"{billsec / 60 * 0.02:.4f}"
                        payout = "5.0000" if talk > 90 else "0"
                        outcome = "passed"
                    elif draw < ANSWERED_SHARE + (1 - ANSWERED_SHARE) * (1 - refused_w):
                        disposition, _, cause, sip = rng.choices(missed, [m[1] for m in missed])[0]
                        cause_text = {19: "No answer", 17: "User busy", 34: "No circuit available"}[cause]
                        target_id, buyer_id, _, destination = picks[-1]
                        target, trunk = (target_id, buyer_id), rng.choice(trunks)
                        ended = started + timedelta(seconds=rng.uniform(5, 30))
                        billsec_ms = talk_ms = 0
                        cost = "0.0000"
                        outcome = "stopped"
                    else:
                        disposition = rng.choices([r[0] for r in REFUSED], [r[1] for r in REFUSED])[0]
                        ended = started + timedelta(seconds=rng.uniform(1, 4))
                        billsec_ms = talk_ms = 0
                        cause, cause_text, sip = 21, "Call rejected", 403
                        cost = "0.0000"
                        picks = []
                        outcome = "stopped"
                        hangup_by = "system"
                    copy.write_row(
                        (
                            f"{int(started.timestamp())}.{i}",
                            tenant.user_id,
                            campaign_id,
                            rng.choice(dids),
                            caller,
                            target[0] if target else None,
                            target[1] if target else None,
                            trunk,
                            destination,
                            started,
                            answered,
                            connected,
                            ended,
                            int((ended - started).total_seconds()),
                            billsec,
                            talk,
                            billsec_ms,
                            talk_ms,
                            disposition,
                            cause,
                            cause_text,
                            sip,
                            hangup_by,
                            answered is not None and rng.random() < 0.2,
                            cost,
                            payout,
                            "rated",
                            ended,
                            _trail(started, tenant, campaign_id, picks, outcome),
                            "bridge",
                            ended,
                            *origins[caller],
                        )
                    )
            conn.commit()
            print(f"  seeded {min(n, base + chunk):,} calls", file=sys.stderr, flush=True)


def seed(url: str, calls: int) -> None:
    from core.infra.db import session_scope
    from core.operations.seed import seed_countries

    rng = random.Random(24)
    with session_scope() as s:
        seed_countries(s)
    _admin, tenants, trunks = seed_catalogue(rng)
    # The year's monthly partitions, as the workers' beat would have made them month by month.
    from core.calls.call_partitions import add_months, create_month, month_start
    from core.infra.db import get_engine

    with get_engine().begin() as conn:
        for n in range(-13, 1):
            create_month(conn, add_months(month_start(datetime.now(UTC)), n))
    started = time.perf_counter()
    with psycopg.connect(url) as conn:
        seed_calls(conn, rng, tenants, trunks, calls)
        conn.execute("ANALYZE")
        # The partitions' sizes: the partitioned table itself holds no rows.
        size = conn.execute(
            "SELECT pg_size_pretty(sum(pg_total_relation_size(relid))) FROM pg_partition_tree('call')"
        ).fetchone()
    print(f"seeded {calls:,} calls in {time.perf_counter() - started:.0f} s ({size[0] if size else '?'})")
    after_seed(url)


def after_seed(url: str) -> None:
    """The dashboard's rollups, as the nightly job writes them (COPY skipped rating's hand-off)."""
    from core.infra.db import session_scope
    from core.reporting import rollups

    started = time.perf_counter()
    with session_scope() as s:
        written = rollups.rebuild(s)
    print(f"rollups rebuilt: {written:,} rows in {time.perf_counter() - started:.1f} s")
    # As autovacuum leaves a table that stopped changing: every page all-visible (index-only scans
    # read no row), hint bits set, and the writes flushed, so no request pays for them.
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        for table in ("call", "call_rollup", "call_rollup_day", "call_region_rollup"):
            conn.execute(f"VACUUM (ANALYZE) {table}")
        conn.execute("CHECKPOINT")
    print(f"vacuumed in {time.perf_counter() - started:.1f} s")


@dataclass
class Request:
    name: str
    role: str
    method: str
    path: str
    token: str
    params: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None


def requests_for(url: str, tokens: dict[str, str]) -> tuple[list[Request], dict[str, Any]]:
    """The issue's table: each request with the values a person would type, read from the rows."""
    with psycopg.connect(url) as conn:
        big, small = conn.execute(
            "SELECT (array_agg(user_id ORDER BY n DESC))[1], (array_agg(user_id ORDER BY n))[1]"
            " FROM (SELECT user_id, count(*) n FROM call GROUP BY user_id) c"
        ).fetchone() or (0, 0)
        big_caller, big_did = conn.execute(
            "SELECT caller, did FROM call WHERE user_id = %s ORDER BY id DESC LIMIT 1", (big,)
        ).fetchone() or ("", "")
        small_caller = (
            conn.execute(
                "SELECT caller FROM call WHERE user_id = %s ORDER BY id DESC LIMIT 1", (small,)
            ).fetchone()
            or ("",)
        )[0]
        buyer_user, small_buyer = (
            (
                conn.execute(
                    "SELECT b.login_user_id FROM buyer b JOIN call c ON c.buyer_id = b.id"
                    " WHERE b.user_id = %s ORDER BY c.id DESC LIMIT 1",
                    (owner,),
                ).fetchone()
                or (0,)
            )[0]
            for owner in (big, small)
        )
        # The platform's most common named region (the issue's "Florida callers"), from a sample.
        country, region = conn.execute(
            "SELECT caller_country, caller_region FROM call TABLESAMPLE SYSTEM (1)"
            " WHERE caller_region <> 'unknown' GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1"
        ).fetchone() or ("US", "unknown")
    today = date.today()
    month_end = today.replace(day=1) - timedelta(days=1)
    month = {"fromDate": month_end.replace(day=1).isoformat(), "toDate": month_end.isoformat()}
    admin, bigt, smallt, buyert, small_buyert = (
        tokens["admin"],
        tokens[str(big)],
        tokens[str(small)],
        tokens[str(buyer_user)],
        tokens[str(small_buyer)],
    )
    busy = {"disposition": "BUSY"}
    place = {"caller_country": country, "caller_region": region}
    report = "/api/report"
    groups = "/api/report/groups"
    return [
        Request("report, first page, no filter", "admin", "GET", report, admin),
        Request("report, one month", "admin", "GET", report, admin, month),
        Request("report, page 1,000", "admin", "GET", report, admin, {"page": "1000"}),
        Request("report, caller exact", "admin", "GET", report, admin, {"caller_number": big_caller}),
        Request("report, did exact", "admin", "GET", report, admin, {"did_number": big_did}),
        Request("report, disposition = BUSY", "admin", "GET", report, admin, {"disposition": "BUSY"}),
        Request("report, campaign name partial", "admin", "GET", report, admin, {"campaign_name": "solar"}),
        Request("report, caller exact", "biggest", "GET", report, bigt, {"caller_number": big_caller}),
        Request("report, did exact", "biggest", "GET", report, bigt, {"did_number": big_did}),
        Request("report, disposition = BUSY", "biggest", "GET", report, bigt, {"disposition": "BUSY"}),
        Request(
            "report, caller prefix +1", "biggest", "GET", report, bigt, {"caller_number": big_caller[:5]}
        ),
        Request("report, caller exact", "small", "GET", report, smallt, {"caller_number": small_caller}),
        # A small tenant's filters by a value every tenant's calls share (issue 38): its own rows only.
        Request("report, disposition = BUSY", "small", "GET", report, smallt, busy),
        Request(f"report, region {region}", "small", "GET", report, smallt, place),
        Request(f"report, country {country}", "small", "GET", report, smallt, {"caller_country": country}),
        Request(
            "report, small customer, BUSY", "admin", "GET", report, admin, {**busy, "user_id": str(small)}
        ),
        Request(
            f"report, small customer, region {region}",
            "admin",
            "GET",
            report,
            admin,
            {**place, "user_id": str(small)},
        ),
        Request(
            "buyer report, disposition = BUSY",
            "small buyer",
            "POST",
            "/api/buyer/buyer-report",
            small_buyert,
            body=busy,
        ),
        Request(
            "buyer report, disposition",
            "buyer",
            "POST",
            "/api/buyer/buyer-report",
            buyert,
            body={"disposition": "ANSWERED"},
        ),
        Request(
            "buyer report, caller prefix",
            "buyer",
            "POST",
            "/api/buyer/buyer-report",
            buyert,
            body={"caller_number": big_caller[:5]},
        ),
        Request("buyer report, all buyers", "admin", "POST", "/api/buyer/buyer-report", admin, body={}),
        Request("report sorted by cost, first page", "admin", "GET", report, admin, {"sort": "cost"}),
        Request(
            "report sorted by duration, first page", "biggest", "GET", report, bigt, {"sort": "duration"}
        ),
        Request("report totals, one month", "biggest", "GET", f"{report}/totals", bigt, month),
        Request(
            "report groups by campaign, one month", "admin", "GET", groups, admin, {**month, "by": "campaign"}
        ),
        Request(
            "report groups by campaign, one month",
            "biggest",
            "GET",
            groups,
            bigt,
            {**month, "by": "campaign"},
        ),
        Request("report groups by day, one month", "biggest", "GET", groups, bigt, {**month, "by": "day"}),
        Request(
            "report groups by target, one month", "buyer", "GET", groups, buyert, {**month, "by": "target"}
        ),
        Request("report groups by campaign, all time", "small", "GET", groups, smallt, {"by": "campaign"}),
        Request("dashboard month, call", "admin", "GET", "/api/dashboard/call", admin, {"type": "month"}),
        Request(
            "dashboard month, call-detail",
            "admin",
            "GET",
            "/api/dashboard/call-detail",
            admin,
            {"type": "month"},
        ),
        Request("dashboard month, call", "biggest", "GET", "/api/dashboard/call", bigt, {"type": "month"}),
        Request(
            "dashboard month, call-detail",
            "biggest",
            "GET",
            "/api/dashboard/call-detail",
            bigt,
            {"type": "month"},
        ),
    ], {"month": month, "biggest": bigt}


def send(client: httpx.Client, base: str, r: Request) -> float:
    started = time.perf_counter()
    answer = client.request(
        r.method, base + r.path, params=r.params, json=r.body, headers={"Authorization": f"Bearer {r.token}"}
    )
    if answer.status_code != 200:
        raise RuntimeError(f"{r.name} ({r.role}): {answer.status_code} {answer.text[:200]}")
    return time.perf_counter() - started


def pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def single(base: str, requests: list[Request], reps: int) -> None:
    print(f"\n| request | role | p50 ms | p95 ms |  (one client, {reps} runs)\n|---|---|---|---|")
    with httpx.Client(timeout=300) as client:
        for r in requests:
            send(client, base, r)  # warm: the first run reads from disk, later ones from the cache
            times = [send(client, base, r) for _ in range(reps)]
            print(
                f"| {r.name} | {r.role} | {pct(times, 0.5) * 1000:,.1f} | {pct(times, 0.95) * 1000:,.1f} |",
                flush=True,
            )


def export(base: str, token: str, month: dict[str, str]) -> tuple[int, float]:
    """Rows of the CSV download and its seconds."""
    started = time.perf_counter()
    rows = 0
    with (
        httpx.Client(timeout=600) as client,
        client.stream(
            "POST", base + "/api/report/save", params=month, headers={"Authorization": f"Bearer {token}"}
        ) as answer,
    ):
        for chunk in answer.iter_bytes():
            rows += chunk.count(b"\n")
    return rows - 1, time.perf_counter() - started


def concurrent(base: str, requests: list[Request], clients: int, seconds: float) -> None:
    """Prints req/s, p50, p95 and errors, and the request types slowest at p95 (what dominates)."""
    times: list[float] = []
    by_type: dict[str, list[float]] = {}
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client_loop(seed_: int) -> None:
        rng = random.Random(seed_)
        with httpx.Client(timeout=60) as client:
            while time.monotonic() < stop:
                r = rng.choice(requests)
                try:
                    took = send(client, base, r)
                    with lock:
                        times.append(took)
                        by_type.setdefault(f"{r.name} ({r.role})", []).append(took)
                except Exception as exc:  # a timeout or error is a figure here
                    with lock:
                        errors.append(f"{type(exc).__name__}: {exc}"[:120])

    started = time.monotonic()
    threads = [threading.Thread(target=client_loop, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - started
    p95 = pct(times, 0.95) * 1000 if times else float("nan")
    p50 = pct(times, 0.5) * 1000 if times else float("nan")
    print(
        f"\n{clients} concurrent clients mixing the requests, {wall:.0f} s: {len(times) / wall:.1f} req/s,"
        f" p50 {p50:,.0f} ms, p95 {p95:,.0f} ms, {len(errors)} errors"
    )
    for e in sorted(set(errors))[:5]:
        print("   ", e)
    slowest = sorted(by_type.items(), key=lambda kv: -pct(kv[1], 0.95))[:5]
    for name, samples in slowest:
        p50, p95 = (pct(samples, p) * 1000 for p in (0.5, 0.95))
        print(f"    {name}: {len(samples)} runs, p50 {p50:,.0f} ms, p95 {p95:,.0f} ms")


def session_tokens(url: str) -> dict[str, str]:
    """A fresh session token per signed-in user (admin, customers by id, buyers by login id)."""
    from sqlalchemy import select

    from core.infra.db import session_scope
    from core.models import User
    from core.values.enums import TokenKind
    from portal_api.auth import tokens

    out = {}
    with session_scope() as s:
        for user in s.scalars(select(User)):
            token, _ = tokens.issue(s, user.id or 0, TokenKind.SESSION, 24)
            out["admin" if user.role == 1 else str(user.id)] = token
    return out


@contextmanager
def seeded_database(name: str, keep: bool, calls: int) -> Iterator[str]:
    """A database `name` at head with `calls` seeded (reused when `keep` and already seeded), and
    Redis servers of its own; the URL, set as DATABASE_URL. Dropped after unless kept."""
    from core.infra.migrate import upgrade
    from core.infra.settings import get_settings

    with tempfile.TemporaryDirectory() as tmp, servers(Path(tmp)) as (_, redis_url):
        os.environ["REDIS_URL"] = redis_url
        from launcher.embedded import replace_database

        url = replace_database(DATABASE_SERVER, name)
        with psycopg.connect(DATABASE_SERVER, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not (keep and exists):
            url = fresh_database(DATABASE_SERVER, name)
        os.environ["DATABASE_URL"] = url
        get_settings.cache_clear()
        upgrade(get_settings().sqlalchemy_url)
        try:
            with psycopg.connect(url) as conn:
                found = (conn.execute("SELECT count(*) FROM call").fetchone() or (0,))[0]
            if not found:
                seed(url, calls)
            else:
                print(f"reusing {name}: {found:,} calls")
                after_seed(url)
            yield url
        finally:
            from core.infra.db import get_engine

            get_engine().dispose()
            if not keep:
                drop_database(DATABASE_SERVER, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=10, help="runs of each request, one client")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--keep", metavar="NAME", help="seed database NAME once and keep it (reused when seeded)")
    ap.add_argument(
        "--only",
        metavar="TEXT",
        help="only the requests whose 'name (role)' contains TEXT; no export nor clients",
    )
    args = ap.parse_args()

    from testkit.processes import api_server

    with seeded_database(
        args.keep or f"callroute_bench_reports_{os.getpid()}", bool(args.keep), args.calls
    ) as url:
        tokens = session_tokens(url)
        requests, extra = requests_for(url, tokens)
        if args.only:
            requests = [r for r in requests if args.only in f"{r.name} ({r.role})"]
        with api_server() as base:
            single(base, requests, args.reps)
            if args.only:
                return
            runs = [export(base, extra["biggest"], extra["month"]) for _ in range(3)]
            rows, took = sorted(runs, key=lambda r: r[1])[1]  # the median of three
            print(
                f"\nCSV export, biggest customer, one month: {rows:,} rows in {took:.1f} s"
                f" = {rows / took:,.0f} rows/s (median of 3)"
            )
            concurrent(base, requests, args.clients, args.seconds)


if __name__ == "__main__":
    main()
