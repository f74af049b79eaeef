"""Call recordings, streamed to the portal's user from where Asterisk stores them (core.pbx.recordings)."""

from fastapi.responses import StreamingResponse

from core.pbx import recordings


def stored_recording(name: str, node: str = "") -> StreamingResponse:
    """The recording `name`, made on `node` (core.pbx.nodes; '' for the only node), as a WAV download;
    404 when it is no longer stored, 503 when its PBX can't be reached."""
    return StreamingResponse(
        recordings.chunks(name, node),
        media_type="audio/wav",
        headers={"Content-Disposition": f'attachment; filename="{name}.wav"'},
    )
