"""Conversions sent back to the ad platforms (docs/conversions.md): the Google Ads export's query."""

from datetime import date
from typing import Annotated

from fastapi import Query
from pydantic import BaseModel

from core.values.errors import DomainError, ErrorId
from portal_api.schemas.common import Day

# What Google Ads imports: a click converts within 90 days of it at most (the longest window).
LONGEST_RANGE_DAYS = 90
DEFAULT_CONVERSION_NAME = "Phone call"


class GoogleAdsExport(BaseModel):
    fromDate: date
    toDate: date
    conversion_name: str


def google_ads_export(
    fromDate: Annotated[Day, Query(description="First day, in the customer's time zone")],
    toDate: Annotated[Day, Query(description="Last day, in the customer's time zone")],
    conversion_name: Annotated[
        str,
        Query(
            min_length=1,
            max_length=100,
            # No line breaks or tabs, and no first character a spreadsheet would run as a formula.
            pattern=r"^[^=+\-@\t\r\n][^\t\r\n]*$",
            description="The conversion action's name in Google Ads, exactly as it is there",
        ),
    ] = DEFAULT_CONVERSION_NAME,
) -> GoogleAdsExport:
    if fromDate > toDate:
        raise DomainError(ErrorId.REPORT_DATES, "toDate can't be before fromDate.", "toDate")
    if (toDate - fromDate).days >= LONGEST_RANGE_DAYS:
        message = f"Export at most {LONGEST_RANGE_DAYS} days at a time: Google Ads imports no older clicks."
        raise DomainError(ErrorId.CONVERSIONS_RANGE, message, "fromDate")
    return GoogleAdsExport(fromDate=fromDate, toDate=toDate, conversion_name=conversion_name.strip())
