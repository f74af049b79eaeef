"""A campaign's whisper set in the portal: typed text spoken when saved, or a recording uploaded,
checked and converted (core.calls.whisper); the audio served back for a preview."""

from typing import BinaryIO

from fastapi.responses import Response
from sqlmodel import Session

from core.calls.whisper import (
    MAX_UPLOAD_BYTES,
    Sound,
    SpeechUnavailable,
    WhisperAudioError,
    apply,
    convert,
    speak,
)
from core.models import Campaign, WhisperAudio
from core.values.enums import WhisperMode
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.schemas.whisper import WhisperEdit, WhisperOut
from portal_api.services.common import touch
from portal_api.services.tenancy import get_visible


def visible(session: Session, principal: Principal, campaign_id: int) -> Campaign:
    return get_visible(session, Campaign, campaign_id, principal, "Campaign")


def out(campaign: Campaign) -> WhisperOut:
    assert campaign.id is not None
    playing = campaign.whisper_mode != WhisperMode.OFF and campaign.whisper_sound is not None
    return WhisperOut(
        campaign_id=campaign.id,
        mode=WhisperMode(campaign.whisper_mode),
        text=campaign.whisper_text,
        seconds=campaign.whisper_ms / 1000 if playing and campaign.whisper_ms is not None else None,
        audio_url=f"/api/campaign/whisper/{campaign.id}/audio" if playing else None,
    )


def edit(session: Session, principal: Principal, campaign_id: int, body: WhisperEdit) -> Campaign:
    """Off, or the text spoken now: a text that can't be spoken is refused and nothing changes."""
    campaign = visible(session, principal, campaign_id)
    if body.mode == "off":
        return _save(session, campaign, WhisperMode.OFF, None, None)
    assert body.text is not None  # the schema requires it with mode text
    try:
        sound = speak(body.text)
    except WhisperAudioError as exc:
        raise DomainError(ErrorId.WHISPER_AUDIO, str(exc), "text") from None
    except SpeechUnavailable:  # the server lacks a package: say so, not 500
        message = "Text can't be spoken on this server now; upload a recording instead."
        raise DomainError(ErrorId.WHISPER_SPEECH_AWAY, message) from None
    return _save(session, campaign, WhisperMode.TEXT, sound, body.text)


def upload(session: Session, principal: Principal, campaign_id: int, file: BinaryIO) -> Campaign:
    """An uploaded recording, checked (a PCM WAV, its size and length) and converted for Asterisk."""
    campaign = visible(session, principal, campaign_id)
    data = file.read(MAX_UPLOAD_BYTES + 1)
    try:
        sound = convert(data)
    except WhisperAudioError as exc:
        raise DomainError(ErrorId.WHISPER_AUDIO, str(exc), "file") from None
    return _save(session, campaign, WhisperMode.RECORDING, sound, None)


def audio(session: Session, principal: Principal, campaign_id: int) -> Response:
    """The audio the campaign's targets hear (404 when the whisper is off)."""
    campaign = visible(session, principal, campaign_id)
    stored = session.get(WhisperAudio, campaign.whisper_sound) if campaign.whisper_sound else None
    if stored is None or campaign.whisper_mode == WhisperMode.OFF:
        raise DomainError(ErrorId.WHISPER_NONE, "This campaign has no whisper.")
    name = f"whisper-{campaign.id}.wav"
    return Response(
        stored.audio, media_type="audio/wav", headers={"Content-Disposition": f'inline; filename="{name}"'}
    )


def _save(
    session: Session, campaign: Campaign, mode: WhisperMode, sound: Sound | None, text: str | None
) -> Campaign:
    apply(session, campaign, mode, sound, text)
    touch(campaign)
    session.commit()
    return campaign
