"""Conversions back to the ad platforms (docs/conversions.md): the Google Ads offline click
conversions file of one customer's converted calls whose visit carried a Google click id."""

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from sqlalchemy import Select, and_, select
from sqlmodel import Session, col

from core.billing import wallet
from core.infra.db import get_engine
from core.models import Call, CallAttribution, User
from core.values.enums import ClickIdKind, Role
from core.values.errors import DomainError, ErrorId, missing_row
from core.values.money import in_minor_unit
from portal_api.auth.principal import Principal
from portal_api.schemas.common import day_bounds
from portal_api.schemas.conversions import GoogleAdsExport

BATCH = 2000  # rows fetched at a time while the file streams
# Google's click ids, each in its own column of the template (a row fills one of them).
GOOGLE_CLICK_IDS = (ClickIdKind.GCLID, ClickIdKind.GBRAID, ClickIdKind.WBRAID)
HEADER = (
    "Google Click ID",
    "GBRAID",
    "WBRAID",
    "Conversion Name",
    "Conversion Time",
    "Conversion Value",
    "Conversion Currency",
)
# A click id as Google writes it (URL-safe base64 and the like). A visitor types its own URL, so a
# value with anything else is no click of Google's and is left out: no cell of the file can hold a
# formula a spreadsheet would run.
_CLICK_ID = re.compile(r"[A-Za-z0-9_-]{1,256}")
_TIME = "%Y-%m-%d %H:%M:%S"  # one of the template's Conversion Time formats, zone in the Parameters row


def _customer(session: Session, principal: Principal, user_id: int | None) -> User:
    """Whose conversions: the customer itself, or the customer an admin names (`user_id`, already
    checked visible by the route's UserFilter)."""
    if principal.is_admin:
        if user_id is None:
            message = "user_id is required: name the customer whose conversions to export."
            raise DomainError(ErrorId.CONVERSIONS_CUSTOMER, message, "user_id")
        user = session.get(User, user_id)
        if user is None or user.role != Role.CUSTOMER:
            raise missing_row("user_id", "Customer", user_id)
        return user
    return principal.user


Clicks = Select[str | None, str | None, datetime, Decimal]


def _converted_clicks(user: User, start: datetime, end: datetime) -> Clicks:
    """The customer's converted calls in [start, end] whose attribution carries a Google click id,
    in time order: its attributions by (user_id, call_started_at), each call by its key."""
    a = CallAttribution
    joined = and_(Call.id == a.call_id, Call.started_at == a.call_started_at)
    return (
        select(a.click_id, a.click_id_kind, Call.started_at, Call.payout)
        .join(Call, joined)
        .where(
            a.user_id == user.id,
            a.call_started_at >= start,
            a.call_started_at <= end,
            col(a.click_id_kind).in_([k.value for k in GOOGLE_CLICK_IDS]),
            col(a.click_id).is_not(None),
            Call.user_id == user.id,
            col(Call.converted).is_(True),
        )
        .order_by(a.call_started_at, a.call_id)
    )


def google_ads_csv(
    session: Session, principal: Principal, user_id: int | None, q: GoogleAdsExport
) -> Iterator[str]:
    """The Google Ads offline click conversions file (the "Conversions from clicks" template): the
    customer's time zone in the Parameters row, each conversion's time in that zone, its value (the
    buyer's payout) in the currency's minor unit. Checked now (4xx before the download starts), read
    while it streams."""
    user = _customer(session, principal, user_id)
    currency = wallet.currency(session, user)
    start, end = day_bounds(q.fromDate, q.toDate, user.timezone)
    assert start is not None and end is not None  # both days are required
    stmt = _converted_clicks(user, start, end)
    zone = ZoneInfo(user.timezone)

    def lines() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow((f"Parameters:TimeZone={user.timezone}",))
        writer.writerow(HEADER)
        with get_engine().connect() as conn:
            rows = conn.execution_options(yield_per=BATCH).execute(stmt)
            for batch in rows.partitions():
                for click_id, kind, started_at, payout in batch:
                    if click_id is None or not _CLICK_ID.fullmatch(click_id):
                        continue
                    ids = [click_id if kind == k.value else "" for k in GOOGLE_CLICK_IDS]
                    value = in_minor_unit(payout, currency)
                    when = started_at.astimezone(zone).strftime(_TIME)
                    writer.writerow((*ids, q.conversion_name, when, value, currency))
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    return lines()


def filename(q: GoogleAdsExport) -> str:
    return f"google-ads-conversions-{q.fromDate}-{q.toDate}.csv"
