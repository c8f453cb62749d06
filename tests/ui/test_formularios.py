"""The clerk's day with the forms: a wrapped message gets the height it needs and moves no field,
it goes as soon as the field is fixed, an irreversible act is refused before it is confirmed, a changed
form asks before it is thrown away, and a version conflict reloads keeping what the user typed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services import cadastros
from secretaria.services.base import SISTEMA, Ator, ErroDominio
from secretaria.services.caso import obter_caso
from secretaria.services.contas import criar_usuario
from secretaria.services.tramitacao import conferir_decisao, decidir
from secretaria.ui.cadastros.operadoras import DialogoLinha, DialogoOperadora
from secretaria.ui.cadastros.veiculos import DialogoVeiculo
from secretaria.ui.login import DialogoLogin
from secretaria.ui.processo import atos
from secretaria.ui.processo.campos import selecionar_dado
from secretaria.ui.processo.form_auto import DialogoAuto
from secretaria.ui.processo.tela_caso import TelaCaso
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.edicao import PERGUNTA_DESCARTAR
from secretaria.ui.widgets.formulario import DialogoFormulario, RotuloErro
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
Digitar = Callable[[QWidget, str], None]
BOTAO = QMessageBox.StandardButton


def _mostrar(qtbot: QtBot, dialogo: QWidget) -> None:
    ap.manter(dialogo)  # parentless here (a window's child in the program): see `apoio_processo.manter`
    qtbot.addWidget(dialogo)
    with qtbot.waitExposed(dialogo):
        dialogo.show()


def _posicao(widget: QWidget) -> QPoint:
    """Where the widget is in its window (what the user's next click aims at)."""
    return widget.mapTo(widget.window(), QPoint(0, 0))


def _cabe(rotulo: QLabel) -> None:
    """The label shows all of its wrapped text: its height is at least what its width needs."""
    assert isinstance(rotulo, RotuloErro)
    assert rotulo.text()
    necessaria = rotulo.heightForWidth(rotulo.width())
    assert necessaria > 1.5 * rotulo.fontMetrics().lineSpacing(), "a mensagem deveria ter mais de uma linha"
    assert rotulo.height() >= necessaria


def _erros(dialogo: Any) -> dict[str, str]:
    """Every message on the form now (to say why an assertion failed)."""
    return {c: dialogo.form.mensagem(c) for c in ["", *dialogo.form.campos] if dialogo.form.mensagem(c)}


def _sem_caixa() -> None:
    caixa = mensagens.caixa_aberta()
    assert caixa is None, f"caixa inesperada: {caixa.text() if caixa else ''}"


def _renavam(base: str) -> str:
    """A valid RENAVAM: `base` and its check digit."""
    soma = sum(int(c) * p for c, p in zip(base, (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
    return base + str(soma * 10 % 11 % 10)


def _salvar(qtbot: QtBot, dialogo: Any) -> None:
    qtbot.mouseClick(dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


# --- messages: their height, and fields that stay where they were ---------------------------------------


def test_mensagem_longa_do_veiculo_cabe_e_some_ao_corrigir(
    qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade, digitar: Digitar
) -> None:
    dialogo = DialogoVeiculo(ap.contexto(banco, "administrador"), None)
    _mostrar(qtbot, dialogo)
    abaixo = dialogo.renavam
    antes = _posicao(abaixo)
    digitar(dialogo.prefixo, "901")
    dialogo.operadora_id.setCurrentIndex(dialogo.operadora_id.findData(cidade.operadora_id))
    dialogo.renavam.setText(_renavam("0123456789"))
    dialogo.lugares_sentados.setValue(40)  # a bus without seats is refused on its own
    dialogo.placa.setFocus()
    digitar(dialogo.placa, "IXY9J76")  # the plate of bus IXY-9876 in the Mercosul form
    _salvar(qtbot, dialogo)
    mensagem = dialogo.erro("placa")
    assert mensagem, _erros(dialogo)
    assert "é a mesma placa, na forma IXY-9876" in mensagem
    rotulo = dialogo.form.rotulo_erro_de("placa")
    qtbot.waitUntil(lambda: rotulo.height() >= rotulo.heightForWidth(rotulo.width()))
    _cabe(rotulo)
    ap.salvar_png(dialogo, "h15-veiculo-placa")
    movido = _posicao(abaixo)
    # Fixing the plate clears the message at once; the space stays, so the next field does not jump.
    qtbot.keyClick(dialogo.placa, Qt.Key.Key_Backspace)
    assert dialogo.erro("placa") == ""
    assert _posicao(abaixo) == movido
    assert movido.y() - antes.y() <= rotulo.height() - rotulo.fontMetrics().lineSpacing()


def test_mensagem_da_operadora_cabe_e_campos_nao_se_movem(
    qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade, digitar: Digitar
) -> None:
    dialogo = DialogoOperadora(ap.contexto(banco, "administrador"), None)
    _mostrar(qtbot, dialogo)
    campos = (dialogo.nome_fantasia, dialogo.cnpj, dialogo.delegacao, dialogo.representante_nome)
    antes = [_posicao(c) for c in campos]
    # A one-line message (the reserved line): nothing moves when it appears.
    qtbot.keyClick(dialogo.razao_social, Qt.Key.Key_Return)
    assert dialogo.erro("razao_social") == "Informe a razão social."
    assert [_posicao(c) for c in campos] == antes
    # The message goes as soon as the field changes, and nothing moves then either.
    digitar(dialogo.razao_social, "Nova Linha Transportes Ltda")
    assert dialogo.erro("razao_social") == ""
    assert [_posicao(c) for c in campos] == antes

    dialogo.logradouro.setText("Rua Andrade Neves")
    dialogo.cnpj.setFocus()
    dialogo.cnpj.setCursorPosition(0)
    digitar(dialogo.cnpj, fabrica_cnpj())
    qtbot.keyClick(dialogo.cnpj, Qt.Key.Key_Return)
    mensagem = dialogo.erro("cnpj")
    assert "Princesa do Sul" in mensagem, _erros(dialogo)
    rotulo = dialogo.form.rotulo_erro_de("cnpj")
    qtbot.waitUntil(lambda: rotulo.height() >= rotulo.heightForWidth(rotulo.width()))
    _cabe(rotulo)
    ap.salvar_png(dialogo, "h15-operadora-cnpj")
    depois = [_posicao(c) for c in campos]
    assert depois[:2] == antes[:2]  # above the message and the field itself: where they were
    qtbot.keyClick(dialogo.cnpj, Qt.Key.Key_Backspace)
    assert dialogo.erro("cnpj") == ""
    assert [_posicao(c) for c in campos] == depois  # cleared: the space stays, nothing jumps up


def fabrica_cnpj() -> str:
    """The first operator's CNPJ in the test city (`fabrica.popular`)."""
    return "11222333000181"


def test_login_mostra_todo_o_conselho_do_bloqueio(qtbot: QtBot, banco: Banco, digitar: Digitar) -> None:
    criar_usuario(banco.uow(), SISTEMA, login="bia", nome="Bia", senha="segredo123", papeis=["protocolo"])
    dialogo = DialogoLogin(banco, demo=False, login="bia")
    _mostrar(qtbot, dialogo)
    abaixo = dialogo.botoes
    antes = _posicao(dialogo.senha)
    for _ in range(6):
        dialogo.senha.clear()
        digitar(dialogo.senha, "errada1")
        qtbot.keyClick(dialogo.senha, Qt.Key.Key_Return)
    mensagem = dialogo.form.mensagem("senha")
    assert "Conta bloqueada" in mensagem and "administrador" in mensagem
    rotulo = dialogo.form.rotulo_erro_de("senha")
    qtbot.waitUntil(lambda: rotulo.height() >= rotulo.heightForWidth(rotulo.width()))
    _cabe(rotulo)
    assert _posicao(dialogo.senha) == antes
    assert _posicao(abaixo).y() >= _posicao(rotulo).y() + rotulo.height()
    ap.salvar_png(dialogo, "h15-login-bloqueio")


# --- checks before "Confirmar?" -----------------------------------------------------------------------------


def _tela(qtbot: QtBot, banco: Banco, auto_id: int, *papeis: str) -> TelaCaso:
    tela = ap.manter(TelaCaso(ap.contexto(banco, *papeis), auto_id))
    qtbot.addWidget(tela)
    tela.show()
    return tela


def _abrir(qtbot: QtBot, tela: TelaCaso, ato: str, tipo: type[ap.D]) -> ap.D:
    qtbot.mouseClick(tela.botoes_atos[ato], Qt.MouseButton.LeftButton)
    return ap.esperar_dialogo(qtbot, tipo)


def test_intimacao_com_data_futura_recusada_antes_de_confirmar(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    tela = _tela(qtbot, banco, r.id, "protocolo")
    dialogo = _abrir(qtbot, tela, "registrar_intimacao_auto", atos.DialogoIntimacao)
    dialogo.data.editor.setText("05122026")
    _salvar(qtbot, dialogo)
    _sem_caixa()
    assert "05/12/2026" in dialogo.form.mensagem("data")
    assert dialogo.previsao.text() == ""  # no deadline announced beside the refused date
    assert fabrica.contagens(banco)["intimacao"] == 0
    dialogo.data.editor.setText("27112026")
    assert dialogo.form.mensagem("data") == ""
    assert "Prazo de defesa (art. 14): vencerá em" in dialogo.previsao.text()
    _salvar(qtbot, dialogo)
    assert "Registrar a intimação do auto entregue em 27/11/2026" in ap.responder_caixa(qtbot, BOTAO.Yes)
    ap.responder_caixa(qtbot, BOTAO.Ok)
    assert fabrica.contagens(banco)["intimacao"] == 1


def _decisao(qtbot: QtBot, banco: Banco, roteiro: Any, *, propor: bool = True) -> atos.DialogoDecisao:
    r = roteiro.lavrar(data_infracao=date(2026, 10, 1))
    roteiro.intimar(r.id, date(2026, 10, 2))
    if propor:
        roteiro.propor(r.id, date(2026, 11, 20), "0.30")
    tela = _tela(qtbot, banco, r.id, "secretario")
    dialogo = _abrir(qtbot, tela, "decidir", atos.DialogoDecisao)
    dialogo.fundamentacao.setPlainText("Infração comprovada pelo auto.")
    return dialogo


def test_multa_fora_da_faixa_recusada_antes_de_confirmar(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    dialogo = _decisao(qtbot, banco, roteiro)
    dialogo.penalidade.multa.setText("0,60")
    _salvar(qtbot, dialogo)
    _sem_caixa()
    mensagem = dialogo.form.mensagem("multa_ur")
    assert "fora da faixa" in mensagem
    ap.salvar_png(dialogo, "h15-decisao-faixa")
    assert fabrica.contagens(banco)["decisao"] == 0
    # One rule in one place: the write path refuses with the very same words.
    pedido = dialogo.pedido()
    with pytest.raises(ErroDominio) as recusa:
        decidir(banco.uow(), dialogo.ator, pedido)
    assert recusa.value.mensagem == mensagem and recusa.value.campo == "multa_ur"
    with banco.leitura() as s, pytest.raises(ErroDominio):
        conferir_decisao(s, dialogo.ator, pedido)
    # Fixing the fine clears the message at once.
    dialogo.penalidade.multa.setFocus()
    qtbot.keyClick(dialogo.penalidade.multa, Qt.Key.Key_Backspace)
    assert dialogo.form.mensagem("multa_ur") == ""


def test_suspensao_incabivel_recusada_antes_de_confirmar(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    dialogo = _decisao(qtbot, banco, roteiro)
    dialogo.penalidade.definir(Decimal("0.30"), 5)  # as a proposal's pre-fill would, at level 0
    _salvar(qtbot, dialogo)
    _sem_caixa()
    assert "suspens" in dialogo.form.mensagem("suspensao_dias").lower()
    assert fabrica.contagens(banco)["decisao"] == 0


def test_decisao_antes_do_fim_do_prazo_de_defesa_recusada_antes_de_confirmar(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    roteiro.intimar(r.id, date(2026, 11, 25))
    tela = _tela(qtbot, banco, r.id, "secretario")
    dialogo = _abrir(qtbot, tela, "decidir", atos.DialogoDecisao)
    dialogo.penalidade.multa.setText("0,30")
    dialogo.fundamentacao.setPlainText("Infração comprovada.")
    _salvar(qtbot, dialogo)
    _sem_caixa()
    assert "antes do fim do prazo" in dialogo.form.mensagem("data")
    assert fabrica.contagens(banco)["decisao"] == 0


def test_suspensao_antes_da_decisao_definitiva_recusada_antes_de_confirmar(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    r = roteiro.lavrar(data_infracao=date(2026, 9, 1), dispositivo="1-I")
    roteiro.intimar(r.id, date(2026, 9, 2))
    roteiro.decidir(r.id, date(2026, 9, 30), "10.00", suspensao=5)
    roteiro.intimar(r.id, date(2026, 10, 1), objeto="decisao")
    tela = _tela(qtbot, banco, r.id, "secretario")
    dialogo = _abrir(qtbot, tela, "iniciar_suspensao", atos.DialogoSuspensao)
    dialogo.inicio.editor.setText("05102026")  # the decision became final only after the appeal deadline
    _salvar(qtbot, dialogo)
    _sem_caixa()
    assert "decisão definitiva" in dialogo.form.mensagem("inicio")
    assert fabrica.contagens(banco)["suspensao"] == 0
    dialogo.inicio.editor.setText("20112026")
    assert dialogo.form.mensagem("inicio") == ""
    _salvar(qtbot, dialogo)
    assert "Confirmar o início da suspensão" in ap.responder_caixa(qtbot, BOTAO.No)
    assert fabrica.contagens(banco)["suspensao"] == 0


def test_recurso_e_julgamento_recusados_antes_de_confirmar(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 10, 1), multa="0.30")
    tela = _tela(qtbot, banco, r.id, "protocolo")
    recurso = _abrir(qtbot, tela, "registrar_recurso", atos.DialogoRecurso)
    recurso.protocolado_em.editor.setText("02122026")  # the future
    _salvar(qtbot, recurso)
    _sem_caixa()
    assert "02/12/2026" in recurso.form.mensagem("protocolado_em")
    recurso.protocolado_em.editor.setText("30112026")
    _salvar(qtbot, recurso)
    assert "Registrar o recurso ao Prefeito" in ap.responder_caixa(qtbot, BOTAO.Yes)
    ap.responder_caixa(qtbot, BOTAO.Ok)

    with banco.leitura() as s:
        antes = obter_caso(s, r.id)
    julgamento = _abrir(qtbot, tela, "julgar_recurso", atos.DialogoJulgamento)
    julgamento.resultado.setCurrentIndex(julgamento.resultado.findData("provido_parcialmente"))
    julgamento.penalidade.multa.setText("0,40")  # "reduced" above the 0,30 URM decided
    _salvar(qtbot, julgamento)
    _sem_caixa()
    assert "só pode ser reduzida" in julgamento.form.mensagem("multa_ur")
    with banco.leitura() as s:
        depois = obter_caso(s, r.id)
    assert (depois.fase, depois.versao) == (antes.fase, antes.versao)  # nothing written


def test_divida_ativa_antes_da_decisao_definitiva_recusada_antes_de_confirmar(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 10, 1))
    roteiro.intimar(r.id, date(2026, 10, 2))
    roteiro.decidir(r.id, date(2026, 11, 20), "0.30")
    roteiro.intimar(r.id, date(2026, 11, 25), objeto="decisao")  # the appeal deadline is still open
    tela = _tela(qtbot, banco, r.id, "protocolo")
    dialogo = _abrir(qtbot, tela, "registrar_pagamento", atos.DialogoPagamento)
    dialogo.situacao.setCurrentIndex(dialogo.situacao.findData("divida_ativa"))
    _salvar(qtbot, dialogo)
    _sem_caixa()
    assert "ainda não é definitiva" in dialogo.form.mensagem("situacao")
    dialogo.situacao.setCurrentIndex(dialogo.situacao.findData("pago"))
    assert dialogo.form.mensagem("situacao") == ""
    _salvar(qtbot, dialogo)
    assert "como paga em 30/11/2026" in ap.responder_caixa(qtbot, BOTAO.No)


def test_cancelar_auto_decidido_por_outro_recusado_antes_de_confirmar(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 10, 1))
    roteiro.intimar(r.id, date(2026, 10, 2))
    tela = _tela(qtbot, banco, r.id, "autoridade", "secretario")
    dialogo = _abrir(qtbot, tela, "cancelar_auto", atos.DialogoCancelar)
    dialogo.motivo.setPlainText("Lavrado em duplicidade.")
    roteiro.decidir(r.id, date(2026, 11, 20), "0.30")  # meanwhile, on another PC
    _salvar(qtbot, dialogo)
    _sem_caixa()
    faixa = dialogo.faixa
    assert faixa is not None and faixa.isVisible() and faixa.botao.isVisible()
    qtbot.mouseClick(faixa.botao, Qt.MouseButton.LeftButton)
    assert dialogo.motivo.texto() == "Lavrado em duplicidade."  # what was typed is kept
    _salvar(qtbot, dialogo)
    _sem_caixa()
    assert "já foi decidido em 20/11/2026" in dialogo.form.mensagem("")
    with banco.leitura() as s:
        assert obter_caso(s, r.id).fase == "decidido"


def test_auto_com_infracao_futura_recusado_antes_de_confirmar(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    dialogo = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal", login="fiscal")))
    _mostrar(qtbot, dialogo)
    assert selecionar_dado(dialogo.operadora, roteiro.cidade.operadora_id)
    assert dialogo.form.mensagem("operadora_id") == ""
    assert selecionar_dado(dialogo.dispositivo, "1-VI")
    dialogo.data_infracao.editor.setText("03122026")
    dialogo.data_lavratura.editor.setText("03122026")
    dialogo.hora_lavratura.setText("0900")
    dialogo.local.setText("Praça Coronel Pedro Osório")
    dialogo.descricao_fatos.setPlainText("Veículo sem condições de higiene.")
    dialogo.local_lavratura.setText("Terminal central")
    assert selecionar_dado(dialogo.fiscal, roteiro.cidade.fiscal_id)
    dialogo.lavrar()
    _sem_caixa()
    assert "03/12/2026" in dialogo.form.mensagem("data_infracao") + dialogo.form_lavratura.mensagem(
        "data_lavratura"
    )
    assert fabrica.contagens(banco)["auto_infracao"] == 0
    ap.salvar_png(dialogo, "h15-auto-futuro")


def test_escolher_a_operadora_apaga_o_aviso(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    dialogo = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal", login="fiscal")))
    _mostrar(qtbot, dialogo)
    dialogo.lavrar()
    _sem_caixa()
    assert dialogo.form.mensagem("operadora_id") == "Escolha a operadora autuada."
    assert selecionar_dado(dialogo.operadora, roteiro.cidade.operadora_id)
    assert dialogo.form.mensagem("operadora_id") == ""


def test_tempestiva_nao_aparece_ao_lado_da_recusa(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 10))
    roteiro.intimar(r.id, date(2026, 11, 20))
    tela = _tela(qtbot, banco, r.id, "protocolo")
    dialogo = _abrir(qtbot, tela, "registrar_defesa", atos.DialogoDefesa)
    dialogo.protocolada_em.editor.setText("15112026")  # before the intimação
    assert "Tempestiva" in dialogo.situacao.text()
    dialogo.requerente.setText("Advogado")
    _salvar(qtbot, dialogo)
    assert "intimação" in dialogo.form.mensagem("protocolada_em")
    assert "Tempestiva" not in dialogo.situacao.text()
    dialogo.protocolada_em.editor.setText("25112026")
    assert dialogo.form.mensagem("protocolada_em") == ""
    assert "Tempestiva" in dialogo.situacao.text()


# --- work thrown away ----------------------------------------------------------------------------------------


def _linha(qtbot: QtBot, banco: Banco) -> DialogoLinha:
    dialogo = DialogoLinha(ap.contexto(banco, "administrador"), None)
    _mostrar(qtbot, dialogo)
    return dialogo


def test_formulario_intocado_fecha_sem_perguntar(qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade) -> None:
    for fechar in ("escape", "cancelar", "janela"):
        dialogo = _linha(qtbot, banco)
        _fechar(qtbot, dialogo, fechar)
        _sem_caixa()
        assert not dialogo.isVisible()


def _fechar(qtbot: QtBot, dialogo: DialogoFormulario, como: str) -> None:
    if como == "escape":
        qtbot.keyClick(dialogo.focusWidget() or dialogo, Qt.Key.Key_Escape)
    elif como == "cancelar":
        botao = dialogo.botoes.button(QDialogButtonBox.StandardButton.Cancel)  # type: ignore[attr-defined]
        qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
    else:
        dialogo.close()  # the window's close button


@pytest.mark.parametrize("como", ["escape", "cancelar", "janela"])
def test_formulario_alterado_pergunta_antes_de_descartar(
    qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade, digitar: Digitar, como: str
) -> None:
    dialogo = _linha(qtbot, banco)
    digitar(dialogo.codigo, "L99")
    _fechar(qtbot, dialogo, como)
    caixa = mensagens.caixa_aberta()
    assert caixa is not None and caixa.text() == PERGUNTA_DESCARTAR
    assert caixa.defaultButton() is caixa.button(BOTAO.Cancel)
    assert caixa.button(BOTAO.Cancel).text() == "&Continuar editando"
    if como == "escape":
        ap.salvar_png(caixa, "h15-descartar")
    qtbot.keyClick(caixa, Qt.Key.Key_Return)  # the default: keep editing
    assert dialogo.isVisible() and dialogo.codigo.text() == "L99"
    _fechar(qtbot, dialogo, como)
    assert ap.responder_caixa(qtbot, BOTAO.Discard) == PERGUNTA_DESCARTAR
    assert not dialogo.isVisible()
    assert fabrica.contagens(banco)["linha"] == 2  # the city's two lines: nothing written


def test_desfazer_a_alteracao_volta_a_fechar_sem_perguntar(
    qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade, digitar: Digitar
) -> None:
    dialogo = _linha(qtbot, banco)
    digitar(dialogo.nome, "X")
    qtbot.keyClick(dialogo.nome, Qt.Key.Key_Backspace)
    qtbot.keyClick(dialogo.nome, Qt.Key.Key_Escape)
    _sem_caixa()
    assert not dialogo.isVisible()


# --- a version conflict: Recarregar keeps what was typed -----------------------------------------------------


def test_conflito_recarregar_mantem_o_digitado_e_salva(
    qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade, digitar: Digitar
) -> None:
    dialogo = DialogoOperadora(ap.contexto(banco, "administrador", login="ana"), cidade.operadora_id)
    _mostrar(qtbot, dialogo)
    # Meanwhile, on another PC, Bruno changes the phone and the district of the same operator.
    with banco.leitura() as s:
        detalhe = cadastros.obter_operadora(s, cidade.operadora_id)
    bruno = Ator("bruno", "Bruno", frozenset({"administrador"}))
    cadastros.editar_operadora(
        banco.uow(),
        bruno,
        cidade.operadora_id,
        replace(detalhe.dados, telefone="(53) 3222-1111", bairro="Fragata"),
        versao=detalhe.versao,
    )
    # Ana, who had the old version open, types a phone and an e-mail.
    dialogo.telefone.selectAll()
    digitar(dialogo.telefone, "(53) 3000-0000")
    dialogo.email.selectAll()
    digitar(dialogo.email, "contato@empresa.com.br")
    _salvar(qtbot, dialogo)
    assert dialogo.isVisible()
    faixa = dialogo.faixa
    assert faixa is not None and faixa.isVisible() and faixa.botao.isVisible()
    assert "Recarregue" in faixa.texto.text() or "alterado por" in faixa.texto.text()
    ap.salvar_png(dialogo, "h15-conflito")

    qtbot.mouseClick(faixa.botao, Qt.MouseButton.LeftButton)
    assert dialogo.telefone.text() == "(53) 3000-0000"  # hers, kept
    assert dialogo.email.text() == "contato@empresa.com.br"  # hers, kept
    assert dialogo.bairro.text() == "Fragata"  # his, loaded (she had not touched it)
    assert "Telefone (agora (53) 3222-1111)" in faixa.texto.text()
    assert "Bairro" not in faixa.texto.text()
    assert not faixa.botao.isVisible()
    ap.salvar_png(dialogo, "h15-conflito-recarregado")

    _salvar(qtbot, dialogo)
    assert not dialogo.isVisible()
    with banco.leitura() as s:
        gravado = cadastros.obter_operadora(s, cidade.operadora_id).dados
    assert (gravado.telefone, gravado.email, gravado.bairro) == (
        "(53) 3000-0000",
        "contato@empresa.com.br",
        "Fragata",
    )


def test_aviso_externo_em_formulario_intocado_recarrega_ja(
    qtbot: QtBot, banco: Banco, cidade: fabrica.Cidade
) -> None:
    dialogo = DialogoOperadora(ap.contexto(banco, "administrador"), cidade.operadora_id)
    _mostrar(qtbot, dialogo)
    with banco.leitura() as s:
        detalhe = cadastros.obter_operadora(s, cidade.operadora_id)
    cadastros.editar_operadora(
        banco.uow(),
        SISTEMA,
        cidade.operadora_id,
        replace(detalhe.dados, bairro="Areal"),
        versao=detalhe.versao,
    )
    dialogo.avisar_alteracao_externa("A operadora foi alterada em outro computador.")
    assert dialogo.bairro.text() == "Areal"
    assert dialogo.versao == detalhe.versao + 1
    assert dialogo.faixa is not None and not dialogo.faixa.botao.isVisible()
    qtbot.keyClick(dialogo.razao_social, Qt.Key.Key_Escape)  # reloaded = as loaded: closes at once
    _sem_caixa()
    assert not dialogo.isVisible()


def test_conflito_no_cadastro_de_usuario(qtbot: QtBot, banco: Banco) -> None:
    from secretaria.services import contas
    from secretaria.services.base import ROTULOS_PAPEIS
    from secretaria.ui.admin.usuarios import DialogoUsuario
    from secretaria.ui.contexto import Contexto

    criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=["administrador"])
    admin = contas.autenticar(banco.uow(), "ana", "segredo123")
    uid = criar_usuario(
        banco.uow(), admin, login="paula", nome="Paula", senha="segredo123", papeis=["fiscal"]
    )
    dialogo = DialogoUsuario(Contexto(banco, admin), uid)
    _mostrar(qtbot, dialogo)
    with banco.leitura() as s:
        versao = contas.obter_usuario(s, uid).versao
    contas.editar_usuario(
        banco.uow(), admin, uid, nome="Paula Souza", papeis=["fiscal", "protocolo"], versao=versao
    )
    qtbot.mouseClick(dialogo.papeis.caixas["secretario"], Qt.MouseButton.LeftButton)
    _salvar(qtbot, dialogo)
    assert dialogo.isVisible() and dialogo.faixa is not None and dialogo.faixa.botao.isVisible()
    qtbot.mouseClick(dialogo.faixa.botao, Qt.MouseButton.LeftButton)
    assert dialogo.nome.text() == "Paula Souza"  # not touched here: the stored name
    assert dialogo.papeis.papeis() == ["fiscal", "secretario"]  # what this administrador chose
    agora = f"{ROTULOS_PAPEIS['fiscal']}, {ROTULOS_PAPEIS['protocolo']}"
    assert f"Papéis (agora {agora})" in dialogo.faixa.texto.text()
    _salvar(qtbot, dialogo)
    assert not dialogo.isVisible()
    with banco.leitura() as s:
        assert contas.obter_usuario(s, uid).papeis == frozenset({"fiscal", "secretario"})


def test_auto_e_ato_perguntam_so_quando_alterados(
    qtbot: QtBot, banco: Banco, roteiro: Any, digitar: Digitar
) -> None:
    dialogo = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal", login="fiscal")))
    _mostrar(qtbot, dialogo)
    qtbot.keyClick(dialogo.local, Qt.Key.Key_Escape)  # the defaults (today, now) are "as loaded"
    _sem_caixa()
    assert not dialogo.isVisible()

    dialogo = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal", login="fiscal")))
    _mostrar(qtbot, dialogo)
    digitar(dialogo.local, "Terminal")
    qtbot.keyClick(dialogo.local, Qt.Key.Key_Escape)
    assert ap.responder_caixa(qtbot, BOTAO.Cancel) == PERGUNTA_DESCARTAR
    assert dialogo.isVisible() and dialogo.local.text() == "Terminal"

    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    tela = _tela(qtbot, banco, r.id, "protocolo")
    ato = _abrir(qtbot, tela, "registrar_intimacao_auto", atos.DialogoIntimacao)
    qtbot.mouseClick(ato.botoes.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    _sem_caixa()
    assert not ato.isVisible()
    ato = _abrir(qtbot, tela, "registrar_intimacao_auto", atos.DialogoIntimacao)
    digitar(ato.recibo, "AR 123")
    qtbot.mouseClick(ato.botoes.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert ap.responder_caixa(qtbot, BOTAO.Discard) == PERGUNTA_DESCARTAR
    assert not ato.isVisible()
    assert fabrica.contagens(banco)["intimacao"] == 0
