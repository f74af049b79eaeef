"""What the report sums over a set of calls: calls, answered, converted, revenue, cost, profit.

Profit is written here once, as SQL and for one row: revenue (the buyer's payout) less the call's
cost, an unrated call's cost counting as 0. When the call row carries its own profit (with the
publisher's payout, issue 33), both become that column."""

from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, func, literal_column

from core.models import Call
from core.values.enums import Disposition
from portal_api.schemas.reports import ReportMeasures

# The 0 is written into the SQL: the expression is then the cost index's own (COST_KEY, the sort).
COST = func.coalesce(Call.cost, literal_column("0"))
PROFIT = Call.payout - COST


def profit(payout: Decimal, cost: Decimal | None) -> Decimal:
    """One call's profit, as PROFIT computes it."""
    return payout - (cost or Decimal(0))


def sums() -> list[ColumnElement[Any]]:
    """The measures as aggregates, labelled as ReportMeasures names them."""
    return [
        func.count().label("calls"),
        func.count().filter(Call.disposition == Disposition.ANSWERED.value).label("answered"),
        func.count().filter(Call.converted).label("converted"),
        func.coalesce(func.sum(Call.payout), 0).label("revenue"),
        func.coalesce(func.sum(COST), 0).label("cost"),
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
        profit=Decimal(row.profit) if money_visible else None,
    )
