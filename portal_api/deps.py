"""Request-scoped dependencies shared by every router."""

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, File, Path, Query, UploadFile
from pydantic import BaseModel
from sqlmodel import Session

from core.infra.db import get_engine


def get_session() -> Iterator[Session]:
    """One session per request; handlers commit explicitly, anything uncommitted is rolled back."""
    with Session(get_engine(), expire_on_commit=False) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]

# Ids are PostgreSQL integers: anything outside that range can name no row.
MAX_ID = 2**31 - 1


IdPath = Annotated[int, Path(ge=1, le=MAX_ID, description="Row id")]

# The `file` part of a sound upload (schemas.common.sound_upload).
SoundFile = Annotated[UploadFile, File(description="WAV or MP3 file")]


class PageParams(BaseModel):
    page: int = 1
    perpage: int = 10
    params: str | None = None


def page_params(
    page: Annotated[int, Query(ge=1, le=100_000, description="Page number, from 1")] = 1,
    perpage: Annotated[int, Query(ge=1, le=500, description="Rows per page")] = 10,
    # No NUL: PostgreSQL text can't hold one.
    params: Annotated[
        str | None, Query(max_length=100, pattern="^[^\x00]*$", description="Free-text filter")
    ] = None,
) -> PageParams:
    return PageParams(page=page, perpage=perpage, params=(params or "").strip() or None)


PageDep = Annotated[PageParams, Depends(page_params)]
