"""Benchmarks that print their figures (README). Each runs on a throw-away database of its own."""

import os

# The PostgreSQL server the benchmarks create their throw-away databases on.
DATABASE_SERVER = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
