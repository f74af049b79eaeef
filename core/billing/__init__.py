"""Billing as plain functions: rating, fees, reconciliation, re-rating, invoices.

The Celery tasks in `workers/` only call these; tests call them directly.
"""
