"""The verification reads records as plain tuples and converts only the columns whose values need it (dates,
times, amounts): the images it compares are the same as `imagem_da_linha` gives, and a record changed
behind the program's back in a column of each kind is still named with its field."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import Base
from secretaria.services.verificacao import (
    TABELAS,
    _extras,
    imagem_da_linha,
    lotes_de_imagens,
    verificar_tudo,
)
from tests.helpers.cidade_auditada import CidadeAuditada, montar
from tests.trust.test_verificacao import _por_fora


@pytest.fixture
def cidade(banco: Banco) -> Iterator[CidadeAuditada]:
    yield montar(banco)


def test_imagens_lidas_em_tuplas_sao_as_de_imagem_da_linha(banco: Banco, cidade: CidadeAuditada) -> None:
    # A text column holding bytes (written by hand into the SQLite file) takes json_valor on every value.
    if banco.eh_sqlite:
        _por_fora(banco, "UPDATE auto_infracao SET descricao_fatos = X'4e616461' WHERE id = 1")
    vistas = 0
    with banco.leitura() as s:
        for spec in TABELAS:
            tabela = Base.metadata.tables[spec.nome]
            linhas = s.execute(sa.select(tabela).order_by(tabela.c[spec.chave])).mappings().all()
            extras = _extras(s, spec.nome, [linha[spec.chave] for linha in linhas])
            esperadas = [
                (linha[spec.chave], {**imagem_da_linha(tabela, linha), **extras.get(linha[spec.chave], {})})
                for linha in linhas
            ]
            lidas = [par for lote in lotes_de_imagens(s, spec.nome, lote=3) for par in lote]
            assert lidas == esperadas, spec.nome
            for (_chave, lida), (_c, esperada) in zip(lidas, esperadas, strict=True):
                assert [type(v) for v in lida.values()] == [type(v) for v in esperada.values()]
            vistas += len(lidas)
    assert vistas > 50


@pytest.mark.parametrize(
    ("sql", "campo"),
    [
        pytest.param(
            "UPDATE auto_infracao SET data_infracao = '2020-01-02' WHERE id = 1", "data_infracao", id="data"
        ),
        pytest.param(
            "UPDATE auto_infracao SET hora_lavratura = '01:02:03' WHERE id = 1", "hora_lavratura", id="hora"
        ),
        pytest.param(
            "UPDATE auto_infracao SET criado_em = '2020-01-02 03:04:05' WHERE id = 1",
            "criado_em",
            id="momento",
        ),
        pytest.param("UPDATE auto_infracao SET local = 'X' WHERE id = 1", "local", id="texto"),
        pytest.param(
            "UPDATE auto_infracao SET recusou_assinar = NOT recusou_assinar WHERE id = 1",
            "recusou_assinar",
            id="sim_ou_nao",
        ),
    ],
)
def test_campo_de_cada_tipo_alterado_por_fora_e_apontado(
    banco: Banco, cidade: CidadeAuditada, sql: str, campo: str
) -> None:
    _por_fora(banco, sql)
    with banco.leitura() as s:
        relatorio = verificar_tudo(s)
    assert relatorio.cadeia.integra and not relatorio.integro
    esperado = f"O auto de infração 0001/2026 (registro 1): o campo {campo} é "
    assert [a for a in relatorio.achados if a.startswith(esperado)], relatorio.achados


def test_valor_decimal_alterado_por_fora_e_apontado(banco: Banco, cidade: CidadeAuditada) -> None:
    _por_fora(banco, "UPDATE decisao SET multa_ur = multa_ur + 1")
    with banco.leitura() as s:
        relatorio = verificar_tudo(s)
    assert any("A decisão 1: o campo multa_ur" in a for a in relatorio.achados), relatorio.achados


def test_bytes_numa_coluna_de_texto_sao_apontados_pelo_seu_sha256(
    banco: Banco, cidade: CidadeAuditada
) -> None:
    if not banco.eh_sqlite:
        pytest.skip("só um arquivo SQLite aceita bytes numa coluna de texto")
    _por_fora(banco, "UPDATE auto_infracao SET descricao_fatos = X'4e616461' WHERE id = 1")
    with banco.leitura() as s:
        relatorio = verificar_tudo(s)
    sha = "“" + hashlib.sha256(b"Nada").hexdigest()
    assert any("o campo descricao_fatos é " + sha in a for a in relatorio.achados), relatorio.achados
