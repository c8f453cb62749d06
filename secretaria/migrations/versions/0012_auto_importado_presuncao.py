"""auto importado, presunção e encerramento: the paper books' cases as the book says them (issue 25)

- auto_infracao.definitiva_presumida: the book did not record the day the penalty became final and the
  import presumed it (REGRAS § 3 rule 1, imported priors); the sanction panel says so.
- auto_infracao.encerrado_no_livro: "pago", "divida_ativa" or "arquivado" for a case the book closed, so
  the home queues list only what still needs an act.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("auto_infracao") as tabela:
        tabela.add_column(
            sa.Column("definitiva_presumida", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        tabela.add_column(sa.Column("encerrado_no_livro", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auto_infracao") as tabela:
        tabela.drop_column("encerrado_no_livro")
        tabela.drop_column("definitiva_presumida")
