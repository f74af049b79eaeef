"""sipp as the carrier placing calls and as buyers' targets answering them, with its scenarios
(scenarios/) and the RTP captures it plays."""

import asyncio
import itertools
import random
import socket
import struct
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from core.models import Target
from testkit.asterisk import AsteriskUnderTest, Plan, seed_plan
from testkit.processes import free_port
from testkit.rows import change
from testkit.waiting import eventually

SCENARIOS = Path(__file__).parent / "scenarios"


# sipp callers' media ports come from above Linux's ephemeral range (32768-60999) and Asterisk's RTP
# range, in blocks of four handed out in turn: no socket the kernel or a parallel sipp picks on its
# own lands in a block another sipp was just given (random free ports raced, 1 run in 3).
MEDIA_BLOCKS = range(61000, 65532, 4)
_next_block = itertools.count(random.randrange(len(MEDIA_BLOCKS)))


def free_media_ports() -> int:
    """A media port for sipp whose next three are free too: it binds audio at the port and video
    two above, and exits at once, having sent nothing, when one of them is taken."""
    for _ in range(len(MEDIA_BLOCKS)):
        base = MEDIA_BLOCKS[next(_next_block) % len(MEDIA_BLOCKS)]
        with ExitStack() as held:
            try:
                for port in range(base, base + 4):
                    sock = held.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
                    sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return base
    raise AssertionError("no four free UDP ports in a row for sipp's media")


def udp_port_taken(port: int) -> bool:
    """Whether something (a sipp starting) is bound to UDP `port` on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


# How long a call may take beyond its talk time. sipp's own -timeout does not end a call that is
# waiting for a final answer (after a 100 Trying), so a caller whose Asterisk died would wait forever.
CALL_DEADLINE_SECONDS = 60
UNFINISHED = "unfinished="  # the line `call` adds to the log of a call it had to kill


class NoCallPlaced(RuntimeError):
    """sipp exited before sending anything (its log is empty): placing the call again is safe."""


@dataclass
class SippTarget:
    """A sipp UAS answering as one buyer's target."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    def invites(self) -> int:
        return self.log.read_text().count("invite=") if self.log.exists() else 0


@contextmanager
def sipp_target(
    sipp: str,
    behaviour: str,
    workdir: Path,
    answers_options: bool = True,
    media_port: int | None = None,
    plays: Path | None = None,
    lasts_seconds: int = 120,
) -> Iterator[SippTarget]:
    """A target answering as scenario `uas_{behaviour}` says, for `lasts_seconds`; its SDP names
    `media_port` (a capture, testkit.rtp) as where its audio goes, when given; once answered it
    says `plays` (a PCMU capture, testkit.speech), when given."""
    port = free_port(socket.SOCK_DGRAM)
    log = workdir / f"target-{behaviour}-{port}.log"
    scenario = _with_media_port(SCENARIOS / f"uas_{behaviour}.xml", media_port, workdir)
    if plays is not None:
        speaking = workdir / f"{scenario.stem}-plays-{port}.xml"
        action = f'<recv request="ACK"><action><exec play_pcap_audio="{plays}" /></action></recv>'
        speaking.write_text(scenario.read_text().replace('<recv request="ACK" />', action))
        scenario = speaking
    proc = subprocess.Popen(
        [
            sipp,
            "-sf",
            str(scenario),
            "-i",
            "127.0.0.1",
            "-p",
            str(port),
            # Answers Asterisk's qualify OPTIONS: a qualified trunk that does not is never dialled.
            *(["-aa"] if answers_options else []),
            "-nostdin",
            "-trace_logs",
            "-log_file",
            str(log),
            "-timeout",
            f"{lasts_seconds}s",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        eventually(lambda: proc.poll() is not None or udp_port_taken(port), what=f"sipp target on {port}")
        assert proc.poll() is None, f"sipp target ({behaviour}) exited at start: check the scenario"
        yield SippTarget(proc, port, log)
    finally:
        proc.kill()
        proc.wait()


@contextmanager
def answering_plan(
    sipp: str, asterisk: AsteriskUnderTest, workdir: Path, targets: int, **first_target: object
) -> Iterator[Plan]:
    """A plan (seed_plan) pushed to `asterisk` whose `targets` targets each answer, in order; the
    first target's fields set as `first_target` says (a cap, region rules) so a call can skip it."""
    with ExitStack() as held:
        ports = [held.enter_context(sipp_target(sipp, "answer", workdir)).port for _ in range(targets)]
        plan = seed_plan(ports, pushed_to=asterisk)
        if first_target:
            change(Target, plan.targets[0], **first_target)
        yield plan


def _with_media_port(scenario: Path, media_port: int | None, workdir: Path) -> Path:
    """The scenario, or a copy whose SDP sends the far end's audio to `media_port`."""
    if media_port is None:
        return scenario
    copy = workdir / f"{scenario.stem}-media-{media_port}.xml"
    copy.write_text(scenario.read_text().replace("m=audio [media_port]", f"m=audio {media_port}"))
    return copy


DTMF_CAPTURES = Path("/usr/share/sip-tester")  # Debian's sip-tester: one RFC 2833 capture per digit
AUDIO = DTMF_CAPTURES / "g711a.pcap"  # and 7 s of speech as PCMA, 30 ms packets
_PCAP_HEADER, _RECORD_HEADER, _RTP_OFFSET = 24, 16, 14 + 20 + 8  # pcap; Ethernet + IPv4 + UDP


def audio_capture(seconds: float, path: Path) -> Path:
    """The sipp capture of speech looped to last `seconds`, with sequence numbers, RTP timestamps
    and capture times carried on across loops (a replayed loop would look old to Asterisk's RTP
    stack)."""
    data = AUDIO.read_bytes()
    packets: list[tuple[int, bytes]] = []
    offset = _PCAP_HEADER
    while offset + _RECORD_HEADER <= len(data):
        sec, usec, size, _ = struct.unpack("<IIII", data[offset : offset + _RECORD_HEADER])
        offset += _RECORD_HEADER
        packets.append((sec * 1_000_000 + usec, data[offset : offset + size]))
        offset += size
    step_us = (packets[-1][0] - packets[0][0]) // (len(packets) - 1)
    samples = struct.unpack("!I", packets[1][1][_RTP_OFFSET + 4 : _RTP_OFFSET + 8])[0]
    samples -= struct.unpack("!I", packets[0][1][_RTP_OFFSET + 4 : _RTP_OFFSET + 8])[0]
    out = bytearray(data[:_PCAP_HEADER])
    for n in range(int(seconds * 1_000_000 / step_us) + 1):
        micros, packet = packets[n % len(packets)]
        loop = n // len(packets)
        micros += loop * step_us * len(packets)
        rtp = bytearray(packet)
        seq, stamp = struct.unpack("!HI", rtp[_RTP_OFFSET + 2 : _RTP_OFFSET + 8])
        seq, stamp = (seq + loop * len(packets)) % 65536, (stamp + loop * samples * len(packets)) % 2**32
        rtp[_RTP_OFFSET + 2 : _RTP_OFFSET + 8] = struct.pack("!HI", seq, stamp)
        rtp[_RTP_OFFSET - 2 : _RTP_OFFSET] = b"\0\0"  # no UDP checksum (allowed on IPv4): the header changed
        out += struct.pack("<IIII", micros // 1_000_000, micros % 1_000_000, len(rtp), len(rtp)) + rtp
    path.write_bytes(bytes(out))
    return path


def dtmf_capture(digits: str, workdir: Path) -> Path:
    """One capture keying `digits`, built from the per-digit captures.

    Those come from one stream, so their sequence numbers, RTP timestamps and capture times depend on
    the digit; replayed in another order Asterisk drops them as old. Each digit is rebased here on its
    own first packet and placed half a second (4,000 samples, 50 sequence numbers) after the last.
    """
    out = bytearray()
    for i, digit in enumerate(digits):
        data = (DTMF_CAPTURES / f"dtmf_2833_{digit}.pcap").read_bytes()
        if not out:
            out += data[:_PCAP_HEADER]
        offset, first = _PCAP_HEADER, None
        while offset + _RECORD_HEADER <= len(data):
            sec, usec, incl, orig = struct.unpack("<IIII", data[offset : offset + _RECORD_HEADER])
            packet = bytearray(data[offset + _RECORD_HEADER : offset + _RECORD_HEADER + incl])
            offset += _RECORD_HEADER + incl
            seq, stamp = struct.unpack("!HI", packet[_RTP_OFFSET + 2 : _RTP_OFFSET + 8])
            first = first or (sec * 1_000_000 + usec, seq, stamp)
            micros = 1_000_000_000 + i * 500_000 + (sec * 1_000_000 + usec - first[0])
            new_seq, new_stamp = 1000 + 50 * i + (seq - first[1]), 8000 + 4000 * i + (stamp - first[2])
            packet[_RTP_OFFSET + 2 : _RTP_OFFSET + 8] = struct.pack("!HI", new_seq, new_stamp)
            packet[_RTP_OFFSET - 2 : _RTP_OFFSET] = b"\0\0"  # UDP checksum: none, as IPv4 allows
            out += struct.pack("<IIII", micros // 1_000_000, micros % 1_000_000, incl, orig) + packet
    path = workdir / f"dtmf-{digits}.pcap"
    path.write_bytes(bytes(out))
    return path


async def call(
    sipp: str,
    ast: AsteriskUnderTest,
    did: str,
    caller: str,
    workdir: Path,
    talk_ms: int = 2000,
    dtmf: str = "",
    dtmf_wait_ms: int = 1500,
    speak: bool = False,
    port: int | None = None,
    media_port: int | None = None,
    plays: Path | None = None,
) -> str:
    """Place one call as the carrier, optionally keying `dtmf` after the answer, or speaking (RTP
    with speech, PCMA) for the whole talk; returns sipp's log. To `port` instead of Asterisk's own
    SIP port when given (Kamailio in front of the nodes); with `media_port`, the caller's SDP sends
    what it is to hear there (a capture, testkit.rtp); with `plays` (a PCMU capture, testkit.speech),
    the caller says that once answered. A call not over CALL_DEADLINE_SECONDS after
    its talk time is killed, its log ending in an `unfinished=` line."""
    scenario = workdir / f"uac-{talk_ms}-{dtmf or 'none'}-{time.monotonic_ns()}.xml"
    template = _with_media_port(SCENARIOS / "uac_call.xml", media_port, workdir)
    text = template.read_text().replace("TALK_MS", str(talk_ms))
    marker = "  <!-- DTMF: the test puts"
    if dtmf:
        keys = (
            f'  <pause milliseconds="{dtmf_wait_ms}" />\n'
            f'  <nop><action><exec play_pcap_audio="{dtmf_capture(dtmf, workdir)}" /></action></nop>\n'
        )
        text = text.replace(marker, keys + marker)
    if speak:
        speech = audio_capture(talk_ms / 1000, workdir / f"speech-{talk_ms}-{time.monotonic_ns()}.pcap")
        keys = f'  <nop><action><exec play_pcap_audio="{speech}" /></action></nop>\n'
        text = text.replace(marker, keys + marker).replace("RTP/AVP 0 8 101", "RTP/AVP 8 0 101")
    if plays is not None:
        text = text.replace(
            marker, f'  <nop><action><exec play_pcap_audio="{plays}" /></action></nop>\n' + marker
        )
    scenario.write_text(text)
    log = workdir / f"uac-{did}-{time.monotonic_ns()}.log"
    proc = await asyncio.create_subprocess_exec(
        sipp,
        f"127.0.0.1:{port or ast.settings.sip_port}",
        "-sf",
        str(scenario),
        "-s",
        did.lstrip("+"),
        "-key",
        "caller",
        caller,
        "-i",
        "127.0.0.1",
        "-p",
        str(free_port(socket.SOCK_DGRAM)),
        "-m",
        "1",
        "-mi",
        "127.0.0.1",
        "-mp",
        str(free_media_ports()),
        "-nostdin",
        "-trace_logs",
        "-log_file",
        str(log),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    deadline = talk_ms / 1000 + CALL_DEADLINE_SECONDS
    try:
        _, errors = await asyncio.wait_for(proc.communicate(), deadline)
    except TimeoutError:
        proc.kill()  # a final answer that never comes (its Asterisk died after 100 Trying)
        await proc.wait()
        text = log.read_text() if log.exists() else ""
        return f"{text}{UNFINISHED}no end within {deadline:.0f} s, sipp killed\n"
    except asyncio.CancelledError:
        with suppress(ProcessLookupError):
            proc.kill()  # the test is ending (a parallel call failed): leave no caller behind
        raise
    text = log.read_text() if log.exists() else ""
    if not text:  # sipp never got to the call: say why
        raise NoCallPlaced(f"sipp placed no call (exit {proc.returncode}): {errors.decode()[-2000:]}")
    return text


async def call_many(
    sipp: str,
    ast: AsteriskUnderTest,
    did: str,
    caller: str | list[str],
    workdir: Path,
    talks_ms: list[int],
    parallel: int = 8,
    every_ms: int = 0,
    port: int | None = None,
) -> list[str]:
    """Place one call with `call` per talk time, at most `parallel` at once and, with `every_ms`, the
    k-th no sooner than k * every_ms after the first (a carrier's arrival rate, rather than a burst
    of answers all stamped in the same millisecond); returns their sipp logs in order. `caller` is
    one number for all, or one per call.

    When one of its media ports is taken after all (`free_media_ports`), sipp exits at once,
    empty-handed, without sending anything: that call is placed again (`NoCallPlaced`). A call that
    was sent always leaves a log, so it is never placed twice.
    """
    slots = asyncio.Semaphore(parallel)
    callers = [caller] * len(talks_ms) if isinstance(caller, str) else caller
    assert len(callers) == len(talks_ms)
    first = asyncio.get_running_loop().time()

    async def one(index: int) -> str:
        # A schedule, not a wait for a condition: the call's place in the arrival pattern.
        await asyncio.sleep(max(0.0, first + index * every_ms / 1000 - asyncio.get_running_loop().time()))
        async with slots:
            for _ in range(2):
                with suppress(NoCallPlaced):
                    return await call(sipp, ast, did, callers[index], workdir, talks_ms[index], port=port)
            # The third time, a port taken again fails the test.
            return await call(sipp, ast, did, callers[index], workdir, talks_ms[index], port=port)

    # One call failing cancels the others (their sipp killed) before the test reports it.
    async with asyncio.TaskGroup() as group:
        placed = [group.create_task(one(index)) for index in range(len(talks_ms))]
    return [task.result() for task in placed]
