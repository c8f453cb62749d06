"""retificação: the termo de retificação of an issued auto (REGRAS § 5)

- retificacao: the numbered termo ("TR nº 0001/2026", series "TR" of `numeracao`), the items changed
  old → new, substance or formal, the reason, who and when.
- intimacao.retificacao_id: the termo a delivery carried (its intimação reopens the defence deadline when
  the correction is of substance).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "retificacao",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ano", sa.Integer(), nullable=False),
        sa.Column("numero", sa.Integer(), nullable=False),
        sa.Column("auto_id", sa.Integer(), nullable=False),
        sa.Column("data", sa.Date(), nullable=False),
        sa.Column("substancial", sa.Boolean(), nullable=False),
        sa.Column("itens", sa.Text(), nullable=False),
        sa.Column("motivo", sa.Text(), nullable=False),
        sa.Column("dispositivo_codigo", sa.String(length=30), nullable=False),
        sa.Column("tipo", sa.String(length=1), nullable=False),
        sa.Column("proxima_penalidade", sa.Text(), nullable=True),
        sa.Column("proxima_penalidade_anterior", sa.Text(), nullable=True),
        sa.Column("prazo_defesa_anterior", sa.Date(), nullable=True),
        sa.Column("lavrado_por", sa.String(length=60), nullable=False),
        sa.Column("lavrado_por_nome", sa.String(length=200), nullable=False),
        sa.Column("lavrado_em", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["auto_id"], ["auto_infracao.id"], name=op.f("fk_retificacao_auto_id_auto_infracao")
        ),
        sa.ForeignKeyConstraint(
            ["dispositivo_codigo"],
            ["dispositivo.codigo"],
            name=op.f("fk_retificacao_dispositivo_codigo_dispositivo"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_retificacao")),
        sa.UniqueConstraint("ano", "numero", name=op.f("uq_retificacao_ano_numero")),
    )
    op.create_index(op.f("ix_retificacao_auto_id"), "retificacao", ["auto_id"], unique=False)
    with op.batch_alter_table("intimacao") as tabela:
        tabela.add_column(sa.Column("retificacao_id", sa.Integer(), nullable=True))
        tabela.create_foreign_key(
            op.f("fk_intimacao_retificacao_id_retificacao"), "retificacao", ["retificacao_id"], ["id"]
        )
        tabela.create_index(op.f("ix_intimacao_retificacao_id"), ["retificacao_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("intimacao") as tabela:
        tabela.drop_index(op.f("ix_intimacao_retificacao_id"))
        tabela.drop_constraint(op.f("fk_intimacao_retificacao_id_retificacao"), type_="foreignkey")
        tabela.drop_column("retificacao_id")
    op.drop_index(op.f("ix_retificacao_auto_id"), table_name="retificacao")
    op.drop_table("retificacao")
