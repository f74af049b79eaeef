"""Idempotent seed: the country list and a first admin."""

import secrets

import phonenumbers
import pycountry
from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session

from core.models import Country, User
from core.values.enums import Role
from core.values.passwords import hash_password


def seed_countries(session: Session) -> int:
    rows = [
        {
            "iso2": c.alpha_2,
            "iso3": c.alpha_3,
            "name": c.name,
            "dial_code": str(phonenumbers.country_code_for_region(c.alpha_2) or ""),
        }
        for c in pycountry.countries
    ]
    result = session.exec(insert(Country).values(rows).on_conflict_do_nothing(index_elements=["iso2"]))
    return int(result.rowcount or 0)


def seed_admin(session: Session, email: str, password: str) -> tuple[str, str] | None:
    """Create the first admin when none exists; returns (email, password) when one was created.

    With no password given, one is generated: the caller prints it once.
    """
    if session.scalar(select(func.count()).select_from(User).where(User.role == Role.ADMIN)):
        return None
    email = (email or "admin@example.com").strip().lower()
    password = password or secrets.token_urlsafe(12)
    session.add(
        User(email=email, password_hash=hash_password(password), name="Administrator", role=Role.ADMIN)
    )
    session.flush()
    return email, password
