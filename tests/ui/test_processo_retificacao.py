"""The case screen's "Retificar auto…" (REGRAS § 5): the dialog pre-filled with the auto, the note of what
reopens the defence, the confirmation naming the effect, the termo on the timeline and among the documents,
then the termo's intimação reopening the deadline."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.autos import DadosTestemunha
from secretaria.ui.processo import atos
from secretaria.ui.processo.campos import selecionar_dado
from secretaria.ui.processo.tela_caso import TelaCaso
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
SIM = QMessageBox.StandardButton.Yes
NAO = QMessageBox.StandardButton.No
OK = QMessageBox.StandardButton.Ok


def _preencher_timbre(banco: Banco) -> None:
    from secretaria.services import orgao

    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
    dados = replace(
        atual.dados,
        secretario_nome="Sérgio Secretário",
        endereco="Praça Coronel Pedro Osório, 101",
        horario_expediente="de segunda a sexta-feira, das 8h às 14h",
    )
    orgao.salvar_dados_orgao(banco.uow(), fabrica.ATORES["administrador"], dados, versao=atual.versao)


def _tela(qtbot: QtBot, banco: Banco, auto_id: int, *papeis: str) -> TelaCaso:
    tela = ap.manter(TelaCaso(ap.contexto(banco, *papeis), auto_id))
    qtbot.addWidget(tela)
    tela.show()
    return tela


def _registrar(qtbot: QtBot, dialogo: Any) -> None:
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


def _titulos(tela: TelaCaso) -> list[str]:
    return [tela.modelo.index(i, 1).data() for i in range(tela.modelo.rowCount())]


def test_retificar_auto_pela_tela_do_caso(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    _preencher_timbre(banco)
    r = roteiro.lavrar(
        dispositivo="1-VI", data_infracao=date(2026, 11, 2), testemunhas=(DadosTestemunha("Jose da Silav"),)
    )
    roteiro.intimar(r.id, date(2026, 11, 3))  # defence until 18/11/2026
    tela = _tela(qtbot, banco, r.id, "fiscal", "protocolo")
    botao = tela.botoes_atos["retificar_auto"]
    letras = [re.search(r"&(\w)", b.text()) for b in tela.findChildren(QPushButton) if "&" in b.text()]
    assert "&" in botao.text()
    letra = re.search(r"&(\w)", botao.text()).group(1).lower()  # type: ignore[union-attr]
    assert [m.group(1).lower() for m in letras if m].count(letra) == 1
    assert letra not in "lasdn"  # the tabs' letters

    qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoRetificacao)
    # Pre-filled with the auto as it reads; nothing changed yet.
    assert dialogo.dispositivo.currentData() == "1-VI"
    assert dialogo.local.text() == "Praça Coronel Pedro Osório"
    assert dialogo.testemunhas.valores() == [("Jose da Silav", "", "")]
    assert "Nenhum item alterado" in dialogo.natureza.text()
    ap.salvar_png(dialogo, "retificacao_dialogo_vazio")

    # Refusals beside the field, nothing written.
    antes = fabrica.contagens(banco)
    _registrar(qtbot, dialogo)
    assert "não há o que retificar" in dialogo.form.mensagem("dispositivo_codigo")
    selecionar_dado(dialogo.dispositivo, "1-V")  # tipo A → tipo B: substance
    assert "Retificação de substância" in dialogo.natureza.text()
    _registrar(qtbot, dialogo)
    assert "Informe o motivo" in dialogo.form.mensagem("motivo")
    dialogo.motivo.setPlainText("O fato corresponde ao art. 1º, V, citado por engano como VI.")
    dialogo.data_infracao.editor.setText("03112026")  # after the auto was drawn up (02/11)
    _registrar(qtbot, dialogo)
    assert ap.dialogo_aberto(QMessageBox) is None  # refused before "Lavrar o termo…?", never after it
    assert "posterior à da lavratura" in dialogo.form.mensagem("data_infracao")
    assert fabrica.contagens(banco) == antes
    dialogo.data_infracao.editor.setText("02112026")

    # The confirmation names the effect; "Voltar" writes nothing.
    _registrar(qtbot, dialogo)
    pergunta = ap.responder_caixa(qtbot, NAO)
    assert "retificação de substância (dispositivo infringido)" in pergunta
    # Today is 30/11/2026: the deadline of 18/11 has passed and is said so, never "que vence em".
    assert "O prazo de defesa, que venceu em 18/11/2026, fica sem efeito" in pergunta
    assert "vence em 18/11/2026" not in pergunta
    assert "15 dias para a defesa" in pergunta
    assert fabrica.contagens(banco) == antes
    ap.salvar_png(dialogo, "retificacao_dialogo_substancia")
    _registrar(qtbot, dialogo)
    ap.responder_caixa(qtbot, SIM)
    final = ap.responder_caixa(qtbot, OK)
    assert "Termo de retificação nº 0001/2026 lavrado" in final and "aba Documentos" in final

    # The screen: the termo on the timeline, the case awaiting its intimação, the termo's PDF listed.
    assert "Aguardando intimação do termo" in tela.fase.text()
    assert "Termo de retificação nº 0001/2026 (de substância)" in _titulos(tela)
    assert "Art. 1º, V" in tela.resumo.text()
    assert "registrar_intimacao_auto" not in tela.botoes_atos
    documentos = [tela.lista_documentos.item(i).text() for i in range(tela.lista_documentos.count())]
    # The termo and what is delivered after a correction of substance: its intimação, with the corrected copy.
    assert any(d.startswith("Termo de retificação nº 0001/2026 — emitido em") for d in documentos)
    assert any(
        d.startswith("Intimação do termo de retificação nº 0001/2026 — emitido em") for d in documentos
    )
    assert not tela.botoes_documentos.botoes["intimacao_termo"].isHidden()
    qtbot.wait(50)  # the act buttons and deadlines laid out again
    ap.salvar_png(tela, "retificacao_tela_caso")

    # The termo's intimação: the reopened deadline previewed, then shown.
    qtbot.mouseClick(tela.botoes_atos["registrar_intimacao_retificacao"], Qt.MouseButton.LeftButton)
    intimacao = ap.esperar_dialogo(qtbot, atos.DialogoIntimacao)
    assert "termo de retificação nº 0001/2026" in intimacao.windowTitle()
    intimacao.data.editor.setText("30112026")
    assert "Prazo de defesa reaberto (art. 14): vencerá em 15/12/2026" in intimacao.previsao.text()
    ap.salvar_png(intimacao, "retificacao_intimacao")
    _registrar(qtbot, intimacao)
    assert ap.responder_caixa(qtbot, SIM).startswith(
        "Registrar a intimação do termo de retificação nº 0001/2026 entregue em 30/11/2026"
    )
    assert "15/12/2026" in ap.responder_caixa(qtbot, OK)
    assert "vence em 15/12/2026" in tela.texto_prazos()
    assert "Intimação do termo de retificação nº 0001/2026" in _titulos(tela)


def test_retificacao_formal_pela_tela_nao_reabre_o_prazo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 2))
    roteiro.intimar(r.id, date(2026, 11, 3))
    tela = _tela(qtbot, banco, r.id, "fiscal")
    qtbot.mouseClick(tela.botoes_atos["retificar_auto"], Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoRetificacao)
    dialogo.infrator_nome.setText("Viação Princesa do Sul Ltda")
    assert "Retificação formal (nome do infrator)" in dialogo.natureza.text()
    dialogo.motivo.setPlainText("Ponto final a mais no nome.")
    _registrar(qtbot, dialogo)
    assert "o prazo de defesa não é reaberto" in ap.responder_caixa(qtbot, SIM)
    final = ap.responder_caixa(qtbot, OK)
    # The letterhead lacks office hours, but a formal termo does not state them: its PDF is issued too.
    assert "Termo de retificação nº 0001/2026 lavrado" in final and "aba Documentos" in final
    assert "18/11/2026" in tela.texto_prazos()
    assert "Termo de retificação nº 0001/2026 (formal)" in _titulos(tela)
    assert "registrar_intimacao_retificacao" not in tela.botoes_atos  # a protocolo act


def test_prazo_que_fica_sem_efeito_no_tempo_certo() -> None:
    """The confirmation never says a deadline "vence em" a day already gone."""
    prazo = date(2026, 11, 30)
    assert atos.prazo_que_fica_sem_efeito(prazo, date(2026, 12, 1)) == (
        "O prazo de defesa, que venceu em 30/11/2026, fica sem efeito; "
    )
    assert "vence hoje (30/11/2026)" in atos.prazo_que_fica_sem_efeito(prazo, prazo)
    assert "que vence em 30/11/2026 fica" in atos.prazo_que_fica_sem_efeito(prazo, date(2026, 11, 20))
    assert atos.prazo_que_fica_sem_efeito(None, prazo) == ""
