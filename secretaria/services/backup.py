"""Backups: a checked online copy of a SQLite database; on PostgreSQL, the exact pg_dump command."""

from __future__ import annotations

import shlex
from pathlib import Path

import sqlalchemy as sa

from secretaria.db import ErroBanco, abrir_banco, arquivo_sqlite, copiar_sqlite, mascarar_url, resolver_url


def comando_pg_dump(url: str, destino: Path) -> str:
    u = sa.make_url(url)
    partes = ["pg_dump", "--format=custom", f"--file={destino}"]
    if u.host:
        partes.append(f"--host={u.host}")
    if u.port:
        partes.append(f"--port={u.port}")
    if u.username:
        partes.append(f"--username={u.username}")
    partes.append(u.database or "")
    return " ".join(shlex.quote(p) for p in partes)


def fazer_backup(url: str | None, destino: Path) -> str:
    """Copy the database to `destino` and return the message for the user."""
    url = resolver_url(url)
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        return (
            f"O banco {mascarar_url(url)} está num servidor PostgreSQL: a cópia é feita com pg_dump.\n"
            f"Execute: {comando_pg_dump(url, destino)}"
        )
    if not arquivo.exists():
        raise ErroBanco(f"O arquivo do banco {arquivo} não existe; nada foi copiado.")
    if destino.exists():
        raise ErroBanco(f"O destino {destino} já existe; escolha outro nome (nada foi sobrescrito).")
    if not destino.parent.is_dir():
        raise ErroBanco(f"A pasta {destino.parent} não existe; nada foi copiado.")
    banco = abrir_banco(url, migrar=False)  # refuses a file that is not a Secretaria database
    banco.fechar()
    copiar_sqlite(arquivo, destino)
    return f"Cópia de segurança gravada em {destino} (verificação de integridade: ok)."
