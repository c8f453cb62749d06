"""`secretaria servidor preparar`: the program works as the application role, and the database refuses that
role every change to the audit and to the schema (PostgreSQL)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.cli import main
from secretaria.db import Banco, ErroBanco
from secretaria.services.base import Ator
from secretaria.services.semente import abrir_e_semear
from tests.conftest import PG_ADMIN_URL
from tests.helpers.cidade_auditada import montar


def test_programa_funciona_com_o_papel_do_usuario(banco_do_usuario: tuple[Banco, Ator]) -> None:
    banco, _ator = banco_do_usuario
    montar(banco)  # every kind of act, audited, as the logged-in user's own role
    from secretaria.services.verificacao import verificar_tudo

    with banco.leitura() as s:
        assert verificar_tudo(s).integro


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE auditoria SET acao = 'x'",
        "DELETE FROM auditoria",
        "TRUNCATE auditoria",
        "ALTER TABLE auditoria DISABLE TRIGGER auditoria_somente_insercao",
        "DROP TRIGGER auditoria_somente_insercao ON auditoria",
        "DROP TRIGGER auditoria_sem_truncate ON auditoria",
        "ALTER TABLE auditoria ADD COLUMN x int",
        "DROP TABLE auditoria",
        "UPDATE alembic_version SET version_num = '0001'",
    ],
)
def test_papel_do_usuario_nao_altera_a_auditoria_nem_o_esquema(
    banco_do_usuario: tuple[Banco, Ator], sql: str
) -> None:
    banco, _ator = banco_do_usuario
    montar(banco)
    with pytest.raises(sa.exc.DatabaseError) as erro, banco.engine.begin() as conn:
        conn.exec_driver_sql(sql)
    assert (
        "permission denied" in str(erro.value)
        or "must be owner" in str(erro.value)
        or ("só aceita inclusões" in str(erro.value))
    )
    with banco.leitura() as s:
        assert (s.execute(sa.text("SELECT count(*) FROM auditoria")).scalar() or 0) > 10


def test_banco_a_atualizar_com_o_papel_do_programa_explica_o_que_fazer(
    banco_preparado: tuple[str, str, str],
) -> None:
    _admin, url_dono, url_app = banco_preparado
    from alembic import command

    from secretaria import migracoes

    motor = sa.create_engine(url_dono)
    with motor.begin() as conn:  # back to the revision before 0005's trigger (and what follows it)
        command.downgrade(migracoes.configuracao(conn), "0004")
    motor.dispose()
    with pytest.raises(ErroBanco, match=r"precisa ser atualizado.*não pode alterar o esquema"):
        abrir_e_semear(url_app)
    abrir_e_semear(url_dono).fechar()  # the owner upgrades it
    abrir_e_semear(url_app).fechar()


def test_linha_de_comando_grava_as_senhas_so_no_arquivo(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nome = f"secretaria_srv_{uuid.uuid4().hex[:8]}"
    url_admin = sa.make_url(PG_ADMIN_URL).set(database=nome).render_as_string(hide_password=False)
    saida = tmp_path / "servidor.txt"
    try:
        assert main(["servidor", "preparar", "--db", url_admin, "--saida", str(saida)]) == 0
        texto = capsys.readouterr().out
        urls = [linha for linha in saida.read_text().splitlines() if linha.startswith("postgresql")]
        assert len(urls) == 2
        for url in urls:
            senha = sa.make_url(url).password
            assert senha and str(senha) not in texto and "***" in texto
        assert os.stat(saida).st_mode & 0o077 == 0
        abrir_e_semear(urls[1]).fechar()
    finally:
        motor = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with motor.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
            for sufixo in ("dono", "app", "usuarios"):
                conn.exec_driver_sql(f'DROP ROLE IF EXISTS "{nome}_{sufixo}"')
        motor.dispose()
