"""Opening databases: WAL and foreign keys on SQLite, clear refusals, rollback unless committed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, ErroBanco, abrir_banco, mascarar_url
from secretaria.models import Configuracao


def test_sqlite_em_wal_com_chaves_estrangeiras(tmp_path: Path) -> None:
    banco = abrir_banco(f"sqlite:///{tmp_path / 'a.sqlite'}")
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
        abrir_banco(f"sqlite:///{arquivo}")
    assert arquivo.read_bytes() == antes


def test_banco_de_outro_programa_e_recusado(tmp_path: Path) -> None:
    arquivo = tmp_path / "outro.sqlite"
    con = sqlite3.connect(arquivo)
    con.execute("CREATE TABLE clientes (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(ErroBanco, match="não é um banco da Secretaria"):
        abrir_banco(f"sqlite:///{arquivo}")
    con = sqlite3.connect(arquivo)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["clientes"]
    con.close()


def test_esquema_mais_novo_e_recusado(tmp_path: Path) -> None:
    arquivo = tmp_path / "novo.sqlite"
    abrir_banco(f"sqlite:///{arquivo}").fechar()
    con = sqlite3.connect(arquivo)
    con.execute("UPDATE alembic_version SET version_num = '9999_futuro'")
    con.commit()
    con.close()
    with pytest.raises(ErroBanco, match="versão mais nova"):
        abrir_banco(f"sqlite:///{arquivo}")


def test_pasta_inexistente_nao_cria_nada(tmp_path: Path) -> None:
    with pytest.raises(ErroBanco, match="não existe"):
        abrir_banco(f"sqlite:///{tmp_path / 'nao' / 'existe.sqlite'}")
    assert not (tmp_path / "nao").exists()


def test_servidor_inacessivel_tem_mensagem_clara() -> None:
    with pytest.raises(ErroBanco, match="Não foi possível conectar") as erro:
        abrir_banco("postgresql+psycopg://fulano:segredo@127.0.0.1:1/nada")
    assert "segredo" not in str(erro.value)


def test_url_mascarada_nunca_mostra_a_senha() -> None:
    assert "segredo" not in mascarar_url("postgresql+psycopg://fulano:segredo@servidor/banco")
