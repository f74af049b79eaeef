"""Outgoing mail over SMTP (settings.smtp_url); the workers send it, never a request handler."""

import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from core.infra.settings import get_settings

TIMEOUT_SECONDS = 30


def configured() -> bool:
    return bool(get_settings().smtp_url)


def send(to: str, subject: str, body: str) -> None:
    settings = get_settings()
    url = urlsplit(settings.smtp_url)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = settings.mail_from, to, subject
    message.set_content(body)
    secure = url.scheme == "smtps"
    smtp_class = smtplib.SMTP_SSL if secure else smtplib.SMTP
    port = url.port or (465 if secure else 25)
    with smtp_class(url.hostname or "localhost", port, timeout=TIMEOUT_SECONDS) as smtp:
        if not secure and url.port == 587:
            smtp.starttls()
        if url.username:
            smtp.login(unquote(url.username), unquote(url.password or ""))
        smtp.send_message(message)
