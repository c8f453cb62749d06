"""The clerk's second week: typing is never lost, and the words read right."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QDialogButtonBox, QLabel
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.caso import obter_caso
from secretaria.services.execucao import PedidoSuspensao, iniciar_suspensao
from secretaria.services.retificacoes import PedidoRetificacao, retificar_auto
from secretaria.services.rotulos import data_inexistente
from secretaria.services.tramitacao import PedidoIntimacao, registrar_intimacao
from secretaria.ui.admin.tabelas import formatar_valor_urm
from secretaria.ui.processo import atos
from secretaria.ui.processo.campos import combo_pesquisavel, preencher_combo
from secretaria.ui.processo.painel_sancao import AntecedenteExibido, _titulo_contam
from secretaria.ui.widgets import CampoData
from tests.helpers import apoio_processo as ap
from tests.helpers.cenario_documentos import preencher_orgao
from tests.helpers.fabrica import ATORES, Roteiro

TODOS = "administrador", "fiscal", "protocolo", "autoridade", "secretario"


def _mostrar(qtbot: QtBot, dialogo: Any) -> Any:
    ap.manter(dialogo)
    qtbot.addWidget(dialogo)
    dialogo.resize(760, 560)
    dialogo.show()
    qtbot.waitExposed(dialogo)
    return dialogo


# --- typing is never lost ---------------------------------------------------------------------------------


def test_campos_da_defesa_nao_pulam_quando_a_tempestividade_muda(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 10))
    roteiro.intimar(r.id, date(2026, 11, 11))  # defence until 26/11
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    dialogo = _mostrar(qtbot, atos.DialogoDefesa(ap.contexto(banco, *TODOS), caso))
    posicoes = []
    for digitado, esperado in (("20112026", "Tempestiva"), ("30112026", "INTEMPESTIVA"), ("", "Prazo")):
        dialogo.protocolada_em.editor.setText(digitado)
        assert dialogo.situacao.text().startswith(esperado)
        dialogo.layout().activate()
        posicoes.append(dialogo.requerente.mapTo(dialogo, QPoint()).y())
    assert len(set(posicoes)) == 1, posicoes


def test_operadora_escolhida_por_placeholder_e_achada_pela_razao_social(qtbot: QtBot) -> None:
    combo = combo_pesquisavel()
    qtbot.addWidget(combo)
    preencher_combo(
        combo,
        [("Santa Maria", 1, "Viação Santa Maria Transportes Ltda."), ("Expresso Sul", 2, "")],
        vazio="— escolha a operadora —",
    )
    editor = combo.lineEdit()
    assert editor is not None
    assert (combo.currentData(), editor.text()) == (None, "")
    assert editor.placeholderText() == "— escolha a operadora —"
    qtbot.keyClicks(editor, "Santa")
    assert editor.text() == "Santa"  # never "Santa— escolha a operadora —"
    completador = combo.completer()
    assert completador is not None
    for busca, achada in (
        ("transportes", "Santa Maria"),
        ("santa", "Santa Maria"),
        ("expresso", "Expresso Sul"),
    ):
        completador.setCompletionPrefix(busca)
        assert completador.completionCount() == 1, busca
        assert completador.currentCompletion() == achada


def test_dias_de_suspensao_no_singular_e_15_digitado_vale_15(qtbot: QtBot) -> None:
    campo = atos.CampoDias()
    qtbot.addWidget(campo)
    campo.permitir(1, 10)
    assert campo.text() == "sem suspensão"
    campo.setValue(1)
    assert campo.text() == "1 dia"
    campo.show()
    campo.setFocus()
    campo.selectAll()
    qtbot.keyClicks(campo, "15")  # above the case's 10: kept, and the range beside it says so
    campo.interpretText()
    assert (campo.value(), campo.text()) == (15, "15 dias")
    campo.setValue(10)
    campo.stepBy(1)  # the arrows stay within what the case allows
    assert campo.value() == 10


def test_unidade_urm_separada_da_faixa_e_dias_fora_da_faixa_em_vermelho(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 10))
    roteiro.intimar(r.id, date(2026, 11, 11))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    dialogo = _mostrar(qtbot, atos.DialogoProposta(ap.contexto(banco, *TODOS), caso))
    penalidade = dialogo.penalidade
    unidade = next(
        w for w in penalidade.faixa.parentWidget().findChildren(QLabel) if w.text() == "URM" and w.isVisible()
    )
    assert unidade.geometry().right() + 6 < penalidade.faixa.geometry().left()


def test_suspensao_propoe_o_primeiro_dia_livre(qtbot: QtBot, banco: Banco, roteiro: Roteiro) -> None:
    from tests.services.test_execucao_regras import _duas_suspensoes_definitivas

    a, b = _duas_suspensoes_definitivas(roteiro)
    iniciar_suspensao(
        roteiro.uow(), ATORES["secretario"], PedidoSuspensao(auto_id=a, inicio=date(2026, 12, 1))
    )
    with banco.leitura() as s:
        caso = obter_caso(s, b)
    dialogo = _mostrar(qtbot, atos.DialogoSuspensao(ap.contexto(banco, *TODOS), caso))
    assert dialogo.inicio.data() == date(2026, 12, 7)
    assert "07/12/2026 até 10/12/2026" in dialogo.fim.text()
    assert "Suspensão de 4 dias" in dialogo.fim.text()


# --- words -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("texto", "esperado"),
    [
        ("31/02/2024", "31/02/2024 não existe: fevereiro de 2024 tem 29 dias."),
        ("29/02/2026", "29/02/2026 não existe: fevereiro de 2026 tem 28 dias."),
        ("31/04/2026", "31/04/2026 não existe: abril de 2026 tem 30 dias."),
        ("10/13/2026", "10/13/2026 não existe: o mês vai de 01 a 12."),
        ("00/05/2026", "00/05/2026 não existe: maio de 2026 tem 31 dias."),
        ("29/02/2024", None),
        ("2024-02-31", None),
        ("31022024", None),
    ],
)
def test_data_que_nao_existe_nao_e_erro_de_formato(texto: str, esperado: str | None) -> None:
    assert data_inexistente(texto) == esperado


def test_campo_de_data_diz_que_o_dia_nao_existe(qtbot: QtBot) -> None:
    campo = CampoData()
    qtbot.addWidget(campo)
    campo.editor.setText("31022024")
    with pytest.raises(Exception) as erro:
        campo.data_ou_erro("data", "a data do auto")
    mensagem = str(erro.value)
    assert "fevereiro de 2024 tem 29 dias" in mensagem and "use dd/mm/aaaa" not in mensagem


@pytest.mark.parametrize(
    ("valor", "texto"),
    [
        ("164.7400", "164,74"),
        ("164.7412", "164,7412"),
        ("164.7450", "164,745"),
        ("164", "164,00"),
        ("0.5", "0,50"),
    ],
)
def test_valor_da_urm_com_as_casas_necessarias(valor: str, texto: str) -> None:
    assert formatar_valor_urm(Decimal(valor)) == texto


def test_painel_diz_quando_autos_do_mesmo_dia_sao_uma_reincidencia() -> None:
    def a(dia: int) -> AntecedenteExibido:
        return AntecedenteExibido("AI", True, "conta", date(2026, 3, dia))

    assert _titulo_contam([a(1), a(2), a(3)]) == "Autos anteriores que contam (3)"
    titulo = _titulo_contam([a(1), a(2), a(3), a(3)])
    assert titulo.startswith("Autos anteriores que contam (4 autos em 3 dias de infração")
    assert "uma só reincidência" in titulo


def test_linha_do_tempo_recusada_por_uma_vez_e_sem_ponto_duplo(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 10))
    for resultado, quem in (("recusada", "Lúcia Beta"), ("entregue", "Transportes Alfa Ltda.")):
        registrar_intimacao(
            roteiro.uow(),
            ATORES["protocolo"],
            PedidoIntimacao(
                auto_id=r.id,
                objeto="auto",
                data=date(2026, 11, 11),
                meio="pessoal",
                resultado=resultado,
                recebedor_nome=quem,
            ),
        )
    with banco.leitura() as s:
        textos = [e.descricao for e in obter_caso(s, r.id).linha_do_tempo if e.ato == "intimacao"]
    assert any(t.endswith(": recusada por Lúcia Beta.") for t in textos), textos
    assert not any("recusada, recusada" in t or ".." in t for t in textos), textos
    assert any("recebida por Transportes Alfa Ltda.;" in t for t in textos), textos


def test_fila_de_intimacao_diz_que_aguarda_o_termo(banco: Banco, roteiro: Roteiro) -> None:
    from secretaria.services import filas

    preencher_orgao(banco)  # a termo of substance is issued with its intimação: the letterhead must be whole
    r = roteiro.lavrar(data_infracao=date(2026, 11, 2))
    roteiro.intimar(r.id, date(2026, 11, 3))
    with banco.leitura() as s:
        assert all(x.id != r.id for x in filas.autos_aguardando_intimacao(s).linhas)
    retificar_auto(
        banco.uow(),
        ATORES["fiscal"],
        PedidoRetificacao(auto_id=r.id, alteracoes={"dispositivo_codigo": "1-V"}, motivo="Erro."),
    )
    with banco.leitura() as s:
        (linha,) = [x for x in filas.autos_aguardando_intimacao(s).linhas if x.id == r.id]
    assert linha.detalhe == "Termo de retificação de 30/11/2026 aguardando intimação"


def test_login_mostra_o_arquivo_ou_o_servidor_e_entrar_sem_disquete(qtbot: QtBot, banco: Banco) -> None:
    from secretaria.ui.login import DialogoLogin

    dialogo = DialogoLogin(banco, demo=False)
    qtbot.addWidget(dialogo)
    textos = [w.text() for w in dialogo.findChildren(QLabel)]
    (onde,) = [t for t in textos if t.startswith("Banco de dados:")]
    assert "://" not in onde
    if banco.eh_sqlite:
        assert onde.startswith("Banco de dados: arquivo /") and onde.endswith(".sqlite")
    else:
        assert onde.startswith("Banco de dados: servidor PostgreSQL 127.0.0.1:5432, banco ")
    assert dialogo.botoes.button(QDialogButtonBox.StandardButton.Save).icon().isNull()


def test_importacao_nao_rebaixa_a_sigla() -> None:
    from secretaria.ui.importacao import _minuscula

    assert _minuscula("Fiscais da SMSU") == "fiscais da SMSU"


def test_configuracoes_dizem_1_dia_e_aceitam_15_digitado(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QSpinBox

    from secretaria.ui.admin.sistema import _sufixo_no_numero

    campo = QSpinBox()
    qtbot.addWidget(campo)
    campo.setRange(1, 365)
    _sufixo_no_numero(campo, "dia", "dias")
    campo.setValue(1)
    assert campo.text() == "1 dia"
    campo.show()
    campo.setFocus()
    campo.selectAll()
    qtbot.keyClicks(campo, "15")
    campo.interpretText()
    assert (campo.value(), campo.text()) == (15, "15 dias")


def test_cabecalho_do_caso_diz_1_dia(banco: Banco, roteiro: Roteiro) -> None:
    from dataclasses import replace

    from secretaria.ui.processo.tela_caso import TelaCaso

    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    assert "suspensão de 1 dia (" in TelaCaso._texto_da_penalidade(replace(caso, suspensao_dias=1))
    assert "suspensão de 2 dias (" in TelaCaso._texto_da_penalidade(replace(caso, suspensao_dias=2))
