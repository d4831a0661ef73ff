# Two commands on a fresh clone: `make demo` and `make test`. Each creates
# .venv if needed and installs the pinned dependencies (requirements.lock).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PIP := --quiet --disable-pip-version-check

# Two builds of the same source (setup.py). .venv: editable and pure Python,
# for development and the whole test suite. .venv-fast: what `pip install .`
# gives, the hot modules (COMPILED in hh/__init__.py and pipelines/__init__.py) compiled by mypyc
# (pure Python where no C compiler exists); `make demo` and `make bench` use it,
# and `make test` runs the referee's tests against it too.
FAST := .venv-fast
FAST_STAMP := $(FAST)/.installed-stamp
# the test extra's tools in .venv-fast, for make test-fast and make bench only:
# make demo's environment (the one a user puts on his PATH) stays without them
FAST_TEST_STAMP := $(FAST)/.test-tools-stamp
TEST_EXTRA = $$($(FAST)/bin/python -c 'import tomllib; \
	print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"]))')
SOURCES := $(wildcard hh/*.py hh/*/*.py grammar/*.lark pipelines/*.py reports/*.py reports/*/*.py \
	reports/*/*/*.py reports/*/*.js reports/*/*.css)

.PHONY: install demo test test-fast fast lint browser bench ref lock clean

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
	HH_PURE=1 $(FAST)/bin/python -m pip install $(PIP) -c requirements.lock '.[all]'
	$(FAST)/bin/python -m pip install $(PIP) --no-build-isolation --force-reinstall --no-deps .
	rm -rf build
	$(FAST)/bin/hh --version
	touch $(FAST_STAMP)

$(FAST_TEST_STAMP): $(FAST_STAMP)
	$(FAST)/bin/python -m pip install $(PIP) -c requirements.lock $(TEST_EXTRA)
	touch $(FAST_TEST_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict hh pipelines reports

# Browser tests drive Debian's chromium with Playwright (its own browser
# download is not reachable here); installed when missing and apt can.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		{ command -v apt-get >/dev/null 2>&1 && \
		  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
		   >/dev/null) ; } || echo "chromium is not installed: the browser tests will be skipped"

# One pytest worker per core (pytest-xdist), each test file on one worker so
# that its module fixtures are built once: the suite in about half the time.
PARALLEL = -n auto --dist loadfile

test: lint browser
	$(BIN)/python -m pytest $(PARALLEL)
	$(MAKE) --no-print-directory test-fast

# The tests marked "compiled" (the referee's), against the compiled build:
# only their files are collected (some others import their helpers as the
# package "tests", which needs the checkout on sys.path). Where a C compiler
# exists the build must be compiled:
# tests/test_compiled.py fails when it fell back to pure Python.
COMPILED_TESTS = $(shell grep -l '^pytestmark = pytest.mark.compiled' tests/test_*.py)
test-fast: $(FAST_TEST_STAMP)
	HH_EXPECT_COMPILED=$$(command -v cc >/dev/null 2>&1 && echo 1) \
		$(FAST)/bin/pytest -p no:cacheprovider $(PARALLEL) -m compiled $(COMPILED_TESTS)

# the fastest build: compiled where a C compiler exists
demo: $(FAST_STAMP)
	$(FAST)/bin/python -m hh.demo

# One table (also written to BENCHMARKS.md); QUICK=1: small inputs, under 2 minutes;
# ONLY=bench_validate,bench_cli: those modules only (OUT=FILE: the table there).
bench: $(STAMP) $(FAST_TEST_STAMP)
	$(BIN)/python -m benchmarks $(if $(QUICK),--quick) $(if $(ONLY),--only $(ONLY)) \
		$(if $(OUT),--out $(OUT))

# The build of an earlier commit (REF, by default the main this wave began
# from), compiled as `make fast` builds it, in .venv-ref: `make bench` then
# runs its hh validate and hh import interleaved with this build's.
REF ?= bbe2bb7
ref:
	rm -rf .ref-src && mkdir .ref-src && git archive $(REF) | tar -x -C .ref-src
	test -x .venv-ref/bin/python || $(PYTHON) -m venv .venv-ref
	.venv-ref/bin/python -m pip install $(PIP) --upgrade pip
	.venv-ref/bin/python -m pip install $(PIP) -c .ref-src/requirements.lock 'setuptools>=77' wheel mypy
	cd .ref-src && HH_PURE=1 $(CURDIR)/.venv-ref/bin/python -m pip install $(PIP) -c requirements.lock .
	cd .ref-src && $(CURDIR)/.venv-ref/bin/python -m pip install $(PIP) --no-build-isolation --force-reinstall --no-deps .
	rm -rf .ref-src
	.venv-ref/bin/hh --version

# Re-pin after changing dependencies in pyproject.toml.
lock: $(FAST_TEST_STAMP)
	$(FAST)/bin/python -m pip freeze --exclude-editable | grep -v "^hh[= @]" > requirements.lock

clean:
	rm -rf $(VENV) $(FAST) .venv-ref .ref-src build *.egg-info .pytest_cache .ruff_cache
