"""The call report: each tenant's calls with names and trail, the spec's filters, the CSV download."""

import csv
import io
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from core.infra.settings import get_settings
from core.models import Call
from portal_api.services.reports import csv_header
from testkit.actors import Actor
from testkit.rows import save, seed_calls


def report(client: Any, who: Actor, **params: Any) -> dict:
    r = client.get("/api/report", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    return r.json()["data"]


def test_customers_see_their_own_calls_newest_first_with_names_and_trail(
    client: Any, admin: Actor, customer_a: Actor, customer_b: Actor
) -> None:
    seed_calls(
        customer_a,
        "Roofing",
        {"started_at": datetime(2026, 11, 20, 9, 0, tzinfo=UTC), "billsec": 42, "cost": Decimal("0.21")},
        {"started_at": datetime(2026, 11, 20, 11, 0, tzinfo=UTC), "disposition": "BUSY"},
    )
    seed_calls(customer_b, "Solar", {})
    save(
        Call(
            linkedid="x.1",
            did="+442070000000",
            caller="+15550001",
            started_at=datetime.now(UTC),
            disposition="NO_ROUTE",
        )
    )

    mine = report(client, customer_a)
    assert mine["total"] == 2
    newest, oldest = mine["data"]
    assert (newest["disposition"], oldest["disposition"]) == ("BUSY", "ANSWERED")
    assert oldest["campaign_name"] == "Roofing" and oldest["target_name"] == "Roofing desk"
    assert oldest["buyer_name"] == "Roofing buyer" and oldest["trunk_name"] == "Roofing trunk"
    assert oldest["customer_name"] == "Alice Customer"
    assert oldest["billsec"] == 42 and oldest["cost"] == "0.2100"
    assert oldest["trail"] == [{"step": "select", "target": "Roofing desk", "result": "taken"}]

    assert [c["campaign_name"] for c in report(client, customer_b)["data"]] == ["Solar"]
    everything = report(client, admin)
    assert everything["total"] == 4  # the unrouted call belongs to no customer: only the admin sees it
    assert report(client, admin, user_id=customer_b.id)["total"] == 1
    # A customer naming another customer sees nothing of it: that account is no row it may see (404).
    r = client.get("/api/report", headers=customer_a.headers, params={"user_id": customer_b.id})
    assert r.status_code == 404 and list(r.json()["errors"]) == ["user_id"]


def test_filters_match_number_prefixes_name_parts_and_days_in_the_callers_time_zone(
    client: Any, customer_a: Actor
) -> None:
    # customer_a is in Europe/Berlin: 23:30 UTC on the 20th is already the 21st there.
    seed_calls(
        customer_a,
        "Plumbing",
        {"caller": "+447700900001", "started_at": datetime(2026, 11, 20, 22, 30, tzinfo=UTC)},
        {
            "caller": "+447700900002",
            "started_at": datetime(2026, 11, 20, 23, 30, tzinfo=UTC),
            "disposition": "NO ANSWER",
        },
    )
    seed_calls(customer_a, "HVAC", {"did": "+442079460123", "destination": "12125550199"})

    def callers(**params: Any) -> list[str]:
        return sorted(c["caller"] for c in report(client, customer_a, **params)["data"])

    assert callers(fromDate="2026-11-21", toDate="2026-11-21") == ["+447700900002"]
    assert callers(toDate="2026-11-20") == ["+447700900001", "+447911123456"]
    assert callers(disposition="NO ANSWER") == ["+447700900002"]
    # Numbers match how they start, typed as people type them; a full number is that number.
    assert callers(caller_number="+447700900001") == ["+447700900001"]
    assert callers(caller_number="+44 7700 900") == ["+447700900001", "+447700900002"]
    assert callers(caller_number="0044-7700-900002") == ["+447700900002"]
    assert callers(caller_number="447911") == ["+447911123456"]
    assert callers(caller_number="900001") == []  # the middle of a number is not how it starts
    assert callers(campaign_name="plumb") == ["+447700900001", "+447700900002"]
    assert callers(did_number="+44 20 7946") == ["+447911123456"]
    assert callers(target_number="+1 212 555") == ["+447911123456"]  # stored as digits alone
    assert callers(caller_number="%") == []  # a wildcard is a character like any other
    assert callers(caller_number="+4_") == []


def test_bad_filters_are_refused_with_a_reason(client: Any, customer_a: Actor, buyer_a: Actor) -> None:
    r = client.get(
        "/api/report", headers=customer_a.headers, params={"fromDate": "2026-11-21", "toDate": "2026-11-20"}
    )
    assert r.status_code == 422 and r.json()["errors"]["toDate"] == ["toDate can't be before fromDate."]
    r = client.get("/api/report", headers=customer_a.headers, params={"disposition": "MAYBE"})
    assert r.status_code == 422 and "disposition" in r.json()["errors"]
    r = client.get("/api/report", headers=customer_a.headers, params={"fromDate": "21/11/2026"})
    assert r.status_code == 422 and "fromDate" in r.json()["errors"]
    # Buyers have their own report, without the customer's cost.
    assert client.get("/api/report", headers=buyer_a.headers).status_code == 403


def test_save_downloads_the_filtered_calls_as_csv(client: Any, customer_a: Actor, customer_b: Actor) -> None:
    seed_calls(
        customer_a, '=HYPERLINK("http://x")', {"billsec": 61, "cost": Decimal("0.5")}, {"disposition": "BUSY"}
    )
    seed_calls(customer_b, "Solar", {})
    r = client.post("/api/report/save", headers=customer_a.headers, params={"disposition": "ANSWERED"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "call-report.csv" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == 1
    (row,) = rows
    assert row["caller"] == "+447911123456" and row["billsec"] == "61" and row["cost"] == "0.5000"
    assert row["campaign_name"] == '\'=HYPERLINK("http://x")'  # a spreadsheet shows it, never runs it
    # Times in the customer's zone, which the header names: 10:00 UTC is 11:00 in Berlin.
    assert (
        row["started_at (Europe/Berlin)"] == "2026-11-20 11:00:00" and row["ended_at (Europe/Berlin)"] == ""
    )
    empty = client.post("/api/report/save", headers=customer_a.headers, params={"caller_number": "0000000"})
    assert empty.text.splitlines() == [",".join(csv_header("Europe/Berlin"))]  # the header alone
    assert csv_header("UTC")[:2] == ["started_at (UTC)", "ended_at (UTC)"]


def test_a_buyer_sees_the_calls_it_was_sent_with_target_and_recording(
    client: Any, customer_a: Actor, buyer_a: Actor
) -> None:
    seed_calls(
        customer_a,
        "Roofing",
        {"buyer_id": buyer_a.buyer_id, "recording": "call-1", "payout": Decimal("7.5")},
        {
            "buyer_id": buyer_a.buyer_id,
            "disposition": "NO ANSWER",
            "caller": "+447700900009",
            "ended_at": datetime(2026, 11, 20, 10, 1, tzinfo=UTC),
        },
        {},  # sent to the campaign's other buyer
    )
    r = client.post("/api/buyer/buyer-report", headers=buyer_a.headers, json={})
    assert r.status_code == 200, r.text
    page = r.json()["data"]
    assert page["total"] == 2
    answered = next(c for c in page["data"] if c["disposition"] == "ANSWERED")
    assert answered["target_name"] == "Roofing desk" and answered["recording"] == "call-1"
    assert answered["payout"] == "7.5000" and "cost" not in answered  # never the customer's cost
    # The first is still up (no end yet): the browser shows "in progress", not its provisional disposition.
    ended = {c["disposition"]: c["ended_at"] for c in page["data"]}
    assert ended == {"ANSWERED": None, "NO ANSWER": "2026-11-20T10:01:00Z"}
    r = client.post(
        "/api/buyer/buyer-report", headers=buyer_a.headers, json={"caller_number": "+447700900009"}
    )
    assert [c["caller"] for c in r.json()["data"]["data"]] == ["+447700900009"]


def test_recordings_come_from_the_shared_folder_when_the_portal_has_one(
    client: Any, customer_a: Actor, customer_b: Actor, tmp_path: Any, monkeypatch: Any
) -> None:
    # A container portal reads Asterisk's recording folder (a shared volume), not ARI on loopback.
    kept, gone, outside = seed_calls(
        customer_a,
        "Roofing",
        {"recording": "call-1.1"},
        {"recording": "call-1.2"},
        {"recording": "../secret"},
    )
    folder = tmp_path / "recording"
    folder.mkdir()
    audio = b"RIFF" + bytes(range(256)) * 400  # more than one chunk
    (folder / "call-1.1.wav").write_bytes(audio)
    (tmp_path / "secret.wav").write_bytes(b"not a recording")
    monkeypatch.setenv("RECORDINGS_DIR", str(folder))
    get_settings.cache_clear()
    try:
        got = {
            row.id: client.get(f"/api/report/recording/{row.id}", headers=customer_a.headers)
            for row in (kept, gone, outside)
        }
        foreign = client.get(f"/api/report/recording/{kept.id}", headers=customer_b.headers)
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    wav = got[kept.id]
    assert wav.status_code == 200 and wav.headers["content-type"] == "audio/wav" and wav.content == audio
    assert got[gone.id].status_code == 404
    assert got[gone.id].json()["message"] == "This call's recording is no longer stored."
    assert got[outside.id].status_code == 404  # nothing outside the folder is served
    assert foreign.status_code == 404
