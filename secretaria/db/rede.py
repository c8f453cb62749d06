"""The refusal of a SQLite file on a network share (WAL does not work over SMB or NFS)."""

from __future__ import annotations

import ntpath
import os
import re
import sys
from pathlib import Path

from secretaria.db.falhas import ErroBanco

VARIAVEL_REDE = "SECRETARIA_SQLITE_EM_REDE"
"""Set to 1 to open a SQLite file on a network share anyway (to copy it off to this computer, say)."""


_SISTEMAS_DE_REDE = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "sshfs",
        "fuse.sshfs",
        "afs",
        "ceph",
        "glusterfs",
        "fuse.glusterfs",
    }
)


_MONTAGENS = Path("/proc/mounts")


_DRIVE_REMOTE = 4  # GetDriveTypeW: a mapped network drive


def conferir_pasta_local(arquivo: Path) -> None:
    """Refuse a SQLite file on a network share unless VARIAVEL_REDE=1: the program runs SQLite in WAL mode,
    whose shared memory and locks do not work over SMB or NFS; several PCs writing one file there corrupt
    it. Several PCs are what the PostgreSQL server is for."""
    onde = pasta_de_rede(arquivo)
    if onde is None or os.environ.get(VARIAVEL_REDE) == "1":
        return
    raise ErroBanco(
        f"O banco de dados {arquivo} está numa pasta de rede ({onde}). O SQLite não funciona com segurança "
        "em pastas compartilhadas (SMB, NFS): o arquivo pode ser corrompido quando é usado pela rede.\n"
        "Nada foi aberto. Deixe o arquivo numa pasta deste computador ou, para usar o programa em vários "
        "computadores, use um servidor PostgreSQL (veja o README, seção “Servidor PostgreSQL”).\n"
        f"Para abri-lo mesmo assim (por exemplo, só para copiá-lo para este computador), defina a variável "
        f"{VARIAVEL_REDE}=1."
    )


def pasta_de_rede(arquivo: Path) -> str | None:
    """Which network share `arquivo` lies on, as the message names it; None when local (or unknown: macOS)."""
    if sys.platform == "win32":
        return _rede_windows(str(arquivo))
    if sys.platform.startswith("linux"):
        return _rede_linux(arquivo)
    return None


def _rede_windows(caminho: str) -> str | None:
    """A UNC path (\\\\servidor\\pasta, \\\\?\\UNC\\servidor\\pasta) or a mapped network drive."""
    unidade = ntpath.splitdrive(caminho)[0] or ntpath.splitdrive(os.getcwd())[0]
    unidade = unidade.replace("/", "\\")
    if unidade.startswith(("\\\\?\\", "\\\\.\\")):  # the long form of a path: \\?\C:\… is local
        unidade = unidade[4:]
        if unidade.upper().startswith("UNC\\"):
            return f"compartilhamento \\\\{unidade[4:]}"
    elif unidade.startswith("\\\\"):
        return f"compartilhamento {unidade}"
    if len(unidade) == 2 and unidade[1] == ":" and _tipo_de_unidade(unidade + "\\") == _DRIVE_REMOTE:
        return f"unidade de rede {unidade.upper()}"
    return None


def _tipo_de_unidade(raiz: str) -> int:
    """GetDriveTypeW of a drive's root ("Z:\\"). Windows only."""
    import ctypes

    return int(getattr(ctypes, "windll").kernel32.GetDriveTypeW(raiz))  # noqa: B009 - absent off Windows


def _rede_linux(arquivo: Path) -> str | None:
    """The file system of the mount `arquivo` is on (the deepest mount point above it, /proc/mounts)."""
    try:
        linhas = _MONTAGENS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    caminho = os.path.realpath(arquivo)
    ponto, tipo = "", ""
    for linha in linhas:
        partes = linha.split()
        if len(partes) < 3:
            continue
        montagem = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), partes[1])  # "\040" is a space
        dentro = caminho == montagem or caminho.startswith(montagem.rstrip("/") + "/")
        if dentro and len(montagem) >= len(ponto):  # the deepest; of two on one point, the later
            ponto, tipo = montagem, partes[2]
    return f"{tipo} em {ponto}" if tipo in _SISTEMAS_DE_REDE else None
