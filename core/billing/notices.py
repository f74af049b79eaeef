"""The notices money rules leave under the header bell (kind `billing`); the bell itself, shared
with webhooks and the portal, is core.notices.bell."""

from datetime import datetime
from decimal import Decimal

from sqlmodel import Session

from core.notices import bell
from core.values.money import money_text


def notify(session: Session, user_ids: list[int], text: str, dedupe_key: str) -> None:
    bell.notify(session, user_ids, text, dedupe_key, kind="billing")


def low_balance(session: Session, user_id: int, balance: Decimal, threshold: Decimal, at: datetime) -> None:
    notify(
        session,
        [user_id],
        f"Your balance is {money_text(balance)}, below {money_text(threshold)}: top up so calls "
        "and numbers keep running.",
        f"low_balance:{at.isoformat()}",
    )
