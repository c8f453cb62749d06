"""Work off the GUI thread with a progress dialog (Anki's QueryOp): the window keeps painting, and no
`processEvents()` is ever needed.

    tarefa = Tarefa(lambda progresso: servico(..., progresso=progresso), parent=self)
    tarefa.concluida.connect(self.quando_pronto)   # the function's result, in the GUI thread
    tarefa.falhou.connect(self.quando_recusado)    # the refusal's Portuguese message
    tarefa.iniciar(dialogo_progresso(self, "Título", "Preparando…"))
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from secretaria.db import ErroBanco
from secretaria.services.base import ErroDominio

_log = logging.getLogger(__name__)

Progresso = Callable[[int, int, str], None]


def dialogo_progresso(parent: QWidget, titulo: str, texto: str) -> QProgressDialog:
    """A window-modal progress dialog without "Cancelar" (for work that cannot stop half-way)."""
    dialogo = QProgressDialog(texto, "", 0, 0, parent)
    dialogo.setCancelButton(None)  # Qt's documented way to have none
    dialogo.setWindowTitle(titulo)
    dialogo.setWindowModality(Qt.WindowModality.WindowModal)
    dialogo.setMinimumDuration(300)
    dialogo.setAutoClose(False)
    dialogo.setAutoReset(False)
    dialogo.setMinimumWidth(460)
    return dialogo


class Tarefa(QThread):
    """Runs `funcao(progresso)` in a thread of its own. Signals reach the GUI thread queued, in order:
    every `progresso` before `concluida` (the result) or `falhou` (the message to show)."""

    progresso = Signal(int, int, str)
    concluida = Signal(object)
    falhou = Signal(str)

    def __init__(self, funcao: Callable[[Progresso], object], parent: QWidget) -> None:
        super().__init__(parent)
        self._funcao = funcao
        self.dialogo: QProgressDialog | None = None

    def iniciar(self, dialogo: QProgressDialog | None = None) -> None:
        self.dialogo = dialogo
        if dialogo is not None:
            self.progresso.connect(self._mostrar)
            self.finished.connect(dialogo.close)
            dialogo.show()
        self.start()

    def _mostrar(self, feitas: int, total: int, etapa: str) -> None:
        if self.dialogo is not None:
            self.dialogo.setMaximum(total)
            self.dialogo.setValue(feitas)
            self.dialogo.setLabelText(etapa)

    def run(self) -> None:
        try:
            resultado = self._funcao(self.progresso.emit)
        except (ErroDominio, ErroBanco) as exc:
            self.falhou.emit(str(exc))
        except (OSError, sqlite3.Error) as exc:
            _log.exception("Falha de arquivo ou banco numa tarefa em segundo plano")
            self.falhou.emit(f"Erro ao ler ou gravar um arquivo: {exc}")
        except Exception as exc:  # whatever broke, the user must be told rather than left waiting
            _log.exception("Erro inesperado numa tarefa em segundo plano")
            self.falhou.emit(f"Erro inesperado ({type(exc).__name__}): {exc}")
        else:
            self.concluida.emit(resultado)
