# Two commands on a fresh clone: `make demo` and `make test`. Each creates
# .venv if needed and installs the pinned dependencies (requirements.lock).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PIP := --quiet --disable-pip-version-check

# Two builds of the same source (setup.py). .venv: editable and pure Python,
# for development and the whole test suite. .venv-fast: what `pip install .`
# gives, the referee's hot modules (setup.py's COMPILED) compiled by mypyc
# (pure Python where no C compiler exists); `make demo` and `make bench` use it,
# and `make test` runs the referee's tests against it too.
FAST := .venv-fast
FAST_STAMP := $(FAST)/.installed-stamp
SOURCES := $(wildcard hh/*.py hh/*/*.py grammar/*.lark pipelines/*.py reports/*.py reports/*/*.py \
	reports/*.js reports/*.css)
# the referee's own tests, run again against the compiled build
FAST_TESTS := tests/test_compiled.py tests/test_rules_chiribito.py tests/test_rules_aces.py \
	tests/test_rules_calatone.py tests/test_rules_common.py tests/test_violation_codes.py \
	tests/test_pots_oracle.py tests/test_simulate.py tests/test_cli.py \
	tests/test_parse_hardening.py tests/test_parse_errors.py tests/test_parse_files.py \
	tests/test_referee_hardening.py tests/test_trace.py tests/test_parallel.py tests/test_crosshand.py \
	tests/test_parse_memo.py tests/test_sources.py tests/test_pool.py tests/test_evaluate_aces.py \
	tests/test_evaluate_calatone.py tests/test_evaluate_chiribito.py tests/test_evaluate_lazy.py \
	tests/test_model_init.py tests/test_regex_cache.py tests/test_output_json.py \
	tests/test_codecache.py

.PHONY: install demo test test-fast fast lint browser bench lock clean

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install $(PIP) --upgrade pip
	HH_PURE=1 $(BIN)/python -m pip install $(PIP) -c requirements.lock -e '.[all,test]'
	touch $(STAMP)

fast: $(FAST_STAMP)

$(FAST_STAMP): pyproject.toml requirements.lock setup.py $(SOURCES)
	test -x $(FAST)/bin/python || $(PYTHON) -m venv $(FAST)
	$(FAST)/bin/python -m pip install $(PIP) --upgrade pip
	$(FAST)/bin/python -m pip install $(PIP) -c requirements.lock 'setuptools>=77' wheel mypy
	HH_PURE=1 $(FAST)/bin/python -m pip install $(PIP) -c requirements.lock '.[all,test]'
	$(FAST)/bin/python -m pip install $(PIP) --no-build-isolation --force-reinstall --no-deps .
	rm -rf build
	$(FAST)/bin/hh --version
	touch $(FAST_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

# Browser tests drive Debian's chromium with Playwright (its own browser
# download is not reachable here); installed when missing and apt can.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		{ command -v apt-get >/dev/null 2>&1 && \
		  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
		   >/dev/null) ; } || echo "chromium is not installed: the browser tests will be skipped"

test: lint browser
	$(BIN)/python -m pytest
	$(MAKE) --no-print-directory test-fast

test-fast: $(FAST_STAMP)
	HH_EXPECT_COMPILED=$$(command -v cc >/dev/null 2>&1 && echo 1) \
		$(FAST)/bin/pytest -p no:cacheprovider $(FAST_TESTS)

# the fastest build: compiled where a C compiler exists
demo: $(FAST_STAMP)
	$(FAST)/bin/python -m hh.demo

# One table (also written to BENCHMARKS.md); QUICK=1: small inputs, under 2 minutes.
bench: $(STAMP) $(FAST_STAMP)
	$(BIN)/python -m benchmarks $(if $(QUICK),--quick)

# Re-pin after changing dependencies in pyproject.toml.
lock:
	$(FAST)/bin/python -m pip freeze --exclude-editable | grep -v "^hh[= @]" > requirements.lock

clean:
	rm -rf $(VENV) $(FAST) build *.egg-info .pytest_cache .ruff_cache
