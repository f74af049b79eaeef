"""Reading what a service's /metrics says, as Prometheus would."""

import re


def sample(exposition: str, name: str, **labels: str) -> float | None:
    """The value of series `name` with exactly `labels` in a Prometheus text exposition."""
    for line in exposition.splitlines():
        found = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if found and found[1] == name:
            have = dict(re.findall(r'(\w+)="([^"]*)"', found[2] or ""))
            if have == labels:
                return float(found[3])
    return None
