"""Backups: checked copies of a SQLite database (on demand, and automatically once a day), their restore,
and on PostgreSQL pg_dump (run when it is installed, else the exact command to run).

The daily copy is taken when the program's window starts (`secretaria` with no sub-command, see
`cli._abrir_programa`), on the first start of each day: `backups/<nome>-AAAA-MM-DD.sqlite` beside the
database file, keeping the last N (Configuracao "backup_manter", default 7). A scheduled
`secretaria backup --diaria` does the same without opening the window.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import (
    SQLITE_ESPERA_MS,
    Banco,
    ErroBanco,
    UnidadeDeTrabalho,
    abrir_banco,
    arquivo_sqlite,
    copiar_sqlite,
    mascarar_url,
    resolver_url,
)
from secretaria.models import Configuracao
from secretaria.services import auditoria
from secretaria.services.base import Ator, ErroDominio, exigir_papel

PASTA_BACKUPS = "backups"
CHAVE_MANTER = "backup_manter"
MANTER_PADRAO = 7
MANTER_MAXIMO = 365
_CABECALHO_SQLITE = b"SQLite format 3\x00"


# ---------------------------------------------------------------------------------------------- on demand


def comando_pg_dump(url: str, destino: Path) -> str:
    """The pg_dump command line for `url` (never with the password: pg_dump asks for it or reads .pgpass)."""
    return " ".join(shlex.quote(p) for p in _argumentos_pg(url, destino))


def _argumentos_pg(url: str, destino: Path) -> list[str]:
    u = sa.make_url(url)
    partes = ["pg_dump", "--format=custom", f"--file={destino}"]
    if u.host:
        partes.append(f"--host={u.host}")
    if u.port:
        partes.append(f"--port={u.port}")
    if u.username:
        partes.append(f"--username={u.username}")
    partes.append(u.database or "")
    return partes


def destino_sugerido(url: str | None) -> Path:
    """Where a backup made now would go by default: the `backups` folder beside a SQLite file (the current
    folder for PostgreSQL), named with the date and time."""
    url = resolver_url(url)
    carimbo = relogio.carimbo()
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        nome = sa.make_url(url).database or "secretaria"
        return Path.cwd() / f"{nome}-{carimbo}.dump"
    return arquivo.parent / PASTA_BACKUPS / f"{arquivo.stem}-{carimbo}.sqlite"


def fazer_backup(url: str | None, destino: Path | None = None) -> str:
    """Copy the database to `destino` (default: `destino_sugerido`) and return the message for the user.

    SQLite: a consistent online copy, even with the program open, checked with integrity_check.
    PostgreSQL: runs pg_dump when it is installed on this computer, else says the exact command.
    Never overwrites an existing file.
    """
    url = resolver_url(url)
    if destino is None:
        destino = destino_sugerido(url)
        destino.parent.mkdir(parents=True, exist_ok=True)
    if destino.exists():
        raise ErroBanco(f"O destino {destino} já existe; escolha outro nome (nada foi sobrescrito).")
    if not destino.parent.is_dir():
        raise ErroBanco(f"A pasta {destino.parent} não existe; nada foi copiado.")
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        return _backup_pg(url, destino)
    if not arquivo.exists():
        raise ErroBanco(f"O arquivo do banco {arquivo} não existe; nada foi copiado.")
    banco = abrir_banco(url, migrar=False)  # refuses a file that is not a Secretaria database
    banco.fechar()
    copiar_sqlite(arquivo, destino)
    return f"Cópia de segurança gravada em {destino} (verificação de integridade: ok)."


def _backup_pg(url: str, destino: Path) -> str:
    programa = shutil.which("pg_dump")
    if programa is None:
        return (
            f"O banco {mascarar_url(url)} está num servidor PostgreSQL: a cópia é feita com pg_dump, "
            "que não está instalado neste computador.\n"
            f"Execute no servidor (ou num computador com o PostgreSQL instalado): {comando_pg_dump(url, destino)}"
        )
    u = sa.make_url(url)
    ambiente = dict(os.environ)
    if u.password:
        ambiente["PGPASSWORD"] = str(u.password)  # by environment: never on a command line or in a message
    ambiente.setdefault("PGCONNECT_TIMEOUT", "10")
    resultado = subprocess.run(
        [programa, *_argumentos_pg(url, destino)[1:]],
        env=ambiente,
        capture_output=True,
        text=True,
        check=False,
    )
    if resultado.returncode != 0:
        Path(destino).unlink(missing_ok=True)
        causa = (resultado.stderr.strip().splitlines() or ["erro desconhecido"])[-1]
        if u.password:
            causa = causa.replace(str(u.password), "***")
        raise ErroBanco(f"O pg_dump de {mascarar_url(url)} falhou: {causa}\nNada foi gravado em {destino}.")
    return f"Cópia de segurança do banco {mascarar_url(url)} gravada em {destino} (pg_dump, formato custom)."


# ------------------------------------------------------------------------------------------------- daily


def pasta_backups(arquivo: Path) -> Path:
    return arquivo.parent / PASTA_BACKUPS


def _padrao_diaria(arquivo: Path) -> re.Pattern[str]:
    return re.compile(re.escape(arquivo.stem) + r"-(\d{4}-\d{2}-\d{2})\.sqlite")


def copias_diarias(arquivo: Path) -> list[Path]:
    """The daily copies of the database file `arquivo`, oldest first."""
    pasta = pasta_backups(arquivo)
    if not pasta.is_dir():
        return []
    padrao = _padrao_diaria(arquivo)
    return sorted(p for p in pasta.iterdir() if padrao.fullmatch(p.name) and p.is_file())


def copias_mantidas(sessao: so.Session) -> int:
    """How many daily copies to keep: Configuracao "backup_manter" (1–365), else 7."""
    valor = sessao.scalar(sa.select(Configuracao.valor).where(Configuracao.chave == CHAVE_MANTER))
    try:
        n = int(str(valor).strip())
    except (TypeError, ValueError):
        return MANTER_PADRAO
    return n if 1 <= n <= MANTER_MAXIMO else MANTER_PADRAO


def definir_copias_mantidas(uow: UnidadeDeTrabalho, ator: Ator, *, quantidade: int) -> None:
    """Administration: how many daily copies of the SQLite database are kept (audited)."""
    exigir_papel(ator, "administrador", acao="configurar as cópias de segurança")
    if (
        isinstance(quantidade, bool)
        or not isinstance(quantidade, int)
        or not 1 <= quantidade <= MANTER_MAXIMO
    ):
        raise ErroDominio(
            f"Informe quantas cópias diárias manter: um número de 1 a {MANTER_MAXIMO}.", "quantidade"
        )
    with uow:
        atual = uow.session.get(Configuracao, CHAVE_MANTER)
        antes = None if atual is None else {"valor": atual.valor}
        if atual is None:
            uow.session.add(Configuracao(chave=CHAVE_MANTER, valor=str(quantidade)))
        else:
            atual.valor = str(quantidade)
        auditoria.registrar(
            uow.session,
            ator,
            "configurar_backup",
            "configuracao",
            CHAVE_MANTER,
            antes,
            {"valor": str(quantidade)},
        )
        uow.commit()


@dataclass(frozen=True)
class ResultadoDiaria:
    copia: Path | None  # the copy made now; None when today's already existed (or not a SQLite file)
    removidas: tuple[Path, ...]

    @property
    def mensagem(self) -> str:
        if self.copia is None:
            return "A cópia diária de hoje já existia."
        extra = f" ({len(self.removidas)} cópia(s) antiga(s) removida(s))" if self.removidas else ""
        return f"Cópia diária gravada em {self.copia}{extra}."


def copia_diaria(banco: Banco, *, hoje: date | None = None) -> ResultadoDiaria:
    """Today's copy of a SQLite database, if not made yet, then prune to the last N copies.

    The copy is written under a temporary name and renamed when complete and checked, so a crash never
    leaves a half copy that looks like today's. A PostgreSQL database is left to the server's own backups.
    """
    arquivo = arquivo_sqlite(banco.url)
    if arquivo is None or not arquivo.exists():
        return ResultadoDiaria(None, ())
    dia = hoje or relogio.hoje()
    pasta = pasta_backups(arquivo)
    pasta.mkdir(exist_ok=True)
    destino = pasta / f"{arquivo.stem}-{dia:%Y-%m-%d}.sqlite"
    feita: Path | None = None
    if not destino.exists():
        parcial = pasta / f".{destino.name}.{os.getpid()}.parcial"
        parcial.unlink(missing_ok=True)
        copiar_sqlite(arquivo, parcial)
        os.replace(parcial, destino)
        feita = destino
    with banco.leitura() as sessao:
        manter = copias_mantidas(sessao)
    copias = copias_diarias(arquivo)
    removidas = tuple(copias[:-manter]) if len(copias) > manter else ()
    for antiga in removidas:
        antiga.unlink(missing_ok=True)
    return ResultadoDiaria(feita, removidas)


# ----------------------------------------------------------------------------------------------- restore


@dataclass(frozen=True)
class CopiaVerificada:
    arquivo: Path
    revisao: str
    registros_auditoria: int


def verificar_copia(origem: Path) -> CopiaVerificada:
    """Check that `origem` is a whole, untampered Secretaria SQLite database, without changing it."""
    from secretaria import migracoes
    from secretaria.services.auditoria import verificar_cadeia

    if not origem.is_file():
        raise ErroBanco(f"A cópia {origem} não existe.")
    with origem.open("rb") as f:
        if f.read(len(_CABECALHO_SQLITE)) != _CABECALHO_SQLITE:
            raise ErroBanco(
                f"O arquivo {origem} não é uma cópia de segurança da Secretaria (não é um banco SQLite)."
            )
    uri = _uri_somente_leitura(origem)
    engine = sa.create_engine(
        "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)
    )
    try:
        with engine.connect() as conn:
            if conn.exec_driver_sql("PRAGMA integrity_check").scalar() != "ok":
                raise ErroBanco(f"A cópia {origem} está danificada (falhou na verificação de integridade).")
            situacao = migracoes.situacao(conn)
        if situacao.revisao_atual is None:
            raise ErroBanco(f"O arquivo {origem} não é uma cópia de segurança da Secretaria.")
        if situacao.mais_novo:
            raise ErroBanco(
                f"A cópia {origem} foi feita por uma versão mais nova da Secretaria; atualize o programa."
            )
        with so.Session(engine) as sessao:
            resultado = verificar_cadeia(sessao)
    except sa.exc.DatabaseError as exc:
        raise ErroBanco(f"A cópia {origem} está danificada ou não é um banco da Secretaria.") from exc
    finally:
        engine.dispose()
    if not resultado.integra:
        raise ErroBanco(
            f"A cópia {origem} não passou na verificação da auditoria: {resultado.mensagem} Nada foi restaurado."
        )
    return CopiaVerificada(origem, situacao.revisao_atual, resultado.linhas)


def _uri_somente_leitura(arquivo: Path) -> str:
    # immutable: nothing at all is written beside a closed copy (no -wal/-shm); a file that still has a
    # -wal (a live database copied by hand) is read normally so its last transactions are seen.
    extra = "" if Path(f"{arquivo}-wal").exists() else "&immutable=1"
    return f"file:{arquivo}?mode=ro{extra}"


def _arquivo_integro(arquivo: Path) -> bool:
    try:
        con = sqlite3.connect(f"file:{arquivo}?mode=ro", uri=True, timeout=SQLITE_ESPERA_MS / 1000)
        try:
            return bool(con.execute("PRAGMA quick_check").fetchone()[0] == "ok")
        finally:
            con.close()
    except sqlite3.DatabaseError:
        return False


def restaurar(origem: Path, url: str | None) -> str:
    """Put the backup `origem` back as the SQLite database at `url`; the replaced file is kept aside.

    The backup is checked first (a Secretaria database, integrity, audit chain): nothing is touched when it
    fails. A healthy current database is copied aside and then overwritten in place through SQLite's backup
    API (safe even if another program has it open); a damaged or missing one is renamed aside (with its
    -wal/-shm) and the backup copied in under a temporary name, then renamed into place.
    """
    url = resolver_url(url)
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        raise ErroBanco(
            f"O banco {mascarar_url(url)} está num servidor PostgreSQL: restaure com pg_restore "
            "(veja o README, seção Cópias de segurança). Nada foi alterado."
        )
    copia = verificar_copia(origem)
    if arquivo.exists() and arquivo.resolve() == origem.resolve():
        raise ErroBanco("A cópia indicada é o próprio banco em uso; nada foi alterado.")
    if not arquivo.parent.is_dir():
        raise ErroBanco(f"A pasta {arquivo.parent} não existe; nada foi alterado.")
    carimbo = relogio.carimbo()
    guardado = arquivo.with_name(f"{arquivo.stem}.substituido-{carimbo}.sqlite")
    fonte = sqlite3.connect(_uri_somente_leitura(origem), uri=True)
    try:
        no_lugar = arquivo.exists() and _arquivo_integro(arquivo)
        if no_lugar:
            copiar_sqlite(arquivo, guardado)
            alvo = sqlite3.connect(arquivo, timeout=SQLITE_ESPERA_MS / 1000)
            try:
                fonte.backup(alvo)  # one step, in one write transaction: all or nothing
            except sqlite3.Error:
                no_lugar = False  # e.g. a different page size: fall back to replacing the file
            finally:
                alvo.close()
        if not no_lugar:
            if arquivo.exists():
                for sufixo in ("", "-wal", "-shm"):
                    parte = Path(f"{arquivo}{sufixo}")
                    if parte.exists():
                        os.replace(parte, Path(f"{guardado}{sufixo}"))
            parcial = arquivo.with_name(f".{arquivo.name}.restaurando")
            parcial.unlink(missing_ok=True)
            alvo = sqlite3.connect(parcial)
            try:
                fonte.backup(alvo)
            finally:
                alvo.close()
            os.replace(parcial, arquivo)
    finally:
        fonte.close()
    if not _arquivo_integro(arquivo):  # pragma: no cover - the backup API copies checked pages
        raise ErroBanco(f"O banco restaurado em {arquivo} falhou na verificação de integridade.")
    abrir_banco(url).fechar()  # brings an older backup's schema up to date
    aviso = f"\nO arquivo anterior foi guardado em {guardado}." if guardado.exists() else ""
    return (
        f"Banco {arquivo} restaurado a partir de {origem} "
        f"({copia.registros_auditoria} registro(s) de auditoria conferido(s)).{aviso}"
    )
