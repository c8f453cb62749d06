""" "Copiar linhas" (Ctrl+C) on a table: the selected rows as the screen shows them, with a header line,
put on the clipboard twice — as tab-separated text (pasted into Excel or LibreOffice Calc it fills cells)
and as an HTML table (pasted into an e-mail it stays a table).

    acao = instalar_copia(tabela)    # Ctrl+C, and "Copiar linhas" in the table's context menu
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTableView

__all__ = ["colunas_visiveis", "copiar_linhas", "instalar_copia", "mime_das_linhas", "textos_selecionados"]


def colunas_visiveis(tabela: QTableView) -> list[int]:
    """The model's columns the table shows, in their on-screen order (hidden ones left out)."""
    modelo = tabela.model()
    if modelo is None:
        return []
    cabecalho = tabela.horizontalHeader()
    colunas = [c for c in range(modelo.columnCount()) if not tabela.isColumnHidden(c)]
    return sorted(colunas, key=cabecalho.visualIndex)


def textos_selecionados(tabela: QTableView) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the selected rows, each cell its displayed text; the rows in the table's order."""
    modelo = tabela.model()
    selecao = tabela.selectionModel()
    if modelo is None or selecao is None:
        return [], []
    colunas = colunas_visiveis(tabela)
    linhas = sorted({i.row() for i in selecao.selectedIndexes()})
    if not linhas and tabela.currentIndex().isValid():
        linhas = [tabela.currentIndex().row()]
    cabecalhos = [str(modelo.headerData(c, Qt.Orientation.Horizontal) or "") for c in colunas]
    textos = [[_texto(modelo.index(r, c).data()) for c in colunas] for r in linhas]
    return cabecalhos, textos


def _texto(valor: object) -> str:
    return "" if valor is None else str(valor)


def _celula_tsv(texto: str) -> str:
    # A tab or line break inside a cell would split it into two cells or rows of the spreadsheet.
    return " ".join(texto.replace("\t", " ").splitlines())


def _mime_vazio() -> QMimeData:
    """An empty QMimeData made by Qt itself, not by Python.

    The clipboard keeps (and deletes) its data until the program's very end; a QMimeData built in Python is
    PySide's subclass of it, whose destructor calls into Python, and at exit, when Python is already gone,
    that crashed the process (seen: a segmentation fault after the last test of the run). A model's
    `mimeData` returns a plain C++ QMimeData; its one internal format is removed."""
    modelo = QStandardItemModel(1, 1)
    mime = modelo.mimeData([modelo.index(0, 0)])
    for formato in list(mime.formats()):
        mime.removeFormat(formato)
    return mime


def mime_das_linhas(cabecalhos: list[str], linhas: list[list[str]]) -> QMimeData:
    """The rows as text/plain (tab-separated, header first) and text/html (a table)."""
    tsv = "\n".join("\t".join(_celula_tsv(c) for c in linha) for linha in [cabecalhos, *linhas]) + "\n"
    cab = "".join(f"<th>{escape(c)}</th>" for c in cabecalhos)
    corpo = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in linha) + "</tr>" for linha in linhas)
    html = (
        '<meta charset="utf-8"><table border="1" cellspacing="0" cellpadding="3">'
        f"<thead><tr>{cab}</tr></thead><tbody>{corpo}</tbody></table>"
    )
    mime = _mime_vazio()
    mime.setText(tsv)
    mime.setHtml(html)
    return mime


def copiar_linhas(tabela: QTableView) -> int:
    """Put the selected rows on the clipboard; returns how many rows were copied (0: nothing selected)."""
    cabecalhos, linhas = textos_selecionados(tabela)
    if not linhas:
        return 0
    QApplication.clipboard().setMimeData(mime_das_linhas(cabecalhos, linhas))
    return len(linhas)


class _CopiaPeloTeclado(QObject):
    """Ctrl+C reaching the table as a key press (when the shortcut did not take it, e.g. a window not yet
    active): copy the rows, not QAbstractItemView's own copy of the current cell alone."""

    def eventFilter(self, objeto: QObject, evento: QEvent) -> bool:
        if (
            evento.type() == QEvent.Type.KeyPress
            and isinstance(evento, QKeyEvent)
            and evento.matches(QKeySequence.StandardKey.Copy)
            and isinstance(objeto, QTableView)
        ):
            copiar_linhas(objeto)
            return True
        return False


def instalar_copia(tabela: QTableView) -> QAction:
    """Let the table select several rows (Shift/Ctrl + click or arrows) and copy them with Ctrl+C or its
    context menu's "Copiar linhas"; the action is returned so a page can add it to other menus."""
    tabela.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    acao = QAction("&Copiar linhas", tabela)
    acao.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
    acao.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    acao.setToolTip(
        "Copia as linhas selecionadas, com os títulos das colunas, para colar numa planilha ou e-mail"
    )
    acao.triggered.connect(lambda: copiar_linhas(tabela))
    tabela.addAction(acao)
    tabela.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    tabela.installEventFilter(_CopiaPeloTeclado(tabela))
    return acao
