"""Block entries: a caller number or prefix, global (admin) or per customer."""

import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from core.values.enums import BlockMatch, Status
from core.values.phone import digits, to_e164
from portal_api.deps import MAX_ID
from portal_api.schemas.common import PHONE_FORMAT, PlainText, StrictBody

# What people type between digits: spaces, dots, dashes and brackets.
_FORMATTING = r"[ \t\n\r().-]"
# Up to 15 digits and one leading +, among that formatting: the validator's rule and the OpenAPI's,
# one regular expression (read alike by Python and ECMA 262).
_DIGITS = rf"^{_FORMATTING}*\+?{_FORMATTING}*(?:[0-9]{_FORMATTING}*){{1,15}}$"


def _pattern(value: str) -> str:
    """The number with its formatting taken out, if it is digits with an optional leading '+'."""
    if not re.fullmatch(_DIGITS, value):
        raise ValueError("use the caller's number in digits (E.164, with or without '+'), at most 15 digits")
    return re.sub(_FORMATTING, "", value)


Pattern = Annotated[
    str,
    Field(min_length=1, max_length=32),
    AfterValidator(_pattern),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 32, "pattern": _DIGITS}),
]
# Beside the digit rule every pattern keeps, an exact block (the default) is a whole phone number,
# stated beside the match type it belongs to; a prefix is any leading digits.
_EXACT_IS_A_PHONE = {
    "anyOf": [
        {"required": ["match_type"], "properties": {"match_type": {"const": "prefix"}}},
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
    reason: Annotated[PlainText, Field(max_length=255)] | None = None
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
    reason: Annotated[PlainText, Field(max_length=255)] | None = None


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
    reason: Annotated[PlainText, Field(max_length=255)] | None = None
    user_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="Admin only: block for this customer instead of globally"
    )


class BlockedCallers(BaseModel):
    created: int
    already_blocked: int
