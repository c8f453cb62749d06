"""Full cyclic collections wait while a task or a render runs, and come back after the last one."""

from __future__ import annotations

import gc
import threading

from reportlab.platypus import Flowable

from secretaria.coleta import SEM_COLETA_COMPLETA, sem_coleta_completa
from secretaria.reports.dados import DadosFicha
from secretaria.reports.ficha import FichaOperadoraPdf
from tests.helpers.amostras_documentos import ficha


def test_aninhadas_e_em_outra_thread_so_a_ultima_devolve_os_limiares() -> None:
    antes = gc.get_threshold()
    sem_completa = (antes[0], antes[1], SEM_COLETA_COMPLETA)
    dentro = threading.Event()
    sair = threading.Event()

    def outra_tarefa() -> None:
        with sem_coleta_completa():
            dentro.set()
            sair.wait(5)

    fio = threading.Thread(target=outra_tarefa)
    with sem_coleta_completa():
        fio.start()
        assert dentro.wait(5)
        with sem_coleta_completa():
            assert gc.get_threshold() == sem_completa
        assert gc.get_threshold() == sem_completa
    assert gc.get_threshold() == sem_completa  # the other thread's block is still running
    sair.set()
    fio.join(5)
    assert gc.get_threshold() == antes and gc.isenabled()


def test_o_documento_e_desenhado_sem_coleta_completa() -> None:
    vistos: list[tuple[int, int, int]] = []
    historia = FichaOperadoraPdf.historia

    class Espia(FichaOperadoraPdf):
        __qualname__ = FichaOperadoraPdf.__qualname__

        def historia(self, dados: DadosFicha) -> list[Flowable]:
            vistos.append(gc.get_threshold())
            return historia(self, dados)

    antes = gc.get_threshold()
    assert Espia().render(ficha(3)) == FichaOperadoraPdf().render(ficha(3))
    assert vistos == [(antes[0], antes[1], SEM_COLETA_COMPLETA)]
    assert gc.get_threshold() == antes
