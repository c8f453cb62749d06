"""The one xlsx writer: every spreadsheet the program writes (the monthly report, "Exportar para Excel")
goes through `Aba`, so every cell is made safe the same way.

Written with openpyxl's write-only workbook (pretix's exporter does the same): rows stream to the file, so
ten thousand rows need neither much memory nor much time. openpyxl is imported inside the functions: the
window imports this package at start-up and must not pay for openpyxl until someone asks for a file.

Each sheet is a real Excel table (filters, banded rows, and where asked the table's own totals row, whose
SUBTOTAL formulas follow the filter) with a frozen header and column widths that fit the header beside its
filter button; dates
are dates shown "DD/MM/YYYY", amounts numbers shown '"R$" #,##0.00' (Excel shows them with the reader's
separators). Text is stored as text whatever it starts with: text starting with "=", "+", "-", "@", a tab
or a carriage return is marked `quotePrefix`, so Excel keeps it text even when someone edits the cell — a
sheet opened at the Secretaria must never run a formula an operator's name smuggled in; characters XML
cannot hold are removed and text is cut at Excel's cell limit (pretix's safe_openpyxl).
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any, BinaryIO

__all__ = [
    "FORMATO_DATA",
    "FORMATO_DATA_HORA",
    "FORMATO_DECIMAL",
    "FORMATO_INTEIRO",
    "FORMATO_REAIS",
    "FORMATO_URM",
    "Aba",
    "Coluna",
    "ExportacaoCancelada",
    "Formula",
    "gravar_lista",
    "largura_do_titulo",
    "letra",
    "medir",
    "novo_livro",
]

FORMATO_DATA = "DD/MM/YYYY"
FORMATO_DATA_HORA = "DD/MM/YYYY HH:MM"
FORMATO_REAIS = '"R$" #,##0.00'
FORMATO_DECIMAL = "#,##0.00"
FORMATO_URM = "0.00"
FORMATO_INTEIRO = "#,##0"
ESTILO_TABELA = "TableStyleMedium2"
ROTULO_TOTAL = "Total"
_PERIGOSOS = ("=", "+", "-", "@", "\t", "\r")
_LIMITE_CELULA = 32_767  # Excel's maximum characters in a cell
_LINHAS_PARA_LARGURA = 200
_BOTAO_FILTRO = 3.0  # the header's filter button covers about three characters of the column
_NEGRITO = 1.1  # the table style's bold header is wider than the body's text
LARGURA_MAXIMA = 50.0


class ExportacaoCancelada(Exception):
    """The user cancelled a list export (`gravar_lista`'s `progresso` answered False)."""


class Formula(str):
    """A formula the program wrote (not user text): the only strings written as formulas."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Coluna:
    titulo: str
    largura: float
    formato: str | None = None
    """Number format for the column's numbers and dates; None: by the value's type."""
    total: bool = False
    """Summed in the table's totals row (SUBTOTAL 109: only the rows the filter shows)."""


def largura_do_titulo(titulo: str) -> float:
    """The width a header needs so that its filter button does not cover its last letters."""
    return math.ceil(len(titulo) * _NEGRITO) + _BOTAO_FILTRO


def _largura_do_valor(valor: object, formato: str | None) -> int:
    """Characters a value takes as Excel shows it with the column's format."""
    if valor is None or isinstance(valor, Formula):
        return 0
    if isinstance(valor, str):
        return len(valor)
    if isinstance(valor, datetime):
        return 16
    if isinstance(valor, date):
        return 10
    if isinstance(valor, bool):
        return 3
    if isinstance(valor, Decimal | int | float):
        if formato == FORMATO_REAIS:
            return len(f"R$ {valor:,.2f}")
        if formato in (FORMATO_URM, FORMATO_DECIMAL):
            return len(f"{valor:,.2f}")
        return len(str(valor))
    return len(str(valor))


def medir(
    colunas: Sequence[Coluna], linhas: Iterable[Sequence[object]], maximo: float = LARGURA_MAXIMA
) -> list[Coluna]:
    """The columns widened to their longest value (plus a margin, up to `maximo`); the header's own need is
    added by `Aba`. A write-only sheet takes its widths before its rows, so the caller measures first.

    A column is read as a whole: where it holds only texts, dates and blanks (equal values, equal widths) each
    distinct value is measured once; a column with numbers has every value measured (1, True, 1.0 and
    Decimal("1.00") are equal but not as wide)."""
    maiores = [0] * len(colunas)
    formatos = [c.formato for c in colunas]
    for i, valores in enumerate(zip(*linhas, strict=False)):
        if i >= len(colunas):
            break
        candidatos: Iterable[object] = valores
        try:
            distintos = set(valores)
        except TypeError:  # a value that cannot be hashed: measured one by one
            pass
        else:
            if all(type(v) in _LARGURA_PELO_VALOR for v in distintos):
                candidatos = distintos
        formato = formatos[i]
        if candidatos is distintos and all(type(v) is str or v is None for v in distintos):
            maiores[i] = max((len(str(v)) for v in distintos if v is not None), default=0)
        else:
            maiores[i] = max((_largura_do_valor(v, formato) for v in candidatos), default=0)
    return [replace(c, largura=max(c.largura, min(maximo, maiores[i] + 2.0))) for i, c in enumerate(colunas)]


_LARGURA_PELO_VALOR = frozenset({str, date, datetime, type(None)})
"""Types whose equal values are always equally wide (not `Formula`, which equals its text but takes none)."""


def letra(coluna: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(coluna))


def novo_livro() -> Any:
    from openpyxl import Workbook

    return Workbook(write_only=True)


_ESCAPE_XML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_LINHAS_POR_LOTE = 500


class _LinhaPronta(tuple[str, ...]):
    """A data row already written as the XML of its cells (`Aba._xml_da_linha`): the sheet sends it on as is."""

    __slots__ = ()


def _folha_rapida(livro: Any, titulo: str) -> Any:
    """A write-only sheet that also takes `_LinhaPronta` rows.

    openpyxl writes each cell through a Python object and three nested lxml elements: 170,000 cells of the
    monthly workbook took 1.7 s of its 2.3 s. A row of plain values (text, numbers, dates, amounts) is
    written here as the XML openpyxl would write for it, and up to 500 such rows go at once straight into the
    sheet's file, encoded as openpyxl's serializer encodes (ASCII, other characters as decimal references),
    after the serializer has flushed what it holds; any other row (a formula, text marked as text, a styled
    cell) still goes through openpyxl's own path. The bytes are the same (tests/reports/test_planilha_rapida.py).
    """
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet
    from openpyxl.worksheet._writer import WorksheetWriter
    from openpyxl.xml.constants import SHEET_MAIN_NS
    from openpyxl.xml.functions import xmlfile

    class Escritor(WorksheetWriter):  # type: ignore[misc]
        """openpyxl's sheet writer (its `get_stream`, line for line) on a file object this module also
        writes the ready rows into: openpyxl hands the serializer the file's name, which hides the file."""

        arquivo: BinaryIO

        def get_stream(self) -> Any:
            with open(self.out, "wb") as arquivo, xmlfile(arquivo) as xf:
                self.arquivo = arquivo
                with xf.element("worksheet", xmlns=SHEET_MAIN_NS):
                    try:
                        while True:
                            el = yield
                            if el is True:
                                yield xf
                            elif el is None:
                                continue
                            else:
                                xf.write(el)
                    except GeneratorExit:
                        pass

    def _get_writer(self: Any) -> None:  # openpyxl's, with the writer above
        if self._writer is None:
            self._writer = Escritor(self)
            self._writer.write_top()

    def _write_rows(self: Any) -> Any:  # openpyxl's generator, with the ready rows in batches
        escritor = self._writer
        xf = escritor.xf.send(True)
        lote: list[str] = []

        def descarregar() -> None:
            if lote:
                xf.flush()
                escritor.arquivo.write("".join(lote).encode("ascii", "xmlcharrefreplace"))
                lote.clear()

        with xf.element("sheetData"):
            indice = 1
            try:
                while True:
                    linha = yield
                    if isinstance(linha, _LinhaPronta):
                        lote.append(f'<row r="{indice}">{linha[0]}</row>')
                        if len(lote) >= _LINHAS_POR_LOTE:
                            descarregar()
                    else:
                        descarregar()
                        escritor.write_row(xf, self._values_to_row(linha, indice), indice)
                    indice += 1
            except GeneratorExit:
                descarregar()
        escritor.xf.send(None)

    FolhaRapida = type(
        "FolhaRapida", (WriteOnlyWorksheet,), {"_write_rows": _write_rows, "_get_writer": _get_writer}
    )
    folha = FolhaRapida(parent=livro, title=titulo)
    livro._add_sheet(folha)
    return folha


def nome_de_aba(titulo: str) -> str:
    """A sheet title Excel accepts (31 characters, none of []:*?/\\)."""
    return re.sub(r"[\[\]:*?/\\]", " ", titulo)[:31].strip() or "Lista"


class Aba:
    """One streamed sheet holding one Excel table: header row, data rows, and, when a column asks for a total,
    the table's totals row (inside the table, so Excel's filter drives it)."""

    def __init__(self, livro: Any, titulo: str, nome_tabela: str, colunas: Sequence[Coluna]) -> None:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
        from openpyxl.utils.datetime import to_excel

        self._celula = WriteOnlyCell
        self._ilegais = ILLEGAL_CHARACTERS_RE
        self._codigos_erro = frozenset(ERROR_CODES)
        self._para_excel = to_excel
        self.ws = _folha_rapida(livro, nome_de_aba(titulo))
        self._epoca = livro.epoch
        self._letras = [letra(i) for i in range(1, len(colunas) + 1)]
        # (format, type) → the cell's style id (None: unstyled) and its XML type, read from one openpyxl
        # cell made with that format and a value of that type: the ready rows carry openpyxl's own styles.
        self._estilos: dict[tuple[str, type], str] = {}
        self._corpos: dict[object, str] = {}  # `_xml_da_linha`'s cells by value ("": openpyxl's path)
        self.nome_tabela = nome_tabela
        self.colunas = tuple(colunas)
        self.titulos = _titulos_unicos([self._ilegais.sub("", c.titulo) for c in self.colunas])
        self.linhas = 0
        # Set before the first row: write-only sheets write these at the top of the file.
        for indice, coluna in enumerate(self.colunas, start=1):
            largura = max(coluna.largura, largura_do_titulo(self.titulos[indice - 1]))
            self.ws.column_dimensions[letra(indice)].width = largura
        self.ws.freeze_panes = "A2"
        self.ws.print_title_rows = "1:1"
        self.ws.page_setup.orientation = "landscape"
        self.ws.page_setup.paperSize = "9"  # A4
        self.ws.page_setup.fitToWidth = 1
        self.ws.page_setup.fitToHeight = 0
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True
        # One reusable cell per column and format: the row is written as soon as it is appended, so the same
        # cell object can carry the next row's value (creating styled cells is most of openpyxl's cost).
        self._formatados: dict[tuple[int, str], Any] = {}
        self.ws.append(self.titulos)

    def texto(self, valor: str) -> Any:
        """Text, stored as text whatever it starts with; XML-invalid characters removed."""
        limpo = self._ilegais.sub("", valor)[:_LIMITE_CELULA]
        if limpo.startswith(_PERIGOSOS) or limpo in self._codigos_erro:
            celula = self._celula(self.ws, limpo)
            celula.data_type = "s"  # a string cell, not a formula (openpyxl guessed "f" from the "=")
            celula.quotePrefix = True  # and Excel keeps it text if someone edits the cell
            return celula
        return limpo

    def _formatado(self, valor: Any, formato: str, indice: int | None) -> Any:
        celula = None if indice is None else self._formatados.get((indice, formato))
        if celula is None:
            celula = self._celula(self.ws)
            celula.number_format = formato
            if indice is not None:
                self._formatados[indice, formato] = celula
        celula.value = valor
        return celula

    def celula(self, valor: object, formato: str | None = None, indice: int | None = None) -> Any:
        """What to append for one value: None, a safe text, a typed number or date with its format.
        With the column's `indice` a formatted cell is reused for that column in the next row."""
        if valor is None:
            return None
        if isinstance(valor, Formula):
            celula = self._celula(self.ws, str(valor))
            if formato is not None:
                celula.number_format = formato
            return celula
        if isinstance(valor, str):
            return self.texto(valor)
        if isinstance(valor, bool):
            return "Sim" if valor else "Não"
        if isinstance(valor, datetime):
            return self._formatado(valor.replace(tzinfo=None), formato or FORMATO_DATA_HORA, indice)
        if isinstance(valor, date):
            return self._formatado(valor, formato or FORMATO_DATA, indice)
        if isinstance(valor, Decimal):
            return self._formatado(valor, formato or FORMATO_DECIMAL, indice)
        if isinstance(valor, int | float):
            return self._formatado(valor, formato, indice) if formato else valor
        return self.texto(str(valor))

    def escrever(self, valores: Iterable[object]) -> None:
        valores = tuple(valores)
        if len(valores) != len(self.colunas):
            raise ValueError(f"A linha tem {len(valores)} valores para {len(self.colunas)} colunas.")
        xml = self._xml_da_linha(valores, self.linhas + 2)  # row 1 is the header
        if xml is not None:
            self.ws.append(_LinhaPronta((xml,)))
        else:
            colunas = enumerate(self.colunas)
            self.ws.append([self.celula(v, c.formato, i) for v, (i, c) in zip(valores, colunas, strict=True)])
        self.linhas += 1

    def _estilo(self, formato: str, valor: Any) -> str:
        chave = (formato, type(valor))
        atributo = self._estilos.get(chave)
        if atributo is None:
            prova = self._celula(self.ws)
            prova.number_format = formato
            prova.value = valor
            atributo = f' s="{prova.style_id}"' if prova.has_style else ""
            self._estilos[chave] = atributo
        return atributo

    def _xml_da_linha(self, valores: Sequence[object], linha: int) -> str | None:
        """The row's cells as openpyxl writes them, or None when some value needs openpyxl's own path (a
        formula, text kept as text, an empty text, a number that is not finite, a type of its own).

        A text's, a date's or an amount's cell (all but its reference) is made once per sheet and column
        format: the monthly workbook repeats its operators, provisions, situations, days and fines thousands of
        times."""
        partes: list[str] = []
        for letra_, valor, coluna in zip(self._letras, valores, self.colunas, strict=True):
            if valor is None:
                continue
            tipo = type(valor)
            chave: object
            if tipo is str:
                chave = valor
            elif tipo is date or tipo is int or (tipo is Decimal and valor and valor.is_finite()):  # type: ignore[attr-defined]
                # Equal values of these types make the same cell (not so -0.0 and 0.0, nor Decimal zeros).
                chave = (tipo, valor, coluna.formato)
            else:
                chave = None
            if chave is None:
                corpo = self._corpo_da_celula(valor, coluna.formato)
            else:
                corpo = self._corpos.get(chave)
                if corpo is None:
                    corpo = self._corpos[chave] = self._corpo_da_celula(valor, coluna.formato) or ""
            if not corpo:
                return None
            partes.append(f'<c r="{letra_}{linha}"{corpo}')
        return "".join(partes) if partes else None

    def _corpo_da_celula(self, valor: object, formato: str | None) -> str | None:
        """A cell's XML after its reference (`<c r="B7"` + this), or None for openpyxl's own path."""
        if isinstance(valor, Formula):
            return None
        if isinstance(valor, bool):
            valor = "Sim" if valor else "Não"
        if isinstance(valor, str):
            limpo = self._ilegais.sub("", valor)[:_LIMITE_CELULA]
            if not limpo or limpo.startswith(_PERIGOSOS) or limpo in self._codigos_erro:
                return None
            espaco = ' xml:space="preserve"' if limpo != limpo.strip() else ""
            return f' t="inlineStr"><is><t{espaco}>{limpo.translate(_ESCAPE_XML)}</t></is></c>'
        if isinstance(valor, datetime):
            valor = valor.replace(tzinfo=None)
            formato = formato or FORMATO_DATA_HORA
        elif isinstance(valor, date):
            formato = formato or FORMATO_DATA
        elif isinstance(valor, Decimal):
            if not valor.is_finite():
                return None
            formato = formato or FORMATO_DECIMAL
        elif isinstance(valor, int | float):
            if isinstance(valor, float) and not math.isfinite(valor):
                return None
        else:
            return None
        estilo = self._estilo(formato, valor) if formato else ""
        numero = self._para_excel(valor, self._epoca) if isinstance(valor, date) else valor
        texto = format(float(numero), ".16g")  # openpyxl's safe_string ("%.16g")
        return f'{estilo} t="n"><v>{texto}</v></c>'

    def fechar(self) -> None:
        """Declare the table over the rows written, with its totals row when a column has `total`.

        The totals row is the table's own (`totalsRowCount`): it lies inside the table's `ref` but outside
        its filter, the first column carries the label, and each summed column holds
        `SUBTOTAL(109,Table[Column])`, which Excel and LibreOffice recompute over the rows the filter shows
        (LibreOffice refuses the unqualified `[Column]` form).
        """
        from openpyxl.styles import Font
        from openpyxl.worksheet.filters import AutoFilter
        from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo

        com_totais = any(c.total for c in self.colunas)
        if com_totais and self.colunas[0].total:
            raise ValueError("A primeira coluna leva o rótulo da linha de totais; não pode ser somada.")
        ultima = self.linhas + 1 if self.linhas else 2  # an Excel table needs at least one (empty) data row
        ultima_coluna = letra(len(self.colunas))
        filtro = f"A1:{ultima_coluna}{ultima}"
        colunas = []
        for indice, (titulo, coluna) in enumerate(zip(self.titulos, self.colunas, strict=True), start=1):
            tabela_coluna = TableColumn(id=indice, name=titulo)
            if com_totais and indice == 1:
                tabela_coluna.totalsRowLabel = ROTULO_TOTAL
            elif coluna.total:
                tabela_coluna.totalsRowFunction = "sum"
            colunas.append(tabela_coluna)
        tabela = Table(
            displayName=self.nome_tabela,
            ref=f"A1:{ultima_coluna}{ultima + 1}" if com_totais else filtro,
            autoFilter=AutoFilter(ref=filtro),
            tableColumns=colunas,
            tableStyleInfo=TableStyleInfo(name=ESTILO_TABELA, showRowStripes=True, showColumnStripes=False),
        )
        if com_totais:
            tabela.totalsRowCount = 1
            tabela.totalsRowShown = True
            if not self.linhas:
                self.ws.append([])  # the table's empty data row, above its totals row
            negrito = Font(bold=True)
            linha: list[object] = []
            for indice, (titulo, coluna) in enumerate(zip(self.titulos, self.colunas, strict=True), start=1):
                celula = self._celula(self.ws)
                celula.font = negrito
                if indice == 1:
                    celula.value = ROTULO_TOTAL
                elif coluna.total:
                    celula.value = f"=SUBTOTAL(109,{self.nome_tabela}[{_referencia_de_coluna(titulo)}])"
                    celula.number_format = coluna.formato or "General"
                linha.append(celula)
            self.ws.append(linha)
        with warnings.catch_warnings():
            # openpyxl always warns in write-only mode that columns must be given by hand; they are, above.
            warnings.filterwarnings("ignore", "In write-only mode you must add table columns manually")
            self.ws.add_table(tabela)


def _referencia_de_coluna(titulo: str) -> str:
    """A column name inside a structured reference: ', #, [ and ] are escaped with an apostrophe."""
    return re.sub(r"(['#\[\]])", r"'\1", titulo)


def _titulos_unicos(titulos: Sequence[str]) -> list[str]:
    """Table column names must be unique and not empty: "Nome", "Nome" → "Nome", "Nome 2"."""
    vistos: dict[str, int] = {}
    saida = []
    for i, titulo in enumerate(titulos):
        nome = titulo or f"Coluna {i + 1}"
        vistos[nome] = vistos.get(nome, 0) + 1
        saida.append(f"{nome} {vistos[nome]}" if vistos[nome] > 1 else nome)
    return saida


def gravar_lista(
    destino: str | os.PathLike[str] | BinaryIO,
    titulo: str,
    cabecalhos: Sequence[str],
    linhas: Iterable[Sequence[Any]],
    *,
    formatos: Sequence[str | None] | None = None,
    progresso: Callable[[int], bool] | None = None,
) -> int:
    """A list as shown ("Exportar para Excel"): one sheet, one table, and the number of data rows written.

    `formatos` gives a column's number format (`FORMATO_REAIS` for amounts); by default dates, date-times
    and decimals get theirs by type. `progresso(linhas_gravadas)` is called every 500 rows; answering False
    cancels (ExportacaoCancelada; the caller removes the partial file). Column widths must precede the rows
    in a write-only sheet: they are measured on the first rows, which are kept until then.
    """
    formatos = list(formatos or [None] * len(cabecalhos))
    larguras = [max(10.0, min(50.0, len(c) + 4.0)) for c in cabecalhos]
    iterador = iter(linhas)
    primeiras: list[Sequence[Any]] = []
    for linha in iterador:
        primeiras.append(linha)
        for i, valor in enumerate(linha[: len(larguras)]):
            if isinstance(valor, str):
                larguras[i] = max(larguras[i], min(60.0, len(valor) + 2.0))
            elif isinstance(valor, datetime):
                larguras[i] = max(larguras[i], 17.0)
            elif isinstance(valor, date | Decimal):
                larguras[i] = max(larguras[i], 13.0)
        if len(primeiras) >= _LINHAS_PARA_LARGURA:
            break
    livro = novo_livro()
    livro.properties.title = titulo
    livro.properties.creator = "Secretaria – SMSU Pelotas"
    colunas = [Coluna(c, larguras[i], formatos[i]) for i, c in enumerate(cabecalhos)]
    aba = Aba(livro, titulo, "Lista", colunas)
    for linha in primeiras:
        aba.escrever(linha)
    for linha in iterador:
        aba.escrever(linha)
        if progresso is not None and aba.linhas % 500 == 0 and progresso(aba.linhas) is False:
            aba.ws.close()  # ends the sheet's temporary file, which would otherwise be left half written
            raise ExportacaoCancelada
    if colunas:
        aba.fechar()
    livro.save(destino)
    return aba.linhas


@dataclass(frozen=True)
class TabelaGrafico:
    """A small table on a "Gráficos" sheet that a native Excel chart reads: a label column and one value
    column of formulas over the other sheets' tables (so the chart follows when a clerk edits a number)."""

    titulo: str
    rotulo: str
    """Header of the label column."""
    valor: str
    """Header of the value column."""
    linhas: Sequence[tuple[str | date, Formula]]
    formato: str = FORMATO_INTEIRO
    formato_rotulo: str | None = None
    """The label column's number format when its labels are dates (a month: "mmm/yy")."""


def aba_de_graficos(livro: Any, tabelas: Sequence[TabelaGrafico], titulo: str = "Gráficos") -> Any:
    """A sheet with each `TabelaGrafico` (title, header, rows) and, beside it, a native bar chart
    (openpyxl.chart) whose references are that table's cells. Returns the sheet.

    Printed landscape on A4, fitted to the page's width, each table and its chart on a page of their own
    (a row break after each block): a chart is never cut across two pages."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.chart import BarChart, Reference
    from openpyxl.styles import Font
    from openpyxl.worksheet.pagebreak import Break

    ws = livro.create_sheet(nome_de_aba(titulo))
    ws.column_dimensions["A"].width = 34
    ws.column_dimensions["B"].width = 18
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = "9"  # A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    linha = 1
    for tabela in tabelas:
        cabeca = WriteOnlyCell(ws, tabela.titulo)
        cabeca.font = Font(bold=True, size=12)
        ws.append([cabeca])
        ws.append([WriteOnlyCell(ws, tabela.rotulo), WriteOnlyCell(ws, tabela.valor)])
        primeira = linha + 2
        for rotulo, formula in tabela.linhas:
            valor = WriteOnlyCell(ws, str(formula))
            valor.number_format = tabela.formato
            if isinstance(rotulo, date):
                celula = WriteOnlyCell(ws, rotulo)
                celula.number_format = tabela.formato_rotulo or FORMATO_DATA
            else:
                celula = _texto_seguro(ws, rotulo)
            ws.append([celula, valor])
        ultima = primeira + len(tabela.linhas) - 1
        altura = max(15, len(tabela.linhas) + 4)
        if tabela.linhas:
            grafico = BarChart()
            grafico.type = "bar" if len(tabela.linhas) > 6 else "col"
            grafico.title = tabela.titulo
            grafico.legend = None
            grafico.style = 10
            grafico.height = 7.5
            grafico.width = 16
            grafico.y_axis.numFmt = tabela.formato
            grafico.y_axis.majorGridlines = None
            grafico.x_axis.delete = False
            grafico.y_axis.delete = False
            dados = Reference(ws, min_col=2, min_row=primeira - 1, max_row=ultima)
            grafico.add_data(dados, titles_from_data=True)
            grafico.set_categories(Reference(ws, min_col=1, min_row=primeira, max_row=ultima))
            ws.add_chart(grafico, f"D{linha}")
        for _ in range(altura - len(tabela.linhas) - 2):
            ws.append([])
        linha += altura
        if tabela is not tabelas[-1]:
            ws.row_breaks.append(Break(id=linha - 1))
    if tabelas:
        ws.print_area = f"A1:M{linha - 1}"  # the tables and the charts beside them (D to about L)
    return ws


def _texto_seguro(ws: Any, texto: str) -> Any:
    """A label written as text (an operator named "=…" stays a name), like `Aba.texto` for the sheets."""
    from openpyxl.cell import WriteOnlyCell

    celula = WriteOnlyCell(ws, texto[:_LIMITE_CELULA])
    celula.data_type = "s"
    if texto.startswith(_PERIGOSOS):
        celula.quotePrefix = True
    return celula
