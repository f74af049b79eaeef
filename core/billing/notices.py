"""The notices money rules leave under the header bell (kind `billing`); the bell itself, shared
with webhooks and the portal, is core.notices.bell."""

from datetime import datetime
from decimal import Decimal

from sqlmodel import Session

from core.notices import bell
from core.values.money import format_money


def notify(session: Session, user_ids: list[int], text: str, dedupe_key: str) -> None:
    bell.notify(session, user_ids, text, dedupe_key, kind="billing")


def low_balance(session: Session, user_id: int, balance: Decimal, threshold: Decimal, at: datetime) -> None:
    notify(
        session,
        [user_id],
        f"Your balance is {format_money(balance)}, below {format_money(threshold)}: top up so calls "
        "and numbers keep running.",
        f"low_balance:{at.isoformat()}",
    )
