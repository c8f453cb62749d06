"""auditoria somente inserção: triggers that refuse UPDATE and DELETE on the audit table

The audit log is append-only by the program's design (`services.auditoria.registrar` only inserts); these
triggers make the database itself refuse a change or removal through any other client, so tampering needs
the deliberate step of dropping a trigger first, and the hash chain (`secretaria auditoria verificar`) still
catches what was done after that. TRUNCATE (PostgreSQL) is left to the server's privileges.

Autogenerate does not see triggers, so tests/test_migracoes.py is unaffected. A later SQLite batch
migration that recreates the "auditoria" table must create these triggers again.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

MENSAGEM = "A auditoria só aceita inclusões: registros de auditoria não podem ser alterados nem apagados."


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"""
            CREATE OR REPLACE FUNCTION auditoria_somente_insercao() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '{MENSAGEM}' USING ERRCODE = 'insufficient_privilege';
            END;
            $$
            """
        )
        op.execute(
            "CREATE TRIGGER auditoria_somente_insercao BEFORE UPDATE OR DELETE ON auditoria "
            "FOR EACH ROW EXECUTE FUNCTION auditoria_somente_insercao()"
        )
    else:
        for evento, nome in (("UPDATE", "auditoria_sem_alteracao"), ("DELETE", "auditoria_sem_exclusao")):
            op.execute(
                f"CREATE TRIGGER {nome} BEFORE {evento} ON auditoria "
                f"BEGIN SELECT RAISE(ABORT, '{MENSAGEM}'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS auditoria_somente_insercao ON auditoria")
        op.execute("DROP FUNCTION IF EXISTS auditoria_somente_insercao()")
    else:
        op.execute("DROP TRIGGER IF EXISTS auditoria_sem_alteracao")
        op.execute("DROP TRIGGER IF EXISTS auditoria_sem_exclusao")
