"""The header bell: the caller's own notifications."""

from fastapi import APIRouter

from portal_api.auth.principal import PrincipalDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.notifications import NotificationOut, UnreadCount
from portal_api.services import notifications

router = APIRouter(prefix="/notification", tags=["notifications"])


@router.get(
    "/notification",
    summary="The caller's notifications, newest first",
)
def listing(principal: PrincipalDep, session: SessionDep, pg: PageDep) -> Envelope[PageData[NotificationOut]]:
    return ok(notifications.page(session, principal.user.id or 0, pg))


@router.get("/unread-count", summary="How many are unread")
def unread(principal: PrincipalDep, session: SessionDep) -> Envelope[UnreadCount]:
    count = notifications.unread_count(session, principal.user.id or 0)
    return ok(UnreadCount(unread_notification_count=count))


@router.patch("/read/{id:int}", summary="Mark one as read")
def mark_read(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[NotificationOut]:
    row = notifications.mark_read(session, principal.user.id or 0, id)
    return ok(NotificationOut.model_validate(row), "Marked as read.")


@router.post("/read-all", summary="Mark all as read")
def mark_all_read(principal: PrincipalDep, session: SessionDep) -> Envelope[UnreadCount]:
    notifications.mark_all_read(session, principal.user.id or 0)
    return ok(UnreadCount(unread_notification_count=0), "All marked as read.")
