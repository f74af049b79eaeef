"""`make run`: the product's processes on one machine, and the embedded PostgreSQL and Redis they
use where no real servers are named. Kept out of `core`: nothing a service runs needs it."""
