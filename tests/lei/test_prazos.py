"""Prazos de defesa e recurso (arts. 14 e 15, contados pela Lei nº 9.784/1999, art. 66)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from secretaria.lei.erros import ErroLei
from secretaria.lei.prazos import (
    PRAZO_DEFESA_DIAS,
    PRAZO_RECURSO_DIAS,
    Calendario,
    domingo_de_pascoa,
    feriados_municipais_pelotas,
    feriados_oficiais,
    tempestivo,
    vencimento,
)

PROPRIEDADE = settings(max_examples=200, deadline=None, database=None)


def test_exemplo_de_regras_sexta_20_11_2026_vence_segunda_07_12_2026() -> None:
    assert vencimento(date(2026, 11, 20)) == date(2026, 12, 7)
    prazo = Calendario().prazo(date(2026, 11, 20))
    assert (prazo.inicio, prazo.termo, prazo.vencimento) == (
        date(2026, 11, 21),
        date(2026, 12, 5),
        date(2026, 12, 7),
    )
    assert prazo.explicacao == (
        "Intimação em 20/11/2026; 15 dias contados a partir de 21/11/2026 (Lei nº 9.784/1999, art. 66) "
        "terminam em 05/12/2026, dia sem expediente (05/12/2026, sábado; 06/12/2026, domingo); vence no "
        "primeiro dia útil seguinte, 07/12/2026."
    )


def test_prazos_da_lei_sao_de_15_dias() -> None:
    assert PRAZO_DEFESA_DIAS == PRAZO_RECURSO_DIAS == 15


def test_termo_em_dia_util_nao_muda() -> None:
    prazo = Calendario().prazo(date(2026, 11, 25))
    assert prazo.vencimento == prazo.termo == date(2026, 12, 10)
    assert prazo.adiamentos == ()
    assert prazo.explicacao.endswith("terminam em 10/12/2026.")


def test_feriado_nacional_adia_mesmo_sem_ser_informado() -> None:
    # 23/08/2026 + 15 = segunda, 07/09/2026, Independência.
    assert vencimento(date(2026, 8, 23)) == date(2026, 9, 8)


def test_feriado_estadual_do_rs_adia() -> None:
    # 05/09/2027 + 15 = segunda, 20/09/2027, Dia do Gaúcho (só no RS).
    assert vencimento(date(2027, 9, 5)) == date(2027, 9, 21)
    motivo = Calendario().motivo_sem_expediente(date(2027, 9, 20))
    assert motivo is not None and motivo.startswith("feriado: ")


def test_dia_da_tabela_da_secretaria_adia() -> None:
    assert vencimento(date(2026, 8, 23), feriados={date(2026, 9, 8)}) == date(2026, 9, 9)
    assert vencimento(date(2026, 11, 25), feriados=frozenset({date(2026, 12, 10)})) == date(2026, 12, 11)


def test_motivos_de_dia_sem_expediente() -> None:
    cal = Calendario({date(2026, 2, 2): "Nossa Senhora dos Navegantes", date(2026, 2, 16): "Carnaval"})
    assert cal.motivo_sem_expediente(date(2026, 2, 2)) == "feriado municipal: Nossa Senhora dos Navegantes"
    assert cal.motivo_sem_expediente(date(2026, 2, 16)) == "sem expediente: Carnaval"
    assert cal.motivo_sem_expediente(date(2026, 12, 25)) == "feriado: Natal"
    assert cal.motivo_sem_expediente(date(2026, 12, 6)) == "domingo"
    assert cal.motivo_sem_expediente(date(2026, 12, 7)) is None
    sem_nome = Calendario({date(2026, 2, 3)})
    assert sem_nome.motivo_sem_expediente(date(2026, 2, 3)) == "sem expediente (tabela da Secretaria)"
    assert not sem_nome.eh_dia_util(date(2026, 2, 3))
    assert sem_nome.eh_dia_util(date(2026, 2, 4))


def test_proximo_dia_util() -> None:
    cal = Calendario({date(2026, 12, 28)})
    assert cal.proximo_dia_util(date(2026, 12, 7)) == date(2026, 12, 7)
    assert cal.proximo_dia_util(date(2026, 12, 25)) == date(2026, 12, 29)


def test_outros_prazos_e_prazo_invalido() -> None:
    assert vencimento(date(2026, 3, 2), dias=5) == date(2026, 3, 9)  # sábado 07 → segunda 09
    assert Calendario().vencimento(date(2026, 3, 2), 1) == date(2026, 3, 3)
    with pytest.raises(ErroLei, match="ao menos 1 dia"):
        vencimento(date(2026, 3, 2), dias=0)


def test_tempestividade() -> None:
    venc = vencimento(date(2026, 11, 20))
    assert tempestivo(date(2026, 11, 21), venc)
    assert tempestivo(venc, venc)
    assert not tempestivo(venc + timedelta(days=1), venc)


def test_feriados_municipais_de_pelotas() -> None:
    assert feriados_municipais_pelotas(2026) == {
        date(2026, 2, 2): "Nossa Senhora dos Navegantes",
        date(2026, 4, 3): "Sexta-feira Santa",
        date(2026, 6, 4): "Corpus Christi",
    }


def test_pascoa_confere_com_o_pacote_holidays() -> None:
    assert domingo_de_pascoa(2026) == date(2026, 4, 5)
    assert domingo_de_pascoa(2027) == date(2027, 3, 28)
    for ano in range(1990, 2080):
        sexta = domingo_de_pascoa(ano) - timedelta(days=2)
        assert "Sexta-feira Santa" in feriados_oficiais(ano).get(sexta, ""), ano


def _pascoa_meeus(ano: int) -> date:
    """O cálculo escrito à mão que ``domingo_de_pascoa`` usava (Meeus/Jones/Butcher), só como referência."""
    a = ano % 19
    b, c = divmod(ano, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    mes, dia = divmod(h + el - 7 * m + 114, 31)
    return date(ano, mes, dia + 1)


def test_pascoa_do_dateutil_e_a_mesma_do_calculo_antigo_de_1583_a_4099() -> None:
    """Todo o intervalo em que ``dateutil.easter`` vale para o calendário gregoriano."""
    diferentes = [ano for ano in range(1583, 4100) if domingo_de_pascoa(ano) != _pascoa_meeus(ano)]
    assert diferentes == []


@PROPRIEDADE
@given(
    st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31)),
    st.integers(1, 60),
    st.sets(st.integers(0, 90), max_size=25),
)
def test_vencimento_cai_em_dia_util_nunca_antes_do_termo(ciencia: date, dias: int, extras: set[int]) -> None:
    feriados = frozenset(ciencia + timedelta(days=n) for n in extras)
    venc = vencimento(ciencia, dias, feriados)
    termo = ciencia + timedelta(days=dias)
    assert venc >= termo
    assert venc.weekday() < 5
    assert venc not in feriados
    assert venc not in feriados_oficiais(venc.year)
    cal = Calendario(feriados)
    # E é o primeiro dia útil: todo dia entre o termo e o vencimento é sem expediente.
    assert all(not cal.eh_dia_util(termo + timedelta(days=n)) for n in range((venc - termo).days))
    assert tempestivo(venc, venc) and not tempestivo(venc + timedelta(days=1), venc)


def test_explicacao_de_prazo_de_um_dia_no_singular() -> None:
    prazo = Calendario().prazo(date(2026, 3, 2), 1)
    assert prazo.explicacao == (
        "Intimação em 02/03/2026; 1 dia contado a partir de 03/03/2026 (Lei nº 9.784/1999, art. 66) "
        "termina em 03/03/2026."
    )


def test_feriados_municipais_contam_sem_cadastro_em_qualquer_ano() -> None:
    # REGRAS § 4: os feriados de Pelotas são calculados pelo programa, como os nacionais.
    assert vencimento(date(2027, 1, 18)) == date(2027, 2, 3)  # 02/02/2027, terça: Navegantes
    assert Calendario().motivo_sem_expediente(date(2027, 2, 2)) == (
        "feriado municipal: Nossa Senhora dos Navegantes"
    )
    # Corpus Christi de 2027 cai numa quinta, 27/05: um prazo que terminaria nela vence na sexta.
    assert vencimento(date(2027, 5, 12)) == date(2027, 5, 28)


@PROPRIEDADE
@given(st.integers(1980, 2150), st.integers(1, 30))
def test_nenhum_prazo_vence_num_feriado_municipal(ano: int, dias: int) -> None:
    for feriado in feriados_municipais_pelotas(ano):
        ciencia = feriado - timedelta(days=dias)
        venc = vencimento(ciencia, dias)
        assert venc > feriado
        assert Calendario().eh_dia_util(venc)
        assert all(not Calendario().eh_dia_util(d) for d in _dias_entre(feriado, venc))


def _dias_entre(inicio: date, fim: date) -> list[date]:
    return [inicio + timedelta(days=n) for n in range((fim - inicio).days)]
