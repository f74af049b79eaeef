"""Tests of the test kit itself and of how the tests get their programs."""
