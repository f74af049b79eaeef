# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test install web lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The UI is built when web/ exists; the API serves web/dist at /.
web:
	@if [ -f web/package.json ]; then cd web && npm ci --no-audit --no-fund && npm run build; fi

run: install web
	$(PY) -m core.launch

lint: install
	$(VENV)/bin/ruff check .

test: install web lint
	$(PY) -m pytest -q
	@if [ -f web/package.json ]; then cd web && npm test; fi

clean:
	rm -rf $(VENV) var .test-data web/node_modules web/dist
