"""The program's start: what is loaded by the time the login is on screen, and the start-up work (the daily copy,
seeding the law's catalogue) that waits until then without being skipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco, abrir_banco
from secretaria.lei.catalogo import dispositivos
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui import app
from secretaria.ui.contexto import Contexto

# Nothing of these is needed to show the login (or the first-run dialog): each is loaded when a page, a
# document, a unit of work, the first F1 or the daily copy (started once the login has painted) first needs
# it. The ORM and the models were a third of the start; Alembic only loads when the schema must be upgraded.
_SO_DEPOIS_DO_LOGIN = (
    "matplotlib",
    "reportlab",
    "openpyxl",
    "alembic",
    "PySide6.QtPrintSupport",
    "sqlalchemy.orm",
    "secretaria.models",
    "secretaria.reports",
    "secretaria.demo",
    "secretaria.services.backup",
    "secretaria.services.contas",
    "secretaria.services.filas",
    "secretaria.services.importacao",
    "secretaria.services.mudancas",
    "secretaria.services.painel",
    "secretaria.services.manual",
    "secretaria.services.semente",
    "secretaria.services.vencimentos",
    "secretaria.ui.ajuda",
    "secretaria.ui.inicio",
    "secretaria.ui.janela_principal",
    "secretaria.ui.painel",
    "secretaria.ui.seletor_arquivo",
    "secretaria.ui.vigia",
    "secretaria.ui.widgets.arquivos",
    "secretaria.ui.widgets.exportar",
    "secretaria.ui.widgets.tarefas",
)

_PARTIDA = """
import os, sys
import secretaria.ui.login as login

PESADOS = {pesados!r}

def ao_mostrar(classe):
    original = classe.showEvent

    def mostrado(self, evento):
        original(self, evento)
        carregados = sorted(m for m in sys.modules if m in PESADOS or m.startswith(tuple(p + "." for p in PESADOS)))
        print(type(self).__name__, carregados, flush=True)
        os._exit(0)

    classe.showEvent = mostrado

ao_mostrar(login.DialogoLogin)
ao_mostrar(login.DialogoPrimeiroAcesso)
from secretaria.cli import main
main(["--db", {url!r}])
"""


def _partida(url: str) -> str:
    """Start the program as `secretaria --db URL` does and say which dialog showed and what heavy modules
    were loaded at that moment."""
    codigo = _PARTIDA.format(pesados=_SO_DEPOIS_DO_LOGIN, url=url)
    saida = subprocess.run(
        [sys.executable, "-c", codigo], capture_output=True, text=True, timeout=120, check=False
    )
    assert saida.stdout, saida.stderr
    return saida.stdout.strip()


def test_login_aparece_sem_carregar_o_que_so_serve_depois(banco: Banco) -> None:
    assert _partida(banco.url) == "DialogoPrimeiroAcesso []"  # an empty database asks for its administrator
    criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=["fiscal"])
    assert _partida(banco.url) == "DialogoLogin []"


def test_acao_so_depois_que_a_janela_pintou(qtbot: QtBot) -> None:
    feitos: list[str] = []
    janela = QWidget()
    qtbot.addWidget(janela)
    app.depois_de_pintar(janela, lambda: feitos.append("feito"))
    qtbot.wait(50)
    assert feitos == []  # not shown yet: nothing runs
    janela.show()
    qtbot.waitUntil(lambda: feitos == ["feito"], timeout=3000)
    janela.update()
    qtbot.wait(50)
    assert feitos == ["feito"]  # once, not on every paint


class _CopiaFalsa:
    copia: Path | None = None
    erro: str | None = None

    def __init__(self) -> None:
        self.iniciada = 0

    def is_alive(self) -> bool:
        return False

    def iniciar(self) -> None:
        self.iniciada += 1


def test_janela_principal_abre_com_o_catalogo_semeado_e_a_copia_iniciada(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window path no longer seeds before the login: by the main window, the catalogue is there."""
    banco = abrir_banco(f"sqlite:///{tmp_path / 'novo.sqlite'}")  # created and migrated, not seeded
    try:
        criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=["fiscal"])
        contexto = Contexto(banco, autenticar(banco.uow(), "ana", "segredo123"), False)

        def dispositivos_no_banco() -> int:
            with banco.engine.connect() as conexao:
                return int(conexao.execute(sa.text("SELECT count(*) FROM dispositivo")).scalar_one())

        assert dispositivos_no_banco() == 0
        vistos: list[int] = []

        class Janela(QMainWindow):
            def __init__(self, ctx: Contexto) -> None:
                super().__init__()
                vistos.append(dispositivos_no_banco())

        copia = _CopiaFalsa()
        # a login accepted before its dialog painted: the copy starts on the way to the main window
        monkeypatch.setattr(app, "entrar", lambda _banco, demo: contexto)
        monkeypatch.setattr("secretaria.ui.janela_principal.JanelaPrincipal", Janela)
        monkeypatch.setattr(app, "_copia_diaria", copia)
        monkeypatch.setattr(QApplication, "exec", staticmethod(lambda: 0))
        assert app.executar(banco, demo=False) == 0
        assert vistos == [len(dispositivos())]
        assert copia.iniciada == 1
    finally:
        for janela in QApplication.topLevelWidgets():
            janela.close()
        banco.fechar()
