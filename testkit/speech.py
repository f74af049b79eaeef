"""Speech for real-call tests and the transcription benchmark: text spoken by espeak-ng, brought
to the telephone's 8 kHz (core.calls.whisper.convert), and written as an RTP capture sipp plays
(`play_pcap_audio`): G.711 µ-law (PCMU, payload type 0), 20 ms a packet."""

import struct
import subprocess
from pathlib import Path

from core.calls.whisper import convert
from testkit.tools import host_tool

RATE, PACKET_SAMPLES = 8000, 160  # 20 ms
# espeak-ng's voices that the bundled pocketsphinx model hears best at 8 kHz (measured by
# bench/transcribe.py): its male voices come out far less often right.
VOICE = "en-us+f5"
_WAV_HEADER = 44


def spoken(text: str, voice: str = VOICE, words_per_minute: int = 150) -> bytes:
    """`text` said by espeak-ng: 8 kHz signed 16-bit mono samples (native order)."""
    wav = subprocess.run(
        [host_tool("espeak-ng"), "-v", voice, "-s", str(words_per_minute), "--stdin", "--stdout"],
        input=text.encode(),
        capture_output=True,
        timeout=30,
        check=True,
    ).stdout
    return convert(wav).audio[_WAV_HEADER:]


def ulaw(sample: int) -> int:
    """One signed 16-bit sample as G.711 µ-law."""
    sign = 0x80 if sample < 0 else 0
    magnitude = min(abs(sample), 32635) + 0x84
    exponent = max(0, magnitude.bit_length() - 8)
    mantissa = (magnitude >> (exponent + 3)) & 0x0F
    return ~(sign | (exponent << 4) | mantissa) & 0xFF


def _udp_packet(payload: bytes) -> bytes:
    """Ethernet + IPv4 + UDP around `payload`: sipp reads the RTP inside and sends it itself."""
    ethernet = b"\0" * 12 + b"\x08\x00"
    udp = struct.pack("!HHHH", 6000, 6000, 8 + len(payload), 0)  # no checksum: allowed on IPv4
    ip = struct.pack(
        "!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) + len(payload), 0, 0, 64, 17, 0, b"\x7f\0\0\1", b"\x7f\0\0\1"
    )
    return ethernet + ip + udp + payload


def capture(samples: bytes, path: Path, silence_ms: int = 0) -> Path:
    """`samples` (8 kHz 16-bit, native order), after `silence_ms` of silence, as a PCMU capture."""
    pcm = b"\0\0" * (RATE * silence_ms // 1000) + samples
    values = struct.unpack(f"={len(pcm) // 2}h", pcm[: len(pcm) // 2 * 2])
    encoded = bytes(ulaw(v) for v in values)
    out = bytearray(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))  # pcap, Ethernet
    for n, start in enumerate(range(0, len(encoded), PACKET_SAMPLES)):
        chunk = encoded[start : start + PACKET_SAMPLES].ljust(PACKET_SAMPLES, b"\xff")  # 0xff: silence
        rtp = struct.pack("!BBHII", 0x80, 0, n % 65536, start % 2**32, 0x5EEC4) + chunk
        packet = _udp_packet(rtp)
        micros = 1_000_000_000 + n * 20_000
        out += (
            struct.pack("<IIII", micros // 1_000_000, micros % 1_000_000, len(packet), len(packet)) + packet
        )
    path.write_bytes(bytes(out))
    return path
