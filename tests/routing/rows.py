"""Rows a person would create before a call routes (customer, campaign, number, buyers, targets,
links, trunks, earlier calls), written straight to the database, and shortcuts to route a call."""

import itertools
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TypeVar

from sqlmodel import Session, SQLModel, select

from core.billing.wallet import post
from core.db import get_engine, session_scope
from core.enums import Disposition, TransactionType
from core.models import Buyer, Call, Campaign, CampaignTarget, Number, Target, Trunk, User
from core.routing import Admission, LiveCounts, Selection, admit, select_targets

M = TypeVar("M", bound=SQLModel)

NOW = datetime(2026, 3, 4, 15, 0, tzinfo=UTC)  # a Wednesday
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


def customer(name: str = "Alice Customer", balance: str = "100", **fields: Any) -> User:
    email = f"{name.lower().replace(' ', '.')}@example.com"
    user = save(User(email=email, password_hash="unused", name=name, role=2, **fields))
    if Decimal(balance):
        top_up(user.id or 0, balance)
    return user


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
    user = user or customer()
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


def call(
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
