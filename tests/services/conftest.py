"""Fixtures of the case-service tests (and of anyone reusing their data): `cidade`, `roteiro`, `atores`.

The data and the script of acts live in `fabrica.py` beside this file, loaded here by path (the suite runs
with --import-mode=importlib, so `tests` is not necessarily importable); it is registered in sys.modules as
`tests.services.fabrica`, so `from tests.services.fabrica import ...` also works once this conftest loaded.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from secretaria.db import Banco
from secretaria.services.base import Ator


def _carregar_fabrica() -> ModuleType:
    nome = "tests.services.fabrica"
    if nome in sys.modules:
        return sys.modules[nome]
    spec = importlib.util.spec_from_file_location(nome, Path(__file__).with_name("fabrica.py"))
    assert spec is not None and spec.loader is not None
    modulo = importlib.util.module_from_spec(spec)
    sys.modules[nome] = modulo
    spec.loader.exec_module(modulo)
    return modulo


fabrica = _carregar_fabrica()


@pytest.fixture
def atores() -> dict[str, Ator]:
    return dict(fabrica.ATORES)


@pytest.fixture
def cidade(banco: Banco) -> object:
    """Two operators (a concessionária and a permissionária), lines, buses, drivers, an inspector, URM values."""
    return fabrica.popular(banco)


@pytest.fixture
def roteiro(banco: Banco, cidade: object, monkeypatch: pytest.MonkeyPatch) -> object:
    """Acts with defaults on `cidade`; the services' clock reads `roteiro.hoje` (30/11/2026 unless changed)."""
    return fabrica.Roteiro(banco, cidade, monkeypatch)
