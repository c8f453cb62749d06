"""The manual inside the program: a help window (contents on the left, a search box, the section on the
right) and F1, which opens the section of the page or dialog that has the focus.

Each page and dialog has its section: a class attribute `secao_ajuda = "intimacao"` where a class wants to say
it itself, else the table `SECOES` below (by class name, so the screens need no change to be documented).
F1 walks from the focused widget up through its parents and takes the first one with a section; with none,
the manual's start page.

    tecla_f1.instalar_f1()                 # once, on the QApplication (app.py, the main window)
    abrir_ajuda("primeiros-passos", self)  # Ajuda → Primeiros passos
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from secretaria.services import manual as servico_manual

__all__ = ["SECOES", "JanelaAjuda", "abrir_ajuda", "secao_do_widget"]

SECOES: dict[str, str] = {
    # the window and its pages
    "JanelaPrincipal": servico_manual.INICIO,
    "PaginaInicio": "inicio",
    "PaginaPainel": "painel",
    "PaginaOperadoras": "operadoras",
    "DialogoOperadora": "operadoras",
    "DialogoLinha": "linhas",
    "PaginaVeiculos": "veiculos",
    "DialogoVeiculo": "veiculos",
    "PaginaEmpregados": "empregados",
    "DialogoEmpregado": "empregados",
    "PaginaFiscais": "fiscais",
    "DialogoFiscal": "fiscais",
    "PaginaAutos": "autos",
    "DialogoAuto": "auto-de-infracao",
    "PainelSancao": "painel-de-sancao",
    "PaginaRepresentacoes": "representacoes",
    "DialogoRepresentacao": "representacoes",
    "TelaRepresentacao": "representacoes",
    "DialogoArquivarRepresentacao": "representacoes",
    # the case and its acts
    "TelaCaso": "caso",
    "DialogoIntimacao": "intimacao",
    "DialogoDefesa": "defesa",
    "DialogoProposta": "proposta-e-decisao",
    "DialogoDecisao": "proposta-e-decisao",
    "DialogoRecurso": "recurso",
    "DialogoJulgamento": "recurso",
    "DialogoSuspensao": "suspensao",
    "DialogoPagamento": "pagamento-e-cumprimento",
    "DialogoCumprimento": "pagamento-e-cumprimento",
    "DialogoCancelar": "cancelamento",
    "DialogoConferirRevisao": "revisao-de-prazos",
    "DialogoRetificacao": "retificacao",
    "DialogoRevisaoSancao": "revisao-de-sancao",
    "PainelCassacao": "cassacao",
    "DialogoInstaurarCassacao": "cassacao",
    "DialogoAtoCassacao": "cassacao",
    "DialogoDecidirCassacao": "cassacao",
    "BotoesDocumentosCaso": "documentos",
    # reports and administration
    "PaginaRelatorios": "relatorios",
    "PaginaAdministracao": "administracao",
    "PaginaUsuarios": "usuarios",
    "DialogoUsuario": "usuarios",
    "DialogoNovaSenha": "usuarios",
    "PainelUrm": "urm",
    "DialogoValorUrm": "urm",
    "PainelCalendario": "calendario",
    "DialogoDiaNaoUtil": "calendario",
    "PainelCatalogo": "catalogo",
    "DialogoTipo1X": "catalogo",
    "DialogoDispositivoContratual": "catalogo",
    "PainelOrgao": "orgao",
    "PainelSistema": "copias-e-configuracoes",
    "PainelAssinatura": "assinatura",
    "DialogoSenhaCertificado": "assinatura",
    "PaginaAuditoria": "auditoria",
    "PainelImportacao": "importacao",
    "DialogoImportacao": "importacao",
    # before the window
    "DialogoLogin": "entrar",
    "DialogoMinhaSenha": "entrar",
    "DialogoPrimeiroAcesso": "primeiros-passos",
}


def secao_da_classe(classe: type) -> str | None:
    """The section a page or dialog class documents itself in (its own `secao_ajuda`, else `SECOES`)."""
    for tipo in classe.__mro__:
        proprio = tipo.__dict__.get("secao_ajuda")
        if isinstance(proprio, str):
            return proprio
        if tipo.__name__ in SECOES:
            return SECOES[tipo.__name__]
    return None


def _secao_propria(widget: QWidget) -> str | None:
    """A widget's own section: an instance's `secao_ajuda`, a list page's list when the manual has a section
    of that name (the two tabs of Operadoras are both registry pages: "operadoras" and "linhas"), else its
    class's."""
    manual = servico_manual.carregar()
    proprio = widget.__dict__.get("secao_ajuda")
    if isinstance(proprio, str):
        return proprio
    fonte = widget.__dict__.get("fonte")
    nome = getattr(fonte, "nome", None)
    if isinstance(nome, str) and manual.existe(nome):
        return nome
    return secao_da_classe(type(widget))


def secao_do_widget(widget: QWidget | None) -> str:
    """The section for `widget` and its parents (the first that has one), else the manual's start."""
    atual = widget
    while atual is not None:
        if not isinstance(atual, JanelaAjuda):
            secao = _secao_propria(atual)
            if secao is not None:
                return secao
        atual = atual.parentWidget()
    return servico_manual.INICIO


class JanelaAjuda(QWidget):
    """The manual's window: "Buscar no manual" and the contents on the left, the section on the right.
    Links between sections open in place; Alt+← goes back."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Manual da Secretaria")
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)  # never keeps the program running
        self.manual = servico_manual.carregar()
        self.busca = QLineEdit()
        self.busca.setPlaceholderText("Buscar no manual (Ctrl+F)")
        self.busca.setClearButtonEnabled(True)
        self.busca.setAccessibleName("Buscar no manual")
        self.indice = QTreeWidget()
        self.indice.setHeaderHidden(True)
        self.indice.setAccessibleName("Sumário do manual")
        self.indice.setMinimumWidth(260)
        self.resultados = QLabel()
        self.resultados.setStyleSheet("color: #4b5563")
        self.texto = QTextBrowser()
        self.texto.setOpenLinks(False)
        self.texto.setAccessibleName("Texto do manual")
        self.texto.document().setDefaultStyleSheet("h1 { color: #1f2937 } h2 { color: #1f2937 }")
        self.secao_atual = ""
        self._itens: dict[str, QTreeWidgetItem] = {}
        self._historico: list[str] = []
        self._montar_indice()

        esquerda = QWidget()
        le = QVBoxLayout(esquerda)
        le.setContentsMargins(0, 0, 0, 0)
        rotulo = QLabel("&Buscar:")
        rotulo.setBuddy(self.busca)
        linha = QHBoxLayout()
        linha.addWidget(rotulo)
        linha.addWidget(self.busca, 1)
        le.addLayout(linha)
        le.addWidget(self.resultados)
        le.addWidget(self.indice, 1)
        divisor = QSplitter(Qt.Orientation.Horizontal)
        divisor.addWidget(esquerda)
        divisor.addWidget(self.texto)
        divisor.setStretchFactor(1, 1)
        divisor.setSizes([340, 800])
        divisor.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(divisor)

        self.indice.currentItemChanged.connect(self._item_escolhido)
        self.busca.textChanged.connect(self.filtrar)
        self.busca.returnPressed.connect(self._primeiro_resultado)
        self.texto.anchorClicked.connect(self._link)
        atalho = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self)
        atalho.activated.connect(self._focar_busca)
        voltar = QShortcut(QKeySequence(QKeySequence.StandardKey.Back), self)
        voltar.activated.connect(self.voltar)
        fechar = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        fechar.activated.connect(self.close)
        self.resize(1100, 700)

    def _focar_busca(self) -> None:
        self.busca.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.busca.selectAll()

    def _montar_indice(self) -> None:
        for secao in self.manual.secoes:
            pai = self._itens.get(secao.pai or "")
            item = QTreeWidgetItem([secao.titulo])
            item.setData(0, Qt.ItemDataRole.UserRole, secao.id)
            item.setToolTip(0, secao.titulo)
            if pai is None:
                self.indice.addTopLevelItem(item)
            else:
                pai.addChild(item)
            self._itens[secao.id] = item
        self.indice.expandAll()

    def mostrar(self, id_: str, *, historico: bool = True) -> None:
        """Show section `id_` (the start page when the manual has no such section)."""
        if not self.manual.existe(id_):
            id_ = servico_manual.INICIO
        if historico and self.secao_atual and self.secao_atual != id_:
            self._historico.append(self.secao_atual)
        self.secao_atual = id_
        self.texto.setMarkdown(self.manual.secao(id_).texto)
        self.texto.verticalScrollBar().setValue(0)
        item = self._itens[id_]
        if self.indice.currentItem() is not item:
            self.indice.blockSignals(True)
            self.indice.setCurrentItem(item)
            self.indice.blockSignals(False)
        self.indice.scrollToItem(item)
        palavras = self.busca.text().split()
        if palavras:
            self.texto.find(palavras[0])  # the first place the search word appears, selected

    def voltar(self) -> None:
        if self._historico:
            self.mostrar(self._historico.pop(), historico=False)

    def filtrar(self, termo: str) -> None:
        """Keep in the contents only the sections holding every word of the search."""
        if not termo.strip():
            for item in self._itens.values():
                item.setHidden(False)
            self.resultados.setText("")
            return
        achados = {r.secao for r in self.manual.buscar(termo)}
        for id_, item in self._itens.items():
            # a parent stays when a child matches, so the tree reads
            visivel = id_ in achados or any(
                s.id in achados and self._descende(s.id, id_) for s in self.manual.secoes
            )
            item.setHidden(not visivel)
        n = len(achados)
        self.resultados.setText(
            "Nenhuma seção com essas palavras."
            if n == 0
            else ("1 seção encontrada." if n == 1 else f"{n} seções encontradas.")
        )

    def resultados_visiveis(self) -> list[str]:
        return [id_ for id_, item in self._itens.items() if not item.isHidden()]

    def _descende(self, filho: str, pai: str) -> bool:
        atual = self.manual.secao(filho).pai
        while atual is not None:
            if atual == pai:
                return True
            atual = self.manual.secao(atual).pai
        return False

    def _primeiro_resultado(self) -> None:
        achados = self.manual.buscar(self.busca.text())
        if achados:
            self.mostrar(achados[0].secao)
            self.texto.setFocus()

    def _item_escolhido(self, item: QTreeWidgetItem | None, _anterior: QTreeWidgetItem | None) -> None:
        if item is not None:
            self.mostrar(str(item.data(0, Qt.ItemDataRole.UserRole)))

    def _link(self, url: QUrl) -> None:
        alvo = servico_manual.alvo_do_link(url.toString())
        if alvo is None:
            QDesktopServices.openUrl(url)
        else:
            self.mostrar(alvo)


_janela: JanelaAjuda | None = None


def janela_aberta() -> JanelaAjuda | None:
    """The help window, if one was opened and still exists."""
    global _janela
    if _janela is not None:
        try:
            _janela.isVisible()
        except RuntimeError:  # deleted with the application
            _janela = None
    return _janela


def abrir_ajuda(secao: str = servico_manual.INICIO, parent: QWidget | None = None) -> JanelaAjuda:
    """Show the manual at `secao` (one help window for the whole program, brought to the front).

    The window has no parent so that a dialog open in front of the main window (window-modal) does not
    block it; it is a window of its own that the user reads beside the program."""
    global _janela
    janela = janela_aberta()
    # An application-modal dialog (the login, before the main window) blocks every other window but its
    # own: there the manual opens as a window of that dialog, so it can be read and scrolled.
    modal = QApplication.activeModalWidget()
    if modal is not None and modal.windowModality() != Qt.WindowModality.ApplicationModal:
        modal = None
    if janela is None or (modal is not None and janela.parentWidget() is not modal):
        if janela is not None:
            janela.close()
        janela = _janela = JanelaAjuda(modal)
    janela.mostrar(secao)
    janela.show()
    janela.raise_()
    janela.activateWindow()
    return janela
