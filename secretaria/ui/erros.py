"""Nothing fails silently: an unexpected error anywhere in the program reaches the user as a Portuguese
message, and its details reach a log file.

`instalar(arquivo_log)` (called by `app.executar` at start-up) sets `sys.excepthook`, which PySide calls for
an exception escaping a Qt slot, and `threading.excepthook`. Each error is written with its traceback to a
rotating log in the program's data folder; then one message box says the action was not completed, whether
its transaction was undone (the unit of work marks an exception that left it uncommitted), and where the
details are. The window stays usable: the slot simply ended. A burst of errors (a timer or a repaint failing
over and over) shows one box, which counts the repeats, not fifty.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QMessageBox

TAMANHO_LOG = 1_000_000
COPIAS_LOG = 5
TITULO = "Erro inesperado"

_log = logging.getLogger("secretaria.erros")


def arquivo_log_padrao() -> Path:
    from secretaria.db import pasta_dados

    return pasta_dados() / "secretaria.log"


def configurar_log(arquivo: Path) -> logging.Handler:
    """Send the program's warnings and errors to a rotating file (1 MB × 5); returns the handler added."""
    arquivo.parent.mkdir(parents=True, exist_ok=True)
    manipulador = logging.handlers.RotatingFileHandler(
        arquivo, maxBytes=TAMANHO_LOG, backupCount=COPIAS_LOG, encoding="utf-8", delay=True
    )
    manipulador.setLevel(logging.WARNING)
    manipulador.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s")
    )
    raiz = logging.getLogger()
    raiz.addHandler(manipulador)
    if raiz.level == logging.NOTSET or raiz.level > logging.WARNING:
        raiz.setLevel(logging.WARNING)
    return manipulador


def texto_do_erro(exc: BaseException | None, arquivo_log: Path) -> str:
    from secretaria.db import NOTA_DESFEITA

    desfeito = exc is not None and NOTA_DESFEITA in getattr(exc, "__notes__", ())
    partes = ["A ação não foi concluída por causa de um erro inesperado no programa."]
    if desfeito:
        partes.append("A gravação em andamento foi desfeita: nada foi gravado.")
    else:
        partes.append("Confira se o que a ação deveria gravar foi gravado antes de repeti-la.")
    partes.append(f"Os detalhes técnicos foram registrados em:\n{arquivo_log}")
    partes.append("Você pode continuar usando o programa. Se o erro se repetir, avise o suporte.")
    return "\n\n".join(partes)


class _Aviso(QObject):
    """Lives in the GUI thread: an error in another thread is shown through its queued signal."""

    pedido = Signal(object)

    def __init__(self, arquivo_log: Path) -> None:
        super().__init__()
        self.arquivo_log = arquivo_log
        self.caixa: QMessageBox | None = None
        self.repeticoes = 0
        self.texto = ""
        self.pedido.connect(self.mostrar)

    def mostrar(self, exc: BaseException | None) -> None:
        if self.caixa is not None:  # one box at a time: count the burst in it
            self.repeticoes += 1
            vezes = "mais 1 vez" if self.repeticoes == 1 else f"mais {self.repeticoes} vezes"
            self.caixa.setText(f"{self.texto}\n\n(Erro repetido {vezes}.)")
            return
        from secretaria.ui.widgets import mensagens

        self.texto = texto_do_erro(exc, self.arquivo_log)
        self.repeticoes = 0
        detalhes = (
            "".join(traceback.format_exception_only(type(exc), exc)).strip() if exc is not None else None
        )
        self.caixa = mensagens.caixa_mensagem(
            QApplication.activeWindow(),
            TITULO,
            self.texto,
            icone=QMessageBox.Icon.Critical,
            ao_terminar=self._fechada,
            detalhes=detalhes,
        )

    def _fechada(self, _resultado: int) -> None:
        self.caixa = None


_aviso: _Aviso | None = None
_instalado: tuple[logging.Handler, object, object] | None = None


def tratar(
    tipo: type[BaseException], valor: BaseException, rastro: TracebackType | None, *, linha: str = ""
) -> None:
    """Log the error, then show the message (in the GUI thread; queued from any other)."""
    if issubclass(tipo, KeyboardInterrupt | SystemExit):
        sys.__excepthook__(tipo, valor, rastro)
        return
    from secretaria.services.base import SessaoEncerrada

    if isinstance(valor, SessaoEncerrada):
        # Not unexpected: the act was refused because the administrator changed the account, and the main
        # window (told by the unit of work) is already going back to the login screen with the reason.
        _log.info("Sessão encerrada: %s", valor.mensagem)
        return
    _log.error("Erro inesperado%s", f" ({linha})" if linha else "", exc_info=(tipo, valor, rastro))
    aviso = _aviso
    if aviso is None or QApplication.instance() is None:
        sys.__excepthook__(tipo, valor, rastro)
        return
    if threading.current_thread() is threading.main_thread():
        aviso.mostrar(valor)
    else:
        aviso.pedido.emit(valor)


def _gancho_threads(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None:
        return
    nome = args.thread.name if args.thread is not None else "?"
    tratar(args.exc_type, args.exc_value, args.exc_traceback, linha=f"thread {nome}")


def instalar(arquivo_log: Path | None = None) -> Path:
    """Install the hooks (the QApplication must exist); returns the log file. A data folder that cannot be
    written sends the log to the temporary folder instead: the hooks are installed in any case."""
    global _aviso, _instalado
    desinstalar()
    arquivo = arquivo_log or arquivo_log_padrao()
    try:
        manipulador = configurar_log(arquivo)
    except OSError:
        arquivo = Path(tempfile.gettempdir()) / arquivo.name
        manipulador = configurar_log(arquivo)
    _instalado = (manipulador, sys.excepthook, threading.excepthook)
    _aviso = _Aviso(arquivo)
    sys.excepthook = tratar
    threading.excepthook = _gancho_threads
    return arquivo


def desinstalar() -> None:
    """Put back the hooks found at installation and remove the log handler (tests)."""
    global _aviso, _instalado
    if _instalado is not None:
        manipulador, gancho, gancho_threads = _instalado
        logging.getLogger().removeHandler(manipulador)
        manipulador.close()
        sys.excepthook = gancho  # type: ignore[assignment]
        threading.excepthook = gancho_threads  # type: ignore[assignment]
    _instalado = None
    _aviso = None
