"""A generated city copied from its SQLite file into a PostgreSQL database, row for row.

Generating the city is Python work (each auto's sanction, each audit image read back and chained) and costs
the same on either database; at 2,000,000 autos it takes well over an hour. The city is the same on both, so
once the SQLite file exists the PostgreSQL database is filled from it with COPY: the schema and the server's
functions come from the migrations (`abrir_e_semear`), then every model table is emptied and loaded with the
file's rows, the sequences are moved past the last id, and the database is analysed.

The audit rows are copied as they are: their hashes were computed by `auditoria._calcular_hash`, the canonical
form the server's own `secretaria_anexar` computes too, so `auditoria verificar` on the copy checks the same
chain (a test compares it on a small city). Only the bench uses this; the program never writes this way.

    .venv/bin/python bench/copiar_cidade.py --escala N
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from secretaria.db import Banco
from secretaria.models import Base
from secretaria.services.semente import abrir_e_semear

Progresso = Callable[[int, int, str], None]
_LOTE = 20_000


def _sem_progresso(_feito: int, _total: int, _etapa: str) -> None:
    return None


def copiar(origem: Banco, url_pg: str, *, progresso: Progresso | None = None) -> Banco:
    """Fill the (fresh) PostgreSQL database at `url_pg` with every model table of `origem` (a SQLite city);
    returns the PostgreSQL database open."""
    avisar = progresso or _sem_progresso
    destino = abrir_e_semear(url_pg)
    tabelas_origem = set(sa.inspect(origem.engine).get_table_names())
    tabelas = [t for t in Base.metadata.sorted_tables if t.name in tabelas_origem]
    with origem.engine.connect() as leitura:
        totais = {
            t.name: int(leitura.execute(sa.select(sa.func.count()).select_from(t)).scalar_one())
            for t in tabelas
        }
        bruta = destino.engine.raw_connection()
        try:
            conn = bruta.driver_connection
            assert conn is not None
            with conn.cursor() as cur:
                # Bench only, as the superuser: no triggers nor foreign-key checks while the rows arrive in
                # table order (the file already holds them consistent), and the seeded rows go first.
                cur.execute("SET session_replication_role = replica")
                nomes = ", ".join(f'"{t.name}"' for t in tabelas)
                cur.execute(f"TRUNCATE {nomes} CASCADE")
                for tabela in tabelas:
                    colunas = [c.name for c in tabela.columns]
                    lista = ", ".join(f'"{c}"' for c in colunas)
                    feito = 0
                    resultado = leitura.execution_options(yield_per=_LOTE).execute(sa.select(*tabela.columns))
                    with cur.copy(f'COPY "{tabela.name}" ({lista}) FROM STDIN') as copia:
                        for parte in resultado.partitions():
                            for linha in parte:
                                copia.write_row(tuple(linha))
                            feito += len(parte)
                            avisar(feito, totais[tabela.name], tabela.name)
                    if "id" in tabela.c and isinstance(tabela.c.id.type, sa.Integer):
                        cur.execute(
                            f"SELECT setval(pg_get_serial_sequence('{tabela.name}', 'id'), "
                            f'coalesce((SELECT max(id) FROM "{tabela.name}"), 0) + 1, false) '
                            f"WHERE pg_get_serial_sequence('{tabela.name}', 'id') IS NOT NULL"
                        )
                cur.execute("SET session_replication_role = origin")
            conn.commit()
        finally:
            bruta.close()
    with destino.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql("VACUUM ANALYZE")
    return destino


def main(argv: list[str] | None = None) -> int:
    from bench import gerador

    p = argparse.ArgumentParser(
        description="Copia a cidade do benchmark do arquivo SQLite para o PostgreSQL."
    )
    p.add_argument(
        "--escala", type=int, default=gerador.AUTOS_PADRAO, help="autos da cidade (padrão: 200.000)"
    )
    args = p.parse_args(argv)
    escala = gerador.escala_para(args.escala)
    url_sqlite, url_pg = gerador.urls_para(args.escala)
    origem, _hoje, _s = gerador.preparar(url_sqlite, escala, progresso=gerador.progresso_terminal)
    inicio = time.perf_counter()
    gerador.esvaziar(url_pg)
    destino = copiar(origem, url_pg, progresso=gerador.progresso_terminal)
    origem.fechar()
    destino.fechar()
    print(f"copiada em {time.perf_counter() - inicio:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
