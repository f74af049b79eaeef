"""The worker's metrics (served by core.infra.metrics on WORKER_METRICS_PORT from the worker's main
process): what the database and Redis say at each scrape, so they hold whichever process did the
work and survive restarts. The alert rules (deploy/prometheus/alerts.yml) read them.

Each scrape opens one connection of its own (no pool): the prefork pool forks children from this
process, and a pooled connection would be inherited by them.
"""

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import lru_cache

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool

from core.infra import names
from core.infra.metrics import PREFIX
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.values.enums import NumberStatus, RatingStatus, Role

log = logging.getLogger(__name__)

PRIORITY_STEPS = (0, 3, 6, 9)  # kombu's Redis transport: a list per step, priority 0 the plain name


@lru_cache
def _engine() -> Engine:
    return create_engine(get_settings().sqlalchemy_url, poolclass=NullPool)


class StoreMetrics(Collector):
    def collect(self) -> Iterator[Metric]:
        try:
            yield from self._database()
            yield self._queue()
        except Exception as exc:  # a scrape answers what it can; the logs say why the rest is missing
            log.warning("metrics from the database or Redis not read: %s", exc)

    def _database(self) -> Iterator[Metric]:
        now = datetime.now(UTC)
        with _engine().connect() as db:
            unrated, oldest = db.execute(
                text(
                    "SELECT count(*), min(ended_at) FROM call"
                    " WHERE rating_status = :pending AND ended_at IS NOT NULL"
                ),
                {"pending": RatingStatus.PENDING.value},
            ).one()
            below_zero = db.execute(
                text("SELECT count(*) FROM users WHERE role = :customer AND balance < 0"),
                {"customer": Role.CUSTOMER.value},
            ).scalar_one()
            active = db.execute(
                text("SELECT count(*) FROM number WHERE status = :active AND campaign_id IS NOT NULL"),
                {"active": NumberStatus.ACTIVE.value},
            ).scalar_one()
            # The newest row by id (the primary key's index), not max(started_at), which reads them all.
            last_call = db.execute(text("SELECT started_at FROM call ORDER BY id DESC LIMIT 1")).scalar()
            postings = db.execute(
                text("SELECT transaction_type, count(*) FROM wallet_transaction GROUP BY transaction_type")
            ).all()
        yield GaugeMetricFamily(f"{PREFIX}calls_unrated", "Ended calls waiting to be rated", value=unrated)
        yield GaugeMetricFamily(
            f"{PREFIX}rating_lag_seconds",
            "How long the oldest ended call has waited to be rated (0 when none waits)",
            value=(now - oldest).total_seconds() if oldest else 0,
        )
        yield GaugeMetricFamily(
            f"{PREFIX}wallets_below_zero", "Customers whose wallet balance is below zero", value=below_zero
        )
        yield GaugeMetricFamily(
            f"{PREFIX}numbers_active", "Active tracking numbers pointed at a campaign", value=active
        )
        if last_call is not None:
            yield GaugeMetricFamily(
                f"{PREFIX}last_call_age_seconds",
                "Seconds since the newest call started",
                value=(now - last_call).total_seconds(),
            )
        ledger = CounterMetricFamily(
            f"{PREFIX}ledger_postings",
            "Rows in the wallet ledger (never updated or deleted), by type",
            labels=["type"],
        )
        for kind, count in postings:
            ledger.add_metric([kind], count)
        yield ledger

    @staticmethod
    def _queue() -> Metric:
        queue = names.CELERY_QUEUE
        lists = [queue, *(f"{queue}{names.CELERY_PRIORITY_SEPARATOR}{step}" for step in PRIORITY_STEPS[1:])]
        pipe = get_redis().pipeline(transaction=False)
        for key in lists:
            pipe.llen(key)
        waiting = sum(pipe.execute())
        return GaugeMetricFamily(
            f"{PREFIX}celery_queue_length", "Tasks waiting in the Celery queue for a worker", value=waiting
        )
