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
from secretaria.services.semente import abrir_e_semear
from tests.helpers.bancos import logins
from tests.trust.conftest import ADMIN


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
    assert logins(banco_sqlite.url) == {"ana", "bruno"}
    guardados = list(arquivo.parent.glob("secretaria.substituido-*.sqlite"))
    assert len(guardados) == 1 and str(guardados[0]) in mensagem  # the damaged file, kept aside
    reaberto = abrir_e_semear(banco_sqlite.url)
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
    assert logins(banco_sqlite.url) == {"ana"}
    guardado = Path(mensagem.rsplit("guardado em ", 1)[1].rstrip("."))
    assert logins(f"sqlite:///{guardado}") == {"ana", "errado"}
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
    assert logins(banco_sqlite.url) == {"ana"}


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
    assert logins(f"sqlite:///{feitas[0]}") == {"ana"}


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
        assert logins(url_alvo) == {"ana"}
        restaurado = abrir_e_semear(url_alvo)
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
    assert logins(f"sqlite:///{primeira.copia}") == {"ana"}
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


# ------------------------------------------------------------------------- restore refuses what it cannot restore

_GATILHOS = ("auditoria_sem_alteracao", "auditoria_sem_exclusao")


def _variante(copia: Path, destino: Path, *sql: str) -> Path:
    """The copy altered behind the program's back (foreign keys and the audit's triggers off)."""
    destino.write_bytes(copia.read_bytes())
    con = sqlite3.connect(destino)
    try:
        gatilhos = dict(con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
        con.execute("PRAGMA foreign_keys=OFF")
        for nome in _GATILHOS:
            con.execute(f"DROP TRIGGER IF EXISTS {nome}")
        for comando in sql:
            if comando == "RECRIAR GATILHOS":
                for texto in gatilhos.values():
                    con.execute(texto)
            else:
                con.execute(comando)
        con.commit()
    finally:
        con.close()
    return destino


ADULTERACOES = {
    # the intruder puts the triggers back after emptying the audit: only the emptiness gives it away
    "auditoria esvaziada": (
        ["DELETE FROM auditoria", "RECRIAR GATILHOS"],
        "nenhum registro de auditoria: a auditoria foi apagada",
    ),
    "sem a tabela decisao": (["DROP TABLE decisao", "RECRIAR GATILHOS"], "falta a tabela decisao"),
    "sem um índice": (["DROP INDEX ix_auto_recidiva", "RECRIAR GATILHOS"], "falta o índice ix_auto_recidiva"),
    "sem uma coluna": (
        ["ALTER TABLE operadora DROP COLUMN nome_fantasia", "RECRIAR GATILHOS"],
        "a tabela operadora difere (falta a coluna nome_fantasia)",
    ),
    "sem os gatilhos da auditoria": ([], "falta o gatilho auditoria_sem_alteracao"),
    "gatilho que apaga": (
        [
            "RECRIAR GATILHOS",
            "CREATE TRIGGER limpar AFTER INSERT ON auto_infracao BEGIN DELETE FROM anexo; END",
        ],
        "tem um gatilho limpar, que não faz parte do esquema",
    ),
    # the chain is whole and the schema complete, but a record no longer matches what its audit wrote
    "usuário alterado por fora": (
        ["UPDATE usuario SET nome = 'Intruso' WHERE login = 'ana'", "RECRIAR GATILHOS"],
        "não confere com a sua auditoria: O usuário",
    ),
    "chave estrangeira quebrada": (
        [
            "UPDATE usuario_papel SET usuario_id = 999 WHERE usuario_id = (SELECT max(id) FROM usuario)",
            "RECRIAR GATILHOS",
        ],
        "1 registro da tabela usuario_papel (para usuario)",
    ),
}


@pytest.mark.parametrize("caso", list(ADULTERACOES))
def test_restauracao_recusa_copia_incompleta_sem_tocar_no_banco(
    caso: str, banco_sqlite: Banco, tmp_path: Path
) -> None:
    _criar(banco_sqlite, "ana")
    _criar(banco_sqlite, "bruno")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    _criar(banco_sqlite, "depois")
    banco_sqlite.fechar()
    comandos, motivo = ADULTERACOES[caso]
    ruim = _variante(copia, tmp_path / "ruim.sqlite", *comandos)
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None

    with pytest.raises(ErroBanco) as recusa:
        backup.restaurar(ruim, banco_sqlite.url, ator=ADMIN)

    assert motivo in str(recusa.value) and "Nada foi alterado" in str(recusa.value)
    assert logins(banco_sqlite.url) == {"ana", "bruno", "depois"}
    assert not list(arquivo.parent.glob("*.substituido-*"))
    assert backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)  # the untouched copy still restores


def test_copia_sem_registros_e_sem_auditoria_e_aceita(banco_sqlite: Banco, tmp_path: Path) -> None:
    """A database nobody has used yet (only the seeded catalogue) has no audit rows, rightly."""
    copia = tmp_path / "vazia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()
    assert backup.verificar_copia(copia).registros_auditoria == 0
    backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)


def test_copia_de_versao_anterior_e_conferida_pelo_esquema_dela_e_atualizada(
    banco_sqlite: Banco, tmp_path: Path
) -> None:
    from secretaria import migracoes

    antiga = tmp_path / "antiga.sqlite"
    engine = sa.create_engine(f"sqlite:///{antiga}")
    migracoes.atualizar(engine, "0001")  # before the audit's triggers existed
    engine.dispose()
    assert backup.verificar_copia(antiga).revisao == "0001"  # its revision's schema: no triggers expected
    banco_sqlite.fechar()

    backup.restaurar(antiga, banco_sqlite.url, ator=ADMIN)

    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    con = sqlite3.connect(arquivo)
    try:
        gatilhos = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        revisao = con.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    finally:
        con.close()
    assert set(_GATILHOS) <= gatilhos and revisao == migracoes.revisao_head()


def test_esquema_esperado_da_versao_atual_tem_todo_o_modelo() -> None:
    from secretaria import migracoes
    from secretaria.models import Base

    esperado = migracoes.esquema_da_revisao(migracoes.revisao_head())
    assert {n for t, n in esperado if t == "tabela"} == set(Base.metadata.tables) | {"alembic_version"}
    indices = {i.name for t in Base.metadata.tables.values() for i in t.indexes}
    assert indices <= {n for t, n in esperado if t == "índice"}
    assert {("gatilho", g) for g in _GATILHOS} <= set(esperado)


def _segurar_aberto(url: str, codigo: str) -> subprocess.Popen[str]:
    """A second program with the database open: a child process that connects like the program does, runs
    `codigo` and waits until killed."""
    import sys

    from tests.trust.conftest import _ambiente_filho

    filho = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from secretaria.db import abrir_banco\n"
            f"banco = abrir_banco({url!r}, migrar=False)\n"
            "conn = banco.engine.connect()\n"
            f"{codigo}\n"
            "print('pronto', flush=True)\n"
            "time.sleep(120)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=_ambiente_filho(),
    )
    assert filho.stdout is not None and filho.stdout.readline().strip() == "pronto"
    return filho


@pytest.mark.parametrize(
    "codigo",
    [
        "conn.exec_driver_sql('SELECT count(*) FROM usuario').scalar(); conn.commit()",  # open, idle
        "conn.exec_driver_sql('SELECT count(*) FROM usuario').scalar()",  # a read transaction open
    ],
    ids=["ocioso", "leitura-aberta"],
)
def test_restauracao_recusada_com_o_banco_aberto_em_outro_programa(
    codigo: str, banco_sqlite: Banco, tmp_path: Path
) -> None:
    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    _criar(banco_sqlite, "depois")
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    filho = _segurar_aberto(banco_sqlite.url, codigo)
    try:
        with pytest.raises(ErroBanco, match=r"aberto em outro computador ou programa.*Nada foi alterado"):
            backup.preparar_restauracao(copia, banco_sqlite.url, ator=ADMIN)
        with pytest.raises(ErroBanco, match=r"aberto em outro computador ou programa.*Nada foi alterado"):
            backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)
    finally:
        with filho:  # leaving it closes the child's stdout pipe and waits for the child
            filho.kill()
    assert logins(banco_sqlite.url) == {"ana", "depois"}
    assert not list(arquivo.parent.glob("*.substituido-*"))
    backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)  # closed everywhere: now it restores
    assert logins(banco_sqlite.url) == {"ana"}


def test_restauracao_recusada_com_uma_sessao_aberta_neste_processo(
    banco_sqlite: Banco, tmp_path: Path
) -> None:
    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    with banco_sqlite.leitura() as s:
        s.scalars(sa.select(Usuario.login)).all()
        with pytest.raises(ErroBanco, match="aberto em outro computador ou programa"):
            backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)


def test_ninguem_abre_o_banco_durante_a_restauracao(banco_sqlite: Banco, tmp_path: Path) -> None:
    """The lock taken to prove nobody had it open is kept until the restored file is migrated and audited."""
    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    tentativas: list[str] = []

    def progresso(_feitas: int, _total: int, etapa: str) -> None:
        if "Atualizando" not in etapa and "Conferindo o banco" not in etapa:
            return
        outro = sqlite3.connect(arquivo, timeout=0.2)
        try:
            outro.execute("SELECT count(*) FROM usuario").fetchone()
            tentativas.append("leu")
        except sqlite3.OperationalError as exc:
            tentativas.append(str(exc))
        finally:
            outro.close()

    backup.restaurar(copia, banco_sqlite.url, ator=ADMIN, progresso=progresso)
    assert tentativas == ["database is locked"] * 2
    assert logins(banco_sqlite.url) == {"ana"}  # and free again afterwards


def test_duas_restauracoes_no_mesmo_segundo_guardam_dois_arquivos(
    banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    _criar(banco_sqlite, "primeiro")
    banco_sqlite.fechar()
    monkeypatch.setattr("secretaria.relogio.agora", lambda: datetime(2026, 11, 30, 10, 0, 0))

    primeira = backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)
    segunda = backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)

    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    g1 = arquivo.with_name("secretaria.substituido-20261130-100000.sqlite")
    g2 = arquivo.with_name("secretaria.substituido-20261130-100000-2.sqlite")
    assert str(g1) in primeira and str(g2) in segunda
    assert logins(f"sqlite:///{g1}") == {"ana", "primeiro"}  # the first one's aside copy survives
    assert logins(f"sqlite:///{g2}") == {"ana"}


def test_restauracao_fica_na_auditoria_do_banco_restaurado(banco_sqlite: Banco, tmp_path: Path) -> None:
    import hashlib
    import json

    from secretaria.models import Auditoria

    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()

    mensagem = backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)

    reaberto = abrir_banco(banco_sqlite.url, migrar=False)
    try:
        with reaberto.leitura() as s:
            assert verificar_cadeia(s).integra
            ultimo = s.scalars(sa.select(Auditoria).order_by(Auditoria.id.desc()).limit(1)).one()
            acao, login, entidade = ultimo.acao, ultimo.usuario_login, ultimo.entidade
            depois = json.loads(ultimo.depois or "{}")
    finally:
        reaberto.fechar()
    assert (acao, login, entidade) == ("restaurar_banco", "admin", "banco")
    assert depois["copia"] == str(copia)
    assert depois["sha256"] == hashlib.sha256(copia.read_bytes()).hexdigest()
    assert depois["guardado"] and depois["guardado"] in mensagem and Path(depois["guardado"]).is_file()
    assert depois["ultimo_registro_copia"] == 1


def test_restaurar_exige_administrador(banco_sqlite: Banco, tmp_path: Path) -> None:
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    fiscal = Ator("fiscal1", "Fiscal", frozenset({"fiscal"}))
    with pytest.raises(AcessoNegado, match="Administrador"):
        backup.preparar_restauracao(copia, banco_sqlite.url, ator=fiscal)
    with pytest.raises(AcessoNegado, match="Administrador"):
        backup.restaurar(copia, banco_sqlite.url, ator=fiscal)


def test_confirmacao_diz_o_que_se_perde(banco_sqlite: Banco, tmp_path: Path) -> None:
    import os
    from datetime import datetime

    _criar(banco_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    quando = datetime(2026, 11, 29, 18, 5).timestamp()
    os.utime(copia, (quando, quando))
    for login in ("bruno", "carla", "davi"):
        _criar(banco_sqlite, login)
    banco_sqlite.fechar()

    preparacao = backup.preparar_restauracao(copia, banco_sqlite.url, ator=ADMIN)

    texto = preparacao.descricao()
    assert "gravada em 29/11/2026 às 18:05" in texto
    assert "último registro de auditoria nela: nº 1, de 30/11/2026" in texto
    assert (
        "Será perdido o que o banco atual registrou depois dela: 3 registros de auditoria (o último, nº 4"
        in texto
    )
    assert "precisará ser lançado de novo" in texto

    outro = abrir_e_semear(f"sqlite:///{tmp_path / 'outro.sqlite'}")  # another database altogether
    try:
        _criar(outro, "zeca")
        alheia = tmp_path / "alheia.sqlite"
        backup.fazer_backup(outro.url, alheia)
    finally:
        outro.fechar()
    texto = backup.preparar_restauracao(alheia, banco_sqlite.url, ator=ADMIN).descricao()
    assert "A cópia não é um estado anterior do banco atual: os 4 registros de auditoria" in texto


def test_copia_que_e_o_proprio_banco_recusada_sem_abrir_o_arquivo(banco_sqlite: Banco) -> None:
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    with pytest.raises(ErroBanco, match="próprio banco em uso"):
        backup.preparar_restauracao(arquivo, banco_sqlite.url, ator=ADMIN)
    with pytest.raises(ErroBanco, match="próprio banco em uso"):
        backup.restaurar(arquivo, banco_sqlite.url, ator=ADMIN)
