"""Tests of the rendered PBX configuration (asterisk_config) without a PBX."""
