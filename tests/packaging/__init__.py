"""Tests of what the project ships: its licenses and the image's pinned packages."""
