"""What the report sums over a set of calls: calls, answered, converted, revenue, cost, profit.

Profit is written here once: the call's own, as rating set it (revenue - cost - publisher payout,
docs/billing.md); an unrated call's the same with its cost counting as 0."""

from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, func, literal_column

from core.models import Call
from core.values.enums import Disposition
from portal_api.schemas.reports import ReportMeasures

# The 0 is written into the SQL: the expression is then the cost index's own (COST_KEY, the sort).
COST = func.coalesce(Call.cost, literal_column("0"))
PROFIT = func.coalesce(Call.profit, Call.payout - COST - Call.publisher_payout)


def sums() -> list[ColumnElement[Any]]:
    """The measures as aggregates, labelled as ReportMeasures names them."""
    return [
        func.count().label("calls"),
        func.count().filter(Call.disposition == Disposition.ANSWERED.value).label("answered"),
        func.count().filter(Call.converted).label("converted"),
        func.coalesce(func.sum(Call.payout), 0).label("revenue"),
        func.coalesce(func.sum(COST), 0).label("cost"),
        func.coalesce(func.sum(Call.publisher_payout), 0).label("publisher_payout"),
        func.coalesce(func.sum(PROFIT), 0).label("profit"),
    ]


def measures(row: Any, money_visible: bool) -> ReportMeasures:
    """A row of `sums()` as ReportMeasures; without `money_visible` (a buyer) no cost nor profit."""
    return ReportMeasures(
        calls=row.calls,
        answered=row.answered,
        converted=row.converted,
        revenue=Decimal(row.revenue),
        cost=Decimal(row.cost) if money_visible else None,
        publisher_payout=Decimal(row.publisher_payout) if money_visible else None,
        profit=Decimal(row.profit) if money_visible else None,
    )
