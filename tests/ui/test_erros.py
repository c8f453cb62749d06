"""Nothing fails silently: an error escaping a slot or a thread reaches the user as a
Portuguese message naming the log file, the traceback reaches the rotating log, and the window stays usable."""

from __future__ import annotations

import logging.handlers
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models.admin import Configuracao
from secretaria.ui import erros
from secretaria.ui.widgets import mensagens


@pytest.fixture
def log(tmp_path: Path) -> Iterator[Path]:
    arquivo = erros.instalar(tmp_path / "dados" / "secretaria.log")
    try:
        yield arquivo
    finally:
        erros.desinstalar()
        for caixa in _caixas():
            caixa.close()


def _caixas() -> list[QMessageBox]:
    from PySide6.QtWidgets import QApplication

    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def _janela(qtbot: QtBot, acao) -> tuple[QWidget, QPushButton, QPushButton, list[int]]:  # type: ignore[no-untyped-def]
    janela = QWidget()
    layout = QVBoxLayout(janela)
    botao = QPushButton("Falhar")
    outro = QPushButton("Outra ação")
    layout.addWidget(botao)
    layout.addWidget(outro)
    botao.clicked.connect(acao)
    feitas: list[int] = []
    outro.clicked.connect(lambda: feitas.append(1))
    qtbot.addWidget(janela)
    janela.show()
    return janela, botao, outro, feitas


def test_slot_que_falha_mostra_mensagem_registra_e_janela_continua(qtbot: QtBot, log: Path) -> None:
    def falhar() -> None:
        raise RuntimeError("falha de teste no slot")

    janela, botao, outro, feitas = _janela(qtbot, falhar)
    qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
    caixa = mensagens.caixa_aberta()
    assert caixa is not None
    assert caixa.windowTitle() == "Erro inesperado"
    assert "A ação não foi concluída" in caixa.text()
    assert str(log) in caixa.text()
    assert "continuar usando o programa" in caixa.text()
    caixa.grab().save(str(log.parent / "caixa.png"))
    mensagens.responder(QMessageBox.StandardButton.Ok)
    texto = log.read_text(encoding="utf-8")
    assert "Traceback" in texto and "RuntimeError: falha de teste no slot" in texto and "in falhar" in texto
    qtbot.mouseClick(outro, Qt.MouseButton.LeftButton)  # the window still does what it is asked
    assert feitas == [1]
    assert janela.isVisible()


def test_erro_dentro_da_unidade_de_trabalho_diz_que_nada_foi_gravado(
    qtbot: QtBot, log: Path, banco_sqlite: Banco
) -> None:
    def gravar_e_falhar() -> None:
        with banco_sqlite.uow() as uow:
            uow.session.add(Configuracao(chave="meio_gravado", valor="1"))
            uow.session.flush()
            raise ValueError("erro no meio da gravação")

    janela, botao, _, _ = _janela(qtbot, gravar_e_falhar)  # kept: qtbot holds widgets weakly
    qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert janela.isVisible()
    assert "A gravação em andamento foi desfeita: nada foi gravado." in texto
    with banco_sqlite.leitura() as sessao:
        assert sessao.get(Configuracao, "meio_gravado") is None
    assert "ValueError: erro no meio da gravação" in log.read_text(encoding="utf-8")


def test_rajada_do_mesmo_erro_mostra_uma_caixa(qtbot: QtBot, log: Path) -> None:
    class Emissor(QObject):
        sinal = Signal()

    emissor = Emissor()

    def falhar() -> None:
        raise KeyError("sempre")

    emissor.sinal.connect(falhar)
    for _ in range(50):
        emissor.sinal.emit()
    assert len(_caixas()) == 1
    assert "Erro repetido mais 49 vezes" in _caixas()[0].text()
    mensagens.responder(QMessageBox.StandardButton.Ok)
    assert _caixas() == []
    assert log.read_text(encoding="utf-8").count("KeyError: 'sempre'") == 50


def test_erro_numa_thread_chega_ao_usuario(qtbot: QtBot, log: Path) -> None:
    def falhar() -> None:
        raise OSError("falha na thread")

    tarefa = threading.Thread(target=falhar, name="tarefa-de-teste")
    tarefa.start()
    tarefa.join()
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    assert str(log) in mensagens.responder(QMessageBox.StandardButton.Ok)
    texto = log.read_text(encoding="utf-8")
    assert "thread tarefa-de-teste" in texto and "OSError: falha na thread" in texto


def test_log_gira_em_um_mega_vezes_cinco(log: Path) -> None:
    manipuladores = [
        m for m in logging.getLogger().handlers if isinstance(m, logging.handlers.RotatingFileHandler)
    ]
    assert [(Path(m.baseFilename), m.maxBytes, m.backupCount) for m in manipuladores] == [(log, 1_000_000, 5)]


def test_pasta_do_log_e_a_pasta_de_dados() -> None:
    from secretaria.db import pasta_dados

    assert erros.arquivo_log_padrao() == pasta_dados() / "secretaria.log"


def test_instalado_ao_abrir_o_programa(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`app.executar` installs the hooks before the login window."""
    from secretaria.ui import app

    instalados: list[bool] = []

    def instalar(*_a: object) -> Path:
        instalados.append(True)
        return tmp_path / "x.log"

    monkeypatch.setattr(erros, "instalar", instalar)
    monkeypatch.setattr(app, "entrar", lambda *_a, **_k: None)
    assert app.executar(sa, demo=False) == 0  # type: ignore[arg-type]
    assert instalados == [True]
