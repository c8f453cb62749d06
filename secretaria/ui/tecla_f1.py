"""F1 anywhere in the program: an application-wide key filter that opens the manual (`ui.ajuda`) at the
section of the widget that has the focus.

Apart from the help window so that installing it at start-up, before the login, loads neither the window's
widgets nor the manual: they load at the first F1.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget


class _FiltroF1(QObject):
    """F1 anywhere in the program opens the manual at the section of the widget that has the focus."""

    def eventFilter(self, objeto: QObject, evento: QEvent) -> bool:
        if (
            evento.type() == QEvent.Type.KeyPress
            and isinstance(evento, QKeyEvent)
            and evento.key() == Qt.Key.Key_F1
            and evento.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            from secretaria.ui.ajuda import JanelaAjuda, abrir_ajuda, secao_do_widget

            foco = QApplication.focusWidget()
            alvo = foco if foco is not None else (objeto if isinstance(objeto, QWidget) else None)
            if isinstance(alvo, QWidget) and isinstance(alvo.window(), JanelaAjuda):
                return False  # F1 inside the manual itself: nothing to open
            abrir_ajuda(secao_do_widget(alvo))
            return True
        return False


_filtro: _FiltroF1 | None = None


def instalar_f1() -> None:
    """Install F1 on the application (once; again after a new QApplication)."""
    global _filtro
    app = QApplication.instance()
    if app is None:
        return
    if _filtro is not None and _filtro.parent() is app:
        return
    _filtro = _FiltroF1(app)
    app.installEventFilter(_filtro)
