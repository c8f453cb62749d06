"""A consistent, checked copy of a live SQLite database (online backup API)."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from secretaria.db.falhas import ErroBanco, recusa_do_banco
from secretaria.db.sqlite import SQLITE_ESPERA_MS
from secretaria.db.url import uri_sqlite
from secretaria.erros import DiscoCheio, FalhaDeDisco

_log = logging.getLogger(__name__)


def copiar_sqlite(
    origem: Path, destino: Path, progresso: Callable[[int, int, str], None] | None = None
) -> None:
    """A consistent copy of a live SQLite database (online backup API), checked with integrity_check and
    against the source: the copy holds every table the source holds, and the source opened is `origem`
    itself (never a new empty file some other path named), so an empty copy is never reported as done.
    With `progresso(feitas, total, texto)`, the copy goes in steps of 1,024 pages and reports each; whatever
    `progresso` raises (Cancelar) stops the copy. A copy that fails (a full disk included) leaves nothing
    behind: the partial file and its journal are removed."""
    try:
        fonte = sqlite3.connect(uri_sqlite(origem, mode="ro"), uri=True, timeout=SQLITE_ESPERA_MS / 1000)
    except sqlite3.Error as exc:
        raise ErroBanco(
            f"Não foi possível ler o banco {origem} para copiá-lo ({exc}); nada foi copiado."
        ) from exc
    try:
        _conferir_fonte(fonte, origem)
        alvo = sqlite3.connect(destino)
        try:
            _copiar_paginas(fonte, alvo, progresso)
            resultado = _verificar_integridade(alvo, progresso)
            faltam = sorted(_objetos(fonte) - _objetos(alvo))
        finally:
            alvo.close()
    except BaseException as exc:
        _apagar_copia(destino)
        recusa = recusa_do_banco(exc) if isinstance(exc, Exception) else None
        if recusa is not None:
            onde = f"a cópia de segurança em {destino.parent}"
            texto = str(DiscoCheio(onde) if isinstance(recusa, DiscoCheio) else FalhaDeDisco(onde))
            raise ErroBanco(f"{texto} (A cópia incompleta foi apagada.)") from exc
        raise
    finally:
        fonte.close()
    if not resultado or resultado[0] != "ok":
        _apagar_copia(destino)
        raise ErroBanco(f"A cópia de segurança em {destino} não passou na verificação de integridade.")
    if faltam:
        _apagar_copia(destino)
        raise ErroBanco(
            f"A cópia de segurança em {destino} saiu incompleta (faltam {', '.join(faltam[:5])}); "
            "ela foi apagada. Tente de novo."
        )


_PAGINAS_POR_PASSO = 1024
"""Pages the online backup copies between two calls of `progresso` (4 MB of a 4 KB-page file)."""


def _copiar_paginas(
    fonte: sqlite3.Connection, alvo: sqlite3.Connection, progresso: Callable[[int, int, str], None] | None
) -> None:
    if progresso is None:
        fonte.backup(alvo)
        return

    def passo(_estado: int, restantes: int, total: int) -> None:
        progresso(total - restantes, total, "Copiando o banco de dados…")

    fonte.backup(alvo, pages=_PAGINAS_POR_PASSO, progress=passo)


_TEXTO_VERIFICACAO = "Verificando a integridade da cópia…"
_PASSOS_SQLITE_POR_AVISO = 200_000
"""SQLite virtual-machine steps between two calls of the copy's `progresso` during integrity_check (a few
milliseconds each): the bar keeps moving and Cancelar is heard while a 1 GB copy is checked (about 8 s)."""


def _verificar_integridade(
    alvo: sqlite3.Connection, progresso: Callable[[int, int, str], None] | None
) -> tuple[Any, ...] | None:
    """PRAGMA integrity_check of the copy. With `progresso`, the check (whose length SQLite does not tell)
    reports (0, 0, texto) as it runs, a busy bar, and whatever `progresso` raises (Cancelar) interrupts it
    and is raised here."""
    resultado: tuple[Any, ...] | None
    if progresso is None:
        resultado = alvo.execute("PRAGMA integrity_check").fetchone()
        return resultado
    progresso(0, 0, _TEXTO_VERIFICACAO)
    interrompido: list[BaseException] = []

    def aviso() -> int:
        try:
            progresso(0, 0, _TEXTO_VERIFICACAO)
        except BaseException as exc:  # Cancelar: SQLite stops the check when the handler answers non-zero
            interrompido.append(exc)
            return 1
        return 0

    alvo.set_progress_handler(aviso, _PASSOS_SQLITE_POR_AVISO)
    try:
        resultado = alvo.execute("PRAGMA integrity_check").fetchone()
    except sqlite3.OperationalError:
        if interrompido:
            raise interrompido[0] from None
        raise
    finally:
        alvo.set_progress_handler(None, 0)
    if interrompido:
        raise interrompido[0]
    progresso(1, 1, _TEXTO_VERIFICACAO)
    return resultado


def _conferir_fonte(fonte: sqlite3.Connection, origem: Path) -> None:
    """Refuse to copy unless the connection reads `origem` and it holds tables: a source that is empty, or
    another file than the one named, would give a "whole" copy of nothing."""
    aberto = str(fonte.execute("PRAGMA database_list").fetchone()[2] or "")
    try:
        mesmo = bool(aberto) and os.path.samefile(aberto, origem)
    except OSError:
        mesmo = False
    if not mesmo:
        raise ErroBanco(f"Não foi possível ler o banco {origem} para copiá-lo; nada foi copiado.")
    if not _objetos(fonte):
        raise ErroBanco(f"O banco {origem} está vazio (não tem nenhuma tabela); nada foi copiado.")


def _objetos(conexao: sqlite3.Connection) -> set[str]:
    """The tables, indexes, views and triggers a database holds ("tabela usuario", as a message names them)."""
    linhas = conexao.execute("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
    return {f"{_TIPOS_DE_OBJETO.get(tipo, tipo)} {nome}" for tipo, nome in linhas}


_TIPOS_DE_OBJETO = {"table": "a tabela", "index": "o índice", "trigger": "o gatilho", "view": "a visão"}


def _apagar_copia(destino: Path) -> None:
    """A failed copy and whatever SQLite wrote beside it (a full disk leaves the rollback journal)."""
    for sufixo in ("", "-journal", "-wal", "-shm"):
        try:
            Path(f"{destino}{sufixo}").unlink(missing_ok=True)
        except OSError:  # pragma: no cover - nothing more to do for a file the disk will not let go
            _log.warning("Não foi possível apagar %s%s", destino, sufixo, exc_info=True)
