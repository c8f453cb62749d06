"""Small form pieces the case dialogs add on top of `secretaria.ui.widgets` (part A's shared widgets).

Only what those lack: a multi-line text where Tab leaves the field, a searchable combo, and a helper to
refill a combo keeping the choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

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


def combo_pesquisavel(parent: QWidget | None = None) -> QComboBox:
    """An editable combo that completes on any part of the text ("viação" finds "Expresso Viação Sul")."""
    combo = QComboBox(parent)
    combo.setEditable(True)
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    completer = combo.completer()
    if completer is not None:
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    # Show the start of a long choice ("Art. 1º, XVI (tipo D) — …"), not its tail.
    combo.currentIndexChanged.connect(lambda _i: _inicio_visivel(combo))
    return combo


def _inicio_visivel(combo: QComboBox) -> None:
    editor = combo.lineEdit()
    if editor is not None:
        editor.setCursorPosition(0)


def preencher_combo(combo: QComboBox, itens: Iterable[tuple[str, object]], vazio: str | None = None) -> None:
    """Replace a combo's items (label, data), keeping the current choice when it is still offered."""
    atual = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    if vazio is not None:
        combo.addItem(vazio, None)
    for rotulo, dado in itens:
        combo.addItem(rotulo, dado)
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


def linha_botoes(*botoes: QPushButton) -> QWidget:
    caixa = QWidget()
    h = QHBoxLayout(caixa)
    h.setContentsMargins(0, 0, 0, 0)
    for b in botoes:
        h.addWidget(b)
    h.addStretch(1)
    return caixa


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
