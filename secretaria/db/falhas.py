"""The database's refusals as the user reads them: a database that cannot be opened, one that stayed busy,
a value it refused, a full disk or an I/O error."""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa

from secretaria.erros import DiscoCheio, ErroDominio, FalhaDeDisco, recusa_de_disco

# SQLITE_IOERR and SQLITE_FULL; PostgreSQL's disk_full and io_error.
_SQLITE_IOERR, _SQLITE_FULL = 10, 13


_PG_DISCO_CHEIO, _PG_FALHA_DE_DISCO = "53100", "58030"


MENSAGEM_OCUPADO = (
    "O banco de dados está ocupado por outro programa (uma gravação longa ou outro computador com o banco "
    "aberto) e a operação esperou alguns segundos sem conseguir gravar; nada foi gravado. Tente de novo "
    "daqui a pouco."
)


class ErroBanco(Exception):
    """A database that cannot be opened: the message says which URL, what failed and what to do."""


class BancoOcupado(ErroBanco, ErroDominio):
    """The database stayed busy through every retry: nothing was written, the user may simply try again.

    Both an ErroBanco (the command line prints it) and an ErroDominio (a window shows it like any refusal).
    """

    def __init__(self, mensagem: str | None = None, *, repetir: bool = True) -> None:
        ErroDominio.__init__(
            self,
            mensagem
            or "O banco de dados está ocupado por outro usuário neste momento e a operação não pôde ser "
            "concluída; nada foi gravado. Tente novamente em alguns segundos.",
        )
        # False when the waiting was already done (BEGIN retried until its deadline): running the whole
        # act again would only multiply the wait.
        self.repetir = repetir


class ValorRecusadoPeloBanco(ErroDominio):
    """Last line of defence: a value the database itself refused (a NUL character or a text too long for
    PostgreSQL, a number too big for the column). Services validate before writing, so this reaching a user
    means a validation is missing; the act was rolled back whole and the user reads Portuguese, not a
    driver's error."""

    def __init__(self) -> None:
        super().__init__(
            "Um dos valores informados não pode ser gravado no banco de dados (caractere inválido, texto "
            "longo demais ou número grande demais); nada foi gravado. Corrija o valor e tente de novo."
        )


def recusa_do_banco(exc: BaseException) -> ErroDominio | None:
    """The refusal a full disk or an I/O error met by the database becomes (SQLite's SQLITE_FULL and
    SQLITE_IOERR, PostgreSQL's disk_full and io_error, or an OSError saying so), else None."""
    original = exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc
    if isinstance(original, sqlite3.Error):
        codigo = getattr(original, "sqlite_errorcode", None)
        texto = str(original).lower()
        if (codigo is not None and codigo & 0xFF == _SQLITE_FULL) or "database or disk is full" in texto:
            return DiscoCheio()
        if (codigo is not None and codigo & 0xFF == _SQLITE_IOERR) or "disk i/o error" in texto:
            return FalhaDeDisco()
        return None
    sqlstate = getattr(original, "sqlstate", None)
    if sqlstate == _PG_DISCO_CHEIO:
        return DiscoCheio("o banco de dados no servidor")
    if sqlstate == _PG_FALHA_DE_DISCO:
        return FalhaDeDisco("o banco de dados no servidor")
    return recusa_de_disco(original) if original is not None else None
