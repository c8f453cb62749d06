"""Alembic, run from inside the package: an installed program migrates its own database."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

PASTA = Path(__file__).with_name("migrations")


def configuracao(conexao: sa.Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(PASTA))
    if conexao is not None:
        cfg.attributes["connection"] = conexao
    return cfg


def revisao_head() -> str:
    head = ScriptDirectory.from_config(configuracao()).get_current_head()
    assert head is not None
    return head


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
    atual = (
        MigrationContext.configure(conexao).get_current_revision() if "alembic_version" in tabelas else None
    )
    conhecidas = frozenset(s.revision for s in ScriptDirectory.from_config(configuracao()).walk_revisions())
    return Situacao(atual, tabelas - {"alembic_version"}, conhecidas)


def atualizar(engine: sa.Engine, revisao: str = "head") -> None:
    with engine.begin() as conexao:
        command.upgrade(configuracao(conexao), revisao)
