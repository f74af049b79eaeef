"""Domain errors: a rule said no. The one vocabulary services and core raise.

Each refusal has a stable id (`ErrorId`: the rule's name, which never changes with the wording),
a message written for the person who asked, an optional field it is about, and a `kind` that says
what went wrong without saying how a service answers it: the API maps kinds to HTTP statuses in
one place (portal_api.errors). docs/api.md lists every id; tests/api/test_error_ids.py keeps the
list and this catalogue the same.
"""

from enum import Enum, StrEnum, unique


class Kind(StrEnum):
    NOT_FOUND = "not_found"  # what was named does not exist (or is not the asker's to see)
    CONFLICT = "conflict"  # the request clashes with what is already recorded
    PAYMENT_REQUIRED = "payment_required"  # the balance does not cover it
    INVALID = "invalid"  # the request can't be done as asked
    UNAUTHENTICATED = "unauthenticated"  # no caller known: no token, or one that ended
    FORBIDDEN = "forbidden"  # the caller is known but may not do this
    TOO_LARGE = "too_large"  # what was sent is over the size this takes
    THROTTLED = "throttled"  # too many tries: wait (`retry_after`) before the next
    UNAVAILABLE = "unavailable"  # a part this needs is away for now; worth retrying later
    UPSTREAM_FAILED = "upstream_failed"  # a part this needs answered something unexpected


@unique  # two members with one id would be one member (an alias): refused at import
class ErrorId(Enum):
    """Every refusal by its stable id, its kind and what it means (docs/api.md, "Error ids")."""

    _value_: str
    kind: Kind
    meaning: str

    def __new__(cls, id_: str, kind: Kind, meaning: str) -> "ErrorId":
        member = object.__new__(cls)
        member._value_ = id_
        member.kind = kind
        member.meaning = meaning
        return member

    @property
    def id(self) -> str:
        return self._value_

    # Any row
    ROW_NOT_FOUND = ("row.not_found", Kind.NOT_FOUND, "the id in the path names no row the caller may see")
    ROW_MISSING = (
        "row.missing",
        Kind.NOT_FOUND,
        "an id in the body or query names no row the caller may see",
    )
    ROW_NAME_TAKEN = ("row.name_taken", Kind.CONFLICT, "the owner already has a row of this name")
    ROW_FIELD_EMPTY = ("row.field_empty", Kind.INVALID, "a field that must keep a value was sent empty")
    ROW_IN_USE = ("row.in_use", Kind.CONFLICT, "deleting the row would orphan what uses it: deactivate it")
    ROW_CHANGE_LOCKED = ("row.change_locked", Kind.CONFLICT, "what uses the row keeps this field as it is")
    OWNER_REQUIRED = ("owner.required", Kind.INVALID, "an admin creating a row names the customer it is for")
    OWNER_NOT_YOURS = ("owner.not_yours", Kind.INVALID, "a customer named another account as the owner")
    # Who is calling
    AUTH_TOKEN_MISSING = ("auth.token_missing", Kind.UNAUTHENTICATED, "the call carries no bearer token")
    AUTH_TOKEN_INVALID = (
        "auth.token_invalid",
        Kind.UNAUTHENTICATED,
        "the token is unknown, revoked or expired",
    )
    AUTH_ACCOUNT_REFUSED = (
        "auth.account_refused",
        Kind.UNAUTHENTICATED,
        "the token's account (or a buyer's company) is no longer active",
    )
    AUTH_IMPERSONATOR_INACTIVE = (
        "auth.impersonator_inactive",
        Kind.UNAUTHENTICATED,
        "the administrator behind an impersonation token is no longer active",
    )
    AUTH_BUYER_GONE = (
        "auth.buyer_gone",
        Kind.UNAUTHENTICATED,
        "a buyer login whose buyer record was removed",
    )
    AUTH_ROLE_FORBIDDEN = ("auth.role_forbidden", Kind.FORBIDDEN, "the caller's role may not use this path")
    AUTH_THROTTLED = ("auth.throttled", Kind.THROTTLED, "too many password checks or sign-ups from here")
    SESSION_BAD_CREDENTIALS = ("session.bad_credentials", Kind.UNAUTHENTICATED, "wrong email or password")
    SESSION_ACCOUNT_REFUSED = (
        "session.account_refused",
        Kind.FORBIDDEN,
        "the right password, but the account (or a buyer's company) is not active",
    )
    # Accounts
    ACCOUNT_EMAIL_TAKEN = ("account.email_taken", Kind.CONFLICT, "another account has this email")
    ACCOUNT_OWN = (
        "account.own",
        Kind.CONFLICT,
        "an administrator can't deactivate or delete their own account",
    )
    ACCOUNT_ALREADY_ADMIN = ("account.already_admin", Kind.CONFLICT, "the user is an administrator already")
    ACCOUNT_BUYER_NOT_ADMIN = ("account.buyer_not_admin", Kind.CONFLICT, "a buyer login can't be promoted")
    ACCOUNT_HAS_HISTORY = (
        "account.has_history",
        Kind.CONFLICT,
        "a customer with numbers, buyers, calls or wallet history can't be promoted",
    )
    PASSWORD_CURRENT_WRONG = ("password.current_wrong", Kind.FORBIDDEN, "the current password given is wrong")
    PASSWORD_UNCHANGED = ("password.unchanged", Kind.INVALID, "the new password equals the current one")
    LINK_INVALID = (
        "link.invalid",
        Kind.NOT_FOUND,
        "a sign-up or reset link that is unknown, used or expired",
    )
    SIGNUP_CLOSED = ("signup.closed", Kind.FORBIDDEN, "this platform takes no sign-ups")
    IMPERSONATION_ALREADY = (
        "impersonation.already",
        Kind.CONFLICT,
        "an impersonation token can't start another impersonation",
    )
    IMPERSONATION_OF_ADMIN = (
        "impersonation.of_admin",
        Kind.FORBIDDEN,
        "administrators can't be impersonated",
    )
    IMPERSONATION_INACTIVE = (
        "impersonation.inactive",
        Kind.CONFLICT,
        "an inactive account can't be acted as",
    )
    IMPERSONATION_NONE = ("impersonation.none", Kind.CONFLICT, "returning to admin without impersonating")
    IMPERSONATION_WRONG_ADMIN = (
        "impersonation.wrong_admin",
        Kind.FORBIDDEN,
        "impersonator_id is not the administrator of this session",
    )
    BUYER_INVITE_NO_MAIL = (
        "buyer.invite_no_mail",
        Kind.CONFLICT,
        "no mail is set up to send a buyer's invitation: set its password instead",
    )
    BUYER_CAN_SIGN_IN = ("buyer.can_sign_in", Kind.CONFLICT, "the buyer can sign in already: no invitation")
    PHONE_INVALID = (
        "phone.invalid",
        Kind.INVALID,
        "a contact phone is neither E.164 nor a national number of the account's country",
    )
    # Uploads (numbers CSV, rate cards)
    UPLOAD_NOT_CSV = ("upload.not_csv", Kind.INVALID, "the file is not CSV text (type, encoding, binary)")
    UPLOAD_EMPTY = ("upload.empty", Kind.INVALID, "the file is empty, or has a header and no lines")
    UPLOAD_BAD_HEADER = ("upload.bad_header", Kind.INVALID, "the first line does not name the columns needed")
    UPLOAD_BAD_CSV = ("upload.bad_csv", Kind.INVALID, "the file can't be read as CSV")
    UPLOAD_TOO_MANY_LINES = (
        "upload.too_many_lines",
        Kind.INVALID,
        "the file has more lines than one upload takes",
    )
    UPLOAD_TOO_LARGE = ("upload.too_large", Kind.TOO_LARGE, "the file is over the size limit")
    RATE_CARD_BAD_LINES = ("rate_card.bad_lines", Kind.INVALID, "lines of a rate card are wrong (each named)")
    # Website number swapping (docs/attribution.md)
    DNI_THROTTLED = (
        "dni.throttled",
        Kind.THROTTLED,
        "too many website script requests from here or for the key",
    )
    DNI_ORIGIN_REFUSED = (
        "dni.origin_refused",
        Kind.FORBIDDEN,
        "the page's origin is not one of the customer's site origins",
    )
    DNI_BAD_REQUEST = ("dni.bad_request", Kind.INVALID, "the script's request is not what the script sends")
    DNI_NUMBER_NOT_CAMPAIGNS = (
        "dni.number_not_campaigns",
        Kind.INVALID,
        "a pool number is not one of the campaign's active numbers",
    )
    # Rates, countries, numbers
    COUNTRY_UNKNOWN_CODE = ("country.unknown_code", Kind.INVALID, "not an ISO 3166 alpha-2 country code")
    COUNTRY_MISMATCH = ("country.mismatch", Kind.INVALID, "country and country_id name different countries")
    RATE_DUPLICATE = (
        "rate.duplicate",
        Kind.CONFLICT,
        "the tariff has a rate for this prefix from this time already",
    )
    NUMBER_TAKEN = ("number.taken", Kind.CONFLICT, "the number is in the inventory already")
    NUMBER_ADMIN_FIELDS = (
        "number.admin_fields",
        Kind.FORBIDDEN,
        "a customer changes only a number's campaign; fees, vendor and country are the admin's",
    )
    NUMBER_WRONG_COUNTRY = (
        "number.wrong_country",
        Kind.INVALID,
        "the number is not valid in the country given",
    )
    NUMBER_IN_POOL = (
        "number.in_pool",
        Kind.INVALID,
        "a number in the pool can't route to a campaign nor belong to a traffic source",
    )
    POOL_NOT_ENOUGH = ("pool.not_enough", Kind.CONFLICT, "fewer free numbers in the country than asked for")
    POOL_ALREADY = ("pool.already", Kind.CONFLICT, "a number to release is in the pool already")
    POOL_TAKEN = ("pool.taken", Kind.CONFLICT, "a number picked from the pool was taken meanwhile")
    # Routing rows
    TARGET_TRUNK_INBOUND = ("target.trunk_inbound", Kind.INVALID, "targets dial through outbound trunks only")
    TARGET_BID_NEEDS_PING = (
        "target.bid_needs_ping",
        Kind.INVALID,
        "a post URL or minimum bid without the ping URL that makes a bidder",
    )
    TRUNK_DIGEST_CREDENTIALS = (
        "trunk.digest_credentials",
        Kind.INVALID,
        "digest authentication needs a username and a secret",
    )
    CAMPAIGN_TARGET_NOT_LINKED = (
        "campaign.target_not_linked",
        Kind.NOT_FOUND,
        "the target is not on this campaign",
    )
    CAMPAIGN_TARGET_TWICE = ("campaign.target_twice", Kind.INVALID, "a target appears twice in one request")
    BLOCK_BAD_PATTERN = ("block.bad_pattern", Kind.INVALID, "the pattern is not one of its match type")
    BLOCK_DUPLICATE = ("block.duplicate", Kind.CONFLICT, "the pattern is blocked already")
    SOURCE_UTM_TAKEN = (
        "source.utm_taken",
        Kind.CONFLICT,
        "another of the customer's traffic sources has this utm_source",
    )
    URL_NOT_PUBLIC = ("url.not_public", Kind.INVALID, "a URL the platform would request has no public host")
    WEBHOOK_OWNER = ("webhook.owner", Kind.INVALID, "a webhook names a campaign or a buyer, one of them")
    WEBHOOK_BUYER_INCOMING = (
        "webhook.buyer_incoming",
        Kind.INVALID,
        "a buyer's webhook can't take 'incoming'",
    )
    WEBHOOK_BUYER_ATTRIBUTED = (
        "webhook.buyer_attributed",
        Kind.INVALID,
        "a buyer's webhook can't take 'attributed' (the customer's traffic)",
    )
    # Whisper, reports, recordings
    WHISPER_AUDIO = ("whisper.audio", Kind.INVALID, "the whisper text or recording can't be used")
    WHISPER_SPEECH_AWAY = ("whisper.speech_away", Kind.UNAVAILABLE, "text can't be spoken on this server now")
    WHISPER_NONE = ("whisper.none", Kind.NOT_FOUND, "the campaign has no whisper")
    PROMPT_AUDIO = ("prompt.audio", Kind.INVALID, "the uploaded IVR prompt can't be used")
    PROMPT_UNKNOWN = (
        "prompt.unknown",
        Kind.INVALID,
        "the IVR prompt is neither one of Asterisk's listed sounds nor the owner's upload",
    )
    REPORT_DATES = ("report.dates", Kind.INVALID, "toDate is before fromDate")
    REPORT_GROUP_HIDDEN = (
        "report.group_hidden",
        Kind.FORBIDDEN,
        "a buyer asked to group its calls by a campaign or buyer, which it does not see",
    )
    REPORT_CALLER_PLACE = (
        "report.caller_place",
        Kind.INVALID,
        "caller_country is not a country, or caller_region comes without it",
    )
    CONVERSIONS_CUSTOMER = (
        "conversions.customer",
        Kind.INVALID,
        "an admin's conversions export names the customer (user_id)",
    )
    CONVERSIONS_RANGE = (
        "conversions.range",
        Kind.INVALID,
        "a conversions export covers more than 90 days (what Google Ads imports)",
    )
    KEYWORD_RULE_INVALID = (
        "keyword_rule.invalid",
        Kind.INVALID,
        "a keyword rule's phrase has no word to listen for",
    )
    TRANSCRIPT_NONE = ("transcript.none", Kind.NOT_FOUND, "the call has not been transcribed")
    RECORDING_NONE = ("recording.none", Kind.NOT_FOUND, "the call was not recorded")
    RECORDING_GONE = ("recording.gone", Kind.NOT_FOUND, "the call's recording is no longer stored")
    RECORDING_PBX_AWAY = ("recording.pbx_away", Kind.UNAVAILABLE, "the PBX that holds the recording is away")
    RECORDING_PBX_FAILED = (
        "recording.pbx_failed",
        Kind.UPSTREAM_FAILED,
        "the PBX answered an unexpected status",
    )
    # Money (core/billing/errors.py)
    WALLET_INSUFFICIENT_FUNDS = (
        "wallet.insufficient_funds",
        Kind.PAYMENT_REQUIRED,
        "the available balance can't cover the charge",
    )
    WALLET_NO_SUCH_CUSTOMER = ("wallet.no_such_customer", Kind.NOT_FOUND, "no customer has this id")
    WALLET_NOT_A_CUSTOMER = ("wallet.not_a_customer", Kind.NOT_FOUND, "the user given is not a customer")
    MONEY_TOO_PRECISE = (
        "money.too_precise",
        Kind.INVALID,
        "a typed amount has more decimals than its currency's minor unit",
    )
    TOPUP_REFERENCE_TAKEN = (
        "topup.reference_taken",
        Kind.CONFLICT,
        "the top-up's reference already credited another customer",
    )
    INVOICE_MONTH_NOT_OVER = (
        "invoice.month_not_over",
        Kind.INVALID,
        "the month is not over in the customer's zone",
    )


class DomainError(Exception):
    def __init__(
        self,
        error: ErrorId,
        message: str,
        field: str | None = None,
        *,
        errors: dict[str, list[str]] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.error = error
        self.message = message
        # What is wrong with which field, shown beside it: the one field named, or several (the
        # lines of a rate card).
        self.errors = errors if errors is not None else ({field: [message]} if field else None)
        # Seconds to wait before trying again (THROTTLED).
        self.retry_after = retry_after

    @property
    def id(self) -> str:
        return self.error.id

    @property
    def kind(self) -> Kind:
        return self.error.kind


def not_found(what: str) -> DomainError:
    """The row an id in the path names does not exist or is not the caller's to see."""
    return DomainError(ErrorId.ROW_NOT_FOUND, f"{what} not found.")


def missing_row(field: str, label: str, row_id: object) -> DomainError:
    """A row the request names by id (in its body or query) that does not exist or is not the
    caller's to see: 404, as for an id in the path, with the field named. The request is well formed
    (an id is an id: the schema can't know which exist), so it is no 422 (docs/api.md)."""
    return DomainError(ErrorId.ROW_MISSING, f"{label} {row_id} does not exist.", field)
