"""Speech to words, behind one small interface: `transcribe(wav) -> [Word]`, each word with its start
and end (seconds from the file's start) and a confidence (0-1).

The default engine is pocketsphinx from PyPI, whose US English model ships inside the wheel
(`pocketsphinx/model/en-us`): nothing is downloaded at run time, and it is English only. Its model
is trained on 16 kHz speech, so a call leg (Asterisk records 8 kHz) is interpolated to 16 kHz first;
its Python binding gives no word posterior, so its words carry confidence 1.0.
TRANSCRIBE_ENGINE=faster-whisper selects a larger model the operator provides
(TRANSCRIBE_MODEL_DIR, a CTranslate2 model folder; many languages), when `faster-whisper` is
installed: it is not a dependency of the product.
"""

import importlib
import sys
import wave
from array import array
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from core.infra.settings import get_settings

PHONE_RATE, MODEL_RATE = 8000, 16000


@dataclass(frozen=True)
class Word:
    text: str
    start: float
    end: float
    confidence: float


class EngineUnavailable(RuntimeError):
    """The engine the settings select can't run here; the message says why and what to do."""


class Engine(Protocol):
    name: str

    def transcribe(self, wav: Path) -> list[Word]: ...


def pcm16k(wav: Path) -> bytes:
    """A 16-bit mono WAV (8 or 16 kHz, as Asterisk records a leg) as 16 kHz samples, native order."""
    with wave.open(str(wav), "rb") as audio:
        channels, width, rate = audio.getnchannels(), audio.getsampwidth(), audio.getframerate()
        frames = audio.readframes(2**31 - 1)  # to the end, not the header's count: it may be unfinished
    if (channels, width) != (1, 2) or rate not in (PHONE_RATE, MODEL_RATE):
        raise ValueError(
            f"{wav.name}: {channels} channel(s), {width * 8}-bit, {rate} Hz; expected mono 16-bit 8/16 kHz"
        )
    samples = array("h", frames[: len(frames) // 2 * 2])
    if sys.byteorder == "big":  # WAV is little-endian
        samples.byteswap()
    if rate == MODEL_RATE or not samples:
        return samples.tobytes()
    # Twice the rate: each sample, then the mean of it and the next (linear interpolation).
    following = samples[1:] + samples[-1:]
    out = array("h", bytes(4 * len(samples)))
    out[0::2] = samples
    out[1::2] = array("h", ((a + b) >> 1 for a, b in zip(samples, following, strict=True)))
    return out.tobytes()


# pocketsphinx's fillers (silence, noise, sentence marks) are not words anyone said.
_FILLER = ("<", "[")


class Pocketsphinx:
    name = "pocketsphinx"

    def __init__(self) -> None:
        try:
            self._module: Any = importlib.import_module("pocketsphinx")
        except ImportError as exc:
            raise EngineUnavailable(f"pocketsphinx is not installed ({exc}): run `make install`") from None
        self._decoder: Any = self._module.Decoder(samprate=MODEL_RATE, loglevel="FATAL")

    def transcribe(self, wav: Path) -> list[Word]:
        decoder = self._decoder
        decoder.start_utt()
        decoder.process_raw(pcm16k(wav), full_utt=True)  # the whole leg: its mean (CMN) is the batch's
        decoder.end_utt()
        frames = float(decoder.config["frate"])
        return [
            Word(
                seg.word.split("(")[0],  # `to(3)`: the dictionary's third pronunciation of `to`
                round(seg.start_frame / frames, 2),
                round((seg.end_frame + 1) / frames, 2),
                round(min(1.0, decoder.logmath.exp(seg.prob)), 3),
            )
            for seg in decoder.seg()
            if not seg.word.startswith(_FILLER)
        ]


class FasterWhisper:
    name = "faster-whisper"

    def __init__(self, model_dir: Path | None, device: str) -> None:
        if model_dir is None or not model_dir.is_dir():
            raise EngineUnavailable(
                "TRANSCRIBE_ENGINE=faster-whisper needs TRANSCRIBE_MODEL_DIR, the model's folder"
                f" ({model_dir} is none)"
            )
        try:
            module: Any = importlib.import_module("faster_whisper")
        except ImportError:
            raise EngineUnavailable(
                "TRANSCRIBE_ENGINE=faster-whisper: the package is not installed; "
                "`pip install faster-whisper` beside the worker, or unset TRANSCRIBE_ENGINE"
            ) from None
        self._model: Any = module.WhisperModel(str(model_dir), device=device)

    def transcribe(self, wav: Path) -> list[Word]:
        segments, _ = self._model.transcribe(str(wav), word_timestamps=True)
        return [
            Word(w.word.strip(), round(w.start, 2), round(w.end, 2), round(w.probability, 3))
            for segment in segments
            for w in segment.words or []
            if w.word.strip()
        ]


@lru_cache
def engine() -> Engine:
    """The engine the settings select, loaded once per process (a model takes a while to load)."""
    s = get_settings()
    if s.transcribe_engine == "faster-whisper":
        return FasterWhisper(s.transcribe_model_dir, s.transcribe_device)
    return Pocketsphinx()
