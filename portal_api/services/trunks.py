"""SIP trunks: their rules (unique names, digest needs credentials, targets dial outbound) and the
PBX bridge told of every change, so Asterisk picks it up without a restart."""

import logging
from typing import cast

import redis
from sqlalchemy import exists, select
from sqlmodel import Session

from core.infra import names
from core.infra.redis_client import get_redis
from core.models import Call, Target, Trunk, Vendor
from core.pbx.pbx_commands import announce_trunk_change
from core.values.enums import Status, TrunkAuth, TrunkDirection
from core.values.errors import DomainError, ErrorId, missing_row
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.trunks import TrunkBrief, TrunkCreate, TrunkOut, TrunkUpdate
from portal_api.services.common import (
    check_name_free,
    create_row,
    delete_row,
    page_of,
    set_status,
    text_filter,
    update_row,
)
from portal_api.services.tenancy import get_visible

log = logging.getLogger(__name__)

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
    """What the PBX bridge last reported per trunk (Redis `names.trunk_status_key`), or why Asterisk
    did not take it (`names.trunk_failure_key`); None when unknown."""
    if not ids:
        return {}
    keys = [names.trunk_status_key(i) for i in ids] + [names.trunk_failure_key(i) for i in ids]
    try:
        values = cast(list[str | None], get_redis().mget(keys))  # decoded
    except redis.RedisError:
        # A status display must not take the trunk screens down with it.
        log.warning("trunk endpoint status unavailable: Redis did not answer")
        values = [None] * len(keys)
    statuses, failures = values[: len(ids)], values[len(ids) :]
    return {
        i: f"Not loaded: {failure}" if failure else status
        for i, status, failure in zip(ids, statuses, failures, strict=True)
    }


def out(trunk: Trunk) -> TrunkOut:
    """The trunk as the API shows it, with the endpoint status the bridge last reported."""
    return TrunkOut.of(trunk, _endpoint_statuses([trunk.id or 0])[trunk.id or 0])


def _check_vendor(session: Session, vendor_id: int | None) -> None:
    if vendor_id is not None and session.get(Vendor, vendor_id) is None:
        raise missing_row("vendor_id", "Vendor", vendor_id)


def _check_auth(trunk: Trunk) -> None:
    if trunk.auth_type == TrunkAuth.DIGEST:
        if not trunk.username:
            raise DomainError(
                ErrorId.TRUNK_DIGEST_CREDENTIALS, "Digest authentication needs a username.", "username"
            )
        if not trunk.secret:
            raise DomainError(
                ErrorId.TRUNK_DIGEST_CREDENTIALS, "Digest authentication needs a secret.", "secret"
            )


def _used_by_targets(session: Session, trunk_id: int) -> bool:
    return bool(session.scalar(select(exists().where(Target.trunk_id == trunk_id))))


def page(
    session: Session,
    pg: PageParams,
    direction: TrunkDirection | None,
    status: Status | None,
    vendor_id: int | None,
) -> PageData[TrunkOut]:
    _check_vendor(session, vendor_id)
    stmt = text_filter(select(Trunk), pg.params, Trunk.name, Trunk.host, Trunk.username)
    if vendor_id is not None:
        stmt = stmt.where(Trunk.vendor_id == vendor_id)
    if direction is not None:
        stmt = stmt.where(Trunk.direction == direction.value)
    if status is not None:
        stmt = stmt.where(Trunk.status == status.value)
    stmt = stmt.order_by(Trunk.failover_order, Trunk.name)
    found = page_of(session, stmt, pg, lambda row: TrunkOut.of(row, None))
    statuses = _endpoint_statuses([t.id for t in found.data])
    for trunk in found.data:
        trunk.endpoint_status = statuses[trunk.id]
    return found


def active(session: Session, direction: TrunkDirection) -> list[TrunkBrief]:
    rows = session.scalars(
        select(Trunk).where(Trunk.direction == direction, Trunk.status == Status.ACTIVE).order_by(Trunk.name)
    )
    return [TrunkBrief.of(t) for t in rows]


def create(session: Session, body: TrunkCreate) -> Trunk:
    check_name_free(session, Trunk, "trunk", body.name)
    _check_vendor(session, body.vendor_id)
    trunk = Trunk(
        **body.model_dump(mode="json", exclude={"secret", "codecs"}),
        codecs=",".join(body.codecs),
        secret=body.secret.get_secret_value() if body.secret else None,
    )
    _check_auth(trunk)
    create_row(session, trunk)
    announce_trunk_change(trunk.id or 0)  # Asterisk gets it now, no restart
    return trunk


def change_status(session: Session, trunk_id: int, status: Status, principal: Principal) -> Trunk:
    trunk = set_status(session, Trunk, trunk_id, status.value, principal, "Trunk")
    announce_trunk_change(trunk_id)
    return trunk


def update(session: Session, trunk_id: int, body: TrunkUpdate, principal: Principal) -> Trunk:
    trunk = get_visible(session, Trunk, trunk_id, principal, "Trunk")
    changes = body.model_dump(mode="json", exclude_unset=True, exclude={"secret"})

    def check() -> None:
        if "name" in changes:
            check_name_free(session, Trunk, "trunk", changes["name"], except_id=trunk_id)
        _check_vendor(session, changes.get("vendor_id"))
        turns_inbound = (
            changes.get("direction") == TrunkDirection.INBOUND and trunk.direction != changes["direction"]
        )
        if turns_inbound and _used_by_targets(session, trunk_id):
            raise DomainError(
                ErrorId.ROW_CHANGE_LOCKED,
                "Targets dial through this trunk, so it must stay outbound.",
                "direction",
            )
        if "codecs" in changes:
            changes["codecs"] = ",".join(changes["codecs"])

    def complete(trunk: Trunk) -> None:
        if "secret" in body.model_fields_set:
            trunk.secret = body.secret.get_secret_value() if body.secret else None
        _check_auth(trunk)

    update_row(session, trunk, changes, required=_REQUIRED, check=check, complete=complete)
    announce_trunk_change(trunk_id)
    return trunk


def _unused(session: Session, trunk: Trunk) -> None:
    if _used_by_targets(session, trunk.id or 0):
        raise DomainError(
            ErrorId.ROW_IN_USE, "Targets still dial through this trunk; move them to another trunk first."
        )
    if session.scalar(select(exists().where(Call.trunk_id == trunk.id))):
        message = "Calls went through this trunk, so it can't be deleted; deactivate it instead."
        raise DomainError(ErrorId.ROW_IN_USE, message)


def delete(session: Session, trunk_id: int, principal: Principal) -> None:
    delete_row(session, Trunk, trunk_id, principal, "Trunk", check=lambda t: _unused(session, t))
    announce_trunk_change(trunk_id)
