"""Opening databases: WAL and foreign keys on SQLite, clear refusals, rollback unless committed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, ErroBanco, TextoInvalido, mascarar_url
from secretaria.models import Configuracao
from secretaria.services.semente import abrir_e_semear
from tests.helpers import fabrica


def test_sqlite_em_wal_com_chaves_estrangeiras(tmp_path: Path) -> None:
    banco = abrir_e_semear(f"sqlite:///{tmp_path / 'a.sqlite'}")
    with banco.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    banco.fechar()


def test_unidade_de_trabalho_desfaz_sem_commit(banco: Banco) -> None:
    with banco.uow() as uow:
        uow.session.add(Configuracao(chave="x", valor="1"))
    with banco.uow() as uow:
        uow.session.add(Configuracao(chave="y", valor="2"))
        uow.commit()
    with banco.leitura() as s:
        assert s.scalars(sa.select(Configuracao.chave)).all() == ["y"]


def test_arquivo_que_nao_e_banco_e_recusado_sem_alteracao(tmp_path: Path) -> None:
    arquivo = tmp_path / "planilha.sqlite"
    arquivo.write_bytes(b"isto nao e um banco de dados" * 100)
    antes = arquivo.read_bytes()
    with pytest.raises(ErroBanco, match="não é um banco de dados da Secretaria"):
        abrir_e_semear(f"sqlite:///{arquivo}")
    assert arquivo.read_bytes() == antes


def test_banco_de_outro_programa_e_recusado(tmp_path: Path) -> None:
    arquivo = tmp_path / "outro.sqlite"
    con = sqlite3.connect(arquivo)
    con.execute("CREATE TABLE clientes (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(ErroBanco, match="não é um banco da Secretaria"):
        abrir_e_semear(f"sqlite:///{arquivo}")
    con = sqlite3.connect(arquivo)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["clientes"]
    con.close()


def test_esquema_mais_novo_e_recusado(tmp_path: Path) -> None:
    arquivo = tmp_path / "novo.sqlite"
    abrir_e_semear(f"sqlite:///{arquivo}").fechar()
    con = sqlite3.connect(arquivo)
    con.execute("UPDATE alembic_version SET version_num = '9999_futuro'")
    con.commit()
    con.close()
    with pytest.raises(ErroBanco, match="versão mais nova"):
        abrir_e_semear(f"sqlite:///{arquivo}")


def test_pasta_inexistente_nao_cria_nada(tmp_path: Path) -> None:
    with pytest.raises(ErroBanco, match="não existe"):
        abrir_e_semear(f"sqlite:///{tmp_path / 'nao' / 'existe.sqlite'}")
    assert not (tmp_path / "nao").exists()


def test_servidor_inacessivel_tem_mensagem_clara() -> None:
    with pytest.raises(ErroBanco, match="Não foi possível conectar") as erro:
        abrir_e_semear("postgresql+psycopg://fulano:segredo@127.0.0.1:1/nada")
    assert "segredo" not in str(erro.value)


def test_url_mascarada_nunca_mostra_a_senha() -> None:
    assert "segredo" not in mascarar_url("postgresql+psycopg://fulano:segredo@servidor/banco")


# --- a full disk or an I/O error is a refusal like any other -----------------------------------------------


class _ErroPg(Exception):
    """Stands for psycopg's error classes: what the mapping reads is the SQLSTATE."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"erro {sqlstate}")
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("erro", "esperado"),
    [
        (sqlite3.OperationalError("database or disk is full"), "O disco está cheio"),
        (sqlite3.OperationalError("disk I/O error"), "O disco falhou"),
        (sa.exc.OperationalError("COMMIT", {}, _ErroPg("53100")), "O disco está cheio"),
        (sa.exc.OperationalError("INSERT", {}, _ErroPg("58030")), "O disco falhou"),
        (OSError(28, "No space left on device"), "O disco está cheio"),
        (OSError(5, "Input/output error"), "O disco falhou"),
    ],
)
def test_disco_cheio_e_erro_de_disco_viram_recusas(erro: Exception, esperado: str) -> None:
    from secretaria.db import recusa_do_banco

    recusa = recusa_do_banco(erro)
    assert recusa is not None and recusa.mensagem.startswith(esperado)
    assert "nada foi gravado" in recusa.mensagem


def test_outros_erros_nao_viram_recusa_de_disco() -> None:
    from secretaria.db import recusa_do_banco

    assert recusa_do_banco(sqlite3.OperationalError("no such table: x")) is None
    assert recusa_do_banco(sa.exc.OperationalError("x", {}, _ErroPg("42P01"))) is None
    assert recusa_do_banco(OSError(13, "Permission denied")) is None


def test_disco_cheio_de_verdade_no_sqlite_e_recusa_e_nada_fica(tmp_path: Path) -> None:
    """SQLITE_FULL for real (the database may not grow by one page): the unit of work raises DiscoCheio."""
    from sqlalchemy import event

    from secretaria.services.base import DiscoCheio

    banco = abrir_e_semear(f"sqlite:///{tmp_path / 'cheio.sqlite'}")
    try:

        def cheio(conexao: sqlite3.Connection, _registro: object) -> None:
            paginas = conexao.execute("PRAGMA page_count").fetchone()[0]
            conexao.execute(f"PRAGMA max_page_count = {paginas}")

        event.listen(banco.engine, "connect", cheio)
        banco.engine.dispose()
        with pytest.raises(DiscoCheio), banco.uow() as uow:
            uow.session.add(Configuracao(chave="grande", valor="x" * 200_000))
            uow.commit()
        event.remove(banco.engine, "connect", cheio)
        banco.engine.dispose()
        with banco.leitura() as sessao:
            assert sessao.get(Configuracao, "grande") is None
    finally:
        banco.fechar()


def test_unidade_de_trabalho_marca_o_erro_inesperado_como_desfeito(banco: Banco) -> None:
    from secretaria.db import NOTA_DESFEITA

    with pytest.raises(RuntimeError) as info, banco.uow() as uow:
        uow.session.add(Configuracao(chave="meio", valor="1"))
        uow.session.flush()
        raise RuntimeError("bug")
    assert NOTA_DESFEITA in info.value.__notes__


def test_sqlite_guarda_as_estatisticas_do_planejador_ao_fechar(tmp_path: Path) -> None:
    """A file the program used gains the planner's statistics (PRAGMA optimize on closing): without them
    the queues' and the Painel's plans are the planner's guesses."""
    url = f"sqlite:///{tmp_path / 'estatisticas.sqlite'}"
    banco = abrir_e_semear(url)
    for numero in range(1, 41):
        fabrica.inserir_auto(banco, numero=numero)
    with banco.leitura() as s:
        assert s.execute(sa.text("SELECT count(*) FROM auto_infracao WHERE fase = 'lavrado'")).scalar() == 40
    banco.fechar()
    conexao = sqlite3.connect(tmp_path / "estatisticas.sqlite")
    try:
        tabelas = {t for (t,) in conexao.execute("SELECT tbl FROM sqlite_stat1")}
    finally:
        conexao.close()
    assert "auto_infracao" in tabelas


def test_a_espera_da_janela_e_uma_politica_injetada(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database layer reads no window state: a busy write gives up at once only when the injected policy
    says so (the GUI thread's short wait), and each commit is told to it."""
    import time

    from secretaria import db

    class Politica:
        gravadas = 0

        def espera_curta(self) -> float | None:
            return 0.05

        def aviso(self) -> None:
            return None

        def gravou(self) -> None:
            self.gravadas += 1

    arquivo = tmp_path / "a.sqlite"
    banco = abrir_e_semear(f"sqlite:///{arquivo}")
    monkeypatch.setattr(db.espera, "_politica", db.politica_de_espera())
    politica = Politica()
    db.definir_politica_de_espera(politica)
    trava = sqlite3.connect(arquivo, isolation_level=None)
    trava.execute("BEGIN IMMEDIATE")  # another program holding the write lock
    try:
        inicio = time.monotonic()
        with pytest.raises(db.BancoOcupado) as recusa, banco.uow() as uow:
            uow.session.merge(Configuracao(chave="x", valor="1"))
            uow.commit()
        assert time.monotonic() - inicio < db.SQLITE_ESPERA_MS / 1000  # not the usual wait
        assert not recusa.value.repetir and politica.gravadas == 0
    finally:
        trava.rollback()
        trava.close()
    with banco.uow() as uow:
        uow.session.merge(Configuracao(chave="x", valor="1"))
        uow.commit()
    assert politica.gravadas == 1
    db.definir_politica_de_espera(None)
    assert db.politica_de_espera() is not politica
    banco.fechar()


@pytest.mark.parametrize("ordem_do_retorno", [False, True])
def test_surrogato_solto_em_insercao_de_varias_linhas_e_recusa(banco: Banco, ordem_do_retorno: bool) -> None:
    """The lone-surrogate rule holds for statements of many rows too, in every shape the driver is handed them
    (an executemany's list of rows, and an "insertmanyvalues" batch, whose rows come one at a time with the
    executemany flag still set — the shape an act with two witnesses gives): a refusal, not a raw
    UnicodeEncodeError."""
    tabela = sa.Table(
        f"teste_surrogato_{int(ordem_do_retorno)}",
        sa.MetaData(),
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("nome", sa.String(20)),
        sa.Column("endereco", sa.String(20)),
    )
    with banco.engine.begin() as conn:
        tabela.create(conn)
    try:
        linhas = [{"nome": "ab", "endereco": ""}, {"nome": "ab", "endereco": "\ud800"}]
        with pytest.raises(TextoInvalido) as erro, banco.engine.begin() as conn:
            conn.execute(
                tabela.insert().returning(tabela.c.id, sort_by_parameter_order=ordem_do_retorno), linhas
            )
        assert erro.value.campo == "endereco"
        with pytest.raises(TextoInvalido), banco.engine.begin() as conn:
            conn.execute(tabela.insert(), linhas)
        with banco.engine.connect() as conn:
            assert conn.scalar(sa.select(sa.func.count()).select_from(tabela)) == 0
    finally:
        with banco.engine.begin() as conn:
            tabela.drop(conn)
