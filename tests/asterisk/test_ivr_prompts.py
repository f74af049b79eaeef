"""The IVR prompts the portal offers (core.calls.prompts.CORE) are sounds the project's Asterisk has:
asked through ARI, as the bridge plays them, so a choice in the list never plays silence."""

import httpx
import pytest

from core.calls.prompts import CORE, DEFAULT
from testkit.asterisk import AsteriskUnderTest

pytestmark = pytest.mark.asterisk


def test_every_listed_prompt_and_the_default_is_a_sound_asterisk_plays_in_english(
    asterisk: AsteriskUnderTest,
) -> None:
    for name in {DEFAULT, *(n for n, _ in CORE)}:
        r = httpx.get(f"{asterisk.settings.ari_base_url}/sounds/{name}", auth=asterisk.ari_auth, timeout=5)
        assert r.status_code == 200, (name, r.text)
        assert "en" in {f["language"] for f in r.json()["formats"]}, (name, r.json())
    missing = httpx.get(
        f"{asterisk.settings.ari_base_url}/sounds/enter-pin", auth=asterisk.ari_auth, timeout=5
    )
    assert missing.status_code == 404  # what the IVR form once accepted typed: Asterisk has no such sound
