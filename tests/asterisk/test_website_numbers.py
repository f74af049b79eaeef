"""Issue 33's proof of website number swapping: a page on loopback carrying the customer's script,
opened in Chromium (the real portal serving the script and the numbers), shows a pool number;
sipp calls that number through Asterisk and the bridge, and the call is attributed to the visit
(source, campaign, click id). A second browser (its own storage: another visitor) gets the other
number; a third visitor on a pool of two reuses a number, and a call to it is ambiguous."""

import contextlib
import http.server
import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from core.models import Call, DniPool, DniSite, Number, TrafficSource
from testkit.actors import make_actor
from testkit.asterisk import AsteriskUnderTest, calls, seed_plan
from testkit.processes import api_server
from testkit.rows import CALLER, save
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually

pytestmark = pytest.mark.asterisk
POOL = ["+442071838761", "+442071838762"]
KEY = "website-test-key-0123456789abcdef"
# A desktop browser's user agent: headless Chromium says "HeadlessChrome", which is refused as a bot.
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"


@contextlib.contextmanager
def customer_site(portal: str) -> Iterator[str]:
    """The customer's web page on loopback (its own origin), carrying the script tag the portal shows."""
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<script async src="{portal}/api/dni/{KEY}/script.js"></script></head>
<body><h1>Acme Plumbing</h1><p>Call us: <a id="tel" href="tel:+442071838750">020 7183 8750</a></p>
<p>Or: <span id="shown" class="callroute-number">+44 20 7183 8750</span></p></body></html>"""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def visit(chromium: str, profile: Path, url: str, screenshot: Path | None = None) -> str:
    """The page as a visitor with its own browser storage sees it once the script ran: the number shown."""
    argv = [
        chromium,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        f"--user-data-dir={profile}",
        f"--user-agent={BROWSER}",
        "--virtual-time-budget=10000",
    ]
    if screenshot is not None:
        run = [*argv, f"--screenshot={screenshot}", "--window-size=900,500", url]
        subprocess.run(run, capture_output=True, timeout=60, check=True)
    dom = subprocess.run(
        [*argv, "--dump-dom", url], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    shown = re.search(r'id="shown"[^>]*>([^<]*)<', dom)
    tel = re.search(r'id="tel" href="tel:([^"]*)">([^<]*)<', dom)
    assert shown and tel, dom
    number = "+" + re.sub(r"\D", "", shown.group(1))
    # The link dials what the page shows, and says it in the page's own (national) format.
    assert tel.groups() == (number, f"020 7183 {number[-4:]}"), dom
    return number


async def test_website_visitors_get_pool_numbers_and_their_calls_are_attributed(
    asterisk: AsteriskUnderTest, sipp_binary: str, chromium_binary: str, bridge: Path, tmp_path: Path
) -> None:
    admin = make_actor(1, "Ada Admin")
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk)
        for number in POOL:
            save(Number(number=number, user_id=plan.user_id, campaign_id=plan.campaign_id, website_pool=True))
        save(DniPool(campaign_id=plan.campaign_id, user_id=plan.user_id, enabled=True, page_number=plan.did))
        google = save(TrafficSource(user_id=plan.user_id, name="Google Ads", utm_source="google"))
        with api_server() as portal, customer_site(portal) as site:
            save(DniSite(user_id=plan.user_id, script_key=KEY, origins=[site]))
            landing = f"{site}/?utm_source=google&utm_campaign=spring&gclid=TEST123"
            first = visit(chromium_binary, tmp_path / "v1", landing, tmp_path / "website-visitor.png")
            second = visit(chromium_binary, tmp_path / "v2", f"{site}/?utm_source=bing")
            assert {first, second} == set(POOL)  # two visitors, two numbers
            assert visit(chromium_binary, tmp_path / "v1", f"{site}/pricing") == first  # the same visitor

            log = await call(sipp_binary, asterisk, first, CALLER, tmp_path, talk_ms=1000)
            assert "final=SIP/2.0 200" in log, log + bridge.read_text()[-3000:]
            (row,) = calls()
            shown = _attribution(portal, admin.headers, row)
            assert row.source_id == google.id and row.did == first
            assert (shown["status"], shown["source"], shown["campaign"]) == ("matched", "google", "spring")
            assert (shown["click_id"], shown["click_id_kind"]) == ("TEST123", "gclid")
            # The landing page twice (photographed, then read), then the next page.
            assert [p["url"] for p in shown["pages"]] == [landing, landing, f"{site}/pricing"]

            # A third visitor on a pool of two: the least recently active visitor's number again.
            third = visit(chromium_binary, tmp_path / "v3", f"{site}/?utm_source=facebook")
            assert third == second  # the second visitor was idle longest
            log = await call(sipp_binary, asterisk, third, CALLER, tmp_path, talk_ms=1000)
            assert "final=SIP/2.0 200" in log
            last = calls(2)[-1]
            ambiguous = _attribution(portal, admin.headers, last)
            assert (ambiguous["status"], ambiguous["source"]) == ("ambiguous", "facebook")
            assert sorted(c["source"] for c in ambiguous["candidates"]) == ["bing", "facebook"]
    assert (tmp_path / "website-visitor.png").stat().st_size > 0
    print(f"screenshot: {tmp_path / 'website-visitor.png'}")


def _attribution(portal: str, headers: dict[str, str], row: Call) -> dict[str, Any]:
    """The call detail's attribution, as the portal answers it (written just after the call's row)."""

    def shown() -> dict[str, Any]:
        answer = httpx.get(f"{portal}/api/dni/call/{row.id}", headers=headers).json()["data"]
        assert answer is not None
        return dict(answer)

    return dict(eventually(shown))
