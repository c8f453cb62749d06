"""The list page every registry and case list uses: search as you type, status filter, header sort (in SQL),
open by double click or Enter, "Exportar para Excel" of the visible rows, and the row count."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QStyleOptionViewItem,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from secretaria.ui.modelo_tabela import (
    ColunaTabela,
    Consulta,
    FiltroTabela,
    FonteLinhas,
    LinhaTabela,
    ModeloTabela,
    Ordem,
    formatar_contagem,
    mantendo_posicao,
)
from secretaria.ui.widgets.datas import CampoData
from secretaria.ui.widgets.formulario import alvo_do_foco

if TYPE_CHECKING:
    from secretaria.db import Banco
    from secretaria.ui.contexto import Contexto
    from secretaria.ui.widgets.imprimir_lista import PedidoImpressao

ESPERA_BUSCA_MS = 250


def nivelar(naturais: list[int], pisos: dict[int, int], excesso: int) -> list[int]:
    """Narrow only the widest of the columns in `pisos` (text columns, each with its floor) down to one
    common width, just enough to absorb `excesso`: a long company name or contract gets cut, while the short
    columns (CNPJ, status "Suspensa até 27/12/2026") stay whole."""

    def corte(teto: int) -> int:
        return sum(max(0, naturais[i] - max(teto, piso)) for i, piso in pisos.items())

    baixo, alto = 0, max((naturais[i] for i in pisos), default=0)
    while baixo < alto:  # the widest common width that still absorbs the excess
        meio = (baixo + alto + 1) // 2
        if corte(meio) >= excesso:
            baixo = meio
        else:
            alto = meio - 1
    return [min(n, max(baixo, pisos[i])) if i in pisos else n for i, n in enumerate(naturais)]


class AtalhosDaPagina(QObject):
    """Lets the page's own shortcuts through a text field: on X11 desktops a QLineEdit claims Ctrl+E (end of
    line, emacs style) before any shortcut sees it, so "Exportar" (Ctrl+E) did nothing from the search box."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.sequencias: list[QKeySequence] = []

    def eventFilter(self, objeto: QObject, evento: QEvent) -> bool:
        if evento.type() == QEvent.Type.ShortcutOverride and isinstance(evento, QKeyEvent):
            tecla = QKeySequence(evento.keyCombination())
            if any(tecla == s for s in self.sequencias):
                evento.ignore()  # not the field's: the shortcut map then triggers the page's shortcut
                return True
        return False


class SetasAbremLista(QObject):
    """On a filter's closed combo box, Up/Down (and PageUp/PageDown/Home/End) open its list instead of
    changing the filter unseen: Tab from the search box lands on the Situação filter, and a Down meant for
    the table used to switch the list to another situation silently."""

    TECLAS = (
        Qt.Key.Key_Up,
        Qt.Key.Key_Down,
        Qt.Key.Key_PageUp,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
    )

    def eventFilter(self, alvo: QObject, evento: QEvent) -> bool:
        if (
            isinstance(alvo, QComboBox)
            and evento.type() == QEvent.Type.KeyPress
            and isinstance(evento, QKeyEvent)
            and evento.key() in self.TECLAS
            and not evento.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            alvo.showPopup()
            return True
        return super().eventFilter(alvo, evento)


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
        horizontal.setStretchLastSection(False)
        horizontal.setResizeContentsPrecision(0)  # measure only the rows on screen, never the whole list
        horizontal.setSectionsMovable(False)
        horizontal.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.aviso_vazio = ""
        """Said in the middle of the empty table ("Nenhum auto encontrado com esta busca e estes filtros.")."""
        self.larguras_do_usuario = False
        """True once the user dragged a column border: from then on the program leaves the widths alone."""
        self._ajustando = False
        horizontal.sectionResized.connect(self._coluna_redimensionada)

    def _coluna_redimensionada(self, _coluna: int, _antes: int, _depois: int) -> None:
        if (
            not self._ajustando
            and self.isVisible()
            and QApplication.mouseButtons() != Qt.MouseButton.NoButton
        ):
            self.larguras_do_usuario = True

    def paintEvent(self, evento: QPaintEvent) -> None:
        super().paintEvent(evento)
        modelo = self.model()
        if self.aviso_vazio and modelo is not None and modelo.rowCount() == 0:
            pintor = QPainter(self.viewport())
            pintor.setPen(QColor("#4b5563"))
            area = self.viewport().rect().adjusted(16, 16, -16, -16)
            pintor.drawText(
                area, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), self.aviso_vazio
            )
            pintor.end()

    def configurar_colunas(self, modelo: ModeloTabela) -> None:
        for i in range(len(modelo.colunas)):
            self.setColumnWidth(i, self.largura_prevista(i))

    def largura_prevista(self, coluna: int) -> int:
        """The width a column's kind needs before any row is seen: its `largura` in characters (a date, a
        CNPJ, a plate), else room for its title."""
        colunas: Sequence[ColunaTabela] = getattr(self.model(), "colunas", ())
        titulo = self.largura_titulo(coluna)
        if coluna >= len(colunas):
            return titulo
        c = colunas[coluna]
        if c.largura:
            return max(titulo, c.largura * self.fontMetrics().averageCharWidth() + 16)
        return max(titulo, max(len(c.titulo) + 4, 12) * self.fontMetrics().averageCharWidth() + 16)

    def ajustar_colunas(self, maximo: int = 380, minimo_texto: int = 110) -> None:
        """Fit the columns to the rows on screen (to their kinds' widths while there is none); when that is
        wider than the table, narrow the widest text columns first (numbers, dates, documents and plates keep
        their width); when narrower, widen the name that may be long (else the widest text column)."""
        modelo = self.model()
        if modelo is None or modelo.columnCount() == 0:
            return
        n = modelo.columnCount()
        colunas: Sequence[ColunaTabela] = getattr(modelo, "colunas", ())
        tipo = [colunas[i] if i < len(colunas) else ColunaTabela("", "") for i in range(n)]
        vazia = modelo.rowCount() == 0
        visiveis = [i for i in range(n) if not self.isColumnHidden(i)]
        conteudo = [self.largura_conteudo(i) if i in visiveis else 0 for i in range(n)]
        naturais = [
            min(max(conteudo[i], self.largura_prevista(i) if vazia or tipo[i].inteira else 0), maximo)
            for i in range(n)
        ]
        naturais = [max(naturais[i], self.largura_titulo(i)) if i in visiveis else 0 for i in range(n)]
        alinhado = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignHCenter
        textos = [
            i
            for i in range(n)
            if not int(
                modelo.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole) or 0
            )
            & int(alinhado)
            and not tipo[i].inteira
            and i in visiveis
        ] or visiveis
        disponivel = self.viewport().width() - 2
        larguras = list(naturais)
        excesso = sum(naturais) - disponivel
        if excesso > 0:
            pisos = {i: max(min(minimo_texto, naturais[i]), self.largura_titulo(i)) for i in textos}
            primeiros = {i: piso for i, piso in pisos.items() if not tipo[i].cortar_por_ultimo}
            ultimos = {i: piso for i, piso in pisos.items() if tipo[i].cortar_por_ultimo}
            larguras = nivelar(naturais, primeiros, excesso)
            if (resto := sum(larguras) - disponivel) > 0 and ultimos:
                larguras = nivelar(larguras, ultimos, resto)  # only what the others could not give
        sobra = disponivel - sum(larguras)
        esticaveis = [i for i in visiveis if tipo[i].esticar]
        if sobra > 0 and (esticaveis or not vazia) and (esticaveis or textos):
            # The longest content, not the longest header; an empty table widens only a name column (it
            # once gave all the room to "Código", kept when the first record came).
            maior = max(esticaveis or textos, key=lambda i: conteudo[i])
            larguras[maior] += sobra
        self._ajustando = True
        try:
            for i in visiveis:
                self.setColumnWidth(i, larguras[i])
        finally:
            self._ajustando = False

    # At most this many rows measured per refit: the rows on screen are already loaded.
    LINHAS_MEDIDAS = 120

    def largura_conteudo(self, coluna: int) -> int:
        """The width the rows on screen need in `coluna`.

        Not Qt's `sizeHintForColumn`: it samples up to 1,000 rows beyond the screen (and every row while the
        table is hidden), and on a lazy model each sampled row is a window read from the database — after a
        search over 200,000 autos that made the refit take minutes.
        """
        modelo = self.model()
        if modelo is None:
            return 0
        total = modelo.rowCount()
        if total == 0:
            return 0
        topo = max(0, self.rowAt(0))
        fim = self.rowAt(self.viewport().height() - 1)
        if fim < 0:
            fim = total - 1
        fim = min(fim, topo + self.LINHAS_MEDIDAS - 1)
        delegado = self.itemDelegateForColumn(coluna) or self.itemDelegate()
        opcao = QStyleOptionViewItem()
        self.initViewItemOption(opcao)
        largura = 0
        for linha in range(topo, fim + 1):
            indice = modelo.index(linha, coluna)
            largura = max(largura, delegado.sizeHint(opcao, indice).width())
        return largura + (1 if self.showGrid() else 0)

    def largura_titulo(self, coluna: int) -> int:
        """The room the header's title needs (with the sort arrow): Qt's own hint reserves more than that
        on every column, which made short columns wide and cut the long ones."""
        modelo = self.model()
        titulo = str(modelo.headerData(coluna, Qt.Orientation.Horizontal) or "") if modelo is not None else ""
        return self.horizontalHeader().fontMetrics().horizontalAdvance(titulo) + 34

    def viewportEvent(self, evento: QEvent) -> bool:
        """A cell too narrow for its text shows the whole text as its tooltip (with the row's own tip,
        if any, below it): a long name or status cut to "…sem lic…" can always be read in full."""
        if evento.type() == QEvent.Type.ToolTip and isinstance(evento, QHelpEvent):
            texto = self.texto_cortado(self.indexAt(evento.pos()))
            if texto is not None:
                indice = self.indexAt(evento.pos())
                QToolTip.showText(evento.globalPos(), texto, self.viewport(), self.visualRect(indice))
                return True
        return super().viewportEvent(evento)

    def texto_cortado(self, indice: QModelIndex) -> str | None:
        """The tooltip of a cell whose text does not fit its column, else None (the model's own tip)."""
        modelo = self.model()
        if modelo is None or not indice.isValid():
            return None
        texto = str(modelo.data(indice, Qt.ItemDataRole.DisplayRole) or "")
        margem = 2 * (self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1)
        if (
            not texto
            or self.fontMetrics().horizontalAdvance(texto) <= self.columnWidth(indice.column()) - margem
        ):
            return None
        dica = modelo.data(indice, Qt.ItemDataRole.ToolTipRole)
        return texto if not dica or texto in str(dica) else f"{texto}\n\n{dica}"

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
    buscaMostrada = Signal()
    """A search or live refresh read off the GUI thread is now on screen."""

    def __init__(
        self,
        fonte: FonteLinhas,
        *,
        titulo: str,
        situacoes: Sequence[tuple[str | None, str]] = (),
        situacao_inicial: str | None = None,
        rotulo_situacao: str = "Situação",
        ordem_inicial: Ordem | None = None,
        extra_inicial: Mapping[str, Any] | None = None,
        texto_busca: str = "Buscar (digite parte do nome, número, CNPJ…)",
        texto_novo: str = "Novo",
        pode_criar: bool = False,
        singular: str = "registro",
        plural: str = "registros",
        feminino: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.titulo = titulo
        self._singular, self._plural, self._feminino = singular, plural, feminino
        self._extra: dict[str, Any] = dict(extra_inicial or {})
        filtro = FiltroTabela("", situacao_inicial, dict(self._extra))
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
        self.busca.setMinimumWidth(300)  # with the Veículos filters, the page still fits 1280 pixels
        self.combo_situacao = QComboBox()
        self.combo_situacao.setAccessibleName("Situação")
        for valor, rotulo in situacoes:
            self.combo_situacao.addItem(rotulo, valor)
        if situacoes:
            i = self.combo_situacao.findData(situacao_inicial)
            self.combo_situacao.setCurrentIndex(max(i, 0))
        self.rotulo_situacao = QLabel(f"&{rotulo_situacao}:")
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
        self._filtros2 = QHBoxLayout()
        self._filtros2.addStretch(1)
        layout.addLayout(self._filtros2)
        layout.addWidget(self.tabela, 1)
        layout.addLayout(self._botoes)
        self._filtros_extras: list[QWidget] = []
        self._botoes_extras: list[QWidget] = []
        self._ordenar_tab()

        self._espera = QTimer(self)
        self._espera.setSingleShot(True)
        self._espera.setInterval(ESPERA_BUSCA_MS)
        self._espera.timeout.connect(self.buscar_em_segundo_plano)
        self._geracao = 0  # searches started; the result of an older one than the last is dropped
        # the reading under way off the GUI thread: its filter, whether it is a new search, and what follows
        self._lendo: tuple[FiltroTabela, bool, Callable[[], None] | None] | None = None
        self.busca.textChanged.connect(lambda _t: self._espera.start())
        self.busca.returnPressed.connect(self._busca_enter)
        self.combo_situacao.currentIndexChanged.connect(lambda _i: self.buscar_em_segundo_plano())
        self.modelo.contagemMudou.connect(self._mostrar_contagem)
        self.modelo.modelReset.connect(self._depois_da_consulta)
        self.tabela.activated.connect(lambda idx: self._abrir_linha(idx.row()))
        self.botao_abrir.clicked.connect(self.abrir_selecionado)
        self.botao_novo.clicked.connect(self.novoRegistro.emit)
        self.botao_exportar.clicked.connect(self.exportar)
        self.botao_atualizar.clicked.connect(lambda: self.recarregar())
        self._atalhos_da_pagina = AtalhosDaPagina(self)
        self.busca.installEventFilter(self._atalhos_da_pagina)
        self._setas_abrem_lista = SetasAbremLista(self)
        self.combo_situacao.installEventFilter(self._setas_abrem_lista)
        self._atalho(QKeySequence.StandardKey.Find, self._focar_busca)
        self._atalho("Ctrl+N", self._novo_se_pode)
        self._atalho("Ctrl+E", self.exportar)
        self._atalho(QKeySequence.StandardKey.Refresh, lambda: self.recarregar())
        self._acoes_da_tabela()
        self._mostrar_contagem(self.modelo.total)
        self.setFocusProxy(self.busca)
        self._colunas_ajustadas = False
        self._depois_da_consulta()

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        if not self._colunas_ajustadas:
            # After the layout has given the table its width (a queued call runs once the show settles).
            QTimer.singleShot(0, self, self._ajustar_colunas_uma_vez)

    def _ajustar_colunas_uma_vez(self) -> None:
        if self._colunas_ajustadas or not self.isVisible():
            return
        self.tabela.ajustar_colunas()
        self._colunas_ajustadas = self.modelo.total > 0

    def _depois_da_consulta(self) -> None:
        """After each search or filter: word the empty table; fit the columns to the first rows of a list
        shown empty. A list already fitted keeps its widths (a text cut by a new search reads whole in its
        cell's tooltip): refitting on every search measured the rows on screen and painted the table twice,
        a third of the time a search took to show."""
        if self.filtro_atual() == FiltroTabela("", None, {}):
            self.tabela.aviso_vazio = f"{'Nenhuma' if self._feminino else 'Nenhum'} {self._singular} cadastrad{'a' if self._feminino else 'o'}."
        else:
            self.tabela.aviso_vazio = (
                f"{'Nenhuma' if self._feminino else 'Nenhum'} {self._singular} encontrad"
                f"{'a' if self._feminino else 'o'} com esta busca e estes filtros."
            )
        if self.modelo.total and not self._colunas_ajustadas and not self.tabela.larguras_do_usuario:
            # the first rows of a list shown empty: fit them now, not when the page is next opened (the page
            # as the timer's context: a result arriving just before the page is deleted must not fit it)
            QTimer.singleShot(0, self, self._ajustar_colunas_uma_vez)
        self.tabela.viewport().update()

    # -- for the pages built on this --------------------------------------------------------------
    def _ordenar_tab(self) -> None:
        """Tab goes as the eye reads: search, every filter, the table, then the buttons under it (filters added
        by a page after construction would otherwise come last, after the buttons)."""
        campos = [self.busca, self.combo_situacao]
        for w in self._filtros_extras:
            # A date field is a container with its editor as focus proxy: Qt keeps the chain whole only when
            # both are placed (the editor alone came back after the last button; the container alone, last).
            campos += [w, w.editor] if isinstance(w, CampoData) else [w]
        campos += [self.tabela, self.botao_novo, self.botao_abrir, *self._botoes_extras]
        campos += [self.botao_atualizar, self.botao_exportar]
        # A service list's "Imprimir lista…" and "Salvar lista em PDF…", once installed.
        for nome in ("botao_imprimir", "botao_salvar_pdf"):
            botao = getattr(self, nome, None)
            if isinstance(botao, QPushButton):
                campos.append(botao)
        for antes, depois in itertools.pairwise(campos):
            QWidget.setTabOrder(antes, depois)

    def adicionar_filtro(self, widget: QWidget, rotulo: str | None = None, *, linha: int = 1) -> None:
        """Add a filter widget (with its label) to the first filter row, or to a second row (`linha=2`)."""
        self._filtros_extras.append(widget)
        for combo in widget.findChildren(QComboBox) if not isinstance(widget, QComboBox) else [widget]:
            combo.installEventFilter(self._setas_abrem_lista)
        for campo in widget.findChildren(QLineEdit) if not isinstance(widget, QLineEdit) else [widget]:
            campo.installEventFilter(self._atalhos_da_pagina)  # a date's editor claims Ctrl+E as well
        if linha == 2:
            posicao = self._filtros2.count() - 1  # before the closing stretch
            if rotulo:
                r = QLabel(rotulo)
                r.setBuddy(alvo_do_foco(widget))  # a date filter is a container
                self._filtros2.insertWidget(posicao, r)
                posicao += 1
            self._filtros2.insertWidget(posicao, widget)
        else:
            if rotulo:
                r = QLabel(rotulo)
                r.setBuddy(alvo_do_foco(widget))  # a date filter is a container
                self._filtros.addWidget(r)
            self._filtros.addWidget(widget)
        self._ordenar_tab()

    def adicionar_botao(self, texto: str, slot: Callable[[], Any], *, dica: str | None = None) -> QPushButton:
        botao = QPushButton(texto)
        if dica:
            botao.setToolTip(dica)
        botao.clicked.connect(lambda: slot())
        self._botoes.insertWidget(
            self._botoes.indexOf(self.botao_abrir) + 1 + len(self._botoes_extras), botao
        )
        self._botoes_extras.append(botao)
        self._ordenar_tab()
        return botao

    def definir_extra(self, chave: str, valor: Any) -> None:
        if valor is None:
            self._extra.pop(chave, None)
        else:
            self._extra[chave] = valor
        self.aplicar_filtro()

    def filtro_atual(self) -> FiltroTabela:
        return FiltroTabela(self.busca.text().strip(), self.combo_situacao.currentData(), dict(self._extra))

    def aplicar_filtro(self) -> None:
        """Run the search now (the timer calls this 250 ms after the last key).

        A new search shows its first results: the view goes back to the top before it paints, so it reads the
        first window of rows (not one deep in the result at the old scroll position, which cost an OFFSET scan).
        """
        self._espera.stop()
        self._esquecer_busca()
        self.modelo.definir_filtro(self.filtro_atual())
        self.tabela.scrollToTop()

    def buscar_em_segundo_plano(self, depois: Callable[[], None] | None = None) -> None:
        """The search typed or chosen (the timer calls this 250 ms after the last key), read off the GUI
        thread when the list's source queries a database: the rows on screen stay until the new ones
        arrive, a newer search drops an older one's result, and `depois()` runs once it is on screen."""
        self._espera.stop()
        filtro = self.filtro_atual()
        if not self.modelo.consulta_em_segundo_plano:
            self.aplicar_filtro()
        elif filtro != self.modelo.filtro:
            self._consultar(filtro, nova_busca=True, depois=depois)
            return
        elif self._lendo is not None and self._lendo[1]:
            self._esquecer_busca()  # back to what is on screen: a search still being read is of no use
        if depois is not None:
            depois()

    def busca_pendente(self) -> bool:
        """A search typed but not yet on screen (waiting for the last key, or being read)."""
        return self._espera.isActive() or self._lendo is not None

    def _esquecer_busca(self) -> None:
        self._geracao += 1
        self._lendo = None

    def _consultar(
        self, filtro: FiltroTabela, *, nova_busca: bool, depois: Callable[[], None] | None = None
    ) -> None:
        from secretaria.ui.widgets.tarefas import Tarefa

        self._geracao += 1
        geracao = self._geracao
        consultar = self.modelo.consulta(filtro)
        tarefa = Tarefa(lambda _progresso: consultar(), self)
        tarefa.concluida.connect(
            lambda consulta: self._mostrar_consulta(geracao, consulta, nova_busca, depois)
        )
        tarefa.falhou.connect(lambda mensagem: self._consulta_falhou(geracao, mensagem))
        self._lendo = (filtro, nova_busca, depois)
        tarefa.iniciar()

    def _mostrar_consulta(
        self, geracao: int, consulta: Consulta, nova_busca: bool, depois: Callable[[], None] | None
    ) -> None:
        if geracao != self._geracao:
            return  # a newer search (or a reload on the GUI thread) superseded this one
        self._lendo = None
        if nova_busca:
            # a new search shows its first results (the first block is already read: no OFFSET deep down)
            self.modelo.aplicar_consulta(consulta)
            self.tabela.scrollToTop()
        else:
            with mantendo_posicao(self.tabela, self.modelo):
                self.modelo.aplicar_consulta(consulta)
        # The reset's layout now, not on the next pass of the event loop: laid out after the first paint, it
        # moved the scroll bar and header and painted every cell again (5,346 reads of the model, not 2,673).
        self.tabela.executeDelayedItemsLayout()
        self.buscaMostrada.emit()
        if depois is not None:
            depois()

    def _consulta_falhou(self, geracao: int, mensagem: str) -> None:
        if geracao != self._geracao:
            return
        self._lendo = None
        from secretaria.ui.widgets import mensagens

        mensagens.avisar_erro(self, self.titulo, mensagem)

    def recarregar(self, selecionar: Any = None) -> None:
        """Re-query (after a save); reselect the record `selecionar` when it is among the loaded rows."""
        atual = selecionar if selecionar is not None else self.id_selecionado()
        self._esquecer_busca()
        self.modelo.recarregar()
        if atual is None:
            return
        linha = self.modelo.linha_do_id(atual)
        if linha is None and self.modelo.total:
            self.modelo.linha(0)  # load the first block so a new record near the top can be found
            linha = self.modelo.linha_do_id(atual)
        if linha is not None:
            self.selecionar_linha(linha)

    def ao_mudar(self, mudancas: frozenset[Any]) -> None:
        """Another user's acts (forwarded by the main window while this page is on screen): the rows are
        read again where the user is — the same search, filters and order, the same record chosen (found by
        its id, wherever it moved) and the same scroll. The search being typed is left alone. Read off the
        GUI thread when the source queries a database (a search being read is read again: it may have
        started before the other user's act)."""
        if not mudancas:
            return
        if not self.modelo.consulta_em_segundo_plano:
            self.recarregar_mantendo()
        elif self._lendo is not None:
            filtro, nova_busca, depois = self._lendo
            self._consultar(filtro, nova_busca=nova_busca, depois=depois)
        else:
            self._consultar(self.modelo.filtro, nova_busca=False)

    def recarregar_mantendo(self) -> None:
        """Re-query keeping the chosen record (by id) and the record at the top of the view."""
        self._esquecer_busca()
        with mantendo_posicao(self.tabela, self.modelo):
            self.modelo.recarregar()

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

        if self.busca_pendente():
            self.aplicar_filtro()
        exportar_para_excel(
            self,
            titulo=self.titulo,
            cabecalhos=[c.titulo for c in self.modelo.colunas],
            linhas=self.modelo.iterar_visiveis(),
            total=self.modelo.total,
            dinheiro=[c.dinheiro for c in self.modelo.colunas],
        )

    def _acoes_da_tabela(self) -> None:
        """The table's context menu: Abrir, Copiar linhas (Ctrl+C), Exportar para Excel (Ctrl+E)."""
        from PySide6.QtGui import QAction

        from secretaria.ui.widgets.copiar import instalar_copia

        abrir = QAction("&Abrir", self.tabela)
        abrir.triggered.connect(self.abrir_selecionado)
        self.tabela.addAction(abrir)
        self.acao_copiar = instalar_copia(self.tabela)
        exportar = QAction("&Exportar para Excel…\tCtrl+E", self.tabela)  # the key is the page's shortcut
        exportar.triggered.connect(self.exportar)
        self.tabela.addAction(exportar)

    # -- inside -----------------------------------------------------------------------------------
    def _atalho(self, tecla: QKeySequence | QKeySequence.StandardKey | str, slot: Callable[[], Any]) -> None:
        sequencia = QKeySequence(tecla)
        atalho = QShortcut(sequencia, self)
        self._atalhos_da_pagina.sequencias.append(sequencia)
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
        self.buscar_em_segundo_plano(depois=self._ir_a_primeira_linha)

    def _ir_a_primeira_linha(self) -> None:
        if self.modelo.total:
            self.selecionar_linha(0)
            self.tabela.setFocus(Qt.FocusReason.OtherFocusReason)

    def _mostrar_contagem(self, total: int) -> None:
        self.contagem.setText(formatar_contagem(total, self._singular, self._plural, feminino=self._feminino))


# -- lists backed by secretaria.services.listas ---------------------------------------------------

ROTULOS_GRUPOS = {
    "situacao": ("Situação", "Todas"),
    "delegacao": ("Delegação", "Todas"),
    "documentos": ("Documentos", "Todos"),
    "funcao": ("Função", "Todas"),
    "vinculo": ("Vínculo", "Todos"),
    "fase": ("Fase", "Todas"),
    "tipo": ("Tipo", "Todos"),
}
PREFIXO_GRUPO = "grupo:"
LARGURAS_POR_TIPO = {
    "data": 12,
    "data_hora": 17,
    "numero": 10,
    "dinheiro": 14,
    "documento": 21,
    "placa": 10,
    "codigo": 11,
}
"""Characters a column of the kind takes before rows are seen (a CNPJ "AB.UZO.123/0001-95" whole)."""


class FonteLista:
    """A `FonteLinhas` over one list of `secretaria.services.listas` ("operadoras", "autos", …): one read
    session per call, rows highlighted by `listas.destaque`. `FiltroTabela.situacao` and the extras
    "grupo:<grupo>" are status keys; "operadora_id", "desde", "ate", "usuario", "entidade" pass through."""

    def __init__(
        self, banco: Banco, nome: str, formatos: Mapping[str, Callable[[Any], str]] | None = None
    ) -> None:
        from secretaria.services import listas

        self._listas = listas
        self.banco = banco
        self.nome = nome
        self.definicao = listas.definicao(nome)
        formatos = formatos or {}
        self._colunas = tuple(
            ColunaTabela(
                c.chave,
                c.cabecalho,
                largura=LARGURAS_POR_TIPO.get(c.tipo),
                alinhamento=c.alinhamento,
                formatar=formatos.get(c.chave),
                dinheiro=c.tipo == "dinheiro",
                inteira=c.tipo in LARGURAS_POR_TIPO,
                # A status ("Ativa — contrato vence em 15/01/2027", "Ativo — sem licença") cut lost exactly
                # the part that says what is wrong: the names give up their room first.
                cortar_por_ultimo=c.chave == "situacao",
                esticar=c.tipo == "nome",
            )
            for c in self.definicao.colunas
        )

    @property
    def colunas(self) -> Sequence[ColunaTabela]:
        return self._colunas

    consulta_em_segundo_plano = True
    """A search of 200,000 autos takes 0.1–0.2 s: the page reads it off the GUI thread (one read session
    per call, from the engine's pool, so any thread may call `contar` and `buscar`)."""

    def filtro_servico(self, filtro: FiltroTabela) -> Any:
        situacoes = {filtro.situacao} if filtro.situacao else set()
        for chave, valor in filtro.extra.items():
            if chave.startswith(PREFIXO_GRUPO) and valor:
                situacoes.add(valor)
        extra = filtro.extra
        return self._listas.Filtro(
            texto=filtro.texto,
            situacoes=frozenset(situacoes),
            operadora_id=extra.get("operadora_id"),
            desde=extra.get("desde"),
            ate=extra.get("ate"),
            usuario=extra.get("usuario"),
            entidade=extra.get("entidade"),
            dispositivo=extra.get("dispositivo"),
            linha_id=extra.get("linha_id"),
            etapa=extra.get("etapa"),
        )

    @staticmethod
    def _ordem(ordem: Ordem) -> tuple[str, bool] | None:
        return None if ordem.chave is None else (ordem.chave, not ordem.decrescente)

    def contar(self, filtro: FiltroTabela) -> int:
        with self.banco.leitura() as sessao:
            return self._listas.contar(sessao, self.nome, self.filtro_servico(filtro))

    def buscar(
        self, filtro: FiltroTabela, ordem: Ordem, inicio: int, quantidade: int
    ) -> Sequence[LinhaTabela]:
        with self.banco.leitura() as sessao:
            linhas = self._listas.pagina(
                sessao, self.nome, self.filtro_servico(filtro), self._ordem(ordem), inicio, quantidade
            )
        return [self._linha(r) for r in linhas]

    def buscar_com_total(
        self, filtro: FiltroTabela, ordem: Ordem, inicio: int, quantidade: int, total: int
    ) -> Sequence[LinhaTabela]:
        """`buscar` knowing the count on screen: a block near the end is read from the end (`listas.pagina`)."""
        with self.banco.leitura() as sessao:
            linhas = self._listas.pagina(
                sessao, self.nome, self.filtro_servico(filtro), self._ordem(ordem), inicio, quantidade, total
            )
        return [self._linha(r) for r in linhas]

    def contar_e_buscar(
        self, filtro: FiltroTabela, ordem: Ordem, quantidade: int
    ) -> tuple[int, Sequence[LinhaTabela]]:
        """A new search: the count and the first `quantidade` rows in one read (`listas.pagina_e_total`)."""
        with self.banco.leitura() as sessao:
            total, linhas = self._listas.pagina_e_total(
                sessao,
                self.nome,
                self.filtro_servico(filtro),
                ordem=self._ordem(ordem),
                quantidade=quantidade,
            )
        return total, [self._linha(r) for r in linhas]

    def iterar(self, filtro: FiltroTabela, ordem: Ordem) -> Iterator[LinhaTabela]:
        with self.banco.leitura() as sessao:
            for r in self._listas.exportar_linhas(
                sessao, self.nome, self.filtro_servico(filtro), self._ordem(ordem)
            ):
                yield LinhaTabela(r[0], tuple(r[1:]))

    def _linha(self, r: Sequence[Any]) -> LinhaTabela:
        return LinhaTabela(r[0], tuple(r[1:]), self._listas.destaque(self.nome, r))


class PaginaListaServico(PaginaLista):
    """A `PaginaLista` over a list of `secretaria.services.listas`, with the filters its definition declares:
    one combo per status group, an operator combo (`por_operadora`) and a period ("de … até …").
    `formatos` maps a column key to how its values read (e.g. codes to labels).

        pagina = PaginaListaServico(contexto, "autos", texto_novo="Novo auto", pode_criar=contexto.pode("fiscal"))
        pagina.abrirRegistro.connect(self._abrir_auto)
    """

    def __init__(
        self,
        contexto: Contexto,
        nome: str,
        *,
        texto_novo: str = "Novo",
        pode_criar: bool = False,
        texto_busca: str | None = None,
        singular: str = "registro",
        plural: str = "registros",
        feminino: bool = False,
        formatos: Mapping[str, Callable[[Any], str]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        fonte = FonteLista(contexto.banco, nome, formatos)
        d = fonte.definicao
        self.contexto = contexto
        grupos = d.grupos
        principal = grupos[0] if grupos else None
        rotulo, todas = ROTULOS_GRUPOS.get(principal or "", (principal or "Situação", "Todas"))
        opcoes: list[tuple[str | None, str]] = []
        if principal:
            opcoes = [(None, todas)] + [(f.chave, f.rotulo) for f in d.filtros if f.grupo == principal]
        chave, ascendente = d.ordem_padrao
        super().__init__(
            fonte,
            titulo=d.titulo,
            situacoes=opcoes,
            rotulo_situacao=rotulo,
            ordem_inicial=Ordem(chave, not ascendente) if chave in {c.chave for c in d.colunas} else None,
            texto_busca=texto_busca or "Buscar (digite parte do nome, número, documento…)",
            texto_novo=texto_novo,
            pode_criar=pode_criar,
            singular=singular,
            plural=plural,
            feminino=feminino,
            parent=parent,
        )
        self.fonte = fonte
        self.combos_grupo: dict[str, QComboBox] = {}
        for grupo in grupos[1:]:
            rotulo_g, todas_g = ROTULOS_GRUPOS.get(grupo, (grupo.capitalize(), "Todos"))
            combo = QComboBox()
            combo.setAccessibleName(rotulo_g)
            combo.addItem(todas_g, None)
            for f in d.filtros:
                if f.grupo == grupo:
                    combo.addItem(f.rotulo, f.chave)
            # As narrow as the operator's: its longest choice made the Veículos page wider than a 1280-pixel
            # screen. The open list still shows every choice whole.
            combo.setMinimumContentsLength(14)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.view().setMinimumWidth(combo.view().sizeHintForColumn(0) + 24)
            combo.currentIndexChanged.connect(
                lambda _i, g=grupo, c=combo: self.definir_extra(PREFIXO_GRUPO + g, c.currentData())
            )
            self.adicionar_filtro(combo, f"{rotulo_g}:")
            self.combos_grupo[grupo] = combo
        self.combo_operadora: QComboBox | None = None
        if d.por_operadora:
            self.combo_operadora = QComboBox()
            self.combo_operadora.setAccessibleName("Operadora")
            self.combo_operadora.setMinimumContentsLength(18)
            self.combo_operadora.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            self._preencher_operadoras()
            self.combo_operadora.currentIndexChanged.connect(
                lambda _i: self.definir_extra(
                    "operadora_id", self.combo_operadora.currentData() if self.combo_operadora else None
                )
            )
            self.adicionar_filtro(self.combo_operadora, "Operadora:", linha=2 if d.periodo else 1)
        self.desde: CampoData | None = None
        self.ate: CampoData | None = None
        if d.periodo:
            self.desde, self.ate = CampoData(), CampoData()
            self.desde.dataAlterada.connect(lambda v: self.definir_extra("desde", v))
            self.ate.dataAlterada.connect(lambda v: self.definir_extra("ate", v))
            self.adicionar_filtro(self.desde, f"{d.periodo}: de", linha=2)
            self.adicionar_filtro(self.ate, "até", linha=2)
        self._instalar_impressao()

    def _instalar_impressao(self) -> None:
        """ "Imprimir lista…" (Ctrl+P) and "Salvar lista em PDF…": buttons beside "Exportar para Excel", also in
        the table's context menu."""
        from secretaria.ui.widgets.imprimir_lista import instalar_impressao

        self.acao_imprimir, self.acao_salvar_pdf = instalar_impressao(
            self, self.tabela, self.contexto, self.pedido_impressao
        )
        self.botao_imprimir = QPushButton("Imprimir lista…")
        self.botao_imprimir.setToolTip("Todas as linhas desta busca e destes filtros, em PDF — Ctrl+P")
        self.botao_imprimir.clicked.connect(self.acao_imprimir.trigger)
        self._botoes.addWidget(self.botao_imprimir)
        # Beside Imprimir, not only in the table's context menu: with no printer, the PDF is the way out.
        self.botao_salvar_pdf = QPushButton("Salvar lista em PDF…")
        self.botao_salvar_pdf.setToolTip("As mesmas linhas da impressão, num arquivo PDF")
        self.botao_salvar_pdf.clicked.connect(self.acao_salvar_pdf.trigger)
        self._botoes.addWidget(self.botao_salvar_pdf)
        QWidget.setTabOrder(self.botao_exportar, self.botao_imprimir)
        QWidget.setTabOrder(self.botao_imprimir, self.botao_salvar_pdf)

    def pedido_impressao(self) -> PedidoImpressao:
        """What "Imprimir lista…" prints now: the filters in effect, the visible columns, every matching row
        read from the same query the list pages through (`services.impressao_listas`)."""
        from secretaria.services import impressao_listas
        from secretaria.ui.widgets.copiar import colunas_visiveis
        from secretaria.ui.widgets.imprimir_lista import PedidoImpressao as Pedido
        from secretaria.ui.widgets.imprimir_lista import descrever_filtros

        if self.busca_pendente():
            self.aplicar_filtro()
        filtro, ordem = self.modelo.filtro, self.modelo.ordem
        nome = self.fonte.nome
        servico = self.fonte.filtro_servico(filtro)
        ordem_servico = None if ordem.chave is None else (ordem.chave, not ordem.decrescente)
        combos = [(self.rotulo_situacao.text().replace("&", "").rstrip(":"), self.combo_situacao)]
        combos += [(c.accessibleName(), c) for c in self.combos_grupo.values()]
        if self.combo_operadora is not None:
            combos.append(("Operadora", self.combo_operadora))
        periodo = None
        if self.desde is not None and self.ate is not None:
            periodo = (self.fonte.definicao.periodo or "Período", self.desde.data(), self.ate.data())

        def obter(sessao: Any, progresso: Any) -> list[tuple[Any, ...]]:
            linhas = impressao_listas.linhas_da_lista(
                sessao, nome, servico, ordem_servico, progresso=progresso
            )
            return [linha[1:] for linha in linhas]

        return Pedido(
            titulo=self.titulo,
            filtros=descrever_filtros(combos, periodo, filtro.texto),
            colunas=tuple(self.modelo.colunas),
            indices=tuple(colunas_visiveis(self.tabela)),
            obter=obter,
        )

    def _preencher_operadoras(self) -> None:
        from secretaria.services import listas

        assert self.combo_operadora is not None
        atual = self.combo_operadora.currentData()
        self.combo_operadora.blockSignals(True)
        self.combo_operadora.clear()
        self.combo_operadora.addItem("Todas", None)
        with self.contexto.banco.leitura() as sessao:
            linhas = listas.pagina(sessao, "operadoras", None, ("razao_social", True), 0, 10_000)
        for linha in linhas:
            self.combo_operadora.addItem(str(linha[1]), linha[0])
        self.combo_operadora.setCurrentIndex(max(0, self.combo_operadora.findData(atual)))
        self.combo_operadora.blockSignals(False)

    def recarregar(self, selecionar: Any = None) -> None:
        if self.combo_operadora is not None:
            self._preencher_operadoras()
        super().recarregar(selecionar)

    def mostrar_somente_operadora(self, operadora_id: int) -> None:
        """Every row of one operator and only those: the search, the status filters and the period cleared,
        the operator chosen; one query (what an operator record's "Veículos (12)" link opens)."""
        if self.combo_operadora is None:
            return
        combos = [self.combo_situacao, *self.combos_grupo.values()]
        campos: list[QWidget] = [self.busca, *combos, self.combo_operadora]
        campos += [c for c in (self.desde, self.ate) if c is not None]
        for campo in campos:
            campo.blockSignals(True)
        try:
            self.busca.clear()
            for combo in combos:
                combo.setCurrentIndex(0)
            for campo_data in (self.desde, self.ate):
                if campo_data is not None:
                    campo_data.limpar()
            if self.combo_operadora.findData(operadora_id) < 0:
                self._preencher_operadoras()
            self.combo_operadora.setCurrentIndex(max(0, self.combo_operadora.findData(operadora_id)))
        finally:
            for campo in campos:
                campo.blockSignals(False)
        for chave in [k for k in self._extra if k.startswith(PREFIXO_GRUPO) or k in ("desde", "ate")]:
            del self._extra[chave]
        self._extra["operadora_id"] = operadora_id
        self.aplicar_filtro()

    def ao_mudar(self, mudancas: frozenset[Any]) -> None:
        if self.combo_operadora is not None and any(m.entidade == "operadora" for m in mudancas):
            self._preencher_operadoras()  # a new or renamed operator in the filter combo
        super().ao_mudar(mudancas)
