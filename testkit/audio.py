"""Audio for tests: WAV files made on the spot (a tone), and G.711 µ-law decoded to tell speech from
silence in captured RTP."""

import io
import math
import wave

from core.calls.whisper import Sound, apply, speak
from core.infra.db import session_scope
from core.models import Campaign
from core.values.enums import WhisperMode


def wav(seconds: float = 1.0, rate: int = 16000, channels: int = 1, width: int = 2, hz: float = 440) -> bytes:
    """A WAV file holding a tone of `hz`, as a user's recording might be made."""
    frames = bytearray()
    peak = (1 << (8 * width - 1)) - 1
    for n in range(int(seconds * rate)):
        value = int(peak * 0.5 * math.sin(2 * math.pi * hz * n / rate))
        sample = (
            (value + 128).to_bytes(1, "little")
            if width == 1
            else value.to_bytes(width, "little", signed=True)
        )
        frames += sample * channels
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(width)
        file.setframerate(rate)
        file.writeframes(bytes(frames))
    return out.getvalue()


def ulaw_level(payload: bytes) -> float:
    """The mean absolute amplitude (0-32767) of G.711 µ-law samples: about 0 for silence."""
    if not payload:
        return 0.0
    return sum(abs(_ULAW[b]) for b in payload) / len(payload)


def _decode(byte: int) -> int:
    byte = ~byte & 0xFF
    magnitude = ((byte & 0x0F) << 3 | 0x84) << ((byte & 0x70) >> 4)
    return (0x84 - magnitude) if byte & 0x80 else (magnitude - 0x84)


_ULAW = [_decode(b) for b in range(256)]


def whisper(campaign_id: int, text: str = "Call from campaign Acme Roofing") -> Sound:
    """Give the campaign a spoken whisper, as saving it in the portal does; its audio."""
    sound = speak(text)
    with session_scope() as s:
        campaign = s.get(Campaign, campaign_id)
        assert campaign is not None
        apply(s, campaign, WhisperMode.TEXT, sound, text)
    return sound
