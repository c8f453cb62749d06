"""Revision of a decided sanction (Lei 9.784/1999, art. 65; REGRAS § 5) in the windows: the home screen's
review list, the case screen's "Revisar sanção (art. 65)", the termo de revisão among the documents."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.ui.inicio import PaginaInicio
from secretaria.ui.processo import atos
from secretaria.ui.processo.tela_caso import TelaCaso
from tests.helpers import apoio_processo as ap
from tests.helpers.cenario_documentos import preencher_orgao

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
SIM = QMessageBox.StandardButton.Yes
OK = QMessageBox.StandardButton.Ok


def _caso_a_revisar(roteiro: Any) -> tuple[int, int]:
    """A prior (1-V, tipo B) final on 13/10; a later case decided at the 1st recidivism (1,00 to 2,00 URM);
    then the prior's appeal, filed on time but typed in later, is granted: the later case is to review."""
    roteiro.hoje = date(2026, 11, 30)
    anterior = int(roteiro.decidido(data_infracao=date(2026, 9, 3), multa="0.50", dispositivo="1-V").id)
    caso = int(roteiro.decidido(data_infracao=date(2026, 10, 20), multa="2.00", dispositivo="1-V").id)
    roteiro.recorrer(anterior, date(2026, 10, 1))
    roteiro.julgar(anterior, date(2026, 11, 30), "provido")
    return anterior, caso


def test_lista_de_revisao_e_termo_de_revisao_pela_tela(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    preencher_orgao(banco)
    _anterior, caso = _caso_a_revisar(roteiro)
    contexto = ap.contexto(banco, "secretario")
    pagina = ap.manter(PaginaInicio(contexto))
    qtbot.addWidget(pagina)
    pagina.resize(1366, 768)
    pagina.show()
    fila = pagina.fila("revisoes_de_sancao")
    assert fila.total == 1 and fila.linhas[0].id == caso
    assert fila.linhas[0].detalhe == "Nível 0 (era 1): 0,50 a 1,00 URM; aplicada 2,00 URM"
    pagina.selecionar_fila("revisoes_de_sancao")
    ap.salvar_png(pagina, "revisao_sancao_inicio")

    pagina.tabela.setFocus()
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_Return)
    tela = ap.esperar_dialogo(qtbot, TelaCaso)
    assert "Sanção a revisar (art. 65)" in [
        tela.modelo.index(i, 1).data() for i in range(tela.modelo.rowCount())
    ]
    qtbot.mouseClick(tela.botoes_atos["revisar_sancao"], Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoRevisaoSancao)
    dialogo.resize(1000, 640)
    ap.salvar_png(dialogo, "revisao_sancao_dialogo")
    # Never raising: a fine above the one in force is refused beside the field, before any confirmation.
    dialogo.penalidade.multa.setText("3,00")
    dialogo.fundamentacao.setPlainText("O antecedente foi anulado em recurso.")
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert ap.dialogo_aberto(QMessageBox) is None
    assert "nunca agrava" in dialogo.form.mensagem("multa_ur")
    dialogo.penalidade.multa.setText("0,80")
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert "Lavrar o termo de revisão" in ap.responder_caixa(qtbot, SIM)
    final = ap.responder_caixa(qtbot, OK)
    assert "Termo de revisão nº 0001/2026 lavrado" in final and "aba Documentos" in final
    documentos = [tela.lista_documentos.item(i).text() for i in range(tela.lista_documentos.count())]
    assert any(d.startswith("Termo de revisão nº 0001/2026 — emitido em") for d in documentos)
    assert "revisar_sancao" not in tela.botoes_atos
    tela.resize(1366, 768)
    tela.abas.setCurrentIndex(3)  # Documentos: the termo de revisão listed
    ap.salvar_png(tela, "revisao_sancao_documentos")
    assert pagina.fila("revisoes_de_sancao").total == 0


def test_intimacao_do_julgamento_pela_tela(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """REGRAS § 5: the judgment's notice is notified like the decision; its delivery starts no deadline."""
    preencher_orgao(banco)
    anterior, _caso = _caso_a_revisar(roteiro)
    tela = ap.manter(TelaCaso(ap.contexto(banco, "protocolo"), anterior))
    qtbot.addWidget(tela)
    tela.show()
    qtbot.mouseClick(tela.botoes_atos["registrar_intimacao_julgamento"], Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoIntimacao)
    assert "Registrar intimação do julgamento do recurso" in dialogo.windowTitle()
    assert "última instância" in dialogo.previsao.text()
    ap.salvar_png(dialogo, "intimacao_julgamento")
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert "última instância" in ap.responder_caixa(qtbot, OK)
    assert "registrar_intimacao_julgamento" not in tela.botoes_atos
    titulos = [tela.modelo.index(i, 1).data() for i in range(tela.modelo.rowCount())]
    assert any(t.startswith("Intimação do julgamento do recurso") for t in titulos)


def test_intimacao_do_termo_de_revisao_pela_tela(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """REGRAS § 5: the termo de revisão is notified like a decision: the case offers its delivery while the
    latest termo awaits one, the dialog names the termo and says no deadline starts."""
    from secretaria.services import revisao_sancao
    from secretaria.services.documentos import emitir_documento
    from tests.helpers.fabrica import ATORES

    preencher_orgao(banco)
    _anterior, caso = _caso_a_revisar(roteiro)
    with banco.leitura() as s:
        revisao_id = revisao_sancao.revisoes_pendentes_do_auto(s, caso)[0].id
    resumo = revisao_sancao.revisar_sancao(
        banco.uow(),
        ATORES["secretario"],
        revisao_sancao.PedidoRevisao(
            revisao_id=revisao_id, multa_ur="0.80", fundamentacao="O antecedente foi anulado em recurso."
        ),
    )
    emitir_documento(banco.uow(), ATORES["protocolo"], tipo="revisao", revisao_id=resumo.id)
    numero = resumo.numero_formatado
    tela = ap.manter(TelaCaso(ap.contexto(banco, "protocolo"), caso))
    qtbot.addWidget(tela)
    tela.show()
    assert "aguardando intimação" in tela.detalhes.toPlainText()
    qtbot.mouseClick(tela.botoes_atos["registrar_intimacao_revisao"], Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoIntimacao)
    assert f"Registrar intimação do termo de revisão nº {numero}" in dialogo.windowTitle()
    assert "não inicia prazo" in dialogo.previsao.text()
    ap.salvar_png(dialogo, "intimacao_revisao")
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert "nenhum prazo começa a correr" in ap.responder_caixa(qtbot, OK)
    assert "registrar_intimacao_revisao" not in tela.botoes_atos
    titulos = [tela.modelo.index(i, 1).data() for i in range(tela.modelo.rowCount())]
    assert f"Intimação do termo de revisão nº {numero}" in titulos
    tela.resize(1366, 768)
    ap.salvar_png(tela, "intimacao_revisao_caso")
    assert f"Termo de revisão nº {numero}\n30/11/2026; entregue em 30/11/2026." in tela.detalhes.toPlainText()
