"""The one table model of the program: a window onto a service query, never the whole table.

Over 200,000 autos a model that loads every row (or a QSortFilterProxyModel over one) takes many seconds
to open and to sort. This model asks the source for the row count (`contar`) and then for blocks of rows
by position (`buscar(filtro, ordem, inicio, quantidade)`), keeping a small cache of recent blocks; sorting
and filtering are new queries, so the database does them with its indexes.

Use (see `FonteLinhas`; `secretaria.ui.lista.PaginaLista` wraps all of this in a page):

    modelo = ModeloTabela(minha_fonte)
    view.setModel(modelo)
    modelo.definir_filtro(FiltroTabela(texto="viação", situacao="ativa"))
    modelo.sort(2, Qt.SortOrder.DescendingOrder)
    modelo.id_da_linha(view.currentIndex().row())   # the record id to open
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal, Protocol

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QTableView

from secretaria.lei.formato import formatar_data, formatar_decimal

Alinhamento = Literal["esquerda", "direita", "centro"]
Indice = QModelIndex | QPersistentModelIndex

COR_ALERTA = QColor("#b3261e")
COR_AVISO = QColor("#8a5a00")
COR_APAGADO = QColor("#6b6b6b")
_CORES_DESTAQUE = {"alerta": COR_ALERTA, "aviso": COR_AVISO, "apagado": COR_APAGADO}


def formatar_celula(valor: Any) -> str:
    """How a plain value reads in a table cell: dd/mm/aaaa, 1.234,56, Sim/Não, empty for None."""
    if valor is None:
        return ""
    if isinstance(valor, bool):
        return "Sim" if valor else "Não"
    if isinstance(valor, datetime):
        return f"{formatar_data(valor.date())} {valor:%H:%M}"
    if isinstance(valor, date):
        return formatar_data(valor)
    if isinstance(valor, Decimal):
        return formatar_decimal(valor)
    if isinstance(valor, float):
        return formatar_decimal(Decimal(str(valor)))
    return str(valor)


def formatar_contagem(
    n: int, singular: str = "registro", plural: str = "registros", *, feminino: bool = False
) -> str:
    """ "1.234 registros" / "1 registro" / "nenhum registro" ("nenhuma operadora" with `feminino`)."""
    if n == 0:
        return f"{'nenhuma' if feminino else 'nenhum'} {singular}"
    numero = f"{n:,}".replace(",", ".")
    return f"{numero} {singular if n == 1 else plural}"


@dataclass(frozen=True)
class ColunaTabela:
    """One column of a list: its header, how its values read and align, and whether it sorts.

    `chave` is what the source understands in `Ordem.chave` (usually the service's column name).
    `formatar` overrides `formatar_celula`; `alinhamento=None` right-aligns numbers and centres dates.
    `dica_do_texto` makes the cell's own text its tooltip (long texts that wrap or elide; a row's `dica`
    comes first); `destacar=False` keeps the column in the normal colour when its row is highlighted.
    """

    chave: str
    titulo: str
    largura: int | None = None
    alinhamento: Alinhamento | None = None
    formatar: Callable[[Any], str] | None = None
    ordenavel: bool = True
    dica_do_texto: bool = False
    destacar: bool = True
    dinheiro: bool = False
    """Amounts in reais: exported as numbers shown "R$ 1.234,50"."""
    inteira: bool = False
    """Never narrowed below its content when the table is too narrow: CNPJ, CPF, a plate, a number."""
    esticar: bool = False
    """Takes the room left over (a name that can be long), before any other column."""
    cortar_por_ultimo: bool = False
    """When the table is too narrow, narrowed only if the other text columns could not give enough room (a
    status, whose end says what is wrong)."""


@dataclass(frozen=True)
class LinhaTabela:
    """One row as the source hands it: the record id (what "open" opens), the values in column order, and
    an optional highlight code ("alerta" = red, e.g. overdue; "aviso" = amber; "apagado" = grey, e.g.
    inactive; or a code of the model's own `cores`)."""

    id: Any
    valores: tuple[Any, ...]
    destaque: str | None = None
    dica: str | None = None


@dataclass(frozen=True)
class FiltroTabela:
    """What the user asked for: the search text, the status chosen in the combo (None = all), and any
    extra criteria a page adds (passed through untouched to the source)."""

    texto: str = ""
    situacao: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ordem:
    """Sort by the column whose `ColunaTabela.chave` is `chave`; None = the source's natural order."""

    chave: str | None = None
    decrescente: bool = False


class FonteLinhas(Protocol):
    """Where rows come from. Implementations open one read session per call (the UI never keeps one)."""

    @property
    def colunas(self) -> Sequence[ColunaTabela]: ...

    def contar(self, filtro: FiltroTabela) -> int: ...

    def buscar(
        self, filtro: FiltroTabela, ordem: Ordem, inicio: int, quantidade: int
    ) -> Sequence[LinhaTabela]: ...


@dataclass(frozen=True)
class Consulta:
    """What a search read off the GUI thread (`ModeloTabela.consulta`): the count and the first block, for
    `aplicar_consulta` to show at once."""

    filtro: FiltroTabela
    ordem: Ordem
    total: int
    primeiras: tuple[LinhaTabela, ...]


class ModeloTabela(QAbstractTableModel):
    """A lazy, windowed `QAbstractTableModel` over a `FonteLinhas`.

    `rowCount` is the source's count for the current filter; rows are fetched in blocks of `bloco` when a
    view first asks for them and at most `blocos_em_cache` blocks are kept. `sort()` re-queries (the view's
    header click sorts in SQL). `recarregar()` after a save; `contagemMudou(int)` feeds the "N registros" label.

    `cores` adds highlight codes of the table's own (code → colour) to the shared ones; with
    `alinhar_titulos=False` the header keeps the view's own alignment (Qt centres the titles), as the small
    tables of the case, cassação and home screens show them.
    """

    contagemMudou = Signal(int)

    def __init__(
        self,
        fonte: FonteLinhas,
        *,
        bloco: int = 200,
        blocos_em_cache: int = 40,
        filtro: FiltroTabela | None = None,
        ordem: Ordem | None = None,
        cores: Mapping[str, QColor | str] | None = None,
        alinhar_titulos: bool = True,
        parent: Any = None,
    ) -> None:
        super().__init__(parent)
        self._fonte = fonte
        self._cores = {**_CORES_DESTAQUE, **{codigo: QColor(cor) for codigo, cor in (cores or {}).items()}}
        self._alinhar_titulos = alinhar_titulos
        self._colunas = tuple(fonte.colunas)
        self._bloco = bloco
        self._max_blocos = blocos_em_cache
        self._filtro = filtro or FiltroTabela()
        self._ordem = ordem or Ordem()
        self._total = 0
        self._cache: OrderedDict[int, Sequence[LinhaTabela]] = OrderedDict()
        self._total = self._contar()

    # -- what pages use ---------------------------------------------------------------------------
    @property
    def fonte(self) -> FonteLinhas:
        return self._fonte

    @property
    def colunas(self) -> tuple[ColunaTabela, ...]:
        return self._colunas

    @property
    def filtro(self) -> FiltroTabela:
        return self._filtro

    @property
    def ordem(self) -> Ordem:
        return self._ordem

    @property
    def total(self) -> int:
        return self._total

    def definir_filtro(self, filtro: FiltroTabela) -> None:
        if filtro != self._filtro:
            self._filtro = filtro
            self.recarregar()

    def recarregar(self) -> None:
        """Forget the cached rows and ask the source again (after a save, or a filter/order change). The
        source's columns are read again too: an in-memory source may change a title with its rows."""
        colunas = tuple(self._fonte.colunas)
        mudaram = colunas != self._colunas
        self.beginResetModel()
        self._colunas = colunas
        self._cache.clear()
        self._total = self._contar()
        self.endResetModel()
        if mudaram and colunas:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(colunas) - 1)
        self.contagemMudou.emit(self._total)

    @property
    def consulta_em_segundo_plano(self) -> bool:
        """The source queries a database (its `consulta_em_segundo_plano`): a page reads it off the GUI
        thread. An in-memory source answers at once."""
        return bool(getattr(self._fonte, "consulta_em_segundo_plano", False))

    def consulta(self, filtro: FiltroTabela) -> Callable[[], Consulta]:
        """The reading of a search with `filtro` (in the current order), as a function to run in any thread:
        it touches only the source, never this model. `aplicar_consulta` then shows its result."""
        fonte, ordem, bloco = self._fonte, self._ordem, self._bloco

        def consultar() -> Consulta:
            contar_e_buscar = getattr(fonte, "contar_e_buscar", None)
            if contar_e_buscar is not None:  # one read for both (FonteLista: the search's ids read once)
                total, linhas = contar_e_buscar(filtro, ordem, bloco)
                return Consulta(filtro, ordem, max(0, int(total)), tuple(linhas))
            total = max(0, int(fonte.contar(filtro)))
            primeiras = tuple(fonte.buscar(filtro, ordem, 0, bloco)) if total else ()
            return Consulta(filtro, ordem, total, primeiras)

        return consultar

    def aplicar_consulta(self, consulta: Consulta) -> None:
        """Show a search read by `consulta(...)()`: one reset, from the old rows straight to the new ones
        (never an empty table in between). Its first block is kept unless the order changed meanwhile."""
        self.beginResetModel()
        self._filtro = consulta.filtro
        self._cache.clear()
        self._total = consulta.total
        if consulta.ordem == self._ordem and consulta.primeiras:
            self._cache[0] = consulta.primeiras
        self.endResetModel()
        self.contagemMudou.emit(self._total)

    def linha(self, row: int) -> LinhaTabela | None:
        if row < 0 or row >= self._total:
            return None
        numero, posicao = divmod(row, self._bloco)
        bloco = self._obter_bloco(numero)
        return bloco[posicao] if posicao < len(bloco) else None

    def id_da_linha(self, row: int) -> Any:
        linha = self.linha(row)
        return None if linha is None else linha.id

    def linha_do_id(self, id_: Any) -> int | None:
        """The row of a record already in the cache, else None (after a reload: `procurar_id`)."""
        for numero, bloco in self._cache.items():
            for posicao, linha in enumerate(bloco):
                if linha.id == id_:
                    return numero * self._bloco + posicao
        return None

    def procurar_id(self, id_: Any, perto: int = 0) -> int | None:
        """The row of record `id_` after a reload: its old neighbourhood (`perto`) and the top are read
        (one block each at most), then searched. None when it is no longer in either (filtered out, gone)."""
        for linha in (perto, 0):
            self.linha(min(max(linha, 0), self._total - 1))
            achada = self.linha_do_id(id_)
            if achada is not None:
                return achada
        return None

    def iterar_visiveis(self, lote: int = 1000) -> Iterator[tuple[Any, ...]]:
        """Every row of the current filter and order, formatted as the table shows it (for export). A source
        with an `iterar(filtro, ordem)` method streams them; otherwise they come in windows of `lote`."""
        iterar = getattr(self._fonte, "iterar", None)
        if iterar is not None:
            for linha in iterar(self._filtro, self._ordem):
                yield tuple(
                    self._valor_exportado(c, v) for c, v in zip(self._colunas, linha.valores, strict=False)
                )
            return
        inicio = 0
        while True:
            linhas = self._fonte.buscar(self._filtro, self._ordem, inicio, lote)
            for linha in linhas:
                yield tuple(
                    self._valor_exportado(c, v) for c, v in zip(self._colunas, linha.valores, strict=False)
                )
            if len(linhas) < lote:
                return
            inicio += lote

    # -- Qt ---------------------------------------------------------------------------------------
    def rowCount(self, parent: Indice = QModelIndex()) -> int:  # noqa: B008 - Qt's own signature
        return 0 if parent.isValid() else self._total

    def columnCount(self, parent: Indice = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._colunas)

    def data(self, index: Indice, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.column() >= len(self._colunas):
            return None
        if role not in _PAPEIS_USADOS:
            return None
        linha = self.linha(index.row())
        if linha is None:
            return None
        coluna = self._colunas[index.column()]
        valor = linha.valores[index.column()] if index.column() < len(linha.valores) else None
        if role == Qt.ItemDataRole.DisplayRole:
            return coluna.formatar(valor) if coluna.formatar else formatar_celula(valor)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _alinhamento(coluna, valor)
        if role == Qt.ItemDataRole.ForegroundRole:
            cor = self._cores.get(linha.destaque or "") if coluna.destacar else None
            return QBrush(cor) if cor is not None else None
        if role == Qt.ItemDataRole.ToolTipRole:
            if linha.dica is not None or not coluna.dica_do_texto:
                return linha.dica
            return coluna.formatar(valor) if coluna.formatar else formatar_celula(valor)
        if role == Qt.ItemDataRole.UserRole:
            return linha.id
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._colunas):
            return None
        coluna = self._colunas[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return coluna.titulo
        if role == Qt.ItemDataRole.TextAlignmentRole and self._alinhar_titulos:
            return int(_ALINHAMENTOS[coluna.alinhamento or "esquerda"] | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: Indice) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return _FLAGS_DA_CELULA

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in the database: a new query, not a proxy over loaded rows."""
        if not 0 <= column < len(self._colunas) or not self._colunas[column].ordenavel:
            return
        ordem = Ordem(self._colunas[column].chave, order == Qt.SortOrder.DescendingOrder)
        if ordem != self._ordem:
            self._ordem = ordem
            self.recarregar()

    # -- inside -----------------------------------------------------------------------------------
    def _contar(self) -> int:
        return max(0, int(self._fonte.contar(self._filtro)))

    def _obter_bloco(self, numero: int) -> Sequence[LinhaTabela]:
        bloco = self._cache.get(numero)
        if bloco is not None:
            self._cache.move_to_end(numero)
            return bloco
        inicio = numero * self._bloco
        com_total = getattr(self._fonte, "buscar_com_total", None)  # FonteLista: the end read from the end
        if com_total is not None:
            bloco = tuple(com_total(self._filtro, self._ordem, inicio, self._bloco, self._total))
        else:
            bloco = tuple(self._fonte.buscar(self._filtro, self._ordem, inicio, self._bloco))
        self._cache[numero] = bloco
        while len(self._cache) > self._max_blocos:
            self._cache.popitem(last=False)
        return bloco

    @staticmethod
    def _valor_exportado(coluna: ColunaTabela, valor: Any) -> Any:
        """Dates and numbers stay typed (Excel formats them); formatted text otherwise."""
        if valor is None or (isinstance(valor, int | float | Decimal | date) and not isinstance(valor, bool)):
            return valor
        return coluna.formatar(valor) if coluna.formatar else formatar_celula(valor)


@contextmanager
def mantendo_posicao(tabela: QTableView, modelo: ModeloTabela) -> Iterator[None]:
    """Around a reload of `modelo` shown in `tabela` (another user's act): what the user sees stays put —
    the chosen record stays chosen (found by its id, wherever it moved) and the record at the top of the
    view stays at the top, so rows appearing above do not push the page; the horizontal scroll is kept."""
    atual = tabela.currentIndex()
    id_atual = modelo.id_da_linha(atual.row()) if atual.isValid() else None
    topo = tabela.rowAt(0)
    id_topo = modelo.id_da_linha(topo) if topo >= 0 else None
    vertical, horizontal = tabela.verticalScrollBar().value(), tabela.horizontalScrollBar().value()
    yield
    linha = modelo.procurar_id(id_atual, atual.row()) if id_atual is not None else None
    if linha is not None:
        tabela.selectionModel().setCurrentIndex(
            modelo.index(linha, max(0, atual.column())),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
    linha_topo = modelo.procurar_id(id_topo, topo) if id_topo is not None else None
    if linha_topo is not None:
        tabela.scrollTo(modelo.index(linha_topo, 0), QAbstractItemView.ScrollHint.PositionAtTop)
    else:
        tabela.verticalScrollBar().setValue(vertical)
    tabela.horizontalScrollBar().setValue(horizontal)


_PAPEIS_USADOS = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.UserRole,
    }
)

_ALINHAMENTOS = {
    "esquerda": Qt.AlignmentFlag.AlignLeft,
    "direita": Qt.AlignmentFlag.AlignRight,
    "centro": Qt.AlignmentFlag.AlignHCenter,
}


# Each cell's alignment and flags, combined once: a Qt flag combined per cell (a Python enum built per "|")
# was a tenth of a list's paint.
_ALINHADO = {
    nome: int(horizontal | Qt.AlignmentFlag.AlignVCenter) for nome, horizontal in _ALINHAMENTOS.items()
}
_FLAGS_DA_CELULA = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


def _alinhamento(coluna: ColunaTabela, valor: Any) -> int:
    if coluna.alinhamento is not None:
        return _ALINHADO[coluna.alinhamento]
    if isinstance(valor, int | float | Decimal) and not isinstance(valor, bool):
        return _ALINHADO["direita"]
    if isinstance(valor, date):
        return _ALINHADO["centro"]
    return _ALINHADO["esquerda"]


class FonteEmMemoria:
    """A `FonteLinhas` over rows already in hand (small lists: users, URM values, a case's documents).

    Filtering is a case- and accent-insensitive substring search over the formatted cells; `situacao`
    keeps the rows whose `situacoes[id]` equals it. Sorting is in Python — fine for
    the few hundred rows this is for; big lists use a service-backed source.
    """

    def __init__(
        self,
        colunas: Sequence[ColunaTabela],
        linhas: Sequence[LinhaTabela] = (),
        situacoes: Mapping[Any, str] | None = None,
    ) -> None:
        self._colunas = tuple(colunas)
        self._linhas: tuple[LinhaTabela, ...] = tuple(linhas)
        self._situacoes = dict(situacoes or {})

    @property
    def colunas(self) -> Sequence[ColunaTabela]:
        return self._colunas

    def trocar(
        self,
        linhas: Sequence[LinhaTabela],
        situacoes: Mapping[Any, str] | None = None,
        *,
        colunas: Sequence[ColunaTabela] | None = None,
    ) -> None:
        """New rows (and, with `colunas`, new columns, e.g. a title that depends on what is shown); the
        model shows them after its `recarregar()`."""
        self._linhas = tuple(linhas)
        self._situacoes = dict(situacoes or {})
        if colunas is not None:
            self._colunas = tuple(colunas)

    def _filtrar(self, filtro: FiltroTabela) -> list[LinhaTabela]:
        termo = normalizar_busca(filtro.texto)
        saida = []
        for linha in self._linhas:
            if filtro.situacao is not None and self._situacoes.get(linha.id) != filtro.situacao:
                continue
            if termo and termo not in normalizar_busca(" ".join(formatar_celula(v) for v in linha.valores)):
                continue
            saida.append(linha)
        return saida

    def contar(self, filtro: FiltroTabela) -> int:
        return len(self._filtrar(filtro))

    def buscar(
        self, filtro: FiltroTabela, ordem: Ordem, inicio: int, quantidade: int
    ) -> Sequence[LinhaTabela]:
        linhas = self._filtrar(filtro)
        posicoes = [i for i, c in enumerate(self._colunas) if c.chave == ordem.chave]
        if posicoes:  # an order by a column the source no longer has (its columns changed) is no order
            pos = posicoes[0]
            linhas.sort(key=lambda lin: _chave_ordenacao(lin.valores[pos]), reverse=ordem.decrescente)
        return linhas[inicio : inicio + quantidade]


def normalizar_busca(texto: str) -> str:
    """Lower case without accents: "Viação" and "viacao" find each other."""
    decomposto = unicodedata.normalize("NFKD", texto.casefold())
    return "".join(c for c in decomposto if not unicodedata.combining(c)).strip()


def _chave_ordenacao(valor: Any) -> tuple[int, Any]:
    if valor is None:
        return (0, "")
    if isinstance(valor, int | float | Decimal) and not isinstance(valor, bool):
        return (1, valor)
    if isinstance(valor, datetime):
        return (2, valor)
    if isinstance(valor, date):
        return (2, datetime(valor.year, valor.month, valor.day))
    return (3, normalizar_busca(str(valor)))
