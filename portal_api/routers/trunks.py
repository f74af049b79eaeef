"""SIP trunks (spec §7 Trunks). Admin only, except the outbound picker; the secret is write-only."""

import logging
from datetime import UTC, datetime
from typing import Annotated

import redis
from fastapi import APIRouter, Query
from sqlalchemy import exists, func, select
from sqlmodel import Session

from core.enums import Status, TrunkAuth, TrunkDirection
from core.models import Call, Target, Trunk, Vendor
from core.pbx_commands import announce_trunk_change
from core.redis_client import get_redis
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.crud import StatusIn, change_status, page_of, text_filter
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import ApiError, field_error
from portal_api.schemas.trunks import TrunkBrief, TrunkCreate, TrunkOut, TrunkUpdate
from portal_api.tenancy import get_visible

log = logging.getLogger(__name__)
router = APIRouter(prefix="/trunk", tags=["trunks"])

_REQUIRED = (
    "name",
    "direction",
    "host",
    "port",
    "transport",
    "auth_type",
    "dial_prefix",
    "strip_digits",
    "codecs",
    "failover_order",
)


def _endpoint_statuses(ids: list[int]) -> dict[int, str | None]:
    """What the PBX bridge last reported per trunk (Redis `trunk:status:{id}`); None when unknown."""
    if not ids:
        return {}
    try:
        values = get_redis().mget([f"trunk:status:{i}" for i in ids])
    except redis.RedisError:
        # A status display must not take the trunk screens down with it.
        log.warning("trunk endpoint status unavailable: Redis did not answer")
        values = [None] * len(ids)
    return dict(zip(ids, values, strict=True))


def _out(trunk: Trunk) -> TrunkOut:
    return TrunkOut.of(trunk, _endpoint_statuses([trunk.id or 0])[trunk.id or 0])


def _check_name(session: Session, name: str, except_id: int | None = None) -> None:
    stmt = select(Trunk.id).where(func.lower(Trunk.name) == name.lower())
    if except_id is not None:
        stmt = stmt.where(Trunk.id != except_id)
    if session.scalar(stmt) is not None:
        raise field_error("name", "A trunk with this name already exists.", status=409)


def _check_vendor(session: Session, vendor_id: int | None) -> None:
    if vendor_id is not None and session.get(Vendor, vendor_id) is None:
        raise field_error("vendor_id", f"Vendor {vendor_id} does not exist.")


def _check_auth(trunk: Trunk) -> None:
    if trunk.auth_type == TrunkAuth.DIGEST:
        if not trunk.username:
            raise field_error("username", "Digest authentication needs a username.")
        if not trunk.secret:
            raise field_error("secret", "Digest authentication needs a secret.")


def _used_by_targets(session: Session, trunk_id: int) -> bool:
    return bool(session.scalar(select(exists().where(Target.trunk_id == trunk_id))))


def _active(session: Session, direction: TrunkDirection) -> list[TrunkBrief]:
    rows = session.scalars(
        select(Trunk).where(Trunk.direction == direction, Trunk.status == Status.ACTIVE).order_by(Trunk.name)
    )
    return [TrunkBrief.of(t) for t in rows]


@router.get(
    "/details",
    response_model=Envelope[PageData[TrunkOut]],
    summary="Trunks, paginated; `params` matches name, host or username",
)
def details(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    direction: TrunkDirection | None = None,
    status: Status | None = None,
    vendor_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Supplied by this vendor")] = None,
) -> dict:
    stmt = text_filter(select(Trunk), pg.params, Trunk.name, Trunk.host, Trunk.username)
    if vendor_id is not None:
        stmt = stmt.where(Trunk.vendor_id == vendor_id)
    if direction is not None:
        stmt = stmt.where(Trunk.direction == direction.value)
    if status is not None:
        stmt = stmt.where(Trunk.status == status.value)
    stmt = stmt.order_by(Trunk.failover_order, Trunk.name)
    page = page_of(session, stmt, pg, lambda row: TrunkOut.of(row, None))
    statuses = _endpoint_statuses([t.id for t in page["data"]])
    for trunk in page["data"]:
        trunk.endpoint_status = statuses[trunk.id]
    return ok(page)


@router.get(
    "/out",
    response_model=Envelope[list[TrunkBrief]],
    summary="Active outbound trunks, for target pickers (customers too: id, name, direction, status only)",
)
def outbound(principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    return ok(_active(session, TrunkDirection.OUTBOUND))


@router.get("/imb", response_model=Envelope[list[TrunkBrief]], summary="Active inbound trunks, for pickers")
def inbound(principal: AdminDep, session: SessionDep) -> dict:
    return ok(_active(session, TrunkDirection.INBOUND))


@router.post("/add", response_model=Envelope[TrunkOut], status_code=201, summary="Create a trunk")
def add(body: TrunkCreate, principal: AdminDep, session: SessionDep) -> dict:
    _check_name(session, body.name)
    _check_vendor(session, body.vendor_id)
    trunk = Trunk(
        **body.model_dump(mode="json", exclude={"secret", "codecs"}),
        codecs=",".join(body.codecs),
        secret=body.secret.get_secret_value() if body.secret else None,
    )
    _check_auth(trunk)
    session.add(trunk)
    session.commit()
    announce_trunk_change(trunk.id or 0)  # Asterisk gets it now, no restart
    return ok(_out(trunk), "Trunk created.")


@router.patch("/status/{id}", response_model=Envelope[TrunkOut], summary="Activate or deactivate a trunk")
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> dict:
    trunk = change_status(session, Trunk, id, body.status.value, principal, "Trunk")
    trunk.updated_at = datetime.now(UTC)
    session.commit()
    announce_trunk_change(id)
    return ok(_out(trunk), f"Trunk is now {body.status.value}.")


@router.put(
    "/{id}",
    response_model=Envelope[TrunkOut],
    summary="Update a trunk; `secret` left out keeps the stored one, `null` removes it",
)
def update(id: IdPath, body: TrunkUpdate, principal: AdminDep, session: SessionDep) -> dict:
    trunk = get_visible(session, Trunk, id, principal, "Trunk")
    changes = body.model_dump(mode="json", exclude_unset=True, exclude={"secret"})
    for field in _REQUIRED:
        if field in changes and changes[field] is None:
            raise field_error(field, f"{field} can't be empty.")
    if "name" in changes:
        _check_name(session, changes["name"], except_id=id)
    _check_vendor(session, changes.get("vendor_id"))
    turns_inbound = (
        changes.get("direction") == TrunkDirection.INBOUND and trunk.direction != changes["direction"]
    )
    if turns_inbound and _used_by_targets(session, id):
        raise field_error(
            "direction", "Targets dial through this trunk, so it must stay outbound.", status=409
        )
    if "codecs" in changes:
        changes["codecs"] = ",".join(changes["codecs"])
    for field, value in changes.items():
        setattr(trunk, field, value)
    if "secret" in body.model_fields_set:
        trunk.secret = body.secret.get_secret_value() if body.secret else None
    _check_auth(trunk)
    trunk.updated_at = datetime.now(UTC)
    session.add(trunk)
    session.commit()
    announce_trunk_change(id)
    return ok(_out(trunk), "Trunk saved.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a trunk; refused (409) while targets use it or calls went through it",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> dict:
    trunk = get_visible(session, Trunk, id, principal, "Trunk")
    if _used_by_targets(session, id):
        raise ApiError(409, "Targets still dial through this trunk; move them to another trunk first.")
    if session.scalar(select(exists().where(Call.trunk_id == id))):
        raise ApiError(409, "Calls went through this trunk, so it can't be deleted; deactivate it instead.")
    session.delete(trunk)
    session.commit()
    announce_trunk_change(id)
    return ok(None, "Trunk deleted.")
