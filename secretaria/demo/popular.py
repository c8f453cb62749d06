"""The demo database: one user per role (the logins shown on the login screen), then the city.

The city itself (registries, 3,000 autos in every state of the procedure) is made by
`secretaria.demo.cidade` from a fixed seed, in one transaction: a database is either the whole demo or
untouched.
"""

from __future__ import annotations

from collections.abc import Callable

from secretaria.db import Banco
from secretaria.demo.cidade import ESCALA_DEMO, Escala, gerar_cidade
from secretaria.services.contas import existe_usuario

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


def popular_demo(banco: Banco, progresso: Progresso | None = None, *, escala: Escala = ESCALA_DEMO) -> bool:
    """Fill an empty database with the demo city; return False when it already had users (left alone)."""
    if existe_usuario(banco.uow()):
        return False
    gerar_cidade(banco, escala, usuarios=USUARIOS_DEMO, senha=SENHA_DEMO, progresso=progresso)
    return True
