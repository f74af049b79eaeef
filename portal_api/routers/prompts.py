"""A campaign's IVR prompts: the ones it may play, and a prompt uploaded for its owner."""

from typing import Annotated

from fastapi import APIRouter, File, UploadFile

from core.calls.prompts import PROMPT
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.common import upload_part
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
    description="A WAV file (PCM, 8 or 16-bit, mono or stereo, 8 to 48 kHz) or an MP3 file, "
    f"at most {PROMPT.max_bytes} bytes and {PROMPT.max_ms // 1000} s; converted to 8 kHz mono for the "
    "phone line.",
    openapi_extra=upload_part("audio/wav"),
)
def upload(
    id: IdPath,
    principal: AdminOrCustomerDep,
    session: SessionDep,
    file: Annotated[UploadFile, File(description="WAV or MP3 file")],
) -> Envelope[PromptOption]:
    return ok(prompts.upload(session, principal, id, file.filename, file.file), "Prompt uploaded.")
