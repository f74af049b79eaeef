"""The bridge's metrics (served by core.infra.metrics on BRIDGE_METRICS_PORT): its calls, its routing
decisions, its connections to Asterisk and how far the live view trails the calls."""

from prometheus_client import Counter, Gauge, Histogram

from core.infra.metrics import PREFIX

CALLS_IN_PROGRESS = Gauge(f"{PREFIX}calls_in_progress", "Calls this bridge is following now")
CALLS = Counter(
    f"{PREFIX}calls",
    "Calls whose final row was written (by their flow or the reconciliation)",
    ["disposition"],
)
ROUTING_DECISION = Histogram(
    f"{PREFIX}routing_decision_seconds",
    "Time to decide a call's admission or targets (one database session)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
ARI_CONNECTED = Gauge(f"{PREFIX}ari_connected", "1 while the bridge is connected to Asterisk's ARI")
ARI_RECONNECTS = Counter(f"{PREFIX}ari_reconnects", "ARI connections lost or refused, each retried")
AMI_CONNECTED = Gauge(f"{PREFIX}ami_connected", "1 while the bridge is logged in to Asterisk's AMI")
AMI_RECONNECTS = Counter(f"{PREFIX}ami_reconnects", "AMI connections lost or refused, each retried")
LIVE_STORE_LAG = Gauge(
    f"{PREFIX}live_store_lag_seconds",
    "How long the last batch of live-call changes waited until Redis had them (Live Calls' delay)",
)
ATTRIBUTION_MATCH = Histogram(
    f"{PREFIX}attribution_match_seconds",
    "Time to match a call to the website visitor session that held its number (one Redis round trip)",
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05),
)
ROUTED_OFFLINE = Counter(
    f"{PREFIX}routed_offline",
    "Routing decisions made from what was last read, PostgreSQL being away (docs/scale.md)",
)
JOURNAL_BYTES = Gauge(
    f"{PREFIX}outage_journal_bytes",
    "Bytes of call rows and credit holds waiting in the outage journal for PostgreSQL to return",
)
