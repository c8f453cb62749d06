"""documento assinado: issued documents signed with a digital certificate (issue 29)

- documento_emitido.assinado_por, certificado: the signer's name and the certificate (serial and issuer) as
  read from the certificate when signing, so lists say who signed without parsing every PDF;
- documento_emitido.sha256_original: the SHA-256 of the unsigned rendering, so issuing the same document
  again finds its signed copy (a signature is never byte-identical twice);
- documento_emitido.versao_de_id: the unsigned copy a later signature was applied to (that copy is kept).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("documento_emitido") as tabela:
        tabela.add_column(sa.Column("sha256_original", sa.String(length=64), nullable=True))
        tabela.add_column(sa.Column("assinado_por", sa.String(length=200), nullable=True))
        tabela.add_column(sa.Column("certificado", sa.String(length=300), nullable=True))
        tabela.add_column(sa.Column("versao_de_id", sa.Integer(), nullable=True))
        tabela.create_foreign_key(
            "fk_documento_emitido_versao_de_id_documento_emitido",
            "documento_emitido",
            ["versao_de_id"],
            ["id"],
        )


def downgrade() -> None:
    with op.batch_alter_table("documento_emitido") as tabela:
        tabela.drop_constraint("fk_documento_emitido_versao_de_id_documento_emitido", type_="foreignkey")
        tabela.drop_column("versao_de_id")
        tabela.drop_column("certificado")
        tabela.drop_column("assinado_por")
        tabela.drop_column("sha256_original")
