"""penalidade definitiva: the day each penalty became final, and the deadlines moved by the calendar

REGRAS § 3 rule 1 now counts a prior only once its penalty became final (art. 7º caput): the day after the
appeal deadline with no timely appeal, or the day a timely appeal was judged (denied or granted in part).
`auto_infracao.data_definitiva` stores that day for the sanction panel's indexed reading; existing rows are
filled here from their decision, appeal deadline and appeal, with the same rule as
`services.definitividade.penalidade_definitiva_em` (copied, so this revision never changes with the code).

`revisao_prazo` records each deadline a non-business day registered later moved (REGRAS § 4).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("auto_infracao") as lote:
        lote.add_column(sa.Column("data_definitiva", sa.Date(), nullable=True))
    op.create_index(
        "ix_auto_suspensao_definitiva", "auto_infracao", ["suspensao_dias", "data_definitiva"], unique=False
    )
    op.create_table(
        "revisao_prazo",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("auto_id", sa.Integer(), nullable=False),
        sa.Column("data", sa.Date(), nullable=False),
        sa.Column("prazo", sa.String(length=10), nullable=False),
        sa.Column("anterior", sa.Date(), nullable=False),
        sa.Column("novo", sa.Date(), nullable=False),
        sa.Column("motivo", sa.Text(), nullable=False),
        sa.Column("reclassificacao", sa.Text(), nullable=False),
        sa.Column("reclassificou", sa.Boolean(), nullable=False),
        sa.Column("decidido", sa.Boolean(), nullable=False),
        sa.Column("registrado_por", sa.String(length=60), nullable=False),
        sa.Column("registrado_em", sa.DateTime(), nullable=False),
        sa.Column("conferida_em", sa.Date(), nullable=True),
        sa.Column("conferida_por", sa.String(length=60), nullable=True),
        sa.CheckConstraint("prazo IN ('defesa','recurso')", name=op.f("ck_revisao_prazo_prazo_valido")),
        sa.ForeignKeyConstraint(
            ["auto_id"], ["auto_infracao.id"], name=op.f("fk_revisao_prazo_auto_id_auto_infracao")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revisao_prazo")),
    )
    op.create_index(op.f("ix_revisao_prazo_auto_id"), "revisao_prazo", ["auto_id"], unique=False)
    op.create_index(
        "ix_revisao_prazo_conferir",
        "revisao_prazo",
        ["reclassificou", "decidido", "conferida_em"],
        unique=False,
    )
    _preencher_data_definitiva()


def _preencher_data_definitiva() -> None:
    conexao = op.get_bind()
    auto = sa.table(
        "auto_infracao",
        sa.column("id", sa.Integer),
        sa.column("fase", sa.String),
        sa.column("prazo_recurso", sa.Date),
        sa.column("penalidade_anulada", sa.Boolean),
        sa.column("data_definitiva", sa.Date),
    )
    decisao = sa.table(
        "decisao",
        sa.column("id", sa.Integer),
        sa.column("auto_id", sa.Integer),
        sa.column("resultado", sa.String),
    )
    recurso = sa.table(
        "recurso",
        sa.column("decisao_id", sa.Integer),
        sa.column("tempestivo", sa.Boolean),
        sa.column("resultado", sa.String),
        sa.column("julgado_em", sa.Date),
    )
    linhas = conexao.execute(
        sa.select(
            auto.c.id,
            auto.c.prazo_recurso,
            auto.c.penalidade_anulada,
            recurso.c.tempestivo,
            recurso.c.resultado,
            recurso.c.julgado_em,
        )
        .join(decisao, decisao.c.auto_id == auto.c.id)
        .outerjoin(recurso, recurso.c.decisao_id == decisao.c.id)
        .where(decisao.c.resultado == "aplicada", auto.c.fase != "cancelado")
    ).all()
    valores = []
    for auto_id, prazo, anulada, tempestivo, resultado, julgado in linhas:
        if anulada:
            continue
        if tempestivo:
            dia = julgado if julgado is not None and resultado in ("negado", "provido_parcialmente") else None
        else:
            dia = prazo + timedelta(days=1) if prazo is not None else None
        if dia is not None:
            valores.append({"chave": auto_id, "dia": dia})
    if valores:
        conexao.execute(
            auto.update()
            .where(auto.c.id == sa.bindparam("chave"))
            .values(data_definitiva=sa.bindparam("dia")),
            valores,
        )


def downgrade() -> None:
    op.drop_index("ix_revisao_prazo_conferir", table_name="revisao_prazo")
    op.drop_index(op.f("ix_revisao_prazo_auto_id"), table_name="revisao_prazo")
    op.drop_table("revisao_prazo")
    op.drop_index("ix_auto_suspensao_definitiva", table_name="auto_infracao")
    with op.batch_alter_table("auto_infracao") as lote:
        lote.drop_column("data_definitiva")
