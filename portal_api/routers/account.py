"""The signed-in user's own account: profile, password, balance, server time."""

from datetime import UTC, datetime

from fastapi import APIRouter

from core.models import User
from core.passwords import verify_password
from portal_api.accounts import set_password, wallet_currency
from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.errors import field_error
from portal_api.schemas.users import Balance, PasswordChange, ProfileUpdate, ServerTime, UserOut
from portal_api.tenancy import get_visible

router = APIRouter(tags=["account"])


@router.get("/server-time", response_model=Envelope[ServerTime], summary="The server clock, in UTC")
def server_time(principal: PrincipalDep) -> dict:
    now = datetime.now(UTC)
    return ok(ServerTime(server_time=now.strftime("%Y-%m-%d %H:%M:%S"), timezone="UTC"))


@router.get("/profile", response_model=Envelope[UserOut], summary="The signed-in user's profile")
def profile(principal: PrincipalDep) -> dict:
    return ok(UserOut.of(principal.user))


@router.put("/profile", response_model=Envelope[UserOut], summary="Update the signed-in user's profile")
def update_profile(body: ProfileUpdate, principal: PrincipalDep, session: SessionDep) -> dict:
    user = principal.user
    for field, value in body.model_dump(exclude_unset=True).items():
        if value is None and field in ("name", "timezone"):
            raise field_error(field, f"{field} can't be empty.")
        setattr(user, field, value)
    user.updated_at = datetime.now(UTC)
    session.add(user)
    session.commit()
    return ok(UserOut.of(user), "Profile saved.")


@router.post(
    "/change-password",
    response_model=Envelope[None],
    summary="Change the password; every other session of this user is signed out",
)
def change_password(body: PasswordChange, principal: PrincipalDep, session: SessionDep) -> dict:
    user = principal.user
    if not verify_password(user.password_hash, body.current_password):
        raise field_error("current_password", "The current password is incorrect.")
    if body.current_password == body.new_password:
        raise field_error("new_password", "The new password must differ from the current one.")
    set_password(session, user, body.new_password, keep_token_id=principal.token.id)
    session.commit()
    return ok(None, "Password changed.")


@router.get(
    "/user/balance/{user_id}",
    response_model=Envelope[list[Balance]],
    summary="Wallet balance of a user (a customer may read only its own)",
)
def balance(user_id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    user = get_visible(session, User, user_id, principal, "User")
    return ok([Balance(user_id=user.id or 0, balance=user.balance, currency=wallet_currency(session, user))])
