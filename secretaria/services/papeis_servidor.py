"""PostgreSQL prepared by `secretaria servidor preparar`: each account is a role of the server.

The account with id N logs in as the role `<prefixo>_uN` (member of the users' group, which holds the program's
privileges), with its own password, checked by the server. The address every PC holds names only the pre-login
role, which can read no record and write nothing but through the database's own login functions (migration
0019): `secretaria_entrada` (what the login may do with an account; a refusal recorded by the server),
`secretaria_falha_de_senha` (a wrong password counted, the role locked out at the fifth) and
`secretaria_migrar_conta` (an account of a database upgraded from before: its first login, checked against the
old scrypt hash, gives the role that password). Creating an account, a password set, a deactivation or a
lockout lifted reach the role through `secretaria_sincronizar_conta`, in the act's own transaction.

Everywhere else (SQLite, a PostgreSQL database opened as its owner or a superuser, a server not prepared
again since this revision) nothing here applies and the accounts keep their scrypt hashes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

MARCA_SERVIDOR = "servidor"
"""What `usuario.senha_hash` holds for an account whose password the server keeps (no hash to test)."""


@dataclass(frozen=True)
class Entrada:
    """What the server says a login may do with an account (`secretaria_entrada`)."""

    situacao: str
    """"senha" (connect as `papel`), "migrar" (check `hash_antigo`, then `migrar_conta`), "recusada"
    (unknown or inactive: refusal recorded) or "bloqueada" (until `bloqueado_ate`: refusal recorded)."""
    papel: str | None
    bloqueado_ate: datetime | None
    hash_antigo: str | None
    """For "migrar": the old scrypt hash without its key ("scrypt$N$r$p$sal$")."""


def _pode(sessao: so.Session, funcao: str) -> bool:
    if sessao.get_bind().dialect.name != "postgresql":
        return False
    return bool(
        sessao.scalar(
            sa.text(
                "SELECT to_regprocedure(:f) IS NOT NULL AND has_function_privilege(to_regprocedure(:f), 'EXECUTE')"
            ),
            {"f": funcao},
        )
    )


def contas_no_servidor(sessao: so.Session) -> bool:
    """Whether this database gives each account a server role (prepared by `servidor preparar`)."""
    if not _pode(sessao, "secretaria_servidor()"):
        return False
    return sessao.scalar(sa.text("SELECT prefixo FROM secretaria_servidor()")) is not None


def sessao_de_entrada(sessao: so.Session) -> bool:
    """Whether this session is the pre-login role (it may read no record and act as nobody)."""
    if not _pode(sessao, "secretaria_servidor()"):
        return False
    return bool(sessao.scalar(sa.text("SELECT session_user::text = entrada FROM secretaria_servidor()")))


def consultar_entrada(sessao: so.Session, login: str) -> Entrada | None:
    """The server's answer for a login typed on the pre-login role; None when this session is not that role
    (the program then checks the password itself, as on SQLite). Writes (a refusal's audit row): commit it."""
    if not _pode(sessao, "secretaria_entrada(text)"):
        return None
    linha = sessao.execute(sa.text("SELECT * FROM secretaria_entrada(:l)"), {"l": login}).one()
    if linha.situacao == "fora":
        return None
    return Entrada(linha.situacao, linha.papel, linha.bloqueado_ate, linha.hash_antigo)


def contar_falha(sessao: so.Session, login: str) -> datetime | None:
    """A wrong password counted by the server; the end of the lockout it started, if it did."""
    linha = sessao.execute(sa.text("SELECT * FROM secretaria_falha_de_senha(:l)"), {"l": login}).one()
    return linha.bloqueado_ate if linha.falhas is not None else None


def migrar_conta(sessao: so.Session, login: str, chave: str, senha: str) -> str | None:
    """The first login of an account upgraded from before: `chave` is the scrypt key derived from the typed
    password with the old hash's salt (`hash_antigo`), which the server compares with the stored key; when
    it matches the server keeps `senha` from now on. The account's role; None for a wrong password, which
    the server counted (`BLOQUEADA` when that failure locked the account)."""
    papel = sessao.scalar(
        sa.text("SELECT secretaria_migrar_conta(:l, :c, :s)"), {"l": login, "c": chave, "s": senha}
    )
    return None if papel is None else str(papel)


BLOQUEADA = "bloqueada"
"""`migrar_conta`'s answer when the wrong password it counted locked the account."""


def sincronizar(sessao: so.Session, usuario_id: int, senha: str | None = None) -> None:
    """The account's role mirrors the account as this transaction leaves it (created if new; LOGIN only while
    active, not locked out and with a password on the server), with `senha` as its new password if given."""
    if not contas_no_servidor(sessao):
        return
    sessao.flush()
    sessao.execute(sa.text("SELECT secretaria_sincronizar_conta(:i, :s)"), {"i": usuario_id, "s": senha})


def senha_confere_no_servidor(sessao: so.Session, senha: str, usuario_id: int | None = None) -> bool:
    """Whether `senha` is the password of this session's role (or of account `usuario_id`'s role), asked of
    the server by one connection of its own: the password is nowhere else to check. Used where the program
    is not connected as that role (the owner's address on the command line) and to confirm the current
    password before a change."""
    if usuario_id is None:
        papel = sessao.scalar(sa.text("SELECT session_user::text"))
    else:
        prefixo = sessao.scalar(sa.text("SELECT prefixo FROM secretaria_servidor()"))
        if prefixo is None:
            return False
        papel = f"{prefixo}_u{usuario_id}"
    motor = sessao.get_bind()
    assert isinstance(motor, sa.Engine)
    cargs, cparams = motor.dialect.create_connect_args(motor.url)
    cparams.update({"user": papel, "password": senha, "connect_timeout": 5})
    dbapi = motor.dialect.loaded_dbapi
    try:
        dbapi.connect(*cargs, **cparams).close()
    except dbapi.OperationalError:
        return False
    return True
