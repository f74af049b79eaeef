"""Keyword rules and redaction on fixed word lists (no engine, no database)."""

from core.conversation.engine import Word
from core.conversation.redaction import MASK, redact
from core.conversation.rules import Rule, apply, find
from core.values.enums import KeywordEffect, KeywordSide, Leg


def said(text: str, start: float = 0.0) -> list[Word]:
    """`text` as words half a second apart."""
    return [Word(w, start + n * 0.5, start + n * 0.5 + 0.4, 1.0) for n, w in enumerate(text.split())]


BOOKED = Rule(
    1,
    "booked",
    ("appointment|appointments", "book* a visit"),
    KeywordSide.CALLER,
    KeywordEffect.CONVERT,
    "booked",
)
WRONG = Rule(
    2, "wrong number", ("wrong number",), KeywordSide.EITHER, KeywordEffect.NOT_BILLABLE, "wrong-number"
)
ROOF = Rule(3, "roof", ("roof*",), KeywordSide.EITHER, KeywordEffect.SCORE, None, 5)
PRICE = Rule(4, "price", ("how much",), KeywordSide.TARGET, KeywordEffect.TAG, "price")


def test_a_phrase_is_its_words_in_a_row_with_alternatives_and_prefixes() -> None:
    assert find("wrong number", said("you have the Wrong, number sorry")) == (3, 5)
    assert find("wrong number", said("the number is wrong")) is None
    assert find("book* a visit", said("I'm booking a visit")) == (1, 4)
    assert find("appointment|appointments", said("two appointments please")) == (1, 2)
    assert find("", said("anything")) is None


def test_the_caller_saying_appointment_converts_and_tags_with_the_words_and_their_time() -> None:
    legs = {Leg.CALLER: said("I would like an appointment on Tuesday", start=2.0), Leg.TARGET: said("sure")}
    outcome = apply([BOOKED, WRONG], legs)
    assert outcome.converted is True and outcome.billable and outcome.tags == ["booked"]
    (match,) = outcome.matches
    assert (match.rule, match.leg, match.words, match.start, match.end) == (
        BOOKED,
        Leg.CALLER,
        "appointment",
        4.0,
        4.4,
    )


def test_the_side_a_rule_listens_to() -> None:
    target_says = {Leg.CALLER: said("hello"), Leg.TARGET: said("your appointment is booked how much")}
    outcome = apply([BOOKED, PRICE], target_says)
    assert outcome.converted is None and outcome.tags == [
        "price"
    ]  # the target's appointment is no conversion


def test_not_billable_outweighs_a_conversion_and_scores_add_up() -> None:
    legs = {
        Leg.CALLER: said("an appointment for my roof"),
        Leg.TARGET: said("sorry wrong number about roofing", start=3.0),
    }
    outcome = apply([BOOKED, WRONG, ROOF], legs)
    assert outcome.converted is False and not outcome.billable
    assert outcome.tags == ["booked", "wrong-number"] and outcome.score == 5  # one match per rule
    assert [m.rule.id for m in outcome.matches] == [1, 3, 2]  # in the order they were said


def test_nothing_said_leaves_the_call_to_its_talk_time() -> None:
    outcome = apply([BOOKED, WRONG], {Leg.CALLER: [], Leg.TARGET: said("hello")})
    assert outcome.converted is None and outcome.billable and outcome.matches == []


def test_a_card_number_and_its_code_are_masked() -> None:
    words = said(f"my card is four {'one ' * 15}expiry soon code one two three thanks")
    masked, count = redact(words)
    text = [w.text for w in masked]
    assert text[:3] == ["my", "card", "is"] and text[3:19] == [MASK] * 16
    assert text[19:22] == ["expiry", "soon", "code"] and text[22:25] == [MASK] * 3 and text[-1] == "thanks"
    assert count == 19 and [w.start for w in masked] == [w.start for w in words]  # times kept


def test_numerals_count_by_their_digits_and_oh_is_a_zero_inside_a_number() -> None:
    masked, count = redact(said("it's 4111 1111 oh 111 1111 ok"))
    assert [w.text for w in masked] == ["it's", MASK, MASK, MASK, MASK, MASK, "ok"] and count == 5


def test_short_numbers_are_kept() -> None:
    words = said("call me on five five five one two three four or oh two")
    masked, count = redact(words)
    assert masked == words and count == 0
