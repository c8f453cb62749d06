"""Formatação brasileira de números e datas usada nos textos que a lei produz.

Fica separada para que ``sancoes``, ``prazos`` e ``urm`` escrevam "0,50 URM" e "05/12/2026" do mesmo modo,
sem depender do *locale* da máquina (que num computador da Prefeitura pode não ser pt_BR).
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal, localcontext

__all__ = ["formatar_data", "formatar_decimal", "formatar_reais", "formatar_urm"]


def formatar_decimal(valor: Decimal | int, casas: int = 2) -> str:
    """``Decimal("1234.5")`` → ``"1.234,50"``: milhar com ponto, decimal com vírgula.

    O arredondamento é "meio para cima" (o das contas da Prefeitura), e não o "meio para o par" que o
    ``format`` do Python usaria.
    """
    numero = Decimal(valor)
    quantum = Decimal(1).scaleb(-casas)
    # Precisão suficiente para o número inteiro mais as casas: o contexto padrão (28 algarismos) faria o
    # ``quantize`` de um número grande falhar com InvalidOperation em vez de escrevê-lo.
    with localcontext() as contexto:
        contexto.prec = max(contexto.prec, numero.adjusted() + casas + 2)
        arredondado = numero.quantize(quantum, rounding=ROUND_HALF_UP)
        # Um valor que arredonda para zero não tem sinal: "-0,00" não se escreve.
        sinal = "-" if arredondado < 0 else ""
        texto = f"{abs(arredondado):,.{casas}f}"
    return sinal + texto.translate(str.maketrans(",.", ".,"))


def formatar_reais(valor: Decimal | int) -> str:
    """``Decimal("1234.56")`` → ``"R$ 1.234,56"``; negativo com o sinal antes do símbolo, ``"-R$ 3,50"``.

    É a convenção brasileira (a do Banco Central e dos extratos), e a única deste programa: documentos,
    telas e planilhas escrevem dinheiro por esta função.
    """
    texto = formatar_decimal(valor)
    if texto.startswith("-"):
        return "-R$ " + texto[1:]
    return "R$ " + texto


def formatar_urm(ur: Decimal | int) -> str:
    """``Decimal("0.5")`` → ``"0,50 URM"``."""
    return f"{formatar_decimal(ur)} URM"


def formatar_data(dia: date) -> str:
    """``date(2026, 12, 7)`` → ``"07/12/2026"``, a forma dos atos administrativos."""
    return f"{dia.day:02d}/{dia.month:02d}/{dia.year:04d}"
