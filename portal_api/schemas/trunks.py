"""SIP trunks: request and response bodies. The secret is accepted, never returned."""

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, SecretStr, WithJsonSchema
from pydantic import StringConstraints as Str

from core.models import Trunk
from core.values.enums import TrunkAuth, TrunkDirection, TrunkTransport
from portal_api.deps import MAX_ID
from portal_api.schemas.common import NO_CONTROLS, NO_CONTROLS_PATTERN, StrictBody, host_name

CODECS = ("ulaw", "alaw", "g722", "g729", "opus", "gsm")


def _codecs(value: list[str]) -> list[str]:
    names = [c.strip().lower() for c in value]
    if not names:
        raise ValueError(f"must name at least one codec: {', '.join(CODECS)}")
    unknown = [c for c in names if c not in CODECS]
    if unknown:
        raise ValueError(f"has unknown codecs {', '.join(unknown)}; choose from {', '.join(CODECS)}")
    if len(set(names)) != len(names):
        raise ValueError("lists a codec twice")
    return names


def _between(low: int, high: int) -> AfterValidator:
    def check(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"must be between {low} and {high}")
        return value

    return AfterValidator(check)


def _dial_prefix(value: str) -> str:
    if not all(ch in "0123456789+*#" for ch in value):
        raise ValueError("may hold only digits, +, * and #")
    return value


def _username(value: str) -> str:
    # A SIP user part: no spaces, quotes, angle brackets or '@'.
    if any(ch.isspace() or ch in '@"<>' for ch in value):
        raise ValueError("can't contain spaces, quotes, < > or @")
    return value


def _secret(value: SecretStr) -> SecretStr:
    # The message never quotes the value.
    if not 1 <= len(value.get_secret_value()) <= 255:
        raise ValueError("must be 1 to 255 characters long")
    return value


# The host rule as a pattern (an address, or a name whose last label is not all digits); the
# IPv6 form is stated by its format. Surrounding spaces are trimmed.
_IPV4 = (
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}"
)
_NAME = (
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*"
    r"(?=[A-Za-z0-9-]*[A-Za-z-])[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?"
)
_HOST_SCHEMA = {
    "anyOf": [
        {"type": "string", "maxLength": 253, "pattern": rf"^\s*(?:{_IPV4}|{_NAME})\s*$"},
        {"type": "string", "format": "ipv6"},
    ],
    "examples": ["sip.example.net"],
}
_CODECS_SCHEMA = {
    "type": "array",
    "items": {"type": "string", "enum": list(CODECS)},
    "minItems": 1,
    "maxItems": len(CODECS),
    "uniqueItems": True,
}

TrunkName = Annotated[
    str, Str(strip_whitespace=True, min_length=1, max_length=64), NO_CONTROLS, NO_CONTROLS_PATTERN
]
Host = Annotated[
    str,
    Str(strip_whitespace=True, min_length=1, max_length=255),
    AfterValidator(host_name),
    WithJsonSchema(_HOST_SCHEMA),
]
Port = Annotated[int, _between(1, 65535), Field(json_schema_extra={"minimum": 1, "maximum": 65535})]
_BLANK = r"[^\S\x00-\x1f\x7f-\x9f]"  # a space that is no control character
Username = Annotated[
    str,
    Str(strip_whitespace=True, min_length=1, max_length=128),
    NO_CONTROLS,
    AfterValidator(_username),
    Field(json_schema_extra={"pattern": rf'^{_BLANK}*[^\s@"<>\x00-\x1f\x7f-\x9f]+{_BLANK}*$'}),
]
Secret = Annotated[
    SecretStr,
    AfterValidator(_secret),
    Field(description="Write-only", json_schema_extra={"minLength": 1, "maxLength": 255}),
]
DialPrefix = Annotated[
    str,
    Str(strip_whitespace=True, max_length=16),
    AfterValidator(_dial_prefix),
    # Its length counts after the spaces around it are trimmed, so the pattern says both.
    WithJsonSchema({"type": "string", "pattern": r"^\s*[0-9+*#]{0,16}\s*$"}),
]
StripDigits = Annotated[int, _between(0, 15), Field(json_schema_extra={"minimum": 0, "maximum": 15})]
Codecs = Annotated[list[str], AfterValidator(_codecs), WithJsonSchema(_CODECS_SCHEMA)]
Channels = Annotated[int, _between(1, 100_000), Field(json_schema_extra={"minimum": 1, "maximum": 100_000})]
FailoverOrder = Annotated[int, _between(0, 1000), Field(json_schema_extra={"minimum": 0, "maximum": 1000})]
VendorId = Annotated[int, Field(ge=1, le=MAX_ID)]


class TrunkCreate(StrictBody):
    # Digest authentication needs a username and a secret.
    rules = {
        "anyOf": [
            {"properties": {"auth_type": {"not": {"const": "digest"}}}},
            {
                "required": ["username", "secret"],
                "properties": {"username": {"type": "string"}, "secret": {"type": "string"}},
            },
        ]
    }
    name: TrunkName
    direction: TrunkDirection
    vendor_id: VendorId | None = None
    host: Host
    port: Port = 5060
    transport: TrunkTransport = TrunkTransport.UDP
    auth_type: TrunkAuth = TrunkAuth.IP
    username: Username | None = None
    secret: Secret | None = None
    dial_prefix: DialPrefix = ""
    strip_digits: StripDigits = 0
    codecs: Codecs = Field(default_factory=lambda: ["ulaw", "alaw"])
    max_channels: Channels | None = Field(default=None, description="Null: no limit")
    qualify: bool = Field(
        default=True,
        description="Outbound: send OPTIONS, dial only while answered; off for carriers ignoring OPTIONS",
    )
    failover_order: FailoverOrder = 0


class TrunkUpdate(StrictBody):
    """Only the fields sent change; `secret` omitted keeps the stored one, `null` removes it."""

    not_null = (
        *("name", "direction", "host", "port", "transport", "auth_type", "dial_prefix"),
        *("strip_digits", "codecs", "failover_order", "qualify"),
    )

    name: TrunkName | None = None
    direction: TrunkDirection | None = None
    vendor_id: VendorId | None = None
    host: Host | None = None
    port: Port | None = None
    transport: TrunkTransport | None = None
    auth_type: TrunkAuth | None = None
    username: Username | None = None
    secret: Secret | None = None
    dial_prefix: DialPrefix | None = None
    strip_digits: StripDigits | None = None
    codecs: Codecs | None = None
    max_channels: Channels | None = None
    qualify: bool | None = None
    failover_order: FailoverOrder | None = None


class TrunkOut(BaseModel):
    id: int
    name: str
    direction: str
    vendor_id: int | None
    host: str
    port: int
    transport: str
    auth_type: str
    username: str | None
    has_secret: bool
    dial_prefix: str
    strip_digits: int
    codecs: list[str]
    max_channels: int | None
    qualify: bool
    failover_order: int
    status: str
    endpoint_status: str | None = Field(description="Registration/reachability as the PBX bridge reports it")
    created_at: datetime
    updated_at: datetime | None

    @classmethod
    def of(cls, row: Trunk, endpoint_status: str | None) -> "TrunkOut":
        data = row.model_dump(exclude={"secret", "codecs"})
        return cls(
            **data,
            has_secret=bool(row.secret),
            codecs=[c for c in row.codecs.split(",") if c],
            endpoint_status=endpoint_status,
        )


class TrunkBrief(BaseModel):
    """What a customer may see of a trunk when picking one for its targets."""

    id: int
    name: str
    direction: str
    status: str

    @classmethod
    def of(cls, row: Trunk) -> "TrunkBrief":
        return cls(id=row.id or 0, name=row.name, direction=row.direction, status=row.status)
