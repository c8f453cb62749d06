"""Alembic environment: always handed a live connection by secretaria.migracoes."""

from __future__ import annotations

from alembic import context

from secretaria.models import Base

conexao = context.config.attributes.get("connection")
if conexao is None:  # pragma: no cover - the program always passes its connection
    raise RuntimeError(
        "Execute as migrações pela Secretaria (secretaria.migracoes), não pelo comando alembic."
    )

context.configure(
    connection=conexao,
    target_metadata=Base.metadata,
    render_as_batch=conexao.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
