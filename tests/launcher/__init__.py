"""Tests of `make run` (launcher): its processes, nodes and data folder."""
