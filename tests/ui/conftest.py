"""UI tests run offscreen (no display needed); Qt must not be imported before this is set."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # Qt is imported only once QT_QPA_PLATFORM is set below
    from PySide6.QtWidgets import QWidget
    from pytestqt.qtbot import QtBot

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The offscreen platform plugin warns on every top-level window shown; it says nothing about our code.
_RUIDO_OFFSCREEN = r"This plugin does not support (propagateSizeHints|raise|grabWindow|grabbing the keyboard)"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    pasta = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(pasta):
            item.add_marker(pytest.mark.qt_log_ignore(_RUIDO_OFFSCREEN))


Digitar = Callable[["QWidget", str], None]


@pytest.fixture
def digitar(qtbot: QtBot) -> Digitar:
    """Type text into a widget key by key, accents included (QTest.keyClicks aborts on non-ASCII)."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    def _digitar(widget: QWidget, texto: str) -> None:
        for c in texto:
            if c.isascii():
                qtbot.keyClicks(widget, c)
                continue
            for tipo in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(
                    widget, QKeyEvent(tipo, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, c)
                )

    return _digitar


@pytest.fixture(autouse=True)
def coleta_so_na_thread_da_janela(qapp: object) -> Iterator[None]:
    """Every window test runs as the program does: cyclic collections in the GUI thread only (a collection
    in a reading thread that freed a Qt object hung the suite once); the automatic collector back after it,
    for the tests of the command line and the services that the same process runs next."""
    from secretaria.ui.widgets.tarefas import coletar_so_na_thread_da_janela, devolver_a_coleta_ao_python

    coletar_so_na_thread_da_janela()
    try:
        yield
    finally:
        devolver_a_coleta_ao_python()
