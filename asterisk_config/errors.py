"""Exceptions whose exit codes the ``provision`` command line maps to."""


class ProvisionError(Exception):
    """Asterisk could not be built, started or stopped (exit code 1)."""

    exit_code = 1


class ConfigError(ProvisionError):
    """Settings from the environment are missing or unusable (exit code 2)."""

    exit_code = 2


class Unavailable(ProvisionError):
    """This machine cannot run the chroot at all: not root, no debootstrap,
    mounts not permitted (exit code 3), so callers can report
    "Asterisk not started: <reason>" and carry on."""

    exit_code = 3
