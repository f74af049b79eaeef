"""A small world of rows owned by customer A, for the access matrix.

Every row of A's carries MARK in a text field, so a leak to another tenant shows in the
response body whatever its shape.
"""

import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal

from sqlmodel import select

from core.billing.wallet import post
from core.calls.record import CallState
from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import (
    BlockEntry,
    Call,
    CallTranscript,
    Campaign,
    CampaignTarget,
    Country,
    Invoice,
    KeywordRule,
    Notification,
    Number,
    NumberUploadBatch,
    Rate,
    ReportView,
    Target,
    Tariff,
    TrafficSource,
    Trunk,
    User,
    Vendor,
    Webhook,
    WebhookDelivery,
)
from core.values.enums import TransactionType
from testkit.actors import Actor, make_actor
from testkit.databases import reset_state

MARK = "alicemark"


@dataclass
class World:
    admin: Actor
    a: Actor
    b: Actor
    buyer: Actor
    ids: dict[str, int] = field(default_factory=dict)

    def actor(self, name: str) -> Actor:
        return {"admin": self.admin, "a": self.a, "b": self.b, "buyer": self.buyer}[name]


def build_world() -> World:
    reset_state()
    admin = make_actor(1, "Ada Admin")
    a = make_actor(2, "Alice Customer")
    b = make_actor(2, "Bob Customer")
    buyer = make_actor(3, "Bea Buyer", owner=a)
    w = World(admin, a, b, buyer)
    call_linkedid = "1700000000.1"
    with session_scope() as s:
        gb = s.exec(select(Country).where(Country.iso2 == "GB")).one()
        vendor = Vendor(name=f"{MARK} vendor")
        tariff = Tariff(name=f"{MARK} tariff")
        out = Trunk(name="out-1", direction="outbound", host="sip.example.net", secret=f"{MARK}-secret")
        inbound = Trunk(name="in-1", direction="inbound", host="carrier.example.net")
        s.add_all([vendor, tariff, out, inbound])
        s.flush()
        s.get(User, a.id).tariff_id = tariff.id  # type: ignore[union-attr]
        rate = Rate(
            tariff_id=tariff.id,
            prefix="44",
            rate_per_minute=Decimal("0.05"),
            effective_from=datetime(2026, 1, 1, tzinfo=UTC),
        )
        campaign = Campaign(user_id=a.id, name=f"{MARK} campaign")
        source = TrafficSource(user_id=a.id, name=f"{MARK} source", utm_source=MARK)
        s.add_all([rate, campaign, source])
        s.flush()
        target = Target(
            user_id=a.id,
            buyer_id=buyer.buyer_id,
            name=f"{MARK} target",
            destination="+14155550100",
            trunk_id=out.id,
        )
        s.add(target)
        s.flush()
        link = CampaignTarget(user_id=a.id, campaign_id=campaign.id, target_id=target.id)
        number = Number(
            number="+442071838750",
            country_id=gb.id,
            vendor_id=vendor.id,
            user_id=a.id,
            campaign_id=campaign.id,
            source_id=source.id,
        )
        pool = Number(number="+442071838751", country_id=gb.id, vendor_id=vendor.id)
        batch = NumberUploadBatch(uploaded_by=admin.id, filename=f"{MARK}.csv")
        block = BlockEntry(user_id=a.id, pattern="+447911123456", reason=f"{MARK} block")
        invoice = Invoice(
            user_id=a.id, number=f"INV-{MARK}", period_start=date(2026, 10, 1), period_end=date(2026, 10, 31)
        )
        note = Notification(user_id=a.id, text=f"{MARK} notice")
        call = Call(
            linkedid="1700000000.1",
            user_id=a.id,
            campaign_id=campaign.id,
            source_id=source.id,
            did=number.number,
            caller="+447911000111",
            target_id=target.id,
            buyer_id=buyer.buyer_id,
            started_at=datetime.now(UTC),
            disposition="ANSWERED",
            trail=[{"note": MARK}],
            recording="call-1700000000.1",
        )
        hook = Webhook(user_id=a.id, campaign_id=campaign.id, url=f"https://{MARK}.example.com", secret=MARK)
        view = ReportView(user_id=a.id, name=f"{MARK} view", filters={"caller_number": MARK})
        s.add_all([link, number, pool, batch, block, invoice, note, call, hook, view])
        s.flush()
        now = datetime.now(UTC)
        delivery = WebhookDelivery(
            webhook_id=hook.id, linkedid=call.linkedid, event="rated", next_attempt_at=now, retry_until=now
        )
        s.add(delivery)
        rule = KeywordRule(
            campaign_id=campaign.id,
            name=f"{MARK} rule",
            phrases=[MARK],
            side="either",
            effect="tag",
            tag=MARK,
        )
        said = CallTranscript(
            call_id=call.id,
            leg="caller",
            engine="test",
            words=[{"w": MARK, "s": 1.0, "e": 1.5, "c": 1.0}],
            text=MARK,
        )
        s.add_all([rule, said])
        s.flush()
        post(
            s,
            user_id=a.id,
            kind=TransactionType.TOPUP,
            amount=Decimal(100),
            reference=f"{MARK}-1",
            description=f"{MARK} top-up",
        )
        w.ids = {
            "vendor": vendor.id,
            "tariff": tariff.id,
            "trunk": out.id,
            "inbound_trunk": inbound.id,
            "rate": rate.id,
            "campaign": campaign.id,
            "source": source.id,
            "target": target.id,
            "number": number.id,
            "pool_number": pool.id,
            "batch": batch.id,
            "block": block.id,
            "invoice": invoice.id,
            "notification": note.id,
            "call": call.id,
            "country": gb.id,
            "webhook": hook.id,
            "delivery": delivery.id,
            "report_view": view.id,
            "keyword_rule": rule.id,
        }
    client = get_redis()
    live = CallState(call_linkedid, number.number, MARK, datetime.now(UTC), user_id=a.id)
    live.buyer_id = buyer.buyer_id
    client.set(names.live_call_key(call_linkedid), json.dumps(live.live()))  # as the bridge writes it
    client.sadd(names.LIVE_CALLS, call_linkedid)
    return w
