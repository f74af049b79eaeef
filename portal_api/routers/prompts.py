"""A campaign's IVR prompts: the ones it may play, and a prompt uploaded for its owner."""

from fastapi import APIRouter

from core.calls.prompts import PROMPT
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, SessionDep, SoundFile
from portal_api.envelope import Envelope, ok
from portal_api.schemas.common import sound_upload
from portal_api.schemas.prompts import PromptOption
from portal_api.services import prompts

router = APIRouter(prefix="/campaign/prompt", tags=["campaigns"])


@router.get(
    "/{id:int}",
    summary="The IVR prompts campaign `id` may play: Asterisk's core sounds, then its owner's uploads",
)
def options(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[PromptOption]]:
    return ok(prompts.options(session, principal, id))


@router.post(
    "/{id:int}",
    status_code=201,
    summary="Upload an IVR prompt for campaign `id`'s owner (choose it in the IVR settings to play it)",
    **sound_upload(PROMPT.max_bytes, PROMPT.max_ms),
)
def upload(
    id: IdPath,
    principal: AdminOrCustomerDep,
    session: SessionDep,
    file: SoundFile,
) -> Envelope[PromptOption]:
    return ok(prompts.upload(session, principal, id, file.filename, file.file), "Prompt uploaded.")
