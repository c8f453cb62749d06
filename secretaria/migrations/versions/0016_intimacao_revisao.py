"""intimação do termo de revisão (Lei 9.784/1999, art. 65; REGRAS § 5)

- intimacao.objeto may be "revisao": the delivery of the auto's latest termo de revisão, notified like a
  decision. The values are written out here, so this revision never changes with the code.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
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
    _objetos("auto", "decisao", "julgamento", "revisao")


def downgrade() -> None:
    _objetos("auto", "decisao", "julgamento")
