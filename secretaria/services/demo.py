"""The demo database: one user per role (the logins shown on the login screen), then the city."""

from __future__ import annotations

from collections.abc import Callable

from secretaria.db import Banco
from secretaria.services.base import SISTEMA
from secretaria.services.contas import criar_usuario, existe_usuario

Progresso = Callable[[int, int, str], None]

SENHA_DEMO = "demo1234"
USUARIOS_DEMO = (
    ("admin", "Ana Administradora", ("administrador",)),
    ("fiscal", "Fábio Fiscal", ("fiscal",)),
    ("protocolo", "Paula do Protocolo", ("protocolo",)),
    ("autoridade", "Augusto Autoridade", ("autoridade",)),
    ("secretario", "Sérgio Secretário", ("secretario",)),
    ("consulta", "Clara Consulta", ("consulta",)),
)


def popular_demo(banco: Banco, progresso: Progresso | None = None) -> bool:
    """Fill an empty database with the demo data; return False when it already had users (left alone)."""
    if existe_usuario(banco.uow()):
        return False
    for i, (login, nome, papeis) in enumerate(USUARIOS_DEMO, start=1):
        criar_usuario(banco.uow(), SISTEMA, login=login, nome=nome, senha=SENHA_DEMO, papeis=papeis)
        if progresso:
            progresso(i, len(USUARIOS_DEMO), "Usuários")
    return True
