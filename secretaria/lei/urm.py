"""A URM (Unidade de Referência Municipal): valor vigente, conversão para reais e valor por extenso.

As multas da lei são fixadas em URM (art. 7º, I) e a notificação mostra também o valor em reais, calculado
com a URM em vigor na data da decisão (REGRAS.md § 2), e por extenso, como exigem os documentos de cobrança.
O ``num2words`` escreve quase certo em pt_BR; as correções que a norma culta pede estão em ``por_extenso``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from num2words import num2words

from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data, formatar_decimal, formatar_reais, formatar_urm

__all__ = [
    "UrmSemValor",
    "ValorUrm",
    "descrever_multa",
    "formatar_decimal",
    "formatar_reais",
    "formatar_urm",
    "por_extenso",
    "urm_para_reais",
    "valor_em",
    "vigente_em",
]

_CENTAVO = Decimal("0.01")
_GRANDEZAS = ("milhão", "milhões", "bilhão", "bilhões", "trilhão", "trilhões")


class UrmSemValor(ErroLei):
    """Não há valor da URM em vigor no dia pedido: a decisão não pode converter a multa em reais."""


@dataclass(frozen=True)
class ValorUrm:
    """Uma linha da tabela da URM: o valor em reais vale a partir de ``inicio``, fixado por ``ato``."""

    inicio: date
    valor: Decimal
    ato: str


def vigente_em(tabela: Iterable[ValorUrm], dia: date) -> ValorUrm:
    """A linha em vigor em ``dia``: a de início mais recente que não seja posterior a ele.

    Sem linha anterior, recusa com uma mensagem que diz qual período falta cadastrar.
    """
    linhas = tuple(tabela)
    candidatas = [linha for linha in linhas if linha.inicio <= dia]
    if not candidatas:
        if not linhas:
            raise UrmSemValor(
                f"A tabela da URM está vazia: cadastre o valor da URM em vigor em {formatar_data(dia)}, "
                "com o ato que o fixou."
            )
        primeiro = min(linha.inicio for linha in linhas)
        raise UrmSemValor(
            f"Não há valor da URM em vigor em {formatar_data(dia)}: o primeiro valor cadastrado vale a "
            "partir de "
            f"{formatar_data(primeiro)}. Cadastre o valor em vigor nessa data, com o ato que o fixou."
        )
    inicio = max(linha.inicio for linha in candidatas)
    vigentes = {linha.valor for linha in candidatas if linha.inicio == inicio}
    if len(vigentes) > 1:
        valores = ", ".join(formatar_reais(v) for v in sorted(vigentes))
        raise ErroLei(
            f"A tabela da URM tem valores diferentes ({valores}) a partir do mesmo dia, "
            f"{formatar_data(inicio)}: "
            "corrija a tabela antes de decidir."
        )
    return next(linha for linha in candidatas if linha.inicio == inicio)


def valor_em(tabela: Iterable[ValorUrm], dia: date) -> Decimal:
    """O valor da URM, em reais, em vigor em ``dia`` (REGRAS.md § 2)."""
    return vigente_em(tabela, dia).valor


def urm_para_reais(ur: Decimal, valor: Decimal) -> Decimal:
    """``ur`` URM em reais, arredondado ao centavo "meio para cima" (0,005 → 0,01)."""
    return (ur * valor).quantize(_CENTAVO, rounding=ROUND_HALF_UP)


def _numero(n: int) -> str:
    # Correção: o num2words separa as classes com vírgula ("mil, duzentos e trinta e quatro"); a norma
    # escreve "mil duzentos e trinta e quatro", sem vírgula e sem "e" entre classes, salvo antes de centena
    # redonda ou de número menor que cem ("mil e duzentos", "mil e um"), o que o num2words já faz.
    return str(num2words(n, lang="pt_BR")).replace(",", "")


def por_extenso(valor: Decimal) -> str:
    """Valor em reais por extenso, como num documento: "oitenta e dois reais e trinta e sete centavos".

    Além de tirar as vírgulas entre classes (ver ``_numero``), corrige o que o num2words faz com moeda:
    "zero reais e cinquenta centavos" vira "cinquenta centavos"; mantém "um real", "um centavo" no singular
    e "um milhão de reais" (com "de" depois de milhão, bilhão, trilhão).
    """
    centavos_total = int(valor.quantize(_CENTAVO, rounding=ROUND_HALF_UP) * 100)
    if centavos_total < 0:
        raise ErroLei(f"Valor negativo não se escreve por extenso numa cobrança: {formatar_reais(valor)}.")
    reais, centavos = divmod(centavos_total, 100)
    partes: list[str] = []
    if reais or not centavos:
        palavras = _numero(reais)
        if reais == 1:
            moeda = "real"
        elif palavras.endswith(_GRANDEZAS):
            moeda = "de reais"
        else:
            moeda = "reais"
        partes.append(f"{palavras} {moeda}")
    if centavos:
        partes.append(f"{_numero(centavos)} {'centavo' if centavos == 1 else 'centavos'}")
    return " e ".join(partes)


def descrever_multa(ur: Decimal, valor_urm: Decimal) -> str:
    """A linha das notificações: "0,50 URM = R$ 82,37 (oitenta e dois reais e trinta e sete centavos)"."""
    reais = urm_para_reais(ur, valor_urm)
    return f"{formatar_urm(ur)} = {formatar_reais(reais)} ({por_extenso(reais)})"
