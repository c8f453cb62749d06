"""Fixtures and helpers shared by the case-screen tests (tests/ui/test_processo_*.py, test_inicio.py).

Not a test module: each test file loads it by path (the suite runs with --import-mode=importlib) and
re-exports its fixtures. The data come from the case services' factory, `tests/services/fabrica.py`
(a small city inserted directly, one actor per role, and a script of acts with a patched clock).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import Ator
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import mensagens


def carregar(nome: str, caminho: Path) -> ModuleType:
    if nome in sys.modules:
        return sys.modules[nome]
    spec = importlib.util.spec_from_file_location(nome, caminho)
    assert spec is not None and spec.loader is not None
    modulo = importlib.util.module_from_spec(spec)
    sys.modules[nome] = modulo
    spec.loader.exec_module(modulo)
    return modulo


fabrica = carregar("tests.services.fabrica", Path(__file__).parents[1] / "services" / "fabrica.py")
TODOS_OS_PAPEIS = frozenset({"fiscal", "protocolo", "autoridade", "secretario"})


@pytest.fixture
def cidade(banco: Banco) -> Any:
    return fabrica.popular(banco)


@pytest.fixture
def roteiro(banco: Banco, cidade: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Acts with defaults; "today" (services and screens) is `roteiro.hoje` (30/11/2026 unless changed)."""
    return fabrica.Roteiro(banco, cidade, monkeypatch)


_VIVAS: list[QWidget] = []


def manter(janela: Any) -> Any:
    """Keep a strong reference to a parentless window until the test's teardown, and return it.

    pytest-qt's `addWidget` keeps only weak references: a parentless dialog whose confirmation callback
    refers to it forms a reference cycle that the garbage collector may free in the middle of Qt's event
    processing after the test, which crashes PySide. (In the program every dialog has a parent window.)"""
    _VIVAS.append(janela)
    return janela


@pytest.fixture(autouse=True)
def sem_caixas_abertas() -> Any:
    """No window or message box left open by one test leaks into the next (re-export this in each test
    module); the windows kept by `manter` are released only after they are closed."""
    yield
    fechar_caixas()
    _VIVAS.clear()


def contexto(banco: Banco, *papeis: str, login: str = "usuario") -> Contexto:
    return Contexto(banco, Ator(login, f"Usuário {login}", frozenset(papeis or TODOS_OS_PAPEIS)))


def responder_caixa(qtbot: QtBot, botao: QMessageBox.StandardButton = QMessageBox.StandardButton.Yes) -> str:
    """Wait for the (non-blocking) message box and click `botao`; return the text the user read."""
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    return mensagens.responder(botao)


def dialogo_aberto(tipo: type[QDialog]) -> Any:
    """The visible top-level or child dialog of class `tipo` (the newest)."""
    achados = [w for w in QApplication.allWidgets() if isinstance(w, tipo) and w.isVisible()]
    return achados[-1] if achados else None


def esperar_dialogo(qtbot: QtBot, tipo: type[QDialog]) -> Any:
    qtbot.waitUntil(lambda: dialogo_aberto(tipo) is not None)
    return dialogo_aberto(tipo)


def fechar_caixas() -> None:
    """Close any message box or window left open, so one test's windows never leak into the next."""
    from PySide6.QtCore import QCoreApplication, QEvent

    while (caixa := mensagens.caixa_aberta()) is not None:
        caixa.done(0)
    for janela in QApplication.topLevelWidgets():
        if janela.isVisible():
            janela.close()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def depois(ms: int, acao: Callable[[], None]) -> None:
    QTimer.singleShot(ms, acao)


def salvar_png(widget: QWidget, nome: str) -> None:
    """When SECRETARIA_UI_PNG is set (a folder), render the widget there: used to look at the screens."""
    import os

    pasta = os.environ.get("SECRETARIA_UI_PNG")
    if pasta:
        Path(pasta).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(pasta) / f"{nome}.png"))
