"""The mail the workers send (a password reset link), through a real SMTP server on a free port."""

import socket
from collections.abc import Iterator
from email.message import Message as Mail

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Message

from core.infra.settings import get_settings
from workers.tasks import send_mail


class Inbox(Message):
    def __init__(self) -> None:
        super().__init__()
        self.received: list[Mail] = []

    def handle_message(self, message: Mail) -> None:
        self.received.append(message)


@pytest.fixture
def inbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[Inbox]:
    handler = Inbox()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = Controller(handler, hostname="127.0.0.1", port=port)
    server.start()
    try:
        monkeypatch.setattr(get_settings(), "smtp_url", f"smtp://127.0.0.1:{server.port}")
        yield handler
    finally:
        server.stop()


def test_the_worker_sends_the_mail_it_is_given(inbox: Inbox) -> None:
    send_mail(
        "ada@example.com", "Reset your Callroute password", "Open https://portal/reset-password?token=x"
    )
    [mail] = inbox.received
    assert mail["To"] == "ada@example.com"
    assert mail["Subject"] == "Reset your Callroute password"
    assert mail["From"] == get_settings().mail_from
    assert "reset-password?token=x" in str(mail.get_payload())
