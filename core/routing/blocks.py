"""Blocked callers: an active global entry or one of the customer's, exact number or prefix."""

from sqlalchemy import and_, bindparam, func, or_, select
from sqlmodel import Session

from core.enums import BlockMatch, Status
from core.models import BlockEntry
from core.phone import digit_prefixes

_BLOCK = (
    select(BlockEntry)
    .where(
        BlockEntry.status == Status.ACTIVE.value,
        or_(BlockEntry.user_id.is_(None), BlockEntry.user_id == bindparam("user_id")),  # type: ignore[union-attr]
        or_(
            and_(BlockEntry.match_type == BlockMatch.EXACT.value, BlockEntry.pattern == bindparam("caller")),
            and_(
                BlockEntry.match_type == BlockMatch.PREFIX.value,
                BlockEntry.pattern.in_(bindparam("prefixes", expanding=True)),  # type: ignore[attr-defined]
            ),
        ),
    )
    .order_by(BlockEntry.user_id.is_not(None), func.length(BlockEntry.pattern).desc())  # type: ignore[union-attr]
    .limit(1)
)  # built once: every call runs it


def matching_block(session: Session, user_id: int, caller: str) -> BlockEntry | None:
    """The entry blocking `caller` (canonical, see caller.py) on `user_id`'s calls, or None.

    Exact entries hold E.164 numbers and prefix entries digits, as the block API stores them.
    Every leading run of the caller's digits is looked up, so the pattern index does the work
    however long the list is. A global entry wins over the customer's own, then the longest.
    """
    params = {"user_id": user_id, "caller": caller, "prefixes": digit_prefixes(caller)}
    return session.scalars(_BLOCK, params).first()
