"""The customer's side of admission, read in one statement: status, tariff, the balance less what
live calls hold, and the block entry (if any) that stops this caller.

One round trip instead of four: every call runs it, and the bridge's database round trips were
most of its work per call. It reads the catalogue's version too, for the bridge's cache
(core.routing.catalogue).
"""

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import cast

from sqlalchemy import bindparam, select, true
from sqlmodel import Session

from core.billing.credit import RESERVED
from core.models import User
from core.routing.blocks import BLOCK, Block, block_params
from core.routing.catalogue import VERSION_COLUMN, saw
from core.routing.last_known import attached, offline

_BLOCK = BLOCK.subquery().lateral()
_CUSTOMER = (
    select(
        User.status,
        User.name,
        User.tariff_id,
        User.balance - RESERVED.scalar_subquery(),
        VERSION_COLUMN,
        *_BLOCK.c,
    )
    .outerjoin(_BLOCK, true())
    .where(User.id == bindparam("user_id"))
)


@dataclass(frozen=True)
class Customer:
    id: int
    status: str
    name: str
    tariff_id: int | None
    available: Decimal  # balance less live calls' holds: what a new call may count on
    block: Block | None  # the entry blocking this caller on this customer's calls


def read_customer(session: Session, user_id: int, caller: str) -> Customer | None:
    """Customer `user_id` as a call from `caller` (canonical) sees it; None if no such user.
    Holds count while unexpired by the clock (a routing decision may be asked about another time).
    Offline (core.routing.last_known): as last read, less the credit held since; the caller's block
    as last read for this caller, none for a caller not seen since the bridge started."""
    if (known := offline(session)) is not None:
        last = cast(Customer, known.recall(("customer", user_id)))  # what was remembered below
        blocked = cast(Block | None, known.recall_or(("block", user_id, caller), None))
        return dataclasses.replace(last, available=last.available - known.held(user_id), block=blocked)
    params = {"user_id": user_id, "now": datetime.now(UTC), **block_params(caller)}
    row = session.connection().execute(_CUSTOMER, params).first()
    if row is None:
        return None
    status, name, tariff_id, available, version, *block = row
    saw(session, version)
    customer = Customer(
        user_id, status, name, tariff_id, Decimal(available), Block(*block) if block[0] is not None else None
    )
    if (known := attached(session)) is not None:
        known.remember(("customer", user_id), customer)
        known.remember(("block", user_id, caller), customer.block)
    return customer
