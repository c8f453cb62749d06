"""índices do Painel: the counts, medians and amounts per month read indexes, not the wide rows

- auto_infracao.ix_auto_painel: the period's autos by month, operator, line, tipo, provision, phase and
  deadlines (every Painel chart over the autos);
- intimacao.ix_intimacao_entregue: the first delivered intimação of each auto;
- pagamento.ix_pagamento_pago_em, ix_pagamento_divida: amounts paid and inscribed in dívida ativa per month.

Only indexes: no data changes, nothing to migrate back but the indexes themselves.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_INDICES = (
    (
        "ix_auto_painel",
        "auto_infracao",
        [
            "data_infracao",
            "fase",
            "operadora_id",
            "tipo",
            "dispositivo_codigo",
            "linha_id",
            "prazo_defesa",
            "prazo_recurso",
            "id",
        ],
    ),
    ("ix_intimacao_entregue", "intimacao", ["auto_id", "objeto", "sucesso", "data"]),
    ("ix_pagamento_pago_em", "pagamento", ["situacao", "pago_em", "valor_pago", "valor"]),
    ("ix_pagamento_divida", "pagamento", ["situacao", "inscrito_divida_em", "valor"]),
)


def upgrade() -> None:
    for nome, tabela, colunas in _INDICES:
        op.create_index(nome, tabela, colunas)


def downgrade() -> None:
    for nome, tabela, _colunas in reversed(_INDICES):
        op.drop_index(nome, table_name=tabela)
