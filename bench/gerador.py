"""The benchmark's large city: 20 operators, 1,500 vehicles, 6,000 employees, 200,000 autos over ten years.

`--escala N` makes a city of about N autos instead (`escala_para`): the registries grow with N (2,000,000 autos:
200 operators, 15,000 vehicles, 60,000 employees, twenty years), cached like the default one in a file and a
PostgreSQL database of its own (`cidade_N.sqlite`, `secretaria_bench_N`).

The same generator as the demo (`secretaria.demo.cidade`), at `ESCALA_BENCH`. Generating takes minutes, so
the result is cached: a SQLite file beside this script (`bench/cidade_grande.sqlite`, git-ignored) and the
PostgreSQL database `secretaria_bench`. A cached database is reused while its marker (the generator's
version, seed and scale, in `configuracao`) matches; `--recriar` forces a new one. The PostgreSQL city is
copied from the SQLite file when that one is cached (`copiar_cidade`), so a city is generated only once.

    .venv/bin/python bench/gerador.py [--sqlite] [--pg] [--recriar] [--escala N]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import sqlalchemy as sa

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from secretaria.db import Banco, arquivo_sqlite, url_sqlite
from secretaria.demo.cidade import (
    CHAVE_CONFIGURACAO,
    ESCALA_BENCH,
    VERSAO_GERADOR,
    Escala,
    gerar_cidade,
    impressao_esquema,
)
from secretaria.demo.popular import SENHA_DEMO, USUARIOS_DEMO
from secretaria.services.semente import abrir_e_semear

PASTA = Path(__file__).resolve().parent
# Two checkouts measuring at once (or a branch with a new migration) each keep a city of their own:
# SECRETARIA_BENCH_SQLITE names another file, SECRETARIA_BENCH_PG_BANCO another PostgreSQL database.
ARQUIVO_SQLITE = Path(os.environ.get("SECRETARIA_BENCH_SQLITE", PASTA / "cidade_grande.sqlite"))
URL_SQLITE = url_sqlite(ARQUIVO_SQLITE)
PG_SERVIDOR = os.environ.get("SECRETARIA_BENCH_PG", "postgresql+psycopg://postgres@127.0.0.1:5432")
URL_PG = f"{PG_SERVIDOR}/{os.environ.get('SECRETARIA_BENCH_PG_BANCO', 'secretaria_bench')}"

Progresso = Callable[[int, int, str], None]
AUTOS_PADRAO = ESCALA_BENCH.autos + ESCALA_BENCH.autos_mes_pico
"""The default city's autos (the scripted chains add a few more)."""


def escala_para(autos: int) -> Escala:
    """A city of about `autos` autos, its registries in the default city's proportions: ten times the autos,
    ten times the operators, lines, vehicles, employees and inspectors, and ten more years (2,000,000 autos:
    200 operators, 15,000 vehicles, 60,000 employees, twenty years). Smaller cities keep ten years."""
    if autos == AUTOS_PADRAO:
        return ESCALA_BENCH
    if autos < 1_000:
        raise ValueError("a escala mínima é de 1.000 autos")
    f = autos / AUTOS_PADRAO
    b = ESCALA_BENCH

    def vezes(n: int, minimo: int) -> int:
        return max(minimo, round(n * f))

    pico = vezes(b.autos_mes_pico, 0)
    return Escala(
        operadoras=vezes(b.operadoras, 3),
        linhas=vezes(b.linhas, 6),
        veiculos=vezes(b.veiculos, 40),
        empregados=vezes(b.empregados, 120),
        fiscais=vezes(b.fiscais, 4),
        autos=autos - pico,
        anos=b.anos + max(0, round(b.anos * math.log10(f))) if f > 1 else b.anos,
        cadeias=vezes(b.cadeias, 3),
        autos_mes_pico=pico,
    )


def urls_para(autos: int) -> tuple[str, str]:
    """(SQLite URL, PostgreSQL URL) of the cached city of `autos` autos: the default city's own for the
    default size, else a file and a database named after the size."""
    if autos == AUTOS_PADRAO:
        return URL_SQLITE, URL_PG
    arquivo = ARQUIVO_SQLITE.with_name(f"cidade_{autos}.sqlite")
    banco = os.environ.get("SECRETARIA_BENCH_PG_BANCO", "secretaria_bench")
    return url_sqlite(arquivo), f"{PG_SERVIDOR}/{banco}_{autos}"


def marcador(banco: Banco) -> dict[str, object] | None:
    """The generator's marker of a database, or None when it holds no generated city."""
    try:
        with banco.leitura() as s:
            valor = s.execute(
                sa.text("SELECT valor FROM configuracao WHERE chave = :c"), {"c": CHAVE_CONFIGURACAO}
            ).scalar()
    except sa.exc.DBAPIError:
        return None
    return json.loads(valor) if valor else None


def _marcador_confere(m: dict[str, object] | None, escala: Escala) -> bool:
    return (
        m is not None
        and m.get("versao") == VERSAO_GERADOR
        and m.get("semente") == escala.semente
        and m.get("escala") == escala.rotulo
        and m.get("esquema") == impressao_esquema()
    )


def esvaziar(url: str) -> None:
    """Remove the database at `url` (SQLite file or PostgreSQL database) and create it empty."""
    arquivo = arquivo_sqlite(url)
    if arquivo is not None:
        for sufixo in ("", "-wal", "-shm"):
            Path(f"{arquivo}{sufixo}").unlink(missing_ok=True)
        return
    u = sa.make_url(url)
    nome = u.database
    admin = sa.create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
        conn.exec_driver_sql(f'CREATE DATABASE "{nome}"')
    admin.dispose()


def gerar(
    url: str, escala: Escala = ESCALA_BENCH, *, hoje: date | None = None, progresso: Progresso | None = None
) -> Banco:
    """A fresh database at `url` holding the city at `escala`; returns it open."""
    esvaziar(url)
    banco = abrir_e_semear(url)
    gerar_cidade(banco, escala, usuarios=USUARIOS_DEMO, senha=SENHA_DEMO, hoje=hoje, progresso=progresso)
    if banco.eh_sqlite:
        bruta = banco.engine.raw_connection()  # outside SQLAlchemy's BEGIN: PRAGMAs need autocommit
        try:
            cursor = bruta.cursor()
            cursor.execute("ANALYZE")
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            cursor.close()
        finally:
            bruta.close()
    else:
        with banco.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    return banco


def _copia_do_sqlite(url: str, escala: Escala, progresso: Progresso | None) -> Banco | None:
    """The PostgreSQL city copied from the SQLite file of the same scale, when that file is cached and
    current (`copiar_cidade`: minutes instead of the hour a 2,000,000-auto city takes to generate); None
    for a SQLite URL or when there is no such file."""
    if arquivo_sqlite(url) is not None:
        return None
    url_sqlite_ = urls_para(escala.autos + escala.autos_mes_pico)[0]
    arquivo = arquivo_sqlite(url_sqlite_)
    if arquivo is None or not arquivo.exists():
        return None
    origem = abrir_e_semear(url_sqlite_)
    try:
        if not _marcador_confere(marcador(origem), escala):
            return None
        from bench.copiar_cidade import copiar

        esvaziar(url)
        return copiar(origem, url, progresso=progresso)
    finally:
        origem.fechar()


def preparar(
    url: str, escala: Escala = ESCALA_BENCH, *, recriar: bool = False, progresso: Progresso | None = None
) -> tuple[Banco, date, float | None]:
    """The cached city at `url` (generated if missing or stale): the open database, the day it was generated
    for (the benchmark's "today") and the seconds generation took (None when reused)."""
    if not recriar:
        arquivo = arquivo_sqlite(url)
        # A cached file that cannot be opened or read now is not a missing city: said, never deleted. A run
        # beside the PostgreSQL copy (which held the file) once took it for one and deleted 24 GB of
        # 2,000,000 autos, an hour of generation, to make them again.
        guardado = arquivo is not None and arquivo.exists() and arquivo.stat().st_size > 4096
        try:
            banco = abrir_e_semear(url)
        except Exception as exc:  # no database yet, or not one of ours: generate
            if guardado:
                raise RuntimeError(
                    f"a cidade em cache ({arquivo}) não abriu: {exc}; --recriar a gera de novo"
                ) from exc
            banco = None
        if banco is not None:
            m = marcador(banco)
            if _marcador_confere(m, escala) and m is not None:
                return banco, date.fromisoformat(str(m["hoje"])), None
            banco.fechar()
            if guardado and m is None:
                raise RuntimeError(
                    f"a cidade em cache ({arquivo}) não pôde ser lida; --recriar a gera de novo"
                )
    inicio = time.perf_counter()
    banco = _copia_do_sqlite(url, escala, progresso) or gerar(url, escala, progresso=progresso)
    m = marcador(banco)
    assert m is not None
    return banco, date.fromisoformat(str(m["hoje"])), time.perf_counter() - inicio


def progresso_terminal(feito: int, total: int, etapa: str) -> None:
    print(f"\r  {etapa}: {feito}/{total}   ", end="" if feito < total else "\n", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Gera (ou confere o cache de) a cidade grande do benchmark.")
    p.add_argument("--sqlite", action="store_true", help="só o SQLite")
    p.add_argument("--pg", action="store_true", help="só o PostgreSQL")
    p.add_argument("--recriar", action="store_true", help="gera de novo mesmo com cache válido")
    p.add_argument("--escala", type=int, default=AUTOS_PADRAO, help="autos da cidade (padrão: 200.000)")
    args = p.parse_args(argv)
    escala = escala_para(args.escala)
    url_sqlite_, url_pg = urls_para(args.escala)
    urls = [u for u, sel in ((url_sqlite_, args.sqlite), (url_pg, args.pg)) if sel] or [url_sqlite_, url_pg]
    for url in urls:
        print(f"{sa.make_url(url).render_as_string(hide_password=True)}: {escala.rotulo}", file=sys.stderr)
        banco, hoje, segundos = preparar(url, escala, recriar=args.recriar, progresso=progresso_terminal)
        with banco.leitura() as s:
            n = s.execute(sa.text("SELECT count(*) FROM auto_infracao")).scalar()
        banco.fechar()
        quando = f"gerada em {segundos:.0f} s" if segundos is not None else "em cache"
        print(f"  {n} autos, hoje = {hoje:%d/%m/%Y}, {quando}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
