"""Call recordings where Asterisk stores them: over ARI (`/recordings/stored`, through core.pbx.ari)
from the Asterisk that recorded the call (the one beside this process, or with several nodes the
call's node, at the address it beats with: core.pbx.node_registry), or from RECORDINGS_DIR where this
process shares the Asterisks' recording folder instead (a container deployment). The portal streams
them to a user; the transcription worker reads each leg's."""

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from core.infra.settings import get_settings
from core.pbx import node_registry
from core.pbx.ari import AriAddress, AriError, AriHttp
from core.values.errors import DomainError, ErrorId

_GONE = "This call's recording is no longer stored."
_CHUNK = 64 * 1024


def chunks(name: str, node: str = "") -> Iterator[bytes]:
    """The WAV file of recording `name`, made on `node` (core.pbx.nodes; '' for the only node), in
    chunks; DomainError RECORDING_GONE when it is no longer stored, RECORDING_PBX_AWAY when its PBX
    can't be reached."""
    folder = get_settings().recordings_dir
    return _from_folder(folder, name) if folder is not None else _from_ari(name, node)


def _from_folder(folder: Path, name: str) -> Iterator[bytes]:
    path = folder / f"{name}.wav"
    # The name comes from the call row; still, nothing outside the folder is ever served.
    if path.parent != folder or not path.is_file():
        raise DomainError(ErrorId.RECORDING_GONE, _GONE)
    handle = path.open("rb")  # opened now: a file removed before the first chunk is still read whole

    def read() -> Iterator[bytes]:
        with handle:
            while chunk := handle.read(_CHUNK):
                yield chunk

    return read()


def _node_ari(node: str) -> AriAddress:
    """ARI of the Asterisk that recorded on `node`, with that node's own login."""
    if not node:
        return AriAddress.from_settings()
    found, login = node_registry.address_of(node), node_registry.ari_login(node)
    if found is None or login is None:  # the node is down: asking anything would only time out
        message = f"The PBX node {node} that recorded this call is down; try again once it is back."
        raise DomainError(ErrorId.RECORDING_PBX_AWAY, message)
    on = get_settings().callroute_asterisk == "on"
    return AriAddress(found.host, found.ari_port, login.user, login.password, on)


def _from_ari(name: str, node: str) -> Iterator[bytes]:
    address = _node_ari(node)
    try:
        return AriHttp(address).download(f"/recordings/stored/{quote(name, safe='')}/file")
    except AriError as exc:
        if exc.status == 503:
            message = "The PBX can't be reached for this recording now; try again shortly."
            raise DomainError(ErrorId.RECORDING_PBX_AWAY, message) from None
        if exc.status == 404:
            raise DomainError(ErrorId.RECORDING_GONE, _GONE) from None
        message = f"The PBX answered {exc.status} for this recording."
        raise DomainError(ErrorId.RECORDING_PBX_FAILED, message) from None
