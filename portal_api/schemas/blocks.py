"""Block entries: a caller number or prefix, global (admin) or per customer."""

import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from core.enums import BlockMatch, Status
from core.phone import digits, to_e164
from portal_api.deps import MAX_ID
from portal_api.schemas.common import PHONE_FORMAT, StrictBody

_FORMATTING = re.compile(r"[\s().-]")


def _pattern(value: str) -> str:
    """Digits with an optional leading '+'; spaces, dots, dashes and brackets as people type them."""
    value = _FORMATTING.sub("", value)
    if not value.lstrip("+").isdigit() or len(digits(value)) > 15:
        raise ValueError("use the caller's number in digits (E.164, with or without '+'), at most 15 digits")
    return value


# Up to 15 digits, a leading +, and the spaces, dots, dashes and brackets people type.
_DIGITS = r"^[\s().-]*\+?[\s().-]*(?:[0-9][\s().-]*){1,15}$"
# The digit rule is stated beside the match type it belongs to (a generator can't combine a
# pattern with a format): an exact block (the default) is a whole phone number, a prefix any
# leading digits.
Pattern = Annotated[
    str,
    Field(min_length=1, max_length=32),
    AfterValidator(_pattern),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 32}),
]
_EXACT_IS_A_PHONE = {
    "anyOf": [
        {
            "required": ["match_type"],
            "properties": {"match_type": {"const": "prefix"}, "pattern": {"pattern": _DIGITS}},
        },
        {"properties": {"pattern": {"format": PHONE_FORMAT}}},
    ]
}


def normalise(pattern: str, match_type: BlockMatch) -> str:
    """Exact numbers are stored in E.164, prefixes as digits: how the bridge compares callers."""
    if match_type is BlockMatch.EXACT:
        try:
            return to_e164(pattern, require_valid=False)
        except ValueError as exc:
            raise ValueError(f"{exc}; for a partial number choose match_type 'prefix'") from exc
    return digits(pattern)


class BlockIn(StrictBody):
    rules = _EXACT_IS_A_PHONE
    pattern: Pattern = Field(description="Caller number (exact) or leading digits (prefix)")
    match_type: BlockMatch = BlockMatch.EXACT
    reason: Annotated[str, Field(max_length=255)] | None = None
    user_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="Admin only: the customer; leave out for a global block"
    )
    status: Status = Status.ACTIVE


class BlockUpdate(StrictBody):
    # A pattern sent alone is read by the entry's own match type: a phone number fits either.
    rules = _EXACT_IS_A_PHONE
    not_null = ("pattern",)
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
    # Past 2**53 a JSON number is no longer read exactly by every client.
    call_ids: list[Annotated[int, Field(ge=1, le=2**53 - 1)]] = Field(min_length=1, max_length=1000)
    reason: Annotated[str, Field(max_length=255)] | None = None
    user_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="Admin only: block for this customer instead of globally"
    )


class BlockedCallers(BaseModel):
    created: int
    already_blocked: int
