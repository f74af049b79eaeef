"""A campaign's IVR prompts to choose from: Asterisk's core sounds and the owner's uploads."""

from typing import Literal

from pydantic import BaseModel, Field


class PromptOption(BaseModel):
    """One prompt a campaign's IVR may play; `value` is what `ivr_prompt` takes to play it."""

    value: str = Field(description="A core sound's name, or `prompt:<sha256>` for an upload")
    label: str = Field(description="What the caller hears (a core sound) or the upload's name")
    kind: Literal["core", "upload"]
    seconds: float | None = Field(default=None, description="An upload's length")
