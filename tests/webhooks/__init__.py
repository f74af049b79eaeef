"""Tests of call webhooks (core/webhooks): their logic and their delivery."""
