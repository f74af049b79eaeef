"""The admin audit: every administrator action that changes an account (docs/security.md).

Written in the same transaction as the change, so a change that is rolled back leaves no row and a
committed one always has its row.
"""

from sqlmodel import Session

from core.models import AdminAudit, User
from core.values.enums import AdminAction
from portal_api.auth.audit import Client


def record(
    session: Session,
    admin: User,
    action: AdminAction,
    user: User,
    client: Client | None,
    detail: str | None = None,
) -> None:
    session.add(
        AdminAudit(
            admin_id=admin.id,
            user_id=user.id,
            admin_email=admin.email,
            user_email=user.email,
            action=action.value,
            detail=detail[:255] if detail else None,
            ip=client.ip if client else None,
            user_agent=client.user_agent if client else None,
        )
    )
