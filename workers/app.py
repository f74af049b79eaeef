"""The Celery app (`celery -A workers.app worker` / `beat`) and its schedule, kept in code.

Configuration comes from core.infra.jobs, shared with the services that enqueue tasks by name.
"""

from celery import Celery, signals
from celery.schedules import crontab
from prometheus_client import REGISTRY

from core.infra import health, jobs, logs, metrics, names
from core.infra.settings import get_settings
from workers.metrics import StoreMetrics

app = Celery("callroute", include=["workers.tasks"])
app.conf.update(jobs.celery_config())


@signals.setup_logging.connect
def _logs(loglevel: int | str | None = None, **_: object) -> None:
    """The worker and beat log in the product's format (connected: Celery leaves logging alone)."""
    logs.configure(loglevel or "INFO")


@signals.celeryd_after_setup.connect
def _metrics(**_: object) -> None:
    """The worker's main process serves its metrics and health (beat serves none)."""
    s = get_settings()
    REGISTRY.register(StoreMetrics())
    metrics.serve(
        s.worker_metrics_host, s.worker_metrics_port, lambda: health.run({"broker": health.redis_server})
    )


def _every(task: str, schedule: float | crontab, expires: float) -> dict[str, object]:
    # `expires`: runs missed while no worker was up are dropped, not piled up.
    return {"task": task, "schedule": schedule, "options": {"expires": expires}}


app.conf.beat_schedule = {
    # The safety net behind the per-call task the bridge enqueues at hangup.
    "rate-pending": _every(names.RATE_PENDING, 30.0, 30),
    "release-expired-holds": _every(names.RELEASE_EXPIRED, 60.0, 60),
    # Webhook retries further off than a countdown, and any wake-up lost with the broker.
    "webhooks-send": _every(names.WEBHOOK_SEND, 15.0, 15),
    # Anniversaries fall at any time of day; hourly keeps a renewal within the hour.
    "number-fees": _every(names.NUMBER_FEES, crontab(minute=5), 3600),
    "reconcile": _every(names.RECONCILE, crontab(hour=2, minute=30), 6 * 3600),
    # Daily, for last month: by 13:00 UTC the month has ended in every time zone; invoiced months are skipped.
    "invoices": _every(names.INVOICES, crontab(hour=13, minute=0), 6 * 3600),
    "purge-channel-events": _every(names.PURGE_CHANNEL_EVENTS, crontab(hour=3, minute=15), 6 * 3600),
    # Rating keeps them current; this makes them exact again whatever changed a rated call since.
    "rebuild-rollups": _every(names.REBUILD_ROLLUPS, crontab(hour=4, minute=0), 6 * 3600),
    # Partitions for the months ahead (and any the default partition caught), and retention.
    "call-months": _every(names.CALL_MONTHS, crontab(hour=0, minute=20), 6 * 3600),
    "archive-calls": _every(names.ARCHIVE_CALLS, crontab(hour=3, minute=45), 6 * 3600),
}
