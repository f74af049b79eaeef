"""Speech to words, behind one small interface: `transcribe(wav) -> [Word]`, each word with its start
and end (seconds from the file's start) and a confidence (0-1).

The default engine is pocketsphinx from PyPI, whose US English model ships inside the wheel
(`pocketsphinx/model/en-us`): nothing is downloaded at run time, and it is English only. Its model
is trained on 16 kHz speech, so a call leg (Asterisk records 8 kHz) is interpolated to 16 kHz first;
its Python binding gives no word posterior, so its words carry confidence 1.0.

The campaign's rule phrases are given too: pocketsphinx's 1-best transcript misses many of them, so
a second, cheap pass spots them (keyphrase search, a threshold per phrase by its length) and each
phrase spotted takes the place of the words heard over it (docs/conversation.md, "Accuracy").
TRANSCRIBE_ENGINE=faster-whisper selects a larger model the operator provides
(TRANSCRIBE_MODEL_DIR, a CTranslate2 model folder; many languages), when `faster-whisper` is
installed: it is not a dependency of the product.
"""

import bisect
import importlib
import itertools
import re
import sys
import tempfile
import wave
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
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


# A rule's phrase as core.conversation.rules.parse gives it: its words, each the alternatives it may
# be (a pattern ending in `*` is a prefix).
Phrase = Sequence[tuple[str, ...]]


class EngineUnavailable(RuntimeError):
    """The engine the settings select can't run here; the message says why and what to do."""


class Engine(Protocol):
    name: str

    def transcribe(self, wav: Path, phrases: Sequence[Phrase] = ()) -> list[Word]:
        """The words said in `wav`, listening for `phrases` (the rules' phrases) in particular."""
        ...


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


_ALTERNATE = re.compile(r"\(\d+\)")  # `to(3)`, `the(2) wrong`: a pronunciation's mark

# pocketsphinx's fillers (silence, noise, sentence marks) are not words anyone said.
_FILLER = ("<", "[")


# Keyphrase search reports a phrase when its score beats the background (any phone) by a factor;
# a longer phrase is harder to hear by chance, so its factor is smaller: 10^-SHORTEST for a phrase
# of the fewest phones listened for, PER_PHONE more orders of magnitude for each phone beyond.
# Chosen by bench/transcribe.py on its tuning sentences alone (docs/conversation.md); a
# phrase of 2 phones or fewer is left to the transcript alone.
_FEWEST_PHONES = 3
_SHORTEST, _PER_PHONE = 4.0, 2.0
_PREFIX_WORDS = 8  # a prefix (`book*`) listens for its shortest words in the dictionary
_SPOTTED_PHRASES = 200  # per leg: the spotting pass stays a small part of the transcription's time


class Pocketsphinx:
    name = "pocketsphinx"

    def __init__(self, shortest: float = _SHORTEST, per_phone: float = _PER_PHONE) -> None:
        try:
            self._module: Any = importlib.import_module("pocketsphinx")
        except ImportError as exc:
            raise EngineUnavailable(f"pocketsphinx is not installed ({exc}): run `make install`") from None
        self._decoder: Any = self._module.Decoder(samprate=MODEL_RATE, loglevel="FATAL")
        self.shortest, self.per_phone = shortest, per_phone  # the thresholds' rule (above)

    def transcribe(self, wav: Path, phrases: Sequence[Phrase] = ()) -> list[Word]:
        pcm = pcm16k(wav)
        return merged(self.heard(pcm), self.spotted(pcm, phrases))

    def heard(self, pcm: bytes) -> list[Word]:
        """The 1-best transcript of 16 kHz samples."""
        return self._decode(pcm)

    def spotted(self, pcm: bytes, phrases: Sequence[Phrase]) -> list[Word]:
        """The phrases heard in 16 kHz samples by keyphrase search, each one Word over its time."""
        keyphrases = self._keyphrases(phrases)
        if not keyphrases:
            return []
        with tempfile.NamedTemporaryFile("w", suffix=".kws") as keyfile:
            keyfile.write("".join(f"{text} /{threshold:.0e}/\n" for text, threshold in keyphrases.items()))
            keyfile.flush()
            self._decoder.add_kws("spot", keyfile.name)
        self._decoder.activate_search("spot")
        try:
            return self._decode(pcm)
        finally:
            self._decoder.activate_search()  # the transcript's search again

    def _decode(self, pcm: bytes) -> list[Word]:
        decoder = self._decoder
        decoder.start_utt()
        decoder.process_raw(pcm, full_utt=True)  # the whole leg: its mean (CMN) is the batch's
        decoder.end_utt()
        frames = float(decoder.config["frate"])
        return [
            Word(
                _ALTERNATE.sub("", seg.word).strip(),  # `to(3)`: the dictionary's third way to say `to`
                round(seg.start_frame / frames, 2),
                round((seg.end_frame + 1) / frames, 2),
                round(min(1.0, decoder.logmath.exp(seg.prob)), 3),
            )
            for seg in decoder.seg() or ()  # a spotting pass that heard nothing has no segments
            if not seg.word.startswith(_FILLER)
        ]

    def threshold(self, phones: int) -> float:
        """The factor a phrase of `phones` phones must beat the background by to be reported."""
        return float(10.0 ** -(self.shortest + self.per_phone * (phones - _FEWEST_PHONES)))

    @cached_property
    def _dictionary(self) -> list[str]:
        """The dictionary's words, sorted (for prefixes): read once, on a campaign's first `book*`."""
        with open(self._decoder.config["dict"], encoding="utf-8") as lines:
            return sorted({line.split(maxsplit=1)[0].split("(")[0] for line in lines if line.strip()})

    def _words(self, pattern: str) -> list[str]:
        """The dictionary's words a rule's word may be: itself, or a prefix's shortest words."""
        if not pattern.endswith("*"):
            return [pattern] if self._decoder.lookup_word(pattern) else []
        stem, words = pattern[:-1], self._dictionary
        found = itertools.takewhile(lambda w: w.startswith(stem), words[bisect.bisect_left(words, stem) :])
        return sorted(found, key=len)[:_PREFIX_WORDS]

    def _pronunciations(self, word: str) -> list[str]:
        """The dictionary's entries for `word`: `roof`, then its other ways of being said, `roof(2)`
        (R UH F besides R UW F); the keyphrase search listens for one pronunciation an entry."""
        said = [word]
        while self._decoder.lookup_word(f"{word}({len(said) + 1})"):
            said.append(f"{word}({len(said) + 1})")
        return said

    def _keyphrases(self, phrases: Sequence[Phrase]) -> dict[str, float]:
        """Each concrete phrase the rules' phrases may be, with its threshold; phrases with a word the
        dictionary lacks can't be spotted (nor transcribed)."""
        found: dict[str, float] = {}
        for phrase in phrases:
            choices = [
                [said for pattern in ways for w in self._words(pattern) for said in self._pronunciations(w)]
                for ways in phrase
            ]
            for words in itertools.islice(itertools.product(*choices), _SPOTTED_PHRASES):
                phones = sum(len(self._decoder.lookup_word(w).split()) for w in words)
                if phones >= _FEWEST_PHONES and len(found) < _SPOTTED_PHRASES:
                    found[" ".join(words)] = self.threshold(phones)
        return found


def merged(heard: list[Word], spotted: list[Word]) -> list[Word]:
    """The transcript with each spotted phrase in place of the words heard over it (a word is over
    it when its middle is), the phrase's words sharing its time; of phrases spotted over the same
    time, the longest."""
    kept = list(heard)
    added: list[Word] = []
    taken: list[Word] = []
    for phrase in sorted(spotted, key=lambda p: p.start - p.end):  # the longest first: overlaps lose
        if any(phrase.start < t.end and t.start < phrase.end for t in taken):
            continue
        taken.append(phrase)
        kept = [w for w in kept if not phrase.start <= (w.start + w.end) / 2 <= phrase.end]
        words = phrase.text.split()
        share = (phrase.end - phrase.start) / len(words)
        added += [
            Word(w, round(phrase.start + n * share, 2), round(phrase.start + (n + 1) * share, 2), 1.0)
            for n, w in enumerate(words)
        ]
    return sorted(kept + added, key=lambda w: w.start)


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

    def transcribe(self, wav: Path, phrases: Sequence[Phrase] = ()) -> list[Word]:
        # Its own decoding hears the phrases well enough: given as hot words, not spotted apart.
        hot = " ".join(sorted({w.rstrip("*") for phrase in phrases for ways in phrase for w in ways}))
        segments, _ = self._model.transcribe(str(wav), word_timestamps=True, hotwords=hot or None)
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
