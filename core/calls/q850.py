"""Q.850 release causes: what each code says, and the SIP status Asterisk (chan_pjsip) answers an
unanswered INVITE with for it (RFC 3398's mapping, as Asterisk applies it). A call's row keeps
both (docs/routing.md, "Why a call ended")."""

from typing import NamedTuple


class Cause(NamedTuple):
    text: str
    sip: int | None  # None: Asterisk sends no mapped status (an unanswered call gets 603 Decline)


CAUSES: dict[int, Cause] = {
    1: Cause("Unallocated (unassigned) number", 404),
    2: Cause("No route to specified transit network", 404),
    3: Cause("No route to destination", 404),
    16: Cause("Normal call clearing", None),
    17: Cause("User busy", 486),
    18: Cause("No user responding", 408),
    19: Cause("No answer from user", 480),
    20: Cause("Subscriber absent", 480),
    21: Cause("Call rejected", 403),
    22: Cause("Number changed", 410),
    27: Cause("Destination out of order", 502),
    28: Cause("Invalid number format", 484),
    29: Cause("Facility rejected", 501),
    31: Cause("Normal, unspecified", 480),
    34: Cause("No circuit/channel available", 503),
    38: Cause("Network out of order", 500),
    41: Cause("Temporary failure", None),  # RFC 3398 says 503; Asterisk 22's chan_pjsip sends 603
    42: Cause("Switching equipment congestion", 503),
    58: Cause("Bearer capability not presently available", 488),
    102: Cause("Recovery on timer expiry", 504),
    127: Cause("Interworking, unspecified", 500),
}


def text(code: int | None) -> str | None:
    """What a cause says (None when there is no cause)."""
    if code is None:
        return None
    return CAUSES[code].text if code in CAUSES else f"Cause {code}"


def sip_status(code: int | None) -> int | None:
    """The SIP status an unanswered call released with `code` gets (603 when none is mapped)."""
    if code is None:
        return None
    found = CAUSES.get(code)
    return found.sip if found is not None and found.sip is not None else 603
