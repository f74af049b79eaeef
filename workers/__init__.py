"""Celery worker and beat: thin tasks over the plain functions in core.billing."""
