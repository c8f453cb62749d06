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
    return Path(documentos) if documentos else Path.home()


def _lembrar(pasta: Path) -> None:
    global _ultima_pasta
    _ultima_pasta = pasta


def salvar_como(parent: QWidget | None, titulo: str, nome_sugerido: str, filtro: str) -> Path | None:
    """Ask where to save; None if the user cancelled. `filtro` like "Planilhas do Excel (*.xlsx)"."""
    nome, _f = QFileDialog.getSaveFileName(parent, titulo, str(pasta_inicial() / nome_sugerido), filtro)
    if not nome:
        return None
    caminho = Path(nome)
    extensao = filtro.rsplit("*", 1)[-1].rstrip(")").strip() if "*" in filtro else ""
    if extensao and extensao != ".*" and caminho.suffix.lower() != extensao.lower():
        caminho = caminho.with_name(caminho.name + extensao)
    _lembrar(caminho.parent)
    return caminho


def abrir_arquivo(parent: QWidget | None, titulo: str, filtro: str = "Todos os arquivos (*)") -> Path | None:
    nome, _f = QFileDialog.getOpenFileName(parent, titulo, str(pasta_inicial()), filtro)
    if not nome:
        return None
    _lembrar(Path(nome).parent)
    return Path(nome)


def abrir_arquivos(parent: QWidget | None, titulo: str, filtro: str = "Todos os arquivos (*)") -> list[Path]:
    nomes, _f = QFileDialog.getOpenFileNames(parent, titulo, str(pasta_inicial()), filtro)
    caminhos = [Path(n) for n in nomes]
    if caminhos:
        _lembrar(caminhos[0].parent)
    return caminhos


def escolher_pasta(parent: QWidget | None, titulo: str) -> Path | None:
    nome = QFileDialog.getExistingDirectory(parent, titulo, str(pasta_inicial()))
    if not nome:
        return None
    _lembrar(Path(nome))
    return Path(nome)
