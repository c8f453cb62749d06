"""Alembic, run from inside the package: an installed program migrates its own database.

Opening the program only asks where the database stands (`situacao`): that reads `alembic_version` with plain
SQL and the revision ids from the migration files' text, so Alembic (about 0.15 s to import) is loaded only
when an upgrade is due (`atualizar`) or by the developer tools (`configuracao`, `revisao_head`).
"""

from __future__ import annotations

import functools
import re
import sqlite3
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


# --------------------------------------------------------------------------- the schema a revision should have

Esquema = dict[tuple[str, str], object]
"""A SQLite schema as comparable values: ("tabela", name) → (columns, foreign keys, unique constraints),
("índice", name) → (table, unique, columns), ("gatilho", name) → its SQL with whitespace and case folded."""


def esquema_sqlite(conexao: sqlite3.Connection) -> Esquema:
    """Read the schema of a SQLite database (through PRAGMAs, never by parsing CREATE TABLE text, so two files
    made by the same migrations compare equal whatever SQLAlchemy version rendered their DDL)."""
    esquema: Esquema = {}
    objetos = conexao.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master "
        "WHERE substr(name, 1, 7) != 'sqlite_' ORDER BY type, name"
    ).fetchall()
    for tipo, nome, tabela, sql in objetos:
        if tipo == "table":
            # sorted: a column added by a later migration sits last, one rebuilt by a batch migration may not
            colunas = tuple(
                sorted(
                    (c[1], " ".join(str(c[2]).upper().split()), bool(c[3]), int(c[5]))
                    for c in conexao.execute(f'PRAGMA table_xinfo("{nome}")')
                )
            )
            chaves = tuple(
                sorted(
                    (str(f[2]), str(f[3]), str(f[4]))
                    for f in conexao.execute(f'PRAGMA foreign_key_list("{nome}")')
                )
            )
            unicas = tuple(
                sorted(
                    (bool(i[2]), str(i[3]), _colunas_indice(conexao, str(i[1])))
                    for i in conexao.execute(f'PRAGMA index_list("{nome}")')
                    if i[3] != "c"
                )
            )
            esquema[("tabela", nome)] = (colunas, chaves, unicas)
        elif tipo == "index":
            unico = bool(
                conexao.execute(
                    f'SELECT "unique" FROM pragma_index_list("{tabela}") WHERE name = ?', (nome,)
                ).fetchone()[0]
            )
            esquema[("índice", nome)] = (tabela, unico, _colunas_indice(conexao, nome))
        elif tipo == "trigger":
            esquema[("gatilho", nome)] = (tabela, " ".join(str(sql).lower().split()))
        else:
            esquema[("visão", nome)] = (tabela, " ".join(str(sql).lower().split()))
    return esquema


def _colunas_indice(conexao: sqlite3.Connection, indice: str) -> tuple[str, ...]:
    return tuple(str(c[2]) for c in conexao.execute(f'PRAGMA index_info("{indice}")'))


@functools.cache
def esquema_da_revisao(revisao: str) -> Esquema:
    """The SQLite schema that migrating an empty database up to `revisao` creates (run once per process, in
    memory): what a database of that revision must have, no more and no less."""
    from alembic import command

    memoria = sqlite3.connect(":memory:", check_same_thread=False)
    engine = sa.create_engine("sqlite://", creator=lambda: memoria, poolclass=sa.pool.StaticPool)
    try:
        with engine.begin() as conexao:
            command.upgrade(configuracao(conexao), revisao)
        return esquema_sqlite(memoria)
    finally:
        engine.dispose()
        memoria.close()


def diferencas_de_esquema(atual: Esquema, esperado: Esquema) -> list[str]:
    """What `atual` lacks or has differently from `esperado`, then what it has beyond it, in Portuguese."""
    faltam = [
        (tipo, f"falta {_artigo(tipo)} {tipo} {nome}") for tipo, nome in esperado if (tipo, nome) not in atual
    ]
    diferentes = [
        (tipo, f"{_artigo(tipo)} {tipo} {nome} difere ({_o_que_difere(atual[(tipo, nome)], valor)})")
        for (tipo, nome), valor in esperado.items()
        if (tipo, nome) in atual and atual[(tipo, nome)] != valor
    ]
    sobram = [
        (tipo, f"tem {_artigo(tipo, True)} {tipo} {nome}, que não faz parte do esquema")
        for tipo, nome in atual
        if (tipo, nome) not in esperado
    ]
    ordem = {"tabela": 0, "índice": 1, "gatilho": 2, "visão": 3}
    return [m for _, m in sorted(faltam + diferentes + sobram, key=lambda p: ordem.get(p[0], 9))]


def _artigo(tipo: str, indefinido: bool = False) -> str:
    feminino = tipo in ("tabela", "visão")
    if indefinido:
        return "uma" if feminino else "um"
    return "a" if feminino else "o"


def _o_que_difere(atual: object, esperado: object) -> str:
    if (
        isinstance(atual, tuple)
        and isinstance(esperado, tuple)
        and len(atual) == 3
        and isinstance(atual[0], tuple)
    ):
        colunas_a = {c[0]: c for c in atual[0]}
        colunas_e = {c[0]: c for c in esperado[0]}
        partes = [f"falta a coluna {n}" for n in colunas_e if n not in colunas_a]
        partes += [
            f"coluna {n} alterada" for n in colunas_e if n in colunas_a and colunas_a[n] != colunas_e[n]
        ]
        partes += [f"coluna {n} a mais" for n in colunas_a if n not in colunas_e]
        if atual[1] != esperado[1]:
            partes.append("chaves estrangeiras diferentes")
        if atual[2] != esperado[2]:
            partes.append("restrições de unicidade diferentes")
        return ", ".join(partes) or "definição diferente"
    return "definição diferente"
