"""Sign-in, sign-out and sign-up."""

from typing import Any

from fastapi import APIRouter, Request

from portal_api.auth.principal import PrincipalDep, client_ip
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.users import LoginIn, RegisterIn, SignedIn
from portal_api.services import session as sessions

router = APIRouter(tags=["auth"])


@router.post("/login", response_model=Envelope[SignedIn], summary="Sign in with email and password")
def login(body: LoginIn, request: Request, session: SessionDep) -> dict[str, Any]:
    return ok(sessions.sign_in(session, body.email, body.password, client_ip(request)), "Signed in.")


@router.post("/logout", response_model=Envelope[None], summary="Revoke the token used for this call")
def logout(principal: PrincipalDep, session: SessionDep) -> dict[str, Any]:
    sessions.sign_out(session, principal.token)
    return ok(None, "Signed out.")


@router.post(
    "/register",
    response_model=Envelope[SignedIn],
    status_code=201,
    summary="Create a customer account (role 2) and sign it in",
)
def register(body: RegisterIn, request: Request, session: SessionDep) -> dict[str, Any]:
    return ok(sessions.register(session, body, client_ip(request)), "Account created.")
