"""The monthly spreadsheet (PRODUTO § 10): autos, summary by operator, penalties, open deadlines, payments.

Written through `reports.planilha` (the program's one xlsx writer: streamed rows, real Excel tables, pt-BR
formats, user text kept as text and never run as a formula), like the list export.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
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
    letra,
    novo_livro,
)
from secretaria.reports.planilha import Coluna as _Coluna

__all__ = ["ABAS", "FORMATO_DATA", "FORMATO_REAIS", "FORMATO_URM", "TIPOS", "gerar_planilha_mensal"]

TIPOS = ("A", "B", "C", "D", "E")
#: Sheet titles, in order.
ABAS = ("Autos", "Resumo por operadora", "Penalidades", "Prazos", "Pagamentos")
_PASSO_PROGRESSO = 1_000

Progresso = Callable[[int, int], None]


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
    fim_do_mes = ultimo_dia(dados.ano, dados.mes)
    livro = novo_livro()
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
        colunas_qtd = [letra(2 + 2 * i) for i in range(len(TIPOS))]
        colunas_valor = [letra(3 + 2 * i) for i in range(len(TIPOS))]
        valores.append(Formula("=" + "+".join(f"{c}{linha}" for c in colunas_qtd)))
        valores.append(Formula("=" + "+".join(f"{c}{linha}" for c in colunas_valor)))
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
