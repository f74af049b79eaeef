"""The Google Ads offline click conversions export: exactly the converted calls whose visit carried a
Google click id, in the customer's time zone, values in the currency's minor unit; each tenant its
own; a bad range refused before anything is read."""

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from core.models import Call, CallAttribution, Tariff, User
from testkit.actors import Actor
from testkit.rows import change, save

PATH = "/api/conversions/google-ads"
NOVEMBER = {"fromDate": "2026-11-01", "toDate": "2026-11-30"}
HEADER = "Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency"


def _call(
    owner: Actor,
    at: datetime,
    click: tuple[str, str] | None,
    converted: bool = True,
    payout: str = "5",
) -> None:
    """A call of `owner` started `at` (UTC), its visit's (kind, click id) when it had one."""
    row = save(
        Call(
            linkedid=f"{owner.id}.{at.timestamp()}",
            user_id=owner.id,
            did="+442071838750",
            caller="+447911123456",
            started_at=at,
            disposition="ANSWERED",
            converted=converted,
            payout=Decimal(payout) if converted else Decimal(0),
        )
    )
    if click is not None:
        kind, click_id = click
        save(
            CallAttribution(
                call_id=row.id,
                call_started_at=at,
                user_id=owner.id,
                status="matched",
                source="google",
                click_id=click_id,
                click_id_kind=kind,
            )
        )


def _export(client: Any, who: Actor, **params: Any) -> Any:
    return client.get(PATH, headers=who.headers, params={**NOVEMBER, **params})


@pytest.fixture
def a_in_euros(customer_a: Actor) -> Actor:
    """Customer A (Europe/Berlin) billed in euros."""
    change(User, customer_a.id, tariff_id=save(Tariff(name="Euro", currency="EUR")).id)
    return customer_a


def test_only_converted_calls_with_a_google_click_id_in_the_customers_zone_and_minor_unit(
    client: Any, a_in_euros: Actor, customer_b: Actor, admin: Actor
) -> None:
    a = a_in_euros
    utc = UTC
    # Berlin's November is 2026-10-31 23:00 to 2026-11-30 23:00 UTC (CET, +01:00).
    _call(a, datetime(2026, 10, 31, 23, 0, 0, tzinfo=utc), ("gclid", "Cj0KCQiA_first-1"), payout="12.5")
    _call(a, datetime(2026, 11, 10, 9, 15, 30, tzinfo=utc), ("gbraid", "0AAAAAgb_2"), payout="5.0050")
    _call(a, datetime(2026, 11, 30, 22, 59, 59, tzinfo=utc), ("wbraid", "CjkKwb-3"), payout="5.0049")
    # Left out: before and after Berlin's November, not converted, no Google click, no visit, a
    # "click id" a visitor typed to run in a spreadsheet.
    _call(a, datetime(2026, 10, 31, 22, 59, 59, tzinfo=utc), ("gclid", "Early"))
    _call(a, datetime(2026, 11, 30, 23, 0, 0, tzinfo=utc), ("gclid", "Late"))
    _call(a, datetime(2026, 11, 12, 12, tzinfo=utc), ("gclid", "NotConverted"), converted=False)
    _call(a, datetime(2026, 11, 13, 12, tzinfo=utc), ("fbclid", "IwAR2F4"))
    _call(a, datetime(2026, 11, 14, 12, tzinfo=utc), None)
    _call(a, datetime(2026, 11, 15, 12, tzinfo=utc), ("gclid", '=HYPERLINK("x")'))
    _call(customer_b, datetime(2026, 11, 16, 12, tzinfo=utc), ("gclid", "BobsClick"))

    r = _export(client, a, conversion_name="Booked call, phone")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/csv")
    assert 'filename="google-ads-conversions-2026-11-01-2026-11-30.csv"' in r.headers["content-disposition"]
    assert r.text == (
        "Parameters:TimeZone=Europe/Berlin\r\n"
        f"{HEADER}\r\n"
        'Cj0KCQiA_first-1,,,"Booked call, phone",2026-11-01 00:00:00,12.50,EUR\r\n'
        ',0AAAAAgb_2,,"Booked call, phone",2026-11-10 10:15:30,5.01,EUR\r\n'
        ',,CjkKwb-3,"Booked call, phone",2026-11-30 23:59:59,5.00,EUR\r\n'
    )
    # The admin names the customer and gets the same file, in the customer's zone, not its own.
    assert client.get(PATH, headers=admin.headers, params={**NOVEMBER, "user_id": a.id}).text == (
        r.text.replace('"Booked call, phone"', "Phone call")
    )
    # B's own file holds B's call only (USD: no tariff), in B's zone (UTC).
    assert _export(client, customer_b).text.splitlines()[2:] == [
        "BobsClick,,,Phone call,2026-11-16 12:00:00,5.00,USD"
    ]


def test_another_customers_conversions_are_a_404_and_buyers_are_refused(
    client: Any, customer_a: Actor, customer_b: Actor, buyer_a: Actor, admin: Actor
) -> None:
    _call(customer_a, datetime(2026, 11, 10, tzinfo=UTC), ("gclid", "AlicesClick"))
    r = _export(client, customer_b, user_id=customer_a.id)
    assert r.status_code == 404 and list(r.json()["errors"]) == ["user_id"]
    assert "AlicesClick" not in r.text
    assert _export(client, buyer_a).status_code == 403
    r = _export(client, admin)  # whose? an admin names the customer
    assert r.status_code == 422 and r.json()["errors"] == {"user_id": [r.json()["message"]]}
    r = _export(client, admin, user_id=admin.id)  # an account, but no customer
    assert r.status_code == 404 and list(r.json()["errors"]) == ["user_id"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"fromDate": "2026-11-30", "toDate": "2026-11-01"}, "toDate"),  # backwards
        ({"fromDate": "2026-08-01", "toDate": "2026-10-30"}, "fromDate"),  # 91 days: past Google's 90
        ({"fromDate": "2026-11-01", "toDate": None}, "toDate"),  # a range has two ends
        ({"fromDate": "20261101"}, "fromDate"),  # a day is yyyy-mm-dd
        ({"conversion_name": "=cmd|' /C calc'!A0"}, "conversion_name"),  # a spreadsheet formula
        ({"conversion_name": ""}, "conversion_name"),
    ],
)
def test_a_bad_range_or_name_is_a_422_on_its_field(
    client: Any, customer_a: Actor, params: dict[str, str | None], field: str
) -> None:
    query = {k: v for k, v in {**NOVEMBER, **params}.items() if v is not None}
    r = client.get(PATH, headers=customer_a.headers, params=query)
    assert r.status_code == 422, r.text
    assert field in r.json()["errors"]


def test_ninety_days_are_one_export(client: Any, customer_a: Actor) -> None:
    days = {"fromDate": "2026-08-01", "toDate": "2026-10-29"}
    r = client.get(PATH, headers=customer_a.headers, params=days)
    assert r.status_code == 200 and r.text.splitlines()[1] == HEADER
