"""Whisper audio, stored once per content: what campaigns' targets hear before they are connected."""

from datetime import datetime

from sqlalchemy import Column, LargeBinary
from sqlmodel import Field, SQLModel

from core.models.columns import created_at


class WhisperAudio(SQLModel, table=True):
    """One whisper's audio as Asterisk plays it (8 kHz mono 16-bit WAV), named by its SHA-256: the
    bridges write it into their Asterisk's sounds from here (pbx_bridge.whisper), so every node
    plays the same file however many nodes there are. Campaigns refer to it by `Campaign.whisper_sound`."""

    __tablename__ = "whisper_audio"

    sha256: str = Field(primary_key=True, max_length=64)
    audio: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = created_at()
