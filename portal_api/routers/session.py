"""Sign-in, sign-out and sign-up."""

from fastapi import APIRouter, Request, Response

from portal_api.auth.principal import PrincipalDep, client_ip, client_of
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.users import (
    ForgotPasswordIn,
    LoginIn,
    RegisterIn,
    ResetPasswordIn,
    SignedIn,
    SignUpConfirmIn,
)
from portal_api.services import password_reset, signup
from portal_api.services import session as sessions

router = APIRouter(tags=["auth"])


@router.post("/login", summary="Sign in with email and password")
def login(body: LoginIn, request: Request, session: SessionDep) -> Envelope[SignedIn]:
    return ok(sessions.sign_in(session, body.email, body.password, client_ip(request)), "Signed in.")


@router.post(
    "/logout",
    summary="Revoke the token used for this call and the impersonations started from it",
)
def logout(request: Request, principal: PrincipalDep, session: SessionDep) -> Envelope[None]:
    sessions.sign_out(session, principal.token, client_of(request))
    return ok(None, "Signed out.")


@router.post(
    "/register",
    status_code=201,
    responses={
        202: {
            "model": Envelope[None],
            "description": "Mail is set up: the link mailed to the address finishes it",
        }
    },
    summary="Create a customer account (role 2) and sign it in, or mail a link that does",
)
def register(
    body: RegisterIn, request: Request, response: Response, session: SessionDep
) -> Envelope[SignedIn | None]:
    result = signup.register(session, body, client_ip(request))
    if isinstance(result, str):
        response.status_code = 202
        return ok(None, result)
    return ok(result, "Account created.")


@router.post(
    "/register/confirm",
    status_code=201,
    summary="Create the account a mailed sign-up link asked for, and sign it in",
)
def confirm_registration(body: SignUpConfirmIn, request: Request, session: SessionDep) -> Envelope[SignedIn]:
    return ok(signup.confirm(session, body.token, client_ip(request)), "Account created.")


@router.post(
    "/forgot-password",
    summary="Mail a one-time reset link (or, without mail, tell the administrators)",
)
def forgot_password(body: ForgotPasswordIn, session: SessionDep) -> Envelope[None]:
    return ok(None, password_reset.request_reset(session, body.email))


@router.post("/reset-password", summary="Set a new password with a reset token")
def reset_password(body: ResetPasswordIn, session: SessionDep) -> Envelope[None]:
    password_reset.reset(session, body.token, body.new_password)
    return ok(None, "Password changed: sign in with the new one.")
