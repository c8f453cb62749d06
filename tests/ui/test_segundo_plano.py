"""Long actions run off the GUI thread: the window answers clicks meanwhile, a second act on the same record
is refused clearly, and Cancelar half-way leaves nothing written (no file, no stored document, no audit row)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models import Auditoria, DocumentoEmitido
from secretaria.services import documentos
from secretaria.ui import impressao
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.exportar import exportar_para_excel
from secretaria.ui.widgets.tarefas import Tarefa, aguardar_tarefas, em_andamento
from tests.helpers import apoio_processo as ap
from tests.helpers import cenario_documentos as cen
from tests.helpers.bancos import travado


def _janela(qtbot: QtBot) -> tuple[QWidget, QPushButton, list[str]]:
    """A window with another button, whose clicks are recorded."""
    janela = QWidget()
    qtbot.addWidget(janela)
    layout = QVBoxLayout(janela)
    outro = QPushButton("Outra coisa", janela)
    layout.addWidget(outro)
    cliques: list[str] = []
    outro.clicked.connect(lambda: cliques.append("outra coisa"))
    janela.resize(1366, 768)
    janela.show()
    return janela, outro, cliques


def _dialogo(janela: QWidget) -> QProgressDialog:
    (dialogo,) = [d for d in janela.findChildren(QProgressDialog) if d.isVisible()]
    return dialogo


def _contar_documentos(banco: Banco) -> tuple[int, int]:
    """Stored documents, and audit rows of issuing one."""
    with banco.leitura() as s:
        docs = s.scalar(sa.select(sa.func.count(DocumentoEmitido.id))) or 0
        auditados = s.scalar(
            sa.select(sa.func.count(Auditoria.id)).where(Auditoria.acao == "emitir_documento")
        )
        return docs, auditados or 0


def _banco_travado(banco: Banco) -> AbstractContextManager[None]:
    """Another program holds the database: SQLite's write lock, or on PostgreSQL a lock on the table of
    issued documents that lets reads through but no write."""
    return travado(banco, "LOCK TABLE documento_emitido IN EXCLUSIVE MODE")


def _cancelar(dialogo: QProgressDialog) -> None:
    (botao,) = dialogo.findChildren(QPushButton)
    assert botao.text() == "Cancelar"
    botao.click()


def test_exportacao_longa_a_janela_responde_e_cancelar_nao_deixa_arquivo(
    qtbot: QtBot, tmp_path: Path
) -> None:
    janela, outro, cliques = _janela(qtbot)
    total = 5_000
    na_metade = threading.Event()
    seguir = threading.Event()

    def linhas() -> Iterator[tuple[Any, ...]]:  # read in the worker, as a list's rows are
        for i in range(total):
            if i == 2_400:
                na_metade.set()
                seguir.wait(10)
            yield (f"Viação {i:05d}", date(2026, 11, 30), i)

    destino = tmp_path / "autos.xlsx"
    tarefa = exportar_para_excel(
        janela,
        titulo="Autos",
        cabecalhos=["Nome", "Data", "Nº"],
        linhas=linhas(),
        total=total,
        destino=destino,
    )
    assert isinstance(tarefa, Tarefa)
    assert na_metade.wait(10)
    # the event loop runs while the rows are read and written: a click queued now is handled now
    QTimer.singleShot(0, lambda: qtbot.mouseClick(outro, Qt.MouseButton.LeftButton))
    qtbot.waitUntil(lambda: cliques == ["outra coisa"], timeout=5000)
    assert tarefa.isRunning()
    dialogo = _dialogo(janela)
    qtbot.waitUntil(lambda: dialogo.labelText() == "Gravando a linha 2.000 de 5.000…", timeout=5000)
    assert dialogo.windowModality() == Qt.WindowModality.NonModal  # the rest of the window stays usable
    ap.salvar_png(dialogo, "h16-segundo-plano-progresso")
    _cancelar(dialogo)
    seguir.set()
    qtbot.waitUntil(tarefa.isFinished, timeout=10000)
    assert aguardar_tarefas()
    assert mensagens.caixa_aberta() is None  # cancelled: no "Planilha gravada"
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_o_mesmo_registro_espera_a_tarefa_em_andamento(qtbot: QtBot) -> None:
    from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

    janela, _outro, _cliques = _janela(qtbot)
    seguir = threading.Event()
    resultados: list[object] = []

    def longo(progresso: Progresso) -> str:
        progresso(0, 2, "Gerando a página 1…")
        seguir.wait(10)
        progresso(1, 2, "Gerando a página 2…")
        return "pronto"

    chave = ("operadora", 7)
    primeira = em_segundo_plano(
        janela, longo, titulo="Ficha da operadora", texto="Lendo…", ao_concluir=resultados.append, chave=chave
    )
    assert primeira is not None and em_andamento(chave) == "Ficha da operadora"
    segunda = em_segundo_plano(
        janela, longo, titulo="Ficha da operadora", texto="Lendo…", ao_concluir=resultados.append, chave=chave
    )
    assert segunda is None
    caixa = mensagens.caixa_aberta(aguardar=False)
    assert caixa is not None
    assert caixa.text().startswith("“Ficha da operadora” ainda está em andamento para este registro.")
    caixa.done(0)
    seguir.set()
    assert aguardar_tarefas()
    assert resultados == ["pronto"]  # the first one only
    assert em_andamento(chave) is None


def test_documento_cancelado_na_metade_nada_gravado(
    qtbot: QtBot, banco: Banco, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The batch of the month's intimações (three pages), cancelled after page 1: no stored document, no
    audit row, no file; then issued to the end, it is stored once with its audit row."""
    cen.montar(banco, monkeypatch)
    contexto = Contexto(banco, cen.ATORES["consulta"])
    salvos: list[Path] = []
    pasta = tmp_path / "documentos"
    pasta.mkdir()

    def salvar_como(_pai: Any, _titulo: str, nome: str, _filtro: str) -> Path:
        salvos.append(pasta / nome)
        return pasta / nome

    monkeypatch.setattr(arquivos, "salvar_como", salvar_como)
    real = documentos.renderizar
    na_pagina_1 = threading.Event()
    seguir = threading.Event()

    def pausado(tipo: str, dados: Any, progresso: Any = None) -> bytes:
        def andamento(feitos: int, total: int, texto: str) -> None:
            progresso(feitos, total, texto)
            if texto.startswith("Gerando a página 1") and not na_pagina_1.is_set():
                na_pagina_1.set()
                seguir.wait(10)

        return real(tipo, dados, andamento)

    monkeypatch.setattr(documentos, "renderizar", pausado)

    def contar() -> tuple[int, int]:
        return _contar_documentos(banco)

    antes = contar()
    janela, _outro, _cliques = _janela(qtbot)
    pedido: dict[str, Any] = {
        "tipo": "lote_intimacoes",
        "periodo": (date(2026, 11, 1), date(2026, 11, 30)),
        "data_entrega": date(2026, 12, 1),
    }
    tarefa = impressao.acoes_documento(janela, contexto, "salvar", **pedido)
    assert tarefa is not None
    assert na_pagina_1.wait(20)
    dialogo = _dialogo(janela)
    qtbot.waitUntil(lambda: dialogo.labelText().startswith("Gerando a página 1"), timeout=5000)
    ap.salvar_png(dialogo, "h16-segundo-plano-pagina")
    _cancelar(dialogo)
    assert dialogo.labelText() == "Cancelando… (nada será gravado)"
    seguir.set()
    assert aguardar_tarefas()
    assert mensagens.caixa_aberta() is None
    assert contar() == antes and salvos == [] and list(pasta.iterdir()) == []

    # not cancelled: stored once, audited once, saved
    recebidos: list[documentos.DocumentoInfo] = []
    assert impressao.acoes_documento(janela, contexto, "salvar", ao_concluir=recebidos.append, **pedido)
    assert aguardar_tarefas()
    caixa = mensagens.caixa_aberta()
    assert caixa is not None and "SHA-256" in caixa.text()
    caixa.done(0)
    assert [r.tipo for r in recebidos] == ["lote_intimacoes"] and recebidos[0].novo
    assert contar() == (antes[0] + 1, antes[1] + 1)
    assert [p.name for p in salvos] == ["intimacoes-2026-11-01-a-2026-11-30.pdf"]
    assert salvos[0].read_bytes().startswith(b"%PDF")


def test_banco_ocupado_a_janela_segue_pintando_e_o_usuario_desiste_ou_tenta_de_novo(
    qtbot: QtBot, banco: Banco, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Another program holds the database: the issue waits off the GUI thread with "Aguardando o banco de
    dados…" while the window keeps running; Cancelar gives up with nothing written; left alone, the user is
    told within seconds (not 30 s) and offered "Tentar de novo", which succeeds once the lock is gone."""
    cenario = cen.montar(banco, monkeypatch)
    contexto = Contexto(banco, cen.ATORES["consulta"])
    pasta = tmp_path / "documentos"
    pasta.mkdir()
    monkeypatch.setattr(arquivos, "salvar_como", lambda _p, _t, nome, _f: pasta / nome)
    janela, _outro, _cliques = _janela(qtbot)
    tiques: list[int] = []
    relogio_da_janela = QTimer(janela)
    relogio_da_janela.timeout.connect(lambda: tiques.append(1))
    relogio_da_janela.start(10)
    pedido: dict[str, Any] = {"tipo": "ficha", "operadora_id": cenario.cidade.operadora_id}
    antes = _contar_documentos(banco)

    with _banco_travado(banco):
        assert impressao.acoes_documento(janela, contexto, "salvar", **pedido) is not None
        dialogo = janela.findChildren(QProgressDialog)[-1]
        qtbot.waitUntil(lambda: "Aguardando o banco de dados" in dialogo.labelText(), timeout=5000)
        tiques.clear()
        qtbot.waitUntil(lambda: len(tiques) >= 30, timeout=3000)  # the window's own timer keeps running
        qtbot.waitUntil(dialogo.isVisible, timeout=3000)
        assert dialogo.labelText().startswith("Aguardando o banco de dados, ocupado por outro programa…")
        ap.salvar_png(dialogo, "h16-segundo-plano-aguardando")
        _cancelar(dialogo)
        assert aguardar_tarefas(20_000)
        assert mensagens.caixa_aberta() is None  # gave up: nothing to tell, nothing written
        assert _contar_documentos(banco) == antes and list(pasta.iterdir()) == []

        inicio = time.monotonic()
        assert impressao.acoes_documento(janela, contexto, "salvar", **pedido) is not None
        assert aguardar_tarefas(20_000)
        assert time.monotonic() - inicio < 10  # told within seconds, not after 30 s
        caixa = mensagens.caixa_aberta()
        assert caixa is not None
        assert "ocupado por outro" in caixa.text() and "nada foi gravado" in caixa.text()
        botoes = {b.text() for b in caixa.buttons()}
        assert {"&Tentar de novo", "&Desistir"} <= botoes
        ap.salvar_png(caixa, "h16-segundo-plano-ocupado")
        assert _contar_documentos(banco) == antes
    (tentar,) = [b for b in caixa.buttons() if b.text() == "&Tentar de novo"]
    tentar.click()
    assert aguardar_tarefas()
    feito = mensagens.caixa_aberta()
    assert feito is not None and "SHA-256" in feito.text()
    feito.done(0)
    assert _contar_documentos(banco) == (antes[0] + 1, antes[1] + 1)
