"""Render the Asterisk configuration templates with settings from the environment.

Templates use ``{{ NAME }}`` placeholders rather than ``$NAME`` because
Asterisk's own dialplan syntax (``${EXTEN}``) would clash with
``string.Template``.  Every placeholder must be known: a typo fails loudly
instead of leaving a literal ``{{ X }}`` in a config file.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from asterisk_config.errors import ConfigError
from asterisk_config.settings import AsteriskSettings
from core.infra import names
from core.values.enums import Leg

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
PG_TEMPLATE_DIR = TEMPLATE_DIR / "pgsql"

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Z0-9_]+)\s*\}\}")


def template_values(settings: AsteriskSettings) -> dict[str, str]:
    pg = settings.pg
    values = {
        "ETC_DIR": settings.etc_dir,
        "RUN_DIR": settings.run_dir,
        "LOG_DIR": settings.log_dir,
        "SPOOL_DIR": settings.spool_dir,
        "DB_DIR": settings.db_dir,
        "HTTP_PORT": str(settings.http_port),
        "AMI_PORT": str(settings.ami_port),
        "SIP_PORT": str(settings.sip_port),
        "SIP_BIND": settings.sip_bind,
        "CARRIER_ADDRESSES": ",".join(settings.carrier_addresses),
        "RTP_START": str(settings.rtp_start),
        "RTP_END": str(settings.rtp_end),
        "RTP_TIMEOUT": str(settings.rtp_timeout),
        "ARI_USER": settings.ari_user,
        "ARI_PASSWORD": settings.ari_password,
        "AMI_USER": settings.ami_user,
        "AMI_SECRET": settings.ami_secret,
        "STASIS_APP": settings.stasis_app,
        # The node's id starts every uniqueid, so every linkedid names its node (core.pbx.nodes).
        "SYSTEM_NAME": f"systemname = {settings.node_id}" if settings.node_id else "; the only node",
        # What the bridge and the dialplan both spell (core.infra.names).
        "DIAL_CONTEXT": names.DIAL_CONTEXT,
        "GOODBYE_CONTEXT": names.GOODBYE_CONTEXT,
        "REFUSE_CONTEXT": names.REFUSE_CONTEXT,
        "ANSWER_ROUTINE": names.ANSWER_ROUTINE,
        "RECORDED_ANSWER": names.RECORDED_ANSWER,
        "ATTEMPT_EVENT": names.ATTEMPT_EVENT,
        "ANSWERED_EVENT": names.ANSWERED_EVENT,
        "END_EVENT": names.END_EVENT,
        "FAILOVER_WAIT": str(names.FAILOVER_WAIT_SECONDS),
        "ELSEWHERE_HEADER": names.ELSEWHERE_HEADER,
        "ELSEWHERE_CAUSE": str(names.ELSEWHERE_CAUSE),
        "RECORDING": names.recording_name("${CHANNEL(linkedid)}"),
        "RECORDING_CALLER": names.leg_recording_name("${CHANNEL(linkedid)}", Leg.CALLER),
        "RECORDING_TARGET": names.leg_recording_name("${CHANNEL(linkedid)}", Leg.TARGET),
        # CEL costs work per call: only produce it when it is stored somewhere.
        "CEL_MODULE": "load => cel_pgsql.so" if pg else "noload => cel_pgsql.so",
        "CEL_ENABLE": "yes" if pg else "no",
    }
    if pg is not None:
        values.update(
            PG_HOST=pg.host,
            PG_PORT=str(pg.port),
            PG_DBNAME=pg.dbname,
            PG_USER=pg.user,
            PG_PASSWORD=pg.password,
        )
    return values


def render_text(template: str, values: dict[str, str], name: str = "<template>") -> str:
    def substitute(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise ConfigError(f"{name}: unknown placeholder {{{{ {key} }}}}")
        return values[key]

    return _PLACEHOLDER.sub(substitute, template)


def render_config(settings: AsteriskSettings) -> dict[str, str]:
    """File name -> rendered text for every config file of this instance."""
    settings.validate_secrets()
    values = template_values(settings)
    dirs = [TEMPLATE_DIR] + ([PG_TEMPLATE_DIR] if settings.pg is not None else [])
    files: dict[str, str] = {}
    for directory in dirs:
        for path in sorted(directory.glob("*.conf")):
            files[path.name] = render_text(path.read_text(), values, path.name)
    return files


def write_config(settings: AsteriskSettings, target: Path) -> list[str]:
    """Write the rendered files into ``target`` (an Asterisk etc dir).

    Other ``*.conf`` files there (Debian's samples, or files rendered for an
    earlier setting such as cel_pgsql.conf) are moved to ``target``.dist the
    first time, then removed, so Asterisk reads exactly what we rendered.
    """
    files = render_config(settings)
    target.mkdir(parents=True, exist_ok=True)
    backup = target.with_name(target.name + ".dist")
    stale = [p for p in target.iterdir() if p.is_file() and p.name not in files]
    if stale and not backup.exists():
        backup.mkdir()
        for path in stale:
            shutil.copy2(path, backup / path.name)
    for path in stale:
        path.unlink()
    for name, text in files.items():
        # Secrets inside: readable by root only; write-then-rename so a
        # running Asterisk reloading config never sees half a file.
        tmp = target / f".{name}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, target / name)
    return sorted(files)
