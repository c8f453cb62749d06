"""Ajuda → Sobre: the version (from the package metadata, which the frozen build carries) and where the
licences of the bundled libraries are."""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import JanelaPrincipal


def _janela(qtbot: QtBot, banco: Banco) -> JanelaPrincipal:
    criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha="segredo123", papeis=("consulta",))
    janela = JanelaPrincipal(Contexto(banco, autenticar(banco.uow(), "ana", "segredo123")))
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    return janela


def test_sobre_mostra_a_versao(qtbot: QtBot, banco_sqlite: Banco) -> None:
    caixa = _janela(qtbot, banco_sqlite).sobre()
    assert f"Secretaria {version('secretaria')}\n" in caixa.text()
    assert "licencas" in caixa.text()  # says where the built program keeps them
    caixa.close()


def test_sobre_no_programa_montado_aponta_a_pasta_de_licencas(
    qtbot: QtBot, banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "Secretaria" / "secretaria"))
    caixa = _janela(qtbot, banco_sqlite).sobre()
    assert str(tmp_path.resolve() / "Secretaria" / "licencas" / "LEIA-ME.txt") in caixa.text()
    caixa.adjustSize()
    caixa.grab().save("/tmp/h24c-sobre.png")
    caixa.close()
