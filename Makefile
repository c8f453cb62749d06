# The three commands of the README: `make run` and `make test` (both (re)build .venv from pyproject.toml), and
# `make dist`, the one-folder program for the office's computers (its own virtualenv, .venv-dist).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-futuro lint typecheck pytest bench constraints clean dist testar-dist

# The versions come from constraints.txt (the ones this program was tested with), so an install next year gets
# the same `holidays` and the same deadlines; pyproject.toml says only what is allowed.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
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
# Two processes (pytest-xdist; each has its own PostgreSQL database and temporary folders): the window tests
# mostly wait on signals, so two share the machine's two cores well. `PROCESSOS=0 make test` runs in this one.
PROCESSOS ?= 2
XDIST := -n $(PROCESSOS)$(if $(filter 0,$(PROCESSOS)),, --dist worksteal)
pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider $(XDIST) --durations=10
	$(BIN)/coverage run --branch --source=secretaria/lei -m pytest -q -p no:cacheprovider tests/lei
	$(BIN)/coverage report --fail-under=100 --show-missing --skip-covered

# The suite again with the system clock (libfaketime, Debian package `faketime`) 400 days ahead: a test that
# depends on the real date fails here. `FUTURO='2030-01-01 09:00:00' make test-futuro` picks the day.
FUTURO ?= $(shell date -d '+400 days' '+%Y-%m-%d 09:00:00')
test-futuro: $(STAMP)
	QT_QPA_PLATFORM=offscreen faketime '$(FUTURO)' $(BIN)/python -m pytest -q -p no:cacheprovider $(XDIST)

bench: $(STAMP)
	$(BIN)/python bench/run

# Refresh the pins on purpose: the newest versions pyproject.toml allows, installed into a scratch venv and
# frozen into constraints.txt; the next `make test` reinstalls .venv from them. Commit it only when green.
constraints:
	rm -rf .venv-constraints
	$(PYTHON) -m venv .venv-constraints
	.venv-constraints/bin/python -m pip install --quiet --upgrade pip
	.venv-constraints/bin/python -m pip install --quiet -e '.[test,dist]'
	{ sed -n '/^#/p' constraints.txt; .venv-constraints/bin/python -m pip freeze --exclude-editable; } > constraints.txt.novo
	mv constraints.txt.novo constraints.txt
	rm -rf .venv-constraints

# The program for the office's computers: dist/Secretaria/, built by PyInstaller from empacotamento/secretaria.spec
# in a virtualenv of its own (never .venv: the build must carry exactly the pinned versions, and nothing of the
# test tools), installed from constraints.txt like .venv. The Windows build is empacotamento/windows/construir.ps1.
DIST_VENV  := .venv-dist
DIST_STAMP := $(DIST_VENV)/.installed
$(DIST_STAMP): pyproject.toml constraints.txt
	test -x $(DIST_VENV)/bin/python || $(PYTHON) -m venv $(DIST_VENV)
	$(DIST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(DIST_VENV)/bin/python -m pip install --quiet -c constraints.txt -e '.[dist]'
	touch $(DIST_STAMP)

dist: $(DIST_STAMP)
	$(DIST_VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
		empacotamento/secretaria.spec
	@du -sh dist/Secretaria

# The built folder run with no Python on the PATH (what CI checks after `make dist`).
testar-dist:
	empacotamento/testar_pasta.sh dist/Secretaria

clean:
	rm -rf $(VENV) $(DIST_VENV) build dist .coverage .mypy_cache .ruff_cache .pytest_cache
