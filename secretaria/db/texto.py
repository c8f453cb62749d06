"""The one rule for text that neither database can store (a lone surrogate), applied to every statement."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from secretaria.erros import ErroDominio


class TextoInvalido(ErroDominio):
    """A text holding a lone surrogate (a UTF-16 half, "\\ud800"): no letter at all, and not encodable as
    UTF-8, so neither database can store or search it. Any text reaching the database meets this one rule
    (`recusar_texto_invalido`): the act, search or login is refused as a normal refusal, nothing written."""

    def __init__(self, campo: str | None) -> None:
        super().__init__(
            "O texto informado contém um caractere inválido (um código Unicode solto, que não forma nenhuma "
            "letra); nada foi gravado nem buscado. Apague esse caractere e digite o texto de novo.",
            campo,
        )


_SURROGATO = re.compile("[\ud800-\udfff]")


_SUFIXO_DO_PARAMETRO = re.compile(r"_+\d+$")  # "nome_1" of a statement, "nome__0" of a batch


def texto_invalido(valor: object) -> bool:
    """Whether `valor` is a text with a lone surrogate (Python keeps them; UTF-8 cannot)."""
    return isinstance(valor, str) and not valor.isascii() and _SURROGATO.search(valor) is not None


def _linhas(parametros: Any, varios: bool) -> Any:
    """The parameter rows of a statement. With `varios` (executemany) a list of rows — except in an
    "insertmanyvalues" batch, where the rows reach the cursor one at a time with the flag still set: then
    `parametros` is itself one row (its values, not rows)."""
    if (
        varios
        and isinstance(parametros, list | tuple)
        and all(isinstance(linha, dict | list | tuple) for linha in parametros)
    ):
        return parametros
    return (parametros,)


def recusar_texto_invalido(
    _conn: sa.Connection,
    _cursor: Any,
    _sql: str,
    parametros: Any,
    contexto: Any,
    varios: bool,
) -> None:
    """The one rule for text that cannot be stored: every statement's parameters, before the driver would
    fail to encode them (a raw UnicodeEncodeError), refused as `TextoInvalido` naming the parameter's column
    (the form field, for the records' columns)."""
    for linha in _linhas(parametros, varios):
        if isinstance(linha, dict):
            valores: Any = linha.values()
        elif isinstance(linha, list | tuple):
            valores = linha
        else:
            continue
        # The row's texts at once, in C: a bulk write of millions of values pays one join per row, and only
        # a row that holds a lone surrogate is walked value by value to name its column.
        juntos = "".join([v for v in valores if isinstance(v, str)])
        if juntos.isascii() or _SURROGATO.search(juntos) is None:
            continue
        if isinstance(linha, dict):
            pares: Iterator[tuple[Any, Any]] = iter(linha.items())
        else:
            nomes = getattr(getattr(contexto, "compiled", None), "positiontup", None) or ()
            # an "insertmanyvalues" batch of several rows repeats the one row's parameters, in order
            n = len(nomes) if nomes and len(linha) % len(nomes) == 0 else 0
            pares = (
                (nomes[i] if i < len(nomes) else nomes[i % n] if n else None, v) for i, v in enumerate(linha)
            )
        for nome, valor in pares:
            if texto_invalido(valor):
                raise TextoInvalido(_SUFIXO_DO_PARAMETRO.sub("", nome) if isinstance(nome, str) else None)
