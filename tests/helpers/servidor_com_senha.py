"""A private PostgreSQL cluster that checks passwords (scram-sha-256), for the tests that must watch the server
refuse a wrong one: the shared test server trusts every local connection.

`iniciar` runs initdb from the installed PostgreSQL binaries into a directory of its own, gives the cluster its own
port and socket directory and a pg_hba.conf with scram-sha-256 for every connection, starts it with pg_ctl and
returns the superuser's address (with its password). `parar` stops it. initdb refuses to run as root: then the
cluster belongs to the `postgres` system user, in a directory that user can reach.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SUPERUSUARIO = "postgres"


@dataclass(frozen=True)
class Cluster:
    pasta: Path
    binarios: Path
    porta: int
    senha: str
    usuario_sistema: str | None
    """The system user the cluster runs as, when the tests run as root (else the tests' own user)."""

    def url(self, banco: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSUARIO}:{self.senha}@127.0.0.1:{self.porta}/{banco}"


def binarios() -> Path | None:
    """The newest installed PostgreSQL's bin directory holding initdb and pg_ctl, or None."""
    candidatos = sorted(
        (Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    for pasta in candidatos:
        if (pasta / "initdb").is_file() and (pasta / "pg_ctl").is_file():
            return pasta
    return None


def _porta_livre() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rodar(comando: list[str], usuario: str | None) -> None:
    resultado = subprocess.run(comando, capture_output=True, text=True, user=usuario, check=False)
    if resultado.returncode != 0:
        raise RuntimeError(
            f"{comando[0]} falhou ({resultado.returncode}): {resultado.stderr or resultado.stdout}"
        )


def iniciar(pasta_base: Path, bin_dir: Path) -> Cluster:
    """initdb + pg_ctl start of a cluster under `pasta_base` (or, as root, a temporary directory of the
    `postgres` system user's)."""
    usuario: str | None = None
    if os.geteuid() == 0:
        usuario = SUPERUSUARIO
        info = pwd.getpwnam(usuario)
        pasta = Path(tempfile.mkdtemp(prefix="secretaria_pg_"))
        os.chown(pasta, info.pw_uid, info.pw_gid)
    else:
        pasta = pasta_base / "pg"
        pasta.mkdir()
    senha = secrets.token_urlsafe(16)
    arquivo_senha = pasta / "senha"
    arquivo_senha.write_text(senha + "\n", encoding="utf-8")
    if usuario is not None:
        info = pwd.getpwnam(usuario)
        os.chown(arquivo_senha, info.pw_uid, info.pw_gid)
    dados = pasta / "dados"
    _rodar(
        [
            str(bin_dir / "initdb"),
            "-D",
            str(dados),
            "-U",
            SUPERUSUARIO,
            "--auth=scram-sha-256",
            f"--pwfile={arquivo_senha}",
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        ],
        usuario,
    )
    arquivo_senha.unlink()
    (dados / "pg_hba.conf").write_text(
        "local all all scram-sha-256\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n",
        encoding="utf-8",
    )
    porta = _porta_livre()
    cluster = Cluster(pasta, bin_dir, porta, senha, usuario)
    opcoes = (
        f"-p {porta} -k {pasta} -c listen_addresses=127.0.0.1 -c password_encryption=scram-sha-256 "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60 "
        "-c shared_buffers=16MB"
    )
    _rodar(
        [str(bin_dir / "pg_ctl"), "-D", str(dados), "-o", opcoes, "-l", str(pasta / "log"), "-w", "start"],
        usuario,
    )
    return cluster


def parar(cluster: Cluster) -> None:
    """pg_ctl stop (fast) and, for a directory made here as root, its removal."""
    try:
        _rodar(
            [
                str(cluster.binarios / "pg_ctl"),
                "-D",
                str(cluster.pasta / "dados"),
                "-m",
                "fast",
                "-w",
                "stop",
            ],
            cluster.usuario_sistema,
        )
    finally:
        if cluster.usuario_sistema is not None:
            shutil.rmtree(cluster.pasta, ignore_errors=True)
