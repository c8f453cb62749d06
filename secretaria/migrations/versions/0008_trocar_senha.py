"""trocar senha: a password the administrator reset may be temporary

`usuario.trocar_senha` is set by "Redefinir senha" with "Exigir troca no próximo acesso" and cleared by the
user's own change of password; while it is set, the login goes straight to the change-of-password dialog.
Existing accounts start without it.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("usuario") as lote:
        lote.add_column(sa.Column("trocar_senha", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("usuario") as lote:
        lote.drop_column("trocar_senha")
