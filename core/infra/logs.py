"""How every process writes its log: JSON lines (LOG_FORMAT=json, production's default) or text, on
stderr, each line about a call carrying the call's linkedid.

The linkedid travels in a context variable: the bridge sets it in a call's task (`about_call`), and
everything that task logs, or a thread it hands work to (asyncio.to_thread copies the context),
says which call it was about without each message spelling it.
"""

import contextlib
import contextvars
import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import orjson

from core.infra.settings import get_settings

linkedid: contextvars.ContextVar[str | None] = contextvars.ContextVar("linkedid", default=None)

TEXT_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s%(call)s"
_OURS = "callroute"  # the name of the handler `configure` puts on the root logger


@contextlib.contextmanager
def about_call(call: str) -> Iterator[None]:
    """Lines logged inside are about call `call` (for the few written outside its task)."""
    token = linkedid.set(call)
    try:
        yield
    finally:
        linkedid.reset(token)


class _CallField(logging.Filter):
    """Puts the current call's linkedid on the record (`linkedid`, and ` [call X]` for text)."""

    def filter(self, record: logging.LogRecord) -> bool:
        call = linkedid.get()
        record.linkedid = call
        record.call = f" [call {call}]" if call else ""
        return True


# A token in a query string (`?token=…`, `&access_token=…`) and any of the portal's own tokens
# (`cr_` and 43 URL-safe characters) wherever it appears: uvicorn logs a WebSocket's path with its
# query string, and a line quoting a URL or a header would carry one the same way.
_SECRETS = re.compile(r"(?i)((?:\b|_)token=)[^&\s\"'#]+|\bcr_[A-Za-z0-9_-]{20,}")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """`text` with every token in it replaced by [redacted]."""
    return _SECRETS.sub(lambda m: (m.group(1) or "") + REDACTED, text)


class _Redact(logging.Filter):
    """Rewrites a record whose message holds a token (docs/security.md, "Tokens never logged")."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the call's linkedid
    when the line is about one, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if call := getattr(record, "linkedid", None):
            line["linkedid"] = call
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def handler() -> logging.Handler:
    """A stderr handler in the configured format (for loggers that keep handlers of their own)."""
    out = logging.StreamHandler()
    out.addFilter(_Redact())
    out.addFilter(_CallField())
    as_json = get_settings().logs_as_json
    out.setFormatter(JsonFormatter() if as_json else logging.Formatter(TEXT_FORMAT))
    return out


def configure(level: int | str = logging.INFO, *, loggers: tuple[str, ...] = ()) -> None:
    """The root logger (and `loggers`, which a server set up with handlers of their own, such as
    uvicorn's) write through one handler in the configured format. Handlers others put on the
    root (a test runner's) stay; one this function put there before is replaced."""
    shared = handler()
    shared.set_name(_OURS)
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _OURS]:
        root.removeHandler(old)
    root.addHandler(shared)
    root.setLevel(level)
    # httpx logs every request it sends at INFO (the bridge's and the portal's to ARI): noise.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    for name in loggers:
        logger = logging.getLogger(name)
        logger.handlers[:] = [shared]
        logger.propagate = False
