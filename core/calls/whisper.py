"""A campaign's whisper as audio Asterisk plays: typed text spoken by espeak-ng, or an uploaded WAV
checked and converted, both to 8 kHz mono 16-bit WAV (Asterisk's `wav` format, played without
transcoding to a G.711 leg). Done once, when the campaign is saved; the call only plays the file."""

import hashlib
import io
import shutil
import subprocess
import sys
import tempfile
import wave
from array import array
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session, col, select

from core.calls.record import Entry, Result, Step, entry
from core.infra.settings import get_settings
from core.models import Campaign, WhisperAudio
from core.values.enums import WhisperMode

RATE = 8000  # Asterisk's `wav`: 8 kHz, mono, signed 16-bit little-endian
MAX_TEXT = 200  # characters: a whisper is a few words, said before the target is connected
MAX_UPLOAD_BYTES = 2_000_000  # an uploaded recording's file
MIN_MS, MAX_MS = 300, 15_000  # a whisper long enough to hear, short enough not to hold the caller
_ESPEAK_TIMEOUT = 20  # seconds: 200 characters take well under one
_ESPEAK = "espeak-ng"
_ESPEAK_IN_CHROOT = Path("usr/bin/espeak-ng")


class WhisperAudioError(ValueError):
    """The text or file can't be a whisper: the message says why, for the user."""


class SpeechUnavailable(RuntimeError):
    """No espeak-ng to speak with, here or in the Asterisk chroot."""


@dataclass(frozen=True)
class Limits:
    """What a kind of sound may be: its name in messages, its length and its upload's size."""

    noun: str
    min_ms: int
    max_ms: int
    max_bytes: int


WHISPER = Limits("A whisper", MIN_MS, MAX_MS, MAX_UPLOAD_BYTES)


@dataclass(frozen=True)
class Sound:
    """A whisper's audio as stored and played: the WAV's bytes, their SHA-256 (the file's name in
    Asterisk's sounds) and its length."""

    audio: bytes
    sha256: str
    ms: int

    @classmethod
    def of(cls, samples: bytes, limits: Limits = WHISPER) -> "Sound":
        out = io.BytesIO()
        with wave.open(out, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(RATE)
            wav.writeframes(samples)
        audio = out.getvalue()
        ms = len(samples) // 2 * 1000 // RATE
        if not limits.min_ms <= ms <= limits.max_ms:
            raise WhisperAudioError(
                f"{limits.noun} must last {limits.min_ms / 1000:g} to {limits.max_ms / 1000:g} s;"
                f" this one lasts {ms / 1000:.1f} s."
            )
        return cls(audio, hashlib.sha256(audio).hexdigest(), ms)


def speak(text: str) -> Sound:
    """`text` spoken (US English) as a whisper. espeak-ng is Debian's: the host's, else the one in
    the Asterisk chroot (asterisk_config installs it there), run through `chroot`."""
    words = " ".join(text.split())
    if not words:
        raise WhisperAudioError("The whisper's text is empty.")
    if len(words) > MAX_TEXT:
        raise WhisperAudioError(f"The whisper's text is {len(words)} characters; at most {MAX_TEXT}.")
    with tempfile.TemporaryDirectory(prefix="whisper-") as folder:
        out = Path(folder) / "spoken.wav"
        # The text goes in on stdin, never as an argument: nothing in it is read as an option.
        subprocess.run(
            [*_espeak(), "-v", "en-us", "-s", "150", "--stdin", "--stdout"],
            input=words.encode(),
            stdout=out.open("wb"),
            stderr=subprocess.PIPE,
            timeout=_ESPEAK_TIMEOUT,
            check=True,
        )
        return convert(out.read_bytes())


def _espeak() -> list[str]:
    if found := shutil.which(_ESPEAK):
        return [found]
    chroot = get_settings().asterisk_chroot
    if (chroot / _ESPEAK_IN_CHROOT).exists() and shutil.which("chroot"):
        return ["chroot", str(chroot), f"/{_ESPEAK_IN_CHROOT}"]
    raise SpeechUnavailable("espeak-ng (Debian package espeak-ng) is neither here nor in the Asterisk chroot")


def convert(data: bytes, limits: Limits = WHISPER) -> Sound:
    """An uploaded (or spoken) WAV or MP3 as 8 kHz mono audio Asterisk plays: PCM 8 or 16-bit, mono
    or stereo, any rate, within `limits`; anything else is refused with why."""
    if len(data) > limits.max_bytes:
        raise WhisperAudioError(f"The recording is {len(data)} bytes; at most {limits.max_bytes}.")
    if _is_mp3(data):
        return Sound.of(_decoded_mp3(data), limits)
    try:
        with wave.open(io.BytesIO(data), "rb") as wav:
            channels, width, rate = wav.getnchannels(), wav.getsampwidth(), wav.getframerate()
            # Read to the end, not to the header's count: a streamed WAV's header holds no length.
            frames = wav.readframes(2**31 - 1)
    except (wave.Error, EOFError) as exc:
        raise WhisperAudioError(f"The recording is not a PCM WAV file: {_received(data, exc)}.") from None
    if width not in (1, 2) or channels not in (1, 2) or not 8000 <= rate <= 48000:
        raise WhisperAudioError(
            "The recording must be 8 or 16-bit PCM, mono or stereo, sampled at 8 to 48 kHz;"
            f" this one is {width * 8}-bit, {channels} channel(s), {rate} Hz."
        )
    if len(frames) / (channels * width * rate) > limits.max_ms / 1000 + 1:  # refused before any work
        raise WhisperAudioError(f"{limits.noun} must last at most {limits.max_ms / 1000:g} s.")
    return Sound.of(_resample(_mono16(frames, width, channels), rate), limits)


_MAGIC = {b"OggS": "an Ogg", b"fLaC": "a FLAC", b"%PDF": "a PDF"}
_MPG123 = "mpg123"  # Debian's MP3 decoder (package mpg123), on the portal's machine
_DECODE_TIMEOUT = 30  # seconds: a 30 s prompt decodes in well under one


def _is_mp3(data: bytes) -> bool:
    """An ID3 tag, or an MPEG audio frame's sync (11 bits set) with layer III."""
    return data.startswith(b"ID3") or (len(data) > 1 and data[0] == 0xFF and data[1] & 0xE6 == 0xE2)


def _decoded_mp3(data: bytes) -> bytes:
    """An MP3's samples at 8 kHz, mono, 16-bit little-endian (mpg123 resamples it, reading stdin:
    nothing uploaded is ever a file name)."""
    mpg123 = shutil.which(_MPG123)
    if mpg123 is None:
        raise WhisperAudioError("MP3 files can't be read here (mpg123 is not installed): upload a WAV file.")
    argv = [mpg123, "--quiet", "--stdout", "--mono", "--rate", str(RATE), "--encoding", "s16", "-"]
    try:
        decoded = subprocess.run(argv, input=data, capture_output=True, timeout=_DECODE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise WhisperAudioError("The MP3 file took too long to decode.") from None
    if decoded.returncode != 0 or not decoded.stdout:
        raise WhisperAudioError("The recording looks like an MP3 file but could not be decoded.")
    samples = array("h", decoded.stdout[: len(decoded.stdout) // 2 * 2])  # native order
    if sys.byteorder == "big":  # WAV is little-endian
        samples.byteswap()
    return samples.tobytes()


def _received(data: bytes, exc: Exception) -> str:
    """What the upload was instead, in words (EOFError says nothing of its own)."""
    if not data:
        return "the file is empty"
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return f"a WAV file that is cut short or not PCM ({str(exc) or 'its header ends early'})"
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            return f"this is {kind} file"
    return f"{len(data)} bytes starting with {data[:12]!r}" + (f" ({exc})" if str(exc) else "")


def _mono16(frames: bytes, width: int, channels: int) -> list[int]:
    """Signed 16-bit samples, channels averaged (8-bit WAV is unsigned)."""
    if width == 1:
        samples = [(b - 128) << 8 for b in frames]
    else:
        wide = array("h", frames[: len(frames) // 2 * 2])
        if sys.byteorder == "big":
            wide.byteswap()
        samples = wide.tolist()
    if channels == 2:
        samples = [(a + b) // 2 for a, b in zip(samples[::2], samples[1::2], strict=False)]
    return samples


def _resample(samples: list[int], rate: int) -> bytes:
    """To 8 kHz: each output sample the mean of the input samples it covers (a box low-pass, enough
    for speech on a phone line), or the nearest one when upsampling."""
    if rate == RATE:
        out = samples
    else:
        step = rate / RATE
        count = int(len(samples) / step)
        out = []
        for n in range(count):
            start, end = int(n * step), max(int(n * step) + 1, int((n + 1) * step))
            window = samples[start:end]
            out.append(sum(window) // len(window))
    packed = array("h", out)
    if sys.byteorder == "big":  # WAV is little-endian
        packed.byteswap()
    return packed.tobytes()


@dataclass(frozen=True)
class Whisper:
    """A campaign's whisper as routing hands it to the bridge: the audio's hash and its length."""

    sound: str
    ms: int

    @classmethod
    def of(cls, campaign: Campaign) -> "Whisper | None":
        if campaign.whisper_mode == WhisperMode.OFF or not campaign.whisper_sound:
            return None
        return cls(campaign.whisper_sound, campaign.whisper_ms or 0)

    def planned(self, now: datetime) -> Entry:
        """The trail entry a dry run shows: what the target will hear, and what it costs."""
        reason = (
            f"the target hears the whisper ({self.ms / 1000:.1f} s) before it is connected;"
            " talk time starts once they are"
        )
        return entry(Step.WHISPER, Result.PASSED, reason, now, sound=self.sound, ms=self.ms)


def apply(
    session: Session, campaign: Campaign, mode: WhisperMode, sound: Sound | None, text: str | None
) -> None:
    """Give `campaign` this whisper (in the session's transaction): its audio stored once by hash,
    audio no campaign plays any longer deleted. Off keeps the text, so turning it on again is easy."""
    if sound is not None:
        stmt = insert(WhisperAudio).values(sha256=sound.sha256, audio=sound.audio)
        session.execute(stmt.on_conflict_do_nothing(index_elements=["sha256"]))
    campaign.whisper_mode = mode.value
    campaign.whisper_text = text if text is not None else campaign.whisper_text
    campaign.whisper_sound = sound.sha256 if sound is not None else None
    campaign.whisper_ms = sound.ms if sound is not None else None
    session.add(campaign)
    session.flush()
    played = select(Campaign.whisper_sound).where(col(Campaign.whisper_sound).is_not(None))
    session.execute(delete(WhisperAudio).where(col(WhisperAudio.sha256).not_in(played)))
