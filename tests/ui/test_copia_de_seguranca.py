"""The backup from the window (SQLite): the progress bar moves while the pages are copied and while the copy
is checked, and Cancelar, in either step, stops the copy and leaves nothing in the chosen folder."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressDialog, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco, copia
from secretaria.models import Configuracao
from secretaria.services.base import Ator
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import fazer_copia_de_seguranca
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.tarefas import Tarefa, aguardar_tarefas

PASTA_PNG = Path("/tmp/h31")
Cenario = tuple[Contexto, Path]
VERIFICANDO = "Verificando a integridade da cópia…"


@pytest.fixture
def cenario(banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cenario:
    """A database of some hundred pages, copied a few pages per step, into an empty folder."""
    with banco_sqlite.engine.begin() as conn:
        linhas = [{"chave": f"bench_{i}", "valor": "x" * 3000} for i in range(300)]
        conn.execute(sa.insert(Configuracao), linhas)
    monkeypatch.setattr(copia, "_PAGINAS_POR_PASSO", 16)
    monkeypatch.setattr(copia, "_PASSOS_SQLITE_POR_AVISO", 200)
    pasta = tmp_path / "copias"
    pasta.mkdir()
    destino = pasta / "copia.sqlite"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    ator = Ator("admin", "Administradora", frozenset({"administrador"}))
    return Contexto(banco_sqlite, ator, demo=False), destino


class Trava:
    """Holds the copy inside its `progresso` once `parar(feitas, total, etapa, chamada)` says so, until the
    test lets it go: the test then sees the dialog at that moment and presses Cancelar before it ends."""

    def __init__(self) -> None:
        self.chamadas: list[tuple[int, int, str]] = []
        self.liberar = threading.Event()
        self.parar: Callable[[int, int, str, int], bool] = lambda *_a: False

    def esperar(self, feitas: int, total: int, etapa: str) -> None:
        self.chamadas.append((feitas, total, etapa))
        if self.parar(feitas, total, etapa, len(self.chamadas)):
            while not self.liberar.is_set():  # short sleeps, not a timed wait (libfaketime)
                time.sleep(0.005)


@pytest.fixture
def trava(monkeypatch: pytest.MonkeyPatch) -> Iterator[Trava]:
    original = Tarefa._relatar
    t = Trava()

    def relatar(self: Tarefa, feitas: int, total: int, etapa: str) -> None:
        t.esperar(feitas, total, etapa)
        original(self, feitas, total, etapa)

    monkeypatch.setattr(Tarefa, "_relatar", relatar)
    yield t
    t.liberar.set()
    aguardar_tarefas()


def _copiar(qtbot: QtBot, contexto: Contexto) -> tuple[QWidget, QProgressDialog | None]:
    """The backup started from a window, as the menu does; its progress dialog, once there is one."""
    janela = _janela(qtbot)
    fazer_copia_de_seguranca(janela, contexto)
    dialogos = janela.findChildren(QProgressDialog)
    return janela, dialogos[0] if len(dialogos) == 1 else None


def _janela(qtbot: QtBot) -> QWidget:
    janela = QWidget()
    qtbot.addWidget(janela)
    janela.resize(900, 600)
    janela.show()
    return janela


def _cancelar(qtbot: QtBot, dialogo: QProgressDialog) -> None:
    botoes = [b for b in dialogo.findChildren(QPushButton) if b.text() == "Cancelar"]
    assert len(botoes) == 1
    qtbot.mouseClick(botoes[0], Qt.MouseButton.LeftButton)


def _nada_na_pasta(destino: Path) -> None:
    assert sorted(p.name for p in destino.parent.iterdir()) == []


def test_barra_anda_e_cancelar_na_copia_das_paginas_nao_deixa_nada(
    qtbot: QtBot, cenario: Cenario, trava: Trava
) -> None:
    contexto, destino = cenario
    chamadas = trava.chamadas
    trava.parar = lambda _f, _t, _e, n: n == 4
    _, dialogo = _copiar(qtbot, contexto)
    assert dialogo is not None
    valores: set[int] = set()

    def tres_passos_mostrados() -> bool:
        valores.add(dialogo.value())
        return len(chamadas) >= 4 and dialogo.value() == chamadas[2][0]

    qtbot.waitUntil(tres_passos_mostrados, timeout=30_000)
    assert dialogo.maximum() == chamadas[0][1] > chamadas[2][0] > chamadas[0][0] > 0  # pages, in steps
    assert len(valores - {-1, 0}) >= 1 and dialogo.isVisible()
    PASTA_PNG.mkdir(exist_ok=True)
    dialogo.grab().save(str(PASTA_PNG / "copia_progresso.png"))
    _cancelar(qtbot, dialogo)
    assert dialogo.labelText() == "Cancelando… (nada será gravado)"
    trava.liberar.set()
    assert aguardar_tarefas()
    assert chamadas[-1][1] > chamadas[-1][0]  # it stopped before the last page
    _nada_na_pasta(destino)
    assert mensagens.caixa_aberta() is None  # cancelled: no "copy written" message


def test_cancelar_na_verificacao_interrompe_e_nao_deixa_nada(
    qtbot: QtBot, cenario: Cenario, trava: Trava
) -> None:
    contexto, destino = cenario
    chamadas = trava.chamadas
    # The check's second report comes from inside PRAGMA integrity_check (SQLite's progress handler).
    trava.parar = lambda _f, _t, _e, _n: [c[2] for c in chamadas].count(VERIFICANDO) == 2
    _, dialogo = _copiar(qtbot, contexto)
    assert dialogo is not None
    qtbot.waitUntil(lambda: dialogo.labelText() == VERIFICANDO, timeout=30_000)
    assert dialogo.maximum() == 0  # a busy bar: SQLite does not say how long the check takes
    assert destino.exists()  # the pages are copied
    PASTA_PNG.mkdir(exist_ok=True)
    dialogo.grab().save(str(PASTA_PNG / "copia_verificando.png"))
    _cancelar(qtbot, dialogo)
    trava.liberar.set()
    assert aguardar_tarefas()
    assert chamadas[-1] == (0, 0, VERIFICANDO)  # stopped during the check, never reached its end
    _nada_na_pasta(destino)


def test_copia_completa_pela_janela_e_verificada(qtbot: QtBot, cenario: Cenario, trava: Trava) -> None:
    contexto, destino = cenario
    chamadas = trava.chamadas
    _copiar(qtbot, contexto)
    assert aguardar_tarefas()
    caixa = mensagens.caixa_aberta()
    assert caixa is not None and "verificação de integridade: ok" in caixa.text()
    caixa.close()
    paginas = [c for c in chamadas if c[2] != VERIFICANDO]
    assert len({c[0] for c in paginas}) > 3 and paginas[-1][0] == paginas[-1][1]
    assert chamadas[-1] == (1, 1, VERIFICANDO)
    assert sum(1 for c in chamadas if c == (0, 0, VERIFICANDO)) > 1  # the bar was told during the check
    copia = sa.create_engine(f"sqlite:///{destino}")
    with copia.connect() as conn:
        assert (
            conn.execute(sa.text("SELECT count(*) FROM configuracao WHERE chave LIKE 'bench_%'")).scalar()
            == 300
        )
    copia.dispose()
