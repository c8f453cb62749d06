"""What the program says when nobody sees a console: the Start-menu shortcut, `pythonw`, the windowed frozen
build (their sys.stdout and sys.stderr are None). A refusal before the window exists (a --db file that does
not exist, a server that cannot be reached, a database newer than the program) would otherwise vanish: the
program would simply not open. Here it goes to the log file and, when the window was wanted, to a message box.

`caixa` is the one place that shows a box (tests replace it).
"""

from __future__ import annotations

import logging
import tempfile
import traceback
from pathlib import Path

TITULO = "Secretaria"
TITULO_ERRO = "Secretaria — o programa não foi aberto"

_log = logging.getLogger("secretaria.partida")


def registrar_recusa(mensagem: str, *, mostrar: bool) -> Path:
    """Log the refusal (and show it when `mostrar`); returns the log file."""
    arquivo = _preparar_log()
    _log.error("O programa recusou o pedido: %s", mensagem)
    if mostrar:
        caixa(TITULO_ERRO, f"{mensagem}\n\nEsta mensagem também foi registrada em:\n{arquivo}", erro=True)
    return arquivo


def relatar_falha(*, mostrar: bool) -> Path:
    """Log the exception being handled, with its traceback (and tell the user where, when `mostrar`)."""
    arquivo = _preparar_log()
    _log.error("Erro inesperado ao iniciar o programa", exc_info=True)
    if mostrar:
        import sys

        exc = sys.exc_info()[1]
        resumo = "".join(traceback.format_exception_only(type(exc), exc)).strip() if exc else ""
        caixa(
            TITULO_ERRO,
            "O programa não pôde ser aberto por causa de um erro inesperado.\n\n"
            f"{resumo}\n\nOs detalhes técnicos foram registrados em:\n{arquivo}\n\n"
            "Se o erro se repetir, avise o suporte.",
            erro=True,
        )
    return arquivo


def mostrar_mensagem(texto: str, *, erro: bool) -> None:
    """What the command line would have printed (its help, its version, a mistake in its arguments)."""
    if erro:
        arquivo = _preparar_log()
        _log.error("Linha de comando recusada: %s", texto)
        texto = f"{texto}\n\nEsta mensagem também foi registrada em:\n{arquivo}"
    if texto:
        caixa(TITULO_ERRO if erro else TITULO, texto, erro=erro)


def _preparar_log() -> Path:
    """The program's log file, with its handler installed once (the temporary folder if the data folder
    cannot be written, as the window's error hooks do)."""
    from secretaria.ui.erros import arquivo_log_padrao, configurar_log

    global _arquivo
    if _arquivo is not None:
        return _arquivo
    arquivo = arquivo_log_padrao()
    try:
        configurar_log(arquivo)
    except OSError:
        arquivo = Path(tempfile.gettempdir()) / arquivo.name
        configurar_log(arquivo)
    _arquivo = arquivo
    return arquivo


_arquivo: Path | None = None


def caixa(titulo: str, texto: str, *, erro: bool) -> None:
    """A message box, blocking until it is closed (there is no window yet). Skipped where Qt cannot start
    (Linux without the libraries of its display plugin): the log has the message."""
    from secretaria.ui.requisitos import conferir_bibliotecas_graficas

    if conferir_bibliotecas_graficas() is not None:
        return
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from secretaria.ui.aplicacao import configurar_aplicacao

    configurar_aplicacao()
    icone = QMessageBox.Icon.Critical if erro else QMessageBox.Icon.Information
    quadro = QMessageBox(icone, titulo, texto)
    quadro.setTextFormat(Qt.TextFormat.PlainText)
    quadro.exec()
