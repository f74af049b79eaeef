"""Closed sets of values stored as text (with CHECK constraints in the database)."""

from enum import IntEnum, StrEnum


class Role(IntEnum):
    ADMIN = 1
    CUSTOMER = 2
    BUYER = 3

    @property
    def label(self) -> str:
        return {1: "Admin", 2: "Customer", 3: "Buyer"}[self.value]


class Status(StrEnum):
    """Life-cycle of catalogue rows (users, campaigns, trunks, tariffs, rates, blocks...)."""

    ACTIVE = "active"
    INACTIVE = "inactive"


class UserStatus(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"
    SUSPENDED = "suspended"


class NumberStatus(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"
    # Owner could not pay the monthly fee: routes nothing until a top-up pays it.
    SUSPENDED = "suspended"


class TokenKind(StrEnum):
    SESSION = "session"
    API = "api"
    IMPERSONATION = "impersonation"


class RoutingStrategy(StrEnum):
    PRIORITY_WEIGHT = "priority_weight"
    ROUND_ROBIN = "round_robin"


class WhisperMode(StrEnum):
    """What the target of a campaign's call hears before it is connected (core.calls.whisper)."""

    OFF = "off"
    TEXT = "text"  # typed, rendered to speech when saved
    RECORDING = "recording"  # uploaded


class DuplicateAction(StrEnum):
    ALLOW = "allow"
    OTHER_BUYER = "other_buyer"
    REJECT = "reject"


class TrunkDirection(StrEnum):
    INBOUND = "inbound"
    OUTBOUND = "outbound"


class TrunkTransport(StrEnum):
    UDP = "udp"
    TCP = "tcp"
    TLS = "tls"


class TrunkAuth(StrEnum):
    IP = "ip"
    DIGEST = "digest"


class BlockMatch(StrEnum):
    EXACT = "exact"
    PREFIX = "prefix"


class Disposition(StrEnum):
    ANSWERED = "ANSWERED"
    NO_ANSWER = "NO ANSWER"
    BUSY = "BUSY"
    FAILED = "FAILED"
    NO_ROUTE = "NO_ROUTE"
    BLOCKED = "BLOCKED"
    NO_BALANCE = "NO_BALANCE"
    DUPLICATE = "DUPLICATE"
    IVR_FAILED = "IVR_FAILED"


class HangupBy(StrEnum):
    """Who ended a call (Call.hangup_by)."""

    CALLER = "caller"
    TARGET = "target"
    SYSTEM = "system"  # the platform: credit ran out, the bridge ended what it could not pick up
    PORTAL = "portal"  # a user hung it up from the live calls screen


class LiveState(StrEnum):
    """Where a live call is (the live views' `state`)."""

    RINGING = "ringing"  # routing, or a target ringing (a refusal's announcement too)
    IVR = "ivr"  # the caller is asked for a PIN
    CONNECTED = "connected"  # talking to a target


class Leg(StrEnum):
    """A side of a connected call: the caller, or the target that answered."""

    CALLER = "caller"
    TARGET = "target"


class KeywordSide(StrEnum):
    """Who must say a keyword rule's phrase (core.conversation.rules)."""

    CALLER = "caller"
    TARGET = "target"
    EITHER = "either"


class KeywordEffect(StrEnum):
    """What a keyword rule's match does to the call (docs/conversation.md)."""

    TAG = "tag"  # adds the rule's tag
    CONVERT = "convert"  # converted, whatever the talk time: the buyer's payout is earned
    NOT_BILLABLE = "not_billable"  # never billed to the buyer: no payout, not converted
    SCORE = "score"  # adds the rule's points to the call's score


class CallSource(StrEnum):
    """Who wrote a call row (Call.source)."""

    BRIDGE = "bridge"
    RECONCILED = "reconciled"  # rebuilt from Asterisk's own record (CEL)


class RatingStatus(StrEnum):
    PENDING = "pending"
    RATED = "rated"
    # No rate matched: flagged for the admin, never silently free.
    NO_RATE = "no_rate"
    # Rating this call failed (its `rating_error` says why): set aside so the rest are rated.
    ERROR = "error"


class TransactionType(StrEnum):
    TOPUP = "topup"
    CALL = "call"
    NUMBER_SETUP = "number_setup"
    NUMBER_MONTHLY = "number_monthly"
    ADJUSTMENT = "adjustment"
    REFUND = "refund"


class InvoiceStatus(StrEnum):
    ISSUED = "issued"
    VOID = "void"


class ImpersonationAction(StrEnum):
    START = "start"
    STOP = "stop"
    # A write made through an impersonation token.
    CHANGE = "change"


class AdminAction(StrEnum):
    """What an administrator did to an account, as the admin audit records it (docs/security.md)."""

    API_TOKEN = "api_token"  # a new API token issued (the previous one revoked)
    PASSWORD = "password"  # a new password set
    ROLE = "role"  # made an administrator
    STATUS = "status"  # activated, deactivated or suspended
    TOP_UP = "top_up"  # the wallet credited
    IMPERSONATE = "impersonate"  # an impersonation started
    DELETE = "delete"  # the account deleted


class WebhookEvent(StrEnum):
    """A call event a webhook may subscribe to (docs/webhooks.md), in the order a call has them."""

    INCOMING = "incoming"  # the call reached a campaign (bridge)
    ROUTED = "routed"  # a target rings (bridge; again on each failover)
    CONNECTED = "connected"  # the target answered (bridge)
    CONVERTED = "converted"  # talk time passed the campaign's buffer (rating)
    COMPLETED = "completed"  # the call is over: the row's final fields (rating)
    RATED = "rated"  # cost and payout are final (rating)
    ATTRIBUTED = "attributed"  # a converted call with an attribution, as a server event (rating)
    TRANSCRIBED = "transcribed"  # what was said, its tags and the keyword rules it matched (transcription)


class WebhookStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"  # by its owner, or after failing for an hour


class DeliveryStatus(StrEnum):
    PENDING = "pending"  # to send, or to retry at `next_attempt_at`
    DELIVERED = "delivered"  # answered 2xx
    FAILED = "failed"  # not delivered within a day: given up


class PayoutKind(StrEnum):
    """What a traffic source's publisher is owed per converted call (core.billing.publisher)."""

    NONE = "none"
    FIXED = "fixed"  # `payout_amount` per converted call
    SHARE = "share"  # `payout_share` percent of the buyer's payout


class AttributionStatus(StrEnum):
    """How a call was attributed (CallAttribution.status, docs/attribution.md)."""

    MATCHED = "matched"  # to the one visitor session that held the pool number
    AMBIGUOUS = "ambiguous"  # the number was reused: the candidate sessions are listed
    STATIC = "static"  # the number's own traffic source


class ClickIdKind(StrEnum):
    """Which ad platform's click id a visit carried (CallAttribution.click_id_kind)."""

    GCLID = "gclid"
    GBRAID = "gbraid"
    WBRAID = "wbraid"
    FBCLID = "fbclid"
    MSCLKID = "msclkid"


def sql_in(column: str, enum: type[StrEnum]) -> str:
    """A CHECK constraint body restricting `column` to the enum's values."""
    values = ", ".join("'" + v.value.replace("'", "''") + "'" for v in enum)
    return f"{column} IN ({values})"


class LineType(StrEnum):
    """What kind of line a caller's number is, as phonenumbers' offline data tells
    (core.calls.caller_origin)."""

    MOBILE = "mobile"
    FIXED = "fixed"
    OTHER = "other"  # toll-free, premium, VoIP, pager, personal and shared-cost numbers
    UNKNOWN = "unknown"  # withheld or invalid, or a number plan that doesn't say (US: fixed or mobile)


class RegionMode(StrEnum):
    """How a target reads its region list (core.routing.region)."""

    ALL = "all"  # every region
    ACCEPT = "accept"  # only callers from a listed place
    EXCLUDE = "exclude"  # every caller but those from a listed place
