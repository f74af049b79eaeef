"""Rate-card CSV import (POST /rate/import/{tariff_id}): all or nothing, per-line reports, file checks."""

import io
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select
from sqlmodel import Session

from core.infra.db import get_engine, session_scope
from core.models import Call, Country, Rate, Tariff
from core.values.errors import DomainError, ErrorId
from portal_api.services.rate_import import import_rates

HEADER = "prefix,country,rate,connection_fee,initial_increment,billing_increment,min_duration,effective_from"


@pytest.fixture
def tariff_id() -> int:
    with session_scope() as s:
        tariff = Tariff(name="Standard", currency="USD")
        s.add(tariff)
        s.flush()
        return tariff.id


def _csv(*lines: str, header: str = HEADER) -> bytes:
    return ("\n".join([header, *lines]) + "\n").encode()


def _upload(client, actor, tariff_id, data: bytes, query: str = "", name: str = "rates.csv"):
    return client.post(
        f"/api/rate/import/{tariff_id}{query}",
        files={"file": (name, data, "text/csv")},
        headers=actor.headers,
    )


def _count() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(Rate))


def _card(rows: int) -> bytes:
    lines = [
        f"{4400000 + i},{'GB' if i % 2 else ''},0.{i % 10000:04d},0.0100,30,6,{i % 3},2026-01-01T00:00:00Z"
        for i in range(rows)
    ]
    return _csv(*lines)


def test_imports_a_few_thousand_rows_with_defaults_and_inferred_countries(client, admin, tariff_id) -> None:
    r = _upload(client, admin, tariff_id, _card(3000))
    assert r.status_code == 200, r.text
    assert r.json()["data"] == {"tariff_id": tariff_id, "rows": 3000, "inserted": 3000, "replaced": 0}
    assert r.json()["message"] == "3000 rates imported."
    assert _count() == 3000
    with session_scope() as s:
        gb = s.scalar(select(Country.id).where(Country.iso2 == "GB"))
        row = s.scalars(select(Rate).where(Rate.prefix == "4401234")).one()
        assert (
            row.tariff_id,
            row.country_id,
            row.rate_per_minute,
            row.connection_fee,
            row.initial_increment,
            row.billing_increment,
            row.min_duration,
            row.effective_from,
            row.status,
        ) == (
            tariff_id,
            gb,
            Decimal("0.1234"),
            Decimal("0.0100"),
            30,
            6,
            1234 % 3,
            datetime(2026, 1, 1, tzinfo=UTC),
            "active",
        )
        # Country left empty: taken from the prefix.
        assert s.scalars(select(Rate).where(Rate.prefix == "4400000")).one().country_id == gb
    listed = client.get(f"/api/rate/by/{tariff_id}?perpage=1", headers=admin.headers).json()["data"]
    assert listed["total"] == 3000


def test_minimal_columns_any_order_bom_crlf_quotes_and_blank_lines(client, admin, tariff_id) -> None:
    data = '\ufeffRate , Prefix\r\n"0.05",+33\r\n\r\n0.5,"49"\r\n,\r\n'.encode()
    before = datetime.now(UTC)
    r = _upload(client, admin, tariff_id, data)
    assert r.status_code == 200, r.text
    assert r.json()["data"]["rows"] == 2
    with session_scope() as s:
        rows = {row.prefix: row for row in s.scalars(select(Rate))}
        fr = s.scalar(select(Country.id).where(Country.iso2 == "FR"))
    assert set(rows) == {"33", "49"}
    french = rows["33"]
    assert (french.rate_per_minute, french.connection_fee, french.initial_increment, french.min_duration) == (
        Decimal("0.05"),
        Decimal("0"),
        60,
        0,
    )
    assert french.country_id == fr and french.effective_from >= before


def test_one_bad_line_refuses_the_whole_file_with_its_line_number(client, admin, tariff_id) -> None:
    lines = [f"44{i},GB,0.01,0,60,60,0,2026-01-01" for i in range(10)]
    lines[5] = "445,GB,abc,0,60,60,0,2026-01-01"  # line 7 of the file (the header is line 1)
    r = _upload(client, admin, tariff_id, _csv(*lines))
    assert r.status_code == 422
    body = r.json()
    assert body["errors"] == {"line 7": ["rate must be a number"]}
    assert (
        body["message"]
        == "Nothing was imported: 1 line with problems, the first on line 7 (rate must be a number)."
    )
    assert _count() == 0


def test_every_problem_of_a_line_is_reported(client, admin, tariff_id) -> None:
    r = _upload(
        client,
        admin,
        tariff_id,
        _csv(
            "+44a,ZZ,-1,-0.5,0,-6,-1,someday",
            "44,GB,0.01,0,60,60,0",
            ",GB,,0,60,60,0,",
            "44,GB,0.01,0,sixty,60,0,2026-01-01",
            "44,GB,0.000001,0,60,60,0,2026-01-01",
        ),
    )
    assert r.status_code == 422
    assert r.json()["errors"] == {
        "line 2": [
            "prefix must be digits only (a leading + is allowed)",
            "rate can't be negative",
            "connection_fee can't be negative",
            "initial_increment must be greater than 0",
            "billing_increment must be greater than 0",
            "min_duration can't be negative",
            "effective_from must be an ISO 8601 date-time such as 2025-01-01T00:00:00Z",
            "country 'ZZ' is not an ISO 3166 alpha-2 code",
        ],
        "line 3": ["has 7 values; the header has 8"],
        "line 4": ["prefix is required", "rate is required"],
        "line 5": ["initial_increment must be a whole number"],
        "line 6": ["rate has more than 4 decimal places"],
    }
    assert _count() == 0


def test_the_report_is_capped_and_counts_the_rest(client, admin, tariff_id) -> None:
    r = _upload(
        client, admin, tariff_id, _csv(*[f"44{i},GB,x" for i in range(150)], header="prefix,country,rate")
    )
    assert r.status_code == 422
    body = r.json()
    assert len(body["errors"]) == 100 and "line 2" in body["errors"] and "line 101" in body["errors"]
    assert "150 lines with problems" in body["message"] and "50 more are not shown" in body["message"]
    assert _count() == 0


def test_duplicates_in_the_file_and_against_the_tariff(client, admin, tariff_id) -> None:
    dup = _upload(
        client, admin, tariff_id, _csv("44,,0.01,,,,,2026-01-01", "44,,0.02,,,,,2026-01-01T00:00:00+00:00")
    )
    assert dup.status_code == 422
    assert dup.json()["errors"] == {
        "line 3": ["prefix 44 from 2026-01-01T00:00:00+00:00 is already on line 2"]
    }
    assert _count() == 0

    first = _csv("44,,0.01,,,,,2026-01-01", "33,,0.02,,,,,2026-01-01")
    assert _upload(client, admin, tariff_id, first).status_code == 200
    again = _upload(client, admin, tariff_id, _csv("49,,0.03,,,,,2026-01-01", "44,,0.05,,,,,2026-01-01"))
    assert again.status_code == 422
    assert list(again.json()["errors"]) == ["line 3"]
    assert "already exists in this tariff" in again.json()["errors"]["line 3"][0]
    assert _count() == 2


def test_replace_overwrites_existing_rates_but_never_one_calls_used(client, admin, tariff_id) -> None:
    assert _upload(
        client, admin, tariff_id, _csv("44,,0.01,,,,,2026-01-01", "33,,0.02,,,,,2026-01-01")
    ).is_success
    with session_scope() as s:
        french = s.scalars(select(Rate).where(Rate.prefix == "33")).one()
        french.status = "inactive"
    r = _upload(
        client,
        admin,
        tariff_id,
        _csv("44,GB,0.10,0.01,30,6,5,2026-01-01", "33,,0.20,,,,,2026-01-01", "49,,0.3,,,,,2026-01-01"),
        query="?replace=true",
    )
    assert r.status_code == 200, r.text
    assert r.json()["data"] == {"tariff_id": tariff_id, "rows": 3, "inserted": 1, "replaced": 2}
    with session_scope() as s:
        rows = {row.prefix: row for row in s.scalars(select(Rate))}
        assert (rows["44"].rate_per_minute, rows["44"].billing_increment, rows["44"].min_duration) == (
            Decimal("0.1"),
            6,
            5,
        )
        assert rows["33"].rate_per_minute == Decimal("0.2") and rows["33"].status == "inactive"
        s.add(
            Call(
                linkedid="c1",
                did="+442071838750",
                caller="+15551234567",
                started_at=datetime.now(UTC),
                disposition="ANSWERED",
                rate_id=rows["44"].id,
            )
        )
    used = _upload(client, admin, tariff_id, _csv("44,,0.99,,,,,2026-01-01"), query="?replace=true")
    assert used.status_code == 422 and "was used by calls" in used.json()["errors"]["line 2"][0]
    with session_scope() as s:
        assert s.scalars(select(Rate.rate_per_minute).where(Rate.prefix == "44")).one() == Decimal("0.1")
    assert _count() == 3


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "The file is not UTF-8 text"),
        ("prefix,rate\n44,0.01 \xe9\n".encode("latin-1"), "The file is not UTF-8 text"),
        (b"prefix,rate\n44,0\x00.01\n", "The file is not a CSV text file"),
        (b"", "The file is empty"),
        (b"\n\n  \n", "The file is empty"),
        (HEADER.encode() + b"\n", "The file has a header line but no rates."),
        (b"44,GB,0.01\n33,FR,0.02\n", "The first line must name the columns"),
        (b"prefix;rate\n44;0.01\n", "The first line must name the columns"),
        (b"prefix,rte\n44,0.01\n", "The first line must name the columns"),
        (b"prefix,rate,rate\n44,0.01,0.01\n", "The first line must name the columns"),
        (b"prefix,rate\n44," + b"1" * 200_000 + b"\n", "The file is not a readable CSV"),
    ],
)
def test_files_that_are_not_a_rate_card_csv_are_refused(client, admin, tariff_id, data, message) -> None:
    r = _upload(client, admin, tariff_id, data)
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith(message)
    assert _count() == 0


def test_header_problems_are_listed_on_line_1(client, admin, tariff_id) -> None:
    r = _upload(client, admin, tariff_id, b"prefix,rte,prefix\n44,1,44\n")
    assert r.json()["errors"] == {
        "line 1": ["unknown column 'rte'", "column 'prefix' appears twice", "missing column 'rate'"]
    }


def test_a_file_over_10_mb_is_refused_with_413(client, admin, tariff_id) -> None:
    big = _csv(*["4420,GB,0.0125,0,60,60,0,2026-01-01T00:00:00Z"] * 240_000)
    assert len(big) > 10_000_000
    r = _upload(client, admin, tariff_id, big)
    assert r.status_code == 413 and "too large" in r.json()["message"]
    assert _count() == 0


def test_the_import_checks_the_size_itself(tariff_id) -> None:
    with Session(get_engine()) as session, pytest.raises(DomainError) as refused:
        import_rates(session, tariff_id, io.BytesIO(_card(10)), replace=False, max_bytes=100)
    assert refused.value.error == ErrorId.UPLOAD_TOO_LARGE
    assert _count() == 0


def test_only_an_admin_imports_into_an_existing_tariff(client, admin, customer_a, buyer_a, tariff_id) -> None:
    for actor in (customer_a, buyer_a):
        assert _upload(client, actor, tariff_id, _card(3)).status_code == 403
    assert _upload(client, admin, 424242, _card(3)).json() == {"message": "Tariff not found."}
    assert _upload(client, admin, "abc", _card(3)).status_code == 404  # an id in a path is digits
    no_file = client.post(f"/api/rate/import/{tariff_id}", headers=admin.headers)
    assert no_file.status_code == 422 and "file" in no_file.json()["errors"]
    wrong_field = client.post(
        f"/api/rate/import/{tariff_id}", files={"csv": ("r.csv", _card(3), "text/csv")}, headers=admin.headers
    )
    assert wrong_field.status_code == 422
    assert _count() == 0
