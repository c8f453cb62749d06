"""senha versao: the audit says a password changed, never what it is

`usuario.senha_versao` counts the times the account's password was set (1 when created, one more at each
reset or own change). The audit image of an account carries "senha": "alterada nº N" instead of anything
derived from the stored hash, so reading the audit gives nothing to test a password guess against; the
verification compares the marker with this counter. Existing accounts start at 1.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("usuario") as lote:
        lote.add_column(sa.Column("senha_versao", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("usuario") as lote:
        lote.drop_column("senha_versao")
