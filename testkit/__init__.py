"""What tests and benchmarks share; the product never imports it (import-linter, pyproject).

- `waiting`: `eventually(check)` / `eventually_async(check)`, the one way to wait for a condition.
- `databases`: the servers a run uses (`servers`), throw-away databases (`throwaway_database`,
  `fresh_database`, `drop_database`), `reset_state` between tests, `DatabaseUse` (did a test touch
  the database?).
- `actors`: `make_actor` (a signed-in admin, customer or buyer), `Actor`, `PASSWORD`.
- `rows`: rows written straight to the database (customers, campaigns, numbers, buyers, targets,
  trunks, tariffs, rates, calls), read-backs (balance, ledger, notices) and routing shortcuts.
- `world`: customer A's small world of marked rows for the access matrix and the contract fuzz.
- `processes`: `api_server`, `start_worker`, `free_port`, `serves`.
- `asterisk`: a private Asterisk (`running_test_instance`, `make_test_settings`), the bridge against
  it (`running_bridge`), a plan to call (`seed_plan`).
- `tools`: the programs a test may need and a machine may lack (sipp, Kamailio, Chromium, espeak-ng),
  installed on demand; `containers.ensure_engine` does the same for Docker and its compose plugin.
  Each has one session fixture in tests/conftest.py, which every test needing it asks for.
- `licenses`: every shipped dependency's license checked against ours (`make licenses`).
- `fixture_closure`: a pytest plugin listing each collected test's fixtures (tests about the suite).
- `sipp`: sipp as carrier (`call`, `call_many`) and as targets (`sipp_target`), its scenarios, RTP
  captures.
"""
