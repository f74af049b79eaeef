"""The rules and queries behind the routers: one module per entity or area (see docs/architecture.md)."""
