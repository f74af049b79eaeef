"""Fixtures of the API tests beyond tests/conftest.py."""

import pytest

from core.infra.settings import get_settings
from portal_api.services import buyer_logins, password_reset, signup


@pytest.fixture
def mailer(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Mail set up; what the API hands the workers to mail (a sign-up's link, a password reset, a
    buyer's login) is kept here, in order, instead of going to the broker."""
    monkeypatch.setattr(get_settings(), "smtp_url", "smtp://mail.example.net:587")
    sent: list[tuple[str, ...]] = []
    for service in (buyer_logins, password_reset, signup):
        monkeypatch.setattr(service, "enqueue", lambda name, *args: sent.append((name, *args)))
    return sent
