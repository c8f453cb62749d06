"""Restoring a backup from the window (Administração → Sistema): the copy checked in the background, a
confirmation that names what will be lost (Voltar changes nothing), the restore, then the window closes."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco, abrir_banco, arquivo_sqlite
from secretaria.models import Auditoria, Usuario
from secretaria.services import backup, contas
from secretaria.services.base import SISTEMA
from secretaria.ui.admin.sistema import PainelSistema
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import arquivos, mensagens
from tests.helpers.bancos import logins


def _usuario(banco: Banco, login: str, papeis: tuple[str, ...] = ("fiscal",)) -> None:
    contas.criar_usuario(banco.uow(), SISTEMA, login=login, nome=login, senha="segredo123", papeis=papeis)


@pytest.fixture
def cenario(banco_sqlite: Banco, tmp_path: Path) -> tuple[Contexto, Path]:
    """An administrator's window on a database with a copy made before "depois" was created."""
    _usuario(banco_sqlite, "ana", ("administrador",))
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    quando = datetime(2026, 11, 29, 18, 5).timestamp()
    os.utime(copia, (quando, quando))
    _usuario(banco_sqlite, "depois")
    return Contexto(banco_sqlite, contas.autenticar(banco_sqlite.uow(), "ana", "segredo123")), copia


def _painel(qtbot: QtBot, contexto: Contexto) -> tuple[QWidget, PainelSistema]:
    janela = QWidget()
    qtbot.addWidget(janela)
    painel = PainelSistema(contexto, janela)
    janela.show()
    return janela, painel


def _esperar_tarefa(qtbot: QtBot, painel: PainelSistema) -> None:
    assert painel.tarefa is not None
    tarefa = painel.tarefa
    qtbot.waitUntil(
        lambda: (
            tarefa.isFinished()
            and painel.botao_restaurar.isEnabled()  # the thread's end has reached the window
            and mensagens.caixa_aberta() is not None
        ),
        timeout=60_000,
    )


def _escolher(monkeypatch: pytest.MonkeyPatch, origem: Path) -> None:
    monkeypatch.setattr(arquivos, "abrir_arquivo", lambda *a, **k: origem)


def test_voltar_na_confirmacao_nao_altera_nada(
    qtbot: QtBot, cenario: tuple[Contexto, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    contexto, copia = cenario
    _janela, painel = _painel(qtbot, contexto)
    _escolher(monkeypatch, copia)
    painel.botao_restaurar.click()
    _esperar_tarefa(qtbot, painel)
    caixa = mensagens.caixa_aberta()
    assert caixa is not None
    assert caixa.button(QMessageBox.StandardButton.Yes).text() == "&Restaurar"
    assert caixa.button(QMessageBox.StandardButton.No).text() == "&Voltar"
    assert caixa.defaultButton() is caixa.button(QMessageBox.StandardButton.No)
    texto = mensagens.responder(QMessageBox.StandardButton.No)
    assert "gravada em 29/11/2026 às 18:05" in texto
    assert "último registro de auditoria nela: nº 1" in texto
    # "depois" created, then ana's login (logins are audited too): two rows newer than the copy.
    assert (
        "Será perdido o que o banco atual registrou depois dela: 2 registros de auditoria (o último, nº 3"
        in texto
    )
    assert "precisará ser lançado de novo" in texto and "o programa será fechado" in texto

    assert logins(contexto.banco.url) == {"ana", "depois"}
    arquivo = arquivo_sqlite(contexto.banco.url)
    assert arquivo is not None and not list(arquivo.parent.glob("*.substituido-*"))
    assert painel.botao_restaurar.isEnabled()
    with contexto.banco.leitura() as s:  # the window goes on working on its database
        assert s.scalar(sa.select(sa.func.count()).select_from(Auditoria)) == 3


def test_restaurar_pela_janela_e_fechar(
    qtbot: QtBot, cenario: tuple[Contexto, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    contexto, copia = cenario
    janela, painel = _painel(qtbot, contexto)
    _escolher(monkeypatch, copia)
    painel.botao_restaurar.click()
    _esperar_tarefa(qtbot, painel)
    assert painel.tarefa is not None and painel.tarefa.dialogo is not None
    assert painel.tarefa.dialogo.labelText() == "Calculando o SHA-256 da cópia…"  # the checks' progress shown
    with qtbot.waitSignal(painel.restaurado, timeout=60_000) as restaurado:
        mensagens.responder(QMessageBox.StandardButton.Yes)
    assert "restaurado" in str(restaurado.args[0])
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert "abra-o de novo" in texto and "guardado em" in texto
    assert not janela.isVisible()  # the window closed: the program is opened again on the restored file

    assert logins(contexto.banco.url) == {"ana"}
    banco = abrir_banco(contexto.banco.url, migrar=False)
    try:
        with banco.leitura() as s:
            ultimo = s.scalars(sa.select(Auditoria).order_by(Auditoria.id.desc()).limit(1)).one()
            assert (ultimo.acao, ultimo.usuario_login) == ("restaurar_banco", "ana")
    finally:
        banco.fechar()


def test_copia_ruim_recusada_pela_janela(
    qtbot: QtBot, cenario: tuple[Contexto, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    contexto, copia = cenario
    ruim = tmp_path / "ruim.sqlite"
    ruim.write_bytes(copia.read_bytes())
    import sqlite3

    con = sqlite3.connect(ruim)
    con.execute("DROP TABLE decisao")
    con.commit()
    con.close()
    _janela, painel = _painel(qtbot, contexto)
    _escolher(monkeypatch, ruim)
    painel.botao_restaurar.click()
    _esperar_tarefa(qtbot, painel)
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert "falta a tabela decisao" in texto and "Nada foi alterado" in texto
    assert logins(contexto.banco.url) == {"ana", "depois"}


def test_banco_aberto_em_outro_programa_recusado_antes_da_confirmacao(
    qtbot: QtBot, cenario: tuple[Contexto, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    contexto, copia = cenario
    outro = abrir_banco(contexto.banco.url, migrar=False)  # another window of the program
    try:
        with outro.leitura() as s:
            s.scalars(sa.select(Usuario.login)).all()
            _janela, painel = _painel(qtbot, contexto)
            _escolher(monkeypatch, copia)
            painel.botao_restaurar.click()
            _esperar_tarefa(qtbot, painel)
            texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    finally:
        outro.fechar()
    assert "aberto em outro computador ou programa" in texto and "Nada foi alterado" in texto
    assert logins(contexto.banco.url) == {"ana", "depois"}


def test_so_o_administrador_ve_o_botao(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _usuario(banco_sqlite, "fabio")
    contexto = Contexto(banco_sqlite, contas.autenticar(banco_sqlite.uow(), "fabio", "segredo123"))
    _janela, painel = _painel(qtbot, contexto)
    assert not painel.botao_restaurar.isVisible()


def test_postgresql_diz_que_se_restaura_com_pg_restore(
    qtbot: QtBot, banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    if banco.eh_sqlite:
        pytest.skip("só PostgreSQL")
    _usuario(banco, "ana", ("administrador",))
    contexto = Contexto(banco, contas.autenticar(banco.uow(), "ana", "segredo123"))
    monkeypatch.setattr(arquivos, "abrir_arquivo", lambda *a, **k: pytest.fail("não escolhe arquivo"))
    _janela, painel = _painel(qtbot, contexto)
    painel.botao_restaurar.click()
    assert "pg_restore --no-owner" in mensagens.responder(QMessageBox.StandardButton.Ok)
