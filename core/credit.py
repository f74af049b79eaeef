"""Credit: what a customer can still spend while calls are live (domain.md, Money)."""

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import func, select
from sqlmodel import Session

from core.models import CreditReservation, User


def reserved(session: Session, user_id: int) -> Decimal:
    """Credit held by the customer's live calls (open, unexpired reservations)."""
    total = session.scalar(
        select(func.coalesce(func.sum(CreditReservation.amount), 0)).where(
            CreditReservation.user_id == user_id,
            CreditReservation.released_at.is_(None),  # type: ignore[union-attr]
            CreditReservation.expires_at > datetime.now(UTC),
        )
    )
    return Decimal(total or 0)


def available_balance(session: Session, user_id: int) -> Decimal:
    """Balance minus what live calls have reserved: the money a new call may count on."""
    user = session.get(User, user_id)
    if user is None:
        return Decimal(0)
    return user.balance - reserved(session, user_id)
