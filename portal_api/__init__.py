"""The portal's REST API and live-call WebSocket (FastAPI)."""
