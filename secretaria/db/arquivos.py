"""The SQLite files this process has open, so that a file dialog can refuse to overwrite one."""

from __future__ import annotations

import os
from pathlib import Path

_SUFIXOS_SQLITE = ("", "-wal", "-shm", "-journal")


_arquivos_abertos: dict[Path, int] = {}


def registrar_arquivo(arquivo: Path, abertos: int) -> None:
    chave = arquivo.absolute()
    restantes = _arquivos_abertos.get(chave, 0) + abertos
    if restantes > 0:
        _arquivos_abertos[chave] = restantes
    else:
        _arquivos_abertos.pop(chave, None)


def eh_arquivo_de_banco_aberto(caminho: Path) -> bool:
    """Whether `caminho` is a file of a SQLite database this process has open (the database, its -wal,
    -shm or -journal), by path or as the same file under another name. Only stat() is used: opening the
    file to find out would drop the process's locks on it (see `secretaria.ui.seletor_arquivo`)."""
    alvo = caminho.absolute()
    for arquivo in _arquivos_abertos:
        for sufixo in _SUFIXOS_SQLITE:
            parte = Path(f"{arquivo}{sufixo}")
            if parte == alvo:
                return True
            try:
                if os.path.samefile(parte, alvo):
                    return True
            except OSError:
                continue
    return False
