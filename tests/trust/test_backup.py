"""Backups: on demand, daily at start-up (keeping the last N), and restore: backup → damage → restore →
the data are back, integrity and audit chain intact, the replaced file kept aside."""

from __future__ import annotations

import sqlite3
import subprocess
import uuid
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, ErroBanco, abrir_banco, arquivo_sqlite
from secretaria.models import Configuracao, Usuario
from secretaria.services import backup
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.base import SISTEMA, AcessoNegado, Ator, ErroDominio
from secretaria.services.contas import criar_usuario
from tests.trust.conftest import ADMIN


def _usuarios(url: str) -> set[str]:
    banco = abrir_banco(url, migrar=False)
    try:
        with banco.leitura() as s:
            return set(s.scalars(sa.select(Usuario.login)))
    finally:
        banco.fechar()


def _integridade(arquivo: Path) -> str:
    con = sqlite3.connect(arquivo)
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        con.close()


def _criar(banco: Banco, login: str) -> None:
    criar_usuario(banco.uow(), SISTEMA, login=login, nome=login.title(), senha="senha123", papeis=["fiscal"])


def _estragar(arquivo: Path) -> None:
    """A disk fault in the middle of the file (the header survives, pages do not)."""
    dados = bytearray(arquivo.read_bytes())
    meio = len(dados) // 2
    dados[meio : meio + 20_000] = b"\xde\xad" * 10_000
    arquivo.write_bytes(bytes(dados))


# ------------------------------------------------------------------------------------------- restore


def test_backup_estrago_restauracao_dados_de_volta(banco_sqlite: Banco, tmp_path: Path) -> None:
    _criar(banco_sqlite, "ana")
    _criar(banco_sqlite, "bruno")
    copia = tmp_path / "copia.sqlite"
    assert "integridade: ok" in backup.fazer_backup(banco_sqlite.url, copia)
    _criar(banco_sqlite, "depois")  # made after the backup: gone after the restore, as documented
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    _estragar(arquivo)
    assert _integridade(arquivo) != "ok"

    mensagem = backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)

    assert "restaurado" in mensagem and "2 registro(s) de auditoria" in mensagem
    assert _integridade(arquivo) == "ok"
    assert _usuarios(banco_sqlite.url) == {"ana", "bruno"}
    guardados = list(arquivo.parent.glob("secretaria.substituido-*.sqlite"))
    assert len(guardados) == 1 and str(guardados[0]) in mensagem  # the damaged file, kept aside
    reaberto = abrir_banco(banco_sqlite.url)
    try:
        with reaberto.leitura() as s:
            assert verificar_cadeia(s).linhas == 3  # the two users, then the restore
        _criar(reaberto, "carla")  # the restored database takes new acts
    finally:
        reaberto.fechar()


def test_restauracao_sobre_banco_sao_guarda_o_atual(banco_sqlite: Banco, tmp_path: Path) -> None:
    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    _criar(banco_sqlite, "errado")
    banco_sqlite.fechar()  # the program closed (its idle connections too): see the refusals below
    mensagem = backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)
    assert _usuarios(banco_sqlite.url) == {"ana"}
    guardado = Path(mensagem.rsplit("guardado em ", 1)[1].rstrip("."))
    assert _usuarios(f"sqlite:///{guardado}") == {"ana", "errado"}
    with banco_sqlite.leitura() as s:  # opened again, the program sees the restored data
        assert set(s.scalars(sa.select(Usuario.login))) == {"ana"}


def test_restauracao_de_arquivo_apagado(banco_sqlite: Banco, tmp_path: Path) -> None:
    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    for sufixo in ("", "-wal", "-shm"):
        Path(f"{arquivo}{sufixo}").unlink(missing_ok=True)
    backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)
    assert _usuarios(banco_sqlite.url) == {"ana"}


def _recusas(tmp_path: Path, copia_boa: Path, adulterar: Callable[..., None]) -> list[tuple[Path, str]]:
    lixo = tmp_path / "planilha.sqlite"
    lixo.write_bytes(b"PK\x03\x04 isto e uma planilha" * 500)
    outro = tmp_path / "outro.sqlite"
    con = sqlite3.connect(outro)
    con.execute("CREATE TABLE clientes (id INTEGER)")
    con.commit()
    con.close()
    estragada = tmp_path / "estragada.sqlite"
    estragada.write_bytes(copia_boa.read_bytes())
    _estragar(estragada)
    adulterada = tmp_path / "adulterada.sqlite"
    adulterada.write_bytes(copia_boa.read_bytes())
    b = abrir_banco(f"sqlite:///{adulterada}", migrar=False)
    adulterar(b, "UPDATE auditoria SET usuario_login = 'intruso' WHERE id = 1")
    b.fechar()
    return [
        (tmp_path / "nao-existe.sqlite", "não existe"),
        (lixo, "não é um banco SQLite"),
        (outro, "não é uma cópia de segurança da Secretaria"),
        (estragada, "danificada"),
        (adulterada, "auditoria"),
    ]


def test_restauracao_recusa_copia_ruim_sem_tocar_no_banco(
    banco_sqlite: Banco, tmp_path: Path, adulterar: Callable[..., None]
) -> None:
    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    antes = arquivo.read_bytes()
    for origem, motivo in _recusas(tmp_path, copia, adulterar):
        with pytest.raises(ErroBanco, match=motivo):
            backup.restaurar(origem, banco_sqlite.url, ator=ADMIN)
        assert arquivo.read_bytes() == antes, origem
    assert not list(arquivo.parent.glob("*.substituido-*"))


def test_restaurar_no_postgresql_indica_pg_restore(tmp_path: Path) -> None:
    with pytest.raises(ErroBanco, match="pg_restore"):
        backup.restaurar(tmp_path / "x.sqlite", "postgresql+psycopg://u@127.0.0.1:1/x", ator=ADMIN)


# --------------------------------------------------------------------------------------------- on demand


def test_backup_nao_sobrescreve(banco_sqlite: Banco, tmp_path: Path) -> None:
    destino = tmp_path / "ja-existe.sqlite"
    destino.write_bytes(b"importante")
    with pytest.raises(ErroBanco, match="já existe"):
        backup.fazer_backup(banco_sqlite.url, destino)
    assert destino.read_bytes() == b"importante"


def test_backup_sem_destino_vai_para_a_pasta_backups(banco_sqlite: Banco) -> None:
    _criar(banco_sqlite, "ana")
    mensagem = backup.fazer_backup(banco_sqlite.url)
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    feitas = list((arquivo.parent / "backups").glob("secretaria-*.sqlite"))
    assert len(feitas) == 1 and str(feitas[0]) in mensagem
    assert _usuarios(f"sqlite:///{feitas[0]}") == {"ana"}


def test_backup_postgresql_com_pg_dump(banco: Banco, tmp_path: Path) -> None:
    """PostgreSQL: pg_dump runs when installed, and its file restores into a new database with the data."""
    if banco.eh_sqlite:
        pytest.skip("só PostgreSQL")
    _criar(banco, "ana")
    destino = tmp_path / "copia.dump"
    mensagem = backup.fazer_backup(banco.url, destino)
    if "não está instalado" in mensagem:
        assert "pg_dump --format=custom" in mensagem
        pytest.skip("pg_dump não instalado neste computador")
    assert destino.read_bytes().startswith(b"PGDMP")
    nome = f"secretaria_restaurado_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(sa.make_url(banco.url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{nome}"')
    try:
        alvo = sa.make_url(banco.url).set(database=nome)
        subprocess.run(
            [
                "pg_restore",
                "--no-owner",
                f"--dbname={alvo.set(drivername='postgresql').render_as_string(False)}",
                str(destino),
            ],
            check=True,
            capture_output=True,
        )
        url_alvo = alvo.render_as_string(hide_password=False)
        assert _usuarios(url_alvo) == {"ana"}
        restaurado = abrir_banco(url_alvo)
        try:
            with restaurado.leitura() as s:
                assert verificar_cadeia(s).integra
        finally:
            restaurado.fechar()
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
        admin.dispose()


# ------------------------------------------------------------------------------------------------- daily


def _dias(banco: Banco) -> list[str]:
    arquivo = arquivo_sqlite(banco.url)
    assert arquivo is not None
    return [p.name for p in backup.copias_diarias(arquivo)]


def test_copia_diaria_uma_por_dia_e_mantem_as_ultimas_n(
    banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    _criar(banco_sqlite, "ana")
    dia = date(2026, 3, 1)
    monkeypatch.setattr("secretaria.relogio.hoje", lambda: dia)
    primeira = backup.copia_diaria(banco_sqlite)
    assert primeira.copia is not None and primeira.copia.name == "secretaria-2026-03-01.sqlite"
    assert _usuarios(f"sqlite:///{primeira.copia}") == {"ana"}
    assert backup.copia_diaria(banco_sqlite).copia is None  # second opening the same day: nothing new
    backup.definir_copias_mantidas(banco_sqlite.uow(), SISTEMA, quantidade=3)
    for i in range(1, 6):
        dia = date(2026, 3, 1) + timedelta(days=i)
        backup.copia_diaria(banco_sqlite)
    assert _dias(banco_sqlite) == [f"secretaria-2026-03-0{d}.sqlite" for d in (4, 5, 6)]
    pasta = primeira.copia.parent
    assert not list(pasta.glob(".*parcial"))  # no half copy left behind


def test_copia_diaria_padrao_mantem_sete(banco_sqlite: Banco) -> None:
    for i in range(10):
        backup.copia_diaria(banco_sqlite, hoje=date(2026, 1, 1) + timedelta(days=i))
    assert len(_dias(banco_sqlite)) == backup.MANTER_PADRAO == 7
    assert _dias(banco_sqlite)[-1] == "secretaria-2026-01-10.sqlite"


def test_copia_diaria_nao_apaga_outros_arquivos(banco_sqlite: Banco) -> None:
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    pasta = arquivo.parent / "backups"
    pasta.mkdir()
    alheio = pasta / "secretaria-importante.sqlite"
    alheio.write_bytes(b"x")
    backup.definir_copias_mantidas(banco_sqlite.uow(), SISTEMA, quantidade=1)
    for i in range(3):
        backup.copia_diaria(banco_sqlite, hoje=date(2026, 1, 1) + timedelta(days=i))
    assert alheio.exists() and len(_dias(banco_sqlite)) == 1


def test_configuracao_invalida_volta_ao_padrao(banco_sqlite: Banco) -> None:
    with banco_sqlite.uow() as uow:
        uow.session.add(Configuracao(chave=backup.CHAVE_MANTER, valor="muitas"))
        uow.commit()
    with banco_sqlite.leitura() as s:
        assert backup.copias_mantidas(s) == 7


def test_definir_copias_mantidas_exige_administrador_e_faixa(banco: Banco) -> None:
    fiscal = Ator("fiscal1", "Fiscal", frozenset({"fiscal"}))
    with pytest.raises(AcessoNegado, match="Administrador"):
        backup.definir_copias_mantidas(banco.uow(), fiscal, quantidade=3)
    for ruim in (0, -1, 366, True):
        with pytest.raises(ErroDominio, match="de 1 a 365"):
            backup.definir_copias_mantidas(banco.uow(), SISTEMA, quantidade=ruim)
    backup.definir_copias_mantidas(banco.uow(), SISTEMA, quantidade=30)
    with banco.leitura() as s:
        assert backup.copias_mantidas(s) == 30
        assert verificar_cadeia(s).linhas == 1  # the setting change is audited


def test_copia_diaria_no_postgresql_nao_faz_nada(banco: Banco) -> None:
    if banco.eh_sqlite:
        pytest.skip("só PostgreSQL")
    assert backup.copia_diaria(banco).copia is None
