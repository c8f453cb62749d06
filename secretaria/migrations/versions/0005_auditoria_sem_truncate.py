"""auditoria sem truncate: a statement-level trigger that refuses TRUNCATE of the audit (PostgreSQL)

The row-level triggers of 0002 never fire on TRUNCATE, which empties the table in one statement; this one
refuses it. SQLite has no TRUNCATE (its "DELETE FROM auditoria" is refused row by row by 0002). The program
also checks that the trigger exists (`secretaria auditoria verificar`).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

MENSAGEM = "A auditoria só aceita inclusões: a tabela de auditoria não pode ser esvaziada (TRUNCATE)."


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION auditoria_sem_truncate() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{MENSAGEM}' USING ERRCODE = 'insufficient_privilege';
        END;
        $$
        """
    )
    op.execute(
        "CREATE TRIGGER auditoria_sem_truncate BEFORE TRUNCATE ON auditoria "
        "FOR EACH STATEMENT EXECUTE FUNCTION auditoria_sem_truncate()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS auditoria_sem_truncate ON auditoria")
    op.execute("DROP FUNCTION IF EXISTS auditoria_sem_truncate()")
