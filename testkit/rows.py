"""Rows written straight to the database, as a person (or the bridge) would have made them:
customers and their wallets, campaigns, numbers, buyers, targets, links, trunks, tariffs and rates,
calls; read-backs of what a customer would see (balance, ledger, notices); shortcuts to route a call.
"""

import itertools
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import func
from sqlmodel import Session, SQLModel, select

from core.billing.wallet import post
from core.infra.db import get_engine, session_scope
from core.models import (
    Buyer,
    Call,
    Campaign,
    CampaignTarget,
    Notification,
    Number,
    Rate,
    Target,
    Tariff,
    Trunk,
    User,
    WalletTransaction,
)
from core.routing import Admission, LiveCounts, Selection, admit, select_targets
from core.routing.customer import read_customer
from core.values.enums import Disposition, Role, TransactionType
from testkit.actors import Actor

M = TypeVar("M", bound=SQLModel)

NOW = datetime(2026, 3, 4, 15, 0, tzinfo=UTC)  # a Wednesday
JAN = datetime(2026, 1, 1, tzinfo=UTC)
MAR = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
DID = "+442071838750"
CALLER = "+447911123456"
_serial = itertools.count(1)


class Live(dict[int, int]):
    """Live calls per target (the dict) and per trunk, as the bridge would count them."""

    def __init__(self, targets: dict[int, int] | None = None, trunks: dict[int, int] | None = None) -> None:
        super().__init__(targets or {})
        self.trunks = trunks or {}

    def target(self, target_id: int) -> int:
        return self.get(target_id, 0)

    def trunk(self, trunk_id: int) -> int:
        return self.trunks.get(trunk_id, 0)


def save(row: M) -> M:
    with session_scope() as s:
        s.add(row)
    return row


def change(model: type[SQLModel], row_id: int, **fields: Any) -> None:
    with session_scope() as s:
        row = s.get(model, row_id)
        assert row is not None
        for name, value in fields.items():
            setattr(row, name, value)
        s.add(row)


def get(model: type[M], row_id: int) -> M:
    with session_scope() as s:
        row = s.get(model, row_id)
        assert row is not None
        return row


def count(model: type[SQLModel], *where: Any) -> int:
    with session_scope() as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def customer(
    balance: str = "0", tariff_id: int | None = None, name: str | None = None, **fields: Any
) -> User:
    """A customer with `balance` in its wallet (a top-up), on tariff `tariff_id` if given."""
    name = name or f"Customer {next(_serial)}"
    email = f"{name.lower().replace(' ', '.')}@example.com"
    user = save(
        User(
            email=email, password_hash="unused", name=name, role=Role.CUSTOMER, tariff_id=tariff_id, **fields
        )
    )
    if Decimal(balance):
        top_up(user.id or 0, balance)
    return user


def customer_id(balance: str = "0", tariff_id: int | None = None, **fields: Any) -> int:
    """`customer`'s id, for tests that only pass customers around."""
    return customer(balance, tariff_id, **fields).id or 0


def admin() -> int:
    n = next(_serial)
    return (
        save(
            User(email=f"admin{n}@example.com", password_hash="unused", name=f"Admin {n}", role=Role.ADMIN)
        ).id
        or 0
    )


def top_up(user_id: int, amount: str) -> None:
    with session_scope() as s:
        post(
            s,
            user_id=user_id,
            kind=TransactionType.TOPUP,
            amount=Decimal(amount),
            reference=f"t{next(_serial)}",
        )


@dataclass
class Line:
    """A customer's tracking number routed to one of its campaigns."""

    user: User
    campaign: Campaign
    number: Number


def line(user: User | None = None, did: str = DID, **campaign_fields: Any) -> Line:
    user = user or customer("100", name="Alice Customer")
    campaign = save(Campaign(user_id=user.id or 0, name=f"Plumbing leads {next(_serial)}", **campaign_fields))
    number = save(Number(number=did, user_id=user.id, campaign_id=campaign.id))
    return Line(user, campaign, number)


def buyer(user: User, name: str) -> Buyer:
    return save(Buyer(user_id=user.id or 0, name=name))


def desk(
    ln: Line,
    name: str,
    priority: int = 1,
    weight: int = 1,
    owner: Buyer | None = None,
    link_status: str = "active",
    **target_fields: Any,
) -> Target:
    """A target of `owner` (a buyer of its own by default) linked to the line's campaign."""
    owner = owner or buyer(ln.user, f"{name} buyer")
    fields = {"destination": "+14155550100", **target_fields}
    target = save(Target(user_id=ln.user.id or 0, buyer_id=owner.id or 0, name=name, **fields))
    save(
        CampaignTarget(
            user_id=ln.user.id or 0,
            campaign_id=ln.campaign.id or 0,
            target_id=target.id or 0,
            priority=priority,
            weight=weight,
            status=link_status,
        )
    )
    return target


def set_link(ln: Line, target: Target, **fields: Any) -> None:
    with session_scope() as s:
        link = s.exec(
            select(CampaignTarget).where(
                CampaignTarget.campaign_id == ln.campaign.id, CampaignTarget.target_id == target.id
            )
        ).one()
        for name, value in fields.items():
            setattr(link, name, value)
        s.add(link)


def trunk(name: str, direction: str = "outbound", **fields: Any) -> Trunk:
    return save(Trunk(name=name, direction=direction, host=f"{name}.example.net", **fields))


def earlier_call(
    ln: Line,
    target: Target | None,
    started_at: datetime,
    connected: bool = True,
    caller: str = CALLER,
    campaign_id: int | None = None,
) -> Call:
    """An earlier call of the campaign; connected ones reached the target's buyer."""
    return save(
        Call(
            linkedid=f"1700000000.{next(_serial)}",
            user_id=ln.user.id,
            campaign_id=campaign_id or ln.campaign.id,
            number_id=ln.number.id,
            did=ln.number.number,
            caller=caller,
            target_id=target.id if target else None,
            buyer_id=target.buyer_id if target else None,
            started_at=started_at,
            connected_at=started_at if connected else None,
            disposition=(Disposition.ANSWERED if connected else Disposition.NO_ANSWER).value,
        )
    )


def seed_calls(owner: Actor, campaign: str, *calls: dict[str, Any]) -> list[Call]:
    """Calls of `owner`'s campaign, each reaching its target through one trunk."""
    camp = save(Campaign(user_id=owner.id, name=campaign))
    buyer = save(Buyer(user_id=owner.id, name=f"{campaign} buyer"))
    trunk = save(Trunk(name=f"{campaign} trunk", direction="outbound", host="sip.example.net"))
    target = save(
        Target(user_id=owner.id, buyer_id=buyer.id or 0, name=f"{campaign} desk", destination="+14155550100")
    )
    rows = []
    for i, fields in enumerate(calls):
        values = {
            "linkedid": f"{owner.id}.{campaign}.{i}",
            "user_id": owner.id,
            "campaign_id": camp.id,
            "did": "+442071838750",
            "caller": "+447911123456",
            "target_id": target.id,
            "buyer_id": buyer.id,
            "trunk_id": trunk.id,
            "destination": "14155550100",
            "started_at": datetime(2026, 11, 20, 10, 0, tzinfo=UTC),
            "disposition": "ANSWERED",
            "trail": [{"step": "select", "target": target.name, "result": "taken"}],
            **fields,
        }
        rows.append(save(Call(**values)))
    return rows


def admit_call(did: str = DID, caller: str = CALLER, now: datetime = NOW) -> Admission:
    with Session(get_engine()) as s:
        return admit(s, did, caller, now)


def route(
    caller: str = CALLER,
    now: datetime = NOW,
    live: LiveCounts | None = None,
    rng: random.Random | None = None,
    advance_cursor: bool = True,
) -> Selection:
    """Admit and select as the bridge does, committing (the round-robin cursor) like it would."""
    with Session(get_engine(), expire_on_commit=False) as s:
        admission = admit(s, DID, caller, now)
        assert admission.admitted, admission.trail
        selection = select_targets(
            s,
            admission,
            caller,
            now,
            Live() if live is None else live,
            rng=rng,
            advance_cursor=advance_cursor,
        )
        s.commit()
        return selection


def order(selection: Selection) -> list[str]:
    return [c.name for c in selection.candidates]


def target_reasons(selection: Selection) -> dict[str, tuple[str, str]]:
    """Each considered target's (result, reason), by name."""
    return {e["name"]: (e["result"], e["reason"]) for e in selection.trail if e["step"] == "target"}


def tariff(*rates: tuple[str, str], increments: tuple[int, int] = (60, 60), **fields: Any) -> int:
    """A tariff with (prefix, rate per minute) entries in force from January 2026."""
    t = save(Tariff(name=f"Tariff {next(_serial)}"))
    for prefix, per_minute in rates:
        rate(t.id or 0, prefix, per_minute, increments=increments, **fields)
    return t.id or 0


def rate(
    tariff_id: int,
    prefix: str,
    per_minute: str,
    effective_from: datetime = JAN,
    increments: tuple[int, int] = (60, 60),
    **fields: Any,
) -> int:
    row = Rate(
        tariff_id=tariff_id,
        prefix=prefix,
        rate_per_minute=Decimal(per_minute),
        effective_from=effective_from,
        initial_increment=increments[0],
        billing_increment=increments[1],
        **fields,
    )
    return save(row).id or 0


def campaign_with_target(user_id: int, buffer_seconds: int = 60, payout: str = "5") -> tuple[int, int]:
    """(campaign id, target id) of a campaign whose target pays `payout` per converted call."""
    c = save(Campaign(user_id=user_id, name=f"Campaign {next(_serial)}", buffer_seconds=buffer_seconds))
    b = save(Buyer(user_id=user_id, name="Buyer"))
    t = save(
        Target(
            user_id=user_id, buyer_id=b.id, name="Target", destination="+14155550100", payout=Decimal(payout)
        )
    )
    return c.id or 0, t.id or 0


def call(
    user_id: int | None,
    billsec: int,
    destination: str | None = "+447911123456",
    started_at: datetime = MAR,
    **fields: Any,
) -> int:
    """An ended call as the bridge writes it at hangup (talk time = billsec unless given)."""
    answered = billsec > 0
    fields.setdefault("talk_seconds", billsec)
    if answered:
        fields.setdefault("connected_at", started_at + timedelta(seconds=5))
    row = Call(
        linkedid=f"{1700000000 + next(_serial)}.1",
        user_id=user_id,
        did="+442071838750",
        caller="+447700900123",
        destination=destination,
        started_at=started_at,
        answered_at=started_at + timedelta(seconds=5) if answered else None,
        ended_at=started_at + timedelta(seconds=5 + billsec),
        duration=5 + billsec,
        billsec=billsec,
        disposition=(Disposition.ANSWERED if answered else Disposition.NO_ANSWER).value,
        **fields,
    )
    return save(row).id or 0


def balance(user_id: int) -> Decimal:
    return get(User, user_id).balance


def available(user_id: int) -> Decimal:
    """What a new call may count on, as routing reads it (balance less live holds)."""
    with session_scope() as s:
        found = read_customer(s, user_id, "+447911123456")
        assert found is not None
        return found.available


def ledger(user_id: int | None = None, kind: TransactionType | None = None) -> list[WalletTransaction]:
    stmt = select(WalletTransaction).order_by(WalletTransaction.id)
    if user_id is not None:
        stmt = stmt.where(WalletTransaction.user_id == user_id)
    if kind is not None:
        stmt = stmt.where(WalletTransaction.transaction_type == kind.value)
    with session_scope() as s:
        return list(s.scalars(stmt))


def notices(user_id: int) -> list[str]:
    with session_scope() as s:
        return list(
            s.scalars(
                select(Notification.text).where(Notification.user_id == user_id).order_by(Notification.id)
            )
        )
