"""Preparing a PostgreSQL server so that the database itself refuses what the program never does.

Two roles per database:
- the owner ("<banco>_dono"): owns the schema and every table; used only to create and migrate the database
  (opening a database that needs an upgrade with it);
- the application ("<banco>_app"): what every PC connects with. It may read and write the business tables,
  but on the audit only INSERT and SELECT: no UPDATE, DELETE or TRUNCATE, and, not being the owner, it can
  neither ALTER nor DROP a table nor drop or disable a trigger.

`preparar` is idempotent: run again (e.g. after an upgrade added tables) it renews the passwords and the
grants. It runs as a superuser (or a role with CREATEROLE and CREATEDB) named in the URL given.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from secretaria.db import ErroBanco, analisar_url, mascarar_url
from secretaria.services.semente import abrir_e_semear

TABELA_AUDITORIA = "auditoria"
FUNCAO_AUDITAR = "secretaria_auditar(text, timestamp, text, text, text, text, text)"


def _literal(valor: str | None) -> str:
    """A role name as an SQL literal inside a function body (names are ours: letters, digits, "_")."""
    if valor is None:
        return "NULL::text"
    return "'" + valor.replace("'", "''") + "'"


def _configurar_funcoes(
    conn: sa.Connection, dono: str, *, grupo: str | None, entrada: str | None, prefixo: str | None
) -> None:
    """Tell the database's own functions (migration 0019) which roles are the PCs': `grupo` (and its members)
    act in the program, `entrada` only opens the login screen, `<prefixo>_u<id>` is account id's role."""
    conn.exec_driver_sql(
        "CREATE OR REPLACE FUNCTION secretaria_servidor(OUT grupo text, OUT entrada text, OUT prefixo text) "
        "LANGUAGE sql STABLE SET search_path = public, pg_temp "
        f"AS $$ SELECT {_literal(grupo)}, {_literal(entrada)}, {_literal(prefixo)} $$"
    )
    conn.exec_driver_sql(f"ALTER FUNCTION secretaria_servidor() OWNER TO {_ident(conn, dono)}")
    conn.exec_driver_sql("REVOKE ALL ON FUNCTION secretaria_servidor() FROM PUBLIC")


@dataclass(frozen=True)
class ServidorPreparado:
    url_dono: str
    url_app: str
    dono: str
    app: str

    @property
    def mensagem(self) -> str:
        return (
            f"Banco preparado. Dono do esquema (só para criar e atualizar): {mascarar_url(self.url_dono)}\n"
            f"Programa (todos os computadores): {mascarar_url(self.url_app)}"
        )


def _nome_papel(banco: str, sufixo: str) -> str:
    base = "".join(c if c.isalnum() else "_" for c in banco.lower())[:50]
    return f"{base}_{sufixo}"


def _ident(conn: sa.Connection, nome: str) -> str:
    return conn.dialect.identifier_preparer.quote(nome)


def preparar(url_admin: str, *, dono: str | None = None, app: str | None = None) -> ServidorPreparado:
    """Create (or update) the owner and application roles and the database, migrate it as the owner, and
    grant the application role what the program needs and no more. Returns both URLs (with passwords)."""
    u = analisar_url(url_admin)
    if u.get_backend_name() != "postgresql":
        raise ErroBanco("Preparar o servidor só se aplica ao PostgreSQL (postgresql+psycopg://…).")
    if not u.database:
        raise ErroBanco(f"Indique o banco a preparar no endereço: {mascarar_url(u)} (…/nome_do_banco).")
    banco = u.database
    dono = dono or _nome_papel(banco, "dono")
    app = app or _nome_papel(banco, "app")
    senha_dono, senha_app = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    if u.drivername == "postgresql":
        u = u.set(drivername="postgresql+psycopg")
    motor_servidor = sa.create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with motor_servidor.connect() as conn:
            for papel, senha in ((dono, senha_dono), (app, senha_app)):
                existe = conn.execute(
                    sa.text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": papel}
                ).first()
                verbo = "ALTER" if existe else "CREATE"
                # DDL takes no bound parameters: the password is a literal (token_urlsafe: letters, digits,
                # "-" and "_" only, nothing to escape); it never enters a message of ours or the log.
                conn.exec_driver_sql(
                    f"{verbo} ROLE {_ident(conn, papel)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
                    f"PASSWORD '{senha}'"
                )
            if (
                conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": banco}).first()
                is None
            ):
                conn.exec_driver_sql(f"CREATE DATABASE {_ident(conn, banco)} OWNER {_ident(conn, dono)}")
            else:
                conn.exec_driver_sql(f"ALTER DATABASE {_ident(conn, banco)} OWNER TO {_ident(conn, dono)}")
            conn.exec_driver_sql(f"REVOKE ALL ON DATABASE {_ident(conn, banco)} FROM PUBLIC")
            conn.exec_driver_sql(f"GRANT CONNECT ON DATABASE {_ident(conn, banco)} TO {_ident(conn, app)}")
    except sa.exc.DBAPIError as exc:
        raise ErroBanco(
            f"Não foi possível preparar o servidor {mascarar_url(u)}: "
            f"{str(getattr(exc, 'orig', exc)).strip().splitlines()[0]}.\n"
            "Use o endereço de um superusuário do PostgreSQL (por exemplo postgres@servidor)."
        ) from exc
    finally:
        motor_servidor.dispose()
    _entregar_ao_dono(u, dono)
    url_dono = u.set(username=dono, password=senha_dono).render_as_string(hide_password=False)
    url_app = u.set(username=app, password=senha_app).render_as_string(hide_password=False)
    abrir_e_semear(url_dono).fechar()  # creates or migrates the schema as its owner
    _conceder(u, dono, app)
    return ServidorPreparado(url_dono, url_app, dono, app)


def _entregar_ao_dono(u: sa.URL, dono: str) -> None:
    """The schema and whatever an earlier setup left (tables, sequences, functions) now belong to the owner."""
    motor = sa.create_engine(u)
    try:
        with motor.begin() as conn:
            d = _ident(conn, dono)
            conn.exec_driver_sql(f"ALTER SCHEMA public OWNER TO {d}")
            conn.exec_driver_sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
            for tipo, consulta in (
                ("TABLE", "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"),
                ("SEQUENCE", "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"),
            ):
                for (nome,) in conn.exec_driver_sql(consulta).all():
                    conn.exec_driver_sql(f"ALTER {tipo} public.{_ident(conn, nome)} OWNER TO {d}")
            for (assinatura,) in conn.exec_driver_sql(
                "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                "WHERE n.nspname = 'public'"
            ).all():
                conn.exec_driver_sql(f"ALTER FUNCTION {assinatura} OWNER TO {d}")
    finally:
        motor.dispose()


def _conceder(u: sa.URL, dono: str, app: str) -> None:
    motor = sa.create_engine(u)
    try:
        with motor.begin() as conn:
            a, d = _ident(conn, app), _ident(conn, dono)
            conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA public TO {a}")
            conn.exec_driver_sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {a}")
            conn.exec_driver_sql(
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {a}"
            )
            # The audit is written by the database (`secretaria_auditar`, migration 0019), never inserted.
            conn.exec_driver_sql(f"REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON {TABELA_AUDITORIA} FROM {a}")
            _configurar_funcoes(conn, dono, grupo=app, entrada=None, prefixo=None)
            conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION {FUNCAO_AUDITAR} TO {a}")
            conn.exec_driver_sql(f"REVOKE INSERT, UPDATE, DELETE ON alembic_version FROM {a}")
            conn.exec_driver_sql(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {a}")
            # Tables a later migration creates (as the owner) get the same ordinary grants.
            conn.exec_driver_sql(
                f"ALTER DEFAULT PRIVILEGES FOR ROLE {d} IN SCHEMA public "
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {a}"
            )
            conn.exec_driver_sql(
                f"ALTER DEFAULT PRIVILEGES FOR ROLE {d} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {a}"
            )
    finally:
        motor.dispose()
