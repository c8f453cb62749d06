"""A list page searched with text no record holds (5,000 letters, a NUL, many words, wildcards) shows its
empty-table message, on SQLite and PostgreSQL, and stays usable."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from tests.services.fabrica import popular


@pytest.fixture
def contexto(banco: Banco) -> Contexto:
    popular(banco)
    criar_usuario(
        banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=("administrador",)
    )
    return Contexto(banco, autenticar(banco.uow(), "ana", "segredo123"))


@pytest.mark.parametrize("nome", ["operadoras", "veiculos", "auditoria"])
def test_busca_absurda_mostra_a_lista_vazia(qtbot: QtBot, contexto: Contexto, nome: str) -> None:
    pagina = PaginaListaServico(contexto, nome)
    qtbot.addWidget(pagina)
    pagina.show()
    total = pagina.modelo.total
    assert total > 0
    for texto in ("ã" * 5_000, "zzz\x00", " ".join(f"p{i}" for i in range(3_000)), "%_[*?]\\"):
        pagina.busca.setText(texto)
        pagina.aplicar_filtro()
        assert pagina.modelo.total == 0 and pagina.modelo.rowCount() == 0, texto[:10]
        assert pagina.contagem.text().startswith("nenhum")
        assert pagina.tabela.aviso_vazio.endswith("encontrado com esta busca e estes filtros.")
        pagina.tabela.viewport().grab()  # paints the empty table without raising
    pagina.busca.clear()
    pagina.aplicar_filtro()
    assert pagina.modelo.total == total
