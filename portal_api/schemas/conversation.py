"""What was said on a call and the campaign's keyword rules (docs/conversation.md)."""

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from core.values.enums import KeywordEffect, KeywordSide, Leg
from portal_api.schemas.common import NO_CONTROLS, VISIBLE_PATTERN, StrictBody

# A phrase or a rule's name: one visible character, no control character (as every name).
Phrase = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), NO_CONTROLS, VISIBLE_PATTERN
]
Tag = Annotated[
    str, StringConstraints(strip_whitespace=True, to_lower=True, pattern=r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,31}$")
]


class KeywordRuleIn(StrictBody):
    """A rule: when `side` says one of `phrases`, `effect`. A phrase's words follow each other;
    a word may be alternatives (`appointment|appointments`) or a prefix (`book*`)."""

    name: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=1, max_length=64),
        NO_CONTROLS,
        VISIBLE_PATTERN,
    ]
    phrases: list[Phrase] = Field(
        min_length=1, max_length=20, description='e.g. ["book* appointment", "booked"]'
    )
    side: KeywordSide = Field(description="Who must say it")
    effect: KeywordEffect = Field(description="What a match does to the call")
    tag: Tag | None = Field(default=None, description="The tag a match gives the call (any effect)")
    score: int = Field(default=0, ge=-100, le=100, description="Points a match adds (effect `score`)")


class KeywordRuleOut(BaseModel):
    id: int
    campaign_id: int
    name: str
    phrases: list[str]
    side: KeywordSide
    effect: KeywordEffect
    tag: str | None
    score: int


class ReapplyOut(BaseModel):
    campaign_id: int
    queued: bool = Field(
        description="The campaign's transcribed calls are judged again by the transcription worker"
    )


class SaidWord(BaseModel):
    word: str
    start: float = Field(description="Seconds into the recording")
    end: float
    confidence: float


class LegTranscript(BaseModel):
    leg: Leg
    engine: str
    words: list[SaidWord]


class MatchOut(BaseModel):
    rule_id: int
    rule: str
    effect: KeywordEffect
    leg: Leg
    words: str
    start: float
    end: float


class CallTranscriptOut(BaseModel):
    """A call's legs as transcribed (card numbers masked) and what its keyword rules made of it."""

    call_id: int
    legs: list[LegTranscript]
    tags: list[str]
    score: int
    converted: bool | None = Field(
        description="True: a rule converted it; False: a rule made it not billable"
    )
    billable: bool
    matches: list[MatchOut]
