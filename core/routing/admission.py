"""Admission: route, block and credit, the checks before the IVR (domain.md, step 2)."""

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import bindparam
from sqlmodel import Session, select

from core.calls.caller_origin import CallerOrigin, caller_origin
from core.calls.record import Entry, Result, Step, entry, stopped_at
from core.calls.whisper import Whisper
from core.models import Campaign, Number
from core.routing.caller import canonical_caller
from core.routing.catalogue import cached
from core.routing.credit import dearest_first_block
from core.routing.customer import read_customer
from core.routing.region import region_step
from core.values.enums import Disposition, NumberStatus, Status, UserStatus
from core.values.money import format_money, money_text
from core.values.phone import to_e164

# Number and campaign in one query: this runs for every call, so it is built once (the hot routing
# queries are module-level statements with bound parameters: building a statement and its cache key
# per call cost more than running it). Cached (core.routing.catalogue); the customer, whose balance
# changes with every call, is read each time (core.routing.customer).
_ROUTE = (
    select(Number, Campaign)
    .outerjoin(Campaign, Campaign.id == Number.campaign_id)
    .where(Number.number == bindparam("did"))
)


@dataclass(frozen=True)
class IvrSettings:
    """The campaign's IVR authentication, for the bridge to run between admit and select."""

    enabled: bool
    prompt: str | None
    pins: tuple[str, ...]
    digits: int
    attempts: int

    @classmethod
    def of(cls, campaign: Campaign) -> "IvrSettings":
        return cls(
            campaign.ivr_enabled,
            campaign.ivr_prompt,
            tuple(campaign.ivr_pins),
            campaign.ivr_digits,
            campaign.ivr_attempts,
        )


@dataclass
class Admission:
    """What admit decided. Ids, IVR and ring timeout are filled as far as the route resolved,
    so a stopped call's row still names its number, campaign and customer where known."""

    disposition: Disposition | None
    # The DID in E.164 when it parses, and the caller as compared (write these on the call row).
    did: str
    caller: str
    user_id: int | None = None
    campaign_id: int | None = None
    number_id: int | None = None
    source_id: int | None = None  # the number's traffic source (static attribution)
    ivr: IvrSettings | None = None
    ring_timeout: int | None = None
    tariff_id: int | None = None  # the customer's, as the call's credit is held at
    record: bool = False  # the campaign records its answered calls
    origin: CallerOrigin | None = None  # where the caller's number is from (write it on the row)
    whisper: Whisper | None = None  # what the campaign's targets hear before they are connected
    trail: list[Entry] = field(default_factory=list)

    @property
    def admitted(self) -> bool:
        return self.disposition is None

    @property
    def ivr_to_pass(self) -> IvrSettings | None:
        """The IVR the caller must pass before targets are chosen, if the campaign has one on."""
        return self.ivr if self.ivr is not None and self.ivr.enabled else None

    @property
    def stopped_at(self) -> str | None:
        return stopped_at(self.trail)


def _route(session: Session, did: str) -> tuple[Number | None, Campaign | None]:
    row = session.exec(_ROUTE, params={"did": did}).first()
    return (row[0], row[1]) if row else (None, None)


def admit(
    session: Session, did: str, caller: str, now: datetime, *, owner_id: int | None = None
) -> Admission:
    """Route, block and credit, in that order; the first that fails stops the call.

    `owner_id` limits the route to that customer's numbers (a customer's dry run): any other
    number answers exactly as an unknown one, so the answer leaks nothing. Reads only.
    """
    admission = Admission(disposition=None, did=did.strip(), caller=canonical_caller(caller))
    admission.origin = caller_origin(admission.caller)
    trail = admission.trail

    def stop(disposition: Disposition, step: Step, reason: str, **fields: object) -> Admission:
        trail.append(entry(step, Result.STOPPED, reason, now, disposition=disposition.value, **fields))
        admission.disposition = disposition
        return admission

    # Route: DID -> active number -> active campaign -> active customer.
    try:
        admission.did = to_e164(did, require_valid=False)
    except ValueError:
        return stop(Disposition.NO_ROUTE, Step.ROUTE, f"the dialled number {did!r} is not a phone number")
    number, campaign = cached(session, ("route", admission.did), lambda: _route(session, admission.did))
    if number is None or (owner_id is not None and number.user_id != owner_id):
        return stop(Disposition.NO_ROUTE, Step.ROUTE, f"{admission.did} is not a number on this platform")
    admission.number_id, admission.user_id, admission.source_id = number.id, number.user_id, number.source_id
    if number.status != NumberStatus.ACTIVE:
        return stop(Disposition.NO_ROUTE, Step.ROUTE, f"number {number.number} is {number.status}")
    if campaign is None:
        return stop(Disposition.NO_ROUTE, Step.ROUTE, f"number {number.number} is not assigned to a campaign")
    admission.campaign_id, admission.user_id = campaign.id, campaign.user_id
    admission.ivr, admission.ring_timeout = IvrSettings.of(campaign), campaign.ring_timeout
    admission.record, admission.whisper = campaign.record, Whisper.of(campaign)
    if campaign.status != Status.ACTIVE:
        return stop(Disposition.NO_ROUTE, Step.ROUTE, f"campaign '{campaign.name}' is {campaign.status}")
    customer = read_customer(session, campaign.user_id, admission.caller)
    assert customer is not None  # campaign.user_id is a non-null foreign key
    admission.tariff_id = customer.tariff_id
    if customer.status != UserStatus.ACTIVE:
        return stop(Disposition.NO_ROUTE, Step.ROUTE, f"customer '{customer.name}' is {customer.status}")
    trail.append(
        entry(
            Step.ROUTE,
            Result.PASSED,
            f"{number.number} routes to campaign '{campaign.name}' of '{customer.name}'",
            now,
            number_id=number.id,
            campaign_id=campaign.id,
            user_id=customer.id,
        )
    )

    # Block: a global entry or one of this customer's.
    block = customer.block
    if block is not None:
        scope = "global" if block.user_id is None else "customer"
        reason = f"caller {admission.caller} matches {scope} block {block.pattern} ({block.match_type})"
        if block.reason:
            reason += f": {block.reason}"
        return stop(Disposition.BLOCKED, Step.BLOCK, reason, block_id=block.id, scope=scope)
    trail.append(entry(Step.BLOCK, Result.PASSED, f"caller {admission.caller} is not blocked", now))
    region = region_step(campaign, admission.origin, now)
    trail.append(region)
    if region["result"] == Result.STOPPED:
        admission.disposition = Disposition.BLOCKED
        return admission

    # Credit: balance minus live reservations must be positive and cover the dearest first block.
    available = customer.available
    first = dearest_first_block(session, customer.tariff_id, campaign.id or 0, now)
    money = {
        "available": format_money(available),
        "required": format_money(first.charge) if first else None,
    }
    if available <= 0:
        return stop(
            Disposition.NO_BALANCE,
            Step.CREDIT,
            f"available balance {money_text(available)} is not above 0",
            **money,
        )
    if first is not None and available < first.charge:
        return stop(
            Disposition.NO_BALANCE,
            Step.CREDIT,
            f"available balance {money_text(available)} is below {money_text(first.charge)},"
            f" the first block of a call to {first.destination}",
            **money,
        )
    covers = (
        f"covers {money_text(first.charge)}, the first block of a call to {first.destination}"
        if first
        else "is above 0 (no rate for the campaign's destinations)"
    )
    trail.append(
        entry(Step.CREDIT, Result.PASSED, f"available balance {money_text(available)} {covers}", now, **money)
    )
    return admission
