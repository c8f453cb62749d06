"""Backups on a full disk (a clear refusal, nothing left behind), a SQLite file on a network share
(refused: WAL does not work over SMB/NFS), and the Windows-only branches of backups and `servidor
preparar`, run here by patching `sys.platform` and the one Windows call each makes."""

from __future__ import annotations

import errno
import os
import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from secretaria import cli, db
from secretaria.db import Banco, ErroBanco, abrir_banco, arquivo_sqlite, conferir_pasta_local, pasta_de_rede
from secretaria.services import backup
from tests.trust.conftest import ADMIN

# ------------------------------------------------------------------------------------------ full disk


def _sqlite_cheio(
    original: Callable[..., None],
) -> Callable[[sqlite3.Connection, sqlite3.Connection, object], None]:
    """The copy step meeting a disk that fills after two pages: SQLite's own SQLITE_FULL, its journal
    written beside the copy first."""

    def copiar(fonte: sqlite3.Connection, alvo: sqlite3.Connection, progresso: object) -> None:
        alvo.execute("PRAGMA max_page_count = 2")
        original(fonte, alvo, progresso)

    return copiar


def _journal_e_falha(exc: BaseException) -> Callable[[sqlite3.Connection, sqlite3.Connection, object], None]:
    """The copy step leaving a `-journal` beside the copy (what a full disk left) and failing with `exc`."""

    def copiar(fonte: sqlite3.Connection, alvo: sqlite3.Connection, progresso: object) -> None:
        arquivo = alvo.execute("PRAGMA database_list").fetchone()[2]
        Path(f"{arquivo}-journal").write_bytes(b"\0" * 512)
        raise exc

    return copiar


DISCOS_CHEIOS = {
    "sqlite_full": lambda: _sqlite_cheio(db.copia._copiar_paginas),
    "sqlite_mensagem": lambda: _journal_e_falha(sqlite3.OperationalError("database or disk is full")),
    "enospc": lambda: _journal_e_falha(OSError(errno.ENOSPC, "No space left on device")),
}


@pytest.mark.parametrize("caso", list(DISCOS_CHEIOS))
def test_backup_com_disco_cheio_recusa_sem_deixar_nada(
    caso: str,
    url_sqlite: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arquivo = arquivo_sqlite(url_sqlite)
    assert arquivo is not None
    monkeypatch.setattr(db.copia, "_copiar_paginas", DISCOS_CHEIOS[caso]())
    monkeypatch.setattr("secretaria.relogio.hoje", lambda: date(2026, 4, 7))
    destino = tmp_path / "copias"
    destino.mkdir()

    for argumentos in (
        ["backup", "--db", url_sqlite],
        ["backup", str(destino / "manual.sqlite"), "--db", url_sqlite],
        ["backup", "--diaria", "--db", url_sqlite],
    ):
        codigo = cli.main(argumentos)
        err = capsys.readouterr().err
        assert codigo == cli.SAIDA_ERRO, argumentos
        assert err.startswith("secretaria: O disco está cheio") and "nada foi gravado" in err
        assert "Traceback" not in err
        assert list((arquivo.parent / "backups").iterdir()) == []
        assert list(destino.iterdir()) == []


def test_copia_diaria_da_janela_com_disco_cheio_avisa_e_abre(
    url_sqlite: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    arquivo = arquivo_sqlite(url_sqlite)
    assert arquivo is not None
    monkeypatch.setattr(db.copia, "_copiar_paginas", _sqlite_cheio(db.copia._copiar_paginas))
    monkeypatch.setattr("secretaria.ui.app.executar", lambda banco, demo: 0)
    assert cli.main(["--db", url_sqlite]) == 0
    assert "a cópia de segurança diária não foi feita: O disco está cheio" in capsys.readouterr().err
    assert list((arquivo.parent / "backups").iterdir()) == []


# --------------------------------------------------------------------------------------- network share

MONTAGENS = (
    "/dev/sda1 / ext4 rw 0 0\n"
    "//servidor/fiscalizacao /mnt/rede\\040da\\040secretaria cifs rw 0 0\n"
    "servidor:/dados /mnt/nfs nfs4 rw 0 0\n"
    "/dev/sdb1 /mnt/nfs/disco ext4 rw 0 0\n"
    "ana@servidor:/ /home/ana/remoto fuse.sshfs rw 0 0\n"
)


@pytest.fixture
def montagens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Point the mount table at a file of the test's: `montar(linhas)`."""
    tabela = tmp_path / "mounts"
    monkeypatch.setattr(db.rede, "_MONTAGENS", tabela)
    monkeypatch.setattr(sys, "platform", "linux")

    def montar(linhas: str) -> None:
        tabela.write_text(linhas, encoding="utf-8")

    return montar


def test_montagens_de_rede_no_linux(montagens: Callable[[str], None]) -> None:
    montagens(MONTAGENS)
    assert pasta_de_rede(Path("/home/ana/secretaria.sqlite")) is None
    assert (
        pasta_de_rede(Path("/mnt/rede da secretaria/a/secretaria.sqlite"))
        == "cifs em /mnt/rede da secretaria"
    )
    assert pasta_de_rede(Path("/mnt/rede da secretariaX/secretaria.sqlite")) is None  # a prefix, not a folder
    assert pasta_de_rede(Path("/mnt/nfs/secretaria.sqlite")) == "nfs4 em /mnt/nfs"
    assert pasta_de_rede(Path("/mnt/nfs/disco/secretaria.sqlite")) is None  # a local disk mounted inside
    assert pasta_de_rede(Path("/home/ana/remoto/x.sqlite")) == "fuse.sshfs em /home/ana/remoto"


def test_sqlite_em_pasta_de_rede_recusado_sem_criar_nada(
    montagens: Callable[[str], None],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pasta = tmp_path / "compartilhada"
    pasta.mkdir()
    montagens(f"/dev/sda1 / ext4 rw 0 0\n//servidor/x {pasta} smb3 rw 0 0\n")
    url = db.url_sqlite(pasta / "secretaria.sqlite")
    monkeypatch.delenv(db.VARIAVEL_REDE, raising=False)

    with pytest.raises(ErroBanco) as recusa:
        abrir_banco(url)
    mensagem = str(recusa.value)
    assert f"está numa pasta de rede (smb3 em {pasta})" in mensagem
    assert "PostgreSQL" in mensagem and f"{db.VARIAVEL_REDE}=1" in mensagem
    assert list(pasta.iterdir()) == []

    monkeypatch.setenv(db.VARIAVEL_REDE, "1")  # asked for: opened (and created)
    abrir_banco(url).fechar()
    feitos = sorted(p.name for p in pasta.iterdir())
    assert "secretaria.sqlite" in feitos

    monkeypatch.delenv(db.VARIAVEL_REDE)
    assert cli.main(["backup", "--db", url]) == cli.SAIDA_ERRO
    assert "pasta de rede" in capsys.readouterr().err
    assert sorted(p.name for p in pasta.iterdir()) == feitos  # no backups folder made


def test_restaurar_em_pasta_de_rede_recusado(
    montagens: Callable[[str], None], banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    antes = arquivo.read_bytes()
    montagens(f"/dev/sda1 / ext4 rw 0 0\nservidor:/x {arquivo.parent} nfs rw 0 0\n")
    monkeypatch.delenv(db.VARIAVEL_REDE, raising=False)
    with pytest.raises(ErroBanco, match="pasta de rede"):
        backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)
    assert arquivo.read_bytes() == antes


@pytest.mark.parametrize(
    ("caminho", "esperado"),
    [
        (r"\\servidor\fiscalizacao\secretaria.sqlite", r"compartilhamento \\servidor\fiscalizacao"),
        ("//servidor/fiscalizacao/secretaria.sqlite", r"compartilhamento \\servidor\fiscalizacao"),
        (r"\\?\UNC\servidor\fiscalizacao\secretaria.sqlite", r"compartilhamento \\servidor\fiscalizacao"),
        (r"Z:\Fiscalização #2 100%\secretaria.sqlite", "unidade de rede Z:"),
        (r"z:/secretaria.sqlite", "unidade de rede Z:"),
        (r"\\?\Z:\secretaria.sqlite", "unidade de rede Z:"),
        (r"C:\Users\ana\AppData\Local\Secretaria\secretaria.sqlite", None),
        (r"\\?\C:\Users\ana\secretaria.sqlite", None),
    ],
)
def test_compartilhamentos_e_unidades_de_rede_no_windows(
    caminho: str, esperado: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    perguntadas: list[str] = []

    def tipo(raiz: str) -> int:  # GetDriveTypeW: Z: is a mapped share, C: a fixed disk (3)
        perguntadas.append(raiz)
        return db.rede._DRIVE_REMOTE if raiz.upper() == "Z:\\" else 3

    monkeypatch.setattr(db.rede, "_tipo_de_unidade", tipo)
    monkeypatch.setattr(sys, "platform", "win32")
    assert pasta_de_rede(Path(caminho)) == esperado
    assert all(raiz[1:] == ":\\" for raiz in perguntadas)  # only ever a drive's root
    monkeypatch.delenv(db.VARIAVEL_REDE, raising=False)
    if esperado is not None:
        with pytest.raises(ErroBanco, match="PostgreSQL"):
            conferir_pasta_local(Path(caminho))


# ------------------------------------------------------------------------------------------- restore


def _abertos_neste_processo() -> set[str]:
    abertos = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            abertos.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return abertos


def test_restaurar_nao_renomeia_arquivo_que_mantem_aberto(
    banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows cannot rename a file its process holds open: every rename of a restore happens with none of
    the names open here (the current file unreadable: the copy is renamed into its place)."""
    copia = tmp_path / "copia.sqlite"
    backup.fazer_backup(banco_sqlite.url, copia)
    banco_sqlite.fechar()
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    arquivo.write_bytes(b"nada de banco aqui " * 1000)
    renomeados: list[tuple[str, str]] = []
    replace = os.replace

    def conferido(origem: str | os.PathLike[str], destino: str | os.PathLike[str]) -> None:
        abertos = _abertos_neste_processo()
        assert os.path.realpath(origem) not in abertos, f"{origem} renomeado aberto"
        assert os.path.realpath(destino) not in abertos, f"{destino} substituído aberto"
        renomeados.append((os.fspath(origem), os.fspath(destino)))
        replace(origem, destino)

    monkeypatch.setattr(os, "replace", conferido)
    backup.restaurar(copia, banco_sqlite.url, ator=ADMIN)
    assert any(destino == str(arquivo) for _o, destino in renomeados)
    assert backup.verificar_copia(arquivo).registros_auditoria >= 1


# ------------------------------------------------------------------------------------------ Windows


def test_parciais_abandonadas_removidas_no_windows(
    banco_sqlite: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    pasta = arquivo.parent / "backups"
    pasta.mkdir()
    viva = pasta / ".secretaria-2026-04-07.sqlite.111.parcial"
    morta = pasta / ".secretaria-2026-04-07.sqlite.222.parcial"
    journal = pasta / ".secretaria-2026-04-07.sqlite.222.parcial-journal"
    for p in (viva, morta, journal):
        p.write_bytes(b"meia copia")
    perguntados: list[int] = []

    def vivo(pid: int) -> bool:  # OpenProcess/GetExitCodeProcess: 111 still running
        perguntados.append(pid)
        return pid == 111

    monkeypatch.setattr(backup, "_processo_vivo_windows", vivo)
    monkeypatch.setattr(sys, "platform", "win32")
    backup.remover_parciais_abandonadas(banco_sqlite)
    assert sorted(p.name for p in pasta.iterdir()) == [viva.name]
    assert set(perguntados) == {111, 222}


def test_backup_diaria_agendado_tambem_remove_parciais_abandonadas(
    url_sqlite: str, capsys: pytest.CaptureFixture[str]
) -> None:
    arquivo = arquivo_sqlite(url_sqlite)
    assert arquivo is not None
    pasta = arquivo.parent / "backups"
    pasta.mkdir()
    morto = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    abandonada = pasta / f".secretaria-2026-11-29.sqlite.{int(morto.stdout)}.parcial"
    abandonada.write_bytes(b"meia copia")
    assert cli.main(["backup", "--diaria", "--db", url_sqlite]) == 0
    assert "Cópia diária gravada" in capsys.readouterr().out
    assert [p.name for p in pasta.iterdir()] == ["secretaria-2026-11-30.sqlite"]


DESTINO_WINDOWS = Path(r"C:\Users\Ana Maria\Fiscalização #2 100%\secretaria-20261130.dump")


def test_comando_pg_dump_para_o_cmd_do_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    comando = backup.comando_pg_dump(
        "postgresql+psycopg://ana:segredo@servidor:5433/secretaria", DESTINO_WINDOWS
    )
    assert comando == (
        'pg_dump --format=custom "--file=C:\\Users\\Ana Maria\\Fiscalização #2 100%\\secretaria-20261130.dump" '
        "--host=servidor --port=5433 --username=ana secretaria"
    )
    assert "segredo" not in comando


def test_comando_pg_dump_para_o_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    destino = Path("/home/ana/Fiscalização #2 100%/o'dump.dump")
    comando = backup.comando_pg_dump("postgresql+psycopg://ana@servidor/secretaria", destino)
    assert shlex.split(comando) == [
        "pg_dump",
        "--format=custom",
        "--file=/home/ana/Fiscalização #2 100%/o'dump.dump",
        "--host=servidor",
        "--username=ana",
        "secretaria",
    ]


def test_dump_vai_para_a_pasta_de_dados_e_nao_para_a_pasta_atual(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backup, "pasta_dados", lambda: tmp_path / "dados")
    monkeypatch.chdir(tmp_path)
    destino = backup.destino_sugerido("postgresql+psycopg://ana@servidor/secretaria")
    assert destino.parent == tmp_path / "dados" / "backups"
    assert destino.name.startswith("secretaria-") and destino.suffix == ".dump"


@pytest.mark.parametrize(("plataforma", "so_voce"), [("win32", False), ("linux", True)])
def test_servidor_preparar_so_diz_so_voce_onde_e_verdade(
    plataforma: str, so_voce: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", plataforma)
    texto = cli._quem_pode_ler()
    assert ("só você pode lê-lo" in texto) is so_voce
    if not so_voce:
        assert "permissões da pasta" in texto and "apague-o" in texto
