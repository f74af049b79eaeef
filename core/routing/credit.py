"""The credit check: can the customer's wallet pay for the first block of this call?"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlmodel import Session

from core.billing.pricing import Price, find_rate, minimum_charge
from core.models import Rate
from core.routing.last_known import remembered
from core.routing.links import campaign_links
from core.values.enums import Status


@dataclass(frozen=True)
class FirstBlock:
    """The dearest first billable block among the destinations a call may be sent to."""

    charge: Decimal
    destination: str


def dearest_first_block(
    session: Session, tariff_id: int | None, campaign_id: int, now: datetime
) -> FirstBlock | None:
    """The highest minimum charge over the campaign's active targets, at the customer's tariff.

    Which target takes the call is decided later, so the wallet must cover the dearest one.
    SIP-URI destinations and unrated destinations add nothing here (rating flags them later);
    None when no destination has a rate.
    """
    if tariff_id is None:
        return None
    destinations = {
        link.target.destination
        for link in campaign_links(session, campaign_id)
        if link.link.status == Status.ACTIVE
        and link.target.status == Status.ACTIVE
        and not link.target.destination.startswith(("sip:", "sips:"))
    }
    dearest: FirstBlock | None = None
    for destination in sorted(destinations):
        rate = rate_of(session, tariff_id, destination, now)
        if rate is None:
            continue
        charge = minimum_charge(Price.of(rate))
        if dearest is None or charge > dearest.charge:
            dearest = FirstBlock(charge, destination)
    return dearest


def rate_of(session: Session, tariff_id: int, destination: str, now: datetime) -> Rate | None:
    """The destination's rate at the tariff; offline, as read last (core.routing.last_known)."""
    key = rate_key(tariff_id, destination)
    return remembered(session, key, lambda: find_rate(session, tariff_id, destination, now))


def rate_key(tariff_id: int, destination: str) -> tuple[str, int, str]:
    """Where the destination's rate is remembered: the bridge's credit slices read it offline."""
    return ("rate", tariff_id, destination)
