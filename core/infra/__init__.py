"""How a process reaches what it runs on: settings, PostgreSQL, Redis and the Celery broker, the names
shared across processes, SMTP, logs, metrics, health and the schema's migrations, and the guard on
requests to customers' URLs."""
