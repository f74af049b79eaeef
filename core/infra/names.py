"""Every name one process uses to find what another wrote, spelled once: Redis keys, pub/sub
channels, Celery task names, and the names the bridge and Asterisk's dialplan share.

A typo on one side of such a name fails silently (a key nobody reads, a message nobody hears), so
no module spells one itself. Changing a value here changes it for every process: deploy them
together.
"""

# --- Redis keys -------------------------------------------------------------------------------
# Live calls (the bridge writes them, the API and the routing engine read them; layout in core.calls.live).
LIVE_CALLS = "live:calls"  # set: the linkedid of every live call


def live_call_key(linkedid: str) -> str:
    """The live call, as JSON (core.calls.record.CallState.live)."""
    return f"live:call:{linkedid}"


def live_user_key(user_id: int) -> str:
    """Set: the customer's live calls."""
    return f"live:user:{user_id}"


def live_buyer_key(buyer_id: int) -> str:
    """Set: the buyer's live calls."""
    return f"live:buyer:{buyer_id}"


def live_target_key(target_id: int) -> str:
    """Set: the calls ringing or connected at the target (its concurrency cap)."""
    return f"live:target:{target_id}"


def live_trunk_key(trunk_id: int) -> str:
    """Set: the calls dialling out or connected through the trunk (its channel limit)."""
    return f"live:trunk:{trunk_id}"


def cap_count_key(target_id: int, label: str, start: str) -> str:
    """Calls connected to (or being dialled at) the target in the period of its `label` cap that
    began at `start`: what every node's bridge claims a slot of, atomically (pbx_bridge.live_store)."""
    return f"caps:target:{target_id}:{label}:{start}"


def duplicate_key(campaign_id: int, caller: str) -> str:
    """The call of `caller` being dialled (or connected, for the campaign's window) in a campaign
    that rejects repeat callers: held by one call at a time across every node."""
    return f"dup:campaign:{campaign_id}:{caller}"


def buyer_reached_key(campaign_id: int, caller: str, buyer_id: int) -> str:
    """The call of `caller` dialling (or connected to, for the campaign's window) a buyer in a campaign
    that sends repeat callers to other buyers only: held by one call at a time across every node."""
    return f"dup:campaign:{campaign_id}:{caller}:buyer:{buyer_id}"


def node_key(node_id: str) -> str:
    """A node (Asterisk + bridge) that is up: its Asterisk's ARI address, for as long as it beats
    (core.pbx.node_registry)."""
    return f"node:{node_id}"


# Each outbound trunk's reachability (the bridge writes it from Asterisk's qualify, the trunk list reads).
TRUNK_STATUS_PREFIX = "trunk:status:"


def trunk_status_key(trunk_id: int) -> str:
    return f"{TRUNK_STATUS_PREFIX}{trunk_id}"


# Why Asterisk did not take a trunk the bridge pushed (a host that does not resolve, ...), while
# the bridge keeps trying; the trunk list shows it as the trunk's status.
def trunk_failure_key(trunk_id: int) -> str:
    return f"trunk:failure:{trunk_id}"


# Website number swapping (core.calls.visits, docs/attribution.md): visitors' sessions and who held
# which pool number when. DNI_PREFIX leads every such key, and the scripts build the per-number and
# per-session keys from it in Redis (one round trip).
DNI_PREFIX = "dni:"


def dni_session_key(session_id: str) -> str:
    """A visitor's session (JSON, core.calls.visits.VisitorSession); its pages: `+ ':pages'`."""
    return f"{DNI_PREFIX}s:{session_id}"


def dni_visitor_key(campaign_id: int, visitor_id: str) -> str:
    """The session a visitor holds in a campaign's pool, while it is active."""
    return f"{DNI_PREFIX}v:{campaign_id}:{visitor_id}"


def dni_holders_key(number: str) -> str:
    """Sorted set: the sessions that held a pool number recently, by their last activity (ms)."""
    return f"{DNI_PREFIX}n:{number}"


def dni_pool_key(campaign_id: int) -> str:
    """Sorted set: a pool's numbers by their last activity (ms); `+ ':active'` its sessions by
    theirs, `+ ':stats'` a hash of its counters (sessions, reused, peak)."""
    return f"{DNI_PREFIX}p:{campaign_id}"


def dni_limit_key(scope: str, who: str, window: int) -> str:
    """Requests to the public DNI endpoints counted per client address or per key and window."""
    return f"{DNI_PREFIX}rl:{scope}:{who}:{window}"


# --- Redis pub/sub channels (always through core.infra.redis_client.pubsub_channel) -----------------------
PASSWORD_RESET_PREFIX = "pwreset:"  # + SHA-256 of a reset token -> user id, for an hour, used once
PASSWORD_RESET_SENT_PREFIX = "pwreset:sent:"  # + user id: one mail per user per few minutes
SIGNUP_ATTEMPTS_PREFIX = "signup-attempts:"  # + client address: sign-ups counted over a window
SIGNUP_PENDING_PREFIX = "signup:"  # + SHA-256 of a mailed sign-up token -> the account to create
SIGNUP_MAIL_SENT_PREFIX = "signup:sent:"  # + email: one sign-up mail per address per few minutes
BUYER_NOTICE_SENT_PREFIX = "buyer-notice:sent:"  # + email: one "added as a buyer" notice an hour

LIVE_EVENTS = "live:events"  # every live-call change, from the bridge to the API's live feeds
TRUNK_CHANGES = "pbx:trunk-changed"  # API -> bridge: a trunk's id, to push into Asterisk again
HANGUP_REQUESTS = "pbx:hangup"  # API -> bridge: {"linkedid", "by"}: hang up a live call

# --- Celery task names (core.infra.jobs enqueues them, workers.tasks runs them) -------------------------
# The queue every task goes to: a Redis list of that name (and one per priority, the name followed by
# CELERY_PRIORITY_SEPARATOR and the priority, for messages sent with one), kombu's layout.
CELERY_QUEUE = "celery"
CELERY_PRIORITY_SEPARATOR = "\x06\x16"
RATE_CALL = "billing.rate_call"  # (*linkedids): the bridge, once the rows are written at hangup
RATE_PENDING = "billing.rate_pending"
RELEASE_EXPIRED = "billing.release_expired"
NUMBER_FEES = "billing.number_fees"
INVOICES = "billing.invoices"
RECONCILE = "billing.reconcile"
RERATE = "billing.rerate"
PURGE_CHANNEL_EVENTS = "maintenance.purge_channel_events"
REBUILD_ROLLUPS = "reports.rebuild_rollups"  # nightly: the dashboard's rollups summed again
CALL_MONTHS = "maintenance.call_months"  # daily: the call table's coming monthly partitions
ARCHIVE_CALLS = "maintenance.archive_calls"  # daily: months past CALL_RETENTION_MONTHS to files
SEND_MAIL = "mail.send"  # (to, subject, body): the API, e.g. a password reset link
WEBHOOK_SEND = "webhooks.send"  # (): send the call-event deliveries that are due (core.webhooks)
# Transcription has a queue and a worker of its own (slow, CPU-bound): it never delays rating or routing.
TRANSCRIBE_QUEUE = "transcribe"
TRANSCRIBE_CALL = "conversation.transcribe_call"  # (linkedid): rating, once a recorded call is rated
REAPPLY_RULES = "conversation.reapply_rules"  # (campaign_id): the API, when asked to judge past calls again

# --- PostgreSQL advisory locks (first key of the pair; the second says what is locked) -----------
# the dashboard's rollups (core/reporting/rollups.py): n the n-th UTC day since 1970
ROLLUP_LOCK = 24

# --- Asterisk's dialplan (rendered into asterisk_config/templates/extensions.conf) ---------------
# Where admitted calls are dialled, where a call whose credit ran out hears goodbye, and where a call
# the platform will not connect hears why as early media and is released (docs/routing.md).
DIAL_CONTEXT, GOODBYE_CONTEXT, REFUSE_CONTEXT = "callroute-dial", "callroute-goodbye", "callroute-refuse"
# What Dial runs on the target's leg as it answers: it tells the bridge, and records when asked to.
ANSWER_ROUTINE, RECORDED_ANSWER = "callroute-answered", "callroute-recorded"
# Where Asterisk plays campaigns' whispers from (its own path), one file per content hash.
WHISPER_SOUNDS = "/usr/share/asterisk/sounds/callroute-whisper"
# The AMI user events the dialplan raises for a call it dials (UserEvent header).
ATTEMPT_EVENT, ANSWERED_EVENT, END_EVENT = "CallrouteAttempt", "CallrouteAnswered", "CallrouteEnd"
# Behind Kamailio: the header it adds when another node can take a call, and the Q.850 cause (42,
# switch congestion: SIP 503 with no early media) a node whose bridge is away then refuses it with,
# for Kamailio to send it on; such a call is the next node's, so it gets no row here (pbx_bridge.cel).
ELSEWHERE_HEADER, ELSEWHERE_CAUSE = "X-CR-Elsewhere", 42
# How long the dialplan waits, before ringing a failover target, for the bridge to claim its caps.
FAILOVER_WAIT_SECONDS = 2


def recording_name(linkedid: str) -> str:
    """A recorded call's file as the dialplan writes it and ARI serves it (`/recordings/stored/…`)."""
    return f"call-{linkedid}"


def leg_recording_name(linkedid: str, leg: str) -> str:
    """One side of a recorded call alone (`leg`: core.values.enums.Leg), beside the mixed file: what
    the transcription worker hears, one speaker per file."""
    return f"{recording_name(linkedid)}-{leg}"
