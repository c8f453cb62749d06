"""revisão de sanção (Lei 9.784/1999, art. 65; REGRAS § 5)

- revisao_sancao: a decided case whose counted prior was later annulled or reduced, waiting for the
  Secretary's review (the level and range it would have today), and the outcome: revised by a numbered
  "termo de revisão" (series "TRV" of `numeracao`), or kept with reasons; an amount to be refunded.
- intimacao.objeto may be "julgamento": the delivery of the notificação do julgamento do recurso, notified
  like the decision (REGRAS § 5). The values are written out here, so this revision never changes with the
  code.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


_CHECK_OBJETO = "ck_intimacao_objeto_valido"


def _objetos(*valores: str) -> None:
    with op.batch_alter_table("intimacao") as lote:
        lote.drop_constraint(op.f(_CHECK_OBJETO), type_="check")
        lote.create_check_constraint(
            op.f(_CHECK_OBJETO), "objeto IN (" + ",".join(f"'{v}'" for v in valores) + ")"
        )


def upgrade() -> None:
    _objetos("auto", "decisao", "julgamento")
    op.create_table(
        "revisao_sancao",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("auto_id", sa.Integer(), nullable=False),
        sa.Column("antecedente_auto_id", sa.Integer(), nullable=False),
        sa.Column("origem", sa.Text(), nullable=False),
        sa.Column("registrada_em", sa.Date(), nullable=False),
        sa.Column("reincidencia_anterior", sa.Integer(), nullable=False),
        sa.Column("reincidencia_atual", sa.Integer(), nullable=False),
        sa.Column("faixa_min_ur", sa.Numeric(8, 2), nullable=False),
        sa.Column("faixa_max_ur", sa.Numeric(8, 2), nullable=False),
        sa.Column("suspensao_max_dias", sa.Integer(), nullable=True),
        sa.Column("situacao", sa.String(length=10), nullable=False),
        sa.Column("decidida_em", sa.Date(), nullable=True),
        sa.Column("decidida_por", sa.String(length=60), nullable=True),
        sa.Column("decidida_por_nome", sa.String(length=200), nullable=True),
        sa.Column("fundamentacao", sa.Text(), nullable=True),
        sa.Column("multa_ur_anterior", sa.Numeric(8, 2), nullable=True),
        sa.Column("multa_ur_nova", sa.Numeric(8, 2), nullable=True),
        sa.Column("suspensao_dias_anterior", sa.Integer(), nullable=True),
        sa.Column("suspensao_dias_nova", sa.Integer(), nullable=True),
        sa.Column("valor_restituir", sa.Numeric(14, 2), nullable=True),
        sa.Column("ano", sa.Integer(), nullable=True),
        sa.Column("numero", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["auto_id"], ["auto_infracao.id"], name=op.f("fk_revisao_sancao_auto_id_auto_infracao")
        ),
        sa.ForeignKeyConstraint(
            ["antecedente_auto_id"],
            ["auto_infracao.id"],
            name=op.f("fk_revisao_sancao_antecedente_auto_id_auto_infracao"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revisao_sancao")),
        sa.UniqueConstraint("ano", "numero", name=op.f("uq_revisao_sancao_ano_numero")),
    )
    op.create_index(op.f("ix_revisao_sancao_auto_id"), "revisao_sancao", ["auto_id"], unique=False)
    op.create_index("ix_revisao_sancao_situacao", "revisao_sancao", ["situacao", "auto_id"], unique=False)


def downgrade() -> None:
    _objetos("auto", "decisao")
    op.drop_index("ix_revisao_sancao_situacao", table_name="revisao_sancao")
    op.drop_index(op.f("ix_revisao_sancao_auto_id"), table_name="revisao_sancao")
    op.drop_table("revisao_sancao")
