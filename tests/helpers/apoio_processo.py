"""Helpers of the case-screen tests (tests/ui/test_processo_*.py, test_inicio.py, test_teclado.py).

Plain code: the fixtures these tests use (`cidade`, `roteiro`, `sem_caixas_abertas`) are in
`tests/helpers/fixtures.py`. The data come from the case services' factory, `tests/helpers/fabrica.py` (a
small city inserted directly, one actor per role, and a script of acts with a patched clock).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import Ator
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import mensagens

J = TypeVar("J", bound=QWidget)
D = TypeVar("D", bound=QDialog)
TODOS_OS_PAPEIS = frozenset({"fiscal", "protocolo", "autoridade", "secretario"})


_VIVAS: list[QWidget] = []


def manter(janela: J) -> J:
    """Keep a strong reference to a parentless window until the test's teardown, and return it.

    pytest-qt's `addWidget` keeps only weak references: a parentless dialog whose confirmation callback
    refers to it forms a reference cycle that the garbage collector may free in the middle of Qt's event
    processing after the test, which crashes PySide. (In the program every dialog has a parent window.)"""
    _VIVAS.append(janela)
    return janela


def soltar_janelas() -> None:
    """Drop the references `manter` kept (after the windows were closed)."""
    _VIVAS.clear()


def contexto(banco: Banco, *papeis: str, login: str = "usuario") -> Contexto:
    return Contexto(banco, Ator(login, f"Usuário {login}", frozenset(papeis or TODOS_OS_PAPEIS)))


def responder_caixa(qtbot: QtBot, botao: QMessageBox.StandardButton = QMessageBox.StandardButton.Yes) -> str:
    """Wait for the (non-blocking) message box and click `botao`; return the text the user read."""
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    return mensagens.responder(botao)


def dialogo_aberto(tipo: type[D]) -> D | None:
    """The visible top-level or child dialog of class `tipo` (the newest)."""
    achados = [w for w in QApplication.allWidgets() if isinstance(w, tipo) and w.isVisible()]
    return achados[-1] if achados else None


def esperar_dialogo(qtbot: QtBot, tipo: type[D]) -> D:
    qtbot.waitUntil(lambda: dialogo_aberto(tipo) is not None)
    dialogo = dialogo_aberto(tipo)
    assert dialogo is not None
    return dialogo


def esperar_fechar(qtbot: QtBot, janela: QWidget) -> None:
    """Wait until `janela` is no longer shown (a dialog closes once its act is saved)."""
    qtbot.waitUntil(lambda: not janela.isVisible())


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
