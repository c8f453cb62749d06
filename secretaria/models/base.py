"""Declarative base, naming convention and the columns every editable record shares.

The naming convention makes constraint names identical on SQLite and PostgreSQL, so Alembic's
autogenerate compares the two schemas without false differences.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio

CONVENCAO_NOMES = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def agora() -> datetime:
    """Column default: the program's one clock, looked up at each call (so a moved clock is seen)."""
    return relogio.agora()


class Base(so.DeclarativeBase):
    metadata = sa.MetaData(naming_convention=CONVENCAO_NOMES)


class Versionado:
    """Optimistic locking: SQLAlchemy bumps `versao` on every UPDATE and refuses a stale one.

    `alterado_em`/`alterado_por` let the refusal say who changed the record and when.
    """

    versao: so.Mapped[int] = so.mapped_column(sa.Integer, nullable=False, default=1)
    criado_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, nullable=False, default=agora)
    alterado_em: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime, nullable=False, default=agora, onupdate=agora
    )
    alterado_por: so.Mapped[str | None] = so.mapped_column(sa.String(60))

    @so.declared_attr.directive
    def __mapper_args__(cls) -> dict[str, object]:
        return {"version_id_col": cls.versao}


# Amounts: URM to the hundredth (0,10 … 10,00), reais to the cent, URM value with room for 4 decimals.
URM_QTD = sa.Numeric(8, 2)
REAIS = sa.Numeric(14, 2)
VALOR_URM = sa.Numeric(14, 4)
