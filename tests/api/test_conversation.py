"""Keyword rules under a campaign and what was said on calls, in the API: rules added, changed,
removed and refused with why; a call's transcript per side; the report searched by words and tags;
another customer sees none of it."""

from core.conversation import transcripts
from core.conversation.engine import Word
from core.conversation.transcripts import Heard
from core.infra.db import session_scope
from core.models import KeywordRule
from core.values.enums import Leg
from testkit.rows import call, count

BOOKED = {
    "name": "Booked",
    "phrases": ["appointment", "book* a visit"],
    "side": "caller",
    "effect": "convert",
    "tag": "Booked",
}


def rules_url(campaign_id: int, tail: str = "") -> str:
    return f"/api/campaign/keyword-rules/{campaign_id}{tail}"


def campaign_of(client, actor) -> int:
    r = client.post("/api/campaign/add", json={"name": "Dental"}, headers=actor.headers)
    assert r.status_code == 201, r.text
    return int(r.json()["data"]["id"])


def test_rules_are_kept_per_campaign_and_refused_with_why(client, customer_a, customer_b) -> None:
    cid = campaign_of(client, customer_a)
    added = client.post(rules_url(cid), json=BOOKED, headers=customer_a.headers)
    assert added.status_code == 201, added.text
    rule = added.json()["data"]
    assert (rule["tag"], rule["phrases"], rule["effect"]) == (
        "booked",
        ["appointment", "book* a visit"],
        "convert",
    )
    changed = client.put(
        rules_url(cid, f"/{rule['id']}"), json={**BOOKED, "side": "either"}, headers=customer_a.headers
    )
    assert changed.json()["data"]["side"] == "either"
    no_word = client.post(rules_url(cid), json={**BOOKED, "phrases": ["|*|"]}, headers=customer_a.headers)
    assert no_word.status_code == 422 and no_word.json()["errors"]["phrases"], no_word.text
    assert (
        client.post(rules_url(cid), json={**BOOKED, "side": "nobody"}, headers=customer_a.headers).status_code
        == 422
    )
    assert client.get(rules_url(cid), headers=customer_b.headers).status_code == 404
    assert client.post(rules_url(cid), json=BOOKED, headers=customer_b.headers).status_code == 404
    assert count(KeywordRule) == 1
    assert [r["id"] for r in client.get(rules_url(cid), headers=customer_a.headers).json()["data"]] == [
        rule["id"]
    ]
    assert client.delete(rules_url(cid, f"/{rule['id']}"), headers=customer_a.headers).status_code == 200
    assert count(KeywordRule) == 0


def test_a_transcript_per_side_and_the_report_searched_by_words_and_tags(
    client, customer_a, customer_b
) -> None:
    cid = campaign_of(client, customer_a)
    client.post(rules_url(cid), json=BOOKED, headers=customer_a.headers)
    booked, other = (call(customer_a.id, 30, campaign_id=cid) for _ in range(2))
    words = [Word("an", 1.0, 1.2, 1.0), Word("appointment", 1.2, 1.9, 0.9)]
    with session_scope() as s:
        transcripts.save(
            s,
            booked,
            [
                Heard(Leg.CALLER, words, "test", 3, 0),
                Heard(Leg.TARGET, [Word("hello", 0.5, 0.9, 1.0)], "test", 3, 0),
            ],
        )
        transcripts.judge(s, booked)
    got = client.get(f"/api/report/transcript/{booked}", headers=customer_a.headers).json()["data"]
    assert [(leg["leg"], [w["word"] for w in leg["words"]]) for leg in got["legs"]] == [
        ("caller", ["an", "appointment"]),
        ("target", ["hello"]),
    ]
    assert got["tags"] == ["booked"] and got["matches"][0]["start"] == 1.2 and got["converted"] is True
    untranscribed = client.get(f"/api/report/transcript/{other}", headers=customer_a.headers)
    assert untranscribed.status_code == 404 and "not been transcribed" in untranscribed.json()["message"]
    assert client.get(f"/api/report/transcript/{booked}", headers=customer_b.headers).status_code == 404
    for params in ({"words": "appointments"}, {"tag": "Booked"}):
        ids = [
            r["id"]
            for r in client.get("/api/report", params=params, headers=customer_a.headers).json()["data"][
                "data"
            ]
        ]
        assert ids == [booked], params
        assert (
            client.get("/api/report", params=params, headers=customer_b.headers).json()["data"]["data"] == []
        )
