"""The call report's filters by the visit a call came from (its attribution: docs/attribution.md)
and the visit's fields on a report row."""

from typing import Annotated

from fastapi import Query
from pydantic import BaseModel, Field


class VisitFilter(BaseModel):
    """Calls whose visit had this medium, UTM campaign or keyword (each exactly as the visit's URL
    carried it), a landing page starting so, or a click id (or none)."""

    medium: str | None = None
    utm_campaign: str | None = None
    keyword: str | None = None
    landing_page: str | None = None
    has_click_id: bool | None = None

    @property
    def any(self) -> bool:
        return any(v is not None for v in self.model_dump().values())

    @classmethod
    def of_query(
        cls,
        medium: Annotated[str | None, Query(max_length=128, description="utm_medium, exactly")] = None,
        utm_campaign: Annotated[
            str | None, Query(max_length=256, description="utm_campaign, exactly")
        ] = None,
        keyword: Annotated[str | None, Query(max_length=256, description="utm_term, exactly")] = None,
        landing_page: Annotated[
            str | None, Query(max_length=2048, description="The landing page's URL or how it starts")
        ] = None,
        has_click_id: Annotated[
            bool | None,
            Query(
                description="true: the visit carried an ad click id (gclid, fbclid...); false: no click id"
            ),
        ] = None,
    ) -> "VisitFilter":
        text = {
            "medium": medium,
            "utm_campaign": utm_campaign,
            "keyword": keyword,
            "landing_page": landing_page,
        }
        return cls(has_click_id=has_click_id, **{k: (v or "").strip() or None for k, v in text.items()})


class VisitFields(BaseModel):
    """A report row's visit: null on a call no visit is known for."""

    medium: str | None = Field(default=None, description="The visit's utm_medium")
    utm_campaign: str | None = Field(default=None, description="The visit's utm_campaign")
    keyword: str | None = Field(default=None, description="The visit's utm_term")
    landing_page: str | None = Field(default=None, description="The page the visitor landed on")
    click_id: str | None = Field(default=None, description="The ad click id the visit carried")
    click_id_kind: str | None = Field(default=None, description="gclid, gbraid, wbraid, fbclid or msclkid")
