"""The admin audit as the portal lists it (written by portal_api/auth/admin_audit.py)."""

from datetime import date

from sqlalchemy import select
from sqlmodel import Session

from core.models import AdminAudit, User
from core.values.enums import AdminAction
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.users import AdminAuditRow
from portal_api.services.common import contains_text, page_of, within_days
from portal_api.services.tenancy import visible_id


def history(
    session: Session,
    principal: Principal,
    pg: PageParams,
    admin_id: int | None,
    user_id: int | None,
    action: AdminAction | None,
    from_date: date | None,
    to_date: date | None,
) -> PageData[AdminAuditRow]:
    """Newest first; `params` matches either side's email. An `admin_id` or `user_id` naming no
    account is a 404, like any id naming no row (rows of deleted accounts keep their emails)."""
    stmt = select(AdminAudit)
    if visible_id(session, User, admin_id, principal, "admin_id", "User") is not None:
        stmt = stmt.where(AdminAudit.admin_id == admin_id)
    if visible_id(session, User, user_id, principal, "user_id", "User") is not None:
        stmt = stmt.where(AdminAudit.user_id == user_id)
    if action is not None:
        stmt = stmt.where(AdminAudit.action == action.value)
    stmt = within_days(stmt, AdminAudit.created_at, from_date, to_date, principal.user.timezone)
    if pg.params:
        stmt = stmt.where(
            contains_text(AdminAudit.admin_email, pg.params) | contains_text(AdminAudit.user_email, pg.params)
        )
    return page_of(session, stmt.order_by(AdminAudit.id.desc()), pg, AdminAuditRow.model_validate)
