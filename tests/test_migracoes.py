"""`upgrade head` from empty gives exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from secretaria import migracoes
from secretaria.db import Banco
from secretaria.models import Base

# Released revisions, by the SHA-256 of their bytes. Databases built by them exist in the field and will never
# run them again, so a released revision never changes: a schema change is a new revision on top of the head.
REVISOES_PUBLICADAS = {
    "0001_esquema_inicial.py": "b660d4b6c5a4248ee834d1bbb7978fe265f7c98c045889e8b3de36add7ddae3e",
    "0002_auditoria_somente_insercao.py": "0c3d5dbdff949a16464933bb779b8e89c84ecd0575c4d46fb3714eb04ea51968",
    "0003_avisos.py": "48fabfcc5989abe50cd28add8b448f9858a3f19a5f86cc3ccc16026520c5a0b1",
    "0004_penalidade_definitiva.py": "fe3a9d6d6a4352a9147fa39d92ffbfaa315621f66ca1cb47f1b744dce5b1d3b1",
    "0005_auditoria_sem_truncate.py": "c0a29c4454e0f692114da3fd064e9e2b67f04bab654307871cd58418a803f536",
    "0006_papel_check_do_enum.py": "b0a3380263913d78afcd413727848224cbdd27cf791fa426fa9c1319655ba818",
    "0007_retificacao.py": "8f3da12b193a79bf23d1f87b0ca743b61b0aa76a1e8442671686ff4c9408100a",
    "0008_trocar_senha.py": "a2eeaa08238439f6471af77e89b5086f80d68326fc76d6a7a1e76c51d4c505e2",
    "0009_auto_importado.py": "a8c1deb1d810724c962f85bf89550ffa8c5d86aae912c2e79ef491dc4e767a58",
    "0010_indices_painel.py": "4e5437a9a9d1f2888e9f9aa5ff14fad22171ed72fa312cf454ce6924cdbd01e7",
    "0011_indices_painel_2.py": "38017d6e45802d1dd70130da35e435c18e5947623b65bcfdb2db051c9713da3e",
    "0012_auto_importado_presuncao.py": "d3bc9ce9b423665f7146f7ae76add9f23415d460dcc5837e7c386c7c8eb15d8b",
    "0013_revisao_sancao.py": "89d73c61224c56b7199054dabc46dcf6e2dabf14ef6cc1e84b1e36cd2eb0ca7b",
    "0014_senha_versao.py": "5ed9525decbf4db68321770e62298f31cf8e2fe1f5c1066afdd519bedb5e24ba",
    "0015_documento_assinado.py": "1d1c81ac857634aec1b1ef8a9f97d2a76c19e1fee148bfc71990aec7dc050120",
    "0016_intimacao_revisao.py": "297136d0cd392c1cfb3a1ddfe2aaaacd0f58dcc220627135faad914ad0d1f87b",
}


@pytest.mark.parametrize("arquivo", sorted(REVISOES_PUBLICADAS))
def test_revisao_publicada_nunca_muda(arquivo: str) -> None:
    caminho = migracoes.PASTA / "versions" / arquivo
    assert hashlib.sha256(caminho.read_bytes()).hexdigest() == REVISOES_PUBLICADAS[arquivo], (
        f"{caminho} foi alterada. Há bancos em uso criados por ela, que nunca a executarão de novo: restaure o "
        "arquivo e escreva a mudança numa revisão nova (0003_…, com down_revision na revisão head atual)."
    )


def test_migracoes_geram_exatamente_o_esquema_dos_modelos(banco: Banco) -> None:
    with banco.engine.connect() as conn:
        contexto = MigrationContext.configure(conn, opts={"compare_type": True})
        diferencas = compare_metadata(contexto, Base.metadata)
        assert diferencas == []
        assert contexto.get_current_revision() == migracoes.revisao_head()


def test_todas_as_tabelas_dos_modelos_existem(banco: Banco) -> None:
    tabelas = set(sa.inspect(banco.engine).get_table_names())
    assert set(Base.metadata.tables) <= tabelas


def test_restricoes_check_sao_as_dos_modelos(banco: Banco) -> None:
    """Each CHECK of the models (generated from `secretaria.codigos`) exists after `upgrade head`; SQLite
    keeps the text as written, so there the text must be the models' own, value for value."""
    inspetor = sa.inspect(banco.engine)
    for tabela in Base.metadata.sorted_tables:
        esperadas = {
            str(c.name): str(c.sqltext) for c in tabela.constraints if isinstance(c, sa.CheckConstraint)
        }
        achadas = {str(c["name"]): str(c["sqltext"]) for c in inspetor.get_check_constraints(tabela.name)}
        assert set(achadas) == set(esperadas), tabela.name
        if banco.engine.dialect.name == "sqlite":
            assert achadas == esperadas, tabela.name
