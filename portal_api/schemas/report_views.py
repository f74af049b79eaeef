"""A person's saved views of the call report: a name for the filters, columns, sort and grouping."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from portal_api.schemas.common import NO_CONTROLS, NO_CONTROLS_PATTERN, Name, StrictBody
from portal_api.schemas.reports import ReportColumn, ReportDimension, ReportSort, SortDirection

# The report's query parameters a view keeps (the URL's), and the date preset, which a view keeps as
# a period (today, this month) rather than the dates it meant when saved.
ViewFilter = Literal[
    "user_id",
    "campaign_id",
    "target_id",
    "buyer_id",
    "campaign_name",
    "fromDate",
    "toDate",
    "preset",
    "did_number",
    "disposition",
    "target_number",
    "caller_number",
    "caller_country",
    "caller_region",
]
_FilterText = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=500), NO_CONTROLS, NO_CONTROLS_PATTERN
]


class ReportViewIn(StrictBody):
    name: Annotated[Name, StringConstraints(max_length=80)]
    filters: dict[ViewFilter, _FilterText] = Field(
        default_factory=dict, description="The report's filters as its URL carries them (checked when used)"
    )
    columns: list[ReportColumn] = Field(
        default_factory=list, max_length=len(ReportColumn), description="The columns shown, in order"
    )
    sort: ReportSort = ReportSort.STARTED_AT
    direction: SortDirection = SortDirection.DESC
    group_by: ReportDimension | None = None


class ReportViewOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    filters: dict[ViewFilter, str]
    columns: list[ReportColumn]
    sort: ReportSort
    direction: SortDirection
    group_by: ReportDimension | None
