"""`make run`: start the whole product on one machine, supervised, until Ctrl-C.

PostgreSQL and Redis are embedded (in the data folder) unless DATABASE_URL / REDIS_URL name real
servers. Migrations and the seed run first; then the services start as child processes, and they and
the embedded engines are started again when one dies (launcher.supervisor).
"""

import json
import logging
import os
import secrets
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path
from threading import Event
from types import FrameType

from core.infra import names
from core.infra.settings import Settings, get_settings
from launcher.embedded import EmbeddedPostgres, EmbeddedRedis, ensure_database, start_postgres, start_redis
from launcher.lock import holding
from launcher.migrate import announce, migrate_and_seed
from launcher.nodes import kamailio_installed, node_children
from launcher.portal import empty_metrics_dir, portal_argv
from launcher.supervisor import Child, Supervisor

log = logging.getLogger("launch")

Engines = list[EmbeddedPostgres | EmbeddedRedis]  # the embedded engines started, to stop at the end

DEVELOPMENT_ALLOW = "127.0.0.0/8,::1/128"  # OUTBOUND_ALLOW_NETWORKS of `make run` in development


def asterisk_env(data_dir: Path) -> dict[str, str] | None:
    """Credentials for Asterisk's ARI and AMI, and the chroot ready; None (said plainly) when this
    machine can't run Asterisk, so the rest of the product still starts.

    Credentials come from the environment or are generated once and kept in the data folder.
    """
    settings = get_settings()
    if settings.callroute_asterisk == "off":
        print("  Asterisk not started: CALLROUTE_ASTERISK=off", flush=True)
        return None
    stored = data_dir / "asterisk-credentials.json"
    creds = json.loads(stored.read_text()) if stored.exists() else {}
    creds.update(ARI_USER=settings.ari_user, AMI_USER=settings.ami_user)
    for key, given in (("ARI_PASSWORD", settings.ari_password), ("AMI_SECRET", settings.ami_secret)):
        creds[key] = given or creds.get(key) or secrets.token_urlsafe(24)
    stored.write_text(json.dumps(creds))
    stored.chmod(0o600)
    env = {**os.environ, **creds}
    build = subprocess.run(
        [sys.executable, "-m", "asterisk_config.provision", "build"], env=env, capture_output=True, text=True
    )
    if build.returncode != 0:
        reason = (build.stderr or build.stdout).strip().splitlines()[-1:] or ["unknown reason"]
        print(f"  Asterisk not started: {reason[0]}", flush=True)
        return None
    return creds


def outbound_default(settings: Settings) -> dict[str, str]:
    """OUTBOUND_ALLOW_NETWORKS for the children when none is set: loopback in development, where
    trying webhooks and bidding on one machine means a receiver on loopback; nothing in production,
    which allows no internal address unless told (docs/security.md)."""
    if settings.environment == "development" and not settings.outbound_allow_networks:
        return {"OUTBOUND_ALLOW_NETWORKS": DEVELOPMENT_ALLOW}
    return {}


def portal_child(host: str, port: int, settings: Settings) -> Child:
    """The portal: one process per core unless PORTAL_WORKERS says (uvicorn keeps them up, the
    supervisor keeps uvicorn up); several add their metrics up in a folder emptied at each start."""
    workers = settings.portal_processes
    if workers == 1:
        return Child("api", portal_argv(host, port))
    metrics = Path(settings.prometheus_multiproc_dir or settings.data_dir / "portal-metrics")
    return Child(
        "api",
        portal_argv(host, port, workers),
        {"PROMETHEUS_MULTIPROC_DIR": str(metrics)},
        before_start=partial(empty_metrics_dir, metrics),
    )


def services(host: str, port: int, with_asterisk: bool) -> list[Child]:
    py = sys.executable
    settings = get_settings()
    # Beat remembers its last runs in the data folder, so a restart neither repeats nor skips a job.
    data_dir = settings.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    celery = [py, "-m", "celery", "-A", "workers.app"]
    children = [
        portal_child(host, port, settings),
        # Quiet unless something goes wrong: a line per task would drown the console.
        Child("worker", [*celery, "worker", "--loglevel", "WARNING", "-Q", names.CELERY_QUEUE]),
        # Transcription's own worker, one process (docs/conversation.md): it never delays rating.
        Child(
            "transcriber",
            [
                *celery,
                "worker",
                "--loglevel",
                "WARNING",
                "-Q",
                names.TRANSCRIBE_QUEUE,
                "-c",
                "1",
                "-n",
                "transcriber@%h",
            ],
            {"WORKER_METRICS_PORT": str(settings.transcriber_metrics_port)},
        ),
        Child(
            "beat",
            [*celery, "beat", "--loglevel", "WARNING", "--schedule", str(data_dir / "celerybeat-schedule")],
        ),
    ]
    if not with_asterisk:
        return children
    if settings.nodes > 1:
        return children + node_children(settings, with_kamailio=kamailio_installed())
    one_node = [
        Child("asterisk", [py, "-m", "asterisk_config.provision", "run"]),
        Child("bridge", [py, "-m", "pbx_bridge"]),
    ]
    return children + one_node


def prepare(engines: Engines) -> dict[str, str]:
    """Start embedded engines as needed (appended to `engines`, which keeps them alive), migrate and
    seed; return the environment for the children."""
    settings = get_settings()
    env = dict(os.environ)
    if not settings.database_url:
        server = start_postgres(settings.data_dir)
        engines.append(server)
        env["DATABASE_URL"] = ensure_database(server.url(), "callroute")
        log.info("embedded PostgreSQL in %s", settings.data_dir / "postgres")
    if not settings.redis_url:
        redis = start_redis(settings.data_dir)
        engines.append(redis)
        env["REDIS_URL"] = redis.url
        log.info("embedded Redis in %s", settings.data_dir)
    if allow := outbound_default(settings):
        env.update(allow)
        log.info("customers' webhook and bidding URLs may reach loopback (development)")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL")})
    get_settings.cache_clear()
    announce(migrate_and_seed())
    return env


def start_and_supervise(settings: Settings, engines: Engines, stop: Event) -> None:
    """Each step of the start, then supervision until `stop`; returns early once `stop` is set (what
    was started by then is in `engines`, or stopped by the supervisor)."""
    env = prepare(engines)
    if stop.is_set():
        return
    asterisk = asterisk_env(settings.data_dir)
    if stop.is_set():
        return
    # Without Asterisk the API must not ask its ports for anything (recordings answer 503).
    env.update(asterisk or {"CALLROUTE_ASTERISK": "off"})
    print(
        f"  Portal: http://{settings.host}:{settings.port}/   API docs: "
        f"http://{settings.host}:{settings.port}/docs\n",
        flush=True,
    )
    children = services(settings.host, settings.port, with_asterisk=asterisk is not None)
    Supervisor(children, env, engines).run(stop)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings = get_settings()
    with holding(settings.data_dir) as lock:  # refuses while another launcher holds DATA_DIR
        stop = Event()

        def on_signal(_signum: int, _frame: FrameType | None) -> None:
            lock.stopping()
            stop.set()

        # From here on Ctrl-C (SIGINT, to the whole process group) and SIGTERM only ask to stop:
        # the step under way ends, so whatever the start reached is known, and stopped below or by
        # the supervisor; an exception in the middle of a step would orphan what it had started.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, on_signal)
        engines: Engines = []
        try:
            start_and_supervise(settings, engines, stop)
        except Exception:
            if not stop.is_set():
                raise
            # A step whose own processes took the Ctrl-C too (initdb, a build) failed of it: no error.
            log.info("start interrupted")
        finally:
            lock.stopping()
            for engine in reversed(engines):
                engine.stop()
    log.info("stopped")
