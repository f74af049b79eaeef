"""Field types shared by request bodies: each carries its own rule and message."""

import ipaddress
import re
import types
import unicodedata
from datetime import date, datetime, time
from decimal import Decimal
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Union, get_args, get_origin
from urllib.parse import SplitResult, urlsplit
from zoneinfo import ZoneInfo, available_timezones

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    EmailStr,
    Field,
    PlainSerializer,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)

from core.values.enums import Status
from core.values.money import PLACES, bounded, format_money
from core.values.passwords import MIN_LENGTH, password_problem


@lru_cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def _timezone(value: str) -> str:
    if value not in _zones():
        raise ValueError(f"'{value}' is not a known time zone; use an IANA name such as 'Europe/London'")
    return value


def _password(value: str) -> str:
    problem = password_problem(value)
    if problem:
        raise ValueError(problem)
    return value


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_day(value: object) -> object:
    # Pydantic would also read 0, 1 or 20260101 as seconds since 1970: a day is written yyyy-mm-dd.
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value):
        raise ValueError("must be a date written yyyy-mm-dd")
    return value


# A calendar day, in a query or a body: only yyyy-mm-dd.
Day = Annotated[date, BeforeValidator(_iso_day)]

# Money in responses: always the 4 stored places, as a string ("12.5000"), never a float.
MoneyOut = Annotated[Decimal, PlainSerializer(format_money, return_type=str, when_used="json")]
# The OpenAPI states the rules below as a client can check them (schemathesis does): the zones
# as an enum, a password's length and its letter and digit, a name's one visible character.
Timezone = Annotated[
    str,
    StringConstraints(max_length=64),
    AfterValidator(_timezone),
    Field(json_schema_extra={"enum": sorted(_zones())}),
]
# Domains reserved for special use (RFC 6761) take no mail, and the validator refuses them.
_SPECIAL_USE = "|".join(sorted({"arpa", "invalid", "local", "localhost", "onion", "test"}))
Email = Annotated[
    EmailStr,
    StringConstraints(max_length=254),
    AfterValidator(lambda v: v.lower()),
    Field(json_schema_extra={"pattern": rf"^[^@]+@(?!(?:[^@]*\.)?(?:{_SPECIAL_USE})\.?$)[^@]+$"}),
]

# A phone number as a person writes it (spaces, brackets, a leading + or not) that `phonenumbers`
# accepts as valid. No pattern can say which digits are allocated, so the OpenAPI names the rule
# as this format (a client with its own phone library checks it; the contract test generates it).
PHONE_FORMAT = "phone"
# A URL the platform requests for a customer (a webhook, a bidder's ping or post), whose host must
# be a public address, also once resolved (core.infra.outbound): no pattern can say what a name resolves
# to, so the OpenAPI names the rule as this format (the contract test generates public URLs).
PUBLIC_URL_FORMAT = "public-url"
# Its shape is a pattern too (http or https, then no blank), as the validators check it.
PUBLIC_URL_SCHEMA = Field(json_schema_extra={"format": PUBLIC_URL_FORMAT, "pattern": r"^https?://\S+$"})


# JSON Schema fragments below are `dict[str, Any]`: the type FastAPI (openapi_extra) and pydantic
# (json_schema_extra) take them as.
def upload_part(content_type: str) -> dict[str, Any]:
    """An upload operation's `openapi_extra`: the media type of its `file` part (`encoding`), so a
    client (and the contract test) knows what file the operation reads."""
    part = {"contentType": content_type}
    return {"requestBody": {"content": {"multipart/form-data": {"encoding": {"file": part}}}}}


def sound_upload(max_bytes: int, max_ms: int) -> dict[str, Any]:
    """A sound upload operation's `description` and `openapi_extra` (an IVR prompt, a whisper): the
    files every sound upload takes (core/calls/audio), within that sound's own limits."""
    return {
        "description": "A WAV file (PCM, 8 or 16-bit, mono or stereo, 8 to 48 kHz) or an MP3 file, "
        f"at most {max_bytes} bytes and {max_ms // 1000} s; converted to 8 kHz mono for the phone line.",
        "openapi_extra": upload_part("audio/wav"),
    }


_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def host_name(value: str) -> str:
    """An IPv4/IPv6 address or an RFC 1123 host name (lower-cased, without a root dot)."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        pass
    name = value.lower().removesuffix(".")
    labels = name.split(".")
    # An all-digit last label is a mistyped address (999.1.1.1, 169.254.169.254.) or one only a
    # resolver reads (2130706433 is 127.0.0.1), not a name.
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels) or labels[-1].isdigit():
        raise ValueError("must be a host name or an IP address")
    return name


def outbound_url(value: str, example: str) -> SplitResult:
    """`value` split, if the platform can call it: an http(s) URL with a host (a name or an
    address, written out: no `{token}`) and no blank (a webhook, a bidder's ping); otherwise a
    ValueError that shows `example`."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in value):
        raise ValueError(f"must be an http:// or https:// URL with a host, such as {example}")
    try:
        host_name(parts.hostname)
    except ValueError:
        raise ValueError(
            f"must name its host as a host name or an IP address (not {parts.hostname}), such as {example}"
        ) from None
    return parts


def money_parser(limit: Decimal, *, positive: bool = False) -> BeforeValidator:
    """An amount a person enters, from 0 (or above it, `positive`) to `limit` with at most 4 places,
    as a decimal string or a JSON number (core.values.money.bounded)."""

    def parse(value: object) -> Decimal:
        amount = bounded(value, limit)
        if positive and amount == 0:
            raise ValueError("must be more than 0")
        return amount

    return BeforeValidator(parse)


def money_schema(limit: Decimal, *, positive: bool = False, example: str = "12.50") -> WithJsonSchema:
    """money_parser's rule as the OpenAPI states it, digits and places included (`limit` is a power
    of ten)."""
    whole = len(str(int(limit))) - 1  # 1,000,000: up to six digits, or the limit itself
    not_zero = r"(?!0*(?:\.0*)?\s*$)" if positive else ""
    text = rf"^\s*{not_zero}(?:[0-9]{{1,{whole}}}(?:\.[0-9]{{1,4}})?|{int(limit)}(?:\.0{{1,4}})?)\s*$"
    number: dict[str, Any] = {"type": "number", "maximum": int(limit), "multipleOf": float(PLACES)}
    number["exclusiveMinimum" if positive else "minimum"] = 0
    return WithJsonSchema({"anyOf": [{"type": "string", "pattern": text}, number], "examples": [example]})


Password = Annotated[
    str,
    AfterValidator(_password),
    Field(
        json_schema_extra={
            "minLength": MIN_LENGTH,
            "maxLength": 128,
            "pattern": r"[A-Za-z][\s\S]*[0-9]|[0-9][\s\S]*[A-Za-z]",
        }
    ),
]
# Control characters (C0 with NUL, tab and newline, DEL, C1) in no text a person types: they hide
# in lists, break CSV exports and logs, and PostgreSQL text can't hold a NUL.
_CONTROLS = r"\x00-\x1f\x7f-\x9f"


def _no_controls(value: object) -> object:
    for char in value if isinstance(value, str) else "":
        if unicodedata.category(char) == "Cc":
            raise ValueError(f"must not contain control characters (found U+{ord(char):04X})")
    return value


# Every text field's type ends with these two, after its own length: the text is checked as sent
# (a control character at an end is refused, not stripped), then stripped, then its length checked
# (a constraint written after a validator would be applied to the text before it is stripped).
NO_CONTROLS = BeforeValidator(_no_controls)
NO_CONTROLS_PATTERN = Field(json_schema_extra={"pattern": rf"^[^{_CONTROLS}]*$"})
PlainText = Annotated[str, NO_CONTROLS, NO_CONTROLS_PATTERN]
# One visible character: blanks alone strip to nothing.
VISIBLE_PATTERN = Field(json_schema_extra={"pattern": rf"^[^{_CONTROLS}]*[^\s{_CONTROLS}][^{_CONTROLS}]*$"})
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120), NO_CONTROLS, VISIBLE_PATTERN
]
ShortText = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=160), NO_CONTROLS, NO_CONTROLS_PATTERN
]
_PHONE_SHAPE = re.compile(r"^\+?[0-9 ().-]*[0-9][0-9 ().-]*$")


def _phone_shape(value: str) -> str:
    # The number itself (E.164, or national in the account's country) is read by the service, which
    # knows the account: core.values.phone.contact_number. Stripped here, after its length was
    # checked as sent (the length the schema documents).
    value = value.strip()
    if value and not _PHONE_SHAPE.match(value):
        raise ValueError(
            "must be a phone number: digits, spaces, brackets and dashes, such as +44 20 7946 0713"
        )
    return value


# A contact's phone (a vendor's, a user's, a buyer's); empty clears it.
Phone = Annotated[
    str,
    StringConstraints(max_length=32),
    NO_CONTROLS,
    AfterValidator(_phone_shape),
    # Whether it is a number at all is the service's to say (it knows the account's country): the
    # schema names the format, as the other phone fields do.
    Field(json_schema_extra={"format": PHONE_FORMAT}),
]


def _takes_bool(annotation: object) -> bool:
    if annotation is bool or annotation is Any:
        return True
    if get_origin(annotation) in (Union, types.UnionType, Annotated):
        return any(_takes_bool(arg) for arg in get_args(annotation))
    return False


def _only_bool(annotation: object) -> bool:
    """`bool` or `bool | None`: a field nothing but true or false may fill."""
    if annotation is bool:
        return True
    if get_origin(annotation) is Annotated:
        return _only_bool(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return bool(args) and all(_only_bool(a) for a in args)
    return False


def _items_take_bool(annotation: object) -> bool:
    """Whether a list given for `annotation` may hold booleans."""
    origin = get_origin(annotation)
    if origin in (list, set, tuple, frozenset):
        return any(_takes_bool(arg) for arg in get_args(annotation) if arg is not Ellipsis)
    if origin in (Union, types.UnionType, Annotated):
        return any(_items_take_bool(arg) for arg in get_args(annotation))
    return annotation is Any


def _body_schema(schema: dict[str, Any], cls: type) -> None:
    """A body's OpenAPI: its `not_null` fields may be left out but never sent as null, and its
    `rules` (what holds between fields) are stated too."""
    schema.update(getattr(cls, "rules", {}))
    for name in getattr(cls, "not_null", ()):
        prop = schema.get("properties", {}).get(name, {})
        options = [o for o in prop.pop("anyOf", []) if o != {"type": "null"}]
        if len(options) == 1:
            prop.update(options[0])
        elif options:
            prop["anyOf"] = options


class StrictBody(BaseModel):
    """Request bodies reject unknown fields, so a typo is an error instead of silently ignored,
    `true` where a number (an id, a count) belongs (pydantic would read it as 1), and anything but
    true or false for a flag. An update's `not_null` fields may be left out, not blanked; `rules`
    is the JSON Schema of what holds between fields (checked in code, stated in the OpenAPI)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_body_schema)
    not_null: ClassVar[tuple[str, ...]] = ()
    rules: ClassVar[dict[str, Any]] = {}

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, value: object, info: ValidationInfo) -> object:
        if info.field_name is None:
            return value
        if value is None and info.field_name in cls.not_null:
            raise ValueError("can't be empty")
        annotation = cls.model_fields[info.field_name].annotation
        if isinstance(value, bool) and not _takes_bool(annotation):
            raise ValueError("must be a number")
        if value is not None and not isinstance(value, bool) and _only_bool(annotation):
            raise ValueError("must be true or false")  # pydantic would read 0, 1, "yes" and "off"
        if (
            isinstance(value, list)
            and any(isinstance(v, bool) for v in value)
            and not _items_take_bool(annotation)
        ):
            raise ValueError("must hold numbers")
        return value


def day_bounds(
    from_date: date | None, to_date: date | None, tz: str
) -> tuple[datetime | None, datetime | None]:
    """Inclusive date filters read in the caller's time zone, as UTC-comparable instants."""
    zone = ZoneInfo(tz)
    start = datetime.combine(from_date, time.min, zone) if from_date else None
    end = datetime.combine(to_date, time.max, zone) if to_date else None
    return start, end


class StatusIn(StrictBody):
    status: Status


# The rows of a bulk action (1 to 500 ids, repeats dropped): one call, all or nothing.
RowIds = Annotated[
    list[Annotated[int, Field(ge=1, le=2**31 - 1)]],
    Field(min_length=1, max_length=500),
    AfterValidator(lambda ids: list(dict.fromkeys(ids))),
]


class BulkStatusIn(StrictBody):
    ids: RowIds
    status: Status


class BulkStatusOut(BaseModel):
    changed: list[int] = Field(description="The ids whose status changed")
    unchanged: list[int] = Field(description="The ids that had this status already")
