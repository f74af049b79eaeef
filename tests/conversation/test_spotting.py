"""The rules' phrases listened for (core.conversation.engine): pocketsphinx's keyphrase pass on
telephone speech, the phrases it is given (prefixes from its dictionary, a threshold by length), and
how what it spots takes the place of the words heard over it."""

import wave
from pathlib import Path

from core.conversation.engine import Pocketsphinx, Word, merged
from core.conversation.rules import find, parse
from testkit.speech import spoken

# The bundled engine's transcript hears "the wrong" and misses "number" (docs/conversation.md).
WRONG = "You must have the wrong number here."


def said(text: str, start: float) -> list[Word]:
    return [Word(w, start + n * 0.5, start + n * 0.5 + 0.4, 1.0) for n, w in enumerate(text.split())]


def test_a_spotted_phrase_replaces_the_words_heard_over_it_and_the_longest_of_overlaps_wins() -> None:
    heard = said("you must have the wrong numb or here", 0.0)  # "numb or": 2.5-3.4 s
    spotted = [Word("wrong number", 2.0, 3.4, 1.0), Word("number", 2.5, 3.4, 1.0)]
    words = merged(heard, spotted)
    assert [w.text for w in words] == ["you", "must", "have", "the", "wrong", "number", "here"]
    assert (words[4].start, words[4].end, words[5].start, words[5].end) == (2.0, 2.7, 2.7, 3.4)
    assert merged(heard, []) == heard


def test_the_phrases_listened_for_are_the_dictionarys_words_with_a_threshold_by_their_length() -> None:
    engine = Pocketsphinx(shortest=5, per_phone=2)
    phrases = engine._keyphrases([parse("wrong number"), parse("roof*"), parse("zzyzxq call"), parse("a")])
    assert phrases["wrong number"] == 1e-15  # 8 phones: 5 beyond the shortest
    assert phrases["roof"] == 1e-5 and "roofing" in phrases  # a prefix: its shortest words
    assert phrases["roof(2)"] == 1e-5  # the dictionary's other way to say it, R UH F
    assert all(p.startswith("roof") for p in phrases if p != "wrong number")
    assert not [p for p in phrases if "zzyzxq" in p or p == "a"]  # not in the dictionary; too short
    assert "the(2) wrong" in engine._keyphrases([parse("the wrong")])  # "thee wrong"


def test_listening_for_a_rules_phrase_hears_it_where_the_transcript_alone_does_not(
    espeak_ng: str, tmp_path: Path
) -> None:
    wav = tmp_path / "leg.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(spoken(WRONG))
    engine = Pocketsphinx()
    assert find("wrong number", engine.transcribe(wav)) is None
    words = engine.transcribe(wav, [parse("wrong number"), parse("appointment")])
    at = find("wrong number", words)
    assert at is not None and 0.5 < words[at[0]].start < words[at[1] - 1].end < 3, words
    assert find("appointment", words) is None
