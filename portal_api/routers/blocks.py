"""Blocked callers (spec §7 Blocks): global entries by an admin, or a customer's own."""

from fastapi import APIRouter

from core.models import BlockEntry
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.blocks import BlockedCallers, BlockFromCalls, BlockIn, BlockOut, BlockUpdate
from portal_api.schemas.common import StatusIn
from portal_api.services import blocks, common
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/block", tags=["blocks"])


@router.get(
    "/details",
    summary="Block entries: a customer sees its own and the global ones",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
) -> Envelope[PageData[BlockOut]]:
    return ok(blocks.page(session, principal, pg, user_id))


@router.post("/add", status_code=201, summary="Block a caller or prefix")
def add(body: BlockIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[BlockOut]:
    return ok(BlockOut.model_validate(blocks.create(session, principal, body)), "Caller blocked.")


@router.put("/{id:int}", summary="Update a block entry")
def update(
    id: IdPath, body: BlockUpdate, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[BlockOut]:
    return ok(BlockOut.model_validate(blocks.update(session, principal, id, body)), "Block entry saved.")


@router.patch("/status/{id:int}", summary="Activate or deactivate")
def status(
    id: IdPath, body: StatusIn, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[BlockOut]:
    entry = common.set_status(session, BlockEntry, id, body.status.value, principal, "Block entry")
    return ok(BlockOut.model_validate(entry), f"Block entry is now {body.status.value}.")


@router.delete("/{id:int}", summary="Unblock")
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    blocks.delete(session, principal, id)
    return ok(None, "Block entry deleted.")


@router.post("/cdr", summary="Block the callers of the given calls")
def from_calls(
    body: BlockFromCalls, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[BlockedCallers]:
    result = blocks.block_callers(session, principal, body)
    return ok(result, f"{result.created} caller(s) blocked.")
