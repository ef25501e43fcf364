# Two commands do all the set-up: `make serve` and `make test`.
# Panel 1.10 needs Python >= 3.12; the machine's default python3 may be older,
# so .ci/find-python looks through PATH and pyenv for one that fits.
VENV    ?= .venv
PY      := $(VENV)/bin/python
PORT    ?= 5006
STAMP   := $(VENV)/.installed

.PHONY: serve test export bench clean venv

$(STAMP): pyproject.toml
	@set -e; \
	if [ ! -x $(PY) ]; then \
	  base=$$(sh .ci/find-python) || exit 1; \
	  echo "creating $(VENV) with $$base"; \
	  $$base -m venv $(VENV); \
	fi; \
	$(PY) -m pip install -q --upgrade pip; \
	$(PY) -m pip install -q -e '.[test]'; \
	touch $(STAMP)

venv: $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/attention-explorable serve --port $(PORT)

test: $(STAMP)
	@sh .ci/ensure-chromium
	$(PY) -m pytest -q

export: $(STAMP)
	$(VENV)/bin/attention-explorable export dist

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) dist .pytest_cache
