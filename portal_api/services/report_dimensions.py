"""What the report groups calls by: one entry per dimension, each its SQL, its heading and the table
that names its groups. A new dimension (a source, a medium, a tag) is one more entry."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, Text, cast, func, literal
from sqlmodel import SQLModel

from core.models import Buyer, Call, Campaign, Target
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


DIMENSIONS: dict[ReportDimension, Dimension] = {
    ReportDimension.CAMPAIGN: Dimension("Campaign", lambda _: Call.campaign_id, Campaign, buyers=False),
    ReportDimension.TARGET: Dimension("Target", lambda _: Call.target_id, Target),
    ReportDimension.BUYER: Dimension("Buyer", lambda _: Call.buyer_id, Buyer, buyers=False),
    ReportDimension.NUMBER: Dimension("Tracking number", lambda _: Call.did),
    ReportDimension.DAY: Dimension("Day", _local("day"), text=_formatted("YYYY-MM-DD")),
    ReportDimension.HOUR: Dimension("Hour", _local("hour"), text=_formatted("YYYY-MM-DD HH24:00")),
}
