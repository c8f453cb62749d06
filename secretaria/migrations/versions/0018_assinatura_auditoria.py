"""assinatura da auditoria: on SQLite every audit row is signed by its author

- chave_assinatura: each user's Ed25519 key, the private half sealed with a key derived from the user's
  password, the public half certified by an administrator (`services.chaves`). Old keys stay (inactive),
  so the rows they signed keep verifying after a password reset.
- auditoria.assinatura: "<key id>:<signature of the row's hash>". Added with a plain ADD COLUMN (never a
  batch copy of the table: that would drop the append-only triggers of 0002).

Rows written before this revision stay unsigned (the audit is append-only); `auditoria verificar` reports
them as "anteriores à assinatura", up to the first signed row. Accounts get their key at their next login.

Revision ID: 0018
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chave_assinatura",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("usuario_id", sa.Integer(), nullable=False),
        sa.Column("publica", sa.String(64), nullable=False),
        sa.Column("selada", sa.String(300), nullable=False),
        sa.Column("motivo", sa.String(30), nullable=False),
        sa.Column("criada_em", sa.DateTime(), nullable=False),
        sa.Column("certificada_por", sa.Integer(), nullable=True),
        sa.Column("certificado", sa.String(128), nullable=False),
        sa.Column("ativa", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["usuario_id"], ["usuario.id"], name=op.f("fk_chave_assinatura_usuario_id_usuario")
        ),
        sa.ForeignKeyConstraint(
            ["certificada_por"],
            ["chave_assinatura.id"],
            name=op.f("fk_chave_assinatura_certificada_por_chave_assinatura"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chave_assinatura")),
    )
    op.create_index(op.f("ix_chave_assinatura_usuario_id"), "chave_assinatura", ["usuario_id"])
    op.add_column("auditoria", sa.Column("assinatura", sa.String(150), nullable=True))


def downgrade() -> None:
    op.drop_column("auditoria", "assinatura")
    op.drop_index(op.f("ix_chave_assinatura_usuario_id"), table_name="chave_assinatura")
    op.drop_table("chave_assinatura")
