"""Password-check and sign-up throttling in Redis, after OWASP's credential-stuffing guidance
(docs/api.md, "Auth").

A password check (a sign-in, or the current password of a password change) is counted before it
is made: one MULTI of INCRs, then the counts are compared with the limits, so 40 parallel guesses
get at most the limit of real checks. Counters, each over a window that starts at its first attempt:

- the account *at this address*: a guesser is locked out of the account where it guesses;
- the address, across accounts: one address trying many accounts;
- the account from anywhere, which applies only to addresses the account has not signed in from
  lately: a distributed guesser is stopped, and the owner from a known-good address still gets in.

Only failed checks stay counted: a refusal (429) gives its attempt back, since no password was
checked (otherwise guessing on one account would lock every account out of that address), and a
right password gives its attempt back and clears its account-and-address counter. Sign-ups are
counted per address the same way, successful or not, and a refused one gives its count back.
The address is portal_api.client_address's.
"""

from core.infra import names
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.values.errors import DomainError, ErrorId

# An address the account signed in from within this time is known-good.
KNOWN_FOR_SECONDS = 30 * 24 * 3600

# DECR only a counter that still exists: one that expired must not come back without its expiry.
_GIVE_BACK = (
    "for _, key in ipairs(KEYS) do if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end end"
)


def _pair(email: str, ip: str) -> str:
    return f"login-attempts:pair:{email}:{ip}"


def _account(email: str) -> str:
    return f"login-attempts:account:{email}"


def _address(ip: str) -> str:
    return f"login-attempts:address:{ip}"


def _known(email: str) -> str:
    return f"login-known:{email}"


SIGN_IN = "Too many failed sign-in attempts."
PASSWORD_CHECK = "Too many wrong passwords."


def attempt(email: str, ip: str, what: str = SIGN_IN) -> None:
    """Count a password check about to be made; raise 429 (with Retry-After, and the attempt
    given back) when it is past a limit."""
    settings = get_settings()
    window = settings.login_window_seconds
    counters = [_pair(email, ip), _address(ip), _account(email)]
    pipe = get_redis().pipeline(transaction=True)
    for key in counters:
        # SET NX starts the window on the first attempt (EXPIRE NX needs Redis 7; embedded is 6.2).
        pipe.set(key, 0, ex=window, nx=True)
        pipe.incr(key)
    pipe.sismember(_known(email), ip)
    replies = pipe.execute()
    pair, address, account, known = int(replies[1]), int(replies[3]), int(replies[5]), bool(replies[6])
    per_account = settings.login_max_failures_per_account
    over = (
        (pair > per_account, counters[0]),
        (address > settings.login_max_failures_per_address, counters[1]),
        (account > per_account and not known, counters[2]),
    )
    for refused, key in over:
        if refused:
            _give_back(*counters)
            _refuse(key, what)


def succeeded(email: str, ip: str) -> None:
    """The password was right: the attempt is given back and the address becomes known-good."""
    redis = get_redis()
    _give_back(_address(ip), _account(email))
    pipe = redis.pipeline(transaction=True)
    pipe.delete(_pair(email, ip))
    pipe.sadd(_known(email), ip)
    pipe.expire(_known(email), KNOWN_FOR_SECONDS)
    pipe.execute()


def signup(ip: str) -> None:
    """Count a sign-up from this address (before anything is checked); 429 past the limit."""
    settings = get_settings()
    key = names.SIGNUP_ATTEMPTS_PREFIX + ip
    pipe = get_redis().pipeline(transaction=True)
    pipe.set(key, 0, ex=settings.signup_window_seconds, nx=True)
    pipe.incr(key)
    if int(pipe.execute()[1]) > settings.signup_max_per_address:
        _give_back(key)
        _refuse(key, "Too many sign-ups from this address.")


def _give_back(*keys: str) -> None:
    get_redis().eval(_GIVE_BACK, len(keys), *keys)


def _refuse(key: str, what: str) -> None:
    wait = max(1, int(get_redis().ttl(key)))
    minutes = (wait + 59) // 60
    unit = "minute" if minutes == 1 else "minutes"
    raise DomainError(ErrorId.AUTH_THROTTLED, f"{what} Try again in {minutes} {unit}.", retry_after=wait)
