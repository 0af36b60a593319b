# Two commands on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run check test test-pg lint bench bench-load install install-dev db clean vendor translations \
	cluster

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

# `make cluster`: CLUSTER_PROCESSES app processes on this machine behind nginx on
# http://127.0.0.1:CLUSTER_PORT, sharing a throwaway PostgreSQL and Redis (docs/deploy.md,
# "Several processes"); Ctrl-C stops everything. Needs Debian's nginx, postgresql, redis-server.
CLUSTER_PROCESSES ?= 3
CLUSTER_PORT ?= 8000
cluster: install
	$(PY) deploy/cluster/cluster.py --processes $(CLUSTER_PROCESSES) --port $(CLUSTER_PORT)

# `make check`: the inner loop, within 2 minutes: ruff, the import contracts and every test
# that starts no server (no `live` or `browser` mark; the tests on a real Redis skip without
# it). `make test`: everything, in two runs (tests/run): the tests that may share the machine
# on WORKERS pytest-xdist workers, then those marked `serial` alone. Both print their slowest
# tests (docs/testing.md: where the time goes). WORKERS unset: tests/run's default, one more
# than the machine's cores.
WORKERS ?=
CHECK_WORKERS ?= 2
# Where PYTHONDONTWRITEBYTECODE is set (these machines set it) every Python process compiles
# the app's and the tests' sources again: collecting the suite took 6.0 s instead of 2.6, in
# each pytest process of a run, and each `python app.py` a bench starts 0.3 s more
# (docs/testing.md). The caches go to __pycache__, which git ignores.
unexport PYTHONDONTWRITEBYTECODE
check: install-dev
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n $(CHECK_WORKERS) -m "not live and not browser and not serial" \
		--durations=10 -q $(PYTEST_ARGS)

test: install-dev
	$(VENV)/bin/ruff check .
	WORKERS=$(WORKERS) PY=$(PY) bash tests/run $(PYTEST_ARGS)

# The same suite against PostgreSQL: a throwaway server from Debian's `postgresql` package,
# started and removed by .ci/with-postgres (no systemd needed).
# The rules and the engine never touch a database, and the browser drives the same server
# code as the socket and live tests, so this pass leaves those three folders to `make test`
# (PG_PYTEST_ARGS= runs everything): CI's two passes stay within its time budget.
PG_PYTEST_ARGS ?= --ignore=tests/rules --ignore=tests/ai --ignore=tests/browser
# This pass also runs the socket and live tests on the Redis store (one process of a cluster:
# GOBANG_TEST_LIVE_STORE=redis, a throwaway redis-server per session), and requires
# tests/cluster's several processes, which need PostgreSQL. It skips the tests that start their
# own servers and databases whatever the pass (marked `own_servers`): `make test` runs those.
test-pg: install-dev
	GOBANG_TEST_LIVE_STORE=redis GOBANG_REQUIRE_CLUSTER=1 GOBANG_TEST_PASS=postgresql \
		WORKERS=$(WORKERS) PY=$(PY) bash .ci/with-postgres bash tests/run $(PG_PYTEST_ARGS) \
		$(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .

# `make bench`: the rules micro-benchmarks, then the quick load scenarios (one game's round
# trip, 100 games' throughput, each against the bare relay too). Any scenario of
# docs/performance.md: `make bench-load SCENARIO=thousand` (BENCH_ARGS for more options).
SCENARIO ?= single
BENCH_ARGS ?=
bench: install-dev
	$(PY) bench/rules_bench.py
	$(PY) bench/load.py --scenario single
	$(PY) bench/load.py --scenario throughput

bench-load: install-dev
	$(PY) bench/load.py --scenario $(SCENARIO) $(BENCH_ARGS)

# After changing any user-visible text: extract the messages (Python, templates, and the page
# scripts' list in gobang/i18n/js_messages.py), merge them into each language's .po, translate
# what is new or marked fuzzy, then run this again to compile the .mo files (both are committed).
POT := gobang/translations/messages.pot
translations: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k lazy_gettext -k _l -k N_ \
		--add-comments=TRANSLATORS: --project=Gobang --copyright-holder="Gobang contributors" \
		-o $(POT) .
	$(VENV)/bin/pybabel update -i $(POT) -d gobang/translations --ignore-obsolete
	$(VENV)/bin/pybabel compile -d gobang/translations --statistics

# The front end's third-party files, pinned, from the npm registry. axe-core is for the
# accessibility test only (tests/browser/test_accessibility.py adds it to the page); no page
# loads it.
SOCKETIO_CLIENT_VERSION := 4.8.4
AXE_CORE_VERSION := 4.14.1
vendor:
	rm -rf /tmp/gobang-vendor && mkdir -p /tmp/gobang-vendor/socket.io /tmp/gobang-vendor/axe
	cd /tmp/gobang-vendor && npm pack socket.io-client@$(SOCKETIO_CLIENT_VERSION) axe-core@$(AXE_CORE_VERSION)
	tar xzf /tmp/gobang-vendor/socket.io-client-$(SOCKETIO_CLIENT_VERSION).tgz -C /tmp/gobang-vendor/socket.io
	tar xzf /tmp/gobang-vendor/axe-core-$(AXE_CORE_VERSION).tgz -C /tmp/gobang-vendor/axe
	cp /tmp/gobang-vendor/socket.io/package/dist/socket.io.min.js static/vendor/socket.io.min.js
	cp /tmp/gobang-vendor/axe/package/axe.min.js static/vendor/axe.min.js
	cp /tmp/gobang-vendor/axe/package/LICENSE static/vendor/axe.LICENSE

clean:
	rm -rf $(VENV) .pytest_cache
