"""auto importado: the autos of the office's past brought in from a spreadsheet (issue 17)

- auto_infracao.importado_de, importado_sha256: the file's name and SHA-256 (None for an auto drawn up in
  the program), so the case screen and the sanction panel say where an antecedent came from.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("auto_infracao") as tabela:
        tabela.add_column(sa.Column("importado_de", sa.String(length=255), nullable=True))
        tabela.add_column(sa.Column("importado_sha256", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auto_infracao") as tabela:
        tabela.drop_column("importado_sha256")
        tabela.drop_column("importado_de")
