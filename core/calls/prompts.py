"""A campaign's IVR prompt: one of Asterisk's core sounds that asks for a PIN, or a prompt the
customer uploaded (a WAV converted to 8 kHz mono as whispers are, stored in `PromptAudio`).

`Campaign.ivr_prompt` holds what is played: a core sound's name, or `prompt:<sha256>` for an upload,
which each bridge writes into its Asterisk's sounds on first use (pbx_bridge.whisper.WhisperFiles).
"""

from core.calls.whisper import Limits

DEFAULT = "agent-pass"  # what a campaign without a prompt of its own plays
UPLOADED = "prompt:"
PROMPT = Limits("An IVR prompt", 300, 30_000, 6_000_000)

# Asterisk's core English sounds (asterisk-core-sounds-en) that fit an IVR asking for a PIN, with
# their words as that package's core-sounds-en.txt gives them; tests/asterisk_config checks each is
# in the Asterisk the project builds.
CORE: tuple[tuple[str, str], ...] = (
    ("agent-pass", "Please enter your password followed by the pound key."),
    (
        "confbridge-pin",
        "Please enter your personal identification number followed by the pound, or hash key.",
    ),
    ("conf-getpin", "Please enter the conference pin number."),
    ("vm-password", "Password."),
    ("auth-incorrect", "Password incorrect. Please enter your password followed by the pound key."),
)


def uploaded(sha256: str) -> str:
    """The `ivr_prompt` of an uploaded prompt."""
    return f"{UPLOADED}{sha256}"


def uploaded_sha(prompt: str | None) -> str | None:
    """The uploaded prompt's hash, when `prompt` names one."""
    return prompt.removeprefix(UPLOADED) if prompt and prompt.startswith(UPLOADED) else None
