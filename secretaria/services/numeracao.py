"""Per-year numbering ("AI nº 0001/2026", "REP nº 0001/2026"): gapless and unique under concurrent saves.

Never "read max, add one, write": two users saving at once would both read the same max. Instead the
sequence row is incremented by `UPDATE … RETURNING` inside the saving transaction. The UPDATE takes the row
lock (PostgreSQL) or runs under the writer lock taken by BEGIN IMMEDIATE (SQLite), so the second saver waits
for the first to commit and then sees its number; a save that rolls back takes its increment with it, so no
gap is left either.
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from secretaria.models import Numeracao


def proximo_numero(sessao: so.Session, serie: str, ano: int) -> int:
    """Reserve and return the next number of `serie` in `ano` (1, 2, …) in the caller's transaction."""
    dialeto = sessao.get_bind().dialect.name
    valores = {"serie": serie, "ano": ano, "ultimo": 0}
    insercao: sa.Executable
    if dialeto == "postgresql":
        insercao = postgresql.insert(Numeracao).values(**valores).on_conflict_do_nothing()
    elif dialeto == "sqlite":
        insercao = sqlite.insert(Numeracao).values(**valores).on_conflict_do_nothing()
    else:  # pragma: no cover - the program runs on SQLite and PostgreSQL only
        raise RuntimeError(f"Banco de dados não suportado: {dialeto}")
    sessao.execute(insercao)
    numero = sessao.execute(
        sa.update(Numeracao)
        .where(Numeracao.serie == serie, Numeracao.ano == ano)
        .values(ultimo=Numeracao.ultimo + 1)
        .returning(Numeracao.ultimo)
        .execution_options(synchronize_session=False)
    ).scalar_one()
    return int(numero)
