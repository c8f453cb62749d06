"""Cassação (art. 16) through its dialogs: instaurar, the acts of the defence, the decision."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.execucao import situacao_operadora
from secretaria.ui.processo.cassacao import (
    DialogoAtoCassacao,
    DialogoDecidirCassacao,
    DialogoInstaurarCassacao,
)


def _carregar_apoio() -> Any:
    nome = "tests.ui.apoio_processo"
    if nome not in sys.modules:
        spec = importlib.util.spec_from_file_location(nome, Path(__file__).with_name("apoio_processo.py"))
        assert spec is not None and spec.loader is not None
        modulo = importlib.util.module_from_spec(spec)
        sys.modules[nome] = modulo
        spec.loader.exec_module(modulo)
    return sys.modules[nome]


ap = _carregar_apoio()
cidade = ap.cidade
roteiro = ap.roteiro
sem_caixas_abertas = ap.sem_caixas_abertas


def test_cassacao_com_ampla_defesa(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    ctx = ap.contexto(banco, "autoridade", "secretario", "protocolo")
    concessionaria = DialogoInstaurarCassacao(
        ctx, roteiro.cidade.operadora_id, "Viação Princesa do Sul Ltda."
    )
    qtbot.addWidget(concessionaria)
    ap.manter(concessionaria)
    concessionaria.motivo.setPlainText("Motivo.")
    concessionaria.registrar()
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    assert "concessionária" in concessionaria.form.mensagem("motivo")  # art. 16 is for permissions

    dialogo = DialogoInstaurarCassacao(ctx, roteiro.cidade.operadora2_id, "Transportes Laranjal Ltda.")
    qtbot.addWidget(dialogo)
    ap.manter(dialogo)
    dialogo.data.editor.setText("01112026")
    dialogo.motivo.setPlainText("Reiteradas suspensões e frota irregular, comprovadas nos autos.")
    dialogo.registrar()
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    cassacao_id = dialogo.resultado_id
    assert cassacao_id is not None

    decidir = DialogoDecidirCassacao(ctx, cassacao_id)
    qtbot.addWidget(decidir)
    ap.manter(decidir)
    decidir.fundamentacao.setPlainText("Comprovado.")
    decidir.registrar()
    assert "Cassar a permissão?" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    assert "ampla defesa" in decidir.form.mensagem("resultado")  # no notice to defend yet

    for data, tipo in (("02112026", "notificacao"), ("10112026", "defesa")):
        ato = DialogoAtoCassacao(ctx, cassacao_id)
        qtbot.addWidget(ato)
        ap.manter(ato)
        ato.data.editor.setText(data)
        ato.tipo.setCurrentIndex(ato.tipo.findData(tipo))
        ato.descricao.setPlainText(f"Ato de {tipo}.")
        ato.registrar()
        assert ato.resultado_id is not None

    decidir.registrar()
    ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    assert decidir.result() == decidir.DialogCode.Accepted
    with banco.leitura() as s:
        assert situacao_operadora(s, roteiro.cidade.operadora2_id, roteiro.hoje) == "cassada"
