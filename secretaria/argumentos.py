"""argparse in Portuguese: its own words ("usage:", "options:", the errors) translated.

argparse takes every text it prints from `gettext` through the module-level names `argparse._` and
`argparse.ngettext`, looked up when the text is needed. `ParserPt` swaps them for the table below only while
one of its own methods runs (building the parser, parsing, formatting the help, reporting an error), so
another argparse user in the same process (pytest, for one) keeps its English. The table holds every
message of Python 3.11's argparse that a user can meet; one not listed falls back to gettext.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import threading
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, ParamSpec, TypeVar

TRADUCOES: dict[str, str] = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos",
    "options": "opções",
    "optional arguments": "opções",
    "show this help message and exit": "mostra esta ajuda e sai",
    "show program's version number and exit": "mostra a versão do programa e sai",
    "%(prog)s: error: %(message)s\n": "%(prog)s: erro: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "the following arguments are required: %s": "faltam os argumentos obrigatórios: %s",
    "one of the arguments %s is required": "é preciso um dos argumentos %s",
    "unrecognized arguments: %s": "argumentos não reconhecidos: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "valor inválido: %(value)r (escolha entre %(choices)s)",
    "invalid %(type)s value: %(value)r": "valor inválido (%(type)s): %(value)r",
    "expected one argument": "espera um valor",
    "expected at most one argument": "espera no máximo um valor",
    "expected at least one argument": "espera pelo menos um valor",
    "expected %s argument": "espera %s valor",
    "expected %s arguments": "espera %s valores",
    "ambiguous option: %(option)s could match %(matches)s": "opção ambígua: %(option)s pode ser %(matches)s",
    "not allowed with argument %s": "não pode ser usado com o argumento %s",
    "ignored explicit argument %r": "valor %r ignorado",
    "unexpected option string: %s": "opção inesperada: %s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "comando desconhecido %(parser_name)r (escolha entre %(choices)s)"
    ),
    "cannot have multiple subparser arguments": "não pode haver mais de um grupo de comandos",
    'argument "-" with mode %r': 'argumento "-" com o modo %r',
    "can't open '%(filename)s': %(error)s": "não foi possível abrir “%(filename)s”: %(error)s",
    " (default: %(default)s)": " (padrão: %(default)s)",
}


def traduzir(mensagem: str) -> str:
    return TRADUCOES.get(mensagem) or gettext.gettext(mensagem)


def traduzir_plural(singular: str, plural: str, n: int) -> str:
    return traduzir(singular if n == 1 else plural)


_trava = threading.RLock()
_P = ParamSpec("_P")
_R = TypeVar("_R")


@contextlib.contextmanager
def em_portugues() -> Iterator[None]:
    """argparse speaks Portuguese inside the block (re-entrant: a subcommand's parser parses inside its
    parent's)."""
    with _trava:
        antes = argparse._, argparse.ngettext  # type: ignore[attr-defined]
        argparse._, argparse.ngettext = traduzir, traduzir_plural  # type: ignore[attr-defined]
        try:
            yield
        finally:
            argparse._, argparse.ngettext = antes  # type: ignore[attr-defined]


def _traduzido(metodo: Callable[_P, _R]) -> Callable[_P, _R]:
    def envolvido(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with em_portugues():
            return metodo(*args, **kwargs)

    envolvido.__name__ = metodo.__name__
    envolvido.__doc__ = metodo.__doc__
    return envolvido


class ParserPt(argparse.ArgumentParser):
    """An ArgumentParser whose every printed word is Portuguese, with `-h/--ajuda` (`--help` still works,
    unlisted). Its sub-commands' parsers are ParserPt too (argparse makes them of the parent's class)."""

    def __init__(self, prog: str | None = None, *, add_help: bool = True, **kwargs: Any) -> None:
        with em_portugues():
            super().__init__(prog, add_help=False, **kwargs)
            if add_help:
                self.add_argument(
                    "-h",
                    "--ajuda",
                    action="help",
                    default=argparse.SUPPRESS,
                    help=traduzir("show this help message and exit"),
                )
                self.add_argument("--help", action="help", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    parse_args = _traduzido(argparse.ArgumentParser.parse_args)  # type: ignore[assignment]
    parse_known_args = _traduzido(argparse.ArgumentParser.parse_known_args)  # type: ignore[assignment]
    format_usage = _traduzido(argparse.ArgumentParser.format_usage)
    format_help = _traduzido(argparse.ArgumentParser.format_help)

    def error(self, message: str) -> NoReturn:
        with em_portugues():
            super().error(message)
