#!/usr/bin/env bash
# Makes debian:bookworm-slim and debian:sid-slim locally (debootstrap + docker import) for machines
# that reach Debian's archive but no image registry. Imported under the official names, so the
# Dockerfiles and compose files stay exactly what they are where Docker Hub answers.
#
#   deploy/make-base-images.sh [--extra-ca-certs DIR] [--no-valid-until] [--mirror URL] [--force] [SUITE...]
#
#   SUITE               bookworm and/or sid (default: both)
#   --extra-ca-certs D  copy D/*.crt into the images and trust them (a network that re-signs TLS,
#                       as corporate proxies do; otherwise pip/npm in a build fail the TLS check)
#   --no-valid-until    apt in the images ignores an expired Release file (a stale mirror copy)
#   --mirror URL        Debian archive (default: the first one in this machine's apt sources,
#                       else http://deb.debian.org/debian)
#   --force             rebuild an image that already exists
# Needs root, debootstrap and a running docker daemon.
set -euo pipefail

extra_ca="" no_valid_until=0 mirror="" force=0 suites=()
while [ $# -gt 0 ]; do
  case "$1" in
    --extra-ca-certs) extra_ca="$2"; shift 2 ;;
    --no-valid-until) no_valid_until=1; shift ;;
    --mirror) mirror="$2"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    bookworm|sid) suites+=("$1"); shift ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#suites[@]} -gt 0 ] || suites=(bookworm sid)
if [ -n "$extra_ca" ] && ! ls "$extra_ca"/*.crt >/dev/null 2>&1; then
  echo "--extra-ca-certs: no *.crt in $extra_ca" >&2; exit 2
fi
command -v debootstrap >/dev/null || { echo "debootstrap is missing (apt-get install debootstrap)" >&2; exit 2; }

# shellcheck source=debian-mirror.sh
[ -n "$mirror" ] || { . "$(dirname "$0")/debian-mirror.sh"; mirror=$DEBIAN_MIRROR; }

make_image() {
  local suite=$1 tag="debian:$1-slim"
  if [ $force = 0 ] && docker image inspect "$tag" >/dev/null 2>&1; then
    echo "$tag exists (--force rebuilds it)"; return
  fi
  local dir; dir=$(mktemp -d "/tmp/base-$suite.XXXXXX")
  echo "debootstrap $suite from $mirror"
  debootstrap --variant=minbase --include=ca-certificates "$suite" "$dir" "$mirror" >"$dir.log" 2>&1 \
    || { tail -n 20 "$dir.log" >&2; rm -rf "$dir.log" "$dir"; exit 1; }
  rm -f "$dir.log"
  # What the official slim images leave out, and keep out of later apt-get installs.
  cat > "$dir/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
  cat > "$dir/etc/apt/apt.conf.d/docker-clean" <<'CFG'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };
APT::Install-Recommends "false";
Acquire::GzipIndexes "true";
CFG
  printf 'deb %s %s main\n' "$mirror" "$suite" > "$dir/etc/apt/sources.list"
  if [ $no_valid_until = 1 ]; then
    echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/no-valid-until"
  fi
  if [ -n "$extra_ca" ]; then
    cp "$extra_ca"/*.crt "$dir/usr/local/share/ca-certificates/"
    chroot "$dir" update-ca-certificates >/dev/null
  fi
  find "$dir/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$dir"/usr/share/man/* "$dir"/usr/share/info/* "$dir"/var/lib/apt/lists/* \
         "$dir"/var/cache/apt/*.bin "$dir"/var/cache/apt/archives/*.deb "$dir"/var/log/*.log
  find "$dir/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
  tar -C "$dir" --numeric-owner -c . | docker import --change 'CMD ["bash"]' - "$tag" >/dev/null
  rm -rf "$dir"
  echo "$tag: $(docker image inspect -f '{{.Size}}' "$tag" | awk '{printf "%d MB", $1/1e6}')"
}

for s in "${suites[@]}"; do make_image "$s"; done
