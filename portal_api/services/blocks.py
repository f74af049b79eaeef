"""Blocked callers: global entries (an admin's) or a customer's own, each pattern once per list."""

from sqlalchemy import or_, select
from sqlmodel import Session

from core.models import BlockEntry, Call
from core.values.enums import BlockMatch, Status
from core.values.errors import DomainError, ErrorId, missing_row
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.blocks import (
    BlockedCallers,
    BlockFromCalls,
    BlockIn,
    BlockOut,
    BlockUpdate,
    normalise,
)
from portal_api.services.common import (
    create_row,
    delete_row,
    page_of,
    reject_nulls,
    text_filter,
    update_row,
)
from portal_api.services.tenancy import get_visible, scoped


def _owner(principal: Principal, user_id: int | None) -> int | None:
    """Whose list an entry goes on: an admin's choice (None = global), else the caller's own."""
    if principal.is_admin:
        return user_id
    if user_id not in (None, principal.owner_id):
        message = "You can only block callers for your own account."
        raise DomainError(ErrorId.OWNER_NOT_YOURS, message, "user_id")
    return principal.owner_id


def _pattern(pattern: str, match_type: BlockMatch) -> str:
    try:
        return normalise(pattern, match_type)
    except ValueError as exc:
        raise DomainError(ErrorId.BLOCK_BAD_PATTERN, str(exc), "pattern") from exc


def _exists(
    session: Session, user_id: int | None, pattern: str, match_type: BlockMatch, except_id: int | None = None
) -> bool:
    stmt = select(BlockEntry.id).where(
        BlockEntry.pattern == pattern,
        BlockEntry.match_type == match_type.value,
        BlockEntry.user_id.is_(None) if user_id is None else BlockEntry.user_id == user_id,
    )
    if except_id is not None:
        stmt = stmt.where(BlockEntry.id != except_id)
    return session.scalar(stmt) is not None


def page(session: Session, principal: Principal, pg: PageParams, user_id: int | None) -> PageData[BlockOut]:
    if principal.is_admin:
        stmt = scoped(select(BlockEntry), BlockEntry, principal, user_id)
    else:
        # Global blocks apply to every customer's calls, so customers see them (read-only).
        stmt = select(BlockEntry).where(
            or_(BlockEntry.user_id == principal.owner_id, BlockEntry.user_id.is_(None))
        )
    stmt = text_filter(stmt, pg.params, BlockEntry.pattern, BlockEntry.reason)
    return page_of(session, stmt.order_by(BlockEntry.id.desc()), pg, BlockOut.model_validate)


def create(session: Session, principal: Principal, body: BlockIn) -> BlockEntry:
    owner = _owner(principal, body.user_id)
    pattern = _pattern(body.pattern, body.match_type)
    if _exists(session, owner, pattern, body.match_type):
        raise DomainError(ErrorId.BLOCK_DUPLICATE, f"{pattern} is already blocked.", "pattern")
    entry = BlockEntry(
        user_id=owner,
        pattern=pattern,
        match_type=body.match_type.value,
        reason=body.reason,
        status=body.status.value,
        created_by=principal.user.id,
    )
    return create_row(session, entry)


def update(session: Session, principal: Principal, entry_id: int, body: BlockUpdate) -> BlockEntry:
    entry = get_visible(session, BlockEntry, entry_id, principal, "Block entry")
    changes = body.model_dump(exclude_unset=True)
    reject_nulls(changes, ("pattern",))
    match_type = BlockMatch(changes.get("match_type") or entry.match_type)
    pattern = _pattern(changes.get("pattern") or entry.pattern, match_type)
    if _exists(session, entry.user_id, pattern, match_type, except_id=entry_id):
        raise DomainError(ErrorId.BLOCK_DUPLICATE, f"{pattern} is already blocked.", "pattern")
    normalised: dict[str, str | None] = {"pattern": pattern, "match_type": match_type.value}
    if "reason" in changes:
        normalised["reason"] = changes["reason"]
    return update_row(session, entry, normalised, required=())


def delete(session: Session, principal: Principal, entry_id: int) -> None:
    delete_row(session, BlockEntry, entry_id, principal, "Block entry")


def block_callers(session: Session, principal: Principal, body: BlockFromCalls) -> BlockedCallers:
    """Blocks the callers of the given calls; withheld, malformed or already blocked ones are skipped."""
    owner = _owner(principal, body.user_id)
    ids = set(body.call_ids)
    calls = list(session.scalars(scoped(select(Call), Call, principal).where(Call.id.in_(ids))))
    missing = ids - {c.id for c in calls}
    if missing:
        raise missing_row("call_ids", "Call", min(missing))
    created = skipped = 0
    for caller in sorted({c.caller for c in calls}):
        try:
            pattern = normalise(caller, BlockMatch.EXACT)
        except ValueError:
            skipped += 1  # withheld or malformed caller ids can't be blocked by number
            continue
        if _exists(session, owner, pattern, BlockMatch.EXACT):
            skipped += 1
            continue
        session.add(
            BlockEntry(
                user_id=owner,
                pattern=pattern,
                match_type=BlockMatch.EXACT.value,
                reason=body.reason or "Blocked from call report",
                status=Status.ACTIVE.value,
                created_by=principal.user.id,
            )
        )
        session.flush()
        created += 1
    session.commit()
    return BlockedCallers(created=created, already_blocked=skipped)
