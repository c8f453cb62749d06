"""File dialogs behind small functions of our own, so tests patch these (pytest-qt's advice) instead of
driving a native dialog. Callers must call them through the module (`arquivos.salvar_como(...)`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QWidget

_ultima_pasta: Path | None = None


def pasta_inicial() -> Path:
    if _ultima_pasta is not None and _ultima_pasta.is_dir():
        return _ultima_pasta
    documentos = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documentos) if documentos and Path(documentos).is_dir() else Path.home()


def _lembrar(pasta: Path) -> None:
    global _ultima_pasta
    _ultima_pasta = pasta


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
) -> QFileDialog:
    """The file dialog, labelled in Portuguese (the functions below run it)."""
    dialogo = QFileDialog(parent, titulo, inicial, filtro)
    dialogo.setFileMode(modo)
    if modo == QFileDialog.FileMode.Directory:
        dialogo.setOption(QFileDialog.Option.ShowDirsOnly, True)
    if salvar:
        dialogo.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    for rotulo, texto in _ROTULOS.items():
        dialogo.setLabelText(rotulo, texto)
    dialogo.setLabelText(QFileDialog.DialogLabel.Accept, "Salvar" if salvar else "Abrir")
    return dialogo


def _escolher(
    parent: QWidget | None,
    titulo: str,
    inicial: str,
    filtro: str,
    modo: QFileDialog.FileMode,
    salvar: bool = False,
) -> list[str]:
    dialogo = dialogo_arquivo(parent, titulo, inicial, filtro, modo, salvar)
    if dialogo.exec() != QFileDialog.DialogCode.Accepted:
        return []
    return [n for n in dialogo.selectedFiles() if n]


def salvar_como(parent: QWidget | None, titulo: str, nome_sugerido: str, filtro: str) -> Path | None:
    """Ask where to save; None if the user cancelled. `filtro` like "Planilhas do Excel (*.xlsx)"."""
    nomes = _escolher(
        parent,
        titulo,
        str(pasta_inicial() / nome_sugerido),
        filtro,
        QFileDialog.FileMode.AnyFile,
        salvar=True,
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
