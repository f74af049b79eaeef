"""What was said on calls (their transcripts, the report's word and tag filters) and the campaigns'
keyword rules (docs/conversation.md). A rule belongs to its campaign: whoever may see the campaign
may edit its rules, and a foreign campaign's id answers 404."""

from sqlalchemy import Select, Text, cast, func, literal_column, select
from sqlalchemy.dialects import postgresql
from sqlmodel import Session, col

from core.conversation import rules
from core.infra import jobs, names
from core.models import Call, CallConversation, CallTranscript, Campaign, KeywordRule
from core.values.enums import Leg
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.auth.principal import Principal
from portal_api.schemas.conversation import (
    CallTranscriptOut,
    KeywordRuleIn,
    KeywordRuleOut,
    LegTranscript,
    MatchOut,
    SaidWord,
)
from portal_api.services.tenancy import get_visible


def said(words: str) -> Select[int]:
    """Ids of the calls whose transcript says `words` (web-search syntax: "a phrase", -not, or);
    the report's own scope is applied to the calls around it."""
    # The configuration as SQL text, not a parameter: the report's pages compile their query with
    # its values in it, and SQLAlchemy has no literal form for a regconfig parameter.
    query = func.websearch_to_tsquery(literal_column("'english'"), words)
    return select(CallTranscript.call_id).where(col(CallTranscript.search).op("@@")(query))


def tagged(tag: str) -> Select[int]:
    # Array containment (@>, which the tags' GIN index serves), spelled as its operator: `.contains`
    # reads like the LIKE only the search helpers may build (tests/api/test_search_literal.py).
    wanted = cast(postgresql.array([tag.strip().lower()]), postgresql.ARRAY(Text))
    return select(CallConversation.call_id).where(col(CallConversation.tags).op("@>")(wanted))


def transcript(session: Session, principal: Principal, call_id: int) -> CallTranscriptOut:
    call = get_visible(session, Call, call_id, principal, "Call")
    stmt = select(CallTranscript).where(CallTranscript.call_id == call.id)
    legs = sorted(session.scalars(stmt), key=lambda t: list(Leg).index(Leg(t.leg)))
    if not legs:
        raise DomainError(ErrorId.TRANSCRIPT_NONE, "This call has not been transcribed.")
    verdict = session.get(CallConversation, call.id) or CallConversation(call_id=call.id or 0)
    return CallTranscriptOut(
        call_id=call.id or 0,
        legs=[
            LegTranscript(
                leg=Leg(t.leg),
                engine=t.engine,
                words=[SaidWord(word=w["w"], start=w["s"], end=w["e"], confidence=w["c"]) for w in t.words],
            )
            for t in legs
        ],
        tags=verdict.tags,
        score=verdict.score,
        converted=verdict.converted,
        billable=verdict.billable,
        matches=[MatchOut.model_validate(m) for m in verdict.matches],
    )


def _campaign(session: Session, principal: Principal, campaign_id: int) -> Campaign:
    return get_visible(session, Campaign, campaign_id, principal, "Campaign")


def _rule(session: Session, principal: Principal, campaign_id: int, rule_id: int) -> KeywordRule:
    _campaign(session, principal, campaign_id)
    rule = session.get(KeywordRule, rule_id)
    if rule is None or rule.campaign_id != campaign_id:
        raise not_found("Keyword rule")
    return rule


def out(rule: KeywordRule) -> KeywordRuleOut:
    return KeywordRuleOut.model_validate(rule, from_attributes=True)


def list_rules(session: Session, principal: Principal, campaign_id: int) -> list[KeywordRuleOut]:
    _campaign(session, principal, campaign_id)
    stmt = select(KeywordRule).where(KeywordRule.campaign_id == campaign_id).order_by(col(KeywordRule.id))
    return [out(r) for r in session.scalars(stmt)]


def _checked(body: KeywordRuleIn) -> dict[str, object]:
    for phrase in body.phrases:
        if not rules.parse(phrase):
            message = f'The phrase "{phrase}" has no word to listen for.'
            raise DomainError(ErrorId.KEYWORD_RULE_INVALID, message, "phrases")
    fields = body.model_dump()
    fields["side"], fields["effect"] = body.side.value, body.effect.value
    return fields


def create(session: Session, principal: Principal, campaign_id: int, body: KeywordRuleIn) -> KeywordRuleOut:
    _campaign(session, principal, campaign_id)
    rule = KeywordRule(campaign_id=campaign_id, **_checked(body))
    session.add(rule)
    session.commit()
    return out(rule)


def update(
    session: Session, principal: Principal, campaign_id: int, rule_id: int, body: KeywordRuleIn
) -> KeywordRuleOut:
    rule = _rule(session, principal, campaign_id, rule_id)
    for name, value in _checked(body).items():
        setattr(rule, name, value)
    session.add(rule)
    session.commit()
    return out(rule)


def delete(session: Session, principal: Principal, campaign_id: int, rule_id: int) -> None:
    session.delete(_rule(session, principal, campaign_id, rule_id))
    session.commit()


def reapply(session: Session, principal: Principal, campaign_id: int) -> None:
    """The campaign's rules applied again to its calls already transcribed, by the transcription
    worker (its own queue: the portal answers at once)."""
    _campaign(session, principal, campaign_id)
    jobs.enqueue(names.REAPPLY_RULES, campaign_id)
