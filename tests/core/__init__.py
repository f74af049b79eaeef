"""Tests of core/'s infrastructure: settings, migrations, outbound requests, health and metrics."""
