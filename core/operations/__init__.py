"""Upkeep run at setup or on a schedule: the seed, purging old channel events, archiving old months of
calls."""
