# Two commands on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test lint bench install install-dev db clean vendor

$(VENV)/.installed: requirements.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PIP) install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

db: install
	$(VENV)/bin/flask --app app db upgrade

run: db
	$(PY) app.py --host $(HOST) --port $(PORT)

test: install-dev
	$(VENV)/bin/ruff check .
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .

bench: install-dev
	$(PY) bench/rules_bench.py

vendor:
	cd /tmp && npm pack socket.io-client@4.8.4 && tar xzf socket.io-client-4.8.4.tgz
	cp /tmp/package/dist/socket.io.min.js static/vendor/socket.io.min.js

clean:
	rm -rf $(VENV) .pytest_cache
