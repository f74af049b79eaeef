"""Keyword rules on stored transcripts, in PostgreSQL: the tags, the trail with the words and their
time, the payout through rating's own rule, the `transcribed` webhook, rules applied again, and the
report's word search (the engine is left out: its words are given)."""

from decimal import Decimal

from sqlalchemy import select

from core.billing.rating import rate_call
from core.conversation import transcripts
from core.conversation.engine import Word
from core.conversation.transcripts import Heard
from core.infra.db import session_scope
from core.models import Call, CallConversation, KeywordRule, Webhook, WebhookDelivery
from core.values.enums import KeywordEffect, KeywordSide, Leg
from portal_api.services.conversation import said as saying
from portal_api.services.conversation import tagged
from testkit.rows import call, campaign_with_target, count, customer_id, get, save, tariff


def said(text: str, start: float = 1.0) -> list[Word]:
    return [Word(w, start + n * 0.5, start + n * 0.5 + 0.4, 1.0) for n, w in enumerate(text.split())]


def rule(campaign: int, name: str, phrase: str, side: KeywordSide, effect: KeywordEffect, tag: str) -> None:
    save(KeywordRule(campaign_id=campaign, name=name, phrases=[phrase], side=side, effect=effect, tag=tag))


def heard(call_id: int, caller: str, target: str) -> None:
    legs = [Heard(Leg.CALLER, said(caller), "test", 5, 0), Heard(Leg.TARGET, said(target, 2.0), "test", 5, 0)]
    with session_scope() as s:
        transcripts.save(s, call_id, legs)
        transcripts.judge(s, call_id)


def rated(call_id: int) -> Call:
    with session_scope() as s:
        rate_call(s, call_id)
    return get(Call, call_id)


def test_a_short_call_that_books_an_appointment_converts_and_says_why() -> None:
    alice = customer_id("10", tariff(("44", "0.10")))
    campaign, target = campaign_with_target(alice, buffer_seconds=60, payout="5")
    rule(campaign, "booked", "appointment", KeywordSide.CALLER, KeywordEffect.CONVERT, "booked")
    save(
        Webhook(
            user_id=alice,
            campaign_id=campaign,
            url="http://127.0.0.1:9/h",
            events=["transcribed"],
            secret="s",
        )
    )
    short = call(alice, 20, campaign_id=campaign, target_id=target)
    assert rated(short).payout == Decimal("0.0000")  # 20 s: short of the 60 s buffer
    heard(short, "hello I need an appointment for tuesday", "sure")
    row = get(Call, short)
    assert (row.converted, row.payout, row.cost) == (True, Decimal("5.0000"), Decimal("0.1000"))
    (why,) = [e for e in row.trail if e["step"] == "keyword"]
    assert (why["words"], why["start"], why["leg"], why["effect"]) == (
        "appointment",
        3.0,
        "caller",
        "convert",
    )
    assert 'the caller said "appointment" at 3.0 s' in why["reason"]
    assert get(CallConversation, short).tags == ["booked"]
    with session_scope() as s:
        (body,) = s.scalars(select(WebhookDelivery.body).where(WebhookDelivery.event == "transcribed")).all()
    assert body["conversation"]["tags"] == ["booked"] and body["call"]["payout"] == "5.0000"
    assert body["conversation"]["matches"][0]["words"] == "appointment"


def test_a_wrong_number_is_not_billable_to_the_buyer_and_rules_apply_again() -> None:
    alice = customer_id("10", tariff(("44", "0.10")))
    campaign, target = campaign_with_target(alice, buffer_seconds=10, payout="5")
    long_call = call(alice, 90, campaign_id=campaign, target_id=target)
    assert rated(long_call).payout == Decimal("5.0000")  # long enough
    heard(long_call, "is this the dentist", "sorry you have the wrong number")
    assert get(Call, long_call).payout == Decimal("5.0000")  # no rule yet
    rule(campaign, "wrong", "wrong number", KeywordSide.EITHER, KeywordEffect.NOT_BILLABLE, "wrong-number")
    assert transcripts.reapply(campaign) == 1
    row = get(Call, long_call)
    assert (row.converted, row.payout) == (False, Decimal("0.0000"))
    assert [e["words"] for e in row.trail if e["step"] == "keyword"] == ["wrong number"]
    assert transcripts.reapply(campaign) == 1  # again: the trail keeps one entry per match
    assert len([e for e in get(Call, long_call).trail if e["step"] == "keyword"]) == 1


def test_a_call_judged_before_rating_is_rated_with_the_verdict() -> None:
    alice = customer_id("10", tariff(("44", "0.10")))
    campaign, target = campaign_with_target(alice, buffer_seconds=60, payout="7")
    rule(campaign, "booked", "book* appointment", KeywordSide.EITHER, KeywordEffect.CONVERT, "booked")
    c = call(alice, 30, campaign_id=campaign, target_id=target)
    heard(c, "yes", "booking appointment now")
    assert (rated(c).converted, get(Call, c).payout) == (True, Decimal("7.0000"))


def test_search_by_words_and_tags() -> None:
    alice = customer_id("10", tariff(("44", "0.10")))
    campaign, target = campaign_with_target(alice)
    rule(campaign, "roof", "roof*", KeywordSide.EITHER, KeywordEffect.TAG, "roofing")
    roof, other = (call(alice, 30, campaign_id=campaign, target_id=target) for _ in range(2))
    heard(roof, "my roof is leaking", "we fix roofs")
    heard(other, "my card is four one one one one one one one one one one one one one one one", "thanks")
    with session_scope() as s:
        assert list(s.scalars(saying("leaking"))) == [roof]
        assert list(s.scalars(saying("leak"))) == [roof]  # English stems
        assert list(s.scalars(tagged("roofing"))) == [roof]
        assert list(s.scalars(saying("one"))) == []  # the card number is masked
    assert count(KeywordRule) == 1
