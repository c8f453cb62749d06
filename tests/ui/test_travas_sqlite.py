"""The program's SQLite locks survive every file dialog.

On Linux closing any descriptor of a file drops every POSIX lock the process holds on it. Qt's file dialogs
open and close the files of the folder they list to guess their types, so a dialog shown inside the program
over the database's folder left the live database unlocked. Here each kind of dialog the program has is
pointed at the database's folder while SQLite holds its locks, and this process's entries in /proc/locks
are compared before and after; the last test shows the check itself catches the loss (an in-process dialog
listing the folder does drop them).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QPushButton, QWidget

from secretaria.models.admin import Configuracao
from secretaria.ui import impressao, seletor_arquivo
from secretaria.ui.widgets import arquivos, mensagens

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lê /proc/locks (Linux)")

ARQUIVOS_DO_BANCO = ("secretaria.sqlite", "secretaria.sqlite-wal", "secretaria.sqlite-shm")


def travas(pasta: Path) -> set[tuple[str, ...]]:
    """This process's POSIX locks on the database's files: (kind, mode, inode, start, end) per lock."""
    inodes = {os.stat(pasta / nome).st_ino: nome for nome in ARQUIVOS_DO_BANCO if (pasta / nome).exists()}
    encontradas: set[tuple[str, ...]] = set()
    for linha in Path("/proc/locks").read_text().splitlines():
        campos = [c for c in linha.split() if c != "->"]
        # "1: POSIX  ADVISORY  READ 4242 08:01:123456 128 128"
        tipo, modo, pid, dispositivo, inicio, fim = (
            campos[1],
            campos[3],
            campos[4],
            campos[5],
            campos[6],
            campos[7],
        )
        inode = int(dispositivo.rsplit(":", 1)[1])
        if pid == str(os.getpid()) and inode in inodes:
            encontradas.add((tipo, modo, inodes[inode], inicio, fim))
    return encontradas


@pytest.fixture
def banco_em_uso(banco_sqlite):  # type: ignore[no-untyped-def]
    """The program's database with a write just committed and a read transaction held open (SQLite then
    holds its locks on the database and its -shm), plus other files in the same folder to choose."""
    with banco_sqlite.uow() as uow:
        uow.session.add(Configuracao(chave="teste_travas", valor="1"))
        uow.commit()
    pasta = Path(banco_sqlite.engine.url.database).parent
    (pasta / "anexo.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (pasta / "foto.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    with banco_sqlite.leitura() as sessao:
        assert sessao.scalar(sa.select(sa.func.count()).select_from(Configuracao)) >= 1
        antes = travas(pasta)
        assert len(antes) >= 2, antes
        yield pasta, antes


@pytest.fixture
def janela(qtbot):  # type: ignore[no-untyped-def]
    janela = QWidget()
    janela.resize(400, 300)
    qtbot.addWidget(janela)
    janela.show()
    return janela


@pytest.fixture
def responder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[..., Path]:
    """Make the child dialog answer by itself; returns a reader of what the child reported (pid, listed)."""
    relatorio = tmp_path / "relatorio-seletor.json"

    def configurar(**resposta: object) -> Path:
        monkeypatch.setenv(
            seletor_arquivo.VARIAVEL_TESTE, json.dumps({**resposta, "relatorio": str(relatorio)})
        )
        return relatorio

    return configurar


def _listados(relatorio: Path) -> list[str]:
    return list(json.loads(relatorio.read_text())["listados"])


def test_salvar_como_na_pasta_do_banco_mantem_as_travas(banco_em_uso, janela, responder) -> None:  # type: ignore[no-untyped-def]
    pasta, antes = banco_em_uso
    relatorio = responder(nomes=["lista"])
    arquivos._lembrar(pasta)
    destino = arquivos.salvar_como(janela, "Exportar para Excel", "lista.xlsx", "Planilhas do Excel (*.xlsx)")
    assert destino == pasta / "lista.xlsx"  # the extension added as before
    assert json.loads(relatorio.read_text())["pid"] != os.getpid()
    assert travas(pasta) == antes


def test_abrir_arquivo_e_arquivos_na_pasta_do_banco_mantem_as_travas(banco_em_uso, janela, responder) -> None:  # type: ignore[no-untyped-def]
    pasta, antes = banco_em_uso
    arquivos._lembrar(pasta)
    relatorio = responder(nomes=["anexo.pdf"])
    assert arquivos.abrir_arquivo(janela, "Anexar arquivo") == pasta / "anexo.pdf"
    # The child did list the database's own files ("Todos os arquivos"), and this process kept its locks.
    assert set(ARQUIVOS_DO_BANCO) <= set(_listados(relatorio))
    assert travas(pasta) == antes

    responder(nomes=["anexo.pdf", "foto.pdf"])
    escolhidos = arquivos.abrir_arquivos(janela, "Adicionar arquivos", "Documentos PDF (*.pdf)")
    assert sorted(escolhidos) == [pasta / "anexo.pdf", pasta / "foto.pdf"]
    assert arquivos.pasta_inicial() == pasta
    assert travas(pasta) == antes


def test_escolher_pasta_do_banco_mantem_as_travas(banco_em_uso, janela, responder) -> None:  # type: ignore[no-untyped-def]
    pasta, antes = banco_em_uso
    arquivos._lembrar(pasta)
    responder(nomes=[])
    assert arquivos.escolher_pasta(janela, "Pasta da cópia") == pasta
    assert travas(pasta) == antes


def test_cancelar_devolve_nada_e_mantem_as_travas(banco_em_uso, janela, responder) -> None:  # type: ignore[no-untyped-def]
    pasta, antes = banco_em_uso
    arquivos._lembrar(pasta)
    responder(cancelar=True)
    assert arquivos.salvar_como(janela, "Salvar PDF", "auto.pdf", impressao.FILTRO_PDF) is None
    assert travas(pasta) == antes


def test_escolher_o_proprio_banco_e_recusado(banco_em_uso, janela, responder, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Reading the database as an attachment would drop the locks (and saving a PDF over it destroy it)."""
    pasta, antes = banco_em_uso
    arquivos._lembrar(pasta)
    responder(nomes=["secretaria.sqlite-wal"])
    assert arquivos.abrir_arquivos(janela, "Adicionar arquivos") == []
    caixa = mensagens.caixa_aberta()
    assert caixa is not None
    assert "banco de dados que o programa está usando" in caixa.text()
    assert "secretaria.sqlite-wal" in caixa.text()
    caixa.close()
    assert travas(pasta) == antes


def test_janela_espera_surda_e_fechar_encerra_o_seletor(banco_em_uso, janela, responder, qtbot) -> None:  # type: ignore[no-untyped-def]
    """While the child's dialog is open the window ignores clicks; closing the window ends the child."""
    pasta, _antes = banco_em_uso
    arquivos._lembrar(pasta)
    relatorio = responder(esperar=True)
    botao = QPushButton("Outra ação", janela)
    botao.show()
    cliques: list[bool] = []
    botao.clicked.connect(lambda: cliques.append(True))

    def durante_a_espera() -> None:
        qtbot.waitUntil(lambda: relatorio.exists() and "listados" in relatorio.read_text(), timeout=20_000)
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.mouseClick(botao, Qt.MouseButton.LeftButton)
        janela.close()

    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, durante_a_espera)
    assert arquivos.abrir_arquivo(janela, "Anexar arquivo") is None
    assert cliques == []
    pid = json.loads(relatorio.read_text())["pid"]
    assert not Path(f"/proc/{pid}").exists()


def test_dialogo_de_impressao_sem_arquivo_mantem_as_travas(banco_em_uso, janela, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The print dialog stays in-process: its "print to file" field (which browses with an in-process file
    dialog, and completes paths from a folder model rooted at the home folder) is gone."""
    pasta, antes = banco_em_uso
    monkeypatch.setenv("HOME", str(pasta))
    impressora = impressao.nova_impressora("Auto de infração")
    impressora.setOutputFileName(str(pasta / "auto.pdf"))
    dialogo = impressao.dialogo_impressao(janela, impressora, 2)
    dialogo.show()
    qtbot.waitExposed(dialogo)
    qtbot.wait(500)
    impressoras = dialogo.findChild(QComboBox, "printers")
    assert impressoras is not None
    assert not any("PDF" in impressoras.itemText(i) for i in range(impressoras.count()))
    campo = dialogo.findChild(QLineEdit, "filename")
    assert campo is None or not campo.isVisible()
    dialogo.reject()
    assert travas(pasta) == antes


def test_dialogo_de_impressao_do_qt_perderia_as_travas(banco_em_uso, janela, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The check itself, for the print dialog: Qt's own, built with the database in the home folder (its
    output-file field lists the home folder whatever the options), drops the locks."""
    from PySide6.QtPrintSupport import QPrintDialog

    pasta, antes = banco_em_uso
    monkeypatch.setenv("HOME", str(pasta))
    impressora = impressao.nova_impressora("Auto de infração")  # kept alive: the dialog only points at it
    dialogo = QPrintDialog(impressora, janela)
    dialogo.show()
    qtbot.waitUntil(lambda: travas(pasta) < antes, timeout=10_000)
    dialogo.reject()


def test_dialogo_no_proprio_processo_perderia_as_travas(banco_em_uso, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The check itself: the very dialog the child shows, run in this process over the database's folder
    (with a filter that hides the database), drops this process's locks."""
    pasta, antes = banco_em_uso
    dialogo = seletor_arquivo.dialogo_arquivo(
        None,
        "Exportar para Excel",
        str(pasta / "lista.xlsx"),
        "Planilhas do Excel (*.xlsx)",
        seletor_arquivo.modo_de_arquivo("AnyFile"),
        salvar=True,
    )
    qtbot.addWidget(dialogo)
    listados: list[str] = []
    seletor_arquivo.responder_quando_listado(dialogo, {"cancelar": True}, listados)
    dialogo.open()
    qtbot.waitUntil(lambda: not dialogo.isVisible(), timeout=20_000)
    assert travas(pasta) < antes
    QApplication.processEvents()
