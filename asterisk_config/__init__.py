"""Asterisk configuration and provisioning for the call-routing platform.

The configuration lives in ``templates/`` and is rendered with secrets taken
from the environment (see ``settings.py``).  ``provision.py`` is the command
line entry point; ``chroot.py`` and ``runtime.py`` hold the reusable pieces
that pytest fixtures call directly.
"""

from asterisk_config.errors import ConfigError, ProvisionError, Unavailable
from asterisk_config.settings import AsteriskSettings

__all__ = ["AsteriskSettings", "ConfigError", "ProvisionError", "Unavailable"]
