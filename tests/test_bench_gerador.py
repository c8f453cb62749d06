"""The benchmark's city generator (`bench/gerador.py`) at a tiny scale, on SQLite and PostgreSQL.

The large city takes minutes and is never built by the test suite; the same code at 1 operator and 200 autos
must give a legally coherent city (numbers, ranges, deadlines, phases: `secretaria.demo.conferencia`), and
the cache must be reused only while it matches the scale asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa

from bench import copiar_cidade, gerador
from secretaria.demo.cidade import ESCALA_BENCH, Escala
from secretaria.demo.conferencia import conferir_cidade
from secretaria.models import AutoInfracao, Base, Decisao, Operadora, Suspensao
from secretaria.services.verificacao import verificar_tudo

PEQUENA = Escala(operadoras=1, linhas=3, veiculos=10, empregados=30, fiscais=2, autos=200, anos=2, cadeias=1)
HOJE = date(2026, 11, 30)


@pytest.fixture(params=["sqlite", "postgresql"])
def url_vazia(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where the generator may create (and drop) its own database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bench.sqlite'}"
        return
    base: str = request.getfixturevalue("pg_url")
    u = sa.make_url(base)
    url = u.set(database=f"{u.database}_bench").render_as_string(hide_password=False)
    try:
        yield url
    finally:
        admin = sa.create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{u.database}_bench" WITH (FORCE)')
        admin.dispose()


def test_cidade_pequena_coerente(url_vazia: str) -> None:
    banco = gerador.gerar(url_vazia, PEQUENA, hoje=HOJE)
    try:
        with banco.leitura() as s:
            assert s.scalar(sa.select(sa.func.count()).select_from(Operadora)) == 1
            assert s.scalar(sa.select(sa.func.count()).select_from(AutoInfracao)) == 200
            assert conferir_cidade(s, HOJE) == []
            assert s.scalar(
                sa.select(sa.func.count()).select_from(Decisao).where(Decisao.resultado == "aplicada")
            )
            suspensa_hoje = s.scalar(
                sa.select(sa.func.count())
                .select_from(Suspensao)
                .where(Suspensao.inicio <= HOJE, Suspensao.fim >= HOJE)
            )
            assert suspensa_hoje == 1
    finally:
        banco.fechar()


def test_cache_reusado_so_quando_confere(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cache.sqlite'}"
    banco, hoje, segundos = gerador.preparar(url, PEQUENA)
    banco.fechar()
    assert segundos is not None, "primeira vez: gerada"
    banco, hoje2, segundos = gerador.preparar(url, PEQUENA)
    banco.fechar()
    assert segundos is None and hoje2 == hoje, "segunda vez: do cache"
    outra = Escala(
        operadoras=1, linhas=3, veiculos=10, empregados=30, fiscais=2, autos=150, anos=2, cadeias=1
    )
    banco, _, segundos = gerador.preparar(url, outra)
    try:
        assert segundos is not None, "escala diferente: gerada de novo"
        with banco.leitura() as s:
            assert s.scalar(sa.select(sa.func.count()).select_from(AutoInfracao)) == 150
    finally:
        banco.fechar()


def test_cache_que_nao_abre_nao_e_apagado(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    arquivo = tmp_path / "cache.sqlite"
    url = f"sqlite:///{arquivo}"
    banco, _hoje, _s = gerador.preparar(url, PEQUENA)
    banco.fechar()
    tamanho = arquivo.stat().st_size

    def ocupado(_url: str) -> None:
        raise sa.exc.OperationalError("PRAGMA", {}, Exception("database is locked"))

    with monkeypatch.context() as m:
        m.setattr(gerador, "abrir_e_semear", ocupado)
        with pytest.raises(RuntimeError, match=r"não abriu: .*database is locked"):
            gerador.preparar(url, PEQUENA)
    with monkeypatch.context() as m:
        m.setattr(gerador, "marcador", lambda _banco: None)
        with pytest.raises(RuntimeError, match="não pôde ser lida"):
            gerador.preparar(url, PEQUENA)
    assert arquivo.stat().st_size == tamanho
    banco, _hoje, segundos = gerador.preparar(url, PEQUENA)
    banco.fechar()
    assert segundos is None, "a mesma cidade, do cache"


def test_escala_da_cidade_por_numero_de_autos() -> None:
    """`bench/run --escala N`: the default size is the default city; 2,000,000 autos are ten times its
    registries over twenty years; each size is cached apart."""
    assert gerador.escala_para(gerador.AUTOS_PADRAO) is ESCALA_BENCH
    grande = gerador.escala_para(2_000_000)
    assert (grande.operadoras, grande.veiculos, grande.empregados, grande.anos) == (200, 15_000, 60_000, 20)
    assert grande.autos + grande.autos_mes_pico == 2_000_000
    pequena = gerador.escala_para(20_000)
    assert pequena.autos + pequena.autos_mes_pico == 20_000 and pequena.anos == 10
    assert pequena.operadoras == 3  # a tenth of 20, but never fewer than three
    urls = {gerador.urls_para(n) for n in (gerador.AUTOS_PADRAO, 20_000, 2_000_000)}
    assert len({u for par in urls for u in par}) == 6
    assert gerador.urls_para(gerador.AUTOS_PADRAO) == (gerador.URL_SQLITE, gerador.URL_PG)
    with pytest.raises(ValueError):
        gerador.escala_para(10)


def test_copia_para_o_postgresql_e_a_mesma_cidade_e_verifica(tmp_path: Path, pg_url: str) -> None:
    """The PostgreSQL city copied from the SQLite file holds the same rows, its audit chain and records
    verify on the server as they do in the file, and the next row the program saves gets a fresh id."""
    origem = gerador.gerar(f"sqlite:///{tmp_path / 'origem.sqlite'}", PEQUENA, hoje=HOJE)
    u = sa.make_url(pg_url)
    url = u.set(database=f"{u.database}_copia").render_as_string(hide_password=False)
    gerador.esvaziar(url)
    destino = copiar_cidade.copiar(origem, url)
    try:
        with origem.leitura() as a, destino.leitura() as b:
            for tabela in Base.metadata.sorted_tables:
                if tabela.name in ("alembic_version",):
                    continue
                ordem = [c for c in tabela.primary_key.columns] or list(tabela.columns)
                linhas_a = a.execute(sa.select(tabela).order_by(*ordem)).all()
                linhas_b = b.execute(sa.select(tabela).order_by(*ordem)).all()
                assert linhas_a == linhas_b, tabela.name
            assert b.scalar(sa.select(sa.func.count()).select_from(AutoInfracao)) == 200
            relatorio = verificar_tudo(b)
            assert relatorio.integro, relatorio.achados
            maior = b.scalar(sa.select(sa.func.max(AutoInfracao.id)))
            proximo = b.scalar(sa.text("SELECT nextval(pg_get_serial_sequence('auto_infracao', 'id'))"))
            assert maior is not None and proximo == maior + 1
    finally:
        origem.fechar()
        destino.fechar()
        admin = sa.create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{u.database}_copia" WITH (FORCE)')
        admin.dispose()
