"""Every route of the application, checked for admin, customer A, customer B and A's buyer.

The route list comes from the app's own route table: a new route without an entry here fails
`test_every_route_has_an_entry`, so coverage can't silently drop. Each entry names who may use
the route and how to call it against rows owned by customer A. Customer B (and anyone denied)
must never get a response containing A's marker text.
"""

import json
import secrets
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts

from core.calls.whisper import apply, convert
from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import Campaign, DniSite
from core.values.enums import WhisperMode
from portal_api.app import create_app
from portal_api.auth.tokens import token_hash
from testkit.actors import PASSWORD
from testkit.audio import wav
from testkit.world import MARK, World, build_world

OK, DENIED, FORBIDDEN, CONFLICT, PBX_DOWN = "ok", "denied", "forbidden", "conflict", "pbx down"
ROLES = ("b", "buyer", "a", "admin")  # non-owners first: their refused calls must change nothing

# Who may do what with A's rows.
OWNED = {"admin": OK, "a": OK, "b": DENIED, "buyer": FORBIDDEN}
OWNED_WITH_BUYER = {"admin": OK, "a": OK, "b": DENIED, "buyer": OK}
ADMIN_ONLY = {"admin": OK, "a": FORBIDDEN, "b": FORBIDDEN, "buyer": FORBIDDEN}
CUSTOMERS = {"admin": OK, "a": OK, "b": OK, "buyer": FORBIDDEN}  # each sees its own scope
ANYONE = {"admin": OK, "a": OK, "b": OK, "buyer": OK}
BUYER_ONLY = {"admin": FORBIDDEN, "a": FORBIDDEN, "b": FORBIDDEN, "buyer": OK}
SELF_ONLY = {"admin": DENIED, "a": OK, "b": DENIED, "buyer": DENIED}
# A's campaign's webhook: the buyer (whose scope is its own webhooks) finds it no more than B does.
HOOK_OWNED = {"admin": OK, "a": OK, "b": DENIED, "buyer": DENIED}
NOT_IMPERSONATING = {"admin": CONFLICT, "a": CONFLICT, "b": CONFLICT, "buyer": CONFLICT}

Call = tuple[str, dict[str, Any]]
Builder = Callable[[World, str], Call]


def get(path: str, **params: Any) -> Builder:
    return lambda w, who: (path.format(**w.ids, a=w.a.id, b=w.b.id), {"params": params})


def send(path: str, body: Callable[[World], Any] | None = None) -> Builder:
    return lambda w, who: (path.format(**w.ids, a=w.a.id, b=w.b.id), {"json": body(w) if body else None})


KEYWORD_RULE = {"name": "Booked", "phrases": ["appointment"], "side": "caller", "effect": "convert"}
NEW_USER = {"name": "New Person", "email": "new.person@example.com", "password": "goodpass1"}


def whispered(w: World) -> Call:
    """A's campaign with a whisper on, and the path of its audio."""
    with session_scope() as s:
        campaign = s.get(Campaign, w.ids["campaign"])
        assert campaign is not None
        apply(s, campaign, WhisperMode.RECORDING, convert(wav(seconds=1)), None)
    return f"/api/campaign/whisper/{w.ids['campaign']}/audio", {}


def reset_body(w: World) -> dict[str, str]:
    """A reset token for A, as the mailed link carries it: public, it works for whoever holds it."""
    token = secrets.token_urlsafe(16)
    get_redis().set(f"{names.PASSWORD_RESET_PREFIX}{token_hash(token)}", w.a.id, ex=60)
    return {"token": token, "new_password": "newpass123"}


def signup_body(w: World) -> dict[str, str]:
    """A pending sign-up, as the mailed link carries it: public, it works for whoever holds it."""
    token, n = secrets.token_urlsafe(16), secrets.token_hex(4)
    pending = {"name": "New", "email": f"new.{n}@example.com", "password_hash": "x", "timezone": "UTC"}
    get_redis().set(f"{names.SIGNUP_PENDING_PREFIX}{token_hash(token)}", json.dumps(pending), ex=60)
    return {"token": token}


def script_key(w: World) -> str:
    """A's website script key (public: whoever has A's pages has it)."""
    with session_scope() as s:
        site = s.get(DniSite, w.a.id) or DniSite(
            user_id=w.a.id, script_key=secrets.token_urlsafe(24), origins=["https://shop.example"]
        )
        s.add(site)
        s.commit()
        return site.script_key


def public_dni(action: str) -> Builder:
    """The script's request without the customer's site origin: refused whoever asks."""
    body = '{"visitor_id": "visitor-0001", "pools": [1], "page": "https://shop.example/", "sessions": []}'
    return lambda w, who: (f"/api/dni/{script_key(w)}/{action}", {"content": body})


NOBODY = {"admin": FORBIDDEN, "a": FORBIDDEN, "b": FORBIDDEN, "buyer": FORBIDDEN}

MATRIX: dict[tuple[str, str], tuple[dict[str, str], Builder]] = {
    # Auth and account
    ("POST", "/api/login"): (
        ANYONE,
        send("/api/login", lambda w: {"email": w.a.email, "password": PASSWORD}),
    ),
    ("POST", "/api/logout"): (ANYONE, send("/api/logout")),
    ("POST", "/api/register"): (ANYONE, send("/api/register", lambda w: NEW_USER)),
    ("POST", "/api/register/confirm"): (ANYONE, send("/api/register/confirm", signup_body)),
    ("POST", "/api/forgot-password"): (ANYONE, send("/api/forgot-password", lambda w: {"email": w.a.email})),
    ("POST", "/api/reset-password"): (ANYONE, send("/api/reset-password", reset_body)),
    ("GET", "/api/server-time"): (ANYONE, get("/api/server-time")),
    ("GET", "/api/config"): (ANYONE, get("/api/config")),
    # Live calls without a socket: each caller's own scope, as the WebSocket's snapshot
    ("GET", "/api/live"): (ANYONE, get("/api/live")),
    ("GET", "/api/profile"): (ANYONE, get("/api/profile")),
    ("PUT", "/api/profile"): (ANYONE, send("/api/profile", lambda w: {"name": "Renamed"})),
    ("POST", "/api/change-password"): (
        ANYONE,
        send("/api/change-password", lambda w: {"current_password": PASSWORD, "new_password": "newpass123"}),
    ),
    ("GET", "/api/user/balance/{user_id}"): (OWNED, get("/api/user/balance/{a}")),
    # Users
    ("GET", "/api/user/details"): (ADMIN_ONLY, get("/api/user/details")),
    ("GET", "/api/user/on"): (ADMIN_ONLY, get("/api/user/on")),
    ("POST", "/api/user/add"): (ADMIN_ONLY, send("/api/user/add", lambda w: NEW_USER)),
    ("POST", "/api/user/admin-user"): (ADMIN_ONLY, send("/api/user/admin-user", lambda w: NEW_USER)),
    ("POST", "/api/user/admin/{user_id}"): (ADMIN_ONLY, send("/api/user/admin/{b}")),
    ("GET", "/api/user/wall"): (CUSTOMERS, get("/api/user/wall")),
    ("GET", "/api/user/audit"): (ADMIN_ONLY, get("/api/user/audit")),
    ("GET", "/api/user/id/{id}"): (OWNED, get("/api/user/id/{a}")),
    ("PUT", "/api/user/token/{user_id}"): (ADMIN_ONLY, send("/api/user/token/{a}")),
    ("PATCH", "/api/user/status/{id}"): (
        ADMIN_ONLY,
        send("/api/user/status/{a}", lambda w: {"status": "active"}),
    ),
    ("PUT", "/api/user/{id}"): (ADMIN_ONLY, send("/api/user/{a}", lambda w: {"name": "Renamed"})),
    ("DELETE", "/api/user/{id}"): (ADMIN_ONLY, send("/api/user/{a}")),
    # Impersonation
    ("POST", "/api/user/impersonate/{id}"): (ADMIN_ONLY, send("/api/user/impersonate/{a}")),
    ("POST", "/api/impersonate/stop"): (NOT_IMPERSONATING, send("/api/impersonate/stop")),
    ("GET", "/api/impersonate/audit"): (ADMIN_ONLY, get("/api/impersonate/audit")),
    ("POST", "/api/impersonate/return"): (
        NOT_IMPERSONATING,
        send("/api/impersonate/return", lambda w: {"impersonator_id": w.admin.id}),
    ),
    # Notifications (always the caller's own)
    ("GET", "/api/notification/notification"): (ANYONE, get("/api/notification/notification")),
    ("GET", "/api/notification/unread-count"): (ANYONE, get("/api/notification/unread-count")),
    ("PATCH", "/api/notification/read/{id}"): (SELF_ONLY, send("/api/notification/read/{notification}")),
    ("POST", "/api/notification/read-all"): (ANYONE, send("/api/notification/read-all")),
    # Campaigns and IVR
    ("GET", "/api/campaign/details"): (CUSTOMERS, get("/api/campaign/details")),
    ("GET", "/api/campaign/on-camp"): (CUSTOMERS, get("/api/campaign/on-camp")),
    ("GET", "/api/campaign/user/{id}"): (OWNED, get("/api/campaign/user/{a}")),
    ("GET", "/api/campaign/camp-user/{id}"): (OWNED, get("/api/campaign/camp-user/{campaign}")),
    ("GET", "/api/campaign/{id}"): (OWNED, get("/api/campaign/{campaign}")),
    ("GET", "/api/campaign/ivr/{id}"): (OWNED, get("/api/campaign/ivr/{campaign}")),
    ("PUT", "/api/campaign/ivr-edit"): (
        OWNED,
        send("/api/campaign/ivr-edit", lambda w: {"campaign_id": w.ids["campaign"], "ivr_enabled": False}),
    ),
    ("GET", "/api/campaign/whisper/{id}"): (OWNED, get("/api/campaign/whisper/{campaign}")),
    ("PUT", "/api/campaign/whisper/{id}"): (
        OWNED,
        send("/api/campaign/whisper/{campaign}", lambda w: {"mode": "text", "text": "Call from Acme"}),
    ),
    ("POST", "/api/campaign/whisper/{id}/recording"): (
        OWNED,
        lambda w, who: (
            f"/api/campaign/whisper/{w.ids['campaign']}/recording",
            {"files": {"file": ("hello.wav", wav(seconds=1), "audio/wav")}},
        ),
    ),
    ("GET", "/api/campaign/whisper/{id}/audio"): (OWNED, lambda w, who: whispered(w)),
    ("GET", "/api/campaign/prompt/{id}"): (OWNED, get("/api/campaign/prompt/{campaign}")),
    ("POST", "/api/campaign/prompt/{id}"): (
        OWNED,
        lambda w, who: (
            f"/api/campaign/prompt/{w.ids['campaign']}",
            {"files": {"file": ("welcome.wav", wav(seconds=1), "audio/wav")}},
        ),
    ),
    ("POST", "/api/campaign/add"): (
        OWNED,
        send("/api/campaign/add", lambda w: {"name": "New", "user_id": w.a.id}),
    ),
    ("PUT", "/api/campaign/{id}"): (OWNED, send("/api/campaign/{campaign}", lambda w: {"ring_timeout": 40})),
    ("PATCH", "/api/campaign/status/{id}"): (
        OWNED,
        send("/api/campaign/status/{campaign}", lambda w: {"status": "inactive"}),
    ),
    ("DELETE", "/api/campaign/{id}"): (OWNED, send("/api/campaign/{campaign}")),
    ("GET", "/api/ivr/details"): (CUSTOMERS, get("/api/ivr/details")),
    # Buyers
    ("GET", "/api/buyer/details"): (ANYONE, get("/api/buyer/details")),
    ("GET", "/api/buyer/buyer-userId/{id}"): (OWNED, get("/api/buyer/buyer-userId/{a}")),
    ("GET", "/api/buyer/target"): (BUYER_ONLY, get("/api/buyer/target")),
    ("POST", "/api/buyer/buyer-report"): (ANYONE, send("/api/buyer/buyer-report", lambda w: {})),
    ("POST", "/api/buyer/add"): (OWNED, send("/api/buyer/add", lambda w: {**NEW_USER, "user_id": w.a.id})),
    ("PUT", "/api/buyer/{id}"): (
        OWNED,
        lambda w, who: (f"/api/buyer/{w.buyer.buyer_id}", {"json": {"name": "B2"}}),
    ),
    ("PATCH", "/api/buyer/status/{id}"): (
        OWNED,
        lambda w, who: (f"/api/buyer/status/{w.buyer.buyer_id}", {"json": {"status": "active"}}),
    ),
    ("DELETE", "/api/buyer/{id}"): (OWNED, lambda w, who: (f"/api/buyer/{w.buyer.buyer_id}", {})),
    # A's buyer can sign in already: its owners are told so (409), the others find no such buyer.
    ("POST", "/api/buyer/invite/{id}"): (
        {"admin": CONFLICT, "a": CONFLICT, "b": DENIED, "buyer": FORBIDDEN},
        lambda w, who: (f"/api/buyer/invite/{w.buyer.buyer_id}", {}),
    ),
    # Targets and campaign links
    ("GET", "/api/target/details"): (ANYONE, get("/api/target/details")),
    ("POST", "/api/target/add"): (
        OWNED,
        send(
            "/api/target/add",
            lambda w: {"buyer_id": w.buyer.buyer_id, "name": "T2", "destination": "+14155550101"},
        ),
    ),
    ("PUT", "/api/target/{id}"): (OWNED, send("/api/target/{target}", lambda w: {"daily_cap": 9})),
    ("PATCH", "/api/target/status/{id}"): (
        OWNED_WITH_BUYER,  # A's target is its buyer's: the buyer pauses and resumes its own
        send("/api/target/status/{target}", lambda w: {"status": "active"}),
    ),
    ("POST", "/api/target/bulk-status"): (
        OWNED_WITH_BUYER,
        send("/api/target/bulk-status", lambda w: {"ids": [w.ids["target"]], "status": "active"}),
    ),
    ("DELETE", "/api/target/{id}"): (OWNED, send("/api/target/{target}")),
    ("POST", "/api/target/getTargetsForCampaign"): (
        OWNED,
        send("/api/target/getTargetsForCampaign", lambda w: {"campaign_id": w.ids["campaign"]}),
    ),
    ("GET", "/api/target/getAssignedTargetsForCampaign"): (
        OWNED,
        lambda w, who: (
            "/api/target/getAssignedTargetsForCampaign",
            {"params": {"campaign_id": w.ids["campaign"]}},
        ),
    ),
    ("POST", "/api/camp/add"): (
        OWNED,
        send(
            "/api/camp/add",
            lambda w: {
                "campaign_id": w.ids["campaign"],
                "targets": [{"target_id": w.ids["target"], "priority": 3}],
            },
        ),
    ),
    ("POST", "/api/camp/rc"): (
        OWNED,
        send("/api/camp/rc", lambda w: {"campaign_id": w.ids["campaign"], "target_id": w.ids["target"]}),
    ),
    ("PATCH", "/api/camp/priority/{target_id}"): (
        OWNED,
        send("/api/camp/priority/{target}", lambda w: {"campaign_id": w.ids["campaign"], "priority": 2}),
    ),
    # Blocks
    ("GET", "/api/block/details"): (CUSTOMERS, get("/api/block/details")),
    ("POST", "/api/block/add"): (
        OWNED,
        send("/api/block/add", lambda w: {"pattern": "+447911999888", "user_id": w.a.id}),
    ),
    ("PUT", "/api/block/{id}"): (OWNED, send("/api/block/{block}", lambda w: {"reason": "spam"})),
    ("PATCH", "/api/block/status/{id}"): (
        OWNED,
        send("/api/block/status/{block}", lambda w: {"status": "inactive"}),
    ),
    ("DELETE", "/api/block/{id}"): (OWNED, send("/api/block/{block}")),
    ("POST", "/api/block/cdr"): (
        OWNED,
        send("/api/block/cdr", lambda w: {"call_ids": [w.ids["call"]], "user_id": w.a.id}),
    ),
    # Tariffs, rates, trunks
    ("GET", "/api/tariff/details"): (CUSTOMERS, get("/api/tariff/details")),
    ("GET", "/api/tariff/on"): (ADMIN_ONLY, get("/api/tariff/on")),
    ("POST", "/api/tariff/add"): (
        ADMIN_ONLY,
        send("/api/tariff/add", lambda w: {"name": "New tariff", "currency": "EUR"}),
    ),
    ("PATCH", "/api/tariff/{id}"): (ADMIN_ONLY, send("/api/tariff/{tariff}", lambda w: {"description": "x"})),
    ("PATCH", "/api/tariff/status/{id}"): (
        ADMIN_ONLY,
        send("/api/tariff/status/{tariff}", lambda w: {"status": "inactive"}),
    ),
    ("DELETE", "/api/tariff/{id}"): (ADMIN_ONLY, send("/api/tariff/{tariff}")),
    ("GET", "/api/rate/details"): (CUSTOMERS, get("/api/rate/details")),
    ("GET", "/api/rate/by/{id}"): (OWNED, get("/api/rate/by/{tariff}")),
    ("POST", "/api/rate/add"): (
        ADMIN_ONLY,
        send(
            "/api/rate/add",
            lambda w: {"tariff_id": w.ids["tariff"], "prefix": "33", "rate_per_minute": "0.01"},
        ),
    ),
    ("PUT", "/api/rate/{id}"): (ADMIN_ONLY, send("/api/rate/{rate}", lambda w: {"rate_per_minute": "0.06"})),
    ("PATCH", "/api/rate/status/{id}"): (
        ADMIN_ONLY,
        send("/api/rate/status/{rate}", lambda w: {"status": "inactive"}),
    ),
    ("DELETE", "/api/rate/{id}"): (ADMIN_ONLY, send("/api/rate/{rate}")),
    ("POST", "/api/rate/import/{tariff_id}"): (
        ADMIN_ONLY,
        lambda w, who: (
            f"/api/rate/import/{w.ids['tariff']}",
            {"files": {"file": ("rates.csv", b"prefix,rate\n33,0.01\n", "text/csv")}},
        ),
    ),
    ("GET", "/api/trunk/details"): (ADMIN_ONLY, get("/api/trunk/details")),
    ("GET", "/api/trunk/out"): (CUSTOMERS, get("/api/trunk/out")),
    ("GET", "/api/trunk/imb"): (ADMIN_ONLY, get("/api/trunk/imb")),
    ("POST", "/api/trunk/add"): (
        ADMIN_ONLY,
        send(
            "/api/trunk/add", lambda w: {"name": "out-2", "direction": "outbound", "host": "sip2.example.net"}
        ),
    ),
    ("PUT", "/api/trunk/{id}"): (ADMIN_ONLY, send("/api/trunk/{trunk}", lambda w: {"port": 5070})),
    ("PATCH", "/api/trunk/status/{id}"): (
        ADMIN_ONLY,
        send("/api/trunk/status/{trunk}", lambda w: {"status": "inactive"}),
    ),
    ("DELETE", "/api/trunk/{id}"): (ADMIN_ONLY, send("/api/trunk/{trunk}")),
    # Countries, vendors and numbers
    ("GET", "/api/country"): (ANYONE, get("/api/country")),
    ("GET", "/api/vendor/details"): (ADMIN_ONLY, get("/api/vendor/details")),
    ("GET", "/api/vendor/on"): (ADMIN_ONLY, get("/api/vendor/on")),
    ("POST", "/api/vendor/add"): (ADMIN_ONLY, send("/api/vendor/add", lambda w: {"name": "New Carrier"})),
    ("PUT", "/api/vendor/{id}"): (
        ADMIN_ONLY,
        send("/api/vendor/{vendor}", lambda w: {"phone": "+442079460713"}),
    ),
    ("PATCH", "/api/vendor/status/{id}"): (
        ADMIN_ONLY,
        send("/api/vendor/status/{vendor}", lambda w: {"status": "inactive"}),
    ),
    # The admin's delete answers 409: the world's numbers reference the vendor.
    ("DELETE", "/api/vendor/{id}"): (ADMIN_ONLY, send("/api/vendor/{vendor}")),
    ("GET", "/api/number/details"): (CUSTOMERS, get("/api/number/details")),
    ("GET", "/api/number/zero"): (CUSTOMERS, get("/api/number/zero")),
    ("GET", "/api/number/ct"): (CUSTOMERS, get("/api/number/ct")),
    ("GET", "/api/number/vcrs"): (ADMIN_ONLY, get("/api/number/vcrs")),
    ("POST", "/api/number/vcr"): (
        ADMIN_ONLY,
        lambda w, who: (
            "/api/number/vcr",
            {
                "files": {
                    "file": ("n.csv", b"number,country,vendor,setup_fee,monthly_fee\n+442071838752,GB,,1,1\n")
                }
            },
        ),
    ),
    ("GET", "/api/number/{id}"): (OWNED, get("/api/number/{number}")),
    ("POST", "/api/number/add"): (ADMIN_ONLY, send("/api/number/add", lambda w: {"number": "+442071838752"})),
    ("PUT", "/api/number/{id}"): (
        OWNED,
        send("/api/number/{number}", lambda w: {"campaign_id": w.ids["campaign"]}),
    ),
    ("PATCH", "/api/number/status/{id}"): (
        ADMIN_ONLY,
        send("/api/number/status/{number}", lambda w: {"status": "active"}),
    ),
    ("POST", "/api/number/give"): (
        ADMIN_ONLY,
        send("/api/number/give", lambda w: {"user_id": w.a.id, "number_ids": [w.ids["pool_number"]]}),
    ),
    # Customers take numbers for themselves; B taking a pool number is its own business.
    ("POST", "/api/number/new"): (
        {"admin": FORBIDDEN, "a": OK, "b": OK, "buyer": FORBIDDEN},
        send("/api/number/new", lambda w: {"number_ids": [w.ids["pool_number"]]}),
    ),
    ("DELETE", "/api/number"): (OWNED, send("/api/number", lambda w: {"ids": [w.ids["number"]]})),
    # Dashboard: counts in each caller's own scope; A's buyer's totals for those who may see the buyer
    ("GET", "/api/dashboard/call"): (ANYONE, get("/api/dashboard/call")),
    ("GET", "/api/dashboard/call-detail"): (ANYONE, get("/api/dashboard/call-detail")),
    # Calls by caller region: the rollup has no buyer key, so buyers are refused.
    ("GET", "/api/dashboard/call-region"): (CUSTOMERS, get("/api/dashboard/call-region")),
    ("GET", "/api/dashboard/BuyerCounts/{id}"): (
        OWNED_WITH_BUYER,
        lambda w, who: (f"/api/dashboard/BuyerCounts/{w.buyer.buyer_id}", {}),
    ),
    ("GET", "/api/dashboard/CustomerCounts"): (CUSTOMERS, get("/api/dashboard/CustomerCounts")),
    # Call report (the world has one finished call of A's, its trail marked)
    ("GET", "/api/report"): (CUSTOMERS, get("/api/report")),
    ("POST", "/api/report/save"): (CUSTOMERS, send("/api/report/save")),
    # The report's sums and groups: each caller's own calls (a buyer's: its targets', no cost)
    ("GET", "/api/report/totals"): (ANYONE, get("/api/report/totals")),
    ("GET", "/api/report/groups"): (ANYONE, get("/api/report/groups", by="target")),
    # Saved report views: each person's own (the world has one of A's, its name marked)
    ("GET", "/api/report/views"): (CUSTOMERS, get("/api/report/views")),
    ("POST", "/api/report/views"): (CUSTOMERS, send("/api/report/views", lambda w: {"name": "Mine"})),
    ("PUT", "/api/report/views/{id}"): (
        {"admin": DENIED, "a": OK, "b": DENIED, "buyer": FORBIDDEN},
        send("/api/report/views/{report_view}", lambda w: {"name": "Renamed"}),
    ),
    ("DELETE", "/api/report/views/{id}"): (
        {"admin": DENIED, "a": OK, "b": DENIED, "buyer": FORBIDDEN},
        send("/api/report/views/{report_view}"),
    ),
    # No Asterisk here: whoever may hear the recording gets as far as asking the PBX for it (503).
    ("GET", "/api/report/transcript/{id}"): (OWNED_WITH_BUYER, get("/api/report/transcript/{call}")),
    ("GET", "/api/campaign/keyword-rules/{id}"): (OWNED, get("/api/campaign/keyword-rules/{campaign}")),
    ("POST", "/api/campaign/keyword-rules/{id}"): (
        OWNED,
        send("/api/campaign/keyword-rules/{campaign}", lambda w: KEYWORD_RULE),
    ),
    ("PUT", "/api/campaign/keyword-rules/{id}/{rule_id}"): (
        OWNED,
        send("/api/campaign/keyword-rules/{campaign}/{keyword_rule}", lambda w: KEYWORD_RULE),
    ),
    ("DELETE", "/api/campaign/keyword-rules/{id}/{rule_id}"): (
        OWNED,
        send("/api/campaign/keyword-rules/{campaign}/{keyword_rule}"),
    ),
    ("POST", "/api/campaign/keyword-rules/{id}/reapply"): (
        OWNED,
        send("/api/campaign/keyword-rules/{campaign}/reapply"),
    ),
    ("GET", "/api/report/recording/{id}"): (
        {"admin": PBX_DOWN, "a": PBX_DOWN, "b": DENIED, "buyer": PBX_DOWN},
        get("/api/report/recording/{call}"),
    ),
    # Conversions export: A's own (an admin names A), never B's look at A's (404), nor a buyer's.
    ("GET", "/api/conversions/google-ads"): (
        OWNED,
        lambda w, who: (
            "/api/conversions/google-ads",
            {"params": {"user_id": w.a.id, "fromDate": "2026-11-01", "toDate": "2026-11-30"}},
        ),
    ),
    # Live calls (the world has one live call of A's in Redis)
    ("POST", "/api/report/callHangUp"): (
        OWNED_WITH_BUYER,
        send("/api/report/callHangUp", lambda w: {"linkedid": "1700000000.1"}),
    ),
    # Call webhooks (the world has one on A's campaign, with a delivery for its call)
    ("GET", "/api/webhook/details"): (ANYONE, get("/api/webhook/details")),
    ("POST", "/api/webhook/add"): (
        HOOK_OWNED,
        send(
            "/api/webhook/add",
            lambda w: {"campaign_id": w.ids["campaign"], "url": "https://x.example.com", "events": ["rated"]},
        ),
    ),
    ("PUT", "/api/webhook/{id}"): (
        HOOK_OWNED,
        send("/api/webhook/{webhook}", lambda w: {"events": ["rated"]}),
    ),
    ("PATCH", "/api/webhook/status/{id}"): (
        HOOK_OWNED,
        send("/api/webhook/status/{webhook}", lambda w: {"status": "paused"}),
    ),
    ("POST", "/api/webhook/secret/{id}"): (HOOK_OWNED, send("/api/webhook/secret/{webhook}")),
    ("DELETE", "/api/webhook/{id}"): (HOOK_OWNED, send("/api/webhook/{webhook}")),
    ("GET", "/api/webhook/deliveries/{id}"): (OWNED_WITH_BUYER, get("/api/webhook/deliveries/{call}")),
    ("POST", "/api/webhook/resend/{id}"): (HOOK_OWNED, send("/api/webhook/resend/{delivery}")),
    # Traffic sources (the world's is on A's number and call: deleting it is a conflict)
    ("GET", "/api/sources"): (CUSTOMERS, get("/api/sources")),
    ("GET", "/api/dashboard/call-source"): (CUSTOMERS, get("/api/dashboard/call-source", type="month")),
    ("POST", "/api/sources"): (OWNED, send("/api/sources", lambda w: {"user_id": w.a.id, "name": "Radio"})),
    ("PUT", "/api/sources/{id}"): (OWNED, send("/api/sources/{source}", lambda w: {"name": "Renamed"})),
    ("DELETE", "/api/sources/{id}"): (OWNED, send("/api/sources/{source}")),
    # Routing
    ("GET", "/api/routing/regions"): (CUSTOMERS, get("/api/routing/regions", country="US")),
    ("POST", "/api/routing/dry-run"): (
        CUSTOMERS,
        send("/api/routing/dry-run", lambda w: {"did": "+442071838750", "caller": "+447911000111"}),
    ),
    # Website number swapping (attribution)
    ("GET", "/api/dni/site/{user_id}"): (OWNED, get("/api/dni/site/{a}")),
    ("PUT", "/api/dni/site/{user_id}"): (
        OWNED,
        send("/api/dni/site/{a}", lambda w: {"origins": ["https://shop.example"]}),
    ),
    ("POST", "/api/dni/site/{user_id}/key"): (OWNED, send("/api/dni/site/{a}/key")),
    ("GET", "/api/dni/pool/{id}"): (OWNED, get("/api/dni/pool/{campaign}")),
    ("PUT", "/api/dni/pool/{id}"): (
        OWNED,
        send(
            "/api/dni/pool/{campaign}", lambda w: {"enabled": True, "timeout_minutes": 20, "number_ids": []}
        ),
    ),
    ("GET", "/api/dni/pools"): (CUSTOMERS, get("/api/dni/pools")),
    ("GET", "/api/dni/call/{id}"): (OWNED, get("/api/dni/call/{call}")),
    ("GET", "/api/dni/{key}/script.js"): (ANYONE, lambda w, who: (f"/api/dni/{script_key(w)}/script.js", {})),
    ("POST", "/api/dni/{key}/assign"): (NOBODY, public_dni("assign")),
    ("POST", "/api/dni/{key}/touch"): (NOBODY, public_dni("touch")),
    # Billing screens
    ("POST", "/api/topup/add"): (
        ADMIN_ONLY,
        send("/api/topup/add", lambda w: {"user_id": w.a.id, "amount": "5"}),
    ),
    ("GET", "/api/topup/details"): (ADMIN_ONLY, get("/api/topup/details")),
    ("GET", "/api/invoice/details"): (CUSTOMERS, get("/api/invoice/details")),
    ("GET", "/api/invoice/{id}"): (OWNED, get("/api/invoice/{invoice}")),
    ("GET", "/api/invoice/{id}/pdf"): (OWNED, get("/api/invoice/{invoice}/pdf")),
    ("POST", "/api/invoice/generate"): (
        ADMIN_ONLY,
        send("/api/invoice/generate", lambda w: {"user_id": w.a.id, "month": "2026-01"}),
    ),
}

ROUTES = sorted(
    (method, ctx.path_format)  # "/api/user/{id}", as documented, not the route's "{id:int}"
    for ctx in iter_route_contexts(create_app().routes)
    if ctx.path_format and ctx.path_format.startswith("/api/")
    for method in (ctx.methods or set()) - {"HEAD"}  # the WebSocket has no methods: test_live_feed.py
)


@pytest.fixture(autouse=True)
def _pbx_down() -> Iterator[None]:
    """ARI on a port this test holds bound but never listening, so connections are refused: the PBX
    is down whatever else runs on the machine (a developer's Asterisk on 8088)."""
    with socket.socket() as held, pytest.MonkeyPatch.context() as env:
        held.bind(("127.0.0.1", 0))
        env.setenv("ASTERISK_HTTP_PORT", str(held.getsockname()[1]))
        get_settings.cache_clear()
        yield
    get_settings.cache_clear()


def _outcome(status: int) -> str:
    if status == 403:
        return FORBIDDEN
    if status in (404, 422):
        return DENIED
    if status == 409:
        return CONFLICT
    if status == 503:
        return PBX_DOWN
    return OK if status < 400 else f"unexpected {status}"


def test_every_route_has_an_entry() -> None:
    missing = [r for r in ROUTES if r not in MATRIX]
    assert missing == [], f"routes with no access-matrix entry: {missing}"
    stale = [r for r in MATRIX if r not in ROUTES]
    assert stale == [], f"matrix entries for routes that no longer exist: {stale}"


# Saving a typed whisper speaks it: that route's check needs espeak-ng, from its fixture.
SPOKEN = ("PUT", "/api/campaign/whisper/{id}")


@pytest.mark.parametrize("route", [r for r in ROUTES if r in MATRIX and r != SPOKEN], ids=" ".join)
def test_route_access(client: Any, route: tuple[str, str]) -> None:
    _check_access(client, route)


def test_spoken_whisper_route_access(client: Any, espeak_ng: str) -> None:
    _check_access(client, SPOKEN)


def _check_access(client: Any, route: tuple[str, str]) -> None:
    method, _ = route
    rule, build = MATRIX[route]
    world: World | None = None
    for who in ROLES:
        if world is None or method != "GET":
            world = build_world()  # a fresh world per write, so one role's change can't hide another's
        path, kwargs = build(world, who)
        response = client.request(method, path, headers=world.actor(who).headers, **kwargs)
        got = _outcome(response.status_code)
        expected = rule[who]
        # A business conflict (409, e.g. "has call history") still proves access was granted.
        allowed = {OK, CONFLICT} if expected == OK else {expected}
        assert got in allowed, f"{who}: {method} {path} answered {response.status_code} {response.text[:300]}"
        if who in ("b", "buyer") and (who == "b" or expected != OK):
            assert MARK not in response.text, f"{who} saw A's data via {method} {path}: {response.text[:300]}"
