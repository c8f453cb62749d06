"""índices do Painel, segunda leva: partial payment indexes (the unpaid-fines queue back on its own), the
decisions, appeals and undecided autos counted from indexes alone

- pagamento: migration 0010's `ix_pagamento_pago_em (situacao, pago_em, …)` and `ix_pagamento_divida
  (situacao, inscrito_divida_em, valor)` led with `situacao`, like the queue of unpaid final fines'
  `ix_pagamento_situacao (situacao, decisao_id, valor)`; on the bench city SQLite then drove that queue
  from the final autos (`ix_auto_fase_prazo_recurso`, 96 % of them) instead of the open payments, 45 ms →
  0.3–0.8 s. As partial indexes (the paid rows by payment day, the inscribed rows by inscription day)
  they serve the Painel's two sums, cannot be read for `situacao = 'aberto'`, and are smaller.
- decisao.ix_decisao_painel (data, resultado, multa_reais, auto_id) replaces ix_decisao_data (data): the
  fines decided per month and the decisions within the limit read no decision row (each is wide: its
  reasoning text); every query by date reads it as it read the old one.
- recurso.ix_recurso_protocolado (protocolado_em, tempestivo, decisao_id): appeals per month of filing
  (there was no index on the day: a full scan).
- auto_infracao.ix_auto_fase_infracao (fase, data_infracao, operadora_id, linha_id): the prescription
  warning's count of undecided autos reads the few open ones, not every auto of six years.

Only indexes: no data changes.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _parcial(nome: str, colunas: list[str], situacao: str) -> None:
    """An index of the payments in one situation only (the same WHERE on both databases)."""
    condicao = sa.text(f"situacao = '{situacao}'")
    op.create_index(nome, "pagamento", colunas, sqlite_where=condicao, postgresql_where=condicao)


def upgrade() -> None:
    op.drop_index("ix_pagamento_pago_em", table_name="pagamento")
    op.drop_index("ix_pagamento_divida", table_name="pagamento")
    _parcial("ix_pagamento_pago", ["pago_em", "valor_pago", "valor"], "pago")
    _parcial("ix_pagamento_divida_ativa", ["inscrito_divida_em", "valor"], "divida_ativa")
    op.drop_index("ix_decisao_data", table_name="decisao")
    op.create_index("ix_decisao_painel", "decisao", ["data", "resultado", "multa_reais", "auto_id"])
    op.create_index("ix_recurso_protocolado", "recurso", ["protocolado_em", "tempestivo", "decisao_id"])
    op.create_index(
        "ix_auto_fase_infracao", "auto_infracao", ["fase", "data_infracao", "operadora_id", "linha_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_auto_fase_infracao", table_name="auto_infracao")
    op.drop_index("ix_recurso_protocolado", table_name="recurso")
    op.drop_index("ix_decisao_painel", table_name="decisao")
    op.create_index("ix_decisao_data", "decisao", ["data"])
    op.drop_index("ix_pagamento_divida_ativa", table_name="pagamento")
    op.drop_index("ix_pagamento_pago", table_name="pagamento")
    op.create_index("ix_pagamento_pago_em", "pagamento", ["situacao", "pago_em", "valor_pago", "valor"])
    op.create_index("ix_pagamento_divida", "pagamento", ["situacao", "inscrito_divida_em", "valor"])
