"""Keyword rules on a call's words, with no I/O: which rules the transcript matches, where, and what
that makes of the call (tags, a score, converted, not billable to the buyer).

A phrase is words said one after the other; a word may be alternatives (`appointment|appointments`)
or a prefix (`book*`): "book* appointment|appointments" matches "booking appointments", not
"booked an appointment" (list that as a phrase of its own). Case and punctuation are ignored.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from core.conversation.engine import Word
from core.values.enums import KeywordEffect, KeywordSide, Leg

_PUNCTUATION = re.compile(r"[^\w'*|]+")


@dataclass(frozen=True)
class Rule:
    id: int
    name: str
    phrases: tuple[str, ...]
    side: KeywordSide
    effect: KeywordEffect
    tag: str | None = None
    score: int = 0


@dataclass(frozen=True)
class Match:
    """Where a rule matched: the leg, the words as said, and when (seconds into the call)."""

    rule: Rule
    leg: Leg
    words: str
    start: float
    end: float


@dataclass
class Outcome:
    """What the matches make of the call. `converted` is None when no rule said so (talk time decides)."""

    matches: list[Match] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    score: int = 0
    converted: bool | None = None
    billable: bool = True


def normal(text: str) -> str:
    return _PUNCTUATION.sub(" ", text.lower()).strip()


def parse(phrase: str) -> list[tuple[str, ...]]:
    """A phrase as its words, each the alternatives it may be; [] for a phrase with no word."""
    words = [tuple(a for a in word.split("|") if a.strip("*")) for word in normal(phrase).split()]
    return [ways for ways in words if ways]  # `*` alone is no word: it would match any


def _says(pattern: str, word: str) -> bool:
    return word.startswith(pattern[:-1]) if pattern.endswith("*") else word == pattern


def find(phrase: str, words: list[Word]) -> tuple[int, int] | None:
    """The first place (index, index after) where `words` say `phrase`, or None."""
    wanted = parse(phrase)
    said = [normal(w.text) for w in words]
    for start in range(len(said) - len(wanted) + 1 if wanted else 0):
        if all(any(_says(p, said[start + n]) for p in ways) for n, ways in enumerate(wanted)):
            return start, start + len(wanted)
    return None


def side_legs(side: KeywordSide) -> tuple[Leg, ...]:
    return tuple(Leg) if side is KeywordSide.EITHER else (Leg(side.value),)


def first_match(rule: Rule, legs: Mapping[Leg, list[Word]]) -> Match | None:
    """The rule's earliest match on the legs its side listens to."""
    found: list[Match] = []
    for leg in side_legs(rule.side):
        words = legs.get(leg, [])
        for phrase in rule.phrases:
            at = find(phrase, words)
            if at is not None:
                said = words[at[0] : at[1]]
                text = " ".join(w.text for w in said)
                found.append(Match(rule, leg, text, said[0].start, said[-1].end))
    return min(found, key=lambda m: m.start, default=None)


def apply(rules: list[Rule], legs: Mapping[Leg, list[Word]]) -> Outcome:
    """Every rule on the call's legs. Not billable outweighs converted: a wrong number earns nothing."""
    outcome = Outcome()
    for rule in rules:
        match = first_match(rule, legs)
        if match is None:
            continue
        outcome.matches.append(match)
        if rule.tag and rule.tag not in outcome.tags:
            outcome.tags.append(rule.tag)
        if rule.effect is KeywordEffect.SCORE:
            outcome.score += rule.score
        elif rule.effect is KeywordEffect.CONVERT:
            outcome.converted = True
        elif rule.effect is KeywordEffect.NOT_BILLABLE:
            outcome.billable = False
    if not outcome.billable:
        outcome.converted = False
    outcome.matches.sort(key=lambda m: m.start)
    return outcome
