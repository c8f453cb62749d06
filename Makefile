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

pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/coverage run -m pytest -q -p no:cacheprovider
	$(BIN)/coverage report --include='secretaria/lei/*' --fail-under=100 --show-missing --skip-covered

bench: $(STAMP)
	$(BIN)/python bench/run

clean:
	rm -rf $(VENV) .coverage .mypy_cache .ruff_cache .pytest_cache
