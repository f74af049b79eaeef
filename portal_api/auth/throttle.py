"""Failed sign-ins counted in Redis, per account and per address; too many answer 429."""

from core.redis_client import get_redis
from core.settings import get_settings
from portal_api.errors import ApiError


def _keys(email: str, ip: str) -> list[tuple[str, int]]:
    s = get_settings()
    return [
        (f"login-fail:account:{email}", s.login_max_failures_per_account),
        (f"login-fail:address:{ip}", s.login_max_failures_per_address),
    ]


def check(email: str, ip: str) -> None:
    """Raise 429 while either counter is at its limit."""
    redis = get_redis()
    for key, limit in _keys(email, ip):
        count = redis.get(key)
        if count is not None and int(count) >= limit:
            wait = max(1, int(redis.ttl(key)))
            minutes = (wait + 59) // 60
            unit = "minute" if minutes == 1 else "minutes"
            raise ApiError(
                429,
                f"Too many failed sign-in attempts. Try again in {minutes} {unit}.",
                headers={"Retry-After": str(wait)},
            )


def record_failure(email: str, ip: str) -> None:
    redis = get_redis()
    window = get_settings().login_window_seconds
    pipe = redis.pipeline()
    for key, _ in _keys(email, ip):
        # SET NX starts the window on the first failure (EXPIRE NX needs Redis 7; embedded is 6.2).
        pipe.set(key, 0, ex=window, nx=True)
        pipe.incr(key)
    pipe.execute()


def record_success(email: str) -> None:
    get_redis().delete(f"login-fail:account:{email}")
