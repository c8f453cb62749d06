"""The background task: its result, its refusal and its Cancelar reach the GUI thread, in that order."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QPushButton, QWidget
from pytestqt.qtbot import QtBot

from secretaria.coleta import SEM_COLETA_COMPLETA
from secretaria.services.base import ErroDominio
from secretaria.ui.widgets.tarefas import (
    Progresso,
    Tarefa,
    dialogo_progresso,
    guardar_objetos_do_inicio,
)


def _janela(qtbot: QtBot) -> QWidget:
    janela = QWidget()
    qtbot.addWidget(janela)
    return janela


def test_resultado_chega_depois_de_cada_progresso(qtbot: QtBot) -> None:
    vistos: list[tuple[int, int, str]] = []

    def contar(progresso: Progresso) -> int:
        for i in range(3):
            progresso(i + 1, 3, f"Passo {i + 1} de 3…")
        return 42

    janela = _janela(qtbot)
    tarefa = Tarefa(contar, janela)
    tarefa.progresso.connect(lambda a, b, c: vistos.append((a, b, c)))
    with qtbot.waitSignal(tarefa.concluida, timeout=5000) as sinal:
        tarefa.iniciar()
    assert sinal.args == [42]
    assert vistos == [(1, 3, "Passo 1 de 3…"), (2, 3, "Passo 2 de 3…"), (3, 3, "Passo 3 de 3…")]


def test_recusa_do_servico_chega_como_mensagem(qtbot: QtBot) -> None:
    def recusar(progresso: Progresso) -> None:
        raise ErroDominio("A competência 13/2026 não existe.")

    janela = _janela(qtbot)
    tarefa = Tarefa(recusar, janela)
    with qtbot.waitSignal(tarefa.falhou, timeout=5000) as sinal:
        tarefa.iniciar()
    assert sinal.args == ["A competência 13/2026 não existe."]


def test_cancelar_no_dialogo_para_o_trabalho_no_proximo_progresso(qtbot: QtBot) -> None:
    """Cancelar in the dialog: the work stops at its next step, `cancelada` (not `concluida`) arrives, and
    the steps after the cancel never ran (a service's unit of work would roll back there)."""
    primeiro_passo = threading.Event()
    pode_seguir = threading.Event()
    feitos: list[int] = []

    def longo(progresso: Progresso) -> str:
        for i in range(100):
            progresso(i, 100, f"Gerando a página {i + 1} de 100…")
            feitos.append(i)
            if i == 0:
                primeiro_passo.set()
                pode_seguir.wait(5)
        return "terminou"

    janela = _janela(qtbot)
    tarefa = Tarefa(longo, janela)
    dialogo = dialogo_progresso(janela, "Ficha", "Preparando…", cancelavel=True)
    concluidas: list[object] = []
    tarefa.concluida.connect(concluidas.append)
    with qtbot.waitSignal(tarefa.cancelada, timeout=5000) as sinal:
        tarefa.iniciar(dialogo)
        assert primeiro_passo.wait(5)
        qtbot.waitUntil(dialogo.isVisible)
        (botao,) = dialogo.findChildren(QPushButton)
        botao.click()
        pode_seguir.set()
    assert "nada foi gravado" in sinal.args[0]
    assert feitos == [0]
    qtbot.waitUntil(tarefa.isFinished)
    assert concluidas == []


def test_dialogo_sem_cancelar_nao_tem_botao(qtbot: QtBot) -> None:
    janela = _janela(qtbot)
    sem = dialogo_progresso(janela, "Restaurar", "Restaurando…")
    com = dialogo_progresso(janela, "Ficha", "Gerando…", cancelavel=True)
    assert [b.text() for b in sem.findChildren(QPushButton)] == []
    assert [b.text() for b in com.findChildren(QPushButton)] == ["Cancelar"]


def test_janela_fechada_no_meio_nao_derruba_o_programa(qtbot: QtBot) -> None:
    """The window that started a task is closed and destroyed while it runs: the work ends on its own and
    nothing is delivered to the widgets that are gone (before, Qt aborted the process)."""
    pode_seguir = threading.Event()
    entregues: list[object] = []

    def longo(progresso: Progresso) -> str:
        pode_seguir.wait(5)
        progresso(1, 1, "Quase…")
        return "feito"

    janela = QWidget()
    tarefa = Tarefa(longo, janela)
    tarefa.concluida.connect(entregues.append)
    tarefa.iniciar(dialogo_progresso(janela, "Restaurar", "Restaurando…"))
    janela.deleteLater()
    qtbot.waitUntil(lambda: tarefa.dialogo is None)
    pode_seguir.set()
    qtbot.waitUntil(tarefa.isFinished)
    qtbot.wait(50)
    assert entregues == []


def test_coletor_espera_enquanto_a_tarefa_roda_e_volta_depois(qtbot: QtBot) -> None:
    """No full cyclic collection (which holds the GIL while it walks every object, freezing the window) while
    a task works, the young ones going on; the collector's thresholds are back once it has ended."""
    durante: list[tuple[bool, tuple[int, int, int]]] = []

    def trabalhar(_progresso: Progresso) -> None:
        durante.append((gc.isenabled(), gc.get_threshold()))

    assert not gc.isenabled()  # the window's collection: in the GUI thread, by the thresholds
    antes = gc.get_threshold()
    tarefa = Tarefa(trabalhar, _janela(qtbot))
    with qtbot.waitSignal(tarefa.finished, timeout=5000):
        tarefa.iniciar()
    assert durante == [(False, (antes[0], antes[1], SEM_COLETA_COMPLETA))]
    assert gc.get_threshold() == antes


class _No:
    def __init__(self) -> None:
        self.eu = self  # a reference cycle: only the cyclic collector frees it


def test_objetos_do_inicio_saem_da_coleta_e_o_lixo_do_inicio_e_liberado() -> None:
    """What lives when the main window is built is never walked again by a full collection; garbage of the
    start-up is freed first, not kept for ever."""
    vivo = [_No()]
    lixo = weakref.ref(_No())
    assert lixo() is not None  # the cycle keeps it until a collection
    guardar_objetos_do_inicio()
    try:
        assert lixo() is None
        assert gc.get_freeze_count() > 0
        assert not any(o is vivo for o in gc.get_objects())
    finally:
        gc.unfreeze()
    assert any(o is vivo for o in gc.get_objects())


class _CicloComObjetoDoQt:
    def __init__(self) -> None:
        self.eu = self  # only the cyclic collector frees it, and the Qt object with it
        self.objeto = QObject()


def test_lixo_com_objeto_do_qt_so_e_coletado_na_thread_da_janela(qtbot: QtBot) -> None:
    """A reading thread that allocates a lot collects nothing: the garbage it would have collected (here a Qt
    object in a reference cycle) is freed by the GUI thread's timer (a Qt object destroyed in a reading
    thread's collection hung the window for good)."""
    assert not gc.isenabled()  # the window's tests run with the program's collection
    onde: list[str] = []
    ciclo = _CicloComObjetoDoQt()
    marca = weakref.ref(ciclo, lambda _r: onde.append(threading.current_thread().name))
    del ciclo

    lidos: list[list[list[int]]] = []

    def ler() -> None:  # what it reads stays alive: fifty young collections' worth of new objects
        lidos.append([[] for _ in range(50 * gc.get_threshold()[0])])

    fio = threading.Thread(target=ler, name="leitura")
    fio.start()
    fio.join(10)
    assert lidos and onde == [] and marca() is not None  # the reading thread collected nothing
    qtbot.waitUntil(lambda: bool(onde), timeout=2000)
    assert onde == [threading.main_thread().name]
