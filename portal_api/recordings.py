"""Call recordings, streamed from where Asterisk stores them (ARI `/recordings/stored`, through
core.ari), so the API needs no shared disk with the PBX."""

from urllib.parse import quote

from fastapi.responses import StreamingResponse

from core.ari import AriAddress, AriError, AriHttp
from portal_api.errors import ApiError


def stored_recording(name: str) -> StreamingResponse:
    """The recording `name` as a WAV download; 404 when Asterisk no longer has it, 503 when the PBX
    can't be reached."""
    try:
        body = AriHttp(AriAddress.from_settings()).download(f"/recordings/stored/{quote(name, safe='')}/file")
    except AriError as exc:
        if exc.status == 503:
            message = "The PBX can't be reached for this recording now; try again shortly."
            raise ApiError(503, message) from None
        if exc.status == 404:
            raise ApiError(404, "This call's recording is no longer stored.") from None
        raise ApiError(502, f"The PBX answered {exc.status} for this recording.") from None
    return StreamingResponse(
        body,
        media_type="audio/wav",
        headers={"Content-Disposition": f'attachment; filename="{name}.wav"'},
    )
