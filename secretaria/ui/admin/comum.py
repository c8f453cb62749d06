"""Pieces the administration tabs share: a small dialog around a `Formulario`, and a panel with a table of
rows already in hand plus its buttons."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from secretaria.ui.lista import TabelaLista
from secretaria.ui.modelo_tabela import (
    ColunaTabela,
    FonteEmMemoria,
    LinhaTabela,
    ModeloTabela,
    formatar_contagem,
)
from secretaria.ui.widgets import Formulario, botoes_salvar_cancelar
from secretaria.ui.widgets.formulario import DialogoFormulario

ESTILO_AJUDA = "color: #555;"


def rotulo_ajuda(texto: str) -> QLabel:
    rotulo = QLabel(texto)
    rotulo.setWordWrap(True)
    rotulo.setStyleSheet(ESTILO_AJUDA)
    return rotulo


class DialogoSimples(DialogoFormulario):
    """A dialog with a `Formulario` and Salvar/Cancelar. Subclasses add fields with `self.form.adicionar`,
    call `finalizar()`, and implement `gravar()` (the service call; may return anything, None included).
    A refusal shows beside its field and keeps the dialog open; success emits `salvo(resultado)` and closes."""

    salvo = Signal(object)

    def __init__(self, titulo: str, parent: QWidget | None = None, *, texto_salvar: str = "Salvar") -> None:
        super().__init__(parent)
        self.setWindowTitle(titulo)
        self.layout_principal = QVBoxLayout(self)
        self.form = Formulario(self.layout_principal, self)
        self.botoes = botoes_salvar_cancelar(self, texto_salvar=texto_salvar)
        self.botoes.accepted.connect(self.salvar)

    def finalizar(self) -> None:
        self.form.alinhar_rotulos()
        self.layout_principal.addStretch(1)  # spare height goes here: a message growing moves no field
        self.layout_principal.addWidget(self.botoes)
        campos = list(self.form.campos.values())
        if campos:
            campos[0].setFocus()

    def gravar(self) -> Any:
        raise NotImplementedError

    def salvar(self) -> None:
        self.gravar_no_formulario(self.form, self.gravar, self._gravado)

    def _gravado(self, resultado: Any) -> None:
        self.salvo.emit(resultado)
        self.accept()

    def erro(self, campo: str) -> str:
        return self.form.mensagem(campo)


class PainelTabela(QWidget):
    """Title, an explanation, a table of rows in hand (URM values, holidays, provisions) and a row of
    buttons. `definir_linhas(linhas)` refreshes it; `abrirRegistro(id)` on double click or Enter."""

    abrirRegistro = Signal(object)
    selecaoMudou = Signal(object)

    def __init__(
        self,
        titulo: str,
        colunas: Sequence[ColunaTabela],
        *,
        ajuda: str | None = None,
        singular: str = "registro",
        plural: str = "registros",
        feminino: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._contagem = (singular, plural, feminino)
        self.fonte = FonteEmMemoria(colunas)
        self.modelo = ModeloTabela(self.fonte, parent=self)
        self.tabela = TabelaLista()
        self.tabela.setModel(self.modelo)
        self.tabela.setSortingEnabled(False)
        self.titulo = QLabel(f"<b>{titulo}</b>")
        self.contagem = QLabel()
        topo = QHBoxLayout()
        topo.addWidget(self.titulo)
        topo.addStretch(1)
        topo.addWidget(self.contagem)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(topo)
        if ajuda:
            layout.addWidget(rotulo_ajuda(ajuda))
        self.corpo = QHBoxLayout()
        self.corpo.addWidget(self.tabela, 3)
        layout.addLayout(self.corpo, 1)
        self.botoes = QHBoxLayout()
        self.botoes.addStretch(1)
        layout.addLayout(self.botoes)
        self.tabela.activated.connect(lambda i: self.abrirRegistro.emit(self.modelo.id_da_linha(i.row())))
        self.tabela.selectionModel().currentRowChanged.connect(
            lambda atual, _ant: self.selecaoMudou.emit(self.modelo.id_da_linha(atual.row()))
        )
        self.modelo.modelReset.connect(self._reconectar)

    def _reconectar(self) -> None:
        self.selecaoMudou.emit(None)

    def adicionar_botao(self, texto: str, slot: Callable[[], Any], *, dica: str | None = None) -> QPushButton:
        botao = QPushButton(texto)
        if dica:
            botao.setToolTip(dica)
        botao.clicked.connect(lambda: slot())
        self.botoes.insertWidget(self.botoes.count() - 1, botao)
        return botao

    def definir_linhas(self, linhas: Sequence[LinhaTabela], selecionar: Any = None) -> None:
        self.fonte.trocar(linhas)
        self.modelo.recarregar()
        singular, plural, feminino = self._contagem
        self.contagem.setText(formatar_contagem(len(linhas), singular, plural, feminino=feminino))
        if selecionar is not None:
            linha = self.modelo.linha_do_id(selecionar)
            if linha is None:
                self.modelo.linha(0)
                linha = self.modelo.linha_do_id(selecionar)
            if linha is not None:
                self.tabela.selectRow(linha)
        if self.isVisible():
            self.tabela.ajustar_colunas()

    def id_selecionado(self) -> Any:
        indice = self.tabela.currentIndex()
        return self.modelo.id_da_linha(indice.row()) if indice.isValid() else None

    def selecionar(self, id_: Any) -> bool:
        self.modelo.linha(0)
        linha = self.modelo.linha_do_id(id_)
        if linha is None:
            return False
        self.tabela.selectRow(linha)
        return True

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        QTimer.singleShot(0, self.tabela.ajustar_colunas)
