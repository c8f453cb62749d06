"""The list page every registry and case list uses: search as you type, status filter, header sort (in SQL),
open by double click or Enter, "Exportar para Excel" of the visible rows, and the row count."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from secretaria.ui.modelo_tabela import Filtro, FonteLinhas, ModeloTabela, Ordem, formatar_contagem

ESPERA_BUSCA_MS = 250


class TabelaLista(QTableView):
    """A QTableView set up for long lazy lists: fixed row height (never measures all rows), whole-row
    selection, header click sorts through the model (in SQL), Enter or double click = `activated`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setTabKeyNavigation(False)
        self.setCornerButtonEnabled(False)
        vertical = self.verticalHeader()
        vertical.setVisible(False)
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 10)
        horizontal = self.horizontalHeader()
        horizontal.setHighlightSections(False)
        horizontal.setStretchLastSection(True)
        horizontal.setSectionsMovable(False)
        horizontal.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)

    def configurar_colunas(self, modelo: ModeloTabela) -> None:
        media = self.fontMetrics().averageCharWidth()
        for i, coluna in enumerate(modelo.colunas):
            largura = coluna.largura or max(len(coluna.titulo) + 4, 12)
            self.setColumnWidth(i, largura * media + 16)

    def keyPressEvent(self, evento: QKeyEvent) -> None:
        # Enter opens the current row even on styles where QAbstractItemView would not emit `activated`.
        if evento.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.activated.emit(self.currentIndex())
            return
        super().keyPressEvent(evento)


class PaginaLista(QWidget):
    """A list screen over a `FonteLinhas`.

        pagina = PaginaLista(
            fonte, titulo="Operadoras",
            situacoes=[(None, "Todas"), ("ativa", "Ativas"), ("suspensa", "Suspensas")],
            texto_novo="Nova operadora", pode_criar=contexto.pode("administrador"),
        )
        pagina.abrirRegistro.connect(self._abrir)     # id of the row (double click / Enter / "Abrir")
        pagina.novoRegistro.connect(self._nova)       # "Novo" button / Ctrl+N
        pagina.recarregar(selecionar=novo_id)         # after a save

    Extra filter widgets go in `adicionar_filtro(widget)` + `definir_extra("ano", 2026)`; extra buttons in
    `adicionar_botao("Imprimir", slot)`. The page owns its `modelo` (a `ModeloTabela`) and `tabela`.
    """

    abrirRegistro = Signal(object)
    novoRegistro = Signal()

    def __init__(
        self,
        fonte: FonteLinhas,
        *,
        titulo: str,
        situacoes: Sequence[tuple[str | None, str]] = (),
        situacao_inicial: str | None = None,
        ordem_inicial: Ordem | None = None,
        extra_inicial: Mapping[str, Any] | None = None,
        texto_busca: str = "Buscar (digite parte do nome, número, CNPJ…)",
        texto_novo: str = "Novo",
        pode_criar: bool = False,
        singular: str = "registro",
        plural: str = "registros",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.titulo = titulo
        self._singular, self._plural = singular, plural
        self._extra: dict[str, Any] = dict(extra_inicial or {})
        filtro = Filtro("", situacao_inicial, dict(self._extra))
        self.modelo = ModeloTabela(fonte, filtro=filtro, ordem=ordem_inicial, parent=self)

        self.rotulo_titulo = QLabel(titulo)
        fonte_titulo = self.rotulo_titulo.font()
        fonte_titulo.setPointSizeF(fonte_titulo.pointSizeF() * 1.35)
        fonte_titulo.setBold(True)
        self.rotulo_titulo.setFont(fonte_titulo)

        self.busca = QLineEdit()
        self.busca.setPlaceholderText(texto_busca)
        self.busca.setClearButtonEnabled(True)
        self.busca.setAccessibleName("Buscar")
        self.busca.setMinimumWidth(320)
        self.combo_situacao = QComboBox()
        self.combo_situacao.setAccessibleName("Situação")
        for valor, rotulo in situacoes:
            self.combo_situacao.addItem(rotulo, valor)
        if situacoes:
            i = self.combo_situacao.findData(situacao_inicial)
            self.combo_situacao.setCurrentIndex(max(i, 0))
        self.rotulo_situacao = QLabel("&Situação:")
        self.rotulo_situacao.setBuddy(self.combo_situacao)
        self.rotulo_situacao.setVisible(bool(situacoes))
        self.combo_situacao.setVisible(bool(situacoes))
        self.contagem = QLabel()
        self.contagem.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

        self.botao_novo = QPushButton(texto_novo)
        self.botao_novo.setVisible(pode_criar)
        self.botao_novo.setToolTip("Ctrl+N")
        self.botao_abrir = QPushButton("Abrir")
        self.botao_abrir.setToolTip("Enter ou clique duplo")
        self.botao_exportar = QPushButton("Exportar para Excel")
        self.botao_exportar.setToolTip("Grava as linhas visíveis (com a busca e a ordem atuais) — Ctrl+E")
        self.botao_atualizar = QPushButton("Atualizar")
        self.botao_atualizar.setToolTip("F5")

        self.tabela = TabelaLista()
        self.tabela.setModel(self.modelo)
        self.tabela.configurar_colunas(self.modelo)
        cabecalho = self.tabela.horizontalHeader()
        if ordem_inicial is not None and ordem_inicial.chave is not None:
            coluna = next(
                (i for i, c in enumerate(self.modelo.colunas) if c.chave == ordem_inicial.chave), -1
            )
            ordem_qt = (
                Qt.SortOrder.DescendingOrder if ordem_inicial.decrescente else Qt.SortOrder.AscendingOrder
            )
            cabecalho.setSortIndicator(coluna, ordem_qt)
        else:
            cabecalho.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.tabela.setSortingEnabled(True)

        topo = QHBoxLayout()
        topo.addWidget(self.rotulo_titulo)
        topo.addStretch(1)
        topo.addWidget(self.contagem)
        self._filtros = QHBoxLayout()
        rotulo_busca = QLabel("&Buscar:")
        rotulo_busca.setBuddy(self.busca)
        self._filtros.addWidget(rotulo_busca)
        self._filtros.addWidget(self.busca, 1)
        self._filtros.addWidget(self.rotulo_situacao)
        self._filtros.addWidget(self.combo_situacao)
        self._botoes = QHBoxLayout()
        self._botoes.addWidget(self.botao_novo)
        self._botoes.addWidget(self.botao_abrir)
        self._botoes.addStretch(1)
        self._botoes.addWidget(self.botao_atualizar)
        self._botoes.addWidget(self.botao_exportar)
        layout = QVBoxLayout(self)
        layout.addLayout(topo)
        layout.addLayout(self._filtros)
        layout.addWidget(self.tabela, 1)
        layout.addLayout(self._botoes)
        self.setTabOrder(self.busca, self.combo_situacao)
        self.setTabOrder(self.combo_situacao, self.tabela)

        self._espera = QTimer(self)
        self._espera.setSingleShot(True)
        self._espera.setInterval(ESPERA_BUSCA_MS)
        self._espera.timeout.connect(self.aplicar_filtro)
        self.busca.textChanged.connect(lambda _t: self._espera.start())
        self.busca.returnPressed.connect(self._busca_enter)
        self.combo_situacao.currentIndexChanged.connect(lambda _i: self.aplicar_filtro())
        self.modelo.contagemMudou.connect(self._mostrar_contagem)
        self.tabela.activated.connect(lambda idx: self._abrir_linha(idx.row()))
        self.botao_abrir.clicked.connect(self.abrir_selecionado)
        self.botao_novo.clicked.connect(self.novoRegistro.emit)
        self.botao_exportar.clicked.connect(self.exportar)
        self.botao_atualizar.clicked.connect(lambda: self.recarregar())
        self._atalho(QKeySequence.StandardKey.Find, self._focar_busca)
        self._atalho("Ctrl+N", self._novo_se_pode)
        self._atalho("Ctrl+E", self.exportar)
        self._atalho(QKeySequence.StandardKey.Refresh, lambda: self.recarregar())
        self._mostrar_contagem(self.modelo.total)
        self.setFocusProxy(self.busca)

    # -- for the pages built on this --------------------------------------------------------------
    def adicionar_filtro(self, widget: QWidget, rotulo: str | None = None) -> None:
        if rotulo:
            r = QLabel(rotulo)
            r.setBuddy(widget)
            self._filtros.addWidget(r)
        self._filtros.addWidget(widget)

    def adicionar_botao(self, texto: str, slot: Callable[[], Any], *, dica: str | None = None) -> QPushButton:
        botao = QPushButton(texto)
        if dica:
            botao.setToolTip(dica)
        botao.clicked.connect(lambda: slot())
        self._botoes.insertWidget(self._botoes.indexOf(self.botao_abrir) + 1, botao)
        return botao

    def definir_extra(self, chave: str, valor: Any) -> None:
        if valor is None:
            self._extra.pop(chave, None)
        else:
            self._extra[chave] = valor
        self.aplicar_filtro()

    def definir_pode_criar(self, pode: bool) -> None:
        self.botao_novo.setVisible(pode)

    def filtro_atual(self) -> Filtro:
        return Filtro(self.busca.text().strip(), self.combo_situacao.currentData(), dict(self._extra))

    def aplicar_filtro(self) -> None:
        """Run the search now (the timer calls this 250 ms after the last key)."""
        self._espera.stop()
        self.modelo.definir_filtro(self.filtro_atual())

    def recarregar(self, selecionar: Any = None) -> None:
        """Re-query (after a save); reselect the record `selecionar` when it is among the loaded rows."""
        atual = selecionar if selecionar is not None else self.id_selecionado()
        self.modelo.recarregar()
        if atual is None:
            return
        linha = self.modelo.linha_do_id(atual)
        if linha is None and self.modelo.total:
            self.modelo.linha(0)  # load the first block so a new record near the top can be found
            linha = self.modelo.linha_do_id(atual)
        if linha is not None:
            self.selecionar_linha(linha)

    def selecionar_linha(self, linha: int) -> None:
        indice = self.modelo.index(linha, 0)
        self.tabela.selectionModel().setCurrentIndex(
            indice, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.tabela.scrollTo(indice)

    def id_selecionado(self) -> Any:
        indice = self.tabela.currentIndex()
        return self.modelo.id_da_linha(indice.row()) if indice.isValid() else None

    def abrir_selecionado(self) -> None:
        indice = self.tabela.currentIndex()
        if indice.isValid():
            self._abrir_linha(indice.row())

    def exportar(self) -> None:
        from secretaria.ui.widgets.exportar import exportar_para_excel

        if self._espera.isActive():
            self.aplicar_filtro()
        exportar_para_excel(
            self,
            titulo=self.titulo,
            cabecalhos=[c.titulo for c in self.modelo.colunas],
            linhas=self.modelo.iterar_visiveis(),
            total=self.modelo.total,
        )

    # -- inside -----------------------------------------------------------------------------------
    def _atalho(self, tecla: QKeySequence | QKeySequence.StandardKey | str, slot: Callable[[], Any]) -> None:
        atalho = QShortcut(QKeySequence(tecla), self)
        atalho.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        atalho.activated.connect(slot)

    def _abrir_linha(self, linha: int) -> None:
        id_ = self.modelo.id_da_linha(linha)
        if id_ is not None:
            self.abrirRegistro.emit(id_)

    def _novo_se_pode(self) -> None:
        if self.botao_novo.isVisible() and self.botao_novo.isEnabled():
            self.novoRegistro.emit()

    def _focar_busca(self) -> None:
        self.busca.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.busca.selectAll()

    def _busca_enter(self) -> None:
        self.aplicar_filtro()
        if self.modelo.total:
            self.selecionar_linha(0)
            self.tabela.setFocus(Qt.FocusReason.OtherFocusReason)

    def _mostrar_contagem(self, total: int) -> None:
        self.contagem.setText(formatar_contagem(total, self._singular, self._plural))
