# The two commands of the README: `make run` and `make test`. Both (re)build .venv from pyproject.toml.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/secretaria demo --abrir

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check secretaria tests bench
	$(BIN)/ruff format --check secretaria tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite runs once without a tracer (it is long); the law package's branch coverage (100% required)
# is measured on its own tests, which is where that coverage must come from anyway.
pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider --durations=10
	$(BIN)/coverage run --branch --source=secretaria/lei -m pytest -q -p no:cacheprovider tests/lei
	$(BIN)/coverage report --fail-under=100 --show-missing --skip-covered

bench: $(STAMP)
	$(BIN)/python bench/run

clean:
	rm -rf $(VENV) .coverage .mypy_cache .ruff_cache .pytest_cache
