"""All money, as plain functions: prices and rating, the wallet ledger, credit holds of live calls,
number purchases and fees, top-ups, invoices, notices, reconciliation and re-rating.

Nothing here imports a service (portal_api, pbx_bridge, workers); they call in. The Celery tasks
in `workers/` only call these; tests call them directly.
"""
