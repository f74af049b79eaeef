#!/bin/sh
# The image's commands (deploy/Dockerfile): one per service of deploy/compose.yml.
#   portal | bridge | worker | transcriber | beat | migrate     run that service
#   kamailio                                      the SIP proxy in front of several nodes (compose.nodes.yml)
#   health                                        the HEALTHCHECK: asks the running service
set -eu
role=/tmp/callroute-role  # which service this container runs, for `health`

probe() {  # fails unless the URL answers 2xx within 4 s
  exec python -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=4)' "$1"
}

case "${1:-portal}" in
  portal)
    echo portal > "$role"
    workers=${PORTAL_WORKERS:-0}
    [ "$workers" -gt 0 ] || workers=$(nproc)  # 0: one process per core, as `make run`
    if [ "$workers" -gt 1 ]; then
      # Several processes: each writes its metrics here and /metrics adds them up. prometheus_client
      # reads the variable as a process starts, and the folder must start empty (docs/operations.md).
      export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-/tmp/callroute-metrics}"
      rm -rf "$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
    fi
    # As launcher/portal.py: uvicorn's access log and X-Forwarded-For handling off (TRUSTED_PROXIES
    # decides), WebSocket messages uncompressed (compressing is per socket: docs/performance.md), and
    # a worker killed as hung only after 90 s without answering its ping.
    exec uvicorn portal_api.app:app --host "$HOST" --port "$PORT" --no-access-log --no-proxy-headers \
      --ws-per-message-deflate false --workers "$workers" --timeout-worker-healthcheck 90 ;;
  bridge)
    echo bridge > "$role"
    exec python -m pbx_bridge ;;
  worker)
    echo worker > "$role"
    exec celery -A workers.app worker --loglevel "${LOG_LEVEL:-INFO}" -Q celery ;;
  transcriber)
    echo transcriber > "$role"
    # Transcription's own queue, one process at a time (docs/conversation.md).
    exec celery -A workers.app worker --loglevel "${LOG_LEVEL:-INFO}" -Q transcribe -c "${TRANSCRIBE_PROCESSES:-1}" -n "transcriber@%h" ;;
  beat)
    echo beat > "$role"
    # Beat keeps its last runs in DATA_DIR (a volume): a restart neither repeats nor skips a job.
    exec celery -A workers.app beat --loglevel "${LOG_LEVEL:-INFO}" --schedule "$DATA_DIR/celerybeat-schedule" ;;
  kamailio)
    echo kamailio > "$role"
    exec python -m asterisk_config.kamailio run ;;
  migrate)
    exec python -m launcher.migrate ;;
  health)
    case "$(cat "$role" 2>/dev/null)" in
      portal) probe "http://127.0.0.1:$PORT/health/ready" ;;
      bridge) probe "http://127.0.0.1:${BRIDGE_METRICS_PORT:-9101}/health/ready" ;;
      worker|transcriber) probe "http://127.0.0.1:${WORKER_METRICS_PORT:-9102}/health/live" ;;
      beat) exit 0 ;;  # no port of its own: running is all there is to say
      kamailio) exec kamcmd -s "unix:$DATA_DIR/kamailio/kamailio.ctl" core.version >/dev/null ;;
      *) echo "no service started in this container" >&2; exit 1 ;;
    esac ;;
  *)
    echo "usage: callroute portal|bridge|worker|transcriber|beat|migrate|kamailio|health" >&2; exit 2 ;;
esac
