"""Targets (spec §7 Targets): where a buyer takes calls."""

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import select

from core.enums import Status, TrunkDirection
from core.models import Buyer, Campaign, CampaignTarget, Target, Trunk
from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.call_names import named_page
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import field_error
from portal_api.schemas.common import StatusIn
from portal_api.schemas.targets import (
    AssignedTarget,
    CampaignRef,
    TargetIn,
    TargetOut,
    TargetRow,
    TargetUpdate,
)
from portal_api.services.common import change_status, owned, text_filter
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/target", tags=["targets"])


def _check_trunk(session: SessionDep, trunk_id: int | None) -> None:
    if trunk_id is None:
        return
    trunk = session.get(Trunk, trunk_id)
    if trunk is None:
        raise field_error("trunk_id", f"Trunk {trunk_id} does not exist.")
    if trunk.direction != TrunkDirection.OUTBOUND:
        raise field_error(
            "trunk_id", f"Trunk {trunk.name} is inbound; targets are dialled through outbound trunks."
        )


@router.get(
    "/details",
    response_model=Envelope[PageData[TargetRow]],
    summary="Targets, paginated, with their buyer's and trunk's names (a buyer sees its own)",
)
def details(
    principal: PrincipalDep,
    session: SessionDep,
    pg: PageDep,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    buyer_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> dict:
    stmt = scoped(select(Target), Target, principal, user_id)
    stmt = text_filter(stmt, pg.params, Target.name, Target.destination)
    if buyer_id is not None:
        stmt = stmt.where(Target.buyer_id == buyer_id)
    return ok(named_page(session, stmt.order_by(Target.id.desc()), pg, TargetRow))  # type: ignore[union-attr]


@router.post(
    "/add", response_model=Envelope[TargetOut], status_code=201, summary="Create a target for a buyer"
)
def add(body: TargetIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    buyer = session.get(Buyer, body.buyer_id)
    if buyer is None or (not principal.is_admin and buyer.user_id != principal.owner_id):
        raise field_error("buyer_id", f"Buyer {body.buyer_id} does not exist.")
    _check_trunk(session, body.trunk_id)
    target = Target(**body.model_dump(), user_id=buyer.user_id)
    session.add(target)
    session.commit()
    return ok(TargetOut.model_validate(target), "Target created.")


@router.put("/{id}", response_model=Envelope[TargetOut], summary="Update a target")
def update(id: IdPath, body: TargetUpdate, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    target = get_visible(session, Target, id, principal, "Target")
    changes = body.model_dump(exclude_unset=True)
    for field in ("name", "destination", "timezone", "schedule", "payout"):
        if field in changes and changes[field] is None:
            raise field_error(field, f"{field} can't be empty.")
    _check_trunk(session, changes.get("trunk_id"))
    for field, value in changes.items():
        setattr(target, field, value)
    target.updated_at = datetime.now(UTC)
    session.add(target)
    session.commit()
    return ok(TargetOut.model_validate(target), "Target saved.")


@router.patch("/status/{id}", response_model=Envelope[TargetOut], summary="Activate or deactivate")
def status(id: IdPath, body: StatusIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    target = change_status(session, Target, id, body.status.value, principal, "Target")
    session.commit()
    return ok(TargetOut.model_validate(target), f"Target is now {body.status.value}.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a target without calls (with calls: 409, deactivate it)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    session.delete(get_visible(session, Target, id, principal, "Target"))
    session.commit()
    return ok(None, "Target deleted.")


@router.post(
    "/getTargetsForCampaign",
    response_model=Envelope[list[TargetOut]],
    summary="Active targets of the campaign's customer not yet assigned to it",
)
def assignable(body: CampaignRef, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = get_visible(session, Campaign, body.campaign_id, principal, "Campaign")
    linked = select(CampaignTarget.target_id).where(CampaignTarget.campaign_id == campaign.id)
    stmt = (
        select(Target)
        .where(Target.user_id == campaign.user_id, Target.status == Status.ACTIVE)
        .where(Target.id.not_in(linked))  # type: ignore[union-attr]
        .order_by(Target.name)
    )
    return ok([TargetOut.model_validate(t) for t in session.scalars(stmt)])


@router.get(
    "/getAssignedTargetsForCampaign",
    response_model=Envelope[list[AssignedTarget]],
    summary="Targets assigned to a campaign, in dialling order",
)
def assigned(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    campaign_id: Annotated[int, Query(ge=1, le=MAX_ID)],
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> dict:
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    if user_id is not None:
        owned(session, Campaign, campaign_id, user_id, "campaign_id", "Campaign")
    rows = session.execute(
        select(CampaignTarget, Target)
        .join(Target, Target.id == CampaignTarget.target_id)  # type: ignore[arg-type]
        .where(CampaignTarget.campaign_id == campaign.id)
        .order_by(CampaignTarget.priority, CampaignTarget.weight.desc(), Target.name)  # type: ignore[attr-defined]
    )
    return ok(
        [
            AssignedTarget(
                target_id=t.id or 0,
                name=t.name,
                destination=t.destination,
                buyer_id=t.buyer_id,
                target_status=Status(t.status),
                priority=link.priority,
                weight=link.weight,
                link_status=Status(link.status),
            )
            for link, t in rows
        ]
    )
