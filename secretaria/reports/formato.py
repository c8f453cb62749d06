"""pt-BR formatting for the documents and spreadsheets.

Numbers, money and dates come from `secretaria.lei.formato` (pure, like this package), so a notice, a
screen and the law's own texts print "R$ 1.234,56", "-R$ 3,50" and "20/11/2026" by the same functions;
what is only the documents' (hours, dates and numbers in words, text cleaning) lives here.
"""

from __future__ import annotations

from datetime import date, time
from decimal import Decimal

from secretaria.lei.formato import formatar_data, formatar_decimal, formatar_reais, formatar_urm

__all__ = [
    "MESES",
    "data_por_extenso",
    "dias_por_extenso",
    "formatar_data",
    "formatar_decimal",
    "formatar_hora",
    "formatar_reais",
    "formatar_urm",
    "formatar_valor_urm",
    "inteiro_por_extenso",
    "limpar_texto",
]

MESES: tuple[str, ...] = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)


def formatar_valor_urm(valor: Decimal) -> str:
    """The URM's value in R$ with every decimal it has (at least two): "R$ 157,6459", "R$ 164,74".

    A notice prints "10,00 URM × R$ 157,6459 = R$ 1.576,46": rounding the factor to the cent would make
    the printed product false.
    """
    expoente = valor.normalize().as_tuple().exponent
    casas = max(2, -expoente if isinstance(expoente, int) else 2)
    return "R$ " + formatar_decimal(valor, casas)


def formatar_hora(hora: time) -> str:
    """Hours as Brazilian official acts write them: "14h35"."""
    return f"{hora.hour:02d}h{hora.minute:02d}"


def data_por_extenso(dia: date) -> str:
    """The date in words for the place-and-date line above a signature: "20 de novembro de 2026"."""
    return f"{dia.day} de {MESES[dia.month - 1]} de {dia.year}"


def inteiro_por_extenso(numero: int) -> str:
    """Whole numbers in words ("cinco") for "5 (cinco) dias"; num2words is loaded only when asked."""
    from num2words import num2words

    return str(num2words(numero, lang="pt_BR"))


def dias_por_extenso(numero: int) -> str:
    """A period in days as the notices print it, figures and words: "1 (um) dia", "5 (cinco) dias"."""
    return f"{numero} ({inteiro_por_extenso(numero)}) dia{'s' if numero > 1 else ''}"


# Characters below U+0020 other than tab and newline are invalid in XML (xlsx) and invisible in PDF.
_CONTROLE = dict.fromkeys(c for c in range(32) if c not in (9, 10))
_CONTROLE[13] = None


def limpar_texto(texto: str) -> str:
    """Remove control characters a user may have pasted (from e-mail, spreadsheets) before printing.

    Carriage returns go too: Windows line ends arrive as "\\r\\n" and would print twice.
    """
    return texto.translate(_CONTROLE)
