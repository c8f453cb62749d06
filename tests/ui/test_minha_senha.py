"""Accounts on screen: "Alterar minha senha…" from the main window's menu, the administrator's reset with
"Exigir troca no próximo acesso", and the login that cannot be passed without choosing one's own password."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMenu
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services import contas
from secretaria.services.base import SISTEMA
from secretaria.ui.admin.usuarios import DialogoNovaSenha, PaginaUsuarios
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.login import DialogoLogin, DialogoMinhaSenha
from tests.helpers import apoio_processo as ap


@pytest.fixture(autouse=True)
def _scrypt_barato(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(contas, "_N", 2**10)


def _conta(
    banco: Banco, login: str, senha: str = "segredo123", papeis: tuple[str, ...] = ("protocolo",)
) -> int:
    return contas.criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.capitalize(), senha=senha, papeis=papeis
    )


def _acoes(banco: Banco, acao: str) -> int:
    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.count()).where(Auditoria.acao == acao)) or 0)


def test_alterar_minha_senha_pelo_menu(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _conta(banco_sqlite, "maria")
    contexto = Contexto(banco_sqlite, contas.autenticar(banco_sqlite.uow(), "maria", "segredo123"))
    janela = ap.manter(JanelaPrincipal(contexto))
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    arquivo = janela.menuBar().actions()[0].menu()
    assert isinstance(arquivo, QMenu)
    assert "&Alterar minha senha…" in [a.text() for a in arquivo.actions()]
    janela.acao_minha_senha.trigger()
    dialogo = janela.dialogo_senha
    assert isinstance(dialogo, DialogoMinhaSenha)
    qtbot.waitUntil(dialogo.isVisible)
    ap.salvar_png(dialogo, "minha-senha")

    # Wrong current password, then the two new ones differing, then a short one: each beside its field.
    qtbot.keyClicks(dialogo.senha_atual, "errada000")
    qtbot.keyClicks(dialogo.nova_senha, "nova12345")
    qtbot.keyClicks(dialogo.repetir, "nova12345")
    qtbot.keyClick(dialogo.repetir, Qt.Key.Key_Return)
    assert dialogo.erro("senha_atual") == "A senha atual não confere."
    dialogo.senha_atual.setText("segredo123")
    dialogo.repetir.setText("outra1234")
    qtbot.keyClick(dialogo.repetir, Qt.Key.Key_Return)
    assert dialogo.erro("repetir").startswith("As senhas não conferem")
    qtbot.wait(50)
    ap.salvar_png(dialogo, "minha-senha-erro")
    assert dialogo.erro("senha_atual") == ""
    dialogo.nova_senha.setText("curta1")
    dialogo.repetir.setText("curta1")
    qtbot.keyClick(dialogo.repetir, Qt.Key.Key_Return)
    assert dialogo.erro("nova_senha") == "A senha deve ter pelo menos 8 caracteres."
    assert _acoes(banco_sqlite, "alterar_propria_senha") == 0

    dialogo.nova_senha.setText("nova12345")
    dialogo.repetir.setText("nova12345")
    qtbot.keyClick(dialogo.repetir, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialogo.isVisible())
    assert contas.autenticar(banco_sqlite.uow(), "maria", "nova12345").login == "maria"
    assert _acoes(banco_sqlite, "alterar_propria_senha") == 1

    # Escape cancels, nothing written.
    janela.acao_minha_senha.trigger()
    outro = janela.dialogo_senha
    assert outro is not None and outro is not dialogo
    qtbot.waitUntil(outro.isVisible)
    qtbot.keyClick(outro.senha_atual, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not outro.isVisible())
    assert _acoes(banco_sqlite, "alterar_propria_senha") == 1


def test_redefinir_senha_exige_troca_por_padrao(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _conta(banco_sqlite, "ana", papeis=("administrador",))
    contexto = Contexto(banco_sqlite, contas.autenticar(banco_sqlite.uow(), "ana", "segredo123"))
    bia = _conta(banco_sqlite, "bia")
    pagina = ap.manter(PaginaUsuarios(contexto))
    qtbot.addWidget(pagina)
    usuario = pagina.abrir(bia)
    assert usuario.botao_senha is not None
    qtbot.mouseClick(usuario.botao_senha, Qt.MouseButton.LeftButton)
    ds = usuario.dialogo_senha
    assert isinstance(ds, DialogoNovaSenha)
    qtbot.waitUntil(ds.isVisible)
    assert ds.temporaria.isChecked() and ds.temporaria.text() == "&Exigir troca no próximo acesso"
    ap.salvar_png(ds, "redefinir-senha")
    qtbot.keyClicks(ds.senha, "provisoria1")
    qtbot.keyClicks(ds.repetir, "provisoria1")
    qtbot.keyClick(ds.repetir, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not ds.isVisible())
    with banco_sqlite.leitura() as s:
        assert contas.obter_usuario(s, bia).trocar_senha
    assert "Senha provisória: troca exigida no próximo acesso" in usuario.situacao.text().splitlines()

    # Unchecked (by keyboard: Space on the box), the password the administrator set stays.
    usuario.redefinir_senha()
    ds2 = usuario.dialogo_senha
    qtbot.waitUntil(ds2.isVisible)
    ds2.senha.setText("definitiva1")
    ds2.repetir.setText("definitiva1")
    ds2.temporaria.setFocus()
    qtbot.keyClick(ds2.temporaria, Qt.Key.Key_Space)
    assert not ds2.temporaria.isChecked()
    ds2.salvar()
    with banco_sqlite.leitura() as s:
        assert not contas.obter_usuario(s, bia).trocar_senha


def test_senha_provisoria_leva_direto_a_troca_e_cancelar_sai(qtbot: QtBot, banco_sqlite: Banco) -> None:
    bia = _conta(banco_sqlite, "bia")
    contas.redefinir_senha(banco_sqlite.uow(), SISTEMA, bia, nova_senha="provisoria1", temporaria=True)
    login = ap.manter(DialogoLogin(banco_sqlite, demo=False))
    qtbot.addWidget(login)
    with qtbot.waitActive(login):
        login.show()
    saidas = _acoes(banco_sqlite, "saida")

    qtbot.keyClicks(login.usuario, "bia")
    qtbot.keyClicks(login.senha, "provisoria1")
    qtbot.keyClick(login.senha, Qt.Key.Key_Return)
    troca = login.dialogo_senha
    assert isinstance(troca, DialogoMinhaSenha) and login.ator is None
    qtbot.waitUntil(troca.isVisible)
    assert troca.findChild(QLabel, "aviso_provisoria") is not None
    ap.salvar_png(troca, "senha-provisoria")
    qtbot.keyClick(troca.nova_senha, Qt.Key.Key_Escape)  # Cancelar: the session just opened ends
    qtbot.waitUntil(lambda: login.dialogo_senha is None)
    assert login.isVisible() and login.ator is None
    assert "escolher uma senha sua" in login.form.mensagem("senha")
    assert _acoes(banco_sqlite, "saida") == saidas + 1

    qtbot.keyClicks(login.senha, "provisoria1")
    qtbot.keyClick(login.senha, Qt.Key.Key_Return)
    troca = login.dialogo_senha
    assert troca is not None
    qtbot.waitUntil(troca.isVisible)
    assert troca.senha_atual.text() == "provisoria1"  # just typed at the login
    qtbot.keyClicks(troca.nova_senha, "minha12345")
    qtbot.keyClicks(troca.repetir, "minha12345")
    with qtbot.waitSignal(login.accepted):
        qtbot.keyClick(troca.repetir, Qt.Key.Key_Return)
    assert login.ator is not None and login.ator.login == "bia"
    with banco_sqlite.leitura() as s:
        assert not contas.precisa_trocar_senha(s, login.ator)
