#!/bin/sh
# Prometheus's start in deploy/compose.yml: prometheus.yml's ${...} filled in from the environment
# (compose passes .env's ports), written beside the data, then Prometheus on it. Prometheus reads no
# environment in its configuration itself; busybox's and Debian's sh and sed both run this.
set -eu
config=/prometheus/prometheus.yml
cp /etc/prometheus/prometheus.yml "$config"
for name in PORTAL_PORT BRIDGE_METRICS_PORT WORKER_METRICS_HOST_PORT ASTERISK_HTTP_PORT PROMETHEUS_PORT \
            PROMETHEUS_SCRAPE_INTERVAL; do
  value=$(printenv "$name") || { echo "start.sh: $name is not set" >&2; exit 2; }
  sed -i "s|\${$name}|$value|g" "$config"
done
exec prometheus --config.file="$config" --storage.tsdb.path=/prometheus \
  --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" "$@"
