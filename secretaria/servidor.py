"""Preparing a PostgreSQL server so that the database itself refuses what the program never does, and checks
each user's password itself.

Roles per database:
- the owner ("<banco>_dono"): owns the schema, every table and the database's own functions (migration
  0019); used only to create and migrate the database and to create the first administrator. CREATEROLE,
  used only inside those SECURITY DEFINER functions, which create and alter the accounts' roles;
- the users' group ("<banco>_usuarios", NOLOGIN): the program's privileges — the business tables; on the
  audit only SELECT (rows are written by `secretaria_auditar`); accounts and roles written only by an
  administrator's account (row-level policies of 0019), each user updating only their own row;
- one role per account ("<banco>_u<id>", member of the group), with that person's password, created and
  kept in step by the account services (`services.papeis_servidor`);
- the application role ("<banco>_app"): the address every PC holds. Only the login screen's: it reads the
  schema version, the law's catalogue and the letterhead, whether any account exists, and calls the login
  functions; after the password the program connects as the account's own role.

`preparar` is idempotent: run again (e.g. after an upgrade added tables) it renews the passwords and the
grants, and moves a server prepared before 0019 to the accounts' roles. It runs as a superuser (or a role with
CREATEROLE and CREATEDB) named in the URL given.
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
            f"Entrada do programa (todos os computadores; cada pessoa entra com a própria senha): "
            f"{mascarar_url(self.url_app)}"
        )


def _base(banco: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in banco.lower())[:50]


def _nome_papel(banco: str, sufixo: str) -> str:
    return f"{_base(banco)}_{sufixo}"


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
    grupo = _nome_papel(banco, "usuarios")
    senha_dono, senha_app = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    if u.drivername == "postgresql":
        u = u.set(drivername="postgresql+psycopg")
    motor_servidor = sa.create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with motor_servidor.connect() as conn:
            # The owner creates and alters the accounts' roles (CREATEROLE), only inside the database's own
            # SECURITY DEFINER functions (migration 0019); the users' group logs in as nobody.
            for papel, senha, poderes in (
                (dono, senha_dono, "LOGIN CREATEROLE"),
                (app, senha_app, "LOGIN NOCREATEROLE"),
                (grupo, None, "NOLOGIN NOCREATEROLE"),
            ):
                existe = conn.execute(
                    sa.text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": papel}
                ).first()
                verbo = "ALTER" if existe else "CREATE"
                # DDL takes no bound parameters: the password is a literal (token_urlsafe: letters, digits,
                # "-" and "_" only, nothing to escape); it never enters a message of ours or the log.
                conn.exec_driver_sql(
                    f"{verbo} ROLE {_ident(conn, papel)} {poderes} NOSUPERUSER NOCREATEDB"
                    + (f" PASSWORD '{senha}'" if senha else "")
                )
            if (
                conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": banco}).first()
                is None
            ):
                conn.exec_driver_sql(f"CREATE DATABASE {_ident(conn, banco)} OWNER {_ident(conn, dono)}")
            else:
                conn.exec_driver_sql(f"ALTER DATABASE {_ident(conn, banco)} OWNER TO {_ident(conn, dono)}")
            conn.exec_driver_sql(f"REVOKE ALL ON DATABASE {_ident(conn, banco)} FROM PUBLIC")
            for papel in (app, grupo):
                conn.exec_driver_sql(
                    f"GRANT CONNECT ON DATABASE {_ident(conn, banco)} TO {_ident(conn, papel)}"
                )
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
    _conceder(u, dono, app, grupo, _base(banco))
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


def _conceder(u: sa.URL, dono: str, app: str, grupo: str, prefixo: str) -> None:
    """The users' group holds the program's privileges (every account's role is a member); the application
    role, the address every PC holds, is only the login screen's: it reads the schema's version, the law's
    catalogue and the letterhead, asks whether any account exists, and calls the login functions."""
    motor = sa.create_engine(u)
    try:
        with motor.begin() as conn:
            a, d, g = _ident(conn, app), _ident(conn, dono), _ident(conn, grupo)
            for papel in (a, g):
                conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA public TO {papel}")
                conn.exec_driver_sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {papel}")
                conn.exec_driver_sql(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {papel}")
                conn.exec_driver_sql(f"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM {papel}")
                for tipo in ("TABLES", "SEQUENCES"):
                    conn.exec_driver_sql(
                        f"ALTER DEFAULT PRIVILEGES FOR ROLE {d} IN SCHEMA public REVOKE ALL ON {tipo} FROM {papel}"
                    )
            conn.exec_driver_sql(
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {g}"
            )
            # The audit is written by the database (`secretaria_auditar`, migration 0019), never inserted.
            conn.exec_driver_sql(f"REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON {TABELA_AUDITORIA} FROM {g}")
            conn.exec_driver_sql(f"REVOKE INSERT, UPDATE, DELETE ON alembic_version FROM {g}")
            conn.exec_driver_sql(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {g}")
            for funcao in (
                FUNCAO_AUDITAR,
                "secretaria_sincronizar_conta(integer, text)",
                "secretaria_servidor()",
            ):
                conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION {funcao} TO {g}")
            for tabela in ("alembic_version", "dispositivo", "dados_orgao"):
                conn.exec_driver_sql(f"GRANT SELECT ON {tabela} TO {a}")
            conn.exec_driver_sql(f"GRANT SELECT (id) ON usuario TO {a}")
            for funcao in (
                "secretaria_entrada(text)",
                "secretaria_falha_de_senha(text)",
                "secretaria_migrar_conta(text, text, text)",
                "secretaria_servidor()",
            ):
                conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION {funcao} TO {a}")
            _configurar_funcoes(conn, dono, grupo=grupo, entrada=app, prefixo=prefixo)
            # Tables a later migration creates (as the owner) get the same ordinary grants.
            conn.exec_driver_sql(
                f"ALTER DEFAULT PRIVILEGES FOR ROLE {d} IN SCHEMA public "
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {g}"
            )
            conn.exec_driver_sql(
                f"ALTER DEFAULT PRIVILEGES FOR ROLE {d} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {g}"
            )
    finally:
        motor.dispose()
