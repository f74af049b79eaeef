"""Shared code of the three services: settings, database, Redis, models, helpers."""
