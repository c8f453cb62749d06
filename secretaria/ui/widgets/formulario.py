"""Forms: each field with a red message line under it, filled from the services' `ErroDominio.campo`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLayout,
    QVBoxLayout,
    QWidget,
)

from secretaria.services.base import ErroDominio

T = TypeVar("T")

ESTILO_ERRO = "color: #b3261e;"


def rotulo_erro(parent: QWidget | None = None) -> QLabel:
    """The red message line used under a field (hidden until there is something to say)."""
    rotulo = QLabel(parent)
    rotulo.setStyleSheet(ESTILO_ERRO)
    rotulo.setWordWrap(True)
    rotulo.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    rotulo.setVisible(False)
    return rotulo


class Formulario:
    """Lays out a `QFormLayout` whose fields each carry an error line, and shows a service's refusal beside
    the field it names.

        form = Formulario(layout_do_dialogo)            # or Formulario() and use form.layout
        form.adicionar("razao_social", "Razão social:", self.razao)
        form.adicionar("cnpj", "CNPJ:", self.cnpj)
        layout.addWidget(form.grupo("Endereço"))       # optional titled groups
        form.adicionar("logradouro", "Logradouro:", self.logradouro)
        ...
        id_ = form.tentar(lambda: cadastros.salvar_operadora(uow, ator, ...))
        if id_ is not None:
            dialogo.accept()

    `tentar` clears the old messages, runs the call and, on `ErroDominio`, writes the message in red under
    the field named by `erro.campo` and focuses that field (or, when the field is unknown, in the general
    line at the top of the form); it returns None then. Other exceptions propagate.
    """

    def __init__(self, destino: QVBoxLayout | None = None, parent: QWidget | None = None) -> None:
        self.layout = QFormLayout()
        self.layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.erro_geral = rotulo_erro(parent)
        self._atual = self.layout
        self._campos: dict[str, tuple[QWidget, QLabel]] = {}
        self._rotulos: list[QLabel] = []
        self._apelidos: dict[str, str] = {}
        if destino is not None:
            destino.addWidget(self.erro_geral)
            destino.addLayout(self.layout)

    def adicionar(
        self, campo: str, rotulo: str, widget: QWidget | QLayout, *, foco: QWidget | None = None
    ) -> QLabel:
        """Add a row "rotulo: widget" with its (hidden) error line under it; returns the error label.
        `foco` is the widget to focus on error when `widget` is a container or layout."""
        caixa = QWidget()
        vertical = QVBoxLayout(caixa)
        vertical.setContentsMargins(0, 0, 0, 0)
        vertical.setSpacing(2)
        if isinstance(widget, QLayout):
            vertical.addLayout(widget)
        else:
            vertical.addWidget(widget)
        erro = rotulo_erro(caixa)
        vertical.addWidget(erro)
        rotulo_widget = QLabel(rotulo)
        alvo = foco or (widget if isinstance(widget, QWidget) else caixa)
        rotulo_widget.setBuddy(alvo)
        rotulo_widget.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._rotulos.append(rotulo_widget)
        self._atual.addRow(rotulo_widget, caixa)
        self._campos[campo] = (alvo, erro)
        return erro

    def grupo(self, titulo: str) -> QGroupBox:
        """Start a titled group ("Endereço para intimações"): the next `adicionar` calls go into it. Place
        the returned QGroupBox in your layout; messages still find their fields across groups."""
        caixa = QGroupBox(titulo)
        layout = QFormLayout(caixa)
        layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._atual = layout
        return caixa

    def alinhar_rotulos(self) -> None:
        """Give every label the width of the widest, so fields line up across groups."""
        largura = max((r.sizeHint().width() for r in self._rotulos), default=0)
        for r in self._rotulos:
            r.setMinimumWidth(largura)

    def registrar(self, campo: str, widget: QWidget, erro: QLabel) -> None:
        """Use a field laid out elsewhere (a table, a panel) with its own error label."""
        self._campos[campo] = (widget, erro)

    def rotulo_erro_de(self, campo: str) -> QLabel:
        """The error label of a field already added (to share it with a second widget on the same row)."""
        return self._campos[campo][1]

    def apelido(self, campo_servico: str, campo_formulario: str) -> None:
        """A service's field name that differs from the form's (e.g. "representante_cpf" → "cpf_rep")."""
        self._apelidos[campo_servico] = campo_formulario

    def limpar_erros(self) -> None:
        self.erro_geral.clear()
        self.erro_geral.setVisible(False)
        for _widget, erro in self._campos.values():
            erro.clear()
            erro.setVisible(False)

    def mostrar_erro(self, erro: ErroDominio) -> None:
        campo = self._apelidos.get(erro.campo or "", erro.campo or "")
        alvo = self._campos.get(campo)
        if alvo is None:
            self.erro_geral.setText(erro.mensagem)
            self.erro_geral.setVisible(True)
            return
        widget, rotulo = alvo
        rotulo.setText(erro.mensagem)
        rotulo.setVisible(True)
        widget.setFocus(Qt.FocusReason.OtherFocusReason)

    def mensagem(self, campo: str) -> str:
        """The message shown under `campo` now ("" if none): what a user reads, and what tests check."""
        if campo == "":
            return self.erro_geral.text()
        alvo = self._campos.get(campo)
        return alvo[1].text() if alvo is not None else ""

    def tentar(self, acao: Callable[[], T]) -> T | None:
        self.limpar_erros()
        try:
            return acao()
        except ErroDominio as erro:
            self.mostrar_erro(erro)
            return None

    @property
    def campos(self) -> dict[str, QWidget]:
        return {nome: w for nome, (w, _e) in self._campos.items()}


def botoes_salvar_cancelar(dialogo: QDialog, *, texto_salvar: str = "Salvar") -> QDialogButtonBox:
    """OK/Cancel in Portuguese whatever the translations: Enter = save (default button), Escape = cancel.

    The Save button is wired to nothing: connect `botoes.accepted` to the dialog's save slot, which calls
    `accept()` only when the service succeeded (so nothing is written and the dialog stays open on error).
    """
    botoes = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
    salvar = botoes.button(QDialogButtonBox.StandardButton.Save)
    salvar.setText(texto_salvar)
    salvar.setDefault(True)
    salvar.setAutoDefault(True)
    cancelar = botoes.button(QDialogButtonBox.StandardButton.Cancel)
    cancelar.setText("Cancelar")
    cancelar.setAutoDefault(False)
    botoes.rejected.connect(dialogo.reject)
    return botoes


def traduzir_botoes(botoes: QDialogButtonBox) -> None:
    """Portuguese texts on a button box's standard buttons (in case Qt's translation is missing)."""
    for botao in botoes.buttons():
        papel = botoes.standardButton(botao)
        texto = TEXTOS_BOTOES.get(papel)
        if texto and isinstance(botao, QAbstractButton):
            botao.setText(texto)


TEXTOS_BOTOES = {
    QDialogButtonBox.StandardButton.Ok: "OK",
    QDialogButtonBox.StandardButton.Cancel: "Cancelar",
    QDialogButtonBox.StandardButton.Save: "Salvar",
    QDialogButtonBox.StandardButton.Close: "Fechar",
    QDialogButtonBox.StandardButton.Yes: "Sim",
    QDialogButtonBox.StandardButton.No: "Não",
    QDialogButtonBox.StandardButton.Apply: "Aplicar",
    QDialogButtonBox.StandardButton.Discard: "Descartar",
    QDialogButtonBox.StandardButton.Help: "Ajuda",
    QDialogButtonBox.StandardButton.Reset: "Restaurar",
    QDialogButtonBox.StandardButton.Open: "Abrir",
}
