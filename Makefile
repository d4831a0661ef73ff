# Two commands on a fresh clone: `make demo` and `make test`. Each creates
# .venv if needed and installs the pinned dependencies (requirements.lock).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PIP := --quiet --disable-pip-version-check

# The compiled variant: the same source, with hh/engine.py and hh/validate.py
# compiled by mypyc (setup.py), installed into its own venv.
FAST := .venv-fast
FAST_STAMP := $(FAST)/.installed-stamp
SOURCES := $(wildcard hh/*.py hh/*/*.py grammar/*.lark)
# the referee's own tests, run again against the compiled build
FAST_TESTS := tests/test_compiled.py tests/test_rules_chiribito.py tests/test_rules_aces.py \
	tests/test_rules_calatone.py tests/test_rules_common.py tests/test_violation_codes.py \
	tests/test_pots_oracle.py tests/test_simulate.py tests/test_cli.py

.PHONY: install demo test test-fast fast lint bench lock clean

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install $(PIP) --upgrade pip
	$(BIN)/python -m pip install $(PIP) -c requirements.lock -e '.[test]'
	touch $(STAMP)

fast: $(FAST_STAMP)

$(FAST_STAMP): pyproject.toml requirements.lock setup.py $(SOURCES)
	test -x $(FAST)/bin/python || $(PYTHON) -m venv $(FAST)
	$(FAST)/bin/python -m pip install $(PIP) --upgrade pip
	$(FAST)/bin/python -m pip install $(PIP) -c requirements.lock 'setuptools>=77' wheel mypy
	$(FAST)/bin/python -m pip install $(PIP) -c requirements.lock '.[test]'
	HH_MYPYC=1 $(FAST)/bin/python -m pip install $(PIP) --no-build-isolation \
		--force-reinstall --no-deps .
	rm -rf build
	touch $(FAST_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest
	$(MAKE) --no-print-directory test-fast

test-fast: $(FAST_STAMP)
	HH_EXPECT_COMPILED=1 $(FAST)/bin/pytest -p no:cacheprovider $(FAST_TESTS)

demo: $(STAMP)
	$(BIN)/python -m hh.demo

# One table (also written to BENCHMARKS.md); QUICK=1: small inputs, under 2 minutes.
bench: $(STAMP) $(FAST_STAMP)
	$(BIN)/python -m benchmarks $(if $(QUICK),--quick)

# Re-pin after changing dependencies in pyproject.toml.
lock:
	$(FAST)/bin/python -m pip freeze --exclude-editable | grep -v "^hh[= @]" > requirements.lock

clean:
	rm -rf $(VENV) $(FAST) build *.egg-info .pytest_cache .ruff_cache
