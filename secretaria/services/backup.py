"""Backups: checked copies of a SQLite database (on demand, and automatically once a day), their restore,
and on PostgreSQL pg_dump (run when it is installed, else the exact command to run).

The daily copy is taken when the program's window starts (`secretaria` with no sub-command, see
`cli._abrir_programa`), on the first start of each day: `backups/<nome>-AAAA-MM-DD.sqlite` beside the
database file, keeping the last N (Configuracao "backup_manter", default 7). A scheduled
`secretaria backup --diaria` does the same without opening the window.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import itertools
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

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
    banco_sobre_conexao,
    conferir_pasta_local,
    copiar_sqlite,
    eh_transitorio,
    mascarar_url,
    pasta_dados,
    resolver_url,
    uri_sqlite,
    url_sqlite,
)
from secretaria.models import Auditoria, Configuracao
from secretaria.services import auditoria
from secretaria.services.base import Ator, ErroDominio, exigir_papel
from secretaria.services.rotulos import rotulo_acao

if TYPE_CHECKING:
    from secretaria.services.verificacao import RelatorioVerificacao

PASTA_BACKUPS = "backups"
CHAVE_MANTER = "backup_manter"
MANTER_PADRAO = 7
MANTER_MAXIMO = 365
_CABECALHO_SQLITE = b"SQLite format 3\x00"


# ---------------------------------------------------------------------------------------------- on demand


def comando_pg_dump(url: str, destino: Path) -> str:
    """The pg_dump command line for `url` (never with the password: pg_dump asks for it or reads .pgpass),
    quoted for the shell it will be pasted into: cmd.exe on Windows, a POSIX shell elsewhere."""
    partes = _argumentos_pg(url, destino)
    return subprocess.list2cmdline(partes) if sys.platform == "win32" else shlex.join(partes)


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
    """Where a backup made now would go by default, named with the date and time: the `backups` folder
    beside a SQLite file; for PostgreSQL the `backups` folder in the user's data folder (where the default
    SQLite file lives), never the current folder, which a shortcut may set to the program's own."""
    url = resolver_url(url)
    carimbo = relogio.carimbo()
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        nome = sa.make_url(url).database or "secretaria"
        return pasta_dados() / PASTA_BACKUPS / f"{nome}-{carimbo}.dump"
    return arquivo.parent / PASTA_BACKUPS / f"{arquivo.stem}-{carimbo}.sqlite"


def fazer_backup(url: str | None, destino: Path | None = None, progresso: Progresso | None = None) -> str:
    """Copy the database to `destino` (default: `destino_sugerido`) and return the message for the user.

    SQLite: a consistent online copy, even with the program open, checked with integrity_check.
    PostgreSQL: runs pg_dump when it is installed on this computer, else says the exact command.
    Never overwrites an existing file. `progresso(feitas, total, texto)` as the pages are copied; whatever it
    raises (Cancelar) removes the partial copy.
    """
    url = resolver_url(url)
    arquivo = arquivo_sqlite(url)
    if arquivo is not None:
        conferir_pasta_local(arquivo)  # before the backups folder is made beside it
    if destino is None:
        destino = destino_sugerido(url)
        destino.parent.mkdir(parents=True, exist_ok=True)
    if destino.exists():
        raise ErroBanco(f"O destino {destino} já existe; escolha outro nome (nada foi sobrescrito).")
    if not destino.parent.is_dir():
        raise ErroBanco(f"A pasta {destino.parent} não existe; nada foi copiado.")
    if arquivo is None:
        return _backup_pg(url, destino)
    if not arquivo.exists():
        raise ErroBanco(f"O arquivo do banco {arquivo} não existe; nada foi copiado.")
    banco = abrir_banco(url, migrar=False)  # refuses a file that is not a Secretaria database
    banco.fechar()
    copiar_sqlite(arquivo, destino, progresso)
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
        n = len(self.removidas)
        extra = (" (1 cópia antiga removida)" if n == 1 else f" ({n} cópias antigas removidas)") if n else ""
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


def remover_parciais_abandonadas(banco: Banco) -> None:
    """Half copies left by a program closed abruptly while copying (the pid in their name is gone)."""
    arquivo = arquivo_sqlite(banco.url)
    if arquivo is None or not pasta_backups(arquivo).is_dir():
        return
    for parcial in pasta_backups(arquivo).glob(f".{glob.escape(arquivo.stem)}-*.parcial*"):
        pid = parcial.name.split(".parcial")[0].rsplit(".", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and not _processo_vivo(int(pid)):
            try:
                parcial.unlink(missing_ok=True)
            except OSError:  # still open somewhere (Windows refuses that): left for another day
                continue


def _processo_vivo(pid: int) -> bool:
    if sys.platform == "win32":  # os.kill would end the process there
        return _processo_vivo_windows(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no such check here: leave its file alone
        return True
    return True


_PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
_STILL_ACTIVE = 259
_ERROR_INVALID_PARAMETER = 87  # OpenProcess of a pid no process has


def _processo_vivo_windows(pid: int) -> bool:
    """OpenProcess + GetExitCodeProcess. Only a pid Windows says does not exist (or a process that has
    exited) counts as gone; any other failure (another user's process) leaves its file alone."""
    import ctypes

    # WinDLL and get_last_error exist only on Windows (hence getattr); use_last_error keeps the error code
    # of the call itself, not of whatever Python ran after it.
    kernel32 = getattr(ctypes, "WinDLL")("kernel32", use_last_error=True)  # noqa: B009
    kernel32.OpenProcess.restype = ctypes.c_void_p
    kernel32.GetExitCodeProcess.argtypes = (ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulong))
    kernel32.CloseHandle.argtypes = (ctypes.c_void_p,)
    alca = kernel32.OpenProcess(_PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not alca:
        return bool(getattr(ctypes, "get_last_error")() != _ERROR_INVALID_PARAMETER)  # noqa: B009
    try:
        codigo = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(alca, ctypes.byref(codigo)):
            return True
        return codigo.value == _STILL_ACTIVE
    finally:
        kernel32.CloseHandle(alca)


# ----------------------------------------------------------------------------------------------- restore

Progresso = Callable[[int, int, str], None]
"""(steps done, steps in all, what is being done now): the window's progress bar, or nothing."""

ETAPAS_VERIFICACAO = 5
ETAPAS_RESTAURACAO = 4
# How long a restore waits for the database to be free: a writer finishing its act frees it in well under a
# second; a program that merely has it open never does, and the restore refuses.
ESPERA_TRAVA_MS = 2_000
# Rows a database holds before anyone does anything (the law's catalogue, the letterhead row): records that
# need no audit row. Anything else in a copy whose audit table is empty means the audit was removed.
_SEM_AUDITORIA = frozenset({"alembic_version", "auditoria", "dados_orgao"})


class BancoAberto(ErroBanco):
    """Someone else (another computer, another program, another window) has the SQLite file open."""

    def __init__(self, arquivo: Path) -> None:
        super().__init__(
            f"O banco {arquivo} está aberto em outro computador ou programa (ou em outra janela da "
            "Secretaria); feche-o em todos e tente de novo. Nada foi alterado."
        )


@dataclass(frozen=True)
class RegistroAuditoria:
    """The identity of one audit row: what a copy ends with, what the current database has."""

    id: int
    hash: str
    momento: datetime
    usuario_login: str | None
    acao: str

    def descricao(self) -> str:
        quem = f" por {self.usuario_login}" if self.usuario_login else ""
        return f"nº {self.id}, de {self.momento:%d/%m/%Y às %H:%M}{quem} ({rotulo_acao(self.acao)})"


@dataclass(frozen=True)
class CopiaVerificada:
    arquivo: Path
    revisao: str
    registros_auditoria: int
    sha256: str
    gravada_em: datetime  # the file's modification time: when the copy was written
    ultimo: RegistroAuditoria | None


@dataclass(frozen=True)
class Perdas:
    """What the current database has that the copy does not."""

    registros_auditoria: int
    ultimo: RegistroAuditoria | None
    # audit rows after the copy's last one; None when the copy is not an earlier state of this database
    depois_da_copia: int | None


@dataclass(frozen=True)
class Preparacao:
    """Everything checked before asking the user to confirm a restore."""

    arquivo: Path  # the database file that would be replaced
    copia: CopiaVerificada
    perdas: Perdas | None  # None when there is no current database (or it cannot be read)

    def descricao(self) -> str:
        """The confirmation's text: which copy, of when, and what will be lost."""
        c = self.copia
        ultimo = (
            f"último registro de auditoria nela: {c.ultimo.descricao()}."
            if c.ultimo
            else "a cópia não tem registros de auditoria."
        )
        paragrafos = [
            f"A cópia {c.arquivo} vai substituir o banco {self.arquivo}.",
            f"Cópia gravada em {c.gravada_em:%d/%m/%Y às %H:%M}; {ultimo}",
        ]
        p = self.perdas
        if p is None:
            paragrafos.append("Não há banco atual legível para comparar com a cópia.")
        elif p.depois_da_copia == 0:
            paragrafos.append("O banco atual não tem nada registrado depois da cópia: nada se perde.")
        elif p.depois_da_copia is not None:
            assert p.ultimo is not None
            paragrafos.append(
                "Será perdido o que o banco atual registrou depois dela: "
                f"{_quantos(p.depois_da_copia, 'registro', 'registros')} de auditoria (o último, "
                f"{p.ultimo.descricao()}). Tudo o que foi lançado depois da cópia precisará ser lançado de novo."
            )
        else:
            paragrafos.append(
                "A cópia não é um estado anterior do banco atual: os "
                f"{_quantos(p.registros_auditoria, 'registro', 'registros')} de auditoria do banco atual"
                + (f" (o último, {p.ultimo.descricao()})" if p.ultimo else "")
                + " serão substituídos pelos da cópia."
            )
        paragrafos.append(
            "O banco atual será guardado ao lado dele, como …substituido-AAAAMMDD-HHMMSS.sqlite."
        )
        return "\n\n".join(paragrafos)


def _quantos(n: int, singular: str, plural: str) -> str:
    return f"{n:,}".replace(",", ".") + f" {singular if n == 1 else plural}"


def _arquivo_a_restaurar(url: str) -> Path:
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        raise ErroBanco(
            f"O banco {mascarar_url(url)} está num servidor PostgreSQL: restaure com pg_restore "
            "(veja o README, seção Cópias de segurança). Nada foi alterado."
        )
    if not arquivo.parent.is_dir():
        raise ErroBanco(f"A pasta {arquivo.parent} não existe; nada foi alterado.")
    conferir_pasta_local(arquivo)
    return arquivo


def _mesmo_arquivo(a: Path, b: Path) -> bool:
    """Whether two paths name one file (symbolic or hard links too), without opening either."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def verificar_copia(
    origem: Path,
    *,
    atual: Path | None = None,
    progresso: Progresso | None = None,
    ancoras: Sequence[tuple[int, str]] = (),
    termos_atuais: Sequence[tuple[int, str]] = (),
) -> CopiaVerificada:
    """Check, without changing it, that `origem` is a whole, untampered Secretaria SQLite database that the
    program can open and work on: integrity, a known schema version with every table, column, index and
    trigger that version has (and nothing else), no reference to a missing record, an intact audit chain
    that is not empty when there are records, and everything `auditoria verificar` checks (the records
    against their audit images, the protection, the clock, every term the copy recorded, `ancoras`): a copy
    of an older schema is checked on an upgraded temporary copy of itself, so older copies are checked as
    completely. `termos_atuais` are the (number, hash) of the terms the current database recorded: a copy
    that holds an anchored row with another hash is a rewritten history (terms past the copy's last row
    are later than the copy, and say nothing about it). `atual` is the live database file, refused as a
    source before anything reads it (opening and closing it here would drop this process's locks on it)."""
    from secretaria import migracoes
    from secretaria.services.verificacao import verificar_tudo

    def etapa(feitas: int, texto: str) -> None:
        if progresso is not None:
            progresso(feitas, ETAPAS_VERIFICACAO, texto)

    if atual is not None and _mesmo_arquivo(origem, atual):
        raise ErroBanco("A cópia indicada é o próprio banco em uso; nada foi alterado.")
    if not origem.is_file():
        raise ErroBanco(f"A cópia {origem} não existe; nada foi alterado.")
    with origem.open("rb") as f:
        if f.read(len(_CABECALHO_SQLITE)) != _CABECALHO_SQLITE:
            raise ErroBanco(
                f"O arquivo {origem} não é uma cópia de segurança da Secretaria (não é um banco SQLite); "
                "nada foi alterado."
            )
    etapa(0, "Conferindo a integridade da cópia…")
    uri = _uri_somente_leitura(origem)
    engine = sa.create_engine(
        "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)
    )
    try:
        with engine.connect() as conn:
            erros = [str(r[0]) for r in conn.exec_driver_sql("PRAGMA integrity_check(5)")]
            if erros != ["ok"]:
                raise ErroBanco(
                    f"A cópia {origem} está danificada (falhou na verificação de integridade: {erros[0]}). "
                    "Nada foi alterado."
                )
            situacao = migracoes.situacao(conn)
            if situacao.revisao_atual is None:
                raise ErroBanco(
                    f"O arquivo {origem} não é uma cópia de segurança da Secretaria; nada foi alterado."
                )
            if situacao.mais_novo:
                raise ErroBanco(
                    f"A cópia {origem} foi feita por uma versão mais nova da Secretaria; atualize o programa. "
                    "Nada foi alterado."
                )
            revisao = situacao.revisao_atual
            etapa(1, "Conferindo as tabelas, os índices e os gatilhos…")
            bruta = conn.connection.driver_connection
            assert isinstance(bruta, sqlite3.Connection)
            diferencas = migracoes.diferencas_de_esquema(
                migracoes.esquema_sqlite(bruta), migracoes.esquema_da_revisao(revisao)
            )
            if diferencas:
                lista = "; ".join(diferencas[:8]) + ("; …" if len(diferencas) > 8 else "")
                raise ErroBanco(
                    f"A cópia {origem} não tem o esquema completo da Secretaria (versão {revisao}): {lista}. "
                    "Nada foi alterado."
                )
            etapa(2, "Conferindo as referências entre os registros…")
            quebradas = _referencias_quebradas(conn)
            if quebradas:
                raise ErroBanco(
                    f"A cópia {origem} tem registros que apontam para registros que não existem: "
                    f"{quebradas}. Nada foi alterado."
                )
            etapa(3, "Conferindo a cadeia de auditoria…")
            registros = _registros_que_pedem_auditoria(conn)
        with so.Session(engine) as sessao:
            resultado = auditoria.verificar_cadeia(sessao)
            ultimo = _ultimo_registro(sessao)
            fim = ultimo.id if ultimo is not None else 0
            todas = [*ancoras, *((n, h) for n, h in termos_atuais if n <= fim)]
            # The records against their audit images, the anchors and the documents' hashes: the models
            # describe the head schema only, so an older copy is compared on an upgraded temporary copy.
            if revisao == migracoes.revisao_head():
                completo = verificar_tudo(sessao, todas)
            else:
                completo = _verificar_atualizada(uri, todas)
    except sa.exc.DatabaseError as exc:
        raise ErroBanco(
            f"A cópia {origem} está danificada ou não é um banco da Secretaria; nada foi alterado."
        ) from exc
    finally:
        engine.dispose()
    if not resultado.integra:
        raise ErroBanco(
            f"A cópia {origem} não passou na verificação da auditoria: {resultado.mensagem} Nada foi alterado."
        )
    if resultado.linhas == 0 and registros:
        raise ErroBanco(
            f"A cópia {origem} tem {_quantos(registros, 'registro', 'registros')} e nenhum registro de "
            "auditoria: a auditoria foi apagada. Nada foi alterado."
        )
    if not completo.integro:
        achados = "; ".join(completo.achados[:5]) + ("; …" if len(completo.achados) > 5 else "")
        raise ErroBanco(f"A cópia {origem} não confere com a sua auditoria: {achados} Nada foi alterado.")
    etapa(4, "Calculando o SHA-256 da cópia…")
    return CopiaVerificada(
        arquivo=origem,
        revisao=revisao,
        registros_auditoria=resultado.linhas,
        sha256=_sha256(origem),
        gravada_em=datetime.fromtimestamp(origem.stat().st_mtime).replace(microsecond=0),
        ultimo=ultimo,
    )


def _verificar_atualizada(uri: str, ancoras: Sequence[tuple[int, str]]) -> RelatorioVerificacao:
    """`verificar_tudo` on a temporary copy of an older copy, upgraded to the current schema the way the
    restore itself will upgrade it (the copy itself is never written)."""
    from secretaria import migracoes
    from secretaria.services.verificacao import verificar_tudo

    with tempfile.TemporaryDirectory(prefix="secretaria-verificacao-") as pasta:
        temporaria = Path(pasta) / "copia.sqlite"
        fonte = sqlite3.connect(uri, uri=True)
        try:
            alvo = sqlite3.connect(temporaria)
            try:
                fonte.backup(alvo)
            finally:
                alvo.close()
        finally:
            fonte.close()
        engine = sa.create_engine(url_sqlite(temporaria))
        try:
            migracoes.atualizar(engine)
            with so.Session(engine) as sessao:
                return verificar_tudo(sessao, ancoras)
        finally:
            engine.dispose()


def termos_do_banco(url: str | None) -> list[tuple[int, str]]:
    """(number, hash) anchored by every term the SQLite database at `url` recorded, read-only; none when
    there is no such file or it cannot be read (a damaged database is what a restore is for)."""
    from secretaria.services.verificacao import termos_registrados

    arquivo = _arquivo_a_restaurar(resolver_url(url))
    if not arquivo.is_file():
        return []
    engine = sa.create_engine(
        "sqlite://",
        creator=lambda: sqlite3.connect(
            uri_sqlite(arquivo, mode="ro"), uri=True, timeout=SQLITE_ESPERA_MS / 1000, check_same_thread=False
        ),
    )
    try:
        with so.Session(engine) as sessao:
            return [(n, h) for _reg, n, h in termos_registrados(sessao) if n]
    except sa.exc.DBAPIError:
        return []
    finally:
        engine.dispose()


def _referencias_quebradas(conn: sa.Connection) -> str:
    """`PRAGMA foreign_key_check`, counted per table and referenced table ("" when there are none)."""
    contagem: Counter[tuple[str, str]] = Counter(
        (str(linha[0]), str(linha[2])) for linha in conn.exec_driver_sql("PRAGMA foreign_key_check")
    )
    return ", ".join(
        f"{_quantos(n, 'registro', 'registros')} da tabela {tabela} (para {pai})"
        for (tabela, pai), n in sorted(contagem.items())
    )


def _registros_que_pedem_auditoria(conn: sa.Connection) -> int:
    """Records that only an audited act can have made (the seeded catalogue of the law and letterhead aside)."""
    from secretaria.models import Base, DispositivoCatalogo

    # A copy of an older revision lacks the tables later migrations add: count the ones it has.
    existentes = set(sa.inspect(conn).get_table_names())
    total = 0
    for nome in Base.metadata.tables:
        if nome in _SEM_AUDITORIA or nome not in existentes:
            continue
        consulta = sa.select(sa.func.count(sa.literal_column("*"))).select_from(sa.table(nome))
        if nome == DispositivoCatalogo.__tablename__:
            consulta = consulta.where(sa.column("origem") != "lei")
        total += int(conn.execute(consulta).scalar_one())
    return total


def _ultimo_registro(sessao: so.Session) -> RegistroAuditoria | None:
    linha = sessao.execute(
        sa.select(Auditoria.id, Auditoria.hash, Auditoria.momento, Auditoria.usuario_login, Auditoria.acao)
        .order_by(Auditoria.id.desc())
        .limit(1)
    ).first()
    return None if linha is None else RegistroAuditoria(*linha)


def _sha256(arquivo: Path) -> str:
    h = hashlib.sha256()
    with arquivo.open("rb") as f:
        for bloco in iter(lambda: f.read(1 << 20), b""):
            h.update(bloco)
    return h.hexdigest()


def _uri_somente_leitura(arquivo: Path) -> str:
    # immutable: nothing at all is written beside a closed copy (no -wal/-shm); a file that still has a
    # -wal (a live database copied by hand) is read normally so its last transactions are seen.
    if Path(f"{arquivo}-wal").exists():
        return uri_sqlite(arquivo, mode="ro")
    return uri_sqlite(arquivo, mode="ro", immutable="1")


def o_que_se_perde(copia: CopiaVerificada, url: str | None) -> Perdas | None:
    """How much of the current database's audit lies beyond the copy's last audit row (None when there is no
    current database to read). Read through SQLite, read-only, while others may still have it open."""
    arquivo = _arquivo_a_restaurar(resolver_url(url))
    if not arquivo.is_file():
        return None
    engine = sa.create_engine(
        "sqlite://",
        creator=lambda: sqlite3.connect(
            uri_sqlite(arquivo, mode="ro"), uri=True, timeout=SQLITE_ESPERA_MS / 1000, check_same_thread=False
        ),
    )
    try:
        with so.Session(engine) as sessao:
            ultimo = _ultimo_registro(sessao)
            total = int(sessao.scalar(sa.select(sa.func.count()).select_from(Auditoria)) or 0)
            depois: int | None = total
            if copia.ultimo is not None:
                mesmo = sessao.scalar(sa.select(Auditoria.hash).where(Auditoria.id == copia.ultimo.id))
                depois = (
                    None
                    if mesmo != copia.ultimo.hash
                    else int(
                        sessao.scalar(
                            sa.select(sa.func.count())
                            .select_from(Auditoria)
                            .where(Auditoria.id > copia.ultimo.id)
                        )
                        or 0
                    )
                )
    except sa.exc.DBAPIError:
        return None  # a damaged or foreign current file: the confirmation says there is nothing to compare
    finally:
        engine.dispose()
    return Perdas(total, ultimo, depois)


def _travar(arquivo: Path) -> sqlite3.Connection:
    """A connection holding the SQLite file's exclusive lock until it is closed: nobody else can read or
    write it meanwhile, and taking it proves nobody else has it open.

    In WAL mode every connection that has read the database keeps a shared lock on it for as long as it is
    open (not only during a transaction), so `BEGIN EXCLUSIVE` under `locking_mode=EXCLUSIVE` succeeds only
    when no other connection, of any process on any computer, is open on it; and in that mode the lock stays
    after COMMIT. Raises BancoAberto when busy, sqlite3.DatabaseError when the file is not readable."""
    con = sqlite3.connect(
        arquivo, timeout=ESPERA_TRAVA_MS / 1000, isolation_level=None, check_same_thread=False
    )
    try:
        con.execute("PRAGMA locking_mode=EXCLUSIVE")
        con.execute("BEGIN EXCLUSIVE")
        con.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        con.close()
        if eh_transitorio(exc):
            raise BancoAberto(arquivo) from exc
        raise
    except BaseException:
        con.close()
        raise
    return con


def conferir_fechado(url: str | None) -> None:
    """Refuse (BancoAberto) while any other connection has the SQLite database open; takes and drops the
    lock at once. Nothing to check when the file does not exist or is not a readable database."""
    arquivo = _arquivo_a_restaurar(resolver_url(url))
    if not arquivo.is_file():
        return
    try:
        _travar(arquivo).close()
    except BancoAberto:
        raise
    except sqlite3.DatabaseError:
        return


def preparar_restauracao(
    origem: Path,
    url: str | None,
    *,
    ator: Ator,
    progresso: Progresso | None = None,
    ancoras: Sequence[tuple[int, str]] = (),
) -> Preparacao:
    """Every check a restore makes, changing nothing: the role, the copy (against `ancoras` and every term
    the current database recorded too), that nobody else has the database open; and what would be lost.
    What the confirmation shows."""
    exigir_papel(ator, "administrador", acao="restaurar uma cópia de segurança")
    url = resolver_url(url)
    arquivo = _arquivo_a_restaurar(url)
    copia = verificar_copia(
        origem, atual=arquivo, progresso=progresso, ancoras=ancoras, termos_atuais=termos_do_banco(url)
    )
    conferir_fechado(url)
    return Preparacao(arquivo, copia, o_que_se_perde(copia, url))


def _reservar_guardado(arquivo: Path) -> Path:
    """A new, unique name for the replaced database (`<nome>.substituido-AAAAMMDD-HHMMSS[-N].sqlite`),
    created empty and exclusively, so two restores in the same second never share it."""
    base = f"{arquivo.stem}.substituido-{relogio.carimbo()}"
    for n in itertools.count(1):
        nome = arquivo.with_name(f"{base}{'' if n == 1 else f'-{n}'}.sqlite")
        if Path(f"{nome}-wal").exists() or Path(f"{nome}-shm").exists():
            continue
        try:
            os.close(os.open(nome, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return nome
    raise AssertionError("inalcançável")  # pragma: no cover


def restaurar(
    origem: Path,
    url: str | None,
    *,
    ator: Ator,
    verificada: CopiaVerificada | None = None,
    progresso: Progresso | None = None,
    ancoras: Sequence[tuple[int, str]] = (),
) -> str:
    """Put the backup `origem` back as the SQLite database at `url`; the replaced file is kept aside under a
    name of its own; the restore is the restored database's last audit row (by `ator`).

    The copy is checked first (`verificar_copia`; skipped when `verificada` is the check of these very
    bytes) and the database's exclusive lock is taken: nothing is touched when either fails. Under that lock,
    which nobody can open the database through: the current database is copied aside, the copy written over
    it in one transaction (SQLite's backup API), its schema brought up to date and the restore audited.
    A current file too damaged to be opened is renamed aside instead, and the copy, prepared the same way
    under a temporary name, renamed into its place.
    """
    exigir_papel(ator, "administrador", acao="restaurar uma cópia de segurança")
    url = resolver_url(url)
    arquivo = _arquivo_a_restaurar(url)
    if verificada is not None and (
        verificada.arquivo != origem
        or Path(f"{origem}-wal").exists()
        or not origem.is_file()
        or _sha256(origem) != verificada.sha256
    ):
        verificada = None  # changed since it was checked (or never checked): check again
    copia = verificada or verificar_copia(
        origem, atual=arquivo, progresso=progresso, ancoras=ancoras, termos_atuais=termos_do_banco(url)
    )
    if _mesmo_arquivo(origem, arquivo):
        raise ErroBanco("A cópia indicada é o próprio banco em uso; nada foi alterado.")

    def etapa(feitas: int, texto: str) -> None:
        if progresso is not None:
            progresso(feitas, ETAPAS_RESTAURACAO, texto)

    etapa(0, "Guardando o banco atual…")
    trava: sqlite3.Connection | None = None
    if arquivo.exists():
        try:
            trava = _travar(arquivo)
        except BancoAberto:
            raise
        except sqlite3.DatabaseError:
            trava = None  # not readable as a database at all: renamed aside below
    guardado: Path | None = None
    try:
        if trava is not None:
            guardado = _reservar_guardado(arquivo)
            try:
                _guardar_e_copiar(trava, origem, guardado, etapa)
            except sqlite3.DatabaseError:
                trava.close()  # too damaged for the backup API: replaced by renaming below
                trava = None
        if trava is None:
            if guardado is None and any(Path(f"{arquivo}{s}").exists() for s in ("", "-wal", "-shm")):
                guardado = _reservar_guardado(arquivo)
            etapa(1, "Copiando a cópia de segurança para o lugar do banco…")
            trava = _substituir_arquivo(arquivo, origem, guardado)
        etapa(2, "Atualizando o esquema e registrando a restauração na auditoria…")
        banco = banco_sobre_conexao(url, trava)
        try:
            _concluir(banco, copia, guardado, ator)
            etapa(3, "Conferindo o banco restaurado…")
            with banco.engine.connect() as conn:
                if conn.exec_driver_sql("PRAGMA quick_check").scalar() != "ok":  # pragma: no cover
                    raise ErroBanco(f"O banco restaurado em {arquivo} falhou na verificação de integridade.")
        finally:
            banco.fechar()
    finally:
        if trava is not None:
            trava.close()  # the lock goes with it: the restored database may be opened now
    aviso = f"\nO arquivo anterior foi guardado em {guardado}." if guardado is not None else ""
    return (
        f"Banco {arquivo} restaurado a partir de {origem} "
        f"({copia.registros_auditoria} registro(s) de auditoria conferido(s)).{aviso}"
    )


def _guardar_e_copiar(
    trava: sqlite3.Connection, origem: Path, guardado: Path, etapa: Callable[[int, str], None]
) -> None:
    """Under the lock: the current database copied to `guardado`, then the copy written over it.

    The live file is read and written only through the locked connection (never a second connection, which
    the lock would keep out, nor a plain open(), which would drop the lock). Rollback-journal mode while the
    copy is written: the backup API cannot write into a WAL database of another page size."""
    aside = sqlite3.connect(guardado)
    try:
        trava.backup(aside)
    finally:
        aside.close()
    etapa(1, "Copiando a cópia de segurança para o lugar do banco…")
    trava.execute("PRAGMA journal_mode=DELETE")
    fonte = sqlite3.connect(_uri_somente_leitura(origem), uri=True)
    try:
        fonte.backup(trava)  # one step, in one write transaction: all or nothing
    finally:
        fonte.close()


def _substituir_arquivo(arquivo: Path, origem: Path, guardado: Path | None) -> sqlite3.Connection:
    """The current file (with its -wal/-shm) renamed aside, and the copy, written under a temporary name and
    checked there, renamed into its place; returns the connection holding the lock on it.

    Nothing is renamed while this process holds it open: Windows cannot rename an open file (SQLite opens
    it without FILE_SHARE_DELETE), so the temporary file's lock is dropped before the renames and taken
    again on the file's own name after them."""
    parcial = arquivo.with_name(f".{arquivo.name}.restaurando-{os.getpid()}")
    for sufixo in ("", "-journal", "-wal", "-shm"):
        Path(f"{parcial}{sufixo}").unlink(missing_ok=True)
    fonte = sqlite3.connect(_uri_somente_leitura(origem), uri=True)
    try:
        alvo = sqlite3.connect(parcial)
        try:
            fonte.backup(alvo)
        finally:
            alvo.close()
    except BaseException:
        for sufixo in ("", "-journal"):
            Path(f"{parcial}{sufixo}").unlink(missing_ok=True)
        raise
    finally:
        fonte.close()
    # Locked once to prove it opens as a database and nobody took it; closed before any rename. (It must be
    # reopened under the file's own name anyway: SQLite names the WAL after the name a connection opened,
    # and the migration and the restore's audit row would otherwise go to ".restaurando-…-wal", which the
    # restored file never reads.) Anyone opening the file between the renames and the lock below makes the
    # lock refuse as BancoAberto, like any restore of a database in use.
    _travar(parcial).close()
    for sufixo in ("-journal", "-wal", "-shm"):  # empty: that connection wrote nothing
        Path(f"{parcial}{sufixo}").unlink(missing_ok=True)
    if guardado is not None:
        for sufixo in ("", "-wal", "-shm"):
            parte = Path(f"{arquivo}{sufixo}")
            if parte.exists():
                os.replace(parte, Path(f"{guardado}{sufixo}"))
    os.replace(parcial, arquivo)
    return _travar(arquivo)


def _concluir(banco: Banco, copia: CopiaVerificada, guardado: Path | None, ator: Ator) -> None:
    """The restored database made what opening it would make it (schema up to date, the law's catalogue),
    then the restore recorded as its last audit row."""
    from secretaria import migracoes
    from secretaria.services.semente import semear_basico

    with banco.engine.connect() as conn:
        pendente = migracoes.situacao(conn).pendente
    if pendente:
        migracoes.atualizar(banco.engine)
    semear_basico(banco)
    # The actor's account belongs to the database just replaced (and was checked there): in the restored
    # one the same id may be nobody, or somebody else, so the row names the actor without re-reading it.
    sem_conta = dataclasses.replace(ator, usuario_id=None, sessao=None, entrada_pendente=None, chave=None)
    with banco.uow() as uow:
        auditoria.registrar(
            uow.session,
            sem_conta,
            "restaurar_banco",
            "banco",
            (arquivo_sqlite(banco.url) or Path(banco.url)).name,
            None,
            {
                "copia": str(copia.arquivo),
                "sha256": copia.sha256,
                "copia_gravada_em": copia.gravada_em.isoformat(),
                "revisao_copia": copia.revisao,
                "registros_auditoria_copia": copia.registros_auditoria,
                "ultimo_registro_copia": copia.ultimo.id if copia.ultimo else None,
                "guardado": None if guardado is None else str(guardado),
            },
        )
        uow.commit()
