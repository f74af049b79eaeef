#!/bin/sh
# First start: create the cluster, its superuser and database as the official image does; then run
# PostgreSQL in the foreground, listening on every address with password authentication.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user=${POSTGRES_USER:-postgres} db=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 >/dev/null
  rm -f "$pwfile"
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -w -o "-c listen_addresses=''" start >/dev/null
    createdb -U "$user" "$db"
    pg_ctl -w stop >/dev/null
  fi
fi
exec postgres
