"""Thin tasks: ids in, a plain function call, nothing returned. Each is safe to run twice."""

from datetime import UTC, datetime
from typing import TypedDict

from sqlalchemy.exc import OperationalError

from core.billing import credit, fees, invoices, rating, reconcile, rerate
from core.calls import call_partitions
from core.conversation import transcripts
from core.infra import jobs, mail, names
from core.infra.db import get_engine, session_scope
from core.operations import call_archive, retention
from core.reporting import rollups
from core.webhooks import sender
from workers.app import app


class Retry(TypedDict):
    """The retry options of `app.task`, typed so that `**RETRY` matches its signature."""

    autoretry_for: tuple[type[Exception], ...]
    retry_backoff: bool
    max_retries: int


# A lost connection or a deadlock victim: the work was rolled back, so running it again is safe.
RETRY: Retry = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}


@app.task(name=names.RATE_CALL, **RETRY)
def rate_call(*linkedids: str) -> None:
    """Rate calls just hung up (the bridge sends them in batches), each in its own transaction; a
    recorded one is then queued for transcription (its recording was complete at hangup)."""
    for linkedid in linkedids:
        with session_scope() as session:
            call = rating.rate_hangup(session, linkedid)
        if call is not None and call.recording:
            transcribe_call.delay(linkedid)


# A long call's transcription takes minutes: well over the default limit, under the visibility timeout.
TRANSCRIBE_LIMIT = jobs.VISIBILITY_TIMEOUT - 60


@app.task(
    name=names.TRANSCRIBE_CALL,
    autoretry_for=(OperationalError, transcripts.AudioAway),
    retry_backoff=True,
    max_retries=5,
    time_limit=TRANSCRIBE_LIMIT,
    soft_time_limit=TRANSCRIBE_LIMIT - 30,
)
def transcribe_call(linkedid: str) -> None:
    """Each leg of a recorded call transcribed, then its campaign's keyword rules (docs/conversation.md)."""
    transcripts.transcribe_call(linkedid)


@app.task(
    name=names.REAPPLY_RULES, **RETRY, time_limit=TRANSCRIBE_LIMIT, soft_time_limit=TRANSCRIBE_LIMIT - 30
)
def reapply_rules(campaign_id: int) -> None:
    """A campaign's keyword rules applied again to its calls already transcribed."""
    transcripts.reapply(campaign_id)


@app.task(name=names.SEND_MAIL, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_mail(to: str, subject: str, body: str) -> None:
    mail.send(to, subject, body)


@app.task(name=names.RATE_PENDING, **RETRY)
def rate_pending(batch: int = rating.BATCH) -> None:
    """The calls the bridge's batch did not rate (lost, or their row came late); a recorded one
    rated here is queued for transcription as at hangup."""
    recorded = transcripts.recorded_unrated()
    rating.rate_pending(batch=batch)
    for linkedid in transcripts.rated_among(recorded):
        transcribe_call.delay(linkedid)


@app.task(name=names.RELEASE_EXPIRED, **RETRY)
def release_expired() -> None:
    with session_scope() as session:
        credit.release_expired(session)


@app.task(name=names.NUMBER_FEES, **RETRY)
def number_fees() -> None:
    fees.charge_due(datetime.now(UTC))


@app.task(name=names.INVOICES, **RETRY)
def monthly_invoices() -> None:
    invoices.generate_due(datetime.now(UTC))


@app.task(name=names.RECONCILE, **RETRY)
def nightly_reconcile() -> None:
    reconcile.reconcile(datetime.now(UTC))


@app.task(name=names.PURGE_CHANNEL_EVENTS, **RETRY)
def purge_channel_events() -> None:
    retention.purge_channel_events(datetime.now(UTC))


@app.task(name=names.CALL_MONTHS, **RETRY)
def call_months() -> None:
    """The call table's partitions for this month and the next ones (docs/reports.md)."""
    with get_engine().begin() as conn:
        call_partitions.ensure_months(conn, datetime.now(UTC))


@app.task(name=names.ARCHIVE_CALLS, **RETRY)
def archive_calls() -> None:
    """Months of calls past CALL_RETENTION_MONTHS to files, then out of the database."""
    call_archive.archive_old_months(datetime.now(UTC))


@app.task(name=names.REBUILD_ROLLUPS, **RETRY)
def rebuild_rollups() -> None:
    """The dashboard's rollups summed again from the call rows (docs/reports.md)."""
    with session_scope() as session:
        rollups.rebuild(session)


@app.task(name=names.RERATE, **RETRY)
def rerate_period(start: str, end: str, tariff_id: int | None = None, user_id: int | None = None) -> None:
    """Run by an operator after a rate change (docs/billing.md shows the command)."""
    rerate.rerate_period(datetime.fromisoformat(start), datetime.fromisoformat(end), tariff_id, user_id)


# A retry further off than this waits for the periodic sweep: a Redis broker redelivers a message
# held longer than its visibility timeout (core.infra.jobs), so long countdowns would run twice.
LONGEST_COUNTDOWN = 300


@app.task(name=names.WEBHOOK_SEND, **RETRY)
def send_webhooks() -> None:
    """Send the call-event deliveries that are due (docs/webhooks.md); woken by each new event, by
    a failed try's retry time, and by the periodic sweep."""
    with sender.client() as client:
        done = sender.send_due(client)
    if done.more:
        send_webhooks.delay()
    elif done.retry_in is not None and done.retry_in <= LONGEST_COUNTDOWN:
        send_webhooks.apply_async(countdown=done.retry_in)
