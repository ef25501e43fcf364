# Two commands do all the set-up: `make serve` and `make test` (`make check` is its quick tier).
# Panel 1.10 needs Python >= 3.12; the machine's default python3 may be older,
# so .ci/find-python looks through PATH and pyenv for one that fits.
VENV    ?= .venv
PY      := $(VENV)/bin/python
PORT    ?= 5006
STAMP   := $(VENV)/.installed
# The virtual environment is filled by uv (itself from PyPI, into the venv) when it can: the same
# packages as pip's, in about a tenth of pip's time (12 s against 117 s side by side on a busy
# machine), which is most of a fresh clone's set-up. Where uv cannot (no PyPI, only the
# machine's own wheels), pip does it as before. Both leave the packages compiled to bytecode.
#
# Bytecode is cached for the make targets even where the environment sets PYTHONDONTWRITEBYTECODE:
# every server, export and test worker the suite starts would otherwise compile Panel, Bokeh, the
# app and the tests again (1.4 s of CPU for each process that imports Panel, 6.6 s for each test
# worker's collection, measured side by side). The .pyc files go in __pycache__/, which git ignores.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: serve check test export bench bench-check bench-workarounds bench-peers load soak clean venv screenshots

$(STAMP): pyproject.toml
	@set -e; \
	if [ ! -x $(PY) ]; then \
	  base=$$(sh .ci/find-python) || exit 1; \
	  echo "creating $(VENV) with $$base"; \
	  $$base -m venv $(VENV); \
	fi; \
	if $(PY) -m pip install -q uv && $(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -e '.[test]'; then :; else \
	  echo "uv could not install the project; installing it with pip"; \
	  $(PY) -m pip install -q --upgrade pip; \
	  $(PY) -m pip install -q -e '.[test]'; \
	fi; \
	touch $(STAMP)

venv: $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/attention-explorable serve --port $(PORT)

# make test runs the whole suite in two workers (pytest-xdist; each starts its own servers and browser).
# A third is no faster on this 2-core machine, whose CPU the browsers fill (536 s against
# 478-521 s with two, in the same hour), and the tests that race a late answer against a held
# message grow flaky under its load. The plates' functional browser tests run twice in it, [on]
# and [off]: the second time against a server and exports run with AE_WORKAROUNDS=off, as the
# product must be correct without app/workarounds/ (tests/conftest.py says which tests the [off]
# leg holds). TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= 2
PYTEST_WORKERS := $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist worksteal)

# make check: the tests that need no browser, no server, no node and no kernel (the core, the
# plates' Python, the links, the export's files), in 69 s in a fresh clone on a 2-core machine
# with nothing else running; tests/conftest.py says how a test is
# sorted, and fails one that starts what it is not marked for. Three things run smaller
# there than in make test: test_state_properties runs 1,000 generated cases per plate (50 of
# them a page's) instead of 10,000 (200); a test marked whole_export (every page of
# `export --site`) is left to make test, beside a check-tier test of the same on a smaller
# export; and the tests that hold a server workaround to Bokeh's and Panel's own way page by
# page meet the index and five plates, whose documents hold every kind of model the pages hold,
# instead of every page (every_page; tests/tiers.py).
check: $(STAMP)
	$(PY) -m pytest -q --tier=check $(PYTEST_WORKERS)

test: $(STAMP)
	@sh .ci/ensure-chromium
	@sh .ci/ensure-test-tools $(PY)
	$(PY) -m pytest -q $(PYTEST_WORKERS)

# Every plate at 1280x720 and 390x844, written over the visual test's references in
# tests/browser/references/, and its thumbnail (the wide shot's first screenful) over
# assets/screenshots/<slug>.png; look at them, then commit them: that is how they are renewed.
# A new plate's three: make screenshots SHOTS_ARGS="--plate <slug>".
screenshots: $(STAMP)
	@sh .ci/ensure-chromium
	$(PY) tests/browser/visual.py $(SHOTS_ARGS)

export: $(STAMP)
	$(VENV)/bin/attention-explorable export dist

bench: $(STAMP)
	@sh .ci/ensure-chromium
	$(PY) benchmarks/run.py $(BENCH_ARGS)

# The measuring tools' own tests (benchmarks/tests): not the product's, so not in make test.
bench-check: $(STAMP)
	@sh .ci/ensure-chromium
	$(PY) -m pytest -q -p no:cacheprovider benchmarks/tests

# Each workaround on and off, in turn, on the figures it targets (app/workarounds/).
bench-workarounds: $(STAMP)
	@sh .ci/ensure-chromium
	$(PY) benchmarks/workarounds.py $(BENCH_ARGS)

PEERS_VENV := benchmarks/.peers-venv
PEERS_STAMP := $(PEERS_VENV)/.installed

$(PEERS_STAMP): benchmarks/peers/requirements.txt
	@set -e; \
	if [ ! -x $(PEERS_VENV)/bin/python ]; then \
	  base=$$(sh .ci/find-python) || exit 1; \
	  echo "creating $(PEERS_VENV) with $$base"; \
	  $$base -m venv $(PEERS_VENV); \
	fi; \
	$(PEERS_VENV)/bin/python -m pip install -q --upgrade pip; \
	$(PEERS_VENV)/bin/python -m pip install -q -r benchmarks/peers/requirements.txt; \
	touch $(PEERS_STAMP)

bench-peers: $(STAMP) $(PEERS_STAMP)
	@sh .ci/ensure-chromium
	$(PY) benchmarks/run.py --peers $(PEERS_VENV) $(BENCH_ARGS)

clean:
	rm -rf $(VENV) dist .pytest_cache

# A whole class on one server (loopback only): concurrent sessions, then a soak of open/close.
load: $(STAMP)
	$(PY) benchmarks/load.py load --sessions 200

soak: $(STAMP)
	$(PY) benchmarks/load.py soak --sessions 2000
