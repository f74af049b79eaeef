"""The call table partitioned by month (docs/reports.md, "Partitions" and "Retention"): the migration
converts a table of calls without losing or changing one, and back; calls land in their month's
partition or, for a month not made yet, in the default one; retention archives exactly the months
past the setting, to files that load back the same rows."""

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, text

from core.calls import call_partitions
from core.calls.record import save
from core.infra.db import get_engine
from core.infra.migrate import alembic_config, upgrade
from core.infra.settings import get_settings
from core.operations import call_archive
from testkit.databases import drop_database, fresh_database

# Calls over five months of 2025-2026, some a microsecond before a month starts, some right on it.
SEED = """
INSERT INTO call (linkedid, did, caller, started_at, disposition, duration, billsec, talk_seconds,
                  converted, trail)
SELECT 'conv.' || g, '+442071838750', '+1212555' || lpad(g::text, 4, '0'),
       timestamptz '2025-10-01 00:00+00' + (g % 5) * interval '1 month' + (g % 31) * interval '1 day'
           - CASE WHEN g % 7 = 0 THEN interval '1 microsecond' ELSE interval '0' END,
       CASE WHEN g % 3 = 0 THEN 'BUSY' ELSE 'ANSWERED' END, g % 300, g % 200, g % 100, g % 2 = 0,
       jsonb_build_array(jsonb_build_object('step', 'select', 'n', g))
FROM generate_series(1, :n) g
"""
# Every column of every call, in id order: equal before and after means not one value changed.
FINGERPRINT = "SELECT count(*), md5(string_agg(c::text, '|' ORDER BY c.id)) FROM call c"
PER_MONTH = (
    "SELECT date_trunc('month', started_at, 'UTC') AS m, count(*), array_agg(id ORDER BY id) "
    "FROM call GROUP BY m ORDER BY m"
)


def _where(conn: Connection) -> dict[str, int]:
    """Calls per partition they are stored in."""
    rows = conn.execute(text("SELECT tableoid::regclass::text, count(*) FROM call GROUP BY 1"))
    return {name: n for name, n in rows}


@pytest.fixture
def before_partitions(server_url: str) -> Iterator[tuple[str, str]]:
    """A database of its own at the revision before the conversion, and that revision."""
    name = f"{get_settings().sqlalchemy_url.rsplit('/', 1)[-1].split('?')[0]}_part"
    url = fresh_database(server_url, name).replace("postgresql://", "postgresql+psycopg://", 1)
    previous = ScriptDirectory.from_config(alembic_config(url)).get_revision("0018").down_revision
    upgrade(url, str(previous))
    yield url, str(previous)
    drop_database(server_url, name)


def test_conversion_keeps_every_call_per_month_with_its_id_and_downgrade_gives_them_back(
    before_partitions: tuple[str, str],
) -> None:
    url, previous = before_partitions
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(SEED), {"n": 3000})
        conn.execute(
            text("INSERT INTO users (email, password_hash, role, name) VALUES ('p@example.com', 'x', 1, 'p')")
        )
        conn.execute(
            text(
                "INSERT INTO wallet_transaction (user_id, transaction_type, amount, balance_after, "
                "reference, call_id) SELECT id, 'call', -1, -1, 'call:1', 1 FROM users"
            )
        )
        fingerprint = conn.execute(text(FINGERPRINT)).one()
        months = conn.execute(text(PER_MONTH)).all()
    assert len(months) >= 5

    # The conversion alone: later steps add columns, which would change every row's text.
    upgrade(url, "0018")
    with engine.begin() as conn:
        assert conn.execute(text("SELECT relkind FROM pg_class WHERE relname = 'call'")).scalar() == "p"
        assert conn.execute(text(PER_MONTH)).all() == months
        assert conn.execute(text(FINGERPRINT)).one() == fingerprint
        # Each month's calls in its own partition; none left in the default one.
        stored = _where(conn)
        assert stored == {call_partitions.partition_name(m): n for m, n, _ in months}
        # The ledger entry still names its call; new calls continue the same ids.
        assert conn.execute(text("SELECT call_id FROM wallet_transaction")).scalar() == 1
        new_id = conn.execute(
            text(
                "INSERT INTO call (linkedid, did, caller, started_at, disposition, duration, billsec, "
                "talk_seconds, converted) VALUES ('conv.new', '+1', '+1', now(), 'FAILED', 0, 0, 0, false) "
                "RETURNING id"
            )
        ).scalar()
        assert new_id == 3001
        # What the report reads by is indexed on every partition.
        indexes = conn.execute(
            text(
                "SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                "WHERE i.inhparent = 'ix_call_started'::regclass"
            )
        ).scalar()
        partitions = conn.execute(
            text("SELECT count(*) FROM pg_inherits WHERE inhparent = 'call'::regclass")
        ).scalar()
        assert indexes == partitions >= len(months) + 1
        # And the owner columns' statistics, on every month.
        statistics = "SELECT count(*) FROM pg_statistic_ext WHERE stxname LIKE 'st\\_call\\_owner\\_y%'"
        assert conn.execute(text(statistics)).scalar() == partitions - 1  # all but the default
        conn.execute(text("DELETE FROM call WHERE linkedid = 'conv.new'"))

    command.downgrade(alembic_config(url), previous)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT relkind FROM pg_class WHERE relname = 'call'")).scalar() == "r"
        assert conn.execute(text(PER_MONTH)).all() == months
        assert conn.execute(text(FINGERPRINT)).one() == fingerprint
        fk = "fk_wallet_transaction_call_id_call"
        refs = f"SELECT confrelid::regclass::text FROM pg_constraint WHERE conname = '{fk}'"
        assert conn.execute(text(refs)).scalar() == "call"
    engine.dispose()


def _row(linkedid: str, started: datetime, **fields: Any) -> dict[str, Any]:
    return {
        "linkedid": linkedid,
        "did": "+442071838750",
        "caller": "+12125550100",
        "started_at": started,
        "disposition": "ANSWERED",
        "trail": [],
        "updated_at": started,
        **fields,
    }


def _stored(linkedid: str) -> list[tuple[str, int]]:
    with get_engine().connect() as conn:
        found = conn.execute(
            text("SELECT tableoid::regclass::text, duration FROM call WHERE linkedid = :l"), {"l": linkedid}
        )
        return [(name, duration) for name, duration in found]


def test_calls_land_in_their_month_and_a_month_not_made_yet_in_the_default_partition() -> None:
    now = datetime.now(UTC)
    this_month = call_partitions.partition_name(call_partitions.month_start(now))
    save(_row("part.now", now))
    save(_row("part.now", now, duration=42))  # the bridge's upsert: the same call, updated in place
    assert _stored("part.now") == [(this_month, 42)]

    far = datetime(2091, 3, 5, 12, 0, tzinfo=UTC)
    save(_row("part.far", far))
    assert _stored("part.far") == [(call_partitions.DEFAULT, 0)]
    # The beat's job makes that month and moves the call into it, key and all.
    with get_engine().begin() as conn:
        made = call_partitions.ensure_months(conn, now)
    assert made == ["call_y2091m03"]
    save(_row("part.far", far, duration=7))
    assert _stored("part.far") == [("call_y2091m03", 7)]
    with get_engine().begin() as conn:
        assert call_partitions.ensure_months(conn, now) == []  # nothing left to make


def test_retention_archives_exactly_the_months_past_the_setting_and_they_load_back(tmp_path: Path) -> None:
    months = [datetime(2030, m, 1, tzinfo=UTC) for m in range(1, 7)]
    with get_engine().begin() as conn:
        for month in months:
            call_partitions.create_month(conn, month)
    for i, month in enumerate(months):
        for n in range(i + 2):  # a different count each month
            save(_row(f"ret.{i}.{n}", month.replace(day=n + 1, hour=n), cost=None, duration=n))
    with get_engine().connect() as conn:
        kept = conn.execute(text(FINGERPRINT + " WHERE started_at < '2030-03-01'")).one()

    # June 2030 with two months kept: April, May and June stay; March and every month before go.
    with get_engine().connect() as conn:
        before = call_partitions.attached_months(conn)
    past = sorted(name for name, month in before.items() if month < datetime(2030, 4, 1, tzinfo=UTC))
    assert {"call_y2030m01", "call_y2030m03"} <= set(past) and "call_y2030m04" not in past
    written = call_archive.archive_old_months(datetime(2030, 6, 15, tzinfo=UTC), 2, tmp_path)
    assert [p.name for p in written] == [f"{name}.csv.gz" for name in past]
    with get_engine().connect() as conn:
        left = conn.execute(
            text(
                "SELECT to_char(started_at AT TIME ZONE 'UTC', 'MM'), count(*) FROM call "
                "WHERE linkedid LIKE 'ret.%' GROUP BY 1 ORDER BY 1"
            )
        ).all()
        assert left == [("04", 5), ("05", 6), ("06", 7)]
        assert conn.execute(text("SELECT to_regclass('call_y2030m03')")).scalar() is None
        assert "call_y2030m04" in call_partitions.attached_months(conn)
    assert call_archive.archive_old_months(datetime(2030, 6, 15, tzinfo=UTC), 2, tmp_path) == []

    # The files hold every row: loaded back, the months are as they were.
    files = {p.name: p for p in written}
    assert [call_archive.restore(files[f"call_y2030m0{m}.csv.gz"]) for m in (1, 2)] == [2, 3]
    with get_engine().begin() as conn:
        assert conn.execute(text(FINGERPRINT + " WHERE started_at < '2030-03-01'")).one() == kept
        assert set(_where(conn)) >= {"call_y2030m01", "call_y2030m02"}
        call_partitions.ensure_months(conn, datetime.now(UTC))  # this month's, archived above, back


def test_retention_off_archives_nothing(tmp_path: Path) -> None:
    assert get_settings().call_retention_months == 0
    assert call_archive.archive_old_months(datetime(2040, 1, 1, tzinfo=UTC), folder=tmp_path) == []
