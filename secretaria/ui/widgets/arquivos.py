"""File dialogs behind small functions of our own, so tests patch these (pytest-qt's advice) instead of
driving a native dialog. Callers must call them through the module (`arquivos.salvar_como(...)`).

The dialog runs in a short-lived child process (`secretaria.ui.seletor_arquivo`), never in the program's
own: listing a folder makes Qt open and close its files to guess their types, and on Linux and macOS that
drops the POSIX locks SQLite holds on the database's files (see that module). The program waits for the
answer with its windows painted but deaf to input (a click on them brings the dialog to the front); if the
window is closed or the program ends meanwhile, the child ends too.

A path the user picks that is one of the open database's own files is refused: reading it as an attachment
would drop the locks all the same, and writing a PDF or spreadsheet over it would destroy the database.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

from PySide6.QtCore import QEvent, QEventLoop, QObject, QProcess, QProcessEnvironment, QStandardPaths
from PySide6.QtWidgets import QApplication, QFileDialog, QWidget

from secretaria import auxiliares
from secretaria.ui import seletor_arquivo
from secretaria.ui.seletor_arquivo import Pedido, dialogo_arquivo

__all__ = [
    "abrir_arquivo",
    "abrir_arquivos",
    "dialogo_arquivo",
    "escolher_pasta",
    "nome_de_arquivo",
    "pasta_inicial",
    "salvar_como",
    "texto_falha_gravacao",
]

_PROIBIDOS_EM_NOME = re.compile(r'[\\/:*?"<>|\x00-\x1f]')


def nome_de_arquivo(titulo: str, extensao: str = ".pdf") -> str:
    """A file name suggested from a document's title, valid on Linux and Windows: "Auto de infração nº
    0732/2026" → "Auto de infração nº 0732-2026.pdf" (a "/" would name a folder, and the dialog refuses it).
    The one rule for every suggested name: PDFs, printouts and spreadsheet exports."""
    nome = _PROIBIDOS_EM_NOME.sub("-", titulo).strip().rstrip(". ") or "documento"
    return nome if nome.lower().endswith(extensao.lower()) else f"{nome}{extensao}"


_log = logging.getLogger(__name__)
_ultima_pasta: Path | None = None
ESPERA_INICIO_MS = 15_000


def pasta_inicial() -> Path:
    if _ultima_pasta is not None and _ultima_pasta.is_dir():
        return _ultima_pasta
    documentos = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documentos) if documentos and Path(documentos).is_dir() else Path.home()


def _lembrar(pasta: Path) -> None:
    global _ultima_pasta
    _ultima_pasta = pasta


_ENTRADA = frozenset(
    {
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonRelease,
        QEvent.Type.MouseButtonDblClick,
        QEvent.Type.Wheel,
        QEvent.Type.KeyPress,
        QEvent.Type.KeyRelease,
        QEvent.Type.ShortcutOverride,
        QEvent.Type.Shortcut,
        QEvent.Type.ContextMenu,
        QEvent.Type.TouchBegin,
        QEvent.Type.TouchUpdate,
        QEvent.Type.TouchEnd,
        QEvent.Type.TabletPress,
        QEvent.Type.DragEnter,
        QEvent.Type.Drop,
    }
)


class _EsperaDoSeletor(QObject):
    """While the child's dialog is open: the program's windows ignore the user's input (the dialog is modal
    for them) and a click on them brings the dialog to the front; the window of `parent` being hidden or
    destroyed ends the wait."""

    def __init__(self, processo: QProcess, laco: QEventLoop, janela: QWidget | None) -> None:
        super().__init__()
        self.processo = processo
        self.laco = laco
        self.janela = janela

    def eventFilter(self, alvo: QObject, evento: QEvent) -> bool:
        tipo = evento.type()
        if tipo in _ENTRADA:
            if tipo == QEvent.Type.MouseButtonPress:
                self.trazer_dialogo()
            evento.accept()  # a ShortcutOverride accepted: no shortcut fires either
            return True
        if tipo == QEvent.Type.Hide and alvo is self.janela and not evento.spontaneous():
            self.laco.quit()  # closed (a minimised window is hidden "spontaneously" and stays)
        return False

    def trazer_dialogo(self) -> None:
        if self.processo.state() != QProcess.ProcessState.Running:
            return
        if sys.platform == "win32":  # Windows lets a process take the foreground only when allowed
            import ctypes

            ctypes.windll.user32.AllowSetForegroundWindow(int(self.processo.processId()))
        self.processo.write(b"frente\n")


def _comando_do_seletor(pedido_json: str) -> tuple[str, list[str], QProcessEnvironment]:
    """The child's program, arguments and environment (`secretaria.auxiliares`: the same code whether the
    program is installed, run from its source tree or frozen)."""
    programa, *argumentos = auxiliares.comando(auxiliares.SELETOR_ARQUIVO, pedido_json)
    ambiente = QProcessEnvironment()
    for nome, valor in auxiliares.ambiente().items():
        ambiente.insert(nome, valor)
    return programa, argumentos, ambiente


def _centro(parent: QWidget | None) -> tuple[int, int] | None:
    if parent is None:
        return None
    centro = parent.window().frameGeometry().center()
    return centro.x(), centro.y()


FALHA_AO_ABRIR = "Não foi possível abrir a janela de escolha de arquivos"
FALHA_NA_RESPOSTA = "A janela de escolha de arquivos fechou sem dizer qual arquivo foi escolhido"


def _falha_do_seletor(
    parent: QWidget | None, titulo: str, detalhe: str, *, falha: str = FALHA_AO_ABRIR
) -> list[str]:
    from secretaria.ui.widgets import mensagens

    _log.error("Janela de escolha de arquivo não funcionou: %s", detalhe)
    mensagens.avisar_erro(
        parent,
        titulo,
        f"{falha}; nada foi feito. Tente de novo; se o problema continuar, avise o suporte.",
        detalhes=detalhe,
    )
    return []


def _escolher(
    parent: QWidget | None,
    titulo: str,
    inicial: str,
    filtro: str,
    modo: QFileDialog.FileMode,
    salvar: bool = False,
    substituir: bool = True,
) -> list[str]:
    """Run the dialog in the child process and wait for its answer without freezing the windows.

    (No database code is imported at this module's top: it is the UI's, the child needs none of it.)"""
    pedido = Pedido(titulo, inicial, filtro, modo.name, salvar, _centro(parent), substituir)
    programa, argumentos, ambiente = _comando_do_seletor(pedido.para_json())
    processo = QProcess()
    processo.setProcessEnvironment(ambiente)
    processo.start(programa, argumentos)
    if not processo.waitForStarted(ESPERA_INICIO_MS):
        return _falha_do_seletor(parent, titulo, processo.errorString())
    laco = QEventLoop()
    processo.finished.connect(laco.quit)
    janela = parent.window() if parent is not None else None
    espera = _EsperaDoSeletor(processo, laco, janela)
    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(espera)
    if janela is not None:
        janela.destroyed.connect(laco.quit)
    try:
        laco.exec()
    finally:
        app.removeEventFilter(espera)
        interrompido = processo.state() != QProcess.ProcessState.NotRunning
        if interrompido:  # the window went away, or the program is ending
            processo.kill()
            processo.waitForFinished(5_000)
    if interrompido:
        return []
    erros = bytes(processo.readAllStandardError().data()).decode("utf-8", "replace").strip()
    if erros:
        _log.warning("Janela de escolha de arquivo (stderr): %s", erros)
    if processo.exitStatus() != QProcess.ExitStatus.NormalExit or processo.exitCode() != 0:
        return _falha_do_seletor(parent, titulo, f"código de saída {processo.exitCode()}\n{erros}".strip())
    try:
        nomes = seletor_arquivo.ler_resposta(bytes(processo.readAllStandardOutput().data()))
    except ValueError as exc:
        return _falha_do_seletor(parent, titulo, f"{exc}\n{erros}".strip(), falha=FALHA_NA_RESPOSTA)
    return _sem_arquivos_do_banco(parent, titulo, nomes)


def _sem_arquivos_do_banco(parent: QWidget | None, titulo: str, nomes: list[str]) -> list[str]:
    """The chosen paths minus the open database's own files (the user is told which were left out)."""
    from secretaria.db import eh_arquivo_de_banco_aberto
    from secretaria.ui.widgets import mensagens

    recusados = [n for n in nomes if eh_arquivo_de_banco_aberto(Path(n))]
    if recusados:
        mensagens.avisar_erro(
            parent,
            titulo,
            "O arquivo escolhido é o banco de dados que o programa está usando e não pode ser usado aqui: "
            f"{', '.join(Path(n).name for n in recusados)}. Nada foi feito com ele; escolha outro arquivo.",
        )
    return [n for n in nomes if n not in recusados]


def texto_falha_gravacao(destino: Path, exc: OSError, dica: str = "") -> str:
    """What to tell the user when writing `destino` failed: the disk refusals in their own words."""
    from secretaria.services.base import recusa_de_disco

    recusa = recusa_de_disco(exc, f"o arquivo {destino}")
    if recusa is not None:
        return recusa.mensagem
    return f"Não foi possível gravar {destino}: {exc.strerror or exc}.{chr(10) + dica if dica else ''}"


def salvar_como(
    parent: QWidget | None, titulo: str, nome_sugerido: str, filtro: str, substituir: bool = True
) -> Path | None:
    """Ask where to save; None if the user cancelled. `filtro` like "Planilhas do Excel (*.xlsx)".

    With `substituir=False` the dialog does not offer to replace an existing file (the caller refuses it)."""
    nomes = _escolher(
        parent,
        titulo,
        str(pasta_inicial() / nome_sugerido),
        filtro,
        QFileDialog.FileMode.AnyFile,
        salvar=True,
        substituir=substituir,
    )
    if not nomes:
        return None
    caminho = Path(nomes[0])
    extensao = filtro.rsplit("*", 1)[-1].rstrip(")").strip() if "*" in filtro else ""
    if extensao and extensao != ".*" and caminho.suffix.lower() != extensao.lower():
        caminho = caminho.with_name(caminho.name + extensao)
    _lembrar(caminho.parent)
    return caminho


def abrir_arquivo(parent: QWidget | None, titulo: str, filtro: str = "Todos os arquivos (*)") -> Path | None:
    nomes = _escolher(parent, titulo, str(pasta_inicial()), filtro, QFileDialog.FileMode.ExistingFile)
    if not nomes:
        return None
    _lembrar(Path(nomes[0]).parent)
    return Path(nomes[0])


def abrir_arquivos(parent: QWidget | None, titulo: str, filtro: str = "Todos os arquivos (*)") -> list[Path]:
    caminhos = [
        Path(n)
        for n in _escolher(parent, titulo, str(pasta_inicial()), filtro, QFileDialog.FileMode.ExistingFiles)
    ]
    if caminhos:
        _lembrar(caminhos[0].parent)
    return caminhos


def escolher_pasta(parent: QWidget | None, titulo: str) -> Path | None:
    nomes = _escolher(parent, titulo, str(pasta_inicial()), "", QFileDialog.FileMode.Directory)
    if not nomes:
        return None
    _lembrar(Path(nomes[0]))
    return Path(nomes[0])
