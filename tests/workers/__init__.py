"""Tests of the Celery workers."""
