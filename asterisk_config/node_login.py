"""A node's own ARI login (docs/scale.md): each time a node's Asterisk is provisioned (`provision
start`, `run` or `render` with a NODE_ID, while it is not running) a new password is generated,
written to the shared database for the node's bridge and the portal (`pbx_node_login`,
core.models.NodeLogin, read through core.pbx.node_registry.ari_login) and rendered into its
ari.conf. A leaked login so opens one node only, until it is provisioned again. The only node (no
NODE_ID) keeps ARI_USER/ARI_PASSWORD.

Written with psycopg alone, through the connection Asterisk's CEL uses: the Asterisk image has no
SQLAlchemy."""

import secrets

import psycopg

from asterisk_config.errors import ConfigError
from asterisk_config.settings import AsteriskSettings, PgSettings

_UPSERT = """
INSERT INTO pbx_node_login (node_id, ari_user, ari_password, rotated_at) VALUES (%s, %s, %s, now())
ON CONFLICT (node_id) DO UPDATE
SET ari_user = excluded.ari_user, ari_password = excluded.ari_password, rotated_at = excluded.rotated_at
"""
_READ = "SELECT ari_user, ari_password FROM pbx_node_login WHERE node_id = %s"


def rotated(settings: AsteriskSettings) -> AsteriskSettings:
    """The settings with a new ARI login for the node, stored first (unchanged for the only node)."""
    if not settings.node_id:
        return settings
    user, password = f"{settings.ari_user}_{settings.node_id}", secrets.token_urlsafe(24)
    with _connect(settings) as conn:
        conn.execute(_UPSERT, (settings.node_id, user, password))
    return settings.with_(ari_user=user, ari_password=password)


def current(settings: AsteriskSettings) -> AsteriskSettings:
    """The settings with the node's stored ARI login (that of its running Asterisk), if it has one."""
    if not settings.node_id:
        return settings
    with _connect(settings) as conn:
        found = conn.execute(_READ, (settings.node_id,)).fetchone()
    return settings if found is None else settings.with_(ari_user=found[0], ari_password=found[1])


def _connect(settings: AsteriskSettings) -> psycopg.Connection[tuple[str, str]]:
    pg: PgSettings | None = settings.pg
    if pg is None:
        raise ConfigError(
            "NODE_ID needs the database (DATABASE_URL or ASTERISK_PG_DSN): its ARI login is kept there"
        )
    try:
        return psycopg.connect(
            host=pg.host,
            port=pg.port,
            dbname=pg.dbname,
            user=pg.user,
            password=pg.password,
            connect_timeout=10,
        )
    except psycopg.OperationalError as exc:
        raise ConfigError(f"the database for the node's ARI login can't be reached: {exc}") from None
