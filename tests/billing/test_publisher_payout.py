"""Publisher payout and profit (issue 33, docs/billing.md): exact to 4 places against plain Decimal
arithmetic here, by both rating paths, and again after re-rating with the source's terms changed."""

from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select

from core.billing.rating import rate_call, rate_pending
from core.billing.rerate import rerate_period
from core.infra.db import session_scope
from core.models import Call, CallRollup, TrafficSource
from testkit.rows import MAR, call, campaign_with_target, change, customer_id, get, rate, save, tariff

PAYOUT = "2.0005"  # the target's payout per converted call
BUFFER = 60


def owed_share(payout: str, percent: str) -> Decimal:
    """The share by hand: rounded half up (half even would give 1.0002 for 50 % of 2.0005)."""
    return (Decimal(payout) * Decimal(percent) / Decimal(100)).quantize(Decimal("0.0001"), ROUND_HALF_UP)


def source(user_id: int, name: str, kind: str, amount: str = "0", share: str = "0") -> int:
    row = TrafficSource(
        user_id=user_id,
        name=name,
        payout_kind=kind,
        payout_amount=Decimal(amount),
        payout_share=Decimal(share),
    )
    return save(row).id or 0


def calls_of(user_id: int, campaign: int, target: int, sources: dict[str, int | None]) -> dict[str, int]:
    """Per source: a converted call (90 s talk against a 60 s buffer) and one short of the buffer."""
    made = {}
    for name, source_id in sources.items():
        for converted, talk in (("converted", 90), ("short", 30)):
            made[f"{name} {converted}"] = call(
                user_id, 90, campaign_id=campaign, target_id=target, source_id=source_id, talk_seconds=talk
            )
    return made


def money(call_id: int) -> tuple[Decimal | None, Decimal, Decimal, Decimal | None]:
    row = get(Call, call_id)
    return row.cost, row.payout, row.publisher_payout, row.profit


def expected(per_minute: str, fixed: str, share: str) -> dict[str, tuple[Decimal, Decimal, Decimal, Decimal]]:
    """(cost, payout, publisher payout, profit) of each call, by hand: 90 s at 60/60 is 2 minutes."""
    cost = Decimal(per_minute) * 2
    payout = Decimal(PAYOUT)
    owed = {"fixed": Decimal(fixed), "share": owed_share(PAYOUT, share), "none": Decimal(0)}
    want = {}
    for name, publisher in owed.items():
        want[f"{name} converted"] = (cost, payout, publisher, payout - cost - publisher)
        want[f"{name} short"] = (cost, Decimal(0), Decimal(0), -cost)
    return want


def test_both_rating_paths_compute_publisher_payout_and_profit_exactly() -> None:
    for single in (True, False):
        alice = customer_id("100", tariff(("44", "0.1234")))
        campaign, target = campaign_with_target(alice, buffer_seconds=BUFFER, payout=PAYOUT)
        sources = {
            "fixed": source(alice, "Publisher", "fixed", amount="1.2345"),
            "share": source(alice, "Affiliate", "share", share="50"),
            "none": None,
        }
        made = calls_of(alice, campaign, target, sources)
        if single:
            for call_id in made.values():
                with session_scope() as s:
                    rate_call(s, call_id)
        else:
            rate_pending()
        want = expected("0.1234", "1.2345", "50")
        assert {name: money(c) for name, c in made.items()} == want, "single" if single else "batch"
        assert want["share converted"][2] == Decimal("1.0003")


def test_re_rating_follows_the_sources_new_terms_and_the_rollups_sum_them() -> None:
    t = tariff(("44", "0.1000"))
    alice = customer_id("100", t)
    campaign, target = campaign_with_target(alice, buffer_seconds=BUFFER, payout=PAYOUT)
    fixed = source(alice, "Radio", "fixed", amount="0.5000")
    share = source(alice, "Partner", "share", share="12.5")
    made = calls_of(alice, campaign, target, {"fixed": fixed, "share": share, "none": None})
    rate_pending()
    assert {name: money(c) for name, c in made.items()} == expected("0.1000", "0.5000", "12.5")

    change(TrafficSource, fixed, payout_amount=Decimal("0.7777"))
    change(TrafficSource, share, payout_share=Decimal("33.3333"))
    rate(t, "44", "0.0900", effective_from=MAR.replace(month=1, day=2))  # a corrected price too
    rerate_period(MAR.replace(day=1), MAR.replace(day=28), user_id=alice)
    want = expected("0.0900", "0.7777", "33.3333")
    assert {name: money(c) for name, c in made.items()} == want
    assert rerate_period(MAR.replace(day=1), MAR.replace(day=28), user_id=alice).adjusted == 0

    with session_scope() as s:
        rolled = s.execute(
            select(func.sum(CallRollup.publisher_payout), func.sum(CallRollup.profit)).where(
                CallRollup.user_id == alice
            )
        ).one()
    assert tuple(rolled) == (sum(w[2] for w in want.values()), sum(w[3] for w in want.values()))
