"""Column widths as a clerk sees them at 1366×768: a list shown empty is fitted again when its first record
comes (the CNPJ, CPF and plate whole, "Código" narrow, the name taking the room left), and the home queues
keep the reference, dates and status whole while a long operator's name yields."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.lei.documentos import digitos_cnpj, formatar_cnpj, formatar_cpf, formatar_placa
from secretaria.services import cadastros
from secretaria.ui.lista import PaginaLista
from tests.helpers import apoio_processo as ap
from tests.helpers.fabrica import ATORES

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")

ADMIN = ATORES["administrador"]
RAZAO_LONGA = "Empresa de Transportes Coletivos Princesa do Sul e Região Metropolitana de Pelotas Ltda."
BASE_CNPJ = "ABUZO1230001"
CNPJ = BASE_CNPJ + digitos_cnpj(BASE_CNPJ)


def _janela(qtbot: QtBot, banco: Banco) -> Any:
    from secretaria.ui.janela_principal import JanelaPrincipal

    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, "administrador", "fiscal")))
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    with qtbot.waitActive(janela):
        janela.show()
    return janela


def _coluna(tabela: QTableView, titulo: str) -> int:
    modelo = tabela.model()
    return next(
        i for i in range(modelo.columnCount()) if modelo.headerData(i, Qt.Orientation.Horizontal) == titulo
    )


def _texto_inteiro(tabela: QTableView, titulo: str, texto: str) -> bool:
    """The cell's text fits its column (the delegate's margins included)."""
    coluna = _coluna(tabela, titulo)
    metricas = QFontMetrics(tabela.font())
    return tabela.columnWidth(coluna) >= metricas.horizontalAdvance(texto) + 6


def _operadora(razao: str = RAZAO_LONGA, cnpj: str = CNPJ) -> Callable[[Banco], int]:
    def criar(banco: Banco) -> int:
        return cadastros.criar_operadora(
            banco.uow(), ADMIN, cadastros.DadosOperadora(razao_social=razao, cnpj=cnpj, logradouro="Rua A")
        )

    return criar


def _soma(pagina: PaginaLista) -> int:
    return sum(pagina.tabela.columnWidth(i) for i in range(pagina.modelo.columnCount()))


def _cheia(pagina: PaginaLista) -> bool:
    """The columns fill the table's width (the name took the room left): the fit after the rows ran."""
    return _soma(pagina) >= pagina.tabela.viewport().width() - 2


def _carregada(pagina: PaginaLista) -> bool:
    """One operator listed and the columns fitted to it."""
    return pagina.modelo.total == 1 and _cheia(pagina)


def _larguras_sensatas(pagina: PaginaLista) -> None:
    tabela = pagina.tabela
    n = pagina.modelo.columnCount()
    larguras = [tabela.columnWidth(i) for i in range(n)]
    disponivel = tabela.viewport().width()
    assert sum(larguras) <= disponivel + 2  # no horizontal scrolling at 1366 px
    nomes = [i for i, c in enumerate(pagina.modelo.colunas) if c.esticar]
    for i in range(n):
        if i not in nomes:  # only a name may take the room left over
            assert larguras[i] <= min(380, disponivel // 3), (pagina.modelo.colunas[i].titulo, larguras[i])


def test_operadoras_a_primeira_e_as_colunas_se_ajustam(qtbot: QtBot, banco: Banco) -> None:
    janela = _janela(qtbot, banco)
    area = janela.mostrar_pagina("operadoras")
    pagina = area.operadoras
    assert pagina.modelo.total == 0
    # The empty table is fitted once shown: the name takes the room left, nothing else does.
    qtbot.waitUntil(lambda: _cheia(pagina))
    _larguras_sensatas(pagina)  # the empty table: nothing takes all the room
    operadora_id = _operadora()(banco)
    pagina.recarregar(selecionar=operadora_id)  # what the dialog's save does
    qtbot.waitUntil(lambda: _texto_inteiro(pagina.tabela, "CNPJ", formatar_cnpj(CNPJ)) and _cheia(pagina))
    _larguras_sensatas(pagina)
    razao = _coluna(pagina.tabela, "Razão social")
    assert pagina.tabela.columnWidth(razao) == max(pagina.tabela.columnWidth(i) for i in range(8))
    ap.salvar_png(janela, "h15-operadoras-primeira")

    # Linhas: "Código" narrow, the name wide, from the first line on.
    area.abas.setCurrentIndex(1)
    linhas = area.linhas
    qtbot.waitUntil(linhas.isVisible)
    linha_id = cadastros.criar_linha(
        banco.uow(),
        ADMIN,
        cadastros.DadosLinha(
            codigo="L10", nome="Centro – Fragata via Avenida Duque de Caxias", operadora_id=operadora_id
        ),
    )
    linhas.recarregar(selecionar=linha_id)
    codigo = _coluna(linhas.tabela, "Código")
    nome = _coluna(linhas.tabela, "Nome")
    qtbot.waitUntil(
        lambda: linhas.tabela.columnWidth(nome) > linhas.tabela.columnWidth(codigo) and _cheia(linhas)
    )
    titulo = QFontMetrics(linhas.tabela.horizontalHeader().font()).horizontalAdvance("Código")
    assert linhas.tabela.columnWidth(codigo) <= titulo + 120
    _larguras_sensatas(linhas)


@pytest.mark.parametrize(
    ("chave", "titulo"),
    [("empregados", "CPF"), ("veiculos", "Placa")],
)
def test_primeiro_empregado_ou_veiculo_com_documento_inteiro(
    qtbot: QtBot, banco: Banco, chave: str, titulo: str
) -> None:
    operadora_id = _operadora()(banco)
    janela = _janela(qtbot, banco)
    pagina = janela.mostrar_pagina(chave)
    assert isinstance(pagina, PaginaLista)
    qtbot.waitUntil(lambda: pagina.tabela.columnWidth(0) > 0)
    assert pagina.modelo.total == 0
    if chave == "empregados":
        texto = formatar_cpf("11144477735")
        novo = cadastros.criar_empregado(
            banco.uow(),
            ADMIN,
            cadastros.DadosEmpregado(
                nome="Maria da Conceição Ávila", cpf="11144477735", operadora_id=operadora_id
            ),
        )
    else:
        texto = formatar_placa("IUW4D55")
        novo = cadastros.criar_veiculo(
            banco.uow(),
            ADMIN,
            cadastros.DadosVeiculo(
                prefixo="1040",
                placa="IUW4D55",
                renavam="00639884962",
                operadora_id=operadora_id,
                marca_modelo="Mercedes-Benz O-500U",
                lugares_sentados=40,
                vistoria_validade=date(2027, 3, 1),
            ),
        )
    pagina.recarregar(selecionar=novo)
    qtbot.waitUntil(lambda: _texto_inteiro(pagina.tabela, titulo, texto) and _cheia(pagina))
    _larguras_sensatas(pagina)
    ap.salvar_png(janela, f"h15-{chave}-primeiro")


def test_filas_do_inicio_com_nome_longo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.models import Operadora
    from secretaria.ui.inicio import PaginaInicio

    with banco.uow() as uow:
        operadora = uow.session.get(Operadora, roteiro.cidade.operadora_id)
        assert operadora is not None
        operadora.razao_social = RAZAO_LONGA
        uow.commit()
    roteiro.lavrar(data_infracao=date(2026, 11, 20))
    janela = _janela(qtbot, banco)
    inicio = janela.pagina_atual()
    assert isinstance(inicio, PaginaInicio)
    inicio.recarregar()
    for i, fila in enumerate(inicio.filas):
        if not fila.linhas:
            continue
        inicio.lista_filas.setCurrentRow(i)
        tabela = inicio.tabela
        qtbot.waitUntil(tabela.isVisible)
        ap.salvar_png(janela, f"h15-inicio-{fila.chave}")
        print(
            "DEBUG",
            [tabela.columnWidth(c) for c in range(5)],
            tabela.viewport().width(),
            [str(inicio.modelo.data(inicio.modelo.index(0, c))) for c in range(5)],
        )
        modelo = inicio.modelo
        for coluna in (0, 2, 3, 4):
            if tabela.isColumnHidden(coluna):
                continue
            for linha in range(modelo.rowCount()):
                texto = str(modelo.data(modelo.index(linha, coluna)) or "")
                assert _cabe(tabela, coluna, texto), (fila.chave, coluna, texto)
            titulo = str(modelo.headerData(coluna, Qt.Orientation.Horizontal) or "")
            assert _cabe(tabela, coluna, titulo, tabela.horizontalHeader().font()), (fila.chave, titulo)
        assert sum(tabela.columnWidth(c) for c in range(5) if not tabela.isColumnHidden(c)) <= (
            tabela.viewport().width() + 2
        )
        assert tabela.columnWidth(1) >= 120, fila.chave  # the operator keeps a readable part of its name
        ap.salvar_png(janela, f"h15-inicio-{fila.chave}")


def _cabe(tabela: QTableView, coluna: int, texto: str, fonte: Any = None) -> bool:
    metricas = QFontMetrics(fonte or tabela.font())
    return tabela.columnWidth(coluna) >= metricas.horizontalAdvance(texto) + 6


def test_situacao_inteira_antes_do_nome_e_dica_com_o_texto_cortado(qtbot: QtBot, banco: Banco) -> None:
    """At 1280×720 and 1366×768 an operator whose contract is about to end reads "Ativa — contrato vence em
    12 dias" whole: the long name gives up its room first, and the name cut to "…" shows in full as the
    cell's tooltip (a cell that fits has no such tooltip)."""
    import datetime

    from secretaria import relogio
    from secretaria.models import Operadora

    operadora_id = _operadora()(banco)
    with banco.uow() as uow:
        registro = uow.session.get(Operadora, operadora_id)
        assert registro is not None
        registro.contrato_numero = "12/2019"
        registro.contrato_fim = relogio.hoje() + datetime.timedelta(days=12)
        uow.commit()
    situacao = "Ativa — contrato vence em 12 dias"
    for largura, altura in ((1280, 720), (1366, 768)):
        janela = _janela(qtbot, banco)
        janela.resize(largura, altura)
        pagina: PaginaLista = janela.mostrar_pagina("operadoras").operadoras
        qtbot.waitUntil(partial(_carregada, pagina))
        tabela = pagina.tabela
        celula = pagina.modelo.index(0, _coluna(tabela, "Situação"))
        assert pagina.modelo.data(celula) == situacao
        assert _texto_inteiro(tabela, "Situação", situacao), largura
        assert tabela.texto_cortado(celula) is None
        razao = pagina.modelo.index(0, _coluna(tabela, "Razão social"))
        assert not _texto_inteiro(tabela, "Razão social", RAZAO_LONGA)
        assert tabela.texto_cortado(razao) == RAZAO_LONGA
        assert _soma(pagina) <= tabela.viewport().width() + 2  # no horizontal scrolling
        ap.salvar_png(janela, f"situacao-inteira-{largura}")
        janela.close()
