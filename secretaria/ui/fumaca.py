"""A smoke test of the built program (CI only: empacotamento/testar_pasta.sh), switched on by
`SECRETARIA_FUMACA=<report file>` and run inside the real window, since what it checks is that a frozen
folder carries everything the window needs.

On the demo database it enters as the first demo user, opens the Painel, waits until every chart is drawn,
checks they came from the drawing helper processes (children of this process running
`secretaria.reports.desenhista`; the window's process has not imported matplotlib, which the in-process
fallback would have), answers one file dialog through its child process (`SECRETARIA_SELETOR_TESTE` set by
the script), prints a PDF (to a file) through pypdfium2 as the program prints its documents, and closes the
program: exit 0 when all held, 1 otherwise. The report (JSON) says what was seen and when the login first
painted, so the script can time the start.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

if TYPE_CHECKING:
    from secretaria.ui.janela_principal import JanelaPrincipal

VARIAVEL = "SECRETARIA_FUMACA"
LIMITE_SEGUNDOS = 120.0

_relatorio: dict[str, Any] = {}


def ativa() -> bool:
    return bool(os.environ.get(VARIAVEL))


def entrar(dialogo: QWidget) -> None:
    """Once the login has painted: note the time and enter as the first demo user."""
    from secretaria.demo.popular import SENHA_DEMO, USUARIOS_DEMO
    from secretaria.ui.login import DialogoLogin

    # The system clock on purpose, not `relogio`: the smoke script subtracts its own `date +%s.%N` taken
    # before starting the program (a duration across two processes, never a day the program acts on).
    _relatorio["login_pintado"] = time.time()
    if not isinstance(dialogo, DialogoLogin):  # the first-run dialog: not the demo database
        _relatorio["problema"] = "o banco não é o de demonstração"
        dialogo.close()
        return
    dialogo.preencher(USUARIOS_DEMO[0][0], SENHA_DEMO)
    dialogo.entrar()


def na_janela(janela: JanelaPrincipal) -> None:
    """The main window is up: open the Painel and watch it draw."""
    from secretaria.ui.painel import PaginaPainel

    pagina = janela.mostrar_pagina("painel")
    if not isinstance(pagina, PaginaPainel):
        _terminar(janela, "a página Painel não abriu")
        return
    inicio = time.monotonic()

    def conferir() -> None:
        if not pagina.pronta:
            if time.monotonic() - inicio > LIMITE_SEGUNDOS:
                _terminar(janela, "o Painel não terminou de desenhar")
            else:
                QTimer.singleShot(200, janela, conferir)
            return
        _relatorio["painel_segundos"] = round(time.monotonic() - inicio, 2)
        _relatorio["graficos"] = sum(c.impressao is not None for c in pagina.cartoes)
        _relatorio["ajudantes"] = processos_de_desenho()
        _relatorio["matplotlib_na_janela"] = "matplotlib" in sys.modules
        QTimer.singleShot(0, janela, lambda: _seletor(janela))

    QTimer.singleShot(200, janela, conferir)


def processos_de_desenho() -> list[int]:
    """The pids of this process's children that run the chart-drawing helper (Linux: /proc)."""
    meu = str(os.getpid())
    achados = []
    for pasta in Path("/proc").glob("[0-9]*"):
        try:
            estado = (pasta / "stat").read_text()
            linha = (pasta / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        pai = estado.rsplit(")", 1)[-1].split()[1]
        if pai == meu and "secretaria.reports.desenhista" in linha:
            achados.append(int(pasta.name))
    return achados


def _seletor(janela: QWidget) -> None:
    from secretaria.ui.widgets import arquivos

    pasta = arquivos.escolher_pasta(janela, "Teste do programa montado")
    _relatorio["seletor"] = str(pasta) if pasta is not None else None
    _imprimir()
    problemas = []
    if not _relatorio["graficos"]:
        problemas.append("nenhum gráfico desenhado")
    if not _relatorio["ajudantes"] or _relatorio["matplotlib_na_janela"]:
        problemas.append("os gráficos não vieram dos processos de desenho")
    if pasta is None:
        problemas.append("a janela de escolha de arquivos não respondeu")
    if _relatorio["impressao"] != [1, "pypdfium2"]:
        problemas.append("a impressão de um PDF (pypdfium2) não funcionou")
    _terminar(janela, "; ".join(problemas))


def _imprimir() -> None:
    """Print a one-page PDF the way the program prints its documents (pypdfium2 draws its pages on the
    printer), to a PDF file instead of a printer: [pages printed, the library that drew them]."""
    import io

    from PySide6.QtPrintSupport import QPrinter
    from reportlab.pdfgen.canvas import Canvas

    from secretaria.ui.impressao import motor_de_paginas, pintar_paginas

    pdf = io.BytesIO()
    folha = Canvas(pdf)
    folha.drawString(72, 720, "Teste de impressão do programa montado")
    folha.save()
    impressora = QPrinter()
    impressora.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    impressora.setOutputFileName(str(Path(os.environ[VARIAVEL]).with_suffix(".impresso.pdf")))
    _relatorio["impressao"] = [pintar_paginas(impressora, pdf.getvalue(), dpi=72), motor_de_paginas()]


def _terminar(janela: QWidget, problema: str) -> None:
    _relatorio["problema"] = problema
    Path(os.environ[VARIAVEL]).write_text(json.dumps(_relatorio, ensure_ascii=False), encoding="utf-8")
    janela.close()
    QApplication.exit(1 if problema else 0)
