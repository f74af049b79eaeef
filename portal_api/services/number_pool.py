"""The number pool: an admin gives numbers to a customer, a customer takes some, either releases them.

Numbers are locked until commit, in id order (no deadlocks between takers), and re-read, so a
change another request committed while this one waited is seen. What a purchase costs is
core.billing.purchases; a release refunds nothing (the ledger keeps what was paid).
"""

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import Select, select
from sqlmodel import Session

from core.billing import purchases, wallet
from core.billing.errors import NotACustomer
from core.models import Country, Number, User
from core.values.enums import NumberStatus
from core.values.errors import DomainError, ErrorId, missing_row
from portal_api.auth.principal import Principal
from portal_api.schemas.numbers import TakeIn
from portal_api.services.tenancy import scoped


@dataclass(frozen=True)
class Purchase:
    owner: User
    numbers: list[Number]
    total: Decimal  # the setup fees charged


def give(session: Session, user_id: int, number_ids: list[int], by: int | None) -> Purchase:
    """Assign pool numbers to a customer, charging their setup fees (all or nothing), and commit."""
    owner = wallet.customer(session, user_id)
    if owner is None:
        raise NotACustomer(user_id)
    numbers = _lock(session, select(Number).where(Number.id.in_(number_ids)))
    unknown = sorted(set(number_ids) - {n.id for n in numbers})
    if unknown:
        message = f"Number(s) {', '.join(map(str, unknown))} do not exist."
        raise DomainError(ErrorId.ROW_MISSING, message, "number_ids")  # as missing_row
    _refuse_unless_free(numbers, number_ids)
    return _buy(session, owner, numbers, by)


def take(session: Session, body: TakeIn, customer: User) -> Purchase:
    """The customer takes chosen pool numbers, or `count` free ones of a country, and pays their
    setup fees (all or nothing); committed."""
    if body.number_ids is not None:
        numbers = _lock(session, select(Number).where(Number.id.in_(body.number_ids)))
        _refuse_unless_free(numbers, body.number_ids)
    else:
        country = session.get(Country, body.country_id)
        if country is None:
            raise missing_row("country_id", "Country", body.country_id)
        free = select(Number).where(
            Number.user_id.is_(None),
            Number.status == NumberStatus.ACTIVE,
            Number.country_id == country.id,
        )
        # Rows another purchase holds right now are skipped, not waited for: each taker gets its own.
        numbers = _lock(session, free.limit(body.count), skip_locked=True)
        if len(numbers) < (body.count or 0):
            message = f"Only {len(numbers)} number(s) in {country.name} are free right now."
            raise DomainError(ErrorId.POOL_NOT_ENOUGH, message)
    return _buy(session, customer, numbers, customer.id)


def release(session: Session, ids: list[int], principal: Principal) -> list[Number]:
    """Back to the pool, unlinked from its campaign and its traffic source (a customer: only its
    own); committed."""
    numbers = _lock(session, scoped(select(Number).where(Number.id.in_(ids)), Number, principal))
    unknown = sorted(set(ids) - {n.id for n in numbers})
    if unknown:
        raise DomainError(ErrorId.ROW_MISSING, f"Number(s) {', '.join(map(str, unknown))} not found.")
    pooled = [n.number for n in numbers if n.user_id is None]
    if pooled:
        raise DomainError(ErrorId.POOL_ALREADY, f"{', '.join(pooled)} already in the pool.")
    for number in numbers:
        number.user_id = None
        number.campaign_id = None
        number.source_id = None
        number.assigned_at = None
        number.paid_until = None
        session.add(number)
    session.commit()
    return numbers


def _buy(session: Session, owner: User, numbers: list[Number], by: int | None) -> Purchase:
    total = purchases.buy(session, numbers, owner.id or 0, by)
    session.commit()
    return Purchase(owner, numbers, total)


def _lock(session: Session, stmt: Select[Number], skip_locked: bool = False) -> list[Number]:
    stmt = stmt.order_by(Number.id).with_for_update(skip_locked=skip_locked)
    return list(session.scalars(stmt.execution_options(populate_existing=True)))


def _refuse_unless_free(numbers: list[Number], ids: list[int]) -> None:
    """409 naming every id that is not an active pool number (unknown, taken or inactive alike)."""
    free = {n.id for n in numbers if n.user_id is None and n.status == NumberStatus.ACTIVE}
    gone = [str(i) for i in ids if i not in free]
    if gone:
        message = f"Number(s) {', '.join(gone)} are not free in the pool any more; pick others."
        raise DomainError(ErrorId.POOL_TAKEN, message, "number_ids")
