"""Closing the program while long work runs: the window asks first, "Sair" cancels what can stop with nothing
written and waits for the rest, and the process ends cleanly (Qt aborts it when a QThread is destroyed while
running: closing the window while the Painel drew ended in "Abortado")."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.tarefas import (
    Progresso,
    em_segundo_plano,
    encerrar_tarefas,
    trabalho_em_andamento,
)
from tests.helpers import apoio_processo as ap


def test_fechar_com_trabalho_em_andamento_pergunta_e_sair_cancela(qtbot: QtBot, banco: Banco) -> None:
    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, "fiscal")))
    qtbot.addWidget(janela)
    janela.show()
    comecou, terminou_inteiro, curto_terminou = threading.Event(), threading.Event(), threading.Event()

    def longo(progresso: Progresso) -> None:
        comecou.set()
        prazo = time.monotonic() + 30
        while time.monotonic() < prazo:
            progresso(0, 0, "Gerando a página 1…")  # Cancelar takes effect here
            time.sleep(0.01)
        terminou_inteiro.set()

    def sem_cancelar(_progresso: Progresso) -> None:
        comecou.wait(10)
        time.sleep(0.3)
        curto_terminou.set()

    cancelada: list[str] = []
    concluidas: list[object] = []
    assert em_segundo_plano(
        janela,
        longo,
        titulo="Ficha da operadora",
        texto="Lendo…",
        ao_concluir=concluidas.append,
        ao_cancelar=cancelada.append,
    )
    assert em_segundo_plano(
        janela,
        sem_cancelar,
        titulo="Restaurar",
        texto="Restaurando…",
        ao_concluir=concluidas.append,
        cancelavel=False,
    )
    assert comecou.wait(10)
    assert trabalho_em_andamento() == ["Ficha da operadora", "Restaurar"]

    # Asked first; "Continuar" keeps the window and the work.
    assert not janela.close()
    caixa = mensagens.caixa_aberta(aguardar=False)
    assert caixa is not None and "Ainda está em andamento: Ficha da operadora; Restaurar." in caixa.text()
    ap.salvar_png(caixa, "sair-com-trabalho-em-andamento")
    caixa.button(QMessageBox.StandardButton.No).click()
    assert janela.isVisible()

    # "Sair": the window closes; at the exit the cancellable work stops, the other is waited for.
    assert not janela.close()
    caixa = mensagens.caixa_aberta(aguardar=False)
    assert caixa is not None
    caixa.button(QMessageBox.StandardButton.Yes).click()
    assert not janela.isVisible()
    encerrar_tarefas()
    assert trabalho_em_andamento() == []
    assert curto_terminou.is_set() and not terminou_inteiro.is_set()


def test_o_processo_termina_limpo_com_uma_tarefa_em_andamento() -> None:
    codigo = textwrap.dedent(
        """
        import time
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
        from secretaria.ui.widgets.tarefas import Tarefa, encerrar_tarefas

        app = QApplication([])

        def desenhar(progresso):
            while True:  # a drawing that only a cancel stops
                progresso(0, 0, "Desenhando…")
                time.sleep(0.01)

        Tarefa(desenhar).iniciar()
        QTimer.singleShot(200, app.quit)  # the window closed while it runs
        app.exec()
        encerrar_tarefas()
        print("fim")
        """
    )
    saida = subprocess.run(
        [sys.executable, "-c", codigo],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert saida.returncode == 0, saida.stderr
    assert saida.stdout.strip() == "fim"
