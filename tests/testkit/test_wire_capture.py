"""testkit.wire's parsing, on built frames (no capture, no root): Ethernet/IPv4/UDP to a datagram, and
the SIP in them to each caller's talk time on the wire."""

import struct

from testkit.wire import Datagram, parse_frame, talk_times_ms

ASTERISK, CALLER_PORT, TARGET_PORT = 5060, 40000, 41000
MS = 1_000_000


def frame(src: int, dst: int, payload: bytes, ethertype: int = 0x0800, protocol: int = 17) -> bytes:
    """A frame as AF_PACKET gives it on lo: zero MAC addresses, IPv4 (no options), UDP."""
    udp = struct.pack("!HHHH", src, dst, 8 + len(payload), 0) + payload
    ip = struct.pack(
        "!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, protocol, 0, b"\x7f\0\0\1", b"\x7f\0\0\1"
    )
    return b"\0" * 12 + struct.pack("!H", ethertype) + ip + udp


def sip(first_line: str, call_id: str, cseq: str, sender: str = "+447911123400") -> bytes:
    headers = [
        first_line,
        "Via: SIP/2.0/UDP 127.0.0.1:40000;branch=z9hG4bK-1",
        f'From: "Test Caller" <sip:{sender}@127.0.0.1:40000>;tag=1',
        "To: <sip:15550100@127.0.0.1:5060>",
        f"Call-ID: {call_id}",
        f"CSeq: {cseq}",
        "Content-Length: 0",
    ]
    return ("\r\n".join(headers) + "\r\n\r\n").encode()


def test_a_udp_frame_is_parsed_to_its_ports_and_payload_and_anything_else_is_not() -> None:
    payload = sip("INVITE sip:15550100@127.0.0.1:5060 SIP/2.0", "a@x", "1 INVITE")
    # lo pads nothing, but a frame may carry bytes past the IP datagram: they are not the payload.
    assert parse_frame(7, frame(CALLER_PORT, ASTERISK, payload) + b"\0\0") == Datagram(
        7, CALLER_PORT, ASTERISK, payload
    )
    assert parse_frame(7, frame(CALLER_PORT, ASTERISK, payload, ethertype=0x86DD)) is None  # IPv6
    assert parse_frame(7, frame(CALLER_PORT, ASTERISK, payload, protocol=6)) is None  # TCP
    assert parse_frame(7, b"\0" * 20) is None


def test_talk_time_runs_from_the_first_200_ok_to_the_invite_to_the_callers_bye() -> None:
    packets = [
        (0, CALLER_PORT, ASTERISK, sip("INVITE sip:15550100@127.0.0.1:5060 SIP/2.0", "a@x", "1 INVITE")),
        (1, ASTERISK, CALLER_PORT, sip("SIP/2.0 100 Trying", "a@x", "1 INVITE")),
        # Asterisk's own leg to the target: its INVITE leaves from Asterisk's port, its 200 OK arrives.
        (2, ASTERISK, TARGET_PORT, sip("INVITE sip:t@127.0.0.1:41000 SIP/2.0", "b@x", "1 INVITE")),
        (900, TARGET_PORT, ASTERISK, sip("SIP/2.0 200 OK", "b@x", "1 INVITE")),
        (1000, ASTERISK, CALLER_PORT, sip("SIP/2.0 200 OK", "a@x", "1 INVITE")),
        (1500, ASTERISK, CALLER_PORT, sip("SIP/2.0 200 OK", "a@x", "1 INVITE")),  # a retransmission
        (13_023, CALLER_PORT, ASTERISK, sip("BYE sip:15550100@127.0.0.1:5060 SIP/2.0", "a@x", "2 BYE")),
        (13_024, ASTERISK, CALLER_PORT, sip("SIP/2.0 200 OK", "a@x", "2 BYE")),
        (13_600, CALLER_PORT, ASTERISK, sip("BYE sip:15550100@127.0.0.1:5060 SIP/2.0", "a@x", "2 BYE")),
        # A second caller, never answered: no talk time.
        (50, CALLER_PORT + 1, ASTERISK, sip("INVITE sip:1@h SIP/2.0", "c@x", "1 INVITE", "+447911123401")),
        (60, ASTERISK, CALLER_PORT + 1, sip("SIP/2.0 486 Busy Here", "c@x", "1 INVITE")),
        (70, ASTERISK, CALLER_PORT + 1, b"\x80\x08 not SIP (RTP)"),
    ]
    captured = [parse_frame(at * MS, frame(src, dst, body)) for at, src, dst, body in reversed(packets)]
    assert talk_times_ms([d for d in captured if d is not None], ASTERISK) == {"+447911123400": 12_023}


def test_sub_millisecond_stamps_round_to_the_nearest_millisecond() -> None:
    invite = sip("INVITE sip:1@h SIP/2.0", "a@x", "1 INVITE")
    datagrams = [
        Datagram(0, CALLER_PORT, ASTERISK, invite),
        Datagram(400_000, ASTERISK, CALLER_PORT, sip("SIP/2.0 200 OK", "a@x", "1 INVITE")),
        Datagram(7_006 * MS + 100_000, CALLER_PORT, ASTERISK, sip("BYE sip:1@h SIP/2.0", "a@x", "2 BYE")),
    ]
    assert talk_times_ms(datagrams, ASTERISK) == {"+447911123400": 7006}
