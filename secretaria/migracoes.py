"""Alembic, run from inside the package: an installed program migrates its own database.

Opening the program only asks where the database stands (`situacao`): that reads `alembic_version` with plain
SQL and the revision ids from the migration files' text, so Alembic (about 0.15 s to import) is loaded only
when an upgrade is due (`atualizar`) or by the developer tools (`configuracao`, `revisao_head`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

if TYPE_CHECKING:
    from alembic.config import Config

PASTA = Path(__file__).with_name("migrations")

_REVISAO = re.compile(r"""^revision\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", re.MULTILINE)
_ANTERIOR = re.compile(r"""^down_revision\s*(?::[^=]*)?=\s*(None|["']([^"']+)["'])""", re.MULTILINE)


def configuracao(conexao: sa.Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(PASTA))
    if conexao is not None:
        cfg.attributes["connection"] = conexao
    return cfg


@functools.cache
def _revisoes() -> tuple[frozenset[str], str]:
    """(every revision id of the migration files, the head): read from the files, without Alembic.

    The history is linear (each revision names one `down_revision`); the head is the revision no other
    revises. tests/test_migracoes.py checks this against Alembic's own reading.
    """
    revisoes: dict[str, str | None] = {}
    for arquivo in sorted((PASTA / "versions").glob("*.py")):
        texto = arquivo.read_text(encoding="utf-8")
        revisao = _REVISAO.search(texto)
        if revisao is None:
            continue
        anterior = _ANTERIOR.search(texto)
        revisoes[revisao.group(1)] = anterior.group(2) if anterior else None
    revisadas = {r for r in revisoes.values() if r is not None}
    heads = [r for r in revisoes if r not in revisadas]
    if len(heads) != 1:  # pragma: no cover - a branched history is a developer's mistake
        raise RuntimeError(f"O histórico de migrações deve ter uma só ponta, tem {heads}.")
    return frozenset(revisoes), heads[0]


def revisao_head() -> str:
    return _revisoes()[1]


@dataclass(frozen=True)
class Situacao:
    revisao_atual: str | None
    tabelas: frozenset[str]
    conhecidas: frozenset[str]

    @property
    def estranho(self) -> bool:
        """Tables, but no Alembic version of ours: some other program's database."""
        return self.revisao_atual is None and bool(self.tabelas)

    @property
    def mais_novo(self) -> bool:
        return self.revisao_atual is not None and self.revisao_atual not in self.conhecidas

    @property
    def pendente(self) -> bool:
        return self.revisao_atual != revisao_head()


def situacao(conexao: sa.Connection) -> Situacao:
    tabelas = frozenset(sa.inspect(conexao).get_table_names())
    atual = None
    if "alembic_version" in tabelas:
        versoes = conexao.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
        if len(versoes) > 1:  # pragma: no cover - Alembic writes one row for a linear history
            raise RuntimeError(f"alembic_version tem mais de uma versão: {sorted(versoes)}.")
        atual = versoes[0] if versoes else None
    return Situacao(atual, tabelas - {"alembic_version"}, _revisoes()[0])


def atualizar(engine: sa.Engine, revisao: str = "head") -> None:
    from alembic import command

    with engine.begin() as conexao:
        command.upgrade(configuracao(conexao), revisao)
