"""Whispers on the bridge's side: the audio put where its Asterisk plays it from, the dialplan told
to play it to the target, and the trail told it was heard.

The audio is in PostgreSQL (core.models.WhisperAudio), rendered when the campaign was saved; each
bridge writes a file into its own Asterisk's sounds the first time one of its calls needs it, named
by the audio's hash, so several nodes, a new Asterisk or a changed whisper need no other step.
Uploaded IVR prompts (core.models.PromptAudio) reach Asterisk the same way, into the same folder.
"""

import asyncio
import logging
import os
from datetime import datetime
from pathlib import Path

from sqlmodel import Session, select

from core.calls.record import CallState, Result, Step
from core.calls.whisper import Whisper
from core.infra import names
from core.infra.db import session_scope
from core.infra.settings import get_settings
from core.models import PromptAudio, WhisperAudio

log = logging.getLogger(__name__)


class WhisperFiles:
    """The whisper files in the folder Asterisk plays them from (`folder`: as this process sees it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.present: set[str] = set()  # written or seen: never read from PostgreSQL again
        # One write at a time: two calls needing a new sound at once would share the part file's
        # name (it is per process), and the second rename would find it gone.
        self._writing = asyncio.Lock()

    @classmethod
    def from_settings(cls) -> "WhisperFiles":
        settings = get_settings()
        inside = settings.asterisk_chroot / names.WHISPER_SOUNDS.lstrip("/")
        return cls(settings.whisper_dir or inside)

    async def ensure(self, sound: str) -> str | None:
        """What Asterisk plays for `sound` (its path, without extension, as Asterisk sees it), once
        the file is there; None when it can't be (the call goes on without a whisper)."""
        if sound not in self.present:
            async with self._writing:
                if sound not in self.present:
                    try:
                        await asyncio.to_thread(self._write, sound)
                    except Exception:
                        log.exception("could not put whisper %s where Asterisk plays it", sound)
                        return None
                    self.present.add(sound)
        return f"{names.WHISPER_SOUNDS}/{sound}"

    def _write(self, sound: str) -> None:
        path = self.folder / f"{sound}.wav"
        if path.exists():  # another call, bridge or node wrote it: the name is its content
            return
        with session_scope() as session:
            audio = _audio(session, sound)
        if audio is None:
            raise LookupError(f"no whisper or prompt audio {sound}")
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")  # Asterisk never sees half a file
        partial.write_bytes(audio)
        partial.chmod(0o644)
        partial.replace(path)


def _audio(session: Session, sound: str) -> bytes | None:
    """The audio named `sound`: a whisper's, or an uploaded prompt's (the same for every owner)."""
    whisper = session.get(WhisperAudio, sound)
    if whisper is not None:
        return whisper.audio
    return session.exec(select(PromptAudio.audio).where(PromptAudio.sha256 == sound).limit(1)).first()


def whisper_variables(played: str | None) -> dict[str, str]:
    """The dialplan's variable for a whisper to play: Dial's own announcement option, A(), which plays
    it to the target as it answers (the caller, not answered until after it, keeps ringing) and only
    then runs the answer routine and bridges: the answer event's time stays the bridge's, as for a
    call without a whisper, with no dialplan step added to any call."""
    return {"CR_WHISPER": f"A({played})"} if played else {}


def heard(call: CallState, whisper: Whisper, now: datetime) -> None:
    """The target heard the whisper: Asterisk raised the answer only after playing it."""
    seconds = f"{whisper.ms / 1000:.1f} s"
    reason = f"the target heard the whisper ({seconds}) before it was connected; talk time starts after it"
    call.note(Step.WHISPER, Result.PASSED, reason, now, sound=whisper.sound, ms=whisper.ms)


def skipped(call: CallState, whisper: Whisper, now: datetime) -> None:
    reason = "the whisper's audio could not be put where Asterisk plays it; connected without it"
    call.note(Step.WHISPER, Result.FAILED, reason, now, sound=whisper.sound)
