"""Full cyclic collections wait while a task or a render runs, and come back after the last one."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator

import pytest
from reportlab.platypus import Flowable

from secretaria import coleta
from secretaria.coleta import SEM_COLETA_COMPLETA, coletar_como_o_python, sem_coleta_completa
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


class _Ciclo:
    def __init__(self) -> None:
        self.eu = self  # only the cyclic collector frees it


@pytest.fixture
def coletor_desligado() -> Iterator[None]:
    """The collector off, as in the window's process; back on, with the counts of a fresh collection."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def test_coletar_como_o_python_so_coleta_quando_passou_do_limiar(coletor_desligado: None) -> None:
    gc.collect(0)
    assert coletar_como_o_python() is None  # nothing made since the collection
    lixo = weakref.ref(_Ciclo())
    assert coletar_como_o_python() is None and lixo() is not None  # below the young threshold
    guardados: list[list[int]] = [[] for _ in range(gc.get_threshold()[0] + 1)]  # noqa: F841 (alive: counted, not garbage)
    assert coletar_como_o_python() == 1  # the two young generations together
    assert lixo() is None and gc.get_count()[:2] == (0, 0)


def _jovens() -> list[list[int]]:
    """New objects, kept alive, enough to put the youngest generation past its threshold (CPython's trigger)."""
    return [[] for _ in range(gc.get_threshold()[0] + 1)]


def test_coleta_completa_so_quando_a_geracao_velha_cresceu_um_quarto(
    coletor_desligado: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(coleta, "_vivos_apos_completa", 0)  # no full collection made by it yet
    monkeypatch.setattr(coleta, "_promovidos", 0)
    velha_listada: list[int] = []
    listar = gc.get_objects

    def listar_contando(geracao: int | None = None) -> list[object]:
        if geracao == 2:
            velha_listada.append(1)
        return listar(geracao)

    monkeypatch.setattr(gc, "get_objects", listar_contando)
    limiares = gc.get_threshold()
    for _ in range(limiares[2] + 1):  # young collections enough to ask for a full one
        gc.collect(1)
    assert coletar_como_o_python() is None  # nothing until the youngest generation passes its threshold
    # An old generation of a known least size: after `gc.freeze` (the program's start, which a window test in
    # the same process may have run) it holds only what was made since, and a few ticks would grow it a quarter.
    lastro: list[list[int]] = [[] for _ in range(50_000)]
    vivos = [_jovens()]
    assert coletar_como_o_python() == 2  # the first one is always due (nothing known of the last)
    assert len(velha_listada) == 1
    for _ in range(limiares[2] + 1):
        vivos.append(_jovens())
        assert coletar_como_o_python() == 1  # the young ones, each tick's survivors promoted
    assert gc.get_count()[2] > limiares[2]
    vivos.append(_jovens())
    assert coletar_como_o_python() == 1  # asked for, but the old generation did not grow a quarter
    assert len(velha_listada) == 1  # the old generation is never listed to decide
    velhos = len(listar(2))
    crescidos: list[list[int]] = [[] for _ in range(velhos // 3)]
    assert coletar_como_o_python() == 1  # they move to the old generation: it grew by a third
    with sem_coleta_completa():
        vivos.append(_jovens())
        assert coletar_como_o_python() == 1  # held back while a task runs
    vivos.append(_jovens())
    assert coletar_como_o_python() == 2
    assert coleta._promovidos == 0 and coleta._vivos_apos_completa >= velhos + velhos // 3
    del crescidos, vivos, lastro
