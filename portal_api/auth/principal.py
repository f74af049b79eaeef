"""Who is calling: the bearer token resolved to a user (and an impersonating admin, if any)."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session, select

from core.infra.settings import get_settings
from core.models import AuthToken, Buyer, User
from core.values.enums import Role, UserStatus
from core.values.errors import DomainError, ErrorId
from portal_api.auth import audit, tokens
from portal_api.client_address import client_address
from portal_api.deps import SessionDep

_bearer = HTTPBearer(auto_error=False, description="The token from POST /api/login")


@dataclass
class Principal:
    user: User
    token: AuthToken
    # The buyer record behind a role-3 login.
    buyer: Buyer | None = None

    @property
    def role(self) -> Role:
        return Role(self.user.role)

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN

    @property
    def is_customer(self) -> bool:
        return self.role is Role.CUSTOMER

    @property
    def is_buyer(self) -> bool:
        return self.role is Role.BUYER

    @property
    def impersonator_id(self) -> int | None:
        return self.token.impersonator_id

    @property
    def owner_id(self) -> int | None:
        """The customer whose rows this caller works on (None for an admin)."""
        if self.is_customer:
            return self.user.id
        if self.buyer is not None:
            return self.buyer.user_id
        return None


def refusal(session: Session, user: User) -> str | None:
    """Why this account may not be used now, or None: it is inactive, or a buyer whose company is."""
    if user.status != UserStatus.ACTIVE:
        return "This account is not active; contact your administrator."
    if user.role == Role.BUYER:
        company = select(User.status).join(Buyer, Buyer.user_id == User.id)
        if session.scalar(company.where(Buyer.login_user_id == user.id)) != UserStatus.ACTIVE:
            return "The company this buyer works for is not active; contact it."
    return None


def resolve(session: Session, raw_token: str) -> Principal:
    """The principal behind a token, or 401. Shared by HTTP calls and the WebSocket.

    An impersonation token is renewed by its use and marks the session, so that what it changes
    records the acting admin (auth/audit.py)."""
    row = tokens.find_live(session, raw_token)
    if row is None:
        message = "Your session has ended or the token is not valid; sign in again."
        raise DomainError(ErrorId.AUTH_TOKEN_INVALID, message)
    user = session.get(User, row.user_id)
    if user is None:
        raise DomainError(
            ErrorId.AUTH_ACCOUNT_REFUSED, "This account is not active; contact your administrator."
        )
    why = refusal(session, user)
    if why is not None:
        raise DomainError(ErrorId.AUTH_ACCOUNT_REFUSED, why)
    if row.impersonator_id is not None:
        admin = session.get(User, row.impersonator_id)
        if admin is None or admin.role != Role.ADMIN or admin.status != UserStatus.ACTIVE:
            message = "The impersonating administrator is no longer active; sign in again."
            raise DomainError(ErrorId.AUTH_IMPERSONATOR_INACTIVE, message)
        tokens.renew(row, timedelta(minutes=get_settings().impersonation_minutes))
        audit.act_as(session, row)
    buyer = None
    if user.role == Role.BUYER:
        buyer = session.exec(select(Buyer).where(Buyer.login_user_id == user.id)).first()
        if buyer is None:
            message = "This buyer login has no buyer record any more; contact the company."
            raise DomainError(ErrorId.AUTH_BUYER_GONE, message)
    return Principal(user=user, token=row, buyer=buyer)


def get_principal(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    if credentials is None or not credentials.credentials:
        raise DomainError(ErrorId.AUTH_TOKEN_MISSING, "Sign in first: this call needs a bearer token.")
    return resolve(session, credentials.credentials)


PrincipalDep = Annotated[Principal, Depends(get_principal)]


def require_roles(*roles: Role) -> Any:  # what Depends() is typed as, to fit anywhere FastAPI takes one
    allowed = set(roles)
    names = " or ".join(r.label.lower() for r in roles)

    def check(principal: PrincipalDep) -> Principal:
        if principal.role not in allowed:
            raise DomainError(
                ErrorId.AUTH_ROLE_FORBIDDEN,
                f"Only an {names} can do this." if names[0] in "aeiou" else f"Only a {names} can do this.",
            )
        return principal

    return Depends(check)


AdminDep = Annotated[Principal, require_roles(Role.ADMIN)]
AdminOrCustomerDep = Annotated[Principal, require_roles(Role.ADMIN, Role.CUSTOMER)]


def client_ip(request: Request) -> str:
    return client_address(request.scope)


def client_of(request: Request) -> audit.Client:
    """The request's address and browser, as the impersonation audit records them."""
    return audit.Client(
        ip=client_ip(request), user_agent=(request.headers.get("user-agent") or "")[:255] or None
    )
