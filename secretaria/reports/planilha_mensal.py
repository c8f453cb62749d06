"""The monthly spreadsheet (PRODUTO § 10): autos, summary by operator, penalties, open deadlines, payments.

Written with openpyxl's write-only workbook (pretix's exporter does the same): rows stream to the file, so a
month of ten thousand autos needs neither much memory nor much time. openpyxl is imported inside the function:
the window imports this package at start-up and must not pay for openpyxl until someone asks for a file.

Every sheet is a real Excel table (filters, banded rows), with a frozen header, set column widths and
pt-BR-friendly formats (Excel shows "DD/MM/YYYY" and '"R$" #,##0.00' with the reader's separators). Text
typed by users is stored as text even when it starts with "=", "+", "-" or "@" — a spreadsheet opened by the
Secretary must never run a formula an operator's name smuggled in — and characters XML cannot hold are
removed (pretix's safe_openpyxl).
"""

from __future__ import annotations

import os
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, BinaryIO

from secretaria.reports.dados import DadosMensais

__all__ = ["ABAS", "FORMATO_DATA", "FORMATO_REAIS", "FORMATO_URM", "TIPOS", "gerar_planilha_mensal"]

FORMATO_DATA = "DD/MM/YYYY"
FORMATO_REAIS = '"R$" #,##0.00'
FORMATO_URM = "0.00"
FORMATO_INTEIRO = "0"
TIPOS = ("A", "B", "C", "D", "E")
ESTILO_TABELA = "TableStyleMedium2"
#: Sheet titles, in order.
ABAS = ("Autos", "Resumo por operadora", "Penalidades", "Prazos", "Pagamentos")
_PERIGOSOS = ("=", "+", "-", "@")
_LIMITE_CELULA = 32_767  # Excel's maximum characters in a cell
_PASSO_PROGRESSO = 1_000

Progresso = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class _Coluna:
    titulo: str
    largura: float
    formato: str | None = None


_COLUNAS_AUTOS = (
    _Coluna("Número", 11),
    _Coluna("Data", 11, FORMATO_DATA),
    _Coluna("Operadora", 38),
    _Coluna("Dispositivo", 15),
    _Coluna("Tipo", 7),
    _Coluna("Veículo", 18),
    _Coluna("Empregado", 30),
    _Coluna("Situação", 20),
    _Coluna("Multa (URM)", 12, FORMATO_URM),
    _Coluna("Multa (R$)", 14, FORMATO_REAIS),
)
_COLUNAS_RESUMO = (
    _Coluna("Operadora", 38),
    *(
        coluna
        for tipo in TIPOS
        for coluna in (
            _Coluna(f"Tipo {tipo} – qtd", 10, FORMATO_INTEIRO),
            _Coluna(f"Tipo {tipo} – R$", 14, FORMATO_REAIS),
        )
    ),
    _Coluna("Total – qtd", 11, FORMATO_INTEIRO),
    _Coluna("Total – R$", 15, FORMATO_REAIS),
)
_COLUNAS_PENALIDADES = (
    _Coluna("Auto", 11),
    _Coluna("Data da decisão", 13, FORMATO_DATA),
    _Coluna("Operadora", 38),
    _Coluna("Dispositivo", 15),
    _Coluna("Tipo", 7),
    _Coluna("Resultado", 22),
    _Coluna("Multa (URM)", 12, FORMATO_URM),
    _Coluna("Valor da URM", 13, FORMATO_REAIS),
    _Coluna("Multa (R$)", 14, FORMATO_REAIS),
    _Coluna("Suspensão (dias)", 12, FORMATO_INTEIRO),
    _Coluna("Início da suspensão", 13, FORMATO_DATA),
    _Coluna("Fim da suspensão", 13, FORMATO_DATA),
)
_COLUNAS_PRAZOS = (
    _Coluna("Auto", 11),
    _Coluna("Operadora", 38),
    _Coluna("Prazo", 20),
    _Coluna("Intimação em", 13, FORMATO_DATA),
    _Coluna("Vencimento", 13, FORMATO_DATA),
    _Coluna("Dias restantes", 12, FORMATO_INTEIRO),
)
_COLUNAS_PAGAMENTOS = (
    _Coluna("Auto", 11),
    _Coluna("Operadora", 38),
    _Coluna("Multa (R$)", 14, FORMATO_REAIS),
    _Coluna("Situação", 16),
    _Coluna("Data do pagamento", 13, FORMATO_DATA),
    _Coluna("Valor pago (R$)", 14, FORMATO_REAIS),
    _Coluna("Observação", 40),
)


def ultimo_dia(ano: int, mes: int) -> date:
    """The month's last day: deadlines are "open at month end" as of this day."""
    primeiro_seguinte = date(ano + mes // 12, mes % 12 + 1, 1)
    return primeiro_seguinte - timedelta(days=1)


def gerar_planilha_mensal(
    dados: DadosMensais,
    destino: str | os.PathLike[str] | BinaryIO,
    progresso: Progresso | None = None,
) -> None:
    """Write the month's workbook to `destino` (a path or a binary file object).

    `progresso(feitas, total)` is called every thousand rows and at the end, for the command line's progress
    line and the window's progress bar.
    """
    from openpyxl import Workbook

    fim_do_mes = ultimo_dia(dados.ano, dados.mes)
    livro = Workbook(write_only=True)
    livro.properties.title = f"Relatório mensal {dados.mes:02d}/{dados.ano}"
    livro.properties.subject = "Fiscalização do transporte coletivo – Lei Municipal nº 2.413/1978"
    livro.properties.creator = "Secretaria – SMSU Pelotas"
    livro.calculation.fullCalcOnLoad = True  # the totals are formulas without cached values

    resumo = _resumo(dados)
    total = (
        len(dados.autos) + len(resumo) + len(dados.penalidades) + len(dados.prazos) + len(dados.pagamentos)
    )
    contador = _Contador(total, progresso)

    autos = _Aba(livro, ABAS[0], "Autos", _COLUNAS_AUTOS, contador)
    for auto in dados.autos:
        autos.escrever(
            (
                auto.numero,
                auto.data,
                auto.operadora,
                auto.dispositivo,
                auto.tipo,
                auto.veiculo,
                auto.empregado,
                auto.situacao,
                auto.multa_urm,
                auto.multa_reais,
            )
        )
    autos.fechar()

    aba_resumo = _Aba(livro, ABAS[1], "ResumoPorOperadora", _COLUNAS_RESUMO, contador)
    for linha, (operadora, por_tipo) in enumerate(resumo, start=2):
        valores: list[object] = [operadora]
        for tipo in TIPOS:
            quantidade, valor = por_tipo.get(tipo, (0, Decimal(0)))
            valores += [quantidade, valor]
        colunas_qtd = [_letra(2 + 2 * i) for i in range(len(TIPOS))]
        colunas_valor = [_letra(3 + 2 * i) for i in range(len(TIPOS))]
        valores.append(_Formula("=" + "+".join(f"{c}{linha}" for c in colunas_qtd)))
        valores.append(_Formula("=" + "+".join(f"{c}{linha}" for c in colunas_valor)))
        aba_resumo.escrever(valores)
    aba_resumo.fechar(totais=True)

    penalidades = _Aba(livro, ABAS[2], "Penalidades", _COLUNAS_PENALIDADES, contador)
    for p in dados.penalidades:
        penalidades.escrever(
            (
                p.numero_auto,
                p.data_decisao,
                p.operadora,
                p.dispositivo,
                p.tipo,
                p.resultado,
                p.multa_urm,
                p.valor_urm,
                p.multa_reais,
                p.suspensao_dias,
                p.suspensao_inicio,
                p.suspensao_fim,
            )
        )
    penalidades.fechar()

    prazos = _Aba(livro, ABAS[3], "Prazos", _COLUNAS_PRAZOS, contador)
    for prazo in sorted(dados.prazos, key=lambda p: (p.vencimento, p.numero_auto)):
        prazos.escrever(
            (
                prazo.numero_auto,
                prazo.operadora,
                prazo.prazo,
                prazo.data_intimacao,
                prazo.vencimento,
                (prazo.vencimento - fim_do_mes).days,
            )
        )
    prazos.fechar()

    pagamentos = _Aba(livro, ABAS[4], "Pagamentos", _COLUNAS_PAGAMENTOS, contador)
    for pagamento in dados.pagamentos:
        pagamentos.escrever(
            (
                pagamento.numero_auto,
                pagamento.operadora,
                pagamento.valor_multa,
                pagamento.situacao,
                pagamento.data_pagamento,
                pagamento.valor_pago,
                pagamento.observacao or None,
            )
        )
    pagamentos.fechar()

    livro.save(destino)
    contador.terminar()


def _resumo(dados: DadosMensais) -> list[tuple[str, dict[str, tuple[int, Decimal]]]]:
    """Counts and fine amounts per operator and tipo, from the autos of the month (so the sheets agree)."""
    contagem: dict[str, dict[str, list[Any]]] = defaultdict(dict)
    for auto in dados.autos:
        celula = contagem[auto.operadora].setdefault(auto.tipo, [0, Decimal(0)])
        celula[0] += 1
        if auto.multa_reais is not None:
            celula[1] += auto.multa_reais
    return [
        (operadora, {tipo: (q, v) for tipo, (q, v) in por_tipo.items()})
        for operadora, por_tipo in sorted(contagem.items(), key=lambda item: item[0].casefold())
    ]


def _letra(coluna: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(coluna))


class _Formula(str):
    """A formula the program wrote (not user text): the only strings allowed to start with "="."""

    __slots__ = ()


class _Contador:
    def __init__(self, total: int, progresso: Progresso | None) -> None:
        self.total = total
        self.feitas = 0
        self.progresso = progresso

    def mais_uma(self) -> None:
        self.feitas += 1
        if self.progresso is not None and self.feitas % _PASSO_PROGRESSO == 0:
            self.progresso(self.feitas, self.total)

    def terminar(self) -> None:
        if self.progresso is not None:
            self.progresso(self.total, self.total)


class _Aba:
    """One streamed sheet holding one Excel table: header row, data rows, optional totals row below."""

    def __init__(
        self, livro: Any, titulo: str, nome_tabela: str, colunas: Sequence[_Coluna], contador: _Contador
    ) -> None:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE

        self._write_only_cell = WriteOnlyCell
        self._ilegais = ILLEGAL_CHARACTERS_RE
        self._codigos_erro = frozenset(ERROR_CODES)
        self.ws = livro.create_sheet(titulo)
        self.nome_tabela = nome_tabela
        self.colunas = tuple(colunas)
        self.contador = contador
        self.linhas = 0
        # Set before the first row: write-only sheets write these at the top of the file.
        for indice, coluna in enumerate(self.colunas, start=1):
            self.ws.column_dimensions[_letra(indice)].width = coluna.largura
        self.ws.freeze_panes = "A2"
        self.ws.print_title_rows = "1:1"
        self.ws.page_setup.orientation = "landscape"
        self.ws.page_setup.paperSize = "9"  # A4
        self.ws.page_setup.fitToWidth = 1
        self.ws.page_setup.fitToHeight = 0
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True
        # One reusable cell per formatted column: the row is written as soon as it is appended, so the same
        # cell object can carry the next row's value (creating styled cells is most of openpyxl's cost).
        self._prototipos: list[Any] = []
        for coluna in self.colunas:
            if coluna.formato is None:
                self._prototipos.append(None)
            else:
                celula = WriteOnlyCell(self.ws)
                celula.number_format = coluna.formato
                self._prototipos.append(celula)
        self.ws.append([coluna.titulo for coluna in self.colunas])

    def _texto(self, valor: str) -> Any:
        """User text, stored as text whatever it starts with; XML-invalid characters removed."""
        limpo = self._ilegais.sub("", valor)[:_LIMITE_CELULA]
        if limpo.startswith(_PERIGOSOS) or limpo in self._codigos_erro:
            celula = self._write_only_cell(self.ws, limpo)
            celula.data_type = "s"  # a string cell, not a formula (openpyxl guessed "f" from the "=")
            celula.quotePrefix = True  # and Excel keeps it text if someone edits the cell
            return celula
        return limpo

    def escrever(self, valores: Iterable[object]) -> None:
        linha: list[object] = []
        for valor, prototipo in zip(valores, self._prototipos, strict=True):
            if valor is None:
                linha.append(None)
            elif isinstance(valor, _Formula):
                celula = self._write_only_cell(self.ws, str(valor))
                if prototipo is not None:
                    celula.number_format = prototipo.number_format
                linha.append(celula)
            elif isinstance(valor, str):
                linha.append(self._texto(valor))
            elif prototipo is not None:
                prototipo.value = valor
                linha.append(prototipo)
            else:
                linha.append(valor)
        self.ws.append(linha)
        self.linhas += 1
        self.contador.mais_uma()

    def fechar(self, totais: bool = False) -> None:
        """Declare the table over the rows written; with `totais`, add a SUM row under it."""
        from openpyxl.styles import Font
        from openpyxl.worksheet.filters import AutoFilter
        from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo

        ultima = self.linhas + 1 if self.linhas else 2  # an Excel table needs at least one (empty) data row
        ref = f"A1:{_letra(len(self.colunas))}{ultima}"
        tabela = Table(
            displayName=self.nome_tabela,
            ref=ref,
            autoFilter=AutoFilter(ref=ref),
            tableColumns=[TableColumn(id=i, name=c.titulo) for i, c in enumerate(self.colunas, start=1)],
            tableStyleInfo=TableStyleInfo(name=ESTILO_TABELA, showRowStripes=True, showColumnStripes=False),
        )
        if totais:
            if not self.linhas:
                self.ws.append([])  # the table's empty data row, so the totals row stays outside the table
            negrito = Font(bold=True)
            linha: list[object] = []
            for indice, coluna in enumerate(self.colunas, start=1):
                celula = self._write_only_cell(self.ws)
                celula.font = negrito
                if indice == 1:
                    celula.value = "Total"
                else:
                    letra = _letra(indice)
                    celula.value = f"=SUM({letra}2:{letra}{ultima})"
                    celula.number_format = coluna.formato or "General"
                linha.append(celula)
            self.ws.append(linha)
        with warnings.catch_warnings():
            # openpyxl always warns in write-only mode that columns must be given by hand; they are, above.
            warnings.filterwarnings("ignore", "In write-only mode you must add table columns manually")
            self.ws.add_table(tabela)
