#!/bin/sh
# Render the configuration from the environment (ARI/AMI credentials, ports, the database for CEL;
# asterisk_config/README.md), then become Asterisk in the foreground.
set -e
python3 -m asterisk_config.provision render
exec asterisk -f -n -C /etc/asterisk/asterisk.conf "$@"
