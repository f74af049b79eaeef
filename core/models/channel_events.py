"""Asterisk's own channel event log (CEL), which Asterisk writes here itself through cel_pgsql.

Asterisk, not the product, inserts these rows, so the table follows cel_pgsql's rules: it looks the
column names up once at load and fills those it knows (eventtime as UTC text, hence a plain
timestamp), DEFAULT for the rest. The bridge reads it to complete call rows it missed.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Index, Text
from sqlmodel import Field, SQLModel

from core.models.columns import big_pk


def _text(nullable: bool = True) -> Any:  # SQLModel's Field(), as in core/models/columns.py
    # Text, not varchar: cel_pgsql drops the whole event when a value is too long for its column.
    return Field(default=None, sa_column=Column(Text, nullable=nullable))


class ChannelEvent(SQLModel, table=True):
    __tablename__ = "cel"
    __table_args__ = (
        Index("ix_cel_linkedid", "linkedid"),
        # The reconciliation looks for calls that ended recently.
        Index("ix_cel_call_end", "eventtime", postgresql_where="eventtype = 'LINKEDID_END'"),
    )

    id: int | None = big_pk()
    eventtype: str = Field(sa_column=Column(Text, nullable=False))
    # UTC without a zone: cel.conf sets usegmtime and Asterisk writes the time as text.
    eventtime: datetime = Field(sa_column=Column(DateTime(timezone=False), nullable=False))
    cid_num: str | None = _text()
    exten: str | None = _text()
    context: str | None = _text()
    appname: str | None = _text()  # on APP_START: the call was handed to this application
    channame: str | None = _text()
    uniqueid: str | None = _text()
    linkedid: str | None = _text()
    peer: str | None = _text()
    # JSON text from Asterisk, e.g. {"hangupcause":16,"hangupsource":"...","dialstatus":""} on HANGUP.
    extra: str | None = _text()
