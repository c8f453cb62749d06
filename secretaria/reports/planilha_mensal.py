"""The monthly spreadsheet (PRODUTO § 10): autos drawn up, the month's decisions by operator and tipo,
penalties decided, suspensions started, deadlines running at the month's end, payments.

Written through `reports.planilha` (the program's one xlsx writer: streamed rows, real Excel tables, pt-BR
formats, user text kept as text and never run as a formula), like the list export.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, BinaryIO

from secretaria.reports.dados import DadosMensais
from secretaria.reports.planilha import (
    FORMATO_DATA,
    FORMATO_INTEIRO,
    FORMATO_REAIS,
    FORMATO_URM,
    Aba,
    Formula,
    TabelaGrafico,
    aba_de_graficos,
    medir,
    novo_livro,
)
from secretaria.reports.planilha import Coluna as _Coluna

__all__ = [
    "ABAS",
    "ABA_GRAFICOS",
    "FORMATO_DATA",
    "FORMATO_REAIS",
    "FORMATO_URM",
    "TIPOS",
    "gerar_planilha_mensal",
]

TIPOS = ("A", "B", "C", "D", "E")
#: Sheet titles, in order.
ABAS = ("Autos", "Resumo por operadora", "Penalidades", "Suspensões", "Prazos", "Pagamentos")
#: The last sheet: native Excel charts over formulas on the sheets above (they follow a clerk's edits).
ABA_GRAFICOS = "Gráficos"
_PASSO_PROGRESSO = 1_000

Progresso = Callable[[int, int], None]

# The widths are minimums: `medir` widens a column to its longest value and `Aba` to its header and filter
# button.
_COLUNAS_AUTOS = (
    _Coluna("Número", 9),
    _Coluna("Data da infração", 10, FORMATO_DATA),
    _Coluna("Lavrado em", 10, FORMATO_DATA),
    _Coluna("Operadora", 20),
    _Coluna("Dispositivo", 10),
    _Coluna("Tipo", 4),
    _Coluna("Veículo", 10),
    _Coluna("Empregado", 12),
    _Coluna("Situação", 12),
    _Coluna("Multa (URM)", 8, FORMATO_URM, total=True),
    _Coluna("Multa (R$)", 10, FORMATO_REAIS, total=True),
)
_COLUNAS_RESUMO = (
    _Coluna("Operadora", 20),
    _Coluna("Tipo", 4),
    _Coluna("Autos lavrados no mês", 6, FORMATO_INTEIRO, total=True),
    _Coluna("Multas decididas no mês", 6, FORMATO_INTEIRO, total=True),
    _Coluna("Multas decididas no mês (URM)", 8, FORMATO_URM, total=True),
    _Coluna("Multas decididas no mês (R$)", 10, FORMATO_REAIS, total=True),
)
_COLUNAS_PENALIDADES = (
    _Coluna("Auto", 9),
    _Coluna("Data da decisão", 10, FORMATO_DATA),
    _Coluna("Operadora", 20),
    _Coluna("Dispositivo", 10),
    _Coluna("Tipo", 4),
    _Coluna("Resultado", 12),
    _Coluna("Multa (URM)", 8, FORMATO_URM, total=True),
    _Coluna("Valor da URM", 10, FORMATO_REAIS),
    _Coluna("Multa (R$)", 10, FORMATO_REAIS, total=True),
    _Coluna("Suspensão (dias)", 4, FORMATO_INTEIRO, total=True),
    _Coluna("Início da suspensão", 10, FORMATO_DATA),
    _Coluna("Fim da suspensão", 10, FORMATO_DATA),
)
_COLUNAS_SUSPENSOES = (
    _Coluna("Auto", 9),
    _Coluna("Operadora", 20),
    _Coluna("Dispositivo", 10),
    _Coluna("Início", 10, FORMATO_DATA),
    _Coluna("Fim", 10, FORMATO_DATA),
    _Coluna("Dias", 4, FORMATO_INTEIRO, total=True),
    _Coluna("Situação", 12),
)
_COLUNAS_PRAZOS = (
    _Coluna("Auto", 9),
    _Coluna("Operadora", 20),
    _Coluna("Prazo", 12),
    _Coluna("Intimação em", 10, FORMATO_DATA),
    _Coluna("Vencimento", 10, FORMATO_DATA),
    _Coluna("Dias restantes", 4, FORMATO_INTEIRO),
)
_COLUNAS_PAGAMENTOS = (
    _Coluna("Auto", 9),
    _Coluna("Operadora", 20),
    _Coluna("Multa (R$)", 10, FORMATO_REAIS, total=True),
    _Coluna("Situação", 10),
    _Coluna("Data do pagamento", 10, FORMATO_DATA),
    _Coluna("Valor pago (R$)", 10, FORMATO_REAIS, total=True),
    _Coluna("Observação", 20),
)


@dataclass(frozen=True, slots=True)
class _Folha:
    titulo: str
    tabela: str
    colunas: Sequence[_Coluna]
    linhas: Sequence[Sequence[object]]


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
    line and the window's progress bar. The rows are put together first: a streamed sheet takes its column
    widths before its first row.
    """
    livro = novo_livro()
    livro.properties.title = f"Relatório mensal {dados.mes:02d}/{dados.ano}"
    livro.properties.subject = "Fiscalização do transporte coletivo – Lei Municipal nº 2.413/1978"
    livro.properties.creator = "Secretaria – SMSU Pelotas"
    livro.calculation.fullCalcOnLoad = True  # the totals rows are formulas without cached values

    folhas = _folhas(dados)
    contador = _Contador(sum(len(f.linhas) for f in folhas), progresso)
    for folha in folhas:
        aba = _Aba(livro, folha.titulo, folha.tabela, medir(folha.colunas, folha.linhas), contador)
        for linha in folha.linhas:
            aba.escrever(linha)
        aba.fechar()
    aba_de_graficos(livro, tabelas_dos_graficos(folhas), ABA_GRAFICOS)
    livro.save(destino)
    contador.terminar()


def _faixa(aba: str, coluna: int, linhas: int) -> str:
    """The data cells of a column of sheet `aba` (rows 2 … linhas + 1), absolute, for SUMIF/COUNTIF."""
    from openpyxl.utils import get_column_letter

    c = get_column_letter(coluna)
    return f"'{aba}'!${c}$2:${c}${max(linhas, 1) + 1}"


def _criterio(texto: str) -> str:
    return '"' + texto.replace('"', '""') + '"'


def tabelas_dos_graficos(folhas: Sequence[_Folha]) -> list[TabelaGrafico]:
    """The Gráficos sheet's tables: each value a SUMIF/COUNTIF over the sheet it counts (the Resumo's autos
    and fines by operator and by tipo, the Pagamentos' amounts by situation)."""
    resumo = next(f for f in folhas if f.titulo == ABAS[1])
    pagamentos = next(f for f in folhas if f.titulo == ABAS[5])
    n = len(resumo.linhas)
    operadoras = sorted({str(r[0]) for r in resumo.linhas}, key=lambda o: (o.casefold(), o))
    r_op, r_tipo = _faixa(ABAS[1], 1, n), _faixa(ABAS[1], 2, n)
    r_autos, r_reais = _faixa(ABAS[1], 3, n), _faixa(ABAS[1], 6, n)
    m = len(pagamentos.linhas)
    situacoes = sorted({str(p[3]) for p in pagamentos.linhas})
    p_sit, p_valor = _faixa(ABAS[5], 4, m), _faixa(ABAS[5], 3, m)
    return [
        TabelaGrafico(
            "Autos lavrados no mês, por operadora",
            "Operadora",
            "Autos",
            [(o, Formula(f"=SUMIF({r_op},{_criterio(o)},{r_autos})")) for o in operadoras],
        ),
        TabelaGrafico(
            "Autos lavrados no mês, por tipo",
            "Tipo",
            "Autos",
            [(f"Tipo {t}", Formula(f"=SUMIF({r_tipo},{_criterio(t)},{r_autos})")) for t in TIPOS],
        ),
        TabelaGrafico(
            "Multas decididas no mês (R$), por operadora",
            "Operadora",
            "Multas (R$)",
            [(o, Formula(f"=SUMIF({r_op},{_criterio(o)},{r_reais})")) for o in operadoras],
            FORMATO_REAIS,
        ),
        TabelaGrafico(
            "Multas por situação do pagamento (R$)",
            "Situação",
            "Valor (R$)",
            [(s, Formula(f"=SUMIF({p_sit},{_criterio(s)},{p_valor})")) for s in situacoes],
            FORMATO_REAIS,
        ),
    ]


def _folhas(dados: DadosMensais) -> list[_Folha]:
    fim_do_mes = ultimo_dia(dados.ano, dados.mes)
    autos = [
        (
            a.numero,
            a.data_infracao,
            a.data_lavratura,
            a.operadora,
            a.dispositivo,
            a.tipo,
            a.veiculo,
            a.empregado,
            a.situacao,
            a.multa_urm,
            a.multa_reais,
        )
        for a in dados.autos
    ]
    penalidades = [
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
        for p in dados.penalidades
    ]
    suspensoes = [
        (s.numero_auto, s.operadora, s.dispositivo, s.inicio, s.fim, s.dias, s.situacao)
        for s in sorted(dados.suspensoes, key=lambda s: (s.inicio, s.numero_auto))
    ]
    prazos = [
        (
            p.numero_auto,
            p.operadora,
            p.prazo,
            p.data_intimacao,
            p.vencimento,
            (p.vencimento - fim_do_mes).days,
        )
        for p in sorted(dados.prazos, key=lambda p: (p.vencimento, p.numero_auto))
    ]
    pagamentos = [
        (
            p.numero_auto,
            p.operadora,
            p.valor_multa,
            p.situacao,
            p.data_pagamento,
            p.valor_pago,
            p.observacao or None,
        )
        for p in dados.pagamentos
    ]
    return [
        _Folha(ABAS[0], "Autos", _COLUNAS_AUTOS, autos),
        _Folha(ABAS[1], "ResumoPorOperadora", _COLUNAS_RESUMO, _resumo(dados)),
        _Folha(ABAS[2], "Penalidades", _COLUNAS_PENALIDADES, penalidades),
        _Folha(ABAS[3], "Suspensoes", _COLUNAS_SUSPENSOES, suspensoes),
        _Folha(ABAS[4], "Prazos", _COLUNAS_PRAZOS, prazos),
        _Folha(ABAS[5], "Pagamentos", _COLUNAS_PAGAMENTOS, pagamentos),
    ]


def _resumo(dados: DadosMensais) -> list[tuple[object, ...]]:
    """One row per operator and tipo: the autos drawn up in the month (from the Autos sheet) and the fines
    decided in the month (from the Penalidades sheet, in URM and in R$ at the URM of each decision's day).

    The fines are the month's decisions, whenever their autos were drawn up: a month's own autos are mostly
    still undecided when the month ends.
    """
    lavrados: dict[tuple[str, str], int] = defaultdict(int)
    multas: dict[tuple[str, str], list[Any]] = defaultdict(lambda: [0, Decimal(0), Decimal(0)])
    for auto in dados.autos:
        lavrados[auto.operadora, auto.tipo] += 1
    for p in dados.penalidades:
        if p.multa_urm is None or not p.multa_urm:
            continue
        celula = multas[p.operadora, p.tipo]
        celula[0] += 1
        celula[1] += p.multa_urm
        celula[2] += p.multa_reais or Decimal(0)
    chaves = sorted(set(lavrados) | set(multas), key=lambda c: (c[0].casefold(), c[0], c[1]))
    linhas: list[tuple[object, ...]] = []
    for operadora, tipo in chaves:
        quantidade, urm, reais = multas.get((operadora, tipo), (0, Decimal(0), Decimal(0)))
        linhas.append((operadora, tipo, lavrados.get((operadora, tipo), 0), quantidade, urm, reais))
    return linhas


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


class _Aba(Aba):
    """A sheet of the report: counts its rows for the progress line."""

    def __init__(
        self, livro: Any, titulo: str, nome_tabela: str, colunas: Sequence[_Coluna], contador: _Contador
    ) -> None:
        super().__init__(livro, titulo, nome_tabela, colunas)
        self.contador = contador

    def escrever(self, valores: Iterable[object]) -> None:
        super().escrever(valores)
        self.contador.mais_uma()
