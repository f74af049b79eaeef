"""SIP on the wire: the datagrams to and from a port on the loopback interface, each with the time
the kernel stamped it, and from them the talk time of each call as it really was (from the 200 OK to the BYE).

A reference for talk time must not depend on a process being scheduled: sipp stamps a 200 OK when
its loop gets round to reading it, late under load, and then waits its pause from that late moment.
The kernel stamps a packet as it passes the interface; the reader thread here only stores packets,
so when it runs does not change their times. Opening the capture needs root (CAP_NET_RAW)."""

import ctypes
import socket
import struct
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from testkit.required import unavailable

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
PACKET_OUTGOING = 4  # the copy of a sent packet; on lo the same packet comes back as received
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)
SO_ATTACH_FILTER = getattr(socket, "SO_ATTACH_FILTER", 26)
_ETHERNET = 14  # lo's frames have an Ethernet header (zero addresses) under AF_PACKET


@dataclass(frozen=True)
class Datagram:
    """One UDP datagram over IPv4 as captured: kernel time (ns since the epoch), ports, payload."""

    at_ns: int
    src_port: int
    dst_port: int
    payload: bytes


def parse_frame(at_ns: int, frame: bytes) -> Datagram | None:
    """The UDP datagram in an Ethernet/IPv4 frame, or None for anything else."""
    if len(frame) < _ETHERNET + 20 or struct.unpack("!H", frame[12:14])[0] != ETH_P_IP:
        return None
    ip = frame[_ETHERNET:]
    header = (ip[0] & 0x0F) * 4
    total = struct.unpack("!H", ip[2:4])[0]
    if ip[0] >> 4 != 4 or ip[9] != socket.IPPROTO_UDP or len(ip) < header + 8:
        return None
    src, dst, length = struct.unpack("!HHH", ip[header : header + 6])
    end = min(header + length, total, len(ip))
    return Datagram(at_ns, src, dst, bytes(ip[header + 8 : end]))


@dataclass
class _Dialog:
    caller: str
    answered_ns: int | None = None
    bye_ns: int | None = None


@dataclass(frozen=True)
class WireCall:
    """A caller's call as the carrier sees it: when its 200 OK and its BYE passed (kernel ns)."""

    answered_ns: int
    bye_ns: int

    @property
    def talk_ms(self) -> int:
        return round((self.bye_ns - self.answered_ns) / 1_000_000)


def _sip(payload: bytes) -> tuple[str, dict[str, str]] | None:
    """A SIP message's first line and its headers (lower-case names, first of each)."""
    head = payload.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    first, *lines = head.split("\r\n")
    if not (first.startswith("SIP/2.0 ") or first.endswith(" SIP/2.0")):
        return None
    headers: dict[str, str] = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    return first, headers


def _user(from_header: str) -> str:
    """The user part of a From header's SIP URI: the caller's number."""
    uri = from_header.split("sip:", 1)[1]
    return uri.split("@", 1)[0].split(";", 1)[0]


def calls_on_wire(datagrams: Iterable[Datagram], port: int) -> dict[str, WireCall]:
    """Per caller (the From user of an INVITE sent to `port`), its call on the wire: the first 200 OK
    to that INVITE sent from `port` and the caller's first BYE. Calls never answered or not hung up
    by the caller are left out; the dialogs `port` itself places (to targets) are not counted, as
    their INVITEs leave from it."""
    dialogs: dict[str, _Dialog] = {}
    for datagram in sorted(datagrams, key=lambda d: d.at_ns):
        message = _sip(datagram.payload)
        if message is None:
            continue
        first, headers = message
        call_id = headers.get("call-id", "")
        if datagram.dst_port == port and first.startswith("INVITE ") and call_id not in dialogs:
            dialogs[call_id] = _Dialog(_user(headers["from"]))
        dialog = dialogs.get(call_id)
        if dialog is None:
            continue
        answer = first.startswith("SIP/2.0 200") and headers.get("cseq", "").endswith(" INVITE")
        if answer and datagram.src_port == port and dialog.answered_ns is None:
            dialog.answered_ns = datagram.at_ns
        if first.startswith("BYE ") and datagram.dst_port == port and dialog.bye_ns is None:
            dialog.bye_ns = datagram.at_ns
    return {
        d.caller: WireCall(d.answered_ns, d.bye_ns)
        for d in dialogs.values()
        if d.answered_ns is not None and d.bye_ns is not None
    }


def talk_times_ms(datagrams: Iterable[Datagram], port: int) -> dict[str, int]:
    """Per caller, the talk time on the wire in ms: from its 200 OK to its BYE (`calls_on_wire`)."""
    return {caller: call.talk_ms for caller, call in calls_on_wire(datagrams, port).items()}


def _udp_port_filter(port: int) -> bytes:
    """A classic BPF program keeping IPv4 UDP frames from or to `port` (tcpdump's `udp port N`), so
    the kernel queues only those however busy lo is with other tests' traffic."""
    drop, keep = 10, 9
    program = [
        (0x28, 0, 0, 12),  # ldh [12]: EtherType
        (0x15, 0, drop - 2, ETH_P_IP),
        (0x30, 0, 0, 23),  # ldb [23]: IP protocol
        (0x15, 0, drop - 4, socket.IPPROTO_UDP),
        (0xB1, 0, 0, _ETHERNET),  # ldxb 4*([14]&0xf): IP header length
        (0x48, 0, 0, _ETHERNET),  # ldh [x+14]: source port
        (0x15, keep - 7, 0, port),
        (0x48, 0, 0, _ETHERNET + 2),  # ldh [x+16]: destination port
        (0x15, keep - 9, drop - 9, port),
        (0x06, 0, 0, 0x40000),  # keep the whole frame
        (0x06, 0, 0, 0),  # drop
    ]
    return b"".join(struct.pack("HBBI", *insn) for insn in program)


def _attach_filter(sock: socket.socket, program: bytes) -> None:
    """Attach `program` as struct sock_fprog {unsigned short len; struct sock_filter *filter;}; the
    kernel copies it, so the buffer need only outlive the call."""
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = struct.pack("HP", len(program) // 8, ctypes.addressof(buffer))
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)


@dataclass
class WireCapture:
    """SIP datagrams to and from `port` on lo, with the kernel's receive times."""

    port: int
    sock: socket.socket
    frames: list[tuple[int, bytes]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def read(self) -> None:
        """Store every frame with its stamp; ends once stopping and nothing is left queued."""
        while True:
            try:
                frame, ancillary, _, address = self.sock.recvmsg(65536, socket.CMSG_SPACE(16))
            except TimeoutError:
                if self.stopping.is_set():
                    return
                continue
            if address[2] == PACKET_OUTGOING:
                continue
            for level, kind, data in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    seconds, nanos = struct.unpack("qq", data[:16])
                    self.frames.append((seconds * 1_000_000_000 + nanos, frame))

    def datagrams(self) -> list[Datagram]:
        parsed = (parse_frame(at_ns, frame) for at_ns, frame in self.frames)
        return [d for d in parsed if d is not None and self.port in (d.src_port, d.dst_port)]

    def talk_times_ms(self) -> dict[str, int]:
        """Per caller, the talk time on the wire of its call to `port` (`talk_times_ms`)."""
        return talk_times_ms(self.datagrams(), self.port)

    def calls(self) -> dict[str, WireCall]:
        """Per caller, its call to `port` on the wire (`calls_on_wire`)."""
        return calls_on_wire(self.datagrams(), self.port)


@contextmanager
def sip_wire(port: int) -> Iterator[WireCapture]:
    """Capture what goes to and from UDP `port` on lo while the block runs; read the capture after it
    (every packet stamped before it ended has been read by then)."""
    try:
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    except PermissionError as error:
        unavailable("a packet capture on lo", str(error))
    with sock:
        _attach_filter(sock, _udp_port_filter(port))
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 * 1024 * 1024)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        sock.bind(("lo", ETH_P_ALL))
        sock.settimeout(0.2)  # how often an idle reader looks whether the capture is over
        capture = WireCapture(port, sock)
        reader = threading.Thread(target=capture.read, name=f"sip-wire-{port}", daemon=True)
        reader.start()
        try:
            yield capture
        finally:
            capture.stopping.set()
            reader.join()
