"""Caller-region rules: which callers a target takes, and which a campaign blocks, by where the
caller's number is from and its line type (core.calls.caller_origin, docs/regions.md).

A place is a country ("US") or a region of one ("US:California"). A country place matches every
caller of that country; a region place the callers whose region the data names as that one.
The rules are stored as JSON on the target (`Target.region_rules`) and the campaign
(`Campaign.region_rules`); an empty object is the default: every caller taken.

"Unknown" is the region of a caller whose number names none (module core.calls.caller_origin). With
`accept_unknown` off, such a caller is skipped (a target) or blocked (a campaign) outright. With it
on (the default), what is known still counts: a caller whose region is unknown but whose country
is listed matches that country, and it never matches a region place.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from core.calls.caller_origin import NOWHERE, UNKNOWN, CallerOrigin
from core.calls.record import Entry, Result, Step, entry
from core.models import Campaign, Target
from core.values.enums import Disposition, LineType, RegionMode

SEPARATOR = ":"


def place_label(place: str) -> str:
    """A place as a person reads it: "California, US", "US"."""
    country, _, region = place.partition(SEPARATOR)
    return f"{region}, {country}" if region else country


def matches(places: Iterable[str], origin: CallerOrigin) -> str | None:
    """The first of `places` the caller is from, or None."""
    if origin.country == UNKNOWN:
        return None
    for place in places:
        country, _, region = place.partition(SEPARATOR)
        if country == origin.country and (not region or region == origin.region):
            return place
    return None


# The rules are read from JSON (`stored`), so each value is checked for what it holds.
def _line_types(values: object) -> frozenset[LineType]:
    return frozenset(LineType(v) for v in _listed(values) if v in LineType._value2member_map_)


def _listed(values: object) -> tuple[str, ...]:
    return tuple(values) if isinstance(values, list | tuple) else ()


@dataclass(frozen=True)
class TargetRule:
    """Which callers a target takes (`Target.region_rules`)."""

    mode: RegionMode = RegionMode.ALL
    regions: tuple[str, ...] = ()
    excluded_line_types: frozenset[LineType] = frozenset()
    accept_unknown: bool = True

    @classmethod
    def of(cls, stored: Mapping[str, object] | None) -> "TargetRule":
        stored = stored or {}
        mode = stored.get("mode", RegionMode.ALL)
        return cls(
            RegionMode(str(mode)) if mode in RegionMode._value2member_map_ else RegionMode.ALL,
            _listed(stored.get("regions")),
            _line_types(stored.get("excluded_line_types")),
            bool(stored.get("accept_unknown", True)),
        )

    def refusal(self, origin: CallerOrigin) -> str | None:
        """Why the target does not take this caller (the trail's skip reason), or None."""
        if origin.line_type in self.excluded_line_types:
            return f"line type {origin.line_type} excluded"
        if origin.region == UNKNOWN and not self.accept_unknown:
            return f"caller's region unknown ({origin.place}) not accepted"
        if self.mode == RegionMode.ALL:
            return None
        found = matches(self.regions, origin)
        if self.mode == RegionMode.EXCLUDE and found:
            return f"region {origin.place} excluded ({place_label(found)})"
        if self.mode == RegionMode.ACCEPT and not found:
            if origin.region == UNKNOWN and self._may_be_in(origin):
                return None  # accept_unknown: a listed region of its country may be where it is
            return f"region {origin.place} not accepted"
        return None

    def _may_be_in(self, origin: CallerOrigin) -> bool:
        """An unknown-region caller could be from a listed region: its country is unknown, or a
        region of its country is listed."""
        if origin.country == UNKNOWN:
            return True
        return any(p.partition(SEPARATOR)[0] == origin.country for p in self.regions)


@dataclass(frozen=True)
class CampaignRule:
    """Which callers a campaign blocks (`Campaign.region_rules`)."""

    blocked_regions: tuple[str, ...] = ()
    blocked_line_types: frozenset[LineType] = frozenset()
    accept_unknown: bool = True

    @classmethod
    def of(cls, stored: Mapping[str, object] | None) -> "CampaignRule":
        stored = stored or {}
        return cls(
            _listed(stored.get("blocked_regions")),
            _line_types(stored.get("blocked_line_types")),
            bool(stored.get("accept_unknown", True)),
        )

    def refusal(self, origin: CallerOrigin) -> str | None:
        """Why the campaign blocks this caller (the trail's reason), or None."""
        if origin.line_type in self.blocked_line_types:
            return f"the campaign blocks {origin.line_type} lines"
        if origin.region == UNKNOWN and not self.accept_unknown:
            return f"the campaign blocks callers whose region is unknown ({origin.place})"
        found = matches(self.blocked_regions, origin)
        if found:
            return f"the campaign blocks callers from {place_label(found)}"
        return None


def described(origin: CallerOrigin) -> str:
    """The trail's words for what was read from the caller's number."""
    line = "line type unknown" if origin.line_type == LineType.UNKNOWN else f"{origin.line_type} line"
    network = f", {origin.carrier}" if origin.carrier else ""
    return f"{origin.place} ({line}{network})"


def trail_fields(origin: CallerOrigin) -> dict[str, str]:
    """The `region` entry's fields (docs/routing.md, "The trail")."""
    return {"country": origin.country, "region": origin.region, "line_type": origin.line_type.value}


def region_step(campaign: Campaign, origin: CallerOrigin | None, now: datetime) -> Entry:
    """The trail's `region` entry of an admitted call: what was read from the caller's number, and
    whether the campaign blocks it (`stopped`, disposition BLOCKED)."""
    origin = origin or NOWHERE
    found = described(origin)
    blocked = CampaignRule.of(campaign.region_rules).refusal(origin)
    if blocked is not None:
        reason = f"caller from {found}: {blocked}"
        fields = {**trail_fields(origin), "disposition": Disposition.BLOCKED.value}
        return entry(Step.REGION, Result.STOPPED, reason, now, **fields)
    return entry(Step.REGION, Result.PASSED, f"caller from {found}", now, **trail_fields(origin))


def target_refusal(target: Target, origin: CallerOrigin | None) -> str | None:
    """Why `target` does not take the caller (its skip reason in the trail), or None."""
    if not target.region_rules:
        return None  # the default: every caller
    return TargetRule.of(target.region_rules).refusal(origin or NOWHERE)
