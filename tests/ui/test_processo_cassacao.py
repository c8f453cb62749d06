"""Cassação (art. 16) through its dialogs: instaurar, the acts of the defence, the decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.execucao import situacao_operadora
from secretaria.ui.processo.cassacao import (
    DialogoAtoCassacao,
    DialogoDecidirCassacao,
    DialogoInstaurarCassacao,
)
from secretaria.ui.widgets import mensagens
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")


def test_cassacao_com_ampla_defesa(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    ctx = ap.contexto(banco, "autoridade", "secretario", "protocolo")
    concessionaria = DialogoInstaurarCassacao(
        ctx, roteiro.cidade.operadora_id, "Viação Princesa do Sul Ltda."
    )
    qtbot.addWidget(concessionaria)
    ap.manter(concessionaria)
    concessionaria.motivo.setPlainText("Motivo.")
    concessionaria.registrar()
    assert mensagens.caixa_aberta() is None  # refused before "Instaurar…?", never after it
    assert "concessionária" in concessionaria.form.mensagem("motivo")  # art. 16 is for permissions

    dialogo = DialogoInstaurarCassacao(ctx, roteiro.cidade.operadora2_id, "Transportes Laranjal Ltda.")
    qtbot.addWidget(dialogo)
    ap.manter(dialogo)
    dialogo.data.editor.setText("01112026")
    dialogo.motivo.setPlainText("Reiteradas suspensões e frota irregular, comprovadas nos autos.")
    dialogo.registrar()
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    cassacao_id = dialogo.resultado_id
    assert cassacao_id is not None

    decidir = DialogoDecidirCassacao(ctx, cassacao_id)
    qtbot.addWidget(decidir)
    ap.manter(decidir)
    decidir.fundamentacao.setPlainText("Comprovado.")
    decidir.registrar()
    assert mensagens.caixa_aberta() is None  # refused before "Cassar a permissão?", never after it
    assert "ampla defesa" in decidir.form.mensagem("resultado")  # no notice to defend yet

    for data, tipo in (("02112026", "notificacao"), ("10112026", "defesa")):
        ato = DialogoAtoCassacao(ctx, cassacao_id)
        qtbot.addWidget(ato)
        ap.manter(ato)
        ato.data.editor.setText(data)
        ato.tipo.setCurrentIndex(ato.tipo.findData(tipo))
        ato.descricao.setPlainText(f"Ato de {tipo}.")
        ato.registrar()
        assert ato.resultado_id is not None

    decidir.registrar()
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    assert decidir.result() == decidir.DialogCode.Accepted
    with banco.leitura() as s:
        assert situacao_operadora(s, roteiro.cidade.operadora2_id, roteiro.hoje) == "cassada"


def test_modelo_da_linha_do_tempo_da_cassacao(qtmodeltester: Any, banco: Banco, roteiro: Any) -> None:
    from datetime import date

    from secretaria.services.execucao import (
        PedidoInstauracao,
        instaurar_cassacao,
        obter_cassacao,
        registrar_ato_cassacao,
    )
    from secretaria.ui.modelo_tabela import FonteEmMemoria, ModeloTabela
    from secretaria.ui.processo.cassacao import (
        COLUNAS_EVENTOS_CASSACAO,
        CORES_EVENTOS_CASSACAO,
        linhas_dos_eventos,
    )

    atores = fabrica.ATORES
    cid = instaurar_cassacao(
        banco.uow(), atores["autoridade"], PedidoInstauracao(operadora_id=roteiro.cidade.operadora2_id, data=date(2026, 11, 2),
        motivo="Frota irregular."),
    )  # fmt: skip
    registrar_ato_cassacao(
        banco.uow(), atores["protocolo"], cassacao_id=cid, data=date(2026, 11, 3), tipo="notificacao",
        descricao="AR.",
    )  # fmt: skip
    with banco.leitura() as s:
        detalhe = obter_cassacao(s, cid)
    modelo = ModeloTabela(
        FonteEmMemoria(COLUNAS_EVENTOS_CASSACAO, linhas_dos_eventos(detalhe.linha_do_tempo)),
        cores=CORES_EVENTOS_CASSACAO,
        alinhar_titulos=False,
    )
    qtmodeltester.check(modelo)
    assert [modelo.index(r, 1).data() for r in range(modelo.rowCount())] == [
        "Instauração",
        "Notificação da permissionária para defesa",
    ]
    assert modelo.index(0, 3).data() == "autoridade"


def _operadora(qtbot: QtBot, banco: Banco, operadora_id: int, *papeis: str, login: str = "usuario") -> Any:
    from secretaria.ui.cadastros.operadoras import DialogoOperadora

    dialogo = ap.manter(DialogoOperadora(ap.contexto(banco, *papeis, login=login), operadora_id))
    qtbot.addWidget(dialogo)
    dialogo.show()
    return dialogo


def test_cassacao_pela_tela_da_operadora(
    qtbot: QtBot, banco: Banco, roteiro: Any, digitar: Callable[[QWidget, str], None]
) -> None:
    """From the operator's screen: instaurar (autoridade), the notice and the defence (protocolo), the
    decision (secretário); the status above the tabs turns CASSADA and the timeline tells the story."""
    from secretaria.ui.processo.cassacao import PainelCassacao

    operadora_id = roteiro.cidade.operadora2_id
    tela = _operadora(qtbot, banco, operadora_id, "autoridade", login="autoridade")
    assert "Situação: <b>ATIVA</b>" in tela.situacao.text()
    tela.abas.setCurrentIndex(1)
    painel = tela.cassacao
    assert isinstance(painel, PainelCassacao)
    assert "Nenhum procedimento de cassação" in painel.texto()
    assert painel.botao_instaurar.isEnabled() and not painel.botao_ato.isEnabled()
    assert not painel.botao_decidir.isVisible()  # deciding is the Secretary's
    assert "decidir: Secretário(a)" in painel.papeis.text()

    qtbot.mouseClick(painel.botao_instaurar, Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, DialogoInstaurarCassacao)
    dialogo.data.editor.setText("02112026")
    digitar(dialogo.motivo, "Frota irregular e suspensões reiteradas, comprovadas nos autos nº 3 e 4.")
    dialogo.registrar()
    assert "Instaurar o procedimento de cassação" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: not dialogo.isVisible())
    assert "Instaurado em 02/11/2026 — Em andamento — aguardando a notificação" in painel.texto()
    assert "Aguardando a notificação da permissionária" in painel.pendencia.text()
    assert "Procedimento de cassação em andamento desde 02/11/2026" in tela.situacao.text()
    assert not painel.botao_instaurar.isEnabled()  # one procedure at a time

    protocolo = _operadora(qtbot, banco, operadora_id, "protocolo", login="protocolo")
    protocolo.abas.setCurrentIndex(1)
    p = protocolo.cassacao
    assert not p.botao_instaurar.isVisible() and p.botao_ato.isEnabled()
    for data, tipo, descricao in (
        ("03112026", "notificacao", "Notificada por AR."),
        ("10112026", "defesa", "Defesa escrita protocolada."),
    ):
        qtbot.mouseClick(p.botao_ato, Qt.MouseButton.LeftButton)
        ato = ap.esperar_dialogo(qtbot, DialogoAtoCassacao)
        ato.data.editor.setText(data)
        ato.tipo.setCurrentIndex(ato.tipo.findData(tipo))
        digitar(ato.descricao, descricao)
        qtbot.mouseClick(ato.botoes.buttons()[0], Qt.MouseButton.LeftButton)
        ap.esperar_fechar(qtbot, ato)
    assert "Defesa registrada em 10/11/2026" in p.pendencia.text()

    secretario = _operadora(qtbot, banco, operadora_id, "secretario", login="secretario")
    secretario.abas.setCurrentIndex(1)
    s = secretario.cassacao
    qtbot.mouseClick(s.botao_decidir, Qt.MouseButton.LeftButton)
    decidir = ap.esperar_dialogo(qtbot, DialogoDecidirCassacao)
    decidir.data.editor.setText("20112026")
    digitar(decidir.fundamentacao, "Motivo relevante comprovado; a defesa não o afastou.")
    decidir.registrar()
    assert "não poderá desfazer" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: not decidir.isVisible())
    assert "Situação: <b>CASSADA</b> — permissão cassada em 20/11/2026" in secretario.situacao.text()
    texto = s.texto()
    assert "Instaurado em 02/11/2026 — Permissão cassada em 20/11/2026" in texto
    assert "A permissão desta operadora foi cassada." in texto
    assert [s.modelo.index(r, 1).data() for r in range(s.modelo.rowCount())] == [
        "Instauração",
        "Notificação da permissionária para defesa",
        "Defesa da permissionária",
        "Decisão: permissão cassada",
    ]
    assert [s.modelo.index(r, 3).data() for r in range(s.modelo.rowCount())] == [
        "autoridade",
        "protocolo",
        "protocolo",
        "secretario",
    ]
    assert not s.botao_ato.isEnabled() and not s.botao_decidir.isEnabled()
    with banco.leitura() as sessao:
        assert situacao_operadora(sessao, operadora_id, roteiro.hoje) == "cassada"


def test_concessionaria_nao_tem_cassacao_do_art_16(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    tela = _operadora(qtbot, banco, roteiro.cidade.operadora_id, "autoridade", "secretario")
    tela.abas.setCurrentIndex(1)
    assert "é concessionária" in tela.cassacao.aviso.text()
    assert not tela.cassacao.botao_instaurar.isEnabled()


def test_operadora_suspensa_mostra_ate_quando(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from datetime import date

    from secretaria.services.execucao import PedidoSuspensao, iniciar_suspensao

    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    r = roteiro.lavrar(data_infracao=date(2026, 9, 1), dispositivo="1-I")
    roteiro.intimar(r.id, date(2026, 9, 2))
    roteiro.decidir(r.id, date(2026, 9, 30), "10.00", suspensao=5)
    roteiro.intimar(r.id, date(2026, 10, 1), objeto="decisao")
    roteiro.hoje = date(2026, 10, 21)
    iniciar_suspensao(
        banco.uow(), fabrica.ATORES["secretario"], PedidoSuspensao(auto_id=r.id, inicio=date(2026, 10, 20))
    )
    tela = _operadora(qtbot, banco, roteiro.cidade.operadora_id, "consulta")
    assert "Situação: <b>SUSPENSA</b> até 24/10/2026" in tela.situacao.text()
    assert "color:#b3261e" in tela.situacao.text()
