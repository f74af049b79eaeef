"""The programs tests need that a fresh machine may lack, each installed on demand (Debian's package,
as root) by the one function here. tests/conftest.py wraps each in one session fixture, and every
test that needs the program asks for that fixture: whichever runs first installs it, so no test
depends on another having run before it (docs/operations.md, "Tools the tests install").

`python -m testkit.tools chromium` installs one by hand (`make browser`)."""

import sys

from asterisk_config import chroot

# command -> the Debian package that provides it
HOST_TOOLS = {
    "sipp": "sip-tester",  # carriers and buyers' targets in real-call tests
    "kamailio": "kamailio",  # the proxy in front of several nodes
    "chromium": "chromium",  # the browser tests (playwright-core drives Debian's Chromium)
    "espeak-ng": "espeak-ng",  # campaigns' whispers typed as text
    "mpg123": "mpg123",  # uploaded MP3 prompts and whispers, decoded by the portal
    "lame": "lame",  # the MP3s the upload tests send
}


def host_tool(command: str) -> str:
    """Path of `command`, installed from its Debian package when missing; raises
    `asterisk_config.errors.Unavailable` saying why it can't be."""
    return chroot.ensure_host_tool(command, HOST_TOOLS[command], _say)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)  # stdout is a benchmark's figures


if __name__ == "__main__":
    print(host_tool(sys.argv[1]))
