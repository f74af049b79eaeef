"""A campaign's IVR prompt: chosen from Asterisk's core sounds or the owner's uploads, or uploaded
(a WAV checked and converted for Asterisk, core.calls.prompts), kept per customer."""

import re
from pathlib import PurePath
from typing import BinaryIO

from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session, select

from core.calls.prompts import CORE, PROMPT, uploaded, uploaded_sha
from core.calls.whisper import WhisperAudioError, convert
from core.models import Campaign, PromptAudio
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.schemas.prompts import PromptOption
from portal_api.services.tenancy import get_visible

_CORE_NAMES = {name for name, _ in CORE}
_UNNAMED = re.compile(r"[^\w .()-]+")


def options(session: Session, principal: Principal, campaign_id: int) -> list[PromptOption]:
    """The prompts campaign `campaign_id` may play: the core ones, then its owner's uploads by name."""
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    stmt = select(PromptAudio).where(PromptAudio.user_id == campaign.user_id).order_by(PromptAudio.name)
    core = [PromptOption(value=name, label=f"“{words}” ({name})", kind="core") for name, words in CORE]
    return core + [_option(row) for row in session.exec(stmt)]


def upload(
    session: Session, principal: Principal, campaign_id: int, filename: str | None, file: BinaryIO
) -> PromptOption:
    """A WAV as a prompt of the campaign's owner (the same audio twice is one prompt); the campaign
    does not play it until its IVR settings choose it."""
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    try:
        sound = convert(file.read(PROMPT.max_bytes + 1), PROMPT)
    except WhisperAudioError as exc:
        raise DomainError(ErrorId.PROMPT_AUDIO, str(exc), "file") from None
    name = _UNNAMED.sub("", PurePath(filename or "").stem).strip()[:80] or "Uploaded prompt"
    values = {"user_id": campaign.user_id, "name": name, "sha256": sound.sha256, "ms": sound.ms}
    stmt = insert(PromptAudio).values(**values, audio=sound.audio)
    session.execute(stmt.on_conflict_do_nothing(index_elements=["user_id", "sha256"]))
    session.commit()
    row = session.exec(
        select(PromptAudio).where(PromptAudio.user_id == campaign.user_id, PromptAudio.sha256 == sound.sha256)
    ).one()
    return _option(row)


def check(session: Session, campaign: Campaign, prompt: str | None) -> None:
    """`prompt` may be played by `campaign`: none (the platform's), unchanged, a listed core sound,
    or an upload of the campaign's owner; anything else would play silence to the caller."""
    if prompt is None or prompt == campaign.ivr_prompt or prompt in _CORE_NAMES:
        return
    sha = uploaded_sha(prompt)
    owned = select(PromptAudio.id).where(PromptAudio.user_id == campaign.user_id, PromptAudio.sha256 == sha)
    if sha is None or session.exec(owned).first() is None:
        message = (
            f"'{prompt}' is not a prompt this campaign can play: choose one from the list or upload one."
        )
        raise DomainError(ErrorId.PROMPT_UNKNOWN, message, "ivr_prompt")


def _option(row: PromptAudio) -> PromptOption:
    return PromptOption(value=uploaded(row.sha256), label=row.name, kind="upload", seconds=row.ms / 1000)
