"""The country list behind every country picker."""

from sqlalchemy import select
from sqlmodel import Session

from core.models import Country


def by_name(session: Session) -> list[Country]:
    return list(session.scalars(select(Country).order_by(Country.name)))
