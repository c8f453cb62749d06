"""Work off the GUI thread with a progress dialog (Anki's QueryOp): the window keeps painting, and no
`processEvents()` is ever needed.

    tarefa = Tarefa(lambda progresso: servico(..., progresso=progresso), parent=self)
    tarefa.concluida.connect(self.quando_pronto)   # the function's result, in the GUI thread
    tarefa.falhou.connect(self.quando_recusado)    # the refusal's Portuguese message
    tarefa.iniciar(dialogo_progresso(self, "Título", "Preparando…"))

With `dialogo_progresso(..., cancelavel=True)` the dialog has a "Cancelar": pressing it makes the next
`progresso(...)` call raise `Cancelado` inside the worker, so the service's unit of work rolls back (nothing
written) and `cancelada` is emitted instead of `falhou`. A service that can be cancelled therefore calls
`progresso` between steps and writes everything in one transaction.

Most screens need only `em_segundo_plano`, three lines at the call site (failure shown in a message box, a
non-modal progress dialog so the rest of the window stays usable, and a per-record key so a second act on
the same record is refused clearly while the first runs):

    em_segundo_plano(self, lambda progresso: servico(..., progresso=progresso),
                     titulo="Ficha da operadora", texto="Lendo os autos…",
                     ao_concluir=self.quando_pronto, chave=("operadora", operadora_id))
"""

from __future__ import annotations

import contextlib
import gc
import logging
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, Qt, QThread, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from secretaria.coleta import coletar_como_o_python, sem_coleta_completa
from secretaria.db import BancoOcupado, ErroBanco
from secretaria.services.base import Cancelado, ErroDominio
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.espera_banco import aguardando_banco

_log = logging.getLogger(__name__)

Progresso = Callable[[int, int, str], None]


def guardar_objetos_do_inicio() -> None:
    """Take what is alive now (modules, classes, the main window: it all lives as long as the program) out
    of the cyclic collector's sight, after freeing the start-up's garbage (Python's `gc.freeze`).

    The collector holds the GIL while it walks, so a full collection in any thread freezes the window, and
    a full collection walks every tracked object: the start-up's 120,000 took 0.08–0.13 s of CPU (0.2–0.9 s
    of wall time on a loaded machine), now and then right inside an action. Set aside, they are never
    walked again: a full collection then walks only what was made since. Called once, when the main window
    has been built."""
    gc.collect()
    gc.freeze()


INTERVALO_DA_COLETA_MS = 50
"""How often the GUI thread does what Python's collector would have done since: short, so that each young
collection walks only what 50 ms of work made (a few milliseconds), not a task's whole output at once."""

_coleta_na_janela: QTimer | None = None


def coletar_so_na_thread_da_janela() -> None:
    """Python's cyclic collections only in the GUI thread from now on: the automatic collector off, and a
    timer doing its work with its own rules (`secretaria.coleta.coletar_como_o_python`, which says why: a Qt
    object freed by a collection in another thread hung the window for good). Idempotent; called once the
    main window is built (after `guardar_objetos_do_inicio`), undone by `devolver_a_coleta_ao_python`."""
    global _coleta_na_janela
    if _coleta_na_janela is not None:
        return
    app = QCoreApplication.instance()
    assert app is not None, "a coleta na thread da janela precisa da aplicação Qt"
    temporizador = QTimer(app)
    temporizador.setInterval(INTERVALO_DA_COLETA_MS)
    temporizador.timeout.connect(coletar_como_o_python)
    gc.disable()
    temporizador.start()
    _coleta_na_janela = temporizador


def devolver_a_coleta_ao_python() -> None:
    """The automatic collector back on (the program's end, a test's)."""
    global _coleta_na_janela
    if _coleta_na_janela is not None:
        _coleta_na_janela.stop()
        _coleta_na_janela.deleteLater()
        _coleta_na_janela = None
    gc.enable()


def dialogo_progresso(
    parent: QWidget | None, titulo: str, texto: str, *, cancelavel: bool = False, modal: bool = True
) -> QProgressDialog:
    """A progress dialog; without "Cancelar" unless the work can stop with nothing written. Window-modal
    unless `modal=False` (the window stays usable while the work goes on: `em_segundo_plano`)."""
    dialogo = QProgressDialog(texto, "Cancelar" if cancelavel else "", 0, 0, parent)
    if not cancelavel:
        dialogo.setCancelButton(None)  # Qt's documented way to have none
    dialogo.setProperty("cancelavel", cancelavel)
    dialogo.setWindowTitle(titulo)
    dialogo.setWindowModality(Qt.WindowModality.WindowModal if modal else Qt.WindowModality.NonModal)
    dialogo.setMinimumDuration(300)
    dialogo.setAutoClose(False)
    dialogo.setAutoReset(False)
    dialogo.setMinimumWidth(460)
    return dialogo


class Tarefa(QThread):
    """Runs `funcao(progresso)` in a thread of its own. Signals reach the GUI thread queued, in order:
    every `progresso` before `concluida` (the result) or `falhou` (the message to show). A function that
    hands results over as it goes (the Painel's charts, one by one) emits `parcial` with each."""

    progresso = Signal(int, int, str)
    parcial = Signal(object)
    concluida = Signal(object)
    falhou = Signal(str)
    cancelada = Signal(str)

    # A running thread must outlive the window that started it (Qt aborts the process when a QThread is
    # destroyed while running): each task keeps itself here, without a Qt parent, until it has finished.
    _em_andamento: ClassVar[set[Tarefa]] = set()

    def __init__(self, funcao: Callable[[Progresso], object], parent: QWidget | None = None) -> None:
        super().__init__()
        self._funcao = funcao
        if parent is not None:
            parent.destroyed.connect(self._sem_janela)
        self.dialogo: QProgressDialog | None = None
        self.chave: Hashable | None = None
        self.erro: Exception | None = (
            None  # the refusal `falhou` told (a BancoOcupado offers "Tentar de novo")
        )
        self._cancelar = threading.Event()
        self._aguardando_ate = 0.0
        self.titulo = ""
        self.pode_cancelar = True

    def iniciar(self, dialogo: QProgressDialog | None = None) -> None:
        self.dialogo = dialogo
        # What the program's exit needs to know once the dialog may be gone (`encerrar_tarefas`).
        self.titulo = dialogo.windowTitle() if dialogo is not None else ""
        self.pode_cancelar = dialogo is None or bool(dialogo.property("cancelavel"))
        if dialogo is not None:
            self.progresso.connect(self._mostrar)
            self.finished.connect(dialogo.close)
            if dialogo.property("cancelavel"):
                dialogo.canceled.connect(self.cancelar)
            dialogo.show()
        Tarefa._em_andamento.add(self)
        self.finished.connect(self._terminou)
        self.start()

    def _sem_janela(self) -> None:
        """The window that started the task is gone: the work goes on (a restore cannot stop half-way), but
        nothing may reach the widgets that are no longer there."""
        for sinal in (
            self.progresso,
            self.parcial,
            self.concluida,
            self.falhou,
            self.cancelada,
            self.finished,
        ):
            with warnings.catch_warnings():  # PySide warns (and raises) when a signal has no receivers
                warnings.simplefilter("ignore", RuntimeWarning)
                with contextlib.suppress(RuntimeError, SystemError):
                    sinal.disconnect()
        self.dialogo = None
        self.finished.connect(self._terminou)

    def _terminou(self) -> None:
        if self.chave is not None:
            _ocupados.pop(self.chave, None)
        # Let go of it once this signal's delivery is over, not inside it: the last reference then frees it.
        QTimer.singleShot(0, lambda: Tarefa._em_andamento.discard(self))

    def cancelar(self) -> None:
        """Ask the work to stop at its next `progresso` call (thread-safe; the GUI thread calls it)."""
        if self.isFinished():  # the dialog closing after the end emits `canceled` too
            return
        self._cancelar.set()
        if self.dialogo is not None:
            self.dialogo.setLabelText("Cancelando… (nada será gravado)")

    def _relatar(self, feitas: int, total: int, etapa: str) -> None:
        if self._cancelar.is_set():
            raise Cancelado()
        if time.monotonic() < self._aguardando_ate:
            return  # a busy database's retry runs the act again: keep saying that it is waiting
        self.progresso.emit(feitas, total, etapa)

    def _mostrar(self, feitas: int, total: int, etapa: str) -> None:
        if self.dialogo is not None and not self._cancelar.is_set():
            self.dialogo.setMaximum(total)
            self.dialogo.setValue(feitas)
            self.dialogo.setLabelText(etapa)

    def _aguardando_banco(self, segundos: float) -> None:
        """The database is busy (another program holds its lock): say so, and stop here if the user gave
        up (nothing has been written: the wait is for the transaction's start or its first lock)."""
        self._aguardando_ate = 0.0
        self._relatar(0, 0, f"Aguardando o banco de dados, ocupado por outro programa… ({segundos:.0f} s)")
        self._aguardando_ate = time.monotonic() + 1.5

    def run(self) -> None:
        aguardando_banco(self._aguardando_banco)  # this thread's units of work wait in short slices
        self.erro = None
        # No full cyclic collection while any task works: it holds the GIL and would freeze the window
        # (secretaria.coleta, which says what was measured).
        with sem_coleta_completa():
            self._executar()

    def _executar(self) -> None:
        try:
            resultado = self._funcao(self._relatar)
        except Cancelado as exc:
            self.cancelada.emit(str(exc))
        except (ErroDominio, ErroBanco) as exc:
            self.erro = exc
            self.falhou.emit(str(exc))
        except (OSError, sqlite3.Error) as exc:
            _log.exception("Falha de arquivo ou banco numa tarefa em segundo plano")
            self.falhou.emit(f"Erro ao ler ou gravar um arquivo: {exc}")
        except Exception as exc:  # whatever broke, the user must be told rather than left waiting
            _log.exception("Erro inesperado numa tarefa em segundo plano")
            self.falhou.emit(f"Erro inesperado ({type(exc).__name__}): {exc}")
        else:
            self.concluida.emit(resultado)


# Records with work under way (`em_segundo_plano(..., chave=...)`), and what that work is called.
_ocupados: dict[Hashable, str] = {}

pendencias: set[object] = set()
"""Work the window is doing from its event loop rather than in a thread (a save waiting for a busy
database, `gravacao.em_espera`): `aguardar_tarefas` waits for it as for a task."""


def em_andamento(chave: Hashable) -> str | None:
    """The title of the work running now on `chave` (a record), or None."""
    return _ocupados.get(chave)


def em_segundo_plano(
    parent: QWidget | None,
    funcao: Callable[[Progresso], Any],
    *,
    titulo: str,
    texto: str,
    ao_concluir: Callable[[Any], None],
    ao_falhar: Callable[[str], None] | None = None,
    ao_cancelar: Callable[[str], None] | None = None,
    cancelavel: bool = True,
    chave: Hashable | None = None,
    modal: bool = False,
) -> Tarefa | None:
    """Run `funcao(progresso)` off the GUI thread with a non-modal progress dialog (shown after 300 ms), and
    then `ao_concluir(resultado)` on the GUI thread. A refusal goes to `ao_falhar` or else to a message box
    titled `titulo`; Cancelar (when `cancelavel`) stops the work at its next `progresso` and calls
    `ao_cancelar`. With `chave`, a second call for the same key while the first runs is refused with a
    message (and returns None): an act on the same record never runs twice at once. `modal`: the progress
    dialog blocks its window meanwhile (a save from a form, whose fields the work reads)."""
    if chave is not None and chave in _ocupados:
        mensagens.avisar_erro(
            parent,
            titulo,
            f"“{_ocupados[chave]}” ainda está em andamento para este registro. Aguarde que termine "
            "(a janela de progresso mostra o andamento) e tente de novo.",
        )
        return None
    tarefa = Tarefa(funcao, parent)
    tarefa.concluida.connect(ao_concluir)

    def falhou(mensagem: str) -> None:
        if isinstance(tarefa.erro, BancoOcupado):
            mensagens.confirmar(
                parent,
                titulo,
                mensagem,
                lambda: _de_novo(),
                texto_sim="Tentar de novo",
                texto_nao="Desistir",
                ao_recusar=None if ao_falhar is None else lambda: ao_falhar(mensagem),
            )
        elif ao_falhar is None:
            mensagens.avisar_erro(parent, titulo, mensagem)
        else:
            ao_falhar(mensagem)

    def _de_novo() -> None:
        em_segundo_plano(
            parent,
            funcao,
            titulo=titulo,
            texto=texto,
            ao_concluir=ao_concluir,
            ao_falhar=ao_falhar,
            ao_cancelar=ao_cancelar,
            cancelavel=cancelavel,
            chave=chave,
            modal=modal,
        )

    tarefa.falhou.connect(falhou)
    if ao_cancelar is not None:
        tarefa.cancelada.connect(ao_cancelar)
    if chave is not None:
        _ocupados[chave] = titulo
        tarefa.chave = chave  # let go when the task ends, even after its window has gone
    tarefa.iniciar(dialogo_progresso(parent, titulo, texto, cancelavel=cancelavel, modal=modal))
    return tarefa


def trabalho_em_andamento() -> list[str]:
    """The titles of the long work running now that the user started and is watching (its progress dialog):
    what closing the window asks about."""
    return sorted({t.titulo for t in Tarefa._em_andamento if t.titulo and t.isRunning()})


def encerrar_tarefas() -> None:
    """Before the program exits: every task that can stop with nothing written is asked to stop (at its next
    `progresso`), and every one is waited for — a restore cannot stop half-way. Qt aborts the process when a
    QThread is destroyed while it runs: closing the window while the Painel drew ended in "Abortado"."""
    for tarefa in list(Tarefa._em_andamento):
        if tarefa.isRunning() and tarefa.pode_cancelar:
            tarefa._cancelar.set()
    for tarefa in list(Tarefa._em_andamento):
        tarefa.wait()  # PySide lets go of the GIL meanwhile: the worker can finish


def aguardar_tarefas(limite_ms: int = 60_000) -> bool:
    """For tests: let the event loop run until every background task has finished and delivered its
    result (the message box it opens is then on screen). False if some task is still running."""
    from PySide6.QtCore import QEventLoop

    prazo = time.monotonic() + limite_ms / 1000
    laco = QEventLoop()
    while Tarefa._em_andamento or pendencias:
        if time.monotonic() > prazo:
            return False
        # An event loop of its own, not QTest.qWait: PySide's qWait keeps the GIL while it sleeps, and a
        # worker thread then crawled (the Painel's charts: 27 s instead of 0.6 s).
        QTimer.singleShot(10, laco.quit)
        laco.exec()
    return True


mensagens.antes_de_procurar_caixa(aguardar_tarefas)
