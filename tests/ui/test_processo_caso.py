"""PRODUTO paths 4, 5, 6 and 8 through the case screen: intimação → deadline shown; defesa, proposta, decisão;
recurso → penalty annulled (and the next case's recidivism drops); payment and the art. 8º follow-up.

Each test clicks the case screen's buttons, fills the act's dialog as a user would, answers the
confirmation, and then reads what the screen shows.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.caso import obter_caso
from secretaria.ui.modelo_tabela import FonteEmMemoria, ModeloTabela
from secretaria.ui.processo import atos
from secretaria.ui.processo.campos import selecionar_dado, texto_simples
from secretaria.ui.processo.form_auto import DialogoAuto
from secretaria.ui.processo.tela_caso import (
    COLUNAS_LINHA_DO_TEMPO,
    CORES_LINHA_DO_TEMPO,
    TelaCaso,
    linhas_da_linha_do_tempo,
)
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
SIM = QMessageBox.StandardButton.Yes
OK = QMessageBox.StandardButton.Ok


def _tela(qtbot: QtBot, banco: Banco, auto_id: int, *papeis: str) -> TelaCaso:
    tela = ap.manter(TelaCaso(ap.contexto(banco, *papeis), auto_id))
    qtbot.addWidget(tela)
    tela.show()
    return tela


def _clicar_ato(qtbot: QtBot, tela: TelaCaso, ato: str, tipo: type) -> Any:
    assert ato in tela.botoes_atos, f"botão de {ato} ausente: {list(tela.botoes_atos)}"
    qtbot.mouseClick(tela.botoes_atos[ato], Qt.MouseButton.LeftButton)
    return ap.esperar_dialogo(qtbot, tipo)


def _registrar(qtbot: QtBot, dialogo: Any) -> None:
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


def test_modelo_da_linha_do_tempo(qtmodeltester: Any, banco: Banco, roteiro: Any) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    modelo = ModeloTabela(
        FonteEmMemoria(COLUNAS_LINHA_DO_TEMPO, linhas_da_linha_do_tempo(caso.linha_do_tempo)),
        cores=CORES_LINHA_DO_TEMPO,
        alinhar_titulos=False,
    )
    qtmodeltester.check(modelo)
    assert modelo.rowCount() == len(caso.linha_do_tempo) >= 4
    assert modelo.data(modelo.index(0, 0)) == "01/06/2026"


def test_caminho_4_intimacao_mostra_o_prazo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    tela = _tela(qtbot, banco, r.id, "protocolo")
    assert tela.texto_prazos() == (
        "Intimação do auto (art. 11): pendente — o prazo de defesa começa com a primeira intimação entregue."
    )

    # A failed attempt first: recorded, no deadline starts.
    dialogo = _clicar_ato(qtbot, tela, "registrar_intimacao_auto", atos.DialogoIntimacao)
    dialogo.data.editor.setText("19112026")  # before the auto was drawn up
    dialogo.resultado.setCurrentIndex(dialogo.resultado.findData("recusada"))
    assert "nenhum prazo começa" in dialogo.previsao.text()
    _registrar(qtbot, dialogo)
    assert "não pode ser anterior" in dialogo.form.mensagem("data")
    assert "lavratura do auto (20/11/2026)" in dialogo.form.mensagem("data")
    dialogo.data.editor.setText("20112026")
    _registrar(qtbot, dialogo)
    assert "sem êxito" in ap.responder_caixa(qtbot, OK)

    # The successful one: the deadline is shown in the dialog before saving, and on the screen after.
    dialogo = _clicar_ato(qtbot, tela, "registrar_intimacao_auto", atos.DialogoIntimacao)
    dialogo.data.editor.setText("20112026")  # Friday; 15 days end on Saturday 05/12 → Monday 07/12
    assert "vencerá em 07/12/2026" in dialogo.previsao.text()
    _registrar(qtbot, dialogo)
    pergunta = ap.responder_caixa(qtbot, QMessageBox.StandardButton.No)  # asked first: the date is final
    assert pergunta.startswith("Registrar a intimação do auto entregue em 20/11/2026 a Carlos Representante?")
    assert "Prazo de defesa (art. 14) vencerá em 07/12/2026" in pergunta
    assert dialogo.isVisible() and fabrica.contagens(banco)["intimacao"] == 1  # "Voltar": nothing written
    _registrar(qtbot, dialogo)
    ap.responder_caixa(qtbot, SIM)
    assert "07/12/2026" in ap.responder_caixa(qtbot, OK)
    assert "Defesa (art. 14): em curso — vence em 07/12/2026 (faltam 7 dias)" in tela.texto_prazos()
    assert tela.fase.text().count("Intimado") == 1
    titulos = [tela.modelo.index(i, 1).data() for i in range(tela.modelo.rowCount())]
    assert "Intimação do auto (sem êxito)" in titulos and "Intimação do auto" in titulos


def test_decisao_atrasada_em_vermelho_e_por_escrito(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 10, 1))
    roteiro.intimar(r.id, date(2026, 10, 2))
    tela = _tela(qtbot, banco, r.id, "consulta")
    # The operator not defending itself is not the office's fault: calm grey. The office's decision, 42 days
    # after the deadline (more than the 30 days of the setting), is late: red, bold, in words.
    assert tela.texto_prazos().splitlines() == [
        "Defesa (art. 14): prazo encerrado em 19/10/2026 sem defesa",
        "Decisão (art. 13): ATRASADA — o prazo de defesa terminou em 19/10/2026, há 42 dias (atrasada depois "
        "de 30 dias).",
    ]
    defesa = tela.caixa_prazos.findChild(type(tela.fase), "prazo_encerrado")
    assert defesa is not None and "#4b5563" in defesa.styleSheet()
    atrasada = tela.caixa_prazos.findChild(type(tela.fase), "prazo_atrasado")
    assert atrasada is not None and "#b00020" in atrasada.styleSheet() and "bold" in atrasada.styleSheet()
    assert tela.botoes_atos == {}  # consulta: read only
    assert tela.rotulo_aguardando is not None
    assert "Decidir — papel Secretário" in tela.rotulo_aguardando.text()


def test_cor_e_texto_de_cada_estado_de_prazo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """Red only where the office is late; the operator's deadlines blue while running, green when met or
    when the unused appeal deadline made the decision final, grey when closed without the petition."""
    from secretaria.ui.processo.tela_caso import linhas_prazos

    def linhas(auto_id: int) -> list[tuple[str, str, str]]:
        with banco.leitura() as s:
            caso = obter_caso(s, auto_id, roteiro.hoje)
        return [(x.estado, x.cor, x.texto) for x in linhas_prazos(caso, roteiro.hoje, 30)]

    # Defence running (blue), then the decision pending but not late (amber).
    r = roteiro.lavrar(data_infracao=date(2026, 11, 10))
    roteiro.intimar(r.id, date(2026, 11, 20))
    assert linhas(r.id) == [
        ("aberto", "#1d4ed8", "Defesa (art. 14): em curso — vence em 07/12/2026 (faltam 7 dias)")
    ]
    roteiro.hoje = date(2026, 12, 7)
    assert linhas(r.id)[0][2] == "Defesa (art. 14): em curso — vence HOJE, 07/12/2026"
    roteiro.hoje = date(2026, 12, 10)
    assert linhas(r.id) == [
        ("encerrado", "#4b5563", "Defesa (art. 14): prazo encerrado em 07/12/2026 sem defesa"),
        (
            "pendente",
            "#9a3412",
            "Decisão (art. 13): aguardando proposta e decisão — atrasada a partir de 07/01/2027.",
        ),
    ]

    # Decided, its intimação pending (amber); then the appeal deadline running (blue), then passed unused:
    # green, calm, "decisão definitiva".
    roteiro.hoje = date(2026, 11, 30)
    d = roteiro.decidido(data_infracao=date(2026, 3, 2), multa="2.00", dispositivo="1-XVI", notificar=False)
    assert linhas(d.id)[-1] == (
        "pendente",
        "#9a3412",
        "Intimação da decisão (art. 15): pendente — o prazo de recurso só começa com ela.",
    )
    roteiro.intimar(d.id, date(2026, 4, 13), objeto="decisao")
    roteiro.hoje = date(2026, 4, 20)
    assert linhas(d.id)[-1][:2] == ("aberto", "#1d4ed8")
    roteiro.hoje = date(2026, 11, 30)
    assert linhas(d.id)[-1] == (
        "encerrado",
        "#166534",
        "Recurso ao Prefeito (art. 15): prazo encerrado em 28/04/2026 sem recurso — decisão definitiva",
    )
    assert all(cor != "#b00020" for _e, cor, _t in linhas(d.id))

    # An appeal filed on time: waiting for the Prefeito (the office's turn, amber); judged: green.
    a = roteiro.decidido(data_infracao=date(2026, 5, 4), multa="0.30", dispositivo="1-VI", notificar=False)
    roteiro.intimar(a.id, date(2026, 6, 1), objeto="decisao")
    roteiro.recorrer(a.id, date(2026, 6, 5))
    estado, cor, texto = linhas(a.id)[-1]
    assert (estado, cor) == ("pendente", "#9a3412")
    assert texto.endswith("recurso protocolado em 05/06/2026 — no prazo; aguardando o julgamento do Prefeito")
    roteiro.julgar(a.id, date(2026, 7, 1), "negado")
    estado, cor, texto = linhas(a.id)[-1]
    assert (estado, cor) == ("cumprido", "#166534")
    assert texto.endswith("recurso protocolado em 05/06/2026 — no prazo; julgado em 01/07/2026: negado")


def test_caminho_5_defesa_proposta_decisao(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    roteiro.intimar(r.id, date(2026, 11, 20))
    tela = _tela(qtbot, banco, r.id, "protocolo", "autoridade", "secretario")

    dialogo = _clicar_ato(qtbot, tela, "registrar_defesa", atos.DialogoDefesa)
    dialogo.protocolada_em.editor.setText("25112026")
    assert "Tempestiva" in dialogo.situacao.text()
    qtbot.keyClicks(dialogo.requerente, "Advogado da empresa")
    _registrar(qtbot, dialogo)
    assert "Defesa registrada: tempestiva" in ap.responder_caixa(qtbot, OK)

    dialogo = _clicar_ato(qtbot, tela, "registrar_proposta", atos.DialogoProposta)
    assert "0,10 a 0,50 URM" in dialogo.penalidade.faixa.text()
    dialogo.penalidade.multa.setText("0,40")
    qtbot.keyClicks(dialogo.fundamentacao, "Infracao comprovada.")
    _registrar(qtbot, dialogo)
    assert "Proposta de penalidade registrada" in ap.responder_caixa(qtbot, OK)

    dialogo = _clicar_ato(qtbot, tela, "decidir", atos.DialogoDecisao)
    assert dialogo.penalidade.multa.text() == "0,40"  # pre-filled from the proposal
    assert not dialogo.penalidade.suspensao.isEnabled()  # no suspension at level 0 (§ 5º)
    assert texto_simples(dialogo.penalidade.faixa_suspensao) == (
        "Não cabível: no tipo A a suspensão só cabe a partir da 6ª reincidência (art. 7º, § 5º); este caso está "
        "no nível 0 (infração primária)."
    )
    dialogo.penalidade.multa.setText("0,60")
    assert "fora da faixa" in dialogo.penalidade.reais.text()
    qtbot.keyClicks(dialogo.fundamentacao, "Infracao comprovada; defesa nao afasta o fato.")
    _registrar(qtbot, dialogo)
    assert ap.dialogo_aberto(QMessageBox) is None  # refused before "Confirmar?", never after it
    assert "fora da faixa cabível" in dialogo.form.mensagem("multa_ur")  # refused beside the field
    assert fabrica.contagens(banco)["decisao"] == 0
    dialogo.penalidade.multa.setText("0,50")
    assert "0,50 URM × R$ 164,74 (URM de 30/11/2026) = R$ 82,37" in texto_simples(
        dialogo.penalidade.reais
    )  # 0,50 × R$ 164,74, computed live
    _registrar(qtbot, dialogo)
    pergunta = ap.responder_caixa(qtbot, SIM)
    assert "multa de 0,50 URM = R$ 82,37" in pergunta
    assert "R$ 82,37" in ap.responder_caixa(qtbot, OK)
    assert "multa de 0,50 URM = R$ 82,37" in texto_simples(tela.penalidade)
    assert "registrar_intimacao_decisao" in tela.botoes_atos


def test_caminho_6_recurso_provido_anula_e_reincidencia_cai(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    anterior = roteiro.decidido(
        data_infracao=date(2026, 2, 10), multa="0.30", dias_ate_decisao=18, notificar=False
    )
    tela = _tela(qtbot, banco, anterior.id, "protocolo")

    dialogo = _clicar_ato(qtbot, tela, "registrar_intimacao_decisao", atos.DialogoIntimacao)
    dialogo.data.editor.setText("05032026")
    assert "Prazo de recurso ao Prefeito (art. 15): vencerá em" in dialogo.previsao.text()
    _registrar(qtbot, dialogo)
    assert "Registrar a intimação da decisão entregue em 05/03/2026" in ap.responder_caixa(qtbot, SIM)
    ap.responder_caixa(qtbot, OK)
    assert "Recurso ao Prefeito (art. 15)" in tela.texto_prazos()

    dialogo = _clicar_ato(qtbot, tela, "registrar_recurso", atos.DialogoRecurso)
    dialogo.protocolado_em.editor.setText("10032026")
    assert "Tempestivo" in dialogo.situacao.text()
    _registrar(qtbot, dialogo)
    assert "protocolado em 10/03/2026 (tempestivo)?" in ap.responder_caixa(qtbot, SIM)
    assert "tempestivo" in ap.responder_caixa(qtbot, OK)

    dialogo = _clicar_ato(qtbot, tela, "julgar_recurso", atos.DialogoJulgamento)
    dialogo.data.editor.setText("20042026")
    dialogo.resultado.setCurrentIndex(dialogo.resultado.findData("provido"))
    assert "ANULADA" in dialogo.efeito.text()
    _registrar(qtbot, dialogo)
    assert "ANULADA" in ap.responder_caixa(qtbot, SIM)
    assert "Recurso provido" in ap.responder_caixa(qtbot, OK)
    assert "Penalidade anulada" in tela.penalidade.text()

    # The annulled auto no longer counts: a fact within the month is a first infraction again.
    form = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal")))
    qtbot.addWidget(form)
    selecionar_dado(form.operadora, roteiro.cidade.operadora_id)
    selecionar_dado(form.dispositivo, "1-VI")
    form.data_infracao.editor.setText("10032026")
    qtbot.waitUntil(lambda: "nível 0" in form.painel.texto())
    assert f"AI nº {anterior.numero_formatado}" in form.painel.texto()
    assert "Não conta — penalidade anulada" in form.painel.texto()


def test_caminho_8_pagamento_e_cumprimento(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    roteiro.intimar(r.id, date(2026, 7, 1), objeto="decisao")
    tela = _tela(qtbot, banco, r.id, "protocolo")
    assert "Multa: Em aberto" in texto_simples(tela.penalidade)
    assert "Decisão definitiva desde" in tela.fase.text()

    dialogo = _clicar_ato(qtbot, tela, "registrar_pagamento", atos.DialogoPagamento)
    assert dialogo.valor_pago.text() == "49,42"  # 0,30 URM at the decision day's URM, pre-filled
    dialogo.data.editor.setText("20112026")
    qtbot.keyClicks(dialogo.guia, "GUIA-123")
    _registrar(qtbot, dialogo)
    assert "não pode ser alterado" in ap.responder_caixa(qtbot, SIM)
    assert "art. 8º" in ap.responder_caixa(qtbot, OK)
    assert "Multa: Pago em 20/11/2026" in texto_simples(tela.penalidade)
    assert "Exigência (art. 8º): Pendente" in texto_simples(tela.penalidade)

    dialogo = _clicar_ato(qtbot, tela, "registrar_cumprimento", atos.DialogoCumprimento)
    dialogo.data.editor.setText("25112026")
    _registrar(qtbot, dialogo)
    ap.responder_caixa(qtbot, OK)
    assert "Exigência (art. 8º): Cumprida, verificada em 25/11/2026" in texto_simples(tela.penalidade)
    assert "registrar_cumprimento" not in tela.botoes_atos


def test_cancelar_auto_pede_confirmacao_e_motivo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(data_infracao=roteiro.hoje - timedelta(days=1))
    tela = _tela(qtbot, banco, r.id, "autoridade")
    dialogo = _clicar_ato(qtbot, tela, "cancelar_auto", atos.DialogoCancelar)
    _registrar(qtbot, dialogo)
    assert dialogo.form.mensagem("motivo") == "Informe o motivo do cancelamento."
    qtbot.keyClicks(dialogo.motivo, "Operadora identificada por engano.")
    _registrar(qtbot, dialogo)
    assert "não pode ser desfeita" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.No)
    assert dialogo.isVisible()  # "Voltar" keeps the dialog, nothing written
    _registrar(qtbot, dialogo)
    ap.responder_caixa(qtbot, SIM)
    ap.responder_caixa(qtbot, OK)
    assert "Auto CANCELADO" in tela.penalidade.text()
    assert tela.botoes_atos == {}


def _preencher_timbre(banco: Banco) -> None:
    from secretaria.services import orgao

    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
    dados = replace(
        atual.dados,
        secretario_nome="Sérgio Secretário",
        endereco="Praça Coronel Pedro Osório, 101",
        horario_expediente="de segunda a sexta-feira, das 8h às 14h",
        pagamento_instrucoes="por guia de recolhimento retirada no protocolo",
    )
    orgao.salvar_dados_orgao(banco.uow(), fabrica.ATORES["administrador"], dados, versao=atual.versao)


def test_documentos_emitidos_e_reimpressao_identica(
    qtbot: QtBot, banco: Banco, roteiro: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from secretaria.ui.widgets import arquivos

    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    tela = _tela(qtbot, banco, r.id, "consulta")  # consulta reads and prints
    tela.abas.setCurrentIndex(3)
    assert tela.lista_documentos.item(0).text() == "Nenhum documento emitido ainda."
    assert tela.botoes_documentos.botoes["decisao"].isEnabled()
    assert not tela.botoes_documentos.botoes["intimacao"].isEnabled()  # decided: the auto's notice is past

    primeiro, copia = tmp_path / "decisao.pdf", tmp_path / "copia.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: primeiro)
    tela.botoes_documentos.acoes[("decisao", "salvar")]()
    assert "faltam nos dados do órgão" in ap.responder_caixa(qtbot, OK)  # refused: letterhead incomplete
    _preencher_timbre(banco)
    tela.botoes_documentos.acoes[("decisao", "salvar")]()
    assert "nº 0001/2026 gravada em" in ap.responder_caixa(qtbot, OK)
    assert (
        tela.lista_documentos.item(0)
        .text()
        .startswith("Notificação de decisão do auto nº 0001/2026 — emitido em")
    )

    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: copia)
    tela.lista_documentos.setCurrentRow(0)
    qtbot.mouseClick(tela.botao_copia_documento, Qt.MouseButton.LeftButton)
    assert copia.read_bytes() == primeiro.read_bytes()  # re-printing gives the same bytes


def test_teclado_enter_registra_escape_desiste(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    roteiro.intimar(r.id, date(2026, 11, 20))
    tela = _tela(qtbot, banco, r.id, "protocolo")
    botao = tela.botoes_atos["registrar_defesa"]
    botao.setFocus()
    qtbot.keyClick(botao, Qt.Key.Key_Space)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoDefesa)
    qtbot.keyClick(dialogo.requerente, Qt.Key.Key_Escape)
    assert not dialogo.isVisible()
    assert fabrica.contagens(banco)["defesa"] == 0

    qtbot.keyClick(botao, Qt.Key.Key_Space)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoDefesa)
    dialogo.protocolada_em.editor.setText("27112026")
    qtbot.keyClick(dialogo.requerente, Qt.Key.Key_Return)
    assert "Defesa registrada: tempestiva" in ap.responder_caixa(qtbot, OK)
    assert fabrica.contagens(banco)["defesa"] == 1


def test_cargo_da_secretaria_no_timbre_sai_na_decisao(
    qtbot: QtBot, banco: Banco, roteiro: Any, tmp_path: Path, monkeypatch: Any, digitar: Any
) -> None:
    """A woman signs: the administrator types her title in the letterhead form and the decision notice
    says "a Secretária Municipal…" under her name, not "Secretário"."""
    from io import BytesIO

    from pypdf import PdfReader

    from secretaria.services.base import Ator
    from secretaria.ui.admin.sistema import PainelOrgao
    from secretaria.ui.contexto import Contexto
    from secretaria.ui.widgets import arquivos, mensagens

    admin_ctx = Contexto(banco, Ator("administrador", "Ana", frozenset({"administrador"})))
    orgao = ap.manter(PainelOrgao(admin_ctx))
    qtbot.addWidget(orgao)
    orgao.show()
    assert orgao.secretario_cargo.text() == "Secretário Municipal de Serviços Urbanos"  # the default
    orgao.secretario_nome.setText("Marta Lopes")
    orgao.endereco.setText("Praça Coronel Pedro Osório, 101")
    orgao.pagamento_instrucoes.setText("por guia de recolhimento retirada no protocolo")
    orgao.secretario_cargo.clear()
    orgao.salvar()
    assert orgao.form.mensagem("secretario_cargo").startswith("Informe o cargo do(a) Secretário(a)")
    digitar(orgao.secretario_cargo, "Secretária Municipal de Serviços Urbanos")
    qtbot.keyClick(orgao.secretario_cargo, Qt.Key.Key_Return)
    assert mensagens.responder(QMessageBox.StandardButton.Ok) == "Dados do órgão gravados."

    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    tela = _tela(qtbot, banco, r.id, "consulta")
    destino = tmp_path / "decisao.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    tela.botoes_documentos.acoes[("decisao", "salvar")]()
    assert "nº 0001/2026 gravada em" in ap.responder_caixa(qtbot, OK)
    texto = " ".join(p.extract_text() for p in PdfReader(BytesIO(destino.read_bytes())).pages)
    texto = " ".join(texto.split())
    assert "a Secretária Municipal de Serviços Urbanos, Marta Lopes, no uso da competência" in texto
    assert "Onde e como pagar: por guia de recolhimento retirada no protocolo" in texto
    assert "Marta Lopes Secretária Municipal de Serviços Urbanos" in texto
    # Only the law's own words (art. 15, quoted) still name the office in the masculine.
    assert texto.count("Secretário Municipal") == texto.count("“Da decisão do Secretário Municipal") == 1


def test_dispositivo_contratual_desativado_depois_do_auto(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """Deactivating a contractual provision stops new autos citing it, but the case that
    already cites it still shows its sanction panel and lets the authority propose and the Secretary decide."""
    from secretaria.services import catalogo

    administrador = ap.contexto(banco, "administrador").ator
    catalogo.adicionar_dispositivo_contratual(
        banco.uow(), administrador, origem="contrato", codigo="CT-07", texto="Manter o letreiro aceso.",
        tipo="B", ato="Contrato de concessão nº 14/2016",
    )  # fmt: skip
    r = roteiro.lavrar(data_infracao=date(2026, 11, 2), dispositivo="CT-07")
    roteiro.intimar(r.id, date(2026, 11, 3))
    catalogo.desativar_dispositivo(banco.uow(), administrador, "CT-07")

    tela = _tela(qtbot, banco, r.id, "autoridade", "secretario")
    assert "desativado" not in tela.painel.texto()
    assert "0,50 a 1,00 URM" in tela.painel.texto()  # tipo B, first penalty (art. 7º, § 1º, b)
    dialogo = _clicar_ato(qtbot, tela, "registrar_proposta", atos.DialogoProposta)
    assert "0,50 a 1,00 URM" in dialogo.penalidade.faixa.text()
    dialogo.penalidade.multa.setText("0,60")
    qtbot.keyClicks(dialogo.fundamentacao, "Infracao comprovada.")
    _registrar(qtbot, dialogo)
    assert "Proposta de penalidade registrada" in ap.responder_caixa(qtbot, OK)
    dialogo = _clicar_ato(qtbot, tela, "decidir", atos.DialogoDecisao)
    assert "0,50 a 1,00 URM" in dialogo.penalidade.faixa.text()
    qtbot.keyClicks(dialogo.fundamentacao, "Infracao comprovada.")
    _registrar(qtbot, dialogo)
    assert "multa de 0,60 URM" in ap.responder_caixa(qtbot, SIM)
    ap.responder_caixa(qtbot, OK)
    ap.salvar_png(tela, "caso_ct07")
    with banco.leitura() as s:
        assert obter_caso(s, r.id).decisao is not None


def test_secretario_confere_o_caso_cuja_defesa_mudou_de_classe(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    """REGRAS § 4: a day without office hours registered after the decision makes a late defence timely; the
    case waits on the home screen until the Secretary reviews it from the case screen."""
    from secretaria.services import calendario, filas
    from secretaria.services.tramitacao import registrar_defesa

    roteiro.hoje = date(2026, 9, 10)
    r = roteiro.lavrar(data_infracao=date(2026, 8, 3))
    roteiro.intimar(r.id, date(2026, 8, 3))  # defence until Tue 18/08
    registrar_defesa(
        roteiro.uow(), fabrica.ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 8, 19),
        requerente="Advogada",
    )  # fmt: skip
    roteiro.decidir(r.id, date(2026, 8, 25), "0.30")
    roteiro.hoje = date(2026, 9, 14)
    calendario.adicionar_dia_nao_util(
        banco.uow(), fabrica.ATORES["administrador"], data=date(2026, 8, 18), descricao="Ponto facultativo",
        ato="Decreto nº 7.001/2026",
    )  # fmt: skip

    # Only the Secretary is offered the review.
    assert "conferir_revisao_prazo" not in _tela(qtbot, banco, r.id, "protocolo").botoes_atos
    tela = _tela(qtbot, banco, r.id, "secretario")
    dialogo = _clicar_ato(qtbot, tela, "conferir_revisao_prazo", atos.DialogoConferirRevisao)
    textos = " ".join(w.text() for w in dialogo.findChildren(QLabel))
    assert "De 18/08/2026 para 19/08/2026" in textos and "intempestiva → tempestiva" in textos
    _registrar(qtbot, dialogo)
    assert "sai da lista" in ap.responder_caixa(
        qtbot, QMessageBox.StandardButton.No
    )  # Voltar: nothing written
    with banco.leitura() as s:
        assert filas.revisoes_de_prazo_a_conferir(s).total == 1
    _registrar(qtbot, dialogo)
    ap.responder_caixa(qtbot, SIM)
    assert ap.responder_caixa(qtbot, OK) == "Revisão de prazo conferida."
    with banco.leitura() as s:
        assert filas.revisoes_de_prazo_a_conferir(s).total == 0
        assert obter_caso(s, r.id).revisoes_a_conferir == ()
    assert "conferir_revisao_prazo" not in tela.botoes_atos
