"""The search typed in a list page is read off the GUI thread, on SQLite and PostgreSQL: the rows
on screen stay until the new ones arrive, the window's own timer keeps running meanwhile, the right rows
come, and a quick second search wins over a slow first one still being read."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import FonteLista, PaginaListaServico
from secretaria.ui.modelo_tabela import FiltroTabela, LinhaTabela, Ordem, normalizar_busca
from secretaria.ui.widgets.tarefas import aguardar_tarefas
from tests.helpers.fabrica import popular


@pytest.fixture
def pagina(qtbot: QtBot, banco: Banco) -> PaginaListaServico:
    popular(banco)
    criar_usuario(
        banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=("administrador",)
    )
    contexto = Contexto(banco, autenticar(banco.uow(), "ana", "segredo123"))
    p = PaginaListaServico(contexto, "operadoras")
    qtbot.addWidget(p)
    p.resize(1000, 600)
    p.show()
    return p


def _nomes(p: PaginaListaServico) -> list[str]:
    m = p.modelo
    return [m.data(m.index(i, 0)) for i in range(m.rowCount())]


def test_busca_digitada_e_lida_fora_da_janela(qtbot: QtBot, pagina: PaginaListaServico) -> None:
    todas = _nomes(pagina)
    assert len(todas) >= 2
    esperadas = [n for n in todas if "laranjal" in normalizar_busca(n)]
    assert esperadas and len(esperadas) < len(todas)
    qtbot.keyClicks(pagina.busca, "laranjal")
    assert pagina.busca_pendente()  # waiting for the last key: nothing read yet
    with qtbot.waitSignal(pagina.buscaMostrada, timeout=5000):
        pass
    assert not pagina.busca_pendente()
    assert _nomes(pagina) == esperadas
    assert pagina.contagem.text().startswith(f"{len(esperadas)} ")  # the count says the new total
    assert pagina.modelo.filtro.texto == "laranjal"


def test_busca_lenta_nao_prende_a_janela_e_a_segunda_vence(
    qtbot: QtBot, pagina: PaginaListaServico, monkeypatch: pytest.MonkeyPatch
) -> None:
    todas = _nomes(pagina)
    princesa = [n for n in todas if "princesa" in normalizar_busca(n)]
    assert princesa
    lenta_comecou, soltar = threading.Event(), threading.Event()
    contar_e_buscar = FonteLista.contar_e_buscar  # a new search's one read (count and first rows)

    def contar_devagar(
        fonte: FonteLista, filtro: FiltroTabela, ordem: Ordem, quantidade: int
    ) -> tuple[int, Sequence[LinhaTabela]]:
        if filtro.texto == "ltda":  # the first search: its reading takes as long as the test says
            lenta_comecou.set()
            assert soltar.wait(10)
        return contar_e_buscar(fonte, filtro, ordem, quantidade)

    monkeypatch.setattr(FonteLista, "contar_e_buscar", contar_devagar)
    tiques: list[int] = []
    relogio_da_janela = QTimer(pagina)
    relogio_da_janela.timeout.connect(lambda: tiques.append(1))
    relogio_da_janela.start(10)

    pagina.busca.setText("ltda")
    pagina.buscar_em_segundo_plano()  # what the timer calls 250 ms after the last key
    assert lenta_comecou.wait(5)
    tiques.clear()
    qtbot.waitUntil(lambda: len(tiques) >= 20, timeout=3000)  # the window runs while the search is read
    assert _nomes(pagina) == todas  # the old rows stay on screen meanwhile: no empty table flashing

    pagina.busca.setText("princesa")
    with qtbot.waitSignal(pagina.buscaMostrada, timeout=5000):
        pagina.buscar_em_segundo_plano()
    assert _nomes(pagina) == princesa
    soltar.set()  # the first search ends now: its rows must not replace the newer ones
    assert aguardar_tarefas(10_000)
    qtbot.wait(50)
    assert _nomes(pagina) == princesa and pagina.modelo.filtro.texto == "princesa"
    assert not pagina.busca_pendente()


def test_enter_na_busca_vai_a_primeira_linha_quando_chega(qtbot: QtBot, pagina: PaginaListaServico) -> None:
    from PySide6.QtCore import Qt

    pagina.busca.setText("princesa")
    qtbot.keyClick(pagina.busca, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pagina.tabela.hasFocus(), timeout=5000)
    assert pagina.modelo.filtro.texto == "princesa"
    assert "princesa" in normalizar_busca(pagina.modelo.data(pagina.tabela.currentIndex().siblingAtColumn(0)))
