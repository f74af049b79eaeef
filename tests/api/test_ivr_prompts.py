"""A campaign's IVR prompt in the API: chosen from Asterisk's core sounds or uploaded (a WAV checked
and converted to what Asterisk plays, kept per customer); a bad file or a prompt the campaign can't
play is refused with why, changing nothing; another customer's campaign or upload stays out of reach."""

import subprocess
from pathlib import Path

from sqlmodel import select

from core.calls.prompts import CORE, PROMPT
from core.infra.db import session_scope
from core.models import Campaign, PromptAudio
from testkit.audio import wav
from testkit.rows import count
from tests.api.test_whisper import campaign_of, params


def url(campaign_id: int) -> str:
    return f"/api/campaign/prompt/{campaign_id}"


def ivr(campaign_id: int, prompt: str | None) -> dict[str, object]:
    return {"campaign_id": campaign_id, "ivr_enabled": True, "ivr_prompt": prompt, "ivr_pins": ["4321"]}


def test_the_choices_are_the_core_pin_prompts_then_the_owners_uploads(client, customer_a) -> None:
    cid = campaign_of(client, customer_a)
    listed = client.get(url(cid), headers=customer_a.headers).json()["data"]
    assert [(o["value"], o["kind"]) for o in listed] == [(name, "core") for name, _ in CORE]
    assert "Please enter your password followed by the pound key." in listed[0]["label"]

    r = client.post(
        url(cid),
        files={"file": ("Welcome line.wav", wav(seconds=2, rate=44100, channels=2), "audio/wav")},
        headers=customer_a.headers,
    )
    assert r.status_code == 201, r.text
    upload = r.json()["data"]
    assert (upload["kind"], upload["label"], upload["seconds"]) == ("upload", "Welcome line", 2.0)
    assert upload["value"].startswith("prompt:")
    with session_scope() as s:
        [row] = s.exec(select(PromptAudio)).all()
        assert row.user_id == customer_a.id and upload["value"] == f"prompt:{row.sha256}"
        assert params(row.audio) == (1, 2, 8000, 2.0)  # what Asterisk plays on a G.711 leg
    # The same audio again is the same prompt, not a second one.
    again = client.post(
        url(cid),
        files={"file": ("again.wav", wav(seconds=2, rate=44100, channels=2), "audio/wav")},
        headers=customer_a.headers,
    )
    assert again.json()["data"]["value"] == upload["value"] and count(PromptAudio) == 1
    assert client.get(url(cid), headers=customer_a.headers).json()["data"][-1] == upload

    # Chosen, the campaign plays it; another of the owner's campaigns may choose it too.
    for campaign_id in (
        cid,
        int(
            client.post("/api/campaign/add", json={"name": "Plumbing"}, headers=customer_a.headers).json()[
                "data"
            ]["id"]
        ),
    ):
        r = client.put(
            "/api/campaign/ivr-edit", json=ivr(campaign_id, upload["value"]), headers=customer_a.headers
        )
        assert r.status_code == 200, r.text
        assert (
            client.get(f"/api/campaign/ivr/{campaign_id}", headers=customer_a.headers).json()["data"][
                "ivr_prompt"
            ]
            == upload["value"]
        )


def test_an_mp3_is_a_prompt_converted_to_what_asterisk_plays(
    client, customer_a, mp3_tools: str, tmp_path: Path
) -> None:
    cid = campaign_of(client, customer_a)
    source = tmp_path / "welcome.wav"
    source.write_bytes(wav(seconds=2, rate=44100, channels=2))
    subprocess.run([mp3_tools, "--quiet", str(source), str(tmp_path / "welcome.mp3")], check=True, timeout=60)
    mp3 = (tmp_path / "welcome.mp3").read_bytes()
    r = client.post(url(cid), files={"file": ("Welcome.mp3", mp3, "audio/mpeg")}, headers=customer_a.headers)
    assert r.status_code == 201, r.text
    assert r.json()["data"]["label"] == "Welcome"
    with session_scope() as s:
        [row] = s.exec(select(PromptAudio)).all()
    channels, width, rate, seconds = params(row.audio)
    assert (channels, width, rate) == (1, 2, 8000) and abs(seconds - 2) < 0.1  # the encoder pads a little


def test_a_file_that_cant_be_a_prompt_is_refused_with_why_and_nothing_is_stored(
    client, customer_a, mp3_tools: str
) -> None:
    cid = campaign_of(client, customer_a)
    files = {
        "not audio": ("notes.wav", b"just some text, not a WAV", "audio/wav", "not a PCM WAV file"),
        "no MP3": ("song.mp3", b"ID3\x04\x00" + b"\0" * 400, "audio/mpeg", "could not be decoded"),
        "too long": ("long.wav", wav(seconds=31, rate=8000), "audio/wav", "this one lasts 31.0 s"),
        "too short": ("blip.wav", wav(seconds=0.1), "audio/wav", "0.3 to 30 s"),
        "24-bit": ("deep.wav", wav(seconds=1, width=3), "audio/wav", "8 or 16-bit PCM"),
        "too big": ("big.wav", b"RIFF" + b"\0" * PROMPT.max_bytes, "audio/wav", "at most 6000000"),
        "empty": ("none.wav", b"", "audio/wav", "the file is empty"),
    }
    for why, (name, data, kind, said) in files.items():
        r = client.post(url(cid), files={"file": (name, data, kind)}, headers=customer_a.headers)
        assert r.status_code == 422 and said in r.json()["errors"]["file"][0], (why, r.text)
    assert count(PromptAudio) == 0


def test_a_prompt_asterisk_lacks_is_refused_and_a_core_one_is_played(client, customer_a) -> None:
    cid = campaign_of(client, customer_a)
    for prompt in ("enter-pin", "prompt:" + "0" * 64, "../../etc/passwd"):
        r = client.put("/api/campaign/ivr-edit", json=ivr(cid, prompt), headers=customer_a.headers)
        assert r.status_code == 422 and "ivr_prompt" in r.json()["errors"], (prompt, r.text)
    with session_scope() as s:
        campaign = s.get(Campaign, cid)
        assert campaign is not None and (campaign.ivr_enabled, campaign.ivr_prompt) == (False, None)
    for prompt in ("conf-getpin", None):
        r = client.put("/api/campaign/ivr-edit", json=ivr(cid, prompt), headers=customer_a.headers)
        assert r.status_code == 200 and r.json()["data"]["ivr_prompt"] == prompt, r.text


def test_another_customers_campaign_and_uploads_stay_out_of_reach(
    client, admin, customer_a, customer_b
) -> None:
    a_campaign, b_campaign = campaign_of(client, customer_a), campaign_of(client, customer_b)
    file = {"file": ("Acme secret greeting.wav", wav(seconds=1), "audio/wav")}
    for method, kw in (("GET", {}), ("POST", {"files": file})):
        r = client.request(method, url(a_campaign), headers=customer_b.headers, **kw)
        assert r.status_code == 404, (method, r.text)
    assert count(PromptAudio) == 0
    # The admin uploads for A's campaign: the prompt is A's, listed for A and never for B.
    value = client.post(url(a_campaign), files=file, headers=admin.headers).json()["data"]["value"]
    with session_scope() as s:
        assert [row.user_id for row in s.exec(select(PromptAudio))] == [customer_a.id]
    assert value in [
        o["value"] for o in client.get(url(a_campaign), headers=customer_a.headers).json()["data"]
    ]
    b_choices = client.get(url(b_campaign), headers=customer_b.headers).json()["data"]
    assert all(o["kind"] == "core" for o in b_choices)
    # Knowing the hash is not enough: B's campaign can't play A's upload.
    r = client.put("/api/campaign/ivr-edit", json=ivr(b_campaign, value), headers=customer_b.headers)
    assert r.status_code == 422 and "ivr_prompt" in r.json()["errors"], r.text
