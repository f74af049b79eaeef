"""Notices under the header bell, written by any part of the house (billing, webhooks, password
resets); a job that runs twice sends each one once. It sits below billing and webhooks so that
neither has to import the other to tell someone something."""

from collections.abc import Sequence
from typing import cast

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session

from core.models import Notification, User
from core.values.enums import Role


def notify(session: Session, user_ids: list[int], text: str, dedupe_key: str, kind: str) -> None:
    """One notice per user; a (user, dedupe_key) already sent is skipped by the unique index."""
    _insert(session, user_ids, [(text, dedupe_key)], kind)


def notify_admins(session: Session, text: str, dedupe_key: str) -> None:
    notify_admins_of(session, [(text, dedupe_key)])


def notify_admins_of(session: Session, notices: Sequence[tuple[str, str]]) -> None:
    """notify_admins for several (text, dedupe_key) at once (a rating batch): one read of the
    admins, one insert."""
    if not notices:
        return
    # Ids of stored rows: never None, though the model's `id` is optional until a row is added.
    admins = cast(list[int], list(session.scalars(select(User.id).where(User.role == Role.ADMIN))))
    _insert(session, admins, notices, "admin")


def _insert(session: Session, user_ids: list[int], notices: Sequence[tuple[str, str]], kind: str) -> None:
    rows = [
        {"user_id": u, "kind": kind, "text": text[:1000], "dedupe_key": dedupe_key[:128]}
        for text, dedupe_key in notices
        for u in user_ids
    ]
    if not rows:
        return
    session.execute(
        insert(Notification).values(rows).on_conflict_do_nothing(constraint="uq_notification_dedupe")
    )
