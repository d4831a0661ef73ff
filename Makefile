# Two commands on a fresh clone: `make demo` and `make test`. Each creates
# .venv if needed and installs the pinned dependencies (requirements.lock).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test lint bench lock clean

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest

demo: $(STAMP)
	$(BIN)/python -m hh.demo

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Re-pin after changing dependencies in pyproject.toml.
lock:
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^hh==' > requirements.lock

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
