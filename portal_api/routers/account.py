"""The signed-in user's own account: profile, password, balance, server time."""

from datetime import UTC, datetime

from fastapi import APIRouter, Request

from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep, client_ip
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.users import Balance, PasswordChange, ProfileUpdate, ServerTime, UserOut
from portal_api.services import accounts

router = APIRouter(tags=["account"])


@router.get("/server-time", summary="The server clock, in UTC")
def server_time(principal: PrincipalDep) -> Envelope[ServerTime]:
    now = datetime.now(UTC)
    return ok(ServerTime(server_time=now.strftime("%Y-%m-%d %H:%M:%S"), timezone="UTC"))


@router.get("/profile", summary="The signed-in user's profile")
def profile(principal: PrincipalDep) -> Envelope[UserOut]:
    return ok(UserOut.of(principal.user))


@router.put("/profile", summary="Update the signed-in user's profile")
def update_profile(body: ProfileUpdate, principal: PrincipalDep, session: SessionDep) -> Envelope[UserOut]:
    user = accounts.update_profile(session, principal.user, body.model_dump(exclude_unset=True))
    return ok(UserOut.of(user), "Profile saved.")


@router.post(
    "/change-password",
    summary="Change the password: the user's other sessions and impersonations end; the API token "
    "too with revoke_api_token",
)
def change_password(
    body: PasswordChange, request: Request, principal: PrincipalDep, session: SessionDep
) -> Envelope[None]:
    accounts.change_password(
        session,
        principal,
        body.current_password,
        body.new_password,
        client_ip(request),
        body.revoke_api_token,
    )
    return ok(None, "Password changed.")


@router.get(
    "/user/balance/{user_id:int}",
    summary="Wallet balance of a user (a customer may read only its own)",
)
def balance(user_id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[Balance]]:
    return ok([accounts.balance(session, principal, user_id)])
