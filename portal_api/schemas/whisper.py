"""A campaign's whisper: what its targets hear before they are connected (docs/routing.md, "Whisper")."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from core.calls.whisper import MAX_TEXT
from core.values.enums import WhisperMode
from portal_api.schemas.common import StrictBody

# Something to say: one visible character at least.
WhisperText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_TEXT),
    Field(json_schema_extra={"pattern": r"\S"}),
]


class WhisperEdit(StrictBody):
    """Off, or typed text (rendered to speech as it is saved). A recording is uploaded instead."""

    rules = {
        "anyOf": [
            {"properties": {"mode": {"const": "off"}}},
            {"required": ["text"], "properties": {"text": {"type": "string"}}},
        ]
    }

    mode: Literal["off", "text"] = Field(description="`recording`: upload the file to .../recording")
    text: WhisperText | None = Field(
        default=None, description="What the target hears, e.g. the campaign's name"
    )

    @model_validator(mode="after")
    def _text_when_spoken(self) -> "WhisperEdit":
        if self.mode == "text" and self.text is None:
            raise ValueError("A text whisper needs its text.")
        return self


class WhisperOut(BaseModel):
    campaign_id: int
    mode: WhisperMode
    text: str | None = Field(description="The text last typed (kept while off or a recording plays)")
    seconds: float | None = Field(description="How long the target listens before it is connected")
    audio_url: str | None = Field(description="The audio the target hears (WAV), while the whisper is on")
