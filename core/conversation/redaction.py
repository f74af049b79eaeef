"""Card and account numbers out of stored transcripts: a run of 13 to 19 spoken digits ("four one one
one ..." or "4111 1111 ...") is masked, and so is a run of 3 or 4 digits said within a few words
after it (the card's security code). Only the words are masked: the recording keeps the audio
(docs/conversation.md)."""

from dataclasses import replace

from core.conversation.engine import Word

MASK = "#"  # one per word: how long each masked word was would tell its digit
CARD_DIGITS = range(13, 20)
CODE_DIGITS = range(3, 5)
CODE_WITHIN = 6  # words after the number where a security code is looked for

_SPOKEN = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
_ALSO_ZERO = {"oh", "o"}  # "four oh one": a zero inside a run of digits, not the start of one


def _digits(text: str, in_run: bool) -> int:
    """How many digits `text` says: 1 for a digit's name, each digit of a numeral, else 0."""
    word = text.lower().strip(".,-")
    if word in _SPOKEN or (in_run and word in _ALSO_ZERO):
        return 1
    return len(word) if word.isdigit() else 0


def _runs(words: list[Word]) -> list[tuple[int, int, int]]:
    """Each run of consecutive digit words: (first index, index after, digits said)."""
    runs, start, count = [], 0, 0
    for index, word in enumerate([*words, Word("", 0, 0, 0)]):
        said = _digits(word.text, count > 0)
        if said and not count:
            start = index
        count += said
        if count and not said:
            runs.append((start, index, count))
            count = 0
    return runs


def redact(words: list[Word]) -> tuple[list[Word], int]:
    """`words` with card numbers and their codes masked; how many words were masked."""
    masked: set[int] = set()
    runs = _runs(words)
    for n, (start, end, count) in enumerate(runs):
        if count not in CARD_DIGITS:
            continue
        masked.update(range(start, end))
        code = next((r for r in runs[n + 1 :] if r[0] - end <= CODE_WITHIN), None)
        if code is not None and code[2] in CODE_DIGITS:
            masked.update(range(code[0], code[1]))
    out = [replace(w, text=MASK) if i in masked else w for i, w in enumerate(words)]
    return out, len(masked)
