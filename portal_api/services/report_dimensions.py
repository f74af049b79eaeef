"""What the report groups calls by: one entry per dimension, each its SQL, its heading and the table
that names its groups. A new dimension (a source, a medium, a tag) is one more entry."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, Text, cast, func, literal, select, true
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlmodel import SQLModel

from core.models import Buyer, Call, CallAttribution, CallConversation, Campaign, Target, TrafficSource
from portal_api.schemas.reports import ReportDimension


def _as_text(value: ColumnElement[Any]) -> ColumnElement[Any]:
    return cast(value, Text)


@dataclass(frozen=True)
class Dimension:
    label: str
    # A call's group, given the caller's time zone (IANA).
    value: Callable[[str], SQLColumnExpression[Any]]
    # The table whose `name` names a group, joined on its `id`; None: the group's text is its name.
    named_by: type[SQLModel] | None = None
    # A group's value as text: its key, and its name when no table names it.
    text: Callable[[ColumnElement[Any]], ColumnElement[Any]] = field(default=_as_text)
    # A buyer may group its own calls by it (it sees no campaign nor other buyers).
    buyers: bool = True


def _local(unit: str) -> Callable[[str], SQLColumnExpression[Any]]:
    """The call's start truncated to the `unit` (day, hour) of the caller's local time. The zone is
    written into the SQL: the grouped and the selected expression are then the same text."""
    return lambda zone: func.date_trunc(
        unit, func.timezone(literal(zone, literal_execute=True), Call.started_at)
    )


def _formatted(pattern: str) -> Callable[[ColumnElement[Any]], ColumnElement[Any]]:
    return lambda value: func.to_char(value, pattern)


def _visit(column: Any) -> Callable[[str], SQLColumnExpression[Any]]:
    """The call's visit's `column` (call_attribution, one row per call by its key): a correlated
    lookup rather than a join, so that only a grouping by the visit reads the visits."""
    found = select(column).where(CallAttribution.call_id == Call.id).scalar_subquery()
    return lambda _: found


def _source(_: str) -> SQLColumnExpression[Any]:
    """Where the call came from (docs/attribution.md): its traffic source's name, else its visit's source."""
    named = select(TrafficSource.name).where(TrafficSource.id == Call.source_id).scalar_subquery()
    return func.coalesce(named, _visit(CallAttribution.source)(""))


def _tags(_: str) -> SQLColumnExpression[Any]:
    """The tags its keyword rules gave the call, in one text ("booked, spam", in order): a call is in
    one group whatever its tags, so the groups add up to the totals; a call with none has none."""
    tags = func.unnest(CallConversation.tags).table_valued("tag").render_derived(name="said")
    joined = func.string_agg(tags.c.tag, aggregate_order_by(literal(", ", literal_execute=True), tags.c.tag))
    found = select(joined).select_from(CallConversation).join(tags, true())
    return found.where(CallConversation.call_id == Call.id).scalar_subquery()


DIMENSIONS: dict[ReportDimension, Dimension] = {
    ReportDimension.CAMPAIGN: Dimension("Campaign", lambda _: Call.campaign_id, Campaign, buyers=False),
    ReportDimension.TARGET: Dimension("Target", lambda _: Call.target_id, Target),
    ReportDimension.BUYER: Dimension("Buyer", lambda _: Call.buyer_id, Buyer, buyers=False),
    ReportDimension.NUMBER: Dimension("Tracking number", lambda _: Call.did),
    ReportDimension.DAY: Dimension("Day", _local("day"), text=_formatted("YYYY-MM-DD")),
    ReportDimension.HOUR: Dimension("Hour", _local("hour"), text=_formatted("YYYY-MM-DD HH24:00")),
    # Where calls came from is the customer's: a buyer groups by none of these.
    ReportDimension.SOURCE: Dimension("Source", _source, buyers=False),
    ReportDimension.MEDIUM: Dimension("Medium", _visit(CallAttribution.medium), buyers=False),
    ReportDimension.UTM_CAMPAIGN: Dimension("Ad campaign", _visit(CallAttribution.campaign), buyers=False),
    ReportDimension.KEYWORD: Dimension("Keyword", _visit(CallAttribution.keyword), buyers=False),
    ReportDimension.LANDING_PAGE: Dimension(
        "Landing page", _visit(CallAttribution.landing_page), buyers=False
    ),
    ReportDimension.TAG: Dimension("Tags", _tags, buyers=False),
}
