"""IVR prompts a customer uploaded: what its campaigns' callers hear before they key a PIN."""

from datetime import datetime

from sqlalchemy import Column, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, string


class PromptAudio(SQLModel, table=True):
    """One uploaded prompt as Asterisk plays it (8 kHz mono 16-bit WAV), kept per customer and named
    by its SHA-256: the bridges write it into their Asterisk's sounds from here on first use, as they
    do whispers (pbx_bridge.whisper). A campaign plays it when its `ivr_prompt` is `prompt:<sha256>`
    (core.calls.prompts)."""

    __tablename__ = "prompt_audio"
    __table_args__ = (UniqueConstraint("user_id", "sha256"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    name: str = string(80)
    sha256: str = string(64, index=True)
    ms: int
    audio: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = created_at()
