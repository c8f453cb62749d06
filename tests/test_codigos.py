"""The code lists of `secretaria.codigos`: every label table covers its whole list, nothing else."""

from __future__ import annotations

from enum import StrEnum

import pytest

from secretaria import codigos as c

TABELAS: list[tuple[type[StrEnum], dict[str, str]]] = [
    (c.FaseAuto, c.ROTULOS_FASE),
    (c.FaseAuto, c.DESCRICOES_FASE),
    (c.SituacaoPagamento, c.ROTULOS_PAGAMENTO),
    (c.SituacaoPagamento, c.ROTULOS_CURTOS_PAGAMENTO),
    (c.SituacaoCumprimento, c.ROTULOS_CUMPRIMENTO),
    (c.ResultadoRecurso, c.ROTULOS_RECURSO),
    (c.MeioIntimacao, c.ROTULOS_MEIO),
    (c.ResultadoIntimacao, c.ROTULOS_RESULTADO_INTIMACAO),
    (c.SituacaoRepresentacao, c.ROTULOS_REPRESENTACAO),
    (c.SituacaoCassacao, c.ROTULOS_CASSACAO),
    (c.ResultadoCassacao, c.ROTULOS_RESULTADO_CASSACAO),
    (c.SituacaoOperadora, c.ROTULOS_OPERADORA),
    (c.Delegacao, c.ROTULOS_DELEGACAO),
    (c.SituacaoVeiculo, c.ROTULOS_VEICULO),
    (c.Funcao, c.ROTULOS_FUNCAO),
    (c.OrigemDispositivo, c.ROTULOS_ORIGEM),
    (c.Papel, c.ROTULOS_PAPEIS),
]


@pytest.mark.parametrize(("lista", "tabela"), TABELAS)
def test_cada_tabela_rotula_a_lista_inteira_em_ordem(lista: type[StrEnum], tabela: dict[str, str]) -> None:
    assert list(tabela) == list(lista)
    assert all(tabela.values()), "um rótulo vazio"
    assert len(set(tabela.values())) == len(tabela), "dois códigos com o mesmo rótulo"


def test_escolhas_registraveis_sao_da_lista() -> None:
    assert set(c.REGISTROS_PAGAMENTO) < set(c.SituacaoPagamento)
    assert set(c.REGISTROS_CUMPRIMENTO) < set(c.SituacaoCumprimento)


def test_o_codigo_lido_do_banco_acha_o_rotulo() -> None:
    """A plain string from a row is the member: labels are looked up by code, never the reverse."""
    assert c.ROTULOS_CURTOS_PAGAMENTO["divida_ativa"] == "Dívida ativa"
    assert c.SituacaoPagamento("divida_ativa") is c.SituacaoPagamento.DIVIDA_ATIVA


def test_check_e_itens() -> None:
    assert c.check_em("objeto", c.ObjetoIntimacao) == "objeto IN ('auto','decisao','julgamento','revisao')"
    assert c.check_em("resultado", c.ResultadoCassacao, nulo=True) == (
        "resultado IS NULL OR resultado IN ('cassada','arquivada')"
    )
    assert c.itens(c.REGISTROS_PAGAMENTO) == [("Paga", "pago"), ("Inscrita em dívida ativa", "divida_ativa")]
