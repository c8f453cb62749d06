"""PRODUTO path 7: the home screen's work queues, with counts; each row opens its case."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from secretaria import relogio
from secretaria.db import Banco
from secretaria.services.filas import LinhaFila
from secretaria.ui.inicio import CORES_FILA, PaginaInicio, colunas_da_fila, linhas_da_fila
from secretaria.ui.modelo_tabela import FonteEmMemoria, ModeloTabela
from secretaria.ui.processo import atos
from secretaria.ui.processo.form_representacao import TelaRepresentacao
from secretaria.ui.processo.tela_caso import TelaCaso
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")


def test_modelo_da_fila(qtmodeltester: Any) -> None:
    linhas = linhas_da_fila(
        [
            LinhaFila(
                "auto", 1, "AI nº 0001/2026", 1, "Viação", date(2026, 11, 1), date(2026, 11, 16), "Defesa"
            ),
            LinhaFila("veiculo", 2, "101 — placa IAB1C23", 1, "Viação", None, None, "Vistoria vencida"),
        ],
        date(2026, 11, 30),
    )
    modelo = ModeloTabela(FonteEmMemoria(colunas_da_fila(), linhas), cores=CORES_FILA, alinhar_titulos=False)
    qtmodeltester.check(modelo)
    assert modelo.data(modelo.index(0, 3)) == "16/11/2026"
    assert modelo.data(modelo.index(0, 3), Qt.ItemDataRole.ForegroundRole) is not None  # overdue: red


def test_filas_com_contagens_e_a_linha_abre_o_caso(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    a = roteiro.lavrar(data_infracao=date(2026, 11, 27))
    b = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    roteiro.intimar(b.id, date(2026, 11, 20))  # defence due 07/12: within the next 7 days
    pagina = ap.manter(PaginaInicio(ap.contexto(banco, "protocolo")))
    qtbot.addWidget(pagina)
    pagina.show()
    ap.salvar_png(pagina, "inicio")

    textos = [pagina.lista_filas.item(i).text() for i in range(pagina.lista_filas.count())]
    assert "Autos aguardando intimação\n1 item" in textos
    assert "Prazos de defesa que vencem nos próximos 7 dias\n1 item" in textos
    assert "Operadoras suspensas hoje\nnenhum item" in textos
    assert pagina.subtitulo.text() == "O que precisa ser feito hoje, 30/11/2026"

    # The first queue with work is shown; Enter on its row opens the case.
    assert pagina.titulo_fila.text() == "Autos aguardando intimação — 1 item"
    assert pagina.modelo.data(pagina.modelo.index(0, 0)) == f"AI nº {a.numero_formatado}"
    pagina.tabela.setFocus()
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_Return)
    tela = ap.esperar_dialogo(qtbot, TelaCaso)
    assert tela.titulo.text() == f"Auto de infração nº {a.numero_formatado}"

    # An act done in that case refreshes the queues: the auto leaves "aguardando intimação".
    qtbot.mouseClick(tela.botoes_atos["registrar_intimacao_auto"], Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoIntimacao)
    dialogo.data.editor.setText("30112026")
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)  # the delivered notice starts the deadline
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Ok)
    assert pagina.fila("aguardando_intimacao").total == 0
    assert pagina.fila("defesas_a_vencer").total == 1  # 30/11 + 15 = 15/12: not yet within 7 days


def test_atrasos_em_vermelho_e_representacao_abre_sua_tela(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.services.representacoes import receber_representacao

    r = roteiro.lavrar(data_infracao=date(2026, 9, 1))
    roteiro.intimar(r.id, date(2026, 9, 2))  # defence ended 17/09: decision overdue (> 30 days)
    receber_representacao(
        banco.uow(),
        fabrica.ATORES["fiscal"],
        recebida_em=relogio.hoje(),
        peticionario_nome="Maria Passageira",
        peticionario_profissao="professora",
        peticionario_endereco="Rua A, 1",
        fatos="Ônibus não parou no ponto.",
        meios_prova="Foto.",
    )
    pagina = ap.manter(PaginaInicio(ap.contexto(banco, "fiscal")))
    qtbot.addWidget(pagina)
    pagina.show()
    linha = next(
        i
        for i in range(pagina.lista_filas.count())
        if "Decisões atrasadas" in pagina.lista_filas.item(i).text()
    )
    assert pagina.lista_filas.item(linha).foreground().color().name() == "#b00020"

    pagina.selecionar_fila("representacoes_pendentes")
    assert pagina.modelo.data(pagina.modelo.index(0, 0)) == "REP nº 0001/2026"
    pagina.abrir_selecionado()
    tela = ap.esperar_dialogo(qtbot, TelaRepresentacao)
    assert "Ônibus não parou no ponto." in tela.corpo.text()
    assert tela.botao_lavrar.isEnabled()


def test_virada_do_ano_lembra_o_administrador_dos_pontos_facultativos(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    """REGRAS § 4: from 1 December, with nothing registered for the coming year, the administrator is told to
    register its decreed days (the municipal holidays need no registering); other users are not."""
    from secretaria.services import calendario

    roteiro.hoje = date(2026, 11, 30)
    pagina = ap.manter(PaginaInicio(ap.contexto(banco, "administrador")))
    qtbot.addWidget(pagina)
    pagina.show()
    assert pagina.lembrete.isHidden()
    roteiro.hoje = date(2026, 12, 1)
    pagina.recarregar()
    assert not pagina.lembrete.isHidden()
    assert "Nenhum dia sem expediente de 2027 está cadastrado" in pagina.lembrete.text()
    ap.salvar_png(pagina, "inicio_lembrete")
    outro = ap.manter(PaginaInicio(ap.contexto(banco, "protocolo")))
    qtbot.addWidget(outro)
    assert outro.lembrete.isHidden()
    calendario.adicionar_dia_nao_util(
        banco.uow(), ap.contexto(banco, "administrador").ator, data=date(2027, 2, 8),
        descricao="Ponto facultativo — Carnaval",
    )  # fmt: skip
    pagina.recarregar()
    assert pagina.lembrete.isHidden()
