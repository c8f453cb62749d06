"""papel check do enum: the role CHECK constraint, now generated from `secretaria.codigos.Papel`

Every CHECK constraint of the models is generated from its code list (`secretaria.codigos.check_em`); only
`usuario_papel`'s text changes (it was written with a space after each comma), so that a database built by
the migrations and the models' own DDL hold the same constraint. The allowed roles are the same six; the
values are written out here, so this revision never changes with the code.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_NOME = "ck_usuario_papel_papel_valido"
_PAPEIS = ("administrador", "fiscal", "protocolo", "autoridade", "secretario", "consulta")


def _recriar(separador: str) -> None:
    condicao = "papel IN (" + separador.join(f"'{p}'" for p in _PAPEIS) + ")"
    with op.batch_alter_table("usuario_papel") as lote:
        lote.drop_constraint(op.f(_NOME), type_="check")
        lote.create_check_constraint(op.f(_NOME), condicao)


def upgrade() -> None:
    _recriar(",")


def downgrade() -> None:
    _recriar(", ")
