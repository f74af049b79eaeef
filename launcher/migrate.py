"""`python -m launcher.migrate`: apply the migrations and the seed (countries, a first admin) to the
servers DATABASE_URL names, then exit. `make run` does the same before starting its services; a
container deployment runs it once, as its own service, before the new portal starts."""

from core.infra.db import session_scope
from core.infra.migrate import upgrade
from core.infra.settings import get_settings
from core.operations.seed import seed_admin, seed_countries


def migrate_and_seed() -> tuple[str, str] | None:
    """Migrate and seed; (email, password) of the first admin when this run created one."""
    settings = get_settings()
    upgrade(settings.sqlalchemy_url)
    with session_scope() as session:
        seed_countries(session)
        return seed_admin(session, settings.admin_email, settings.admin_password)


def announce(created: tuple[str, str] | None) -> None:
    if created:
        email, password = created
        generated = "" if get_settings().admin_password else " (generated; shown only this once)"
        print(f"\n  First admin: {email} / {password}{generated}\n", flush=True)


def main() -> None:
    if not get_settings().database_url:
        raise SystemExit("DATABASE_URL is not set: nothing to migrate")
    announce(migrate_and_seed())
    print("migrations applied", flush=True)


if __name__ == "__main__":
    main()
