"""Small form pieces the case dialogs add on top of `secretaria.ui.widgets` (part A's shared widgets).

Only what those lack: a multi-line text where Tab leaves the field, a searchable combo, a helper to
refill a combo keeping the choice, and the timeline table of the case and of the cassação.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QFormLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QTableView,
    QWidget,
)

from secretaria.ui.modelo_tabela import ModeloTabela
from secretaria.ui.widgets import Formulario

COR_SECUNDARIA = "#4b5563"


class CampoTexto(QPlainTextEdit):
    """Multi-line text where Tab moves to the next field (as everywhere else) instead of typing a tab."""

    def __init__(self, parent: QWidget | None = None, linhas: int = 3) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * linhas + 14)
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * (linhas * 2 + 2) + 14)

    def texto(self) -> str:
        return self.toPlainText()


PAPEL_BUSCA = Qt.ItemDataRole.UserRole + 40
"""The item role holding an option's text as searched (`chave_de_busca`)."""

_SEPARADORES = re.compile(r"[^0-9a-z]+")
_NUMERO_E_LETRA = re.compile(r"(?<=[0-9])(?=[a-z])|(?<=[a-z])(?=[0-9])")
_ORDINAIS = str.maketrans("", "", "ºª°")


def chave_de_busca(texto: str) -> str:
    """How an option and a typed search compare: no accents, case, ordinal marks or punctuation, words
    between single spaces (a number and a letter are two words), with a space before the first. So "2-VII",
    "2, VII", "2VII", "art 2 vii" and "Art. 2º, VII" all read " 2 vii" or " art 2 vii", found in
    " art 2 vii tipo b …" and not in " art 12 vii"."""
    sem_acento = "".join(
        c for c in unicodedata.normalize("NFKD", texto.translate(_ORDINAIS)) if not unicodedata.combining(c)
    )
    palavras = _NUMERO_E_LETRA.sub(" ", _SEPARADORES.sub(" ", sem_acento.lower()))
    return " " + " ".join(palavras.split())


class CompletadorNormalizado(QCompleter):
    """Completes on `chave_de_busca` of the options (contains), while the field shows the option's own text
    (its start, not its tail, once chosen)."""

    def splitPath(self, caminho: str) -> list[str]:
        chave = chave_de_busca(caminho)
        return [chave if chave.strip() else ""]

    def pathFromIndex(self, indice: QModelIndex | QPersistentModelIndex) -> str:
        return str(indice.data(Qt.ItemDataRole.DisplayRole) or "")


def combo_pesquisavel(parent: QWidget | None = None) -> QComboBox:
    """An editable combo that completes on any part of the text, accents, case and punctuation aside
    ("viacao" finds "Expresso Viação Sul"; "2-VII" finds "Art. 2º, VII (tipo B) — …")."""
    combo = QComboBox(parent)
    combo.setEditable(True)
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    modelo = combo.model()

    def indexar(_pai: QModelIndex, primeira: int, ultima: int) -> None:
        for linha in range(primeira, ultima + 1):
            indice = modelo.index(linha, 0)
            modelo.setData(indice, chave_de_busca(str(indice.data() or "")), PAPEL_BUSCA)

    modelo.rowsInserted.connect(indexar)
    completer = CompletadorNormalizado(modelo, combo)
    completer.setCompletionRole(PAPEL_BUSCA)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    combo.setCompleter(completer)
    # Show the start of a long choice ("Art. 1º, XVI (tipo D) — …"), not its tail: also after the completer
    # wrote the chosen text (which leaves the cursor at its end).
    combo.currentIndexChanged.connect(lambda _i: _inicio_visivel(combo))
    completer.activated.connect(lambda *_a: QTimer.singleShot(0, combo, lambda: _inicio_visivel(combo)))
    return combo


def _inicio_visivel(combo: QComboBox) -> None:
    editor = combo.lineEdit()
    if editor is not None:
        editor.setCursorPosition(0)


def preencher_combo(
    combo: QComboBox, itens: Iterable[tuple[str, object] | tuple[str, object, str]], vazio: str | None = None
) -> None:
    """Replace a combo's items (label, data[, more words to search it by]), keeping the current choice when
    it is still offered.

    `vazio` names the empty choice. In a searchable (editable) combo it is the field's placeholder, never
    text: typed over, the words were kept ("Santa— escolha a operadora —"); the empty choice is then an
    item with no text.
    """
    atual = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    editor = combo.lineEdit() if combo.isEditable() else None
    if vazio is not None:
        combo.addItem("" if editor is not None else vazio, None)
        if editor is not None:
            editor.setPlaceholderText(vazio)
    for item in itens:
        rotulo, dado, *busca = item
        combo.addItem(rotulo, dado)
        if busca and busca[0]:
            combo.setItemData(combo.count() - 1, chave_de_busca(f"{rotulo} {busca[0]}"), PAPEL_BUSCA)
            combo.setItemData(combo.count() - 1, busca[0], Qt.ItemDataRole.ToolTipRole)
    indice = combo.findData(atual) if atual is not None else -1
    combo.setCurrentIndex(max(indice, 0) if combo.count() else -1)
    combo.blockSignals(False)
    if combo.isEditable():
        _inicio_visivel(combo)


def selecionar_dado(combo: QComboBox, dado: object) -> bool:
    indice = combo.findData(dado)
    if indice >= 0:
        combo.setCurrentIndex(indice)
    return indice >= 0


def texto_simples(rotulo: QLabel) -> str:
    """What a label reads as plain text (rich text tags dropped): for tests and screen readers."""
    from PySide6.QtGui import QTextDocumentFragment

    return QTextDocumentFragment.fromHtml(rotulo.text()).toPlainText()


def alinhar_rotulos(*formularios: Formulario) -> None:
    """Give the label column of several forms (one per group box) the same width, so the fields line up."""
    rotulos: list[QWidget] = []
    for form in formularios:
        for linha in range(form.layout.rowCount()):
            item = form.layout.itemAt(linha, QFormLayout.ItemRole.LabelRole)
            widget = item.widget() if item is not None else None
            if widget is not None:
                rotulos.append(widget)
    largura = max((r.sizeHint().width() for r in rotulos), default=0)
    for r in rotulos:
        r.setMinimumWidth(largura)
        if isinstance(r, QLabel):  # right-aligned; a field's label stays at the top of its row (Formulario)
            vertical = r.alignment() & Qt.AlignmentFlag.AlignVertical_Mask
            r.setAlignment(Qt.AlignmentFlag.AlignRight | vertical)


def rotulo_dica(texto: str = "") -> QLabel:
    """A grey explanatory line under a field (the deadline computed, the allowed range...)."""
    rotulo = QLabel(texto)
    rotulo.setWordWrap(True)
    rotulo.setStyleSheet(f"color: {COR_SECUNDARIA}")
    rotulo.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return rotulo


def item_vazio(lista: QListWidget, texto: str) -> QListWidgetItem:
    """A grey, unselectable line saying the list is empty ("Nenhum arquivo anexado.")."""
    item = QListWidgetItem(texto)
    item.setFlags(Qt.ItemFlag.NoItemFlags)
    item.setForeground(QBrush(QColor(COR_SECUNDARIA)))
    lista.addItem(item)
    return item


def tabela_de_eventos(modelo: ModeloTabela, nome: str) -> QTableView:
    """A timeline table over `modelo` (date, act, then the rest), read only: whole rows selected, text wrapped
    and each row as tall as its text, the date and the act as wide as theirs; Tab leaves it. The caller sizes
    the other columns."""
    tabela = QTableView()
    tabela.setModel(modelo)
    tabela.setAccessibleName(nome)
    tabela.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    tabela.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    tabela.setWordWrap(True)
    tabela.setTabKeyNavigation(False)
    tabela.verticalHeader().setVisible(False)
    tabela.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    cab = tabela.horizontalHeader()
    cab.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    cab.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
    return tabela
