"""Monthly invoices: what a customer reads on them, that they add up, that a month is made once,
and the admin's generate button and the PDF download, per tenant."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from sqlalchemy import select

from core.billing import fees, invoices
from core.billing.periods import add_months, month_bounds, previous_month
from core.billing.rating import rate_pending
from core.billing.rerate import rerate_period
from core.infra.db import session_scope
from core.models import Country, Invoice, Number, User
from testkit.actors import make_actor
from testkit.rows import JAN, balance, call, count, customer_id, get, rate, save, tariff, top_up

BERLIN = "Europe/Berlin"


def this_month(timezone: str = BERLIN) -> date:
    return datetime.now(ZoneInfo(timezone)).date().replace(day=1)


def country(iso2: str) -> int:
    with session_scope() as s:
        return s.scalar(select(Country.id).where(Country.iso2 == iso2)) or 0


def a_month_of_activity() -> tuple[int, int]:
    """A Berlin customer's month: a top-up, UK and US calls (one re-rated), a number's fee."""
    t = tariff()
    uk = rate(t, "44", "0.10", country_id=country("GB"))
    rate(t, "1", "0.05", country_id=country("US"))
    alice = customer_id("0", t, timezone=BERLIN)
    top_up(alice, "100")
    started = datetime.now(UTC) - timedelta(minutes=5)
    for seconds, number in [
        (60, "+447911123456"),
        (120, "+447911123457"),
        (30, "+442071838750"),
        (90, "+14155550100"),
    ]:
        call(alice, seconds, number, started_at=started)
    rate_pending()
    rate(t, "447", "0.40", effective_from=JAN, country_id=country("GB"))  # mobiles were underpriced
    rerate_period(started - timedelta(minutes=1), started + timedelta(minutes=1), tariff_id=t)
    save(
        Number(
            number="+442071838751",
            user_id=alice,
            monthly_fee=Decimal("2.5"),
            assigned_at=datetime.now(UTC) - timedelta(days=1),
            paid_until=datetime.now(UTC) - timedelta(minutes=1),
        )
    )
    fees.charge_due(datetime.now(UTC))
    assert uk
    return alice, t


def test_an_invoice_lists_the_month_and_adds_up() -> None:
    alice, _ = a_month_of_activity()
    month = this_month()
    month_end = month_bounds(month, BERLIN)[1]
    with session_scope() as s:
        invoice, created = invoices.generate_invoice(s, alice, month, month_end)
    assert created and invoice.number == f"INV-{month:%Y%m}-{alice}"
    assert (invoice.period_start, invoice.currency) == (month, "USD")
    calls = [line for line in invoice.lines if line["kind"] == "calls"]
    assert calls == [
        # 30 s to a UK landline at 0.10 (60/60), then two mobiles re-rated from 0.10 to 0.40/min
        {
            "kind": "calls",
            "country": "United Kingdom",
            "prefix": "44",
            "calls": 1,
            "minutes": "0.50",
            "amount": "0.1000",
        },
        {
            "kind": "calls",
            "country": "United Kingdom",
            "prefix": "447",
            "calls": 2,
            "minutes": "3.00",
            "amount": "1.2000",
        },
        {
            "kind": "calls",
            "country": "United States",
            "prefix": "1",
            "calls": 1,
            "minutes": "1.50",
            "amount": "0.1000",
        },
    ]
    assert [line for line in invoice.lines if line["kind"] == "number_monthly"] == [
        {"kind": "number_monthly", "number": "+442071838751", "count": 1, "amount": "2.5000"}
    ]
    (topup,) = [line for line in invoice.lines if line["kind"] == "topup"]
    assert topup["amount"] == "100.0000"
    assert (invoice.calls_total, invoice.fees_total, invoice.topups_total) == (
        Decimal("1.4000"),
        Decimal("2.5000"),
        Decimal("100.0000"),
    )
    assert invoice.total == Decimal("3.9000")
    assert invoice.opening_balance == Decimal("0.0000")
    assert invoice.closing_balance == balance(alice) == Decimal("96.1000")


def test_a_month_is_invoiced_once_and_the_next_one_opens_where_it_closed() -> None:
    alice, _ = a_month_of_activity()
    quiet = customer_id("0")
    month = this_month()
    after = month_bounds(month, BERLIN)[1] + timedelta(days=2)
    assert invoices.generate_due(after) == 1  # the beat job: only the customer with activity
    assert invoices.generate_due(after) == 0
    with session_scope() as s:
        again, created = invoices.generate_invoice(s, alice, month, after)
        assert not created
        following, _ = invoices.generate_invoice(s, alice, add_months(after, 1).date(), add_months(after, 2))
    assert count(Invoice, Invoice.user_id == alice) == 2 and count(Invoice, Invoice.user_id == quiet) == 0
    first = get(Invoice, again.id or 0)
    assert following.opening_balance == following.closing_balance == first.closing_balance
    assert following.lines == [] and following.total == Decimal("0.0000")


def test_months_are_the_customers_own_calendar_months() -> None:
    start, end = month_bounds(date(2026, 3, 1), BERLIN)
    assert (start.isoformat(), end.isoformat()) == ("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
    new_year_in_berlin = datetime(2025, 12, 31, 23, 30, tzinfo=UTC)
    assert previous_month(new_year_in_berlin, BERLIN) == date(2025, 12, 1)
    assert previous_month(new_year_in_berlin, "UTC") == date(2025, 11, 1)


def test_admins_generate_invoices_and_customers_download_their_pdf(
    client, admin, customer_a, customer_b
) -> None:
    with session_scope() as s:
        alice = s.get(User, customer_a.id)
        assert alice is not None
        alice.timezone = "UTC"
    top_up(customer_a.id, "20")
    url, body = "/api/invoice/generate", {"user_id": customer_a.id}
    running = client.post(url, json={**body, "month": f"{this_month('UTC'):%Y-%m}"}, headers=admin.headers)
    assert running.status_code == 422 and "not over yet" in running.json()["errors"]["month"][0]
    for bad in ({**body, "month": "2026-13"}, {**body, "month": "last"}):
        assert client.post(url, json=bad, headers=admin.headers).status_code == 422
    not_a_customer = {"user_id": admin.id, "month": "2026-01"}  # an id naming no customer: no such row
    assert client.post(url, json=not_a_customer, headers=admin.headers).status_code == 404
    last = f"{previous_month(datetime.now(UTC), 'UTC'):%Y-%m}"
    assert client.post(url, json={**body, "month": last}, headers=customer_a.headers).status_code == 403

    made = client.post(url, json={**body, "month": last}, headers=admin.headers)
    assert made.status_code == 201, made.text
    invoice = made.json()["data"]
    assert (
        invoice["number"] == f"INV-{last.replace('-', '')}-{customer_a.id}" and invoice["total"] == "0.0000"
    )
    again = client.post(url, json={**body, "month": last}, headers=admin.headers)
    assert again.status_code == 200 and again.json()["data"]["id"] == invoice["id"]

    with session_scope() as s:  # the current month, as the beat job will make it once it ends
        month = this_month("UTC")
        current, _ = invoices.generate_invoice(s, customer_a.id, month, month_bounds(month, "UTC")[1])
    for who in (customer_a, admin):
        pdf = client.get(f"/api/invoice/{current.id}/pdf", headers=who.headers)
        assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
        assert pdf.content.startswith(b"%PDF") and current.number.encode() in pdf.content
    assert client.get(f"/api/invoice/{current.id}/pdf", headers=customer_b.headers).status_code == 404
    buyer = make_actor(3, "Bea Buyer", owner=customer_a)
    assert client.get(f"/api/invoice/{current.id}/pdf", headers=buyer.headers).status_code == 403
