"""Sign-in, sign-out and sign-up."""

from typing import Any

from fastapi import APIRouter, Request
from sqlmodel import select

from core.enums import Role, TokenKind, UserStatus
from core.models import User
from core.passwords import verify_password
from core.settings import get_settings
from portal_api.accounts import create_user
from portal_api.auth import throttle, tokens
from portal_api.auth.principal import PrincipalDep, client_ip
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.errors import ApiError
from portal_api.schemas.users import LoginIn, RegisterIn, SignedIn, StoredUser

router = APIRouter(tags=["auth"])


@router.post("/login", response_model=Envelope[SignedIn], summary="Sign in with email and password")
def login(body: LoginIn, request: Request, session: SessionDep) -> dict[str, Any]:
    email = body.email.strip().lower()
    ip = client_ip(request)
    throttle.attempt(email, ip)
    user = session.exec(select(User).where(User.email == email)).first()
    if not verify_password(user.password_hash if user else None, body.password) or user is None:
        raise ApiError(401, "The email or password is incorrect.")
    if user.status != UserStatus.ACTIVE:
        raise ApiError(403, "This account is not active; contact your administrator.")
    throttle.succeeded(email, ip)
    token, _ = tokens.issue(session, user.id or 0, TokenKind.SESSION, get_settings().session_hours, ip=ip)
    session.commit()
    return ok(SignedIn(token=token, user=StoredUser.of(user)), "Signed in.")


@router.post("/logout", response_model=Envelope[None], summary="Revoke the token used for this call")
def logout(principal: PrincipalDep, session: SessionDep) -> dict[str, Any]:
    tokens.revoke(session, principal.token)
    session.commit()
    return ok(None, "Signed out.")


@router.post(
    "/register",
    response_model=Envelope[SignedIn],
    status_code=201,
    summary="Create a customer account (role 2) and sign it in",
)
def register(body: RegisterIn, request: Request, session: SessionDep) -> dict[str, Any]:
    user = create_user(
        session,
        email=body.email,
        password=body.password,
        name=body.name,
        role=Role.CUSTOMER,
        timezone=body.timezone,
        company=body.company,
        phone=body.phone,
    )
    token, _ = tokens.issue(
        session, user.id or 0, TokenKind.SESSION, get_settings().session_hours, ip=client_ip(request)
    )
    session.commit()
    return ok(SignedIn(token=token, user=StoredUser.of(user)), "Account created.")
