"""A save from a form while another connection holds the database: the window never waits on
the GUI thread. The save goes to the background at once, says "Aguardando o banco de dados…" while the
window's own timer keeps running, gives up on Cancelar with nothing written, and succeeds by itself once
the lock is released, closing the dialog as a synchronous save would."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox, QProgressDialog, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from secretaria import db
from secretaria.db import Banco
from secretaria.services import cadastros
from secretaria.services.base import SISTEMA
from secretaria.services.caso import obter_caso
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui.cadastros.operadoras import DialogoOperadora
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo import atos
from secretaria.ui.processo.tela_caso import TelaCaso
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.gravacao import DESISTIU, ESPERA_NA_JANELA
from secretaria.ui.widgets.tarefas import aguardar_tarefas
from tests.helpers import apoio_processo as ap
from tests.helpers.bancos import travado

CNPJ = "11222333000181"


def _travado(banco: Banco, registro_id: int, tabela: str = "operadora") -> AbstractContextManager[None]:
    """Another program holds the lock the save needs: SQLite's write lock; on PostgreSQL the record's row."""
    return travado(banco, f"SELECT id FROM {tabela} WHERE id = {registro_id} FOR UPDATE")


def _bairro(banco: Banco, operadora_id: int) -> str | None:
    with banco.leitura() as s:
        return cadastros.obter_operadora(s, operadora_id).dados.bairro


def _aguardando(janela: QWidget) -> QProgressDialog:
    (dialogo,) = [d for d in janela.findChildren(QProgressDialog) if d.isVisible()]
    return dialogo


@pytest.fixture
def montado(qtbot: QtBot, banco: Banco) -> tuple[QWidget, DialogoOperadora, int, list[int]]:
    criar_usuario(
        banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=("administrador",)
    )
    contexto = Contexto(banco, autenticar(banco.uow(), "ana", "segredo123"))
    oid = cadastros.criar_operadora(
        banco.uow(),
        contexto.ator,
        cadastros.DadosOperadora(razao_social="Alfa Ltda.", cnpj=CNPJ, logradouro="Rua A"),
    )
    janela = QWidget()
    qtbot.addWidget(janela)
    janela.resize(1000, 700)
    janela.show()
    tiques: list[int] = []
    relogio_da_janela = QTimer(janela)
    relogio_da_janela.timeout.connect(lambda: tiques.append(1))
    relogio_da_janela.start(10)
    dialogo = DialogoOperadora(contexto, oid, janela)
    qtbot.addWidget(dialogo)
    dialogo.show()
    dialogo.bairro.setText("Centro")
    return janela, dialogo, oid, tiques


def test_gravar_com_o_banco_ocupado_espera_fora_da_janela_e_desiste_no_cancelar(
    qtbot: QtBot, banco: Banco, montado: tuple[QWidget, DialogoOperadora, int, list[int]]
) -> None:
    _janela, dialogo, oid, tiques = montado
    with _travado(banco, oid):
        inicio = time.monotonic()
        dialogo.salvar()
        # back to the event loop after the short try, not after busy_timeout (15 s) or the lock's end
        assert time.monotonic() - inicio < ESPERA_NA_JANELA + 1.5
        espera = _aguardando(dialogo)
        assert espera.windowModality() == Qt.WindowModality.WindowModal  # the form cannot change meanwhile
        assert espera.labelText().startswith("Aguardando o banco de dados, ocupado por outro programa…")
        tiques.clear()
        qtbot.waitUntil(lambda: len(tiques) >= 30, timeout=3000)  # the window's own timer keeps running
        assert dialogo.isVisible()
        ap.salvar_png(espera, "gui-espera-aguardando")
        (cancelar,) = espera.findChildren(QPushButton)
        assert cancelar.text() == "Cancelar"
        cancelar.click()
        assert aguardar_tarefas(20_000)
        assert mensagens.caixa_aberta() is None
        assert dialogo.isVisible()  # still open with what was typed, told that nothing was written
        assert dialogo.bairro.text() == "Centro"
        assert dialogo.form.mensagem("") == DESISTIU
        assert _bairro(banco, oid) != "Centro"


def test_gravar_com_o_banco_ocupado_grava_quando_o_banco_e_liberado(
    qtbot: QtBot, banco: Banco, montado: tuple[QWidget, DialogoOperadora, int, list[int]]
) -> None:
    _janela, dialogo, oid, tiques = montado
    with _travado(banco, oid):
        dialogo.salvar()
        espera = _aguardando(dialogo)
        tiques.clear()
        qtbot.waitUntil(lambda: len(tiques) >= 20, timeout=3000)
        assert _bairro(banco, oid) != "Centro" and dialogo.isVisible()
    # the other program let go: the waiting save goes through and the dialog closes accepted
    assert aguardar_tarefas(20_000)
    assert mensagens.caixa_aberta() is None
    assert not espera.isVisible()
    assert not dialogo.isVisible() and dialogo.result() == DialogoOperadora.DialogCode.Accepted
    assert _bairro(banco, oid) == "Centro"


def test_banco_ocupado_por_muito_tempo_o_usuario_e_avisado_e_desiste(
    qtbot: QtBot,
    banco: Banco,
    montado: tuple[QWidget, DialogoOperadora, int, list[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Left waiting, the user is told within seconds and offered "Tentar de novo" or "Desistir"; Desistir
    leaves the form open with the reason beside it and nothing written."""
    monkeypatch.setattr(db, "ESPERA_COM_AVISO", 1.0)
    _janela, dialogo, oid, _tiques = montado
    with _travado(banco, oid):
        inicio = time.monotonic()
        dialogo.salvar()
        caixa = mensagens.caixa_aberta()  # once the background wait is over
        assert caixa is not None
        assert time.monotonic() - inicio < 10
        assert "nada foi gravado" in caixa.text()
        botoes = {b.text(): b for b in caixa.buttons()}
        assert {"&Tentar de novo", "&Desistir"} <= set(botoes)
        ap.salvar_png(caixa, "gui-espera-ocupado")
        botoes["&Desistir"].click()
        qtbot.waitUntil(lambda: mensagens.caixa_aberta(aguardar=False) is None, timeout=3000)
        assert dialogo.isVisible()
        assert "nada foi gravado" in dialogo.form.mensagem("")
        assert _bairro(banco, oid) != "Centro"


def test_gravar_sem_ninguem_no_banco_e_imediato(
    qtbot: QtBot, banco: Banco, montado: tuple[QWidget, DialogoOperadora, int, list[int]]
) -> None:
    """The common case stays synchronous: the row is written when `salvar` returns, no wait dialog."""
    _janela, dialogo, oid, _tiques = montado
    dialogo.salvar()
    assert _bairro(banco, oid) == "Centro"
    assert not dialogo.isVisible()
    assert not [d for d in dialogo.findChildren(QProgressDialog) if d.isVisible()]


@pytest.mark.usefixtures("sem_caixas_abertas")
def test_ato_do_caso_com_o_banco_ocupado_espera_e_registra(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """A case act (an intimação attempt) while the auto's row or the database is held: the act waits off
    the GUI thread, then is recorded and the case screen says so, as it would at once."""
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    tela = ap.manter(TelaCaso(ap.contexto(banco, "protocolo"), r.id))
    qtbot.addWidget(tela)
    tela.show()
    qtbot.mouseClick(tela.botoes_atos["registrar_intimacao_auto"], Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, atos.DialogoIntimacao)
    dialogo.data.editor.setText("20112026")
    dialogo.resultado.setCurrentIndex(dialogo.resultado.findData("recusada"))
    with _travado(banco, r.id, "auto_infracao"):
        qtbot.mouseClick(
            dialogo.botoes.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton
        )
        espera = _aguardando(dialogo)
        assert espera.labelText().startswith("Aguardando o banco de dados")
        with banco.leitura() as s:
            assert not obter_caso(s, r.id).intimacoes  # nothing recorded while the lock is held
    assert "sem êxito" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.Ok)
    assert ap.dialogo_aberto(atos.DialogoIntimacao) is None  # closed accepted (and deleted)
    with banco.leitura() as s:
        assert len(obter_caso(s, r.id).intimacoes) == 1
