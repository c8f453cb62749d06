"""What a form's fields hold, read and written the same way for every kind of field: the snapshot that
tells a changed form from an untouched one ("Descartar as alterações?"), the signal that clears a field's
error as soon as the user changes it, and the merge that keeps the user's typing when the record is
reloaded after someone else saved it (`ProtecaoEdicao.avisar_alteracao_externa`)."""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QWidget,
)

FOLHAS = (QLineEdit, QPlainTextEdit, QTextEdit, QComboBox, QAbstractSpinBox, QAbstractButton, QTableWidget)
"""The widgets that hold a value a user types or picks; containers (a date field, a row of spin boxes)
are read through the ones inside them."""


def folhas(widget: QWidget) -> list[QWidget]:
    """The value-holding widgets of a field, in layout order (a combo's own line edit is the combo's)."""
    if isinstance(widget, FOLHAS):
        if isinstance(widget, QAbstractButton) and not widget.isCheckable():
            return []
        return [widget]
    encontradas: list[QWidget] = []
    for filho in widget.children():
        if isinstance(filho, QWidget) and not isinstance(filho, QLabel):
            encontradas.extend(folhas(filho))
    return encontradas


def _texto_celula(tabela: QTableWidget, linha: int, coluna: int) -> str:
    item = tabela.item(linha, coluna)
    return item.text() if item is not None else ""


def _valor_folha(w: QWidget) -> Any:
    if isinstance(w, QLineEdit):
        return w.text()
    if isinstance(w, QPlainTextEdit | QTextEdit):
        return w.toPlainText()
    if isinstance(w, QComboBox):
        return (w.currentData(), w.currentText())
    if isinstance(w, QSpinBox | QDoubleSpinBox):
        return w.value()
    if isinstance(w, QAbstractSpinBox):
        return w.text()
    if isinstance(w, QAbstractButton):
        return w.isChecked()
    if isinstance(w, QTableWidget):
        return tuple(
            tuple(_texto_celula(w, i, j) for j in range(w.columnCount())) for i in range(w.rowCount())
        )
    return None


def valor_campo(widget: QWidget) -> tuple[Any, ...]:
    """What the field holds now, comparable with `==` (one item per value-holding widget inside)."""
    return tuple(_valor_folha(w) for w in folhas(widget))


def _definir_folha(w: QWidget, valor: Any) -> None:
    if isinstance(w, QLineEdit):
        w.setText(valor)
    elif isinstance(w, QPlainTextEdit | QTextEdit):
        w.setPlainText(valor)
    elif isinstance(w, QComboBox):
        dado, texto = valor
        indice = w.findData(dado) if dado is not None else w.findText(texto)
        if indice >= 0:
            w.setCurrentIndex(indice)
        elif w.isEditable():
            w.setEditText(texto)
    elif isinstance(w, QSpinBox):
        w.setValue(int(valor))
    elif isinstance(w, QDoubleSpinBox):
        w.setValue(float(valor))
    elif isinstance(w, QAbstractButton):
        w.setChecked(bool(valor))
    elif isinstance(w, QTableWidget):
        w.setRowCount(len(valor))
        for i, linha in enumerate(valor):
            for j, texto in enumerate(linha):
                w.setItem(i, j, QTableWidgetItem(texto))


def definir_campo(widget: QWidget, valor: tuple[Any, ...]) -> None:
    """Put back what `valor_campo` read (the widgets are filled in order, so a combo that refills the next
    one, as an operator refills its lines, comes first)."""
    for w, v in zip(folhas(widget), valor, strict=False):
        _definir_folha(w, v)


def texto_campo(widget: QWidget) -> str:
    """The field's value as the user reads it ("3222-1111", "Permissão", "sim")."""
    partes: list[str] = []
    todas = folhas(widget)
    if len(todas) > 1 and all(isinstance(w, QAbstractButton) for w in todas):  # a group of check boxes
        marcadas = [
            w.text().replace("&", "") for w in todas if isinstance(w, QAbstractButton) and w.isChecked()
        ]
        return ", ".join(marcadas) or "nenhum"
    for w in todas:
        if isinstance(w, QLineEdit):
            texto = w.displayText() if w.inputMask() == "" else w.text()
            if w.inputMask() and not texto.replace("_", "").strip(" ./-:()"):
                texto = ""
            partes.append(texto.strip())
        elif isinstance(w, QPlainTextEdit | QTextEdit):
            partes.append(" ".join(w.toPlainText().split()))
        elif isinstance(w, QComboBox):
            partes.append(w.currentText())
        elif isinstance(w, QAbstractSpinBox):
            partes.append(w.text())
        elif isinstance(w, QAbstractButton):
            partes.append("sim" if w.isChecked() else "não")
        elif isinstance(w, QTableWidget):
            partes.append(f"{w.rowCount()} linha(s)")
    texto = " ".join(p for p in partes if p)
    return texto or "vazio"


def ao_mudar(widget: QWidget, funcao: Callable[[], None]) -> None:
    """Call `funcao` whenever the user (or the program) changes any value inside the field."""
    for w in folhas(widget):
        if isinstance(w, QLineEdit):
            w.textChanged.connect(lambda _t: funcao())
        elif isinstance(w, QPlainTextEdit | QTextEdit):
            w.textChanged.connect(funcao)
        elif isinstance(w, QComboBox):
            w.currentIndexChanged.connect(lambda _i: funcao())
            w.editTextChanged.connect(lambda _t: funcao())
        elif isinstance(w, QSpinBox | QDoubleSpinBox):
            w.valueChanged.connect(lambda _v: funcao())
        elif isinstance(w, QAbstractButton):
            w.toggled.connect(lambda _c: funcao())
        elif isinstance(w, QTableWidget):
            w.itemChanged.connect(lambda _i: funcao())
            w.model().rowsInserted.connect(lambda *_a: funcao())
            w.model().rowsRemoved.connect(lambda *_a: funcao())


class FaixaAviso(QFrame):
    """A yellow strip above the dialog's buttons (below every field, so showing it moves none of them):
    a message, and a "Recarregar" button when there is a newer version of the record to load."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("faixa_aviso")
        self.setStyleSheet(
            "#faixa_aviso { background: #fff4ce; border: 1px solid #d9b44a; }"
            " #faixa_aviso QLabel { color: #5c4200; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        self.texto = QLabel()
        self.texto.setWordWrap(True)
        self.texto.setTextFormat(Qt.TextFormat.PlainText)
        self.texto.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.botao = QPushButton("&Recarregar")
        self.botao.setAutoDefault(False)
        self.botao.setToolTip(
            "Carrega a versão gravada agora, mantendo o que você digitou nos campos alterados"
        )
        layout.addWidget(self.texto, 1)
        layout.addWidget(self.botao, 0, Qt.AlignmentFlag.AlignTop)
        self.setVisible(False)

    def mostrar(self, texto: str, *, recarregar: bool) -> None:
        self.texto.setText(texto)
        self.botao.setVisible(recarregar)
        self.setVisible(True)


PERGUNTA_DESCARTAR = "Descartar as alterações?"


def perguntar_descartar(parent: QWidget, ao_descartar: Callable[[], None]) -> QMessageBox:
    """ "Descartar as alterações?" with Descartar / Continuar editando; Continuar editando is the default,
    so a stray Enter (or Escape) keeps the form and what was typed."""
    from secretaria.ui.widgets import mensagens

    botoes = QMessageBox.StandardButton
    # The box (a child of the form) keeps this callback until it is deleted. A bound method held strongly
    # would keep a parentless form's wrapper alive until then, and the form would be deleted from inside its
    # own child's destructor (a crash when the form was dropped before the box's deferred deletion).
    alvo: Callable[[], Callable[[], None] | None] = (
        weakref.WeakMethod(ao_descartar) if inspect.ismethod(ao_descartar) else lambda: ao_descartar
    )

    def terminou(resultado: int) -> None:
        funcao = alvo()
        if resultado == botoes.Discard.value and funcao is not None:
            funcao()

    caixa = mensagens.caixa_mensagem(
        parent,
        parent.windowTitle() or "Descartar alterações",
        PERGUNTA_DESCARTAR,
        icone=QMessageBox.Icon.Question,
        botoes=botoes.Discard | botoes.Cancel,
        padrao=botoes.Cancel,
        ao_terminar=terminou,
    )
    caixa.setInformativeText("Os valores digitados neste formulário ainda não foram gravados.")
    caixa.button(botoes.Discard).setText("&Descartar")
    caixa.button(botoes.Cancel).setText("&Continuar editando")
    caixa.setEscapeButton(botoes.Cancel)
    return caixa
