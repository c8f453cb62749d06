"""Início: what needs doing today (PRODUTO path 7). The work queues with their counts on the left, the chosen
queue's rows on the right; Enter or a double click opens the row's case (or vehicle, operator, petition).

The queues are the case services' (`secretaria.services.filas.painel`): one indexed query each, read in one
session when the page is shown, after F5, and after any act done from a case opened here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.lei.formato import formatar_data
from secretaria.services.filas import Fila, LinhaFila
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import TabelaLista
from secretaria.ui.modelo_tabela import (
    ColunaTabela,
    FonteEmMemoria,
    LinhaTabela,
    ModeloTabela,
    mantendo_posicao,
)

if TYPE_CHECKING:
    from secretaria.ui.widgets.imprimir_lista import PedidoImpressao

COR_ATRASO = "#b00020"
COR_SECUNDARIA = "#4b5563"
FILAS_DE_ATRASO = frozenset(
    {
        "decisoes_atrasadas",
        "veiculos_vencidos",
        "suspensoes_a_iniciar",
        "revisoes_de_prazo",
        "revisoes_de_sancao",
    }
)
"""Queues whose rows are all late: their count shows in red."""
TITULOS_PRAZO = {
    "defesas_a_vencer": "Defesa até",
    "decisoes_atrasadas": "Defesa venceu em",
    "recursos_em_prazo": "Recurso até",
    "multas_em_aberto": "Pagamento até",
    "veiculos_vencidos": "Venceu em",
    "veiculos_a_vencer": "Vence em",
    "contratos_a_vencer": "Vigente até",
    "suspensoes_a_iniciar": "Iniciar a partir de",
    "revisoes_de_prazo": "Novo prazo",
    "revisoes_de_sancao": "Prazo",
}
"""What the "Prazo" column holds in each queue (a passed appeal deadline is not itself a missed deadline)."""
DATA_SEM_ALERTA = frozenset({"suspensoes_a_iniciar", "revisoes_de_prazo", "revisoes_de_sancao"})
"""Queues whose date column is history, not the overdue thing: only the Situação is red there."""


CORES_FILA = {"atrasado": COR_ATRASO}


def colunas_da_fila(chave: str = "") -> tuple[ColunaTabela, ...]:
    """One queue's columns: Referência | Operadora | Data | Prazo | Situação. The "Prazo" title says what the
    queue's date is; a passed deadline reds the Prazo and the Situação (only the Situação where the date
    is history, `DATA_SEM_ALERTA`)."""
    return (
        ColunaTabela("referencia", "Referência", dica_do_texto=True, destacar=False, inteira=True),
        ColunaTabela("operadora", "Operadora", dica_do_texto=True, destacar=False, esticar=True),
        ColunaTabela(
            "data", "Data", largura=12, alinhamento="centro", dica_do_texto=True, destacar=False, inteira=True
        ),
        ColunaTabela(
            "prazo",
            TITULOS_PRAZO.get(chave, "Prazo"),
            largura=12,
            alinhamento="centro",
            dica_do_texto=True,
            destacar=chave not in DATA_SEM_ALERTA,
            inteira=True,
        ),
        ColunaTabela("situacao", "Situação", dica_do_texto=True),
    )


def linhas_da_fila(linhas: Sequence[LinhaFila], hoje: date, atraso: bool = False) -> list[LinhaTabela]:
    """A queue's rows for its table; each row's id is what opening it opens, (entidade, id). A row is
    "atrasado" when its whole queue is late (`atraso`) or its deadline passed before `hoje`."""
    return [
        LinhaTabela(
            (linha.entidade, linha.id),
            (linha.referencia, linha.operadora, linha.data, linha.prazo, linha.detalhe),
            "atrasado" if atraso or (linha.prazo is not None and linha.prazo < hoje) else None,
        )
        for linha in linhas
    ]


class TabelaFila(TabelaLista):
    """A list's table (Enter opens the current row, as a double click does) refitted whenever its width
    changes: the reference and the dates whole, a long operator's name and status cut evenly, with the
    whole text in the tooltip."""

    def resizeEvent(self, evento: QResizeEvent) -> None:
        super().resizeEvent(evento)
        if evento.size().width() != evento.oldSize().width() and not self.larguras_do_usuario:
            self.ajustar_colunas()


class PaginaInicio(QWidget):
    """The home page. `abrirRegistro(entidade, id)` is emitted before the page opens the row itself."""

    abrirRegistro = Signal(str, int)

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.filas: tuple[Fila, ...] = ()
        self.janelas: list[QWidget] = []

        self.titulo = QLabel("Início")
        fonte = self.titulo.font()
        fonte.setPointSizeF(fonte.pointSizeF() * 1.35)
        fonte.setBold(True)
        self.titulo.setFont(fonte)
        self.subtitulo = QLabel()
        self.subtitulo.setStyleSheet(f"color: {COR_SECUNDARIA}")
        self.lembrete = QLabel()
        self.lembrete.setWordWrap(True)
        self.lembrete.setStyleSheet(
            "background: #fff7ed; color: #9a3412; border: 1px solid #fdba74; padding: 6px; border-radius: 4px"
        )
        self.lembrete.setVisible(False)
        # A new installation: what is still missing before documents can be issued.
        self.primeiro_dia = QLabel()
        self.primeiro_dia.setWordWrap(True)
        self.primeiro_dia.setStyleSheet(
            "background: #eff6ff; color: #1e3a8a; border: 1px solid #93c5fd; padding: 6px; border-radius: 4px"
        )
        self.primeiro_dia.setVisible(False)
        self.botao_atualizar = QPushButton("Atualizar")
        self.botao_atualizar.setToolTip("F5")
        self.botao_atualizar.clicked.connect(self.recarregar)
        self.botao_abrir = QPushButton("Abrir")
        self.botao_abrir.setToolTip("Enter ou clique duplo")
        self.botao_abrir.clicked.connect(self.abrir_selecionado)

        self.lista_filas = QListWidget()
        self.lista_filas.setAccessibleName("Filas de trabalho")
        self.lista_filas.setMinimumWidth(330)
        self.lista_filas.setWordWrap(True)
        self.lista_filas.setSpacing(4)
        self.fonte = FonteEmMemoria(colunas_da_fila())
        self.modelo = ModeloTabela(self.fonte, cores=CORES_FILA, alinhar_titulos=False, parent=self)
        self.tabela = TabelaFila()
        self.tabela.setModel(self.modelo)
        self.tabela.setAccessibleName("Itens da fila")
        self.titulo_fila = QLabel()
        fonte_fila = self.titulo_fila.font()
        fonte_fila.setBold(True)
        self.titulo_fila.setFont(fonte_fila)
        self.aviso_limite = QLabel()
        self.aviso_limite.setStyleSheet(f"color: {COR_SECUNDARIA}")
        self.vazio = QLabel("Nada a fazer nesta fila.")
        self.vazio.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.vazio.setStyleSheet(f"color: {COR_SECUNDARIA}; font-size: 12pt")

        direita = QWidget()
        ld = QVBoxLayout(direita)
        ld.setContentsMargins(0, 0, 0, 0)
        ld.addWidget(self.titulo_fila)
        ld.addWidget(self.tabela, 1)
        ld.addWidget(self.vazio, 1)
        ld.addWidget(self.aviso_limite)
        divisor = QSplitter(Qt.Orientation.Horizontal)
        divisor.addWidget(self.lista_filas)
        divisor.addWidget(direita)
        divisor.setStretchFactor(1, 1)
        divisor.setSizes([340, 800])
        divisor.setChildrenCollapsible(False)

        topo = QHBoxLayout()
        cabecalho = QVBoxLayout()
        cabecalho.addWidget(self.titulo)
        cabecalho.addWidget(self.subtitulo)
        topo.addLayout(cabecalho, 1)
        topo.addWidget(self.botao_abrir, 0, Qt.AlignmentFlag.AlignBottom)
        topo.addWidget(self.botao_atualizar, 0, Qt.AlignmentFlag.AlignBottom)
        self._topo = topo
        layout = QVBoxLayout(self)
        layout.addLayout(topo)
        layout.addWidget(self.primeiro_dia)
        layout.addWidget(self.lembrete)
        layout.addWidget(divisor, 1)

        self.lista_filas.currentRowChanged.connect(self._mostrar_fila)
        self.tabela.activated.connect(lambda idx: self.abrir_linha(idx.row()))
        atalho = QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self)
        atalho.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        atalho.activated.connect(self.recarregar)
        # The page's focus proxy (the queues) must come first in its chain: Qt skips whatever precedes it
        # when Tab enters the page, which left "Abrir" and "Atualizar" out of reach of the keyboard.
        self.setTabOrder(self.lista_filas, self.tabela)
        self.setTabOrder(self.tabela, self.botao_abrir)
        self.setTabOrder(self.botao_abrir, self.botao_atualizar)
        self.setFocusProxy(self.lista_filas)
        self._instalar_copia_e_impressao()
        self._carregada = False
        self.recarregar()

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        if self._carregada:
            self.recarregar()
        self._carregada = True

    # --- loading ---
    def recarregar(self) -> None:
        from secretaria.services.filas import painel
        from secretaria.services.lembretes import lembrete_calendario
        from secretaria.services.primeiro_dia import pendencias, texto_pendencias

        hoje = relogio.hoje()
        with self.contexto.banco.leitura() as sessao:
            self.filas = painel(sessao, hoje)
            lembrete = lembrete_calendario(sessao, hoje) if self.contexto.ator.tem("administrador") else None
            falta = texto_pendencias(pendencias(sessao))
        self.lembrete.setText(lembrete or "")
        self.lembrete.setVisible(lembrete is not None)
        self.primeiro_dia.setText(falta or "")
        self.primeiro_dia.setVisible(falta is not None)
        self.subtitulo.setText(f"O que precisa ser feito hoje, {formatar_data(hoje)}")
        # What the user was looking at stays: the queue (by key), its chosen row (by record) and both scrolls.
        anterior = self.lista_filas.currentItem()
        chave_atual = anterior.data(Qt.ItemDataRole.UserRole) if anterior is not None else None
        rolagem_filas = self.lista_filas.verticalScrollBar().value()
        self.lista_filas.blockSignals(True)
        self.lista_filas.clear()
        for fila in self.filas:
            item = QListWidgetItem(f"{fila.titulo}\n{_contagem(fila.total)}")
            fonte = QFont(self.lista_filas.font())
            fonte.setBold(fila.total > 0)
            item.setFont(fonte)
            if fila.total and fila.chave in FILAS_DE_ATRASO:
                item.setForeground(QBrush(QColor(COR_ATRASO)))
            elif not fila.total:
                item.setForeground(QBrush(QColor(COR_SECUNDARIA)))
            item.setData(Qt.ItemDataRole.UserRole, fila.chave)
            item.setToolTip(fila.titulo)
            self.lista_filas.addItem(item)
        atual = next((i for i, f in enumerate(self.filas) if f.chave == chave_atual), -1)
        if atual < 0:
            atual = next((i for i, f in enumerate(self.filas) if f.total), 0)
        self.lista_filas.setCurrentRow(min(atual, len(self.filas) - 1))
        self.lista_filas.verticalScrollBar().setValue(rolagem_filas)
        self.lista_filas.blockSignals(False)
        if (
            chave_atual is not None
            and (mostrada := self.fila_atual()) is not None
            and mostrada.chave == chave_atual
        ):
            with mantendo_posicao(self.tabela, self.modelo):
                self._mostrar_fila(self.lista_filas.currentRow())
        else:
            self._mostrar_fila(self.lista_filas.currentRow())

    def ao_mudar(self, mudancas: frozenset[Any]) -> None:
        """Another user's acts (the main window forwards them while this page is on screen): the counts and
        the rows are read again, keeping the queue, the chosen row and the scroll. At most one reload per
        burst (`ui.vigia` coalesces them)."""
        if mudancas:
            self.recarregar()

    def fila_atual(self) -> Fila | None:
        indice = self.lista_filas.currentRow()
        return self.filas[indice] if 0 <= indice < len(self.filas) else None

    def _mostrar_fila(self, indice: int) -> None:
        if not 0 <= indice < len(self.filas):
            return
        fila = self.filas[indice]
        atraso = fila.chave in FILAS_DE_ATRASO
        self.fonte.trocar(
            linhas_da_fila(fila.linhas, relogio.hoje(), atraso), colunas=colunas_da_fila(fila.chave)
        )
        self.modelo.recarregar()
        self.titulo_fila.setText(f"{fila.titulo} — {_contagem(fila.total)}")
        self.tabela.setVisible(bool(fila.linhas))
        self.tabela.setColumnHidden(2, not any(linha.data for linha in fila.linhas))
        self.tabela.setColumnHidden(3, not any(linha.prazo for linha in fila.linhas))
        if fila.linhas and not self.tabela.larguras_do_usuario:
            self.tabela.ajustar_colunas()
        self.vazio.setVisible(not fila.linhas)
        mostrados = len(fila.linhas)
        self.aviso_limite.setText(
            f"Mostrando os {mostrados} primeiros de {fila.total}; use a lista de autos para ver todos."
            if fila.total > mostrados
            else ""
        )
        self.botao_abrir.setEnabled(bool(fila.linhas))
        if fila.linhas:
            self.tabela.selectRow(0)

    def _instalar_copia_e_impressao(self) -> None:
        """Ctrl+C copies the selected rows; Ctrl+P ("Imprimir lista…", also a button) prints the whole queue."""
        from secretaria.ui.widgets.copiar import instalar_copia
        from secretaria.ui.widgets.imprimir_lista import instalar_impressao

        self.acao_copiar = instalar_copia(self.tabela)
        self.acao_imprimir, self.acao_salvar_pdf = instalar_impressao(
            self, self.tabela, self.contexto, self.pedido_impressao
        )
        self.botao_imprimir = QPushButton("Imprimir lista…")
        self.botao_imprimir.setToolTip("Todos os itens da fila escolhida, em PDF — Ctrl+P")
        self.botao_imprimir.clicked.connect(self.acao_imprimir.trigger)
        self._topo.addWidget(self.botao_imprimir, 0, Qt.AlignmentFlag.AlignBottom)
        self.setTabOrder(self.botao_atualizar, self.botao_imprimir)

    def pedido_impressao(self) -> PedidoImpressao | None:
        """The chosen queue with ALL its rows (the screen shows the first 100), its visible columns."""
        from secretaria.services.impressao_listas import fila_inteira
        from secretaria.ui.widgets.copiar import colunas_visiveis
        from secretaria.ui.widgets.imprimir_lista import PedidoImpressao as Pedido

        indice = self.lista_filas.currentRow()
        if not 0 <= indice < len(self.filas):
            return None
        fila = self.filas[indice]
        hoje = relogio.hoje()
        atraso = fila.chave in FILAS_DE_ATRASO

        def obter(sessao: Any, progresso: Any) -> list[tuple[Any, ...]]:
            progresso(0, 0, "Lendo os itens da fila…")
            inteira = fila_inteira(sessao, fila.chave, hoje)
            return [linha.valores for linha in linhas_da_fila(inteira.linhas, hoje, atraso)]

        return Pedido(
            titulo=fila.titulo,
            filtros=(("Fila de trabalho do Início", f"posição de {formatar_data(hoje)}"),),
            colunas=colunas_da_fila(fila.chave),
            indices=tuple(colunas_visiveis(self.tabela)),
            obter=obter,
        )

    def fila(self, chave: str) -> Fila:
        return next(f for f in self.filas if f.chave == chave)

    def selecionar_fila(self, chave: str) -> None:
        self.lista_filas.setCurrentRow(next(i for i, f in enumerate(self.filas) if f.chave == chave))

    # --- opening ---
    def abrir_selecionado(self) -> None:
        indice = self.tabela.currentIndex()
        if indice.isValid():
            self.abrir_linha(indice.row())

    def abrir_linha(self, row: int) -> QWidget | None:
        chave = self.modelo.id_da_linha(row)
        if chave is None:
            return None
        entidade, id_ = chave
        self.abrirRegistro.emit(entidade, id_)
        janela = self._abrir(entidade, id_)
        if janela is not None:
            self.janelas = [j for j in self.janelas if _viva(j)] + [janela]
        return janela

    def _abrir(self, entidade: str, id_: int) -> QWidget | None:
        if entidade == "auto":
            from secretaria.ui.processo.tela_caso import abrir_caso

            tela = abrir_caso(self.contexto, id_, self)
            tela.casoAlterado.connect(lambda _id: self.recarregar())
            return tela
        if entidade == "representacao":
            from secretaria.ui.processo.form_representacao import TelaRepresentacao

            tela_rep = TelaRepresentacao(self.contexto, id_, self)
            tela_rep.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            tela_rep.alterada.connect(lambda _id: self.recarregar())
            tela_rep.autoLavrado.connect(lambda auto_id, _n: self._abrir("auto", auto_id))
            tela_rep.open()
            return tela_rep
        if entidade == "veiculo":
            from secretaria.ui.cadastros.veiculos import DialogoVeiculo

            dialogo: Any = DialogoVeiculo(self.contexto, id_, self)
        elif entidade == "operadora":
            from secretaria.ui.cadastros.operadoras import DialogoOperadora

            dialogo = DialogoOperadora(self.contexto, id_, self)
        else:
            return None
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.salvo.connect(lambda _id: self.recarregar())
        dialogo.open()
        return dialogo  # type: ignore[no-any-return]


def _contagem(n: int) -> str:
    if n == 0:
        return "nenhum item"
    return "1 item" if n == 1 else f"{n:,} itens".replace(",", ".")


def _viva(janela: QWidget) -> bool:
    try:
        return janela.isVisible()
    except RuntimeError:  # already deleted (WA_DeleteOnClose)
        return False


__all__ = ["CORES_FILA", "PaginaInicio", "colunas_da_fila", "linhas_da_fila"]
