"""A campaign's whisper in the API: text spoken when saved, a recording checked and converted, the
audio served back; bad input refused with why, changing nothing; other customers see nothing."""

import io
import wave
from pathlib import Path

from core.calls.whisper import MAX_UPLOAD_BYTES
from core.infra.db import session_scope
from core.models import Campaign, WhisperAudio
from testkit.audio import wav
from testkit.rows import count
from tests.api.test_dry_run import alices_line, dry_run

TEXT = "Call from campaign Acme Roofing"


def url(campaign_id: int, tail: str = "") -> str:
    return f"/api/campaign/whisper/{campaign_id}{tail}"


def campaign_of(client, actor) -> int:
    r = client.post("/api/campaign/add", json={"name": "Roofing"}, headers=actor.headers)
    assert r.status_code == 201, r.text
    return int(r.json()["data"]["id"])


def params(audio: bytes) -> tuple[int, int, int, float]:
    with wave.open(io.BytesIO(audio)) as w:
        return w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes() / w.getframerate()


def test_text_is_spoken_when_saved_and_played_back_as_8khz_mono(client, customer_a, espeak_ng) -> None:
    cid = campaign_of(client, customer_a)
    assert client.get(url(cid), headers=customer_a.headers).json()["data"] == {
        "campaign_id": cid,
        "mode": "off",
        "text": None,
        "seconds": None,
        "audio_url": None,
    }
    r = client.put(url(cid), json={"mode": "text", "text": f"  {TEXT} "}, headers=customer_a.headers)
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert (data["mode"], data["text"], data["audio_url"]) == ("text", TEXT, url(cid, "/audio"))
    assert 1.0 < data["seconds"] < 5.0  # a few words
    audio = client.get(data["audio_url"], headers=customer_a.headers)
    assert audio.status_code == 200 and audio.headers["content-type"] == "audio/wav"
    channels, width, rate, seconds = params(audio.content)
    assert (channels, width, rate) == (1, 2, 8000) and abs(seconds - data["seconds"]) < 0.01
    # Off keeps the text (turning it on again is one click) but plays nothing, and keeps no audio.
    off = client.put(url(cid), json={"mode": "off"}, headers=customer_a.headers).json()["data"]
    assert (off["mode"], off["text"], off["audio_url"]) == ("off", TEXT, None)
    assert client.get(url(cid, "/audio"), headers=customer_a.headers).status_code == 404
    assert count(WhisperAudio) == 0


def test_an_uploaded_recording_is_converted_for_the_phone_line(client, customer_a) -> None:
    cid = campaign_of(client, customer_a)
    stereo = wav(seconds=2, rate=44100, channels=2)
    r = client.post(
        url(cid, "/recording"), files={"file": ("hi.wav", stereo, "audio/wav")}, headers=customer_a.headers
    )
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["mode"] == "recording" and abs(data["seconds"] - 2) < 0.01
    audio = client.get(data["audio_url"], headers=customer_a.headers).content
    assert params(audio)[:3] == (1, 2, 8000)
    # Two campaigns with the same audio share one stored copy.
    other = client.post("/api/campaign/add", json={"name": "Siding"}, headers=customer_a.headers).json()[
        "data"
    ]
    client.post(
        url(other["id"], "/recording"), files={"file": ("hi.wav", stereo)}, headers=customer_a.headers
    )
    assert count(WhisperAudio) == 1


def test_bad_input_is_refused_with_why_and_changes_nothing(client, customer_a, espeak_ng) -> None:
    cid = campaign_of(client, customer_a)
    client.put(url(cid), json={"mode": "text", "text": TEXT}, headers=customer_a.headers)
    before = client.get(url(cid), headers=customer_a.headers).json()["data"]
    bodies = [
        {"mode": "text"},  # no text
        {"mode": "text", "text": "   "},  # nothing to say
        {"mode": "text", "text": "x" * 201},  # too long
        {"mode": "recording", "text": TEXT},  # a recording is uploaded, not typed
        {"mode": "text", "text": TEXT, "voice": "loud"},  # unknown field
    ]
    for body in bodies:
        r = client.put(url(cid), json=body, headers=customer_a.headers)
        assert r.status_code == 422 and r.json()["errors"], (body, r.text)
    files = {
        "not audio": ("notes.wav", b"just some text, not a WAV", "audio/wav"),
        "too long": ("long.wav", wav(seconds=16, rate=8000), "audio/wav"),
        "too short": ("blip.wav", wav(seconds=0.1), "audio/wav"),
        "24-bit": ("deep.wav", wav(seconds=1, width=3), "audio/wav"),
        "too big": ("big.wav", b"RIFF" + b"\0" * MAX_UPLOAD_BYTES, "audio/wav"),
    }
    for why, file in files.items():
        r = client.post(url(cid, "/recording"), files={"file": file}, headers=customer_a.headers)
        assert r.status_code == 422 and "file" in r.json()["errors"], (why, r.text)
    assert client.get(url(cid), headers=customer_a.headers).json()["data"] == before


def test_another_customers_campaign_is_not_found(client, customer_a, customer_b, espeak_ng) -> None:
    cid = campaign_of(client, customer_a)
    client.put(url(cid), json={"mode": "text", "text": TEXT}, headers=customer_a.headers)
    for method, path, kw in (
        ("GET", url(cid), {}),
        ("GET", url(cid, "/audio"), {}),
        ("PUT", url(cid), {"json": {"mode": "off"}}),
        ("POST", url(cid, "/recording"), {"files": {"file": ("a.wav", wav(), "audio/wav")}}),
    ):
        r = client.request(method, path, headers=customer_b.headers, **kw)
        assert r.status_code == 404, (method, path, r.text)
    with session_scope() as s:
        campaign = s.get(Campaign, cid)
        assert campaign is not None and campaign.whisper_mode == "text"


def test_the_dry_run_says_the_target_hears_the_whisper(client, customer_a, espeak_ng) -> None:
    ln, _ = alices_line(customer_a)
    assert all(e["step"] != "whisper" for e in dry_run(client, customer_a).json()["data"]["trail"])
    client.put(url(ln.campaign.id or 0), json={"mode": "text", "text": TEXT}, headers=customer_a.headers)
    trail = dry_run(client, customer_a).json()["data"]["trail"]
    assert trail[-1]["step"] == "whisper" and "before it is connected" in trail[-1]["reason"]


def test_without_espeak_ng_text_is_refused_as_unavailable_and_a_recording_still_works(
    client, customer_a, monkeypatch
) -> None:
    monkeypatch.setattr("core.calls.whisper._ESPEAK", "no-such-espeak-ng")
    monkeypatch.setattr("core.calls.whisper._ESPEAK_IN_CHROOT", Path("no/such/espeak-ng"))
    cid = campaign_of(client, customer_a)
    r = client.put(url(cid), json={"mode": "text", "text": TEXT}, headers=customer_a.headers)
    assert r.status_code == 503 and "upload a recording" in r.json()["message"]
    assert client.get(url(cid), headers=customer_a.headers).json()["data"]["mode"] == "off"
    files = {"file": ("hi.wav", wav(seconds=1), "audio/wav")}
    assert client.post(url(cid, "/recording"), files=files, headers=customer_a.headers).status_code == 200


def test_a_file_that_is_no_wav_is_refused_saying_what_it_is(client, customer_a, mp3_tools: str) -> None:
    cid = campaign_of(client, customer_a)
    cut_short = wav(seconds=1)[:30]  # a WAV header that ends early
    mp3 = {"file": ("x.mp3", b"ID3\x04\x00\x00\x00\x00\x00\x00 music", "audio/mpeg")}
    r = client.post(url(cid, "/recording"), files=mp3, headers=customer_a.headers)
    assert r.status_code == 422 and "looks like an MP3 file but could not be decoded" in r.text, r.text
    said = {
        b"": "the file is empty",
        b"OggS\x00\x02 music": "this is an Ogg file",
        cut_short: "a WAV file that is cut short",
        b"just some text": "14 bytes starting with b'just some te'",
    }
    for data, words in said.items():
        r = client.post(
            url(cid, "/recording"), files={"file": ("x.wav", data, "audio/wav")}, headers=customer_a.headers
        )
        assert r.status_code == 422, r.text
        message = r.json()["errors"]["file"][0]
        assert message.startswith("The recording is not a PCM WAV file: ") and words in message, message
        assert "()" not in message
