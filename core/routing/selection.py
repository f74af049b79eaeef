"""Selection: duplicate check, then which targets to dial in which order (domain.md, step 2)."""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from itertools import groupby
from typing import cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import update
from sqlmodel import Session

from core.calls.caller_origin import CallerOrigin
from core.calls.record import Entry, Result, Step, entry, stopped_at
from core.models import Buyer, Campaign, Trunk
from core.routing.admission import Admission
from core.routing.bids import Bidder
from core.routing.caps import CapUse, cap_use
from core.routing.catalogue import cached
from core.routing.duplicate import recent_contacts
from core.routing.last_known import attached, offline
from core.routing.links import Link, campaign_links
from core.routing.live import LiveCounts
from core.routing.ordering import rotated, weighted_order
from core.routing.region import target_refusal
from core.routing.schedule import is_open
from core.values.enums import Disposition, DuplicateAction, RoutingStrategy, Status, TrunkDirection

# rr_cursor is a PostgreSQL integer: wrap before it overflows (years of calls on one campaign).
_CURSOR_WRAP = 2**31 - 1
_RNG = random.Random()


@dataclass(frozen=True)
class TrunkDial:
    """The outbound trunk fields the bridge dials with (never the secret)."""

    id: int
    name: str
    host: str
    port: int
    transport: str
    dial_prefix: str
    strip_digits: int
    username: str | None
    max_channels: int | None = None  # the bridge claims a channel within it (atomically, in Redis)

    @classmethod
    def of(cls, trunk: Trunk) -> "TrunkDial":
        return cls(
            trunk.id or 0,
            trunk.name,
            trunk.host,
            trunk.port,
            trunk.transport,
            trunk.dial_prefix,
            trunk.strip_digits,
            trunk.username,
            trunk.max_channels,
        )


@dataclass(frozen=True)
class Candidate:
    target_id: int
    buyer_id: int
    name: str
    # E.164 number or SIP URI, as stored on the target.
    destination: str
    priority: int
    weight: int
    # None when the target names no trunk.
    trunk: TrunkDial | None
    # Checked here against the live count and the calls connected this period, then claimed by
    # the bridge before it dials: a count read here may be taken by a parallel call on any node.
    concurrency_cap: int | None = None
    period_caps: tuple[CapUse, ...] = ()
    # What the call earns here: the target's payout, or its winning bid (core.routing.auction).
    payout: Decimal = Decimal(0)
    bidder: Bidder | None = None  # a real-time bidder, asked for a bid before dialling
    bid: Decimal | None = None  # its winning bid, once the auction ranked it

    @property
    def trunk_id(self) -> int | None:
        return self.trunk.id if self.trunk else None


@dataclass
class Selection:
    """Candidates in dialling order (empty when stopped), and the selection's trail entries
    (they follow the admission's: the call's trail is `admission.trail + selection.trail`)."""

    disposition: Disposition | None
    candidates: list[Candidate]
    trail: list[Entry]
    # Seconds the campaign rejects a caller who reached a buyer (0: it does not). The database
    # knows only connected calls: the bridge also holds the caller for the call it dials, on
    # every node, so two calls of one caller can't both pass at once (names.duplicate_key).
    reject_repeats_for: int = 0
    campaign_name: str = ""  # what bidders are told the call is for
    # Seconds the campaign keeps a caller from a buyer it reached (0: it does not). As above, the
    # database knows only connected calls: the bridge holds the buyer of each target it claims, on
    # every node, so two calls of one caller can't reach one buyer at once (names.buyer_reached_key).
    other_buyers_for: int = 0

    @property
    def stopped_at(self) -> str | None:
        return stopped_at(self.trail)


def select_targets(
    session: Session,
    admission: Admission,
    caller: str,
    now: datetime,
    live: LiveCounts,
    *,
    rng: random.Random | None = None,
    advance_cursor: bool = True,
) -> Selection:
    """Duplicate check, then the campaign's available targets in dialling order.

    Run after the IVR passed. With the round-robin strategy this advances the campaign's cursor
    in the session's transaction (the row stays locked until the caller commits: commit at
    once); `advance_cursor=False` (a dry run) reads the next position instead and writes nothing.
    """
    if not admission.admitted or admission.campaign_id is None:
        raise ValueError("select_targets runs only for an admitted call")
    campaign_id = admission.campaign_id
    campaign = cached(session, ("campaign", campaign_id), lambda: session.get(Campaign, campaign_id))
    assert campaign is not None and campaign.id is not None
    trail: list[Entry] = []

    def stop(disposition: Disposition, step: Step, reason: str, **fields: object) -> Selection:
        trail.append(entry(step, Result.STOPPED, reason, now, disposition=disposition.value, **fields))
        return Selection(disposition, [], trail)

    excluded: set[int] = set()
    if campaign.duplicate_action != DuplicateAction.ALLOW and campaign.duplicate_window_seconds > 0:
        window = span(campaign.duplicate_window_seconds)
        since = now - timedelta(seconds=campaign.duplicate_window_seconds)
        # Offline, the calls connected before are unknown: `reject` still holds by the bridge's
        # repeat-caller key in Redis (names.duplicate_key); `other_buyer` excludes no buyer.
        callers = {caller.strip(), admission.caller}
        contacts = [] if offline(session) else recent_contacts(session, campaign.id, callers, since)
        if contacts and campaign.duplicate_action == DuplicateAction.REJECT:
            last = contacts[0]
            return stop(
                Disposition.DUPLICATE,
                Step.DUPLICATE,
                f"caller {admission.caller} reached a buyer at {last.at.isoformat()} (call {last.call_id});"
                f" the campaign rejects repeat callers for {window}",
                call_id=last.call_id,
            )
        excluded = {c.buyer_id for c in contacts if c.buyer_id is not None}
        if excluded:
            names = ", ".join(f"'{b.name}'" for b in (session.get(Buyer, i) for i in sorted(excluded)) if b)
            reason = f"caller {admission.caller} reached {names} within {window}: other buyers only"
        else:
            reason = f"caller {admission.caller} reached no buyer within {window}"
        trail.append(entry(Step.DUPLICATE, Result.PASSED, reason, now, buyer_ids=sorted(excluded)))

    available: list[Candidate] = []
    for link in campaign_links(session, campaign.id):
        usable, reason, period_caps = _availability(session, link, now, live, excluded, admission.origin)
        target = link.target
        trail.append(
            entry(
                Step.TARGET,
                Result.CANDIDATE if usable else Result.SKIPPED,
                reason,
                now,
                target_id=target.id,
                name=target.name,
                buyer_id=target.buyer_id,
                priority=link.link.priority,
                weight=link.link.weight,
            )
        )
        if usable:
            available.append(
                Candidate(
                    target.id or 0,
                    target.buyer_id,
                    target.name,
                    target.destination,
                    link.link.priority,
                    link.link.weight,
                    TrunkDial.of(link.trunk) if link.trunk else None,
                    target.concurrency_cap,
                    tuple(period_caps),
                    payout=target.payout,
                    bidder=Bidder.of(target),
                )
            )
    if not available:
        return stop(Disposition.NO_ROUTE, Step.SELECT, "no target available")

    round_robin = campaign.strategy == RoutingStrategy.ROUND_ROBIN
    cursor = 0
    if round_robin:
        cursor = _advance_cursor(session, campaign.id) if advance_cursor else _next(campaign.rr_cursor)
    ordered: list[Candidate] = []
    for _, same_priority in groupby(available, key=lambda c: c.priority):
        group = list(same_priority)
        if round_robin:
            ordered += rotated(group, cursor)
        else:
            ordered += weighted_order(group, lambda c: c.weight, rng or _RNG)
    how = "round robin" if round_robin else "weighted random"
    trail.append(
        entry(
            Step.SELECT,
            Result.PASSED,
            f"dial order: {', '.join(c.name for c in ordered)} (lowest priority first, then {how})",
            now,
            order=[c.target_id for c in ordered],
            strategy=campaign.strategy,
            **({"cursor": cursor} if round_robin else {}),
        )
    )
    held = campaign.duplicate_window_seconds  # 0 with no window: nothing held
    rejects = campaign.duplicate_action == DuplicateAction.REJECT
    others = campaign.duplicate_action == DuplicateAction.OTHER_BUYER
    return Selection(
        None, ordered, trail, held if rejects else 0, campaign.name, other_buyers_for=held if others else 0
    )


def _availability(
    session: Session,
    link: Link,
    now: datetime,
    live: LiveCounts,
    excluded: set[int],
    origin: CallerOrigin | None,
) -> tuple[bool, str, list[CapUse]]:
    """Whether the linked target can take the call now, the reason for the trail, and the use of
    its hourly, daily and monthly caps.

    Cheap checks first; the live count and the cap counts are read only for targets that set a
    cap and passed everything else.
    """
    target, trunk = link.target, link.trunk
    if link.link.status != Status.ACTIVE:
        return False, "link inactive", []
    if target.status != Status.ACTIVE:
        return False, "inactive", []
    if link.buyer.status != Status.ACTIVE:
        return False, "buyer inactive", []
    if target.buyer_id in excluded:
        return False, "duplicate", []
    if (not_taken := target_refusal(target, origin)) is not None:
        return False, not_taken, []
    try:
        local_now = now.astimezone(ZoneInfo(target.timezone))
    except (ZoneInfoNotFoundError, ValueError):
        # Rows written outside the API may carry a bad zone: skip the target, don't fail the call.
        return False, f"unknown time zone '{target.timezone}'", []
    if not is_open(target.schedule, local_now):
        return False, "closed (schedule)", []
    if trunk is not None and trunk.status != Status.ACTIVE:
        return False, "trunk inactive", []
    if trunk is not None and trunk.direction != TrunkDirection.OUTBOUND:
        return False, "trunk not outbound", []
    usage: list[str] = []
    if trunk is not None and trunk.max_channels is not None:
        in_use = live.trunk(trunk.id or 0)
        note = f"trunk '{trunk.name}' channels {in_use}/{trunk.max_channels}"
        if in_use >= trunk.max_channels:
            return False, note, []
        usage.append(note)
    if target.concurrency_cap is not None:
        live_now = live.target(target.id or 0)
        note = f"concurrency cap {live_now}/{target.concurrency_cap}"
        if live_now >= target.concurrency_cap:
            return False, note, []
        usage.append(note)
    uses = cap_use(session, target, local_now)
    for use in uses:
        if use.reached:
            return False, str(use), []
        usage.append(str(use))
    return True, f"available ({', '.join(usage)})" if usage else "available", uses


def _next(cursor: int) -> int:
    return (cursor + 1) % _CURSOR_WRAP


def _advance_cursor(session: Session, campaign_id: int) -> int:
    """Move the campaign's round-robin cursor one step in the database and return the new value.

    One UPDATE ... RETURNING: parallel calls each get their own position instead of reading
    the same value and ringing the same target. Offline, the bridge moves on from the position it
    read last (the database's cursor is moved again once it answers).
    """
    key = ("cursor", campaign_id)
    if (known := offline(session)) is not None:
        cursor = _next(int(cast(int, known.recall(key))))
        known.remember(key, cursor)
        return cursor
    stmt = (
        update(Campaign)
        .where(Campaign.id == campaign_id)
        .values(rr_cursor=(Campaign.rr_cursor + 1) % _CURSOR_WRAP)
        .returning(Campaign.rr_cursor)
    )
    cursor = int(session.exec(stmt).scalar_one())
    if (known := attached(session)) is not None:
        known.remember(key, cursor)
    return cursor


def span(seconds: int) -> str:
    """A duration as people say it: '24 h', '90 min', '45 s'."""
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"
