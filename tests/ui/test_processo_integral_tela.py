"""The complete case file from the case screen: the "Cópia integral do processo" button issues it off the
GUI thread (progress dialog), saves the stored bytes, and lists it among the case's documents."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.documentos import obter_documento
from secretaria.ui.processo.tela_caso import TelaCaso
from secretaria.ui.widgets import arquivos
from tests.helpers import apoio_processo as ap
from tests.helpers import cenario_processo

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
OK = QMessageBox.StandardButton.Ok


def test_copia_integral_pela_tela_do_caso(
    qtbot: QtBot, banco: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    caso = cenario_processo.montar(banco, monkeypatch)
    tela = ap.manter(TelaCaso(ap.contexto(banco, "consulta"), caso.auto_id))  # consulta reads and prints
    qtbot.addWidget(tela)
    tela.resize(1366, 768)
    tela.show()
    tela.abas.setCurrentIndex(3)
    botao = tela.botoes_documentos.botoes["processo"]
    assert botao.isEnabled() and botao.text().replace("&", "") == "Cópia integral do processo (PDF)"
    ap.salvar_png(tela, "h26c-tela-caso-documentos")

    destino = tmp_path / "processo.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    tela.botoes_documentos.acoes[("processo", "salvar")]()
    mensagem = ap.responder_caixa(qtbot, OK)
    assert f"Cópia integral do processo do auto nº {caso.numero} gravada em {destino}" in mensagem
    conteudo = destino.read_bytes()
    assert f"SHA-256: {hashlib.sha256(conteudo).hexdigest()}" in mensagem
    assert "CÓPIA INTEGRAL DO PROCESSO" in PdfReader(io.BytesIO(conteudo)).pages[0].extract_text()

    qtbot.waitUntil(lambda: tela.lista_documentos.count() == len(caso.documentos) + 1)
    primeiro = tela.lista_documentos.item(0)
    assert primeiro.text().startswith(f"Cópia integral do processo do auto nº {caso.numero} — emitido em")
    with banco.leitura() as s:
        assert obter_documento(s, primeiro.data(Qt.ItemDataRole.UserRole)) == conteudo  # the stored bytes
