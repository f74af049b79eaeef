# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test install web browser lint client lock licenses clean

# The runtime packages at the versions the image pins (deploy/requirements.lock), so the suite tests
# what runs in production; the dev tools are free to move.
$(STAMP): pyproject.toml deploy/requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' -c deploy/requirements.lock
	touch $(STAMP)

install: $(STAMP)

# The UI is built when web/ exists (and only when its sources changed); the API serves web/dist at /.
WEB_SRC := $(shell find web/src web/public web/index.html web/package.json web/package-lock.json web/vite.config.* 2>/dev/null)

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	cd web && npm run build

web: $(if $(wildcard web/package.json),web/dist/index.html)

run: install web
	$(PY) -m launcher

# ruff, then mypy on the product's packages (its settings, and why, are in pyproject.toml).
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The browser tests drive Debian's Chromium with playwright-core (no browser download works here).
# Their fixture installs it when missing (testkit/tools.py); this does it beforehand, by hand.
browser: install
	$(PY) -m testkit.tools chromium

# The web's client is generated from the API's OpenAPI document; after changing a route or a schema,
# regenerate both (tests/web/test_api_client.py fails until they match the code).
client: install web/node_modules/.package-lock.json
	$(PY) -m portal_api.openapi_export web/openapi.json
	cd web && npm run generate-client

# The web's types (TypeScript strict), its lint (ESLint with the rules of hooks) and format (Prettier).
test: install web lint
	@if [ -f web/package.json ]; then cd web && npm run check && npm test; fi
	$(PY) -m testkit.suite

# After changing pyproject.toml's dependencies: install them, then pin what was installed for the
# image (tests/deploy/test_requirements_lock.py fails until the lock matches).
lock:
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) deploy/lock-requirements.py

# Every shipped dependency's license, checked against ours (AGPL-3.0-or-later); fails on one that is
# incompatible or unreviewed (testkit/licenses.py; tests/packaging/test_licenses.py runs it in `make test`).
licenses: install
	$(PY) -m testkit.licenses

clean:
	rm -rf $(VENV) var .test-data web/node_modules web/dist
