"""A cell read as what it is: a number cell is a number, a date cell a date, and text is read in pt-BR.

Why not "remove every dot, then read": Excel hands a number cell over as a float (82.37 for R$ 82,37), so
dropping the dot multiplied it by 100. Only text is read with pt-BR conventions ("1.234,56", "82,37").

Two-digit years ("5/3/24") are read in the century that makes sense for the field: a due date (an
inspection, a licence, a contract) lies near today, within 50 years either side; a fact, a decision or a
payment lies in the past, so the latest century that does not put it after today.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

from secretaria import relogio

__all__ = ["ValorInvalido", "ler_data", "ler_decimal"]

_MESES = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
          "outubro", "novembro", "dezembro")  # fmt: skip
_DATA = re.compile(r"(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4}|\d{2})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?")
_DATA_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?")
_MILHAR_PT = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")
_DECIMAL_PT = re.compile(r"\d+(?:,\d+)?")
_DECIMAL_PONTO = re.compile(r"\d*\.\d+")
_MILHAR_EN = re.compile(r"\d{1,3}(?:,\d{3})+\.\d+")
_EXCEL_ZERO = date(1899, 12, 30)
_SERIAL_MIN, _SERIAL_MAX = 20_000, 80_000
"""Excel day numbers read as dates in a date column (1954 to 2119): a date cell formatted as a number."""


class ValorInvalido(ValueError):
    """The cell cannot be read as the field's kind; the message says why, in Portuguese."""


def ler_decimal(valor: object) -> Decimal | None:
    """A number cell as is; text in pt-BR ("1.234,56", "82,37", "R$ 82,37"), or with a lone decimal point
    ("82.37"); None for a blank cell."""
    if valor is None or isinstance(valor, bool):
        if valor is None:
            return None
        raise ValorInvalido("não é um número")
    if isinstance(valor, int):
        return Decimal(valor)
    if isinstance(valor, float):
        # repr of a float is the shortest text that reads back as it: 82.37, never 82.36999….
        return Decimal(repr(round(valor, 9)))
    if isinstance(valor, date | datetime):
        raise ValorInvalido("é uma data, não um número")
    texto = str(valor).replace("R$", "").replace("\u00a0", " ").replace(" ", "").strip()
    if not texto:
        return None
    sinal = ""
    if texto[0] in "+-":
        sinal, texto = ("-" if texto[0] == "-" else ""), texto[1:]
    if _MILHAR_PT.fullmatch(texto):
        normal = texto.replace(".", "").replace(",", ".")
    elif _DECIMAL_PT.fullmatch(texto):
        normal = texto.replace(",", ".")
    elif _DECIMAL_PONTO.fullmatch(texto):
        normal = texto
    elif _MILHAR_EN.fullmatch(texto):
        normal = texto.replace(",", "")
    else:
        raise ValorInvalido("não é um número (use, por exemplo, 1.234,56)")
    try:
        return Decimal(sinal + normal)
    except InvalidOperation:  # pragma: no cover - the patterns only let digits through
        raise ValorInvalido("não é um número") from None


def _seculo(ano2: int, mes: int, dia: int, prazo: bool) -> int:
    hoje = relogio.hoje()
    if prazo:
        for seculo in (1900, 2000, 2100):
            if hoje.year - 50 <= seculo + ano2 < hoje.year + 50:
                return seculo + ano2
        raise AssertionError("unreachable: one century always fits a 100-year window")  # pragma: no cover
    ano = (hoje.year // 100) * 100 + ano2
    try:
        if date(ano, mes, dia) > hoje:
            ano -= 100
    except ValueError:
        if ano > hoje.year:
            ano -= 100
    return ano


def ler_data(valor: object, *, prazo: bool = False) -> date | None:
    """A date cell as is; an Excel day number; text as dd/mm/aaaa, d/m/aa or aaaa-mm-dd. `prazo`: the field
    is a due date (near today) rather than something that already happened (never after today)."""
    if valor is None:
        return None
    if isinstance(valor, datetime):
        return valor.date()
    if isinstance(valor, date):
        return valor
    if isinstance(valor, int | float) and not isinstance(valor, bool):
        if _SERIAL_MIN <= valor <= _SERIAL_MAX and float(valor).is_integer():
            return _EXCEL_ZERO + timedelta(days=int(valor))
        raise ValorInvalido("não é uma data; use dd/mm/aaaa")
    texto = str(valor).strip()
    if not texto:
        return None
    if m := _DATA.fullmatch(texto):
        dia, mes, ano = (int(g) for g in m.groups())
        if len(m.group(3)) == 2:
            ano = _seculo(ano, mes, dia, prazo)
        return _dia(ano, mes, dia)
    if m := _DATA_ISO.fullmatch(texto):
        ano, mes, dia = (int(g) for g in m.groups())
        return _dia(ano, mes, dia)
    raise ValorInvalido("não é uma data; use dd/mm/aaaa")


def _dia(ano: int, mes: int, dia: int) -> date:
    if not 1 <= mes <= 12:
        raise ValorInvalido("não existe: o mês vai de 01 a 12")
    try:
        return date(ano, mes, dia)
    except ValueError:
        # As the forms say it (services.rotulos.data_inexistente): the day does not exist, not "use dd/mm/aaaa".
        ultimo = calendar.monthrange(ano, mes)[1]
        raise ValorInvalido(f"não existe: {_MESES[mes - 1]} de {ano} tem {ultimo} dias") from None
