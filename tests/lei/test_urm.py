"""URM: valor vigente, conversão em reais e valor por extenso (REGRAS.md § 2)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from secretaria.lei.erros import ErroLei
from secretaria.lei.urm import (
    UrmSemValor,
    ValorUrm,
    descrever_multa,
    formatar_decimal,
    formatar_reais,
    formatar_urm,
    por_extenso,
    urm_para_reais,
    valor_em,
    vigente_em,
)

PROPRIEDADE = settings(max_examples=200, deadline=None, database=None)

TABELA = [
    ValorUrm(date(2026, 1, 1), Decimal("164.74"), "Decreto nº 1/2026"),
    ValorUrm(date(2025, 1, 1), Decimal("158.20"), "Decreto nº 7/2024"),
    ValorUrm(date(2027, 1, 1), Decimal("170.00"), "Decreto nº 3/2027"),
]


@pytest.mark.parametrize(
    ("dia", "valor"),
    [
        (date(2025, 1, 1), "158.20"),
        (date(2025, 12, 31), "158.20"),
        (date(2026, 1, 1), "164.74"),
        (date(2026, 7, 15), "164.74"),
        (date(2030, 1, 1), "170.00"),
    ],
)
def test_valor_em_vigor_no_dia(dia: date, valor: str) -> None:
    assert valor_em(TABELA, dia) == Decimal(valor)


def test_vigente_em_diz_o_ato() -> None:
    assert vigente_em(TABELA, date(2026, 3, 1)).ato == "Decreto nº 1/2026"


def test_sem_valor_em_vigor_nomeia_a_lacuna() -> None:
    with pytest.raises(
        UrmSemValor, match="em vigor em 31/12/2024: o primeiro valor cadastrado vale a partir de 01/01/2025"
    ):
        valor_em(TABELA, date(2024, 12, 31))
    with pytest.raises(
        UrmSemValor, match="A tabela da URM está vazia: cadastre o valor da URM em vigor em 10/03/2026"
    ):
        valor_em([], date(2026, 3, 10))


def test_valores_diferentes_no_mesmo_dia_sao_recusados() -> None:
    repetido = ValorUrm(date(2026, 1, 1), Decimal("164.74"), "Republicação")
    assert valor_em([*TABELA, repetido], date(2026, 2, 1)) == Decimal("164.74")
    conflito = ValorUrm(date(2026, 1, 1), Decimal("165.00"), "Errata")
    with pytest.raises(ErroLei, match=r"valores diferentes \(R\$ 164,74, R\$ 165,00\)"):
        valor_em([*TABELA, conflito], date(2026, 2, 1))


@pytest.mark.parametrize(
    ("ur", "valor", "reais"),
    [
        ("0.50", "164.74", "82.37"),
        ("1", "164.74", "164.74"),
        ("0.25", "0.10", "0.03"),  # 0,025: meio para cima, não para o par
        ("0.10", "164.74", "16.47"),  # 16,474
        ("10", "164.745", "1647.45"),
        ("0.15", "164.70", "24.71"),  # 24,705
    ],
)
def test_urm_para_reais_arredonda_meio_para_cima(ur: str, valor: str, reais: str) -> None:
    resultado = urm_para_reais(Decimal(ur), Decimal(valor))
    assert resultado == Decimal(reais)
    assert resultado.as_tuple().exponent == -2


@pytest.mark.parametrize(
    ("valor", "extenso"),
    [
        ("1", "um real"),
        ("1.01", "um real e um centavo"),
        ("0.37", "trinta e sete centavos"),
        ("0.01", "um centavo"),
        ("0.5", "cinquenta centavos"),
        ("0.005", "um centavo"),
        ("0", "zero reais"),
        ("2", "dois reais"),
        ("82.37", "oitenta e dois reais e trinta e sete centavos"),
        ("164.74", "cento e sessenta e quatro reais e setenta e quatro centavos"),
        ("100", "cem reais"),
        ("101", "cento e um reais"),
        ("1000", "mil reais"),
        ("1001", "mil e um reais"),
        ("1100", "mil e cem reais"),
        ("1234.56", "mil duzentos e trinta e quatro reais e cinquenta e seis centavos"),
        ("2101", "dois mil cento e um reais"),
        ("1000000", "um milhão de reais"),
        ("2000000", "dois milhões de reais"),
        ("1000000.01", "um milhão de reais e um centavo"),
        ("1500000", "um milhão e quinhentos mil reais"),
        ("1000000000", "um bilhão de reais"),
        (
            "999999.99",
            "novecentos e noventa e nove mil novecentos e noventa e nove reais e noventa e nove centavos",
        ),
    ],
)
def test_por_extenso_na_norma(valor: str, extenso: str) -> None:
    assert por_extenso(Decimal(valor)) == extenso


def test_por_extenso_recusa_negativo() -> None:
    with pytest.raises(ErroLei, match="Valor negativo"):
        por_extenso(Decimal("-1"))


def test_formatos() -> None:
    assert formatar_reais(Decimal("1234.56")) == "R$ 1.234,56"
    assert formatar_reais(Decimal("1234567.8")) == "R$ 1.234.567,80"
    assert formatar_urm(Decimal("0.5")) == "0,50 URM"
    assert formatar_urm(Decimal(10)) == "10,00 URM"
    assert formatar_decimal(Decimal("2.675")) == "2,68"
    assert formatar_decimal(Decimal("0.125"), casas=1) == "0,1"
    assert formatar_decimal(3, casas=0) == "3"


def test_linha_da_notificacao() -> None:
    assert descrever_multa(Decimal("0.50"), Decimal("164.74")) == (
        "0,50 URM = R$ 82,37 (oitenta e dois reais e trinta e sete centavos)"
    )


@PROPRIEDADE
@given(st.decimals(min_value=0, max_value=Decimal("99999999.99"), places=2))
def test_por_extenso_sem_virgula_e_com_centavos_quando_ha(valor: Decimal) -> None:
    texto = por_extenso(valor)
    assert "," not in texto
    assert ("centavo" in texto) is (valor % 1 != 0)
    assert texto.startswith("zero") is (valor == 0)
    assert texto.endswith(("real", "reais", "centavo", "centavos"))
