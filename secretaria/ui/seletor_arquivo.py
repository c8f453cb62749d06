"""The file dialog as a program of its own: `python -m secretaria.ui.seletor_arquivo PEDIDO`.

Why a separate process: to guess a file's type, Qt's file dialogs open and close the files of the folder
they list (QMimeDatabase reads their first bytes, even under a "*.xlsx" filter). On Linux and macOS closing
any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included: a dialog that
listed the folder of `secretaria.sqlite` inside the program would leave the live database unlocked, and the
next program to open it would delete its WAL. So the program never lists a folder itself; it runs this
tiny Qt program (`secretaria.ui.widgets.arquivos` does), which shows the same Portuguese dialog and prints
the chosen paths, and holds no database.

Protocol. PEDIDO is one JSON argument: {"titulo", "inicial", "filtro", "modo" (a QFileDialog.FileMode name),
"salvar", "centro": [x, y] or null}. The answer is one line on stdout, `MARCA_RESPOSTA` followed by JSON:
{"caminhos": [...]}, empty when the user cancelled. Only that line counts (`ler_resposta`): whatever else
reaches stdout — a library or a Qt plugin printing — is ignored, and the program's own prints go to stderr
(`main`). Standard input stays open while the program waits: a line "frente" brings the dialog
to the front (the user clicked the waiting window), end of input (the program closed or died) ends it
without an answer.

`SECRETARIA_SELETOR_TESTE` (tests only) answers by itself once the start folder has been listed:
{"nomes": [...]} selects those names there and accepts (an empty list accepts the folder itself in folder
mode), {"cancelar": true} cancels, {"esperar": true} never answers; "relatorio": a path gets this process's
pid at the start and what the dialog listed ("listados") once listed; "captura": a path gets a picture of
the dialog.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPoint, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFileSystemModel,
    QLineEdit,
    QSplitter,
    QTreeView,
    QWidget,
)

from secretaria.ui.aplicacao import configurar_aplicacao
from secretaria.ui.widgets.janelas import tela_da_janela

VARIAVEL_TESTE = "SECRETARIA_SELETOR_TESTE"
ORDEM_FRENTE = b"frente"
SAIDA_SEM_RESPOSTA = 3
MARCA_RESPOSTA = b"secretaria-seletor-1 "
"""The answer line's start: this protocol and its version."""


def linha_de_resposta(resposta: dict[str, Any]) -> bytes:
    # ASCII only: the pipe then carries any path whatever the encodings of either side.
    return MARCA_RESPOSTA + json.dumps(resposta, ensure_ascii=True).encode("ascii") + b"\n"


def ler_resposta(saida: bytes) -> list[str]:
    """The chosen paths in the child's whole standard output: the last line with the marker, any other line
    ignored. ValueError, saying what came instead, where there is no such line or it does not parse."""
    marcadas = [
        linha[len(MARCA_RESPOSTA) :] for linha in saida.splitlines() if linha.startswith(MARCA_RESPOSTA)
    ]
    if not marcadas:
        inicio = saida[:500].decode("utf-8", "replace")
        raise ValueError(f"o seletor terminou sem dar resposta (saída: {inicio!r})")
    try:
        caminhos = json.loads(marcadas[-1].decode("ascii"))["caminhos"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"resposta ilegível do seletor: {marcadas[-1][:500]!r}") from exc
    if not isinstance(caminhos, list):
        raise ValueError(f"resposta ilegível do seletor: {marcadas[-1][:500]!r}")
    return [str(n) for n in caminhos if n]


@dataclass(frozen=True)
class Pedido:
    titulo: str
    inicial: str
    filtro: str
    modo: str
    salvar: bool = False
    centro: tuple[int, int] | None = None
    substituir: bool = True

    def para_json(self) -> str:
        dados: dict[str, Any] = {
            "titulo": self.titulo,
            "inicial": self.inicial,
            "filtro": self.filtro,
            "modo": self.modo,
            "salvar": self.salvar,
            "centro": list(self.centro) if self.centro is not None else None,
            "substituir": self.substituir,
        }
        # ASCII only: the command line and the pipe then carry any path whatever their encodings.
        return json.dumps(dados, ensure_ascii=True)

    @classmethod
    def de_json(cls, texto: str) -> Pedido:
        dados = json.loads(texto)
        centro = dados.get("centro")
        return cls(
            titulo=str(dados["titulo"]),
            inicial=str(dados["inicial"]),
            filtro=str(dados.get("filtro") or ""),
            modo=str(dados["modo"]),
            salvar=bool(dados.get("salvar")),
            centro=(int(centro[0]), int(centro[1])) if centro else None,
            substituir=bool(dados.get("substituir", True)),
        )


class _Ordens(QObject):
    """What the waiting program says on standard input, read in a thread and delivered to the GUI thread."""

    frente = Signal()
    fim = Signal()


def _ler_ordens(ordens: _Ordens) -> None:
    """Read standard input with plain os.read (a buffered reader blocked in a daemon thread would abort
    the interpreter's shutdown) until it ends."""
    pendente = b""
    while True:
        try:
            bloco = os.read(0, 4096)
        except OSError:
            break
        if not bloco:
            break
        pendente += bloco
        *linhas, pendente = pendente.split(b"\n")
        for linha in linhas:
            if linha.strip() == ORDEM_FRENTE:
                ordens.frente.emit()
    ordens.fim.emit()


def _trazer_para_frente(dialogo: QFileDialog) -> None:
    dialogo.raise_()
    dialogo.activateWindow()
    _trazer_para_frente_windows()


def _trazer_para_frente_windows() -> None:
    """A native dialog has no QWidget to raise: put this thread's visible windows in the foreground (the
    waiting program allowed it with AllowSetForegroundWindow before asking)."""
    if sys.platform != "win32":
        return
    import ctypes
    from ctypes import wintypes

    user32 = ctypes.windll.user32
    janelas: list[int] = []
    procurar = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.HWND, wintypes.LPARAM)

    def anotar(hwnd: int, _param: int) -> bool:
        if user32.IsWindowVisible(hwnd):
            janelas.append(hwnd)
        return True

    user32.EnumThreadWindows(ctypes.windll.kernel32.GetCurrentThreadId(), procurar(anotar), 0)
    for hwnd in janelas:
        user32.SetForegroundWindow(hwnd)


def modo_de_arquivo(nome: str) -> QFileDialog.FileMode:
    return QFileDialog.FileMode[nome]


_ROTULOS = {
    QFileDialog.DialogLabel.LookIn: "Examinar:",
    QFileDialog.DialogLabel.FileName: "Nome do arquivo:",
    QFileDialog.DialogLabel.FileType: "Tipo de arquivo:",
    QFileDialog.DialogLabel.Reject: "Cancelar",
}
"""Qt's own file dialog (used where the system has none) keeps some labels in English even with its
pt_BR translation: "Look in:", "Files of type:". A native dialog ignores these and speaks the system's
language anyway."""


def dialogo_arquivo(
    parent: QWidget | None,
    titulo: str,
    inicial: str,
    filtro: str,
    modo: QFileDialog.FileMode,
    salvar: bool = False,
    substituir: bool = True,
) -> QFileDialog:
    """The file dialog, labelled in Portuguese (the functions below run it)."""
    dialogo = QFileDialog(parent, titulo, inicial, filtro)
    dialogo.setFileMode(modo)
    if modo == QFileDialog.FileMode.Directory:
        dialogo.setOption(QFileDialog.Option.ShowDirsOnly, True)
    if salvar:
        dialogo.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        # Where an existing file is refused, do not ask "Deseja substituí-lo?" first: the caller says it exists.
        dialogo.setOption(QFileDialog.Option.DontConfirmOverwrite, not substituir)
    for rotulo, texto in _ROTULOS.items():
        dialogo.setLabelText(rotulo, texto)
    dialogo.setLabelText(QFileDialog.DialogLabel.Accept, "Salvar" if salvar else "Abrir")
    _dar_espaco(dialogo)
    return dialogo


LARGURA, ALTURA = 900, 560
"""Qt's own file dialog opens at about 650×400: the Portuguese headers were cut ("Tamanhc", "Data de
modifica") and the file types shown as "Exc…eet". A native dialog sizes itself."""


def _dar_espaco(dialogo: QFileDialog) -> None:
    """Room for Qt's own dialog (up to the screen's size), and its detail columns as wide as their headers
    and the files listed, each time a folder is listed."""
    tela_fisica = tela_da_janela(dialogo)
    tela = tela_fisica.availableGeometry() if tela_fisica is not None else None
    largura = LARGURA if tela is None else min(LARGURA, tela.width() - 40)
    altura = ALTURA if tela is None else min(ALTURA, tela.height() - 80)
    dialogo.setMinimumSize(largura, altura)  # `adjustSize()` before centring keeps it
    divisor = dialogo.findChild(QSplitter, "splitter")
    if divisor is not None and divisor.count() == 2:
        divisor.setSizes([170, largura - 170])  # the places ("Computador", home) whole
    _ajustar_colunas(dialogo)
    modelo = dialogo.findChild(QFileSystemModel)
    if modelo is not None:
        modelo.directoryLoaded.connect(lambda _pasta: _ajustar_colunas(dialogo))


def _ajustar_colunas(dialogo: QFileDialog) -> None:
    for vista in dialogo.findChildren(QTreeView):
        cabecalho = vista.header()
        for coluna in range(1, cabecalho.count()):  # "Nome" takes what is left
            largura = max(cabecalho.sectionSizeFromContents(coluna).width(), vista.sizeHintForColumn(coluna))
            cabecalho.resizeSection(coluna, max(cabecalho.sectionSize(coluna), largura + 8))
        outras = sum(cabecalho.sectionSize(c) for c in range(1, cabecalho.count()))
        cabecalho.resizeSection(0, max(cabecalho.sectionSize(0), vista.viewport().width() - outras))


def criar_dialogo(pedido: Pedido) -> QFileDialog:
    return dialogo_arquivo(
        None,
        pedido.titulo,
        pedido.inicial,
        pedido.filtro,
        modo_de_arquivo(pedido.modo),
        pedido.salvar,
        pedido.substituir,
    )


def _pasta_listada(dialogo: QFileDialog) -> str:
    return dialogo.directory().absolutePath()


def responder_quando_listado(dialogo: QFileDialog, resposta: dict[str, Any], listados: list[str]) -> None:
    """Tests: once the dialog's model has listed its folder (and Qt has looked at the files, as it does for
    the user), note the names listed and answer as `resposta` says. Also used in-process by the test that
    shows such a listing drops the program's locks."""
    modelo = dialogo.findChild(QFileSystemModel)
    if modelo is None:  # a native dialog: nothing to drive
        QTimer.singleShot(0, dialogo.reject)
        return
    pasta = _pasta_listada(dialogo)

    def listado(caminho: str) -> None:
        if Path(caminho) != Path(pasta):
            return
        modelo.directoryLoaded.disconnect(listado)
        # Let the file-information thread finish with the folder (types and icons), as it would while the
        # user reads the list, and paint the dialog once.
        QTimer.singleShot(300, dialogo, lambda: responder(caminho))

    def responder(caminho: str) -> None:
        raiz = modelo.index(caminho)
        listados.extend(
            sorted(modelo.fileName(modelo.index(i, 0, raiz)) for i in range(modelo.rowCount(raiz)))
        )
        _relatar(resposta, listados=listados)
        captura = resposta.get("captura")
        if captura:
            dialogo.grab().save(str(captura))
        if resposta.get("esperar"):
            return
        if resposta.get("cancelar"):
            dialogo.reject()
            return
        nomes = [str(n) for n in resposta.get("nomes", [])]
        campo = dialogo.findChild(QLineEdit, "fileNameEdit")
        if campo is not None:
            campo.setText(" ".join(f'"{n}"' for n in nomes) if len(nomes) > 1 else "".join(nomes))
        dialogo.accept()
        if dialogo.isVisible():  # the dialog did not take the answer (a name it refuses): never hang a test
            dialogo.reject()

    modelo.directoryLoaded.connect(listado)


def _relatar(resposta: dict[str, Any], **dados: Any) -> None:
    relatorio = resposta.get("relatorio")
    if relatorio:
        Path(relatorio).write_text(json.dumps({"pid": os.getpid(), **dados}), encoding="utf-8")


def executar(pedido: Pedido, resposta_teste: dict[str, Any] | None = None) -> dict[str, Any]:
    """Show the dialog and return the answer, {"caminhos": [...]}. Ends early, without an answer
    (SystemExit), when standard input closes."""
    dialogo = criar_dialogo(pedido)
    ordens = _Ordens()
    ordens.frente.connect(lambda: _trazer_para_frente(dialogo))
    ordens.fim.connect(lambda: QApplication.exit(SAIDA_SEM_RESPOSTA))
    threading.Thread(target=_ler_ordens, args=(ordens,), name="ordens", daemon=True).start()
    listados: list[str] = []
    if resposta_teste is not None:
        _relatar(resposta_teste)
        responder_quando_listado(dialogo, resposta_teste, listados)
    if pedido.centro is not None:
        dialogo.adjustSize()
        canto = QPoint(*pedido.centro) - dialogo.rect().center()
        dialogo.move(max(0, canto.x()), max(0, canto.y()))
    dialogo.finished.connect(lambda _r: QApplication.exit(0))
    dialogo.open()
    QTimer.singleShot(0, dialogo, lambda: _trazer_para_frente(dialogo))
    if QApplication.exec() == SAIDA_SEM_RESPOSTA:
        raise SystemExit(SAIDA_SEM_RESPOSTA)
    aceito = dialogo.result() == QFileDialog.DialogCode.Accepted
    return {"caminhos": [n for n in dialogo.selectedFiles() if n] if aceito else []}


def main(argv: list[str] | None = None) -> int:
    argumentos = sys.argv[1:] if argv is None else argv
    if len(argumentos) != 1:
        print("uso: python -m secretaria.ui.seletor_arquivo PEDIDO_JSON", file=sys.stderr)
        return 2
    pedido = Pedido.de_json(argumentos[0])
    teste = os.environ.get(VARIAVEL_TESTE)
    saida = sys.stdout.buffer if sys.stdout is not None else os.fdopen(1, "wb")
    sys.stdout = sys.stderr  # this process's own prints stay off the answer's channel
    configurar_aplicacao()
    resultado = executar(pedido, json.loads(teste) if teste else None)
    saida.write(linha_de_resposta(resultado))
    saida.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
