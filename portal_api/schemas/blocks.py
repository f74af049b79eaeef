"""Block entries: a caller number or prefix, global (admin) or per customer."""

import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from core.enums import BlockMatch, Status
from core.phone import digits, to_e164
from portal_api.deps import MAX_ID
from portal_api.schemas.common import StrictBody

_FORMATTING = re.compile(r"[\s().-]")


def _pattern(value: str) -> str:
    """Digits with an optional leading '+'; spaces, dots, dashes and brackets as people type them."""
    value = _FORMATTING.sub("", value)
    if not value.lstrip("+").isdigit() or len(digits(value)) > 15:
        raise ValueError("use the caller's number in digits (E.164, with or without '+'), at most 15 digits")
    return value


Pattern = Annotated[str, Field(min_length=1, max_length=32), AfterValidator(_pattern)]


def normalise(pattern: str, match_type: BlockMatch) -> str:
    """Exact numbers are stored in E.164, prefixes as digits: how the bridge compares callers."""
    if match_type is BlockMatch.EXACT:
        try:
            return to_e164(pattern, require_valid=False)
        except ValueError as exc:
            raise ValueError(f"{exc}; for a partial number choose match_type 'prefix'") from exc
    return digits(pattern)


class BlockIn(StrictBody):
    pattern: Pattern = Field(description="Caller number (exact) or leading digits (prefix)")
    match_type: BlockMatch = BlockMatch.EXACT
    reason: Annotated[str, Field(max_length=255)] | None = None
    user_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="Admin only: the customer; leave out for a global block"
    )
    status: Status = Status.ACTIVE


class BlockUpdate(StrictBody):
    pattern: Pattern | None = None
    match_type: BlockMatch | None = None
    reason: Annotated[str, Field(max_length=255)] | None = None


class BlockOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int | None
    pattern: str
    match_type: BlockMatch
    reason: str | None
    status: Status
    created_at: datetime


class BlockFromCalls(StrictBody):
    call_ids: list[Annotated[int, Field(ge=1, le=2**63 - 1)]] = Field(min_length=1, max_length=1000)
    reason: Annotated[str, Field(max_length=255)] | None = None
    user_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="Admin only: block for this customer instead of globally"
    )


class BlockedCallers(BaseModel):
    created: int
    already_blocked: int
