"""Blocked callers: an active global entry or one of the customer's, exact number or prefix."""

from dataclasses import dataclass

from sqlalchemy import ARRAY, String, and_, any_, bindparam, func, or_, select

from core.models import BlockEntry
from core.values.enums import BlockMatch, Status
from core.values.phone import digit_prefixes


@dataclass(frozen=True)
class Block:
    """The entry that blocks a caller, as the trail names it."""

    id: int
    user_id: int | None  # None: a global entry
    pattern: str
    match_type: str
    reason: str | None


# The entry blocking the caller on `user_id`'s calls: exact entries hold E.164 numbers and prefix
# entries digits, as the block API stores them. Every leading run of the caller's digits is looked
# up, so the pattern index does the work however long the list is. A global entry wins over the
# customer's own, then the longest. Built once (every call runs it, inside the customer read of
# core.routing.customer); its parameters come from `block_params`.
BLOCK = (
    select(BlockEntry.id, BlockEntry.user_id, BlockEntry.pattern, BlockEntry.match_type, BlockEntry.reason)
    .where(
        BlockEntry.status == Status.ACTIVE.value,
        or_(BlockEntry.user_id.is_(None), BlockEntry.user_id == bindparam("user_id")),
        or_(
            and_(BlockEntry.match_type == BlockMatch.EXACT.value, BlockEntry.pattern == bindparam("caller")),
            and_(
                BlockEntry.match_type == BlockMatch.PREFIX.value,
                # One array parameter, not an IN list: the statement text stays the same whatever
                # the caller's length (an expanding IN was rendered anew for every call).
                BlockEntry.pattern == any_(bindparam("prefixes", type_=ARRAY(String))),
            ),
        ),
    )
    .order_by(BlockEntry.user_id.is_not(None), func.length(BlockEntry.pattern).desc())
    .limit(1)
)


def block_params(caller: str) -> dict[str, str | list[str]]:
    """BLOCK's parameters for `caller` (canonical, see caller.py), but for `user_id`."""
    return {"caller": caller, "prefixes": digit_prefixes(caller)}
