"""Call recordings, streamed from where Asterisk stores them (ARI `/recordings/stored`), so the API
needs no shared disk with the PBX."""

from collections.abc import Iterator
from urllib.parse import quote

import httpx
from fastapi.responses import StreamingResponse

from core.settings import get_settings
from portal_api.errors import ApiError


def stored_recording(name: str) -> StreamingResponse:
    """The recording `name` as a WAV download; 404 when Asterisk no longer has it, 503 when the PBX
    can't be reached."""
    s = get_settings()
    client = httpx.Client(
        base_url=f"http://127.0.0.1:{s.asterisk_http_port}/ari", auth=(s.ari_user, s.ari_password), timeout=10
    )
    try:
        response = client.send(
            client.build_request("GET", f"/recordings/stored/{quote(name, safe='')}/file"), stream=True
        )
    except httpx.HTTPError:
        client.close()
        raise ApiError(503, "The PBX can't be reached for this recording now; try again shortly.") from None
    if response.status_code != 200:
        response.close()
        client.close()
        if response.status_code == 404:
            raise ApiError(404, "This call's recording is no longer stored.")
        raise ApiError(502, f"The PBX answered {response.status_code} for this recording.")

    def body() -> Iterator[bytes]:
        try:
            yield from response.iter_bytes()
        finally:
            response.close()
            client.close()

    return StreamingResponse(
        body(),
        media_type="audio/wav",
        headers={"Content-Disposition": f'attachment; filename="{name}.wav"'},
    )
