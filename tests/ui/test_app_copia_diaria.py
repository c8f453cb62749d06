"""The daily copy runs beside the login window; the main window's status bar reports how it went."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from secretaria.ui import app


@dataclass
class _Copia:
    copia: Path | None = None
    erro: str | None = None
    viva: bool = True

    def is_alive(self) -> bool:
        return self.viva


def test_barra_de_status_diz_andamento_depois_o_resultado(qtbot: QtBot) -> None:
    janela = QMainWindow()
    qtbot.addWidget(janela)
    copia = _Copia()
    app._informar_copia(janela, copia)
    assert janela.statusBar().currentMessage() == "Fazendo a cópia de segurança diária do banco de dados…"
    copia.copia, copia.viva = Path("/dados/backups/secretaria-2026-11-30.sqlite"), False
    qtbot.waitUntil(lambda: "feita" in janela.statusBar().currentMessage(), timeout=3000)
    assert (
        janela.statusBar().currentMessage()
        == "Cópia de segurança diária feita: secretaria-2026-11-30.sqlite."
    )


def test_barra_de_status_diz_por_que_a_copia_falhou(qtbot: QtBot) -> None:
    janela = QMainWindow()
    qtbot.addWidget(janela)
    app._informar_copia(janela, _Copia(erro="disco cheio", viva=False))
    assert janela.statusBar().currentMessage() == "A cópia de segurança diária não foi feita: disco cheio"


def test_copia_parcial_de_processo_encerrado_e_removida(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from secretaria.cli import CopiaDiaria
    from secretaria.services.semente import abrir_e_semear

    banco = abrir_e_semear(f"sqlite:///{tmp_path / 'secretaria.sqlite'}")
    try:
        pasta = tmp_path / "backups"
        pasta.mkdir()
        morto = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
        abandonada = pasta / f".secretaria-2026-11-29.sqlite.{int(morto.stdout)}.parcial"
        viva = pasta / f".secretaria-2026-11-30.sqlite.{os.getppid()}.parcial"
        abandonada.write_bytes(b"meia copia")
        viva.write_bytes(b"copia em andamento")
        copia = CopiaDiaria(banco)
        copia.start()
        copia.join()
        assert copia.erro is None and copia.copia is not None and copia.copia.exists()
        assert not abandonada.exists()
        assert viva.exists()  # a running program's copy is left alone
    finally:
        banco.fechar()
