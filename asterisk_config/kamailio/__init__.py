"""Kamailio in front of the Asterisk nodes (docs/scale.md): the one SIP address carriers send to.

`config` renders `kamailio.cfg` and the node list, `carriers` keeps the carrier address list in
step with the portal's inbound trunks (reloaded over RPC, no restart), `runtime` starts and
stops Kamailio; `python -m asterisk_config.kamailio run` does all three.
"""
