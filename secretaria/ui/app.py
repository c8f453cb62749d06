"""GUI entry point: the QApplication (Fusion style, Qt's pt_BR translations, Brazilian locale), then login
(or the first-run administrator on an empty database), then the main window.

Nothing heavy is imported here: ReportLab and openpyxl load only when a document or spreadsheet is made.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from secretaria.ui.aplicacao import configurar_aplicacao

if TYPE_CHECKING:
    from secretaria.db import Banco


def entrar(banco: Banco, *, demo: bool, parent: object = None) -> object | None:
    """Run the first-run or the login dialog (blocking: the program has no window yet); return the
    `Contexto` of the user who entered, or None if they gave up. Once the dialog is on screen, the daily
    copy starts (`acompanhar_copia_diaria`)."""
    from PySide6.QtWidgets import QDialog, QWidget

    from secretaria.ui.contexto import Contexto
    from secretaria.ui.login import DialogoLogin, DialogoPrimeiroAcesso, precisa_primeiro_acesso

    pai = parent if isinstance(parent, QWidget) else None
    dialogo: DialogoLogin | DialogoPrimeiroAcesso
    if not demo and precisa_primeiro_acesso(banco):
        dialogo = DialogoPrimeiroAcesso(banco, pai)
    else:
        dialogo = DialogoLogin(banco, demo=demo, parent=pai)
    if _copia_diaria is not None:
        depois_de_pintar(dialogo, _copia_diaria.iniciar)
    from secretaria.ui import fumaca

    if fumaca.ativa():
        depois_de_pintar(dialogo, lambda: fumaca.entrar(dialogo))
    if dialogo.exec() != QDialog.DialogCode.Accepted or dialogo.ator is None:
        return None
    return Contexto(banco, dialogo.ator, demo)


def depois_de_pintar(janela: object, acao: Callable[[], None]) -> None:
    """Run `acao` on the GUI thread once `janela` has painted for the first time: work the window does not
    need waits until it is on screen instead of delaying it."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QWidget

    assert isinstance(janela, QWidget)

    class _AoPintar(QObject):
        def eventFilter(self, objeto: QObject, evento: QEvent) -> bool:
            if evento.type() == QEvent.Type.Paint:
                objeto.removeEventFilter(self)
                self.deleteLater()
                QTimer.singleShot(0, acao)  # after this paint has reached the screen
            return False

    janela.installEventFilter(_AoPintar(janela))


class _Copia(Protocol):
    """What the status bar needs of the start-up's daily copy (`secretaria.cli.CopiaDiaria`)."""

    copia: Path | None
    erro: str | None

    def is_alive(self) -> bool: ...


class _CopiaAIniciar(_Copia, Protocol):
    def iniciar(self) -> None:
        """Start the copy unless it has started already."""


_copia_diaria: _CopiaAIniciar | None = None


def acompanhar_copia_diaria(copia: _CopiaAIniciar) -> None:
    """The daily copy to run beside the login window: it starts once the login is on screen (or, at the
    latest, after it), and the main window's status bar reports its end."""
    global _copia_diaria
    _copia_diaria = copia


def _informar_copia(janela: object, copia: _Copia) -> None:
    """Progress, then the outcome, of the daily copy in the status bar (polled: the copy is a plain thread)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMainWindow

    assert isinstance(janela, QMainWindow)
    barra = janela.statusBar()
    if copia.is_alive():
        barra.showMessage("Fazendo a cópia de segurança diária do banco de dados…")
        QTimer.singleShot(500, janela, lambda: _informar_copia(janela, copia))
        return
    if copia.erro is not None:
        barra.showMessage(f"A cópia de segurança diária não foi feita: {copia.erro}")
    elif copia.copia is not None:
        barra.showMessage(f"Cópia de segurança diária feita: {copia.copia.name}.", 10_000)
    else:
        barra.clearMessage()


def executar(banco: Banco, *, demo: bool) -> int:
    from PySide6.QtWidgets import QApplication

    from secretaria.ui import fumaca
    from secretaria.ui.contexto import Contexto

    app = configurar_aplicacao()
    assert isinstance(app, QApplication)
    from secretaria.ui import erros

    erros.instalar()
    contexto = entrar(banco, demo=demo)
    if not isinstance(contexto, Contexto):
        return 0
    if _copia_diaria is not None:
        _copia_diaria.iniciar()  # the login may have been too quick to paint
    # What the login does not need loads after it: the law's catalogue and the letterhead row, which every
    # page may read (idempotent, one query when nothing changed), and the main window's modules.
    from secretaria.services.semente import semear_basico
    from secretaria.ui.janela_principal import JanelaPrincipal

    semear_basico(banco)
    janela = JanelaPrincipal(contexto)
    from secretaria.ui.widgets.tarefas import coletar_so_na_thread_da_janela, guardar_objetos_do_inicio

    guardar_objetos_do_inicio()
    coletar_so_na_thread_da_janela()
    janela.show()
    if _copia_diaria is not None:
        _informar_copia(janela, _copia_diaria)
    if fumaca.ativa():
        fumaca.na_janela(janela)
    from secretaria.ui.widgets.tarefas import devolver_a_coleta_ao_python, encerrar_tarefas

    codigo = int(app.exec())
    encerrar_tarefas()
    devolver_a_coleta_ao_python()
    return codigo
