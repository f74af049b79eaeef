#!/usr/bin/env bash
# Docker on a Debian 12 machine that has only Debian's archive (no Docker repository, no registry):
# the engine from Debian (docker.io), Compose v2 and buildx from trixie's packages (bookworm has
# neither; they need only libc6 >= 2.34), and dockerd started by hand where no systemd runs it.
# Does only what is missing. As root.  DOCKERD_LOG: where a hand-started dockerd logs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v dockerd >/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q docker.io containerd runc iptables
fi

if ! docker compose version >/dev/null 2>&1 || ! docker buildx version >/dev/null 2>&1; then
  . "$here/debian-mirror.sh"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/sources" "$tmp/lists/partial" "$tmp/cache/archives/partial"
  printf 'deb %s trixie main\n' "$DEBIAN_MIRROR" > "$tmp/sources/trixie.list"
  apt_tmp=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$tmp/sources"
           -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
  apt-get "${apt_tmp[@]}" update -q
  (cd "$tmp" && apt-get "${apt_tmp[@]}" download docker-compose docker-buildx)
  dpkg -i "$tmp"/docker-compose_*.deb "$tmp"/docker-buildx_*.deb
fi

if ! docker info >/dev/null 2>&1; then
  if [ -d /run/systemd/system ]; then
    systemctl start docker
  else
    nohup dockerd > "${DOCKERD_LOG:-/var/log/dockerd.log}" 2>&1 &
  fi
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null || { echo "dockerd did not start; see ${DOCKERD_LOG:-/var/log/dockerd.log}" >&2; exit 1; }
fi
docker version --format 'Docker Engine {{.Server.Version}}'
docker compose version
