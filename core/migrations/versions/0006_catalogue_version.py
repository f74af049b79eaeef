"""a counter of routing-catalogue changes, kept by triggers (the bridge caches the catalogue by it)

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What core.routing.catalogue caches: a write to any of these makes the next call read afresh.
STATEMENT_TABLES = ("number", "campaign_target", "target", "buyer", "trunk")


def upgrade() -> None:
    op.execute(
        "CREATE TABLE catalogue_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)"
    )
    op.execute("INSERT INTO catalogue_version VALUES (1, 0)")
    # In the writing transaction: the new count is seen together with the change, never before it.
    op.execute(
        """
        CREATE FUNCTION bump_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
            RETURN NULL;
        END $$
        """
    )
    for table in STATEMENT_TABLES:
        op.execute(
            f"CREATE TRIGGER catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table}"
            " FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version()"
        )
    op.execute(
        "CREATE TRIGGER catalogue_changed AFTER INSERT OR DELETE OR TRUNCATE ON campaign"
        " FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version()"
    )
    # Round robin moves rr_cursor on every call: that alone is not a catalogue change.
    op.execute(
        "CREATE TRIGGER catalogue_campaign_changed AFTER UPDATE ON campaign FOR EACH ROW"
        " WHEN ((to_jsonb(OLD) - 'rr_cursor' - 'updated_at') IS DISTINCT FROM"
        " (to_jsonb(NEW) - 'rr_cursor' - 'updated_at'))"
        " EXECUTE FUNCTION bump_catalogue_version()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER catalogue_campaign_changed ON campaign")
    for table in (*STATEMENT_TABLES, "campaign"):
        op.execute(f"DROP TRIGGER catalogue_changed ON {table}")
    op.execute("DROP FUNCTION bump_catalogue_version()")
    op.execute("DROP TABLE catalogue_version")
