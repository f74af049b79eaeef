"""Benchmark: the bundled transcription engine on telephone speech (docs/conversation.md, "Figures").

    .venv/bin/python -m bench.transcribe              # 54 utterances
    .venv/bin/python -m bench.transcribe --voices en-us+f5 --speeds 150

A corpus of generated utterances (espeak-ng: several voices and speeds, each sentence carrying a
known keyword or none), brought to 8 kHz and through G.711 µ-law as a phone line carries it, some
with noise added, is transcribed by core.conversation.engine as the worker does (a leg's WAV,
listening for the rules' phrases; `--no-spotting`: the transcript alone, as before keyphrase
spotting; `--held-out`: other sentences, which the spotting thresholds were not tuned on).
Printed: keyword precision and recall (a keyword counts as found when its rule's phrase matches the
words heard: core.conversation.rules.find), the word error rate, and throughput (seconds of audio
per CPU second of this process; CPU time, so what else runs on the machine does not count).
"""

import argparse
import random
import struct
import sys
import tempfile
import time
import wave
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from core.conversation.engine import engine  # noqa: E402
from core.conversation.rules import find, normal, parse  # noqa: E402
from testkit.audio import _ULAW  # noqa: E402  (G.711 µ-law decoded)
from testkit.speech import spoken, ulaw  # noqa: E402

# (sentence, the keyword it carries or None)
SENTENCES = [
    ("Hello, I would like to book an appointment for next Tuesday please.", "appointment"),
    ("Hi, I am calling to make an appointment.", "appointment"),
    ("Can I get an appointment this week?", "appointment"),
    ("Sorry, I think I dialed the wrong number, goodbye.", "wrong"),
    ("You must have the wrong number here.", "wrong"),
    ("How much does a new roof cost?", "roof"),
    ("My roof is leaking in the kitchen.", "roof"),
    ("The weather is nice today and the sun is out.", None),
    ("Please send me the price list by email.", None),
]
# Others with the same keywords, for a check on speech the thresholds were not tuned on (--held-out).
HELD_OUT = [
    ("I want to schedule an appointment with the doctor.", "appointment"),
    ("Do you have any appointments open on Friday?", "appointment"),
    ("Oh no, wrong number, sorry about that.", "wrong"),
    ("I think this is the wrong number for the clinic.", "wrong"),
    ("We need someone to fix the roof before winter.", "roof"),
    ("Our roofing company went out of business.", "roof"),
    ("What time do you open on Saturday morning?", None),
    ("My daughter will call you back later tonight.", None),
    ("Is the parking free for customers?", None),
]
# What a campaign's rule would list for each (the engine rarely hears espeak-ng's "number" after "wrong").
PHRASES = {
    "appointment": ["appointment|appointments"],
    "wrong": ["wrong number", "the wrong"],
    "roof": ["roof*"],
}
VOICES = ["en-us+f5", "en-us+f2", "en-us+f3"]
SPEEDS = [140, 165]


def _line(samples: bytes, noise: float, seed: int) -> bytes:
    """8 kHz samples through µ-law as a phone line carries them, white noise at `noise` of full scale."""
    rng = random.Random(seed)
    values = struct.unpack(f"={len(samples) // 2}h", samples)
    noisy = (max(-32768, min(32767, v + int(rng.gauss(0, noise * 32767)))) for v in values)
    return struct.pack(f"={len(values)}h", *(_ULAW[ulaw(v)] for v in noisy))


def _wer(reference: list[str], heard: list[str]) -> tuple[int, int]:
    """Edits (substitutions, deletions, insertions) from `reference` to `heard`, and its length."""
    row = list(range(len(heard) + 1))
    for i, ref in enumerate(reference, 1):
        prev, row[0] = row[0], i
        for j, word in enumerate(heard, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ref != word))
    return row[-1], len(reference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", nargs="+", default=VOICES)
    parser.add_argument("--speeds", nargs="+", type=int, default=SPEEDS)
    parser.add_argument("--noise", type=float, default=0.01, help="noise on every other utterance")
    parser.add_argument("--held-out", action="store_true", help="the other sentences (HELD_OUT)")
    parser.add_argument("--no-spotting", action="store_true", help="the 1-best transcript alone")
    args = parser.parse_args()
    stt = engine()
    rules = [] if args.no_spotting else PHRASES.values()
    listened = [parse(phrase) for phrases in rules for phrase in phrases]  # the campaign's rules
    found = {"tp": 0, "fp": 0, "fn": 0}
    edits = words = 0
    audio = cpu = 0.0
    n = 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "leg.wav"
        for voice in args.voices:
            for speed in args.speeds:
                for text, keyword in HELD_OUT if args.held_out else SENTENCES:
                    n += 1
                    pcm = _line(spoken(text, voice, speed), args.noise if n % 2 else 0.0, n)
                    with wave.open(str(path), "wb") as out:
                        out.setnchannels(1)
                        out.setsampwidth(2)
                        out.setframerate(8000)
                        out.writeframes(pcm)
                    began = time.process_time()
                    heard = stt.transcribe(path, listened)
                    cpu += time.process_time() - began
                    audio += len(pcm) / 16000
                    e, w = _wer(normal(text).split(), [normal(h.text) for h in heard])
                    edits, words = edits + e, words + w
                    for kw, phrases in PHRASES.items():
                        hit = any(find(phrase, heard) is not None for phrase in phrases)
                        if hit and kw == keyword:
                            found["tp"] += 1
                        elif hit:
                            found["fp"] += 1
                        elif kw == keyword:
                            found["fn"] += 1
    precision = found["tp"] / max(1, found["tp"] + found["fp"])
    recall = found["tp"] / max(1, found["tp"] + found["fn"])
    corpus = f"{len(args.voices)} voices x {len(args.speeds)} speeds x 9 sentences"
    print(f"utterances: {n} ({corpus})")
    print(f"keyword precision: {precision:.2f}  recall: {recall:.2f}  ({found})")
    print(f"word error rate: {edits / max(1, words):.2f}")
    print(f"audio: {audio:.1f} s, CPU: {cpu:.1f} s -> {audio / cpu:.2f} s of audio per CPU second")
    print(f"= {60 * cpu / audio:.1f} s of CPU per minute of audio")


if __name__ == "__main__":
    main()
