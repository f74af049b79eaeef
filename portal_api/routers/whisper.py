"""A campaign's whisper: the message its targets hear when they answer, before they are connected."""

from fastapi import APIRouter
from fastapi.responses import Response

from core.calls.whisper import MAX_MS, MAX_UPLOAD_BYTES
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, SessionDep, SoundFile
from portal_api.envelope import Envelope, ok
from portal_api.schemas.common import sound_upload
from portal_api.schemas.whisper import WhisperEdit, WhisperOut
from portal_api.services import whisper

router = APIRouter(prefix="/campaign/whisper", tags=["campaigns"])


@router.get("/{id:int}", summary="Campaign `id`'s whisper")
def show(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[WhisperOut]:
    return ok(whisper.out(whisper.visible(session, principal, id)))


@router.put(
    "/{id:int}",
    summary="Turn the whisper off, or make it typed text (spoken now, by espeak-ng)",
)
def edit(
    id: IdPath, body: WhisperEdit, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[WhisperOut]:
    return ok(whisper.out(whisper.edit(session, principal, id, body)), "Whisper saved.")


@router.post(
    "/{id:int}/recording",
    summary="Make the whisper an uploaded recording",
    **sound_upload(MAX_UPLOAD_BYTES, MAX_MS),
)
def upload(
    id: IdPath,
    principal: AdminOrCustomerDep,
    session: SessionDep,
    file: SoundFile,
) -> Envelope[WhisperOut]:
    return ok(whisper.out(whisper.upload(session, principal, id, file.file)), "Whisper recording saved.")


@router.get(
    "/{id:int}/audio",
    response_class=Response,
    responses={
        200: {
            "content": {"audio/wav": {"schema": {"type": "string", "format": "binary"}}},
            "description": "8 kHz mono WAV",
        }
    },
    summary="The audio campaign `id`'s targets hear (404 while the whisper is off)",
)
def audio(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Response:
    return whisper.audio(session, principal, id)
