"""What every registry screen shares: the edit dialog frame (load, save through the service, errors beside
the fields, read-only for those who may not edit) and the list page that opens it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.widgets import CampoData, Formulario, botoes_salvar_cancelar
from secretaria.ui.widgets.formulario import DialogoFormulario

PAPEL_CADASTROS = "administrador"
TIPOS_IMPORTAVEIS = frozenset({"operadoras", "linhas", "veiculos", "empregados", "fiscais"})
"""Registry lists whose page offers “Importar planilha…” (the kinds of `services.importacao`)."""


class TextoLongo(QPlainTextEdit):
    """Multi-line text in a form: Tab leaves the field, as everywhere else."""

    def __init__(self, linhas: int = 3, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setFixedHeight(self.fontMetrics().lineSpacing() * linhas + 14)


class CampoInteiro(QLineEdit):
    """A whole number that may be empty (year of manufacture): `valor()` → int | None."""

    def __init__(self, minimo: int = 0, maximo: int = 9999, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setValidator(QIntValidator(minimo, maximo, self))
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setMaximumWidth(self.fontMetrics().horizontalAdvance("0000000") + 16)

    def valor(self) -> int | None:
        texto = self.text().strip()
        return int(texto) if texto else None

    def definir_valor(self, valor: int | None) -> None:
        self.setText("" if valor is None else str(valor))


def preencher_combo(combo: QComboBox, itens: Sequence[tuple[str, Any]], vazio: str | None = None) -> None:
    """Replace a combo's items (text, data) keeping the current choice when still offered."""
    atual = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    if vazio is not None:
        combo.addItem(vazio, None)
    for texto, dado in itens:
        combo.addItem(texto, dado)
    indice = combo.findData(atual)
    combo.setCurrentIndex(indice if indice >= 0 else 0)
    combo.blockSignals(False)


def escolher(combo: QComboBox, dado: Any) -> None:
    indice = combo.findData(dado)
    if indice >= 0:
        combo.setCurrentIndex(indice)


def somente_leitura(widgets: Sequence[QWidget]) -> None:
    """Show the values without letting them change (read-only text stays readable, unlike disabled)."""
    for w in widgets:
        if isinstance(w, QLineEdit | QPlainTextEdit):
            w.setReadOnly(True)
        elif isinstance(w, CampoData):
            w.editor.setReadOnly(True)
            w.botao.setEnabled(False)
        else:  # combos, check boxes, spin boxes: no read-only mode in Qt
            w.setEnabled(False)


class DialogoCadastro(DialogoFormulario):
    """Frame of a registry edit dialog. A subclass builds its fields with `self.form` (a `Formulario` whose
    field names are the service's `campo` names), then implements:

    - `carregar(sessao)`: read the record with the service's `obter_*`, fill the fields, return its
      `versao` and "alterado" text (only called when editing);
    - `gravar(uow) -> int`: build the service's `Dados*` from the fields (field parsing may raise
      `ErroDominio` too) and call `criar_*` / `editar_*(..., versao=self.versao)`.

    Enter saves, Escape cancels (asking first when a field was changed); on a refusal the message appears
    beside its field and nothing is written. When someone else saved the record meanwhile, the save is
    refused and "Recarregar" loads their version keeping what this user typed (`DialogoFormulario`).
    Users without the administrador role see the record read-only, with a "Fechar" button.
    `salvo(int)` carries the saved record's id.
    """

    salvo = Signal(int)
    titulo_novo = "Novo registro"
    titulo_edicao = "Registro"
    entidade: str | None = None
    """The audit's name of the record shown ("operadora"): with `registro_id`, how the main window knows that
    another user changed this very record (`janela_principal.aviso_de_alteracao`)."""

    def __init__(
        self, contexto: Contexto, registro_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.registro_id = registro_id
        self.versao: int | None = None
        self.pode_editar = contexto.pode(PAPEL_CADASTROS)
        self.layout_principal = QVBoxLayout(self)
        self.form = Formulario(None, self)
        self.alteracao = QLabel()
        self.alteracao.setStyleSheet("color: #666;")
        self.botoes = botoes_salvar_cancelar(self)
        self.botoes.accepted.connect(self.salvar)
        self.setWindowTitle(self.titulo_novo if registro_id is None else self.titulo_edicao)

    def finalizar(self) -> None:
        """Call at the end of the subclass's __init__: adds the footer, loads the record, applies roles."""
        self.form.alinhar_rotulos()
        # Below the fields, then the spare height (or a stretching tab widget): no message moves a field.
        self.layout_principal.addWidget(self.form.erro_geral)
        self.layout_principal.addStretch(0)
        self.layout_principal.addWidget(self.alteracao)
        self.layout_principal.addWidget(self.botoes)
        self.alteracao.setVisible(False)
        if self.registro_id is not None:
            self.recarregar_registro()
        if not self.pode_editar:
            somente_leitura(list(self.form.campos.values()) + self.campos_extras())
            self.botoes.setStandardButtons(QDialogButtonBox.StandardButton.Close)
            self.botoes.button(QDialogButtonBox.StandardButton.Close).setText("Fechar")
            aviso = QLabel("Somente administradores alteram os cadastros: você pode consultar este registro.")
            aviso.setStyleSheet("color: #555;")
            self.layout_principal.insertWidget(0, aviso)
        campos = list(self.form.campos.values())
        if campos:
            campos[0].setFocus()

    def recarregar_registro(self) -> None:
        """Fill the fields with the record as stored now, and edit from its version."""
        if self.registro_id is None:
            return
        with self.contexto.banco.leitura() as sessao:
            self.versao, texto = self.carregar(sessao)
        self.alteracao.setText(texto)
        self.alteracao.setVisible(bool(texto))

    def pode_recarregar(self) -> bool:
        return self.registro_id is not None

    def campos_extras(self) -> list[QWidget]:
        """Widgets outside the form to make read-only too (none by default)."""
        return []

    def carregar(self, sessao: Any) -> tuple[int, str]:
        raise NotImplementedError

    def gravar(self, uow: Any) -> int:
        raise NotImplementedError

    def salvar(self) -> None:
        if not self.pode_editar:
            self.reject()
            return
        self.gravar_no_formulario(self.form, lambda: self.gravar(self.contexto.banco.uow()), self._gravado)

    def _gravado(self, novo_id: int) -> None:
        self.registro_id = novo_id
        self.salvo.emit(novo_id)
        self.accept()

    def erro(self, campo: str) -> str:
        """The message under `campo` now (tests and screenshots)."""
        return self.form.mensagem(campo)


def texto_alteracao(alterado_por: str | None, alterado_em: Any) -> str:
    if alterado_em is None:
        return ""
    quem = f" por {alterado_por}" if alterado_por else ""
    return f"Última alteração{quem} em {alterado_em:%d/%m/%Y às %H:%M}."


class PaginaCadastro(PaginaListaServico):
    """A registry list page that opens `dialogo(contexto, id, parent)` on double click / Enter and
    `dialogo(contexto, None, parent)` on "Novo" (shown to administrators only)."""

    def __init__(
        self,
        contexto: Contexto,
        lista: str,
        dialogo: Callable[[Contexto, int | None, QWidget], DialogoCadastro],
        *,
        texto_novo: str,
        singular: str,
        plural: str,
        feminino: bool = False,
        texto_busca: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            contexto,
            lista,
            texto_novo=texto_novo,
            pode_criar=contexto.pode(PAPEL_CADASTROS),
            texto_busca=texto_busca,
            singular=singular,
            plural=plural,
            feminino=feminino,
            parent=parent,
        )
        self._fabrica = dialogo
        self.lista = lista
        self.dialogo: DialogoCadastro | None = None
        self.abrirRegistro.connect(self.abrir)
        self.novoRegistro.connect(lambda: self.abrir(None))
        self.botao_importar: QPushButton | None = None
        if lista in TIPOS_IMPORTAVEIS and contexto.pode(PAPEL_CADASTROS):
            self.botao_importar = self.adicionar_botao(
                "Importar planil&ha…",
                self.importar_planilha,
                dica=f"Traz {plural} de uma planilha .xlsx ou .csv, com prévia antes de gravar.",
            )

    def importar_planilha(self) -> QDialog:
        """The import dialog for this registry; the list reloads after an import."""
        from secretaria.ui.importacao import abrir_importacao

        return abrir_importacao(self.contexto, self.lista, self, ao_importar=lambda _r: self.recarregar())

    def abrir(self, registro_id: int | None) -> DialogoCadastro:
        """Open the edit dialog (non-blocking); after a save the list reloads and selects the record."""
        dialogo = self._fabrica(self.contexto, registro_id, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.salvo.connect(lambda id_: self.recarregar(selecionar=id_))
        dialogo.open()
        self.dialogo = dialogo
        return dialogo


__all__ = [
    "CampoInteiro",
    "DialogoCadastro",
    "PaginaCadastro",
    "TextoLongo",
    "escolher",
    "preencher_combo",
    "somente_leitura",
    "texto_alteracao",
]
