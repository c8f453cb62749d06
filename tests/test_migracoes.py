"""`upgrade head` from empty gives exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from secretaria import migracoes
from secretaria.db import Banco
from secretaria.models import Base


def test_migracoes_geram_exatamente_o_esquema_dos_modelos(banco: Banco) -> None:
    with banco.engine.connect() as conn:
        contexto = MigrationContext.configure(conn, opts={"compare_type": True})
        diferencas = compare_metadata(contexto, Base.metadata)
        assert diferencas == []
        assert contexto.get_current_revision() == migracoes.revisao_head()


def test_todas_as_tabelas_dos_modelos_existem(banco: Banco) -> None:
    tabelas = set(sa.inspect(banco.engine).get_table_names())
    assert set(Base.metadata.tables) <= tabelas
