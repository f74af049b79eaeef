"""Each node's own ARI login (docs/scale.md): written when the node's Asterisk is provisioned
(asterisk_config.node_login, with psycopg alone: the Asterisk image has no SQLAlchemy), read by the
node's bridge and by the portal, which reaches that node's ARI for its recordings."""

from datetime import datetime

from sqlalchemy import Column, DateTime, String, Text
from sqlmodel import Field, SQLModel


class NodeLogin(SQLModel, table=True):
    __tablename__ = "pbx_node_login"

    node_id: str = Field(sa_column=Column(String(32), primary_key=True))
    ari_user: str = Field(sa_column=Column(String(64), nullable=False))
    ari_password: str = Field(sa_column=Column(Text, nullable=False), repr=False)
    rotated_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
