"""Login, refusals beside the password, the demo logins, and the first-run administrator."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import SISTEMA
from secretaria.services.contas import criar_usuario, existe_usuario
from secretaria.ui.login import DialogoLogin, DialogoPrimeiroAcesso, precisa_primeiro_acesso
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.edicao import PERGUNTA_DESCARTAR


def _usuario(banco: Banco, login: str = "maria", papeis: tuple[str, ...] = ("protocolo",)) -> None:
    criar_usuario(banco.uow(), SISTEMA, login=login, nome="Maria Souza", senha="segredo123", papeis=papeis)


def _dialogo(qtbot: QtBot, banco: Banco, demo: bool = False) -> DialogoLogin:
    dialogo = DialogoLogin(banco, demo=demo)
    qtbot.addWidget(dialogo)
    with qtbot.waitActive(dialogo):
        dialogo.show()
    return dialogo


def test_senha_errada_aparece_ao_lado_da_senha_e_nao_entra(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _usuario(banco_sqlite)
    dialogo = _dialogo(qtbot, banco_sqlite)
    qtbot.keyClicks(dialogo.usuario, "maria")
    qtbot.keyClicks(dialogo.senha, "errada999")
    qtbot.keyClick(dialogo.senha, Qt.Key.Key_Return)
    assert dialogo.form.mensagem("senha") == "Usuário ou senha incorretos."
    assert dialogo.isVisible() and dialogo.ator is None
    assert dialogo.senha.hasFocus()


def test_usuario_vazio_e_desconhecido(qtbot: QtBot, banco_sqlite: Banco) -> None:
    dialogo = _dialogo(qtbot, banco_sqlite)
    dialogo.entrar()
    assert dialogo.form.mensagem("login") == "Informe o usuário."
    qtbot.keyClicks(dialogo.usuario, "ninguem")
    qtbot.keyClicks(dialogo.senha, "qualquer1")
    dialogo.entrar()
    assert dialogo.form.mensagem("senha") == "Usuário ou senha incorretos."
    assert dialogo.form.mensagem("login") == ""


def test_bloqueio_apos_cinco_falhas(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _usuario(banco_sqlite)
    dialogo = _dialogo(qtbot, banco_sqlite)
    dialogo.usuario.setText("maria")
    for _ in range(5):
        dialogo.senha.setText("errada999")
        dialogo.entrar()
    assert "bloqueada" in dialogo.form.mensagem("senha")
    dialogo.senha.setText("segredo123")
    dialogo.entrar()
    assert "bloqueada" in dialogo.form.mensagem("senha")
    assert dialogo.ator is None


def test_senha_certa_entra(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _usuario(banco_sqlite)
    dialogo = _dialogo(qtbot, banco_sqlite)
    qtbot.keyClicks(dialogo.usuario, "Maria ")
    qtbot.keyClicks(dialogo.senha, "segredo123")
    with qtbot.waitSignal(dialogo.accepted):
        qtbot.keyClick(dialogo.senha, Qt.Key.Key_Return)
    assert dialogo.ator is not None
    assert dialogo.ator.login == "maria" and dialogo.ator.papeis == frozenset({"protocolo"})


def test_banco_de_demonstracao_mostra_os_logins(qtbot: QtBot, banco_sqlite: Banco) -> None:
    from secretaria.demo.popular import SENHA_DEMO, USUARIOS_DEMO

    for login, nome, papeis in USUARIOS_DEMO[:2]:
        criar_usuario(banco_sqlite.uow(), SISTEMA, login=login, nome=nome, senha=SENHA_DEMO, papeis=papeis)
    dialogo = _dialogo(qtbot, banco_sqlite, demo=True)
    assert "DEMONSTRAÇÃO" in dialogo.windowTitle()
    assert dialogo.lista_demo is not None
    textos = [dialogo.lista_demo.item(i).text() for i in range(dialogo.lista_demo.count())]
    assert textos[1] == "fiscal — Fábio Fiscal (Fiscal)"
    item = dialogo.lista_demo.item(1)
    rect = dialogo.lista_demo.visualItemRect(item)
    qtbot.mouseClick(dialogo.lista_demo.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dialogo.usuario.text() == "fiscal" and dialogo.senha.text() == SENHA_DEMO
    with qtbot.waitSignal(dialogo.accepted):
        qtbot.keyClick(dialogo.senha, Qt.Key.Key_Return)
    assert dialogo.ator is not None and dialogo.ator.nome == "Fábio Fiscal"


def test_primeiro_acesso_cria_o_administrador(qtbot: QtBot, banco: Banco) -> None:
    assert precisa_primeiro_acesso(banco)
    dialogo = DialogoPrimeiroAcesso(banco)
    qtbot.addWidget(dialogo)
    dialogo.show()
    qtbot.keyClicks(dialogo.nome, "Ana Lima")
    qtbot.keyClicks(dialogo.login, "ana")
    qtbot.keyClicks(dialogo.senha, "curta")
    qtbot.keyClicks(dialogo.repetir, "curta")
    dialogo.criar()
    assert dialogo.form.mensagem("senha") == "A senha deve ter pelo menos 8 caracteres."
    dialogo.senha.setText("boasenha1")
    dialogo.repetir.setText("boasenha2")
    dialogo.criar()
    assert dialogo.form.mensagem("repetir") == "As senhas não conferem."
    assert not existe_usuario(banco.uow())  # nothing written on a refusal
    dialogo.reject()  # Escape with the form filled in: asked first, and "Continuar editando" keeps it
    assert mensagens.responder(QMessageBox.StandardButton.Cancel) == PERGUNTA_DESCARTAR
    assert dialogo.isVisible() and dialogo.nome.text() == "Ana Lima"
    dialogo.repetir.setText("boasenha1")
    with qtbot.waitSignal(dialogo.accepted):
        dialogo.criar()
    assert dialogo.ator is not None and dialogo.ator.papeis == frozenset({"administrador"})
    assert not precisa_primeiro_acesso(banco)


def test_entrar_pede_o_administrador_so_num_banco_real_vazio(
    qtbot: QtBot, banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QDialog

    from secretaria.ui import app

    abertos: list[str] = []

    def primeiro_exec(self: DialogoPrimeiroAcesso) -> int:
        abertos.append("primeiro")
        self.nome.setText("Ana Lima")
        self.login.setText("ana")
        self.senha.setText("boasenha1")
        self.repetir.setText("boasenha1")
        self.criar()
        return int(self.result())

    def login_exec(self: DialogoLogin) -> int:
        abertos.append("login")
        return int(QDialog.DialogCode.Rejected)

    monkeypatch.setattr(DialogoPrimeiroAcesso, "exec", primeiro_exec)
    monkeypatch.setattr(DialogoLogin, "exec", login_exec)
    contexto = app.entrar(banco_sqlite, demo=False)
    assert abertos == ["primeiro"]
    assert contexto is not None and contexto.ator.login == "ana"  # type: ignore[attr-defined]
    assert app.entrar(banco_sqlite, demo=False) is None  # users exist now: the login dialog, cancelled
    assert abertos == ["primeiro", "login"]
