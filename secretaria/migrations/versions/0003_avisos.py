"""avisos: who decided, office hours, how to pay

- decisao.secretario_nome / secretario_cargo: the Secretary who decided, as the notice signs it, recorded
  when the decision is made (a re-render of an old decision must not name today's Secretary). Null on
  rows decided before this revision: `services.documentos` reads those from the audit trail.
- dados_orgao.horario_expediente: the office hours the intimação states (Lei 9.784/1999, art. 26 § 1º).
- dados_orgao.pagamento_instrucoes: where and how a fine is paid, printed on the decision notice.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("decisao") as tabela:
        tabela.add_column(sa.Column("secretario_nome", sa.String(length=200), nullable=True))
        tabela.add_column(sa.Column("secretario_cargo", sa.String(length=200), nullable=True))
    with op.batch_alter_table("dados_orgao") as tabela:
        tabela.add_column(
            sa.Column("horario_expediente", sa.String(length=200), nullable=False, server_default="")
        )
        tabela.add_column(
            sa.Column("pagamento_instrucoes", sa.String(length=500), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("dados_orgao") as tabela:
        tabela.drop_column("pagamento_instrucoes")
        tabela.drop_column("horario_expediente")
    with op.batch_alter_table("decisao") as tabela:
        tabela.drop_column("secretario_cargo")
        tabela.drop_column("secretario_nome")
