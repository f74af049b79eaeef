"""What was said on calls: a call's transcript (beside its recording in the report) and the keyword
rules of a campaign (docs/conversation.md)."""

from typing import Annotated

from fastapi import APIRouter, Path

from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.deps import MAX_ID, IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.conversation import CallTranscriptOut, KeywordRuleIn, KeywordRuleOut, ReapplyOut
from portal_api.services import conversation

router = APIRouter()
RULES = "/campaign/keyword-rules/{id:int}"
RuleId = Annotated[int, Path(ge=1, le=MAX_ID, description="The rule's id")]


@router.get("/report/transcript/{id:int}", tags=["reports"], summary="What was said on call `id`, per side")
def transcript(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[CallTranscriptOut]:
    return ok(conversation.transcript(session, principal, id))


@router.get(RULES, tags=["campaigns"], summary="Campaign `id`'s keyword rules")
def rules(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[KeywordRuleOut]]:
    return ok(conversation.list_rules(session, principal, id))


@router.post(RULES, status_code=201, tags=["campaigns"], summary="Add a keyword rule to campaign `id`")
def add_rule(
    id: IdPath, body: KeywordRuleIn, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[KeywordRuleOut]:
    return ok(conversation.create(session, principal, id, body), "Keyword rule added.")


@router.put(RULES + "/{rule_id:int}", tags=["campaigns"], summary="Change a keyword rule")
def edit_rule(
    id: IdPath, rule_id: RuleId, body: KeywordRuleIn, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[KeywordRuleOut]:
    return ok(conversation.update(session, principal, id, rule_id, body), "Keyword rule saved.")


@router.delete(RULES + "/{rule_id:int}", tags=["campaigns"], summary="Remove a keyword rule")
def remove_rule(
    id: IdPath, rule_id: RuleId, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[None]:
    conversation.delete(session, principal, id, rule_id)
    return ok(None, "Keyword rule removed.")


@router.post(
    RULES + "/reapply",
    status_code=202,
    tags=["campaigns"],
    summary="Apply campaign `id`'s rules again to its calls already transcribed",
)
def reapply(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[ReapplyOut]:
    conversation.reapply(session, principal, id)
    return ok(ReapplyOut(campaign_id=id, queued=True), "The calls will be judged again shortly.")
