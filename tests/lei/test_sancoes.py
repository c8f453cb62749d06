"""Reincidência, multa e suspensão (art. 7º): os exemplos de REGRAS.md § 3 e as propriedades da regra."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from secretaria.lei.erros import ErroLei
from secretaria.lei.sancoes import (
    CITACAO_TIPO,
    FAIXA_PRIMEIRA_PENALIDADE,
    JANELA_MESES,
    NIVEL_SUSPENSAO,
    SUSPENSAO_MAXIMA_DIAS,
    TETO_MULTA_UR,
    Antecedente,
    Sancao,
    Situacao,
    TipoInvalido,
    calcular_sancao,
    citacoes,
    classificar_antecedentes,
    conferir_penalidade,
    faixa_multa,
    limite_reincidencia,
    somar_meses,
)

PROPRIEDADE = settings(max_examples=150, deadline=None, database=None)

P = Antecedente
D = Decimal

EX6 = [P(date(2026, 1, 5), date(2026, 2, 1), D(3)), P(date(2026, 3, 5), date(2026, 4, 1), D(6))]
EX7 = [*EX6, P(date(2026, 5, 5), date(2026, 6, 1), D(10), 4)]

# (tipo, novo fato, antecedentes, n, multa mín., multa máx., suspensão mín., suspensão máx.)
EXEMPLOS_REGRAS = [
    ("A", date(2026, 3, 10), [], 0, "0.10", "0.50", None, None),
    (
        "A",
        date(2026, 3, 10),
        [P(date(2026, 2, 10), date(2026, 3, 1), D("0.30"))],
        1,
        "0.20",
        "1.00",
        None,
        None,
    ),
    (
        "A",
        date(2026, 3, 11),
        [P(date(2026, 2, 10), date(2026, 3, 1), D("0.30"))],
        0,
        "0.10",
        "0.50",
        None,
        None,
    ),
    ("B", date(2026, 3, 10), [P(date(2026, 2, 10), None)], 0, "0.50", "1.00", None, None),
    (
        "A",
        date(2026, 2, 28),
        [P(date(2026, 1, 31), date(2026, 2, 20), D("0.20"))],
        1,
        "0.20",
        "1.00",
        None,
        None,
    ),
    ("E", date(2026, 9, 1), EX6, 2, "10.00", "10.00", 1, 10),
    ("E", date(2026, 11, 1), EX7, 3, "10.00", "10.00", 8, 8),
]


@pytest.mark.parametrize(
    ("tipo", "dia", "antecedentes", "nivel", "multa_min", "multa_max", "susp_min", "susp_max"),
    EXEMPLOS_REGRAS,
    ids=[f"exemplo-{i}" for i in range(1, 8)],
)
def test_exemplos_de_regras(
    tipo: str,
    dia: date,
    antecedentes: list[Antecedente],
    nivel: int,
    multa_min: str,
    multa_max: str,
    susp_min: int | None,
    susp_max: int | None,
) -> None:
    s = calcular_sancao(tipo, dia, antecedentes)
    assert s.reincidencia == nivel
    assert (s.multa_min_ur, s.multa_max_ur) == (D(multa_min), D(multa_max))
    assert s.suspensao_cabivel is (susp_min is not None)
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (susp_min, susp_max)


def test_exemplo_7_dobra_a_suspensao_anterior_e_diz_por_que() -> None:
    s = calcular_sancao("E", date(2026, 11, 1), EX7)
    assert s.descricao == "Multa de 10,00 URM e suspensão de 8 dias (3ª reincidência)."
    texto = "\n".join(s.fundamentos)
    assert "Art. 7º, § 7º" in texto
    assert "infração de 05/05/2026, 4 dias" in texto
    assert "Art. 7º, § 8º" in texto
    assert "05/01/2026 → 05/03/2026 → 05/05/2026 → 01/11/2026" in texto


def test_exemplo_6_fundamentos_citam_cada_regra() -> None:
    s = calcular_sancao("E", date(2026, 9, 1), EX6)
    assert s.descricao == "Multa de 10,00 URM e suspensão de 1 a 10 dias (2ª reincidência)."
    f = s.fundamentos
    assert f[0].startswith("Art. 7º, § 3º")
    assert "infração de 05/01/2026 (definitiva em 01/02/2026)" in f[0]
    assert f[1].startswith("Art. 7º, § 4º, e)") and "8 meses" in f[1]
    assert f[2].startswith("Art. 7º, §§ 3º e 4º: 2ª reincidência")
    assert f[3].startswith("Art. 7º, § 2º") and "× 2² = 12,00 a 20,00 URM" in f[3]
    assert f[4] == "Art. 7º, I: a multa não passa de 10,00 URM — faixa aplicável de 10,00 a 10,00 URM."
    assert f[5].startswith("Art. 7º, § 5º, e)") and "cabível (nível 2)" in f[5]
    assert f[6] == "Art. 7º, § 6º: primeira suspensão — de 1 a 10 dias."
    assert f[7].startswith("Art. 7º, § 8º")
    assert f[8].startswith("Art. 8º")


def test_infracao_primaria_sem_antecedentes() -> None:
    s = calcular_sancao("C", date(2026, 5, 1), [])
    assert s.descricao == "Multa de 1,00 a 2,00 URM (infração primária)."
    assert "não há antecedentes" in s.fundamentos[0]
    assert "nenhum antecedente punido" in s.fundamentos[2]
    assert s.fundamentos[3] == "Art. 7º, § 1º, c): primeira penalidade do tipo C — multa de 1,00 a 2,00 URM."
    assert "não cabível (nível 0)" in s.fundamentos[4]
    assert len(s.fundamentos) == 6


def test_exemplo_3_diz_que_o_antecedente_ficou_fora_do_prazo() -> None:
    antecedentes = [P(date(2026, 2, 10), date(2026, 3, 1), D("0.30"))]
    s = calcular_sancao("A", date(2026, 3, 11), antecedentes)
    assert "só geraria reincidência até 10/03/2026" in s.fundamentos[2]
    assert (
        "Fora da cadeia de reincidência pelo prazo: infração de 10/02/2026 — fora do prazo de reincidência: o "
        "novo fato, de 11/03/2026, ocorreu depois de 10/03/2026." in s.fundamentos[1]
    )
    (c,) = classificar_antecedentes("A", date(2026, 3, 11), antecedentes)
    assert c.situacao is Situacao.FORA_DO_PRAZO
    assert c.punido and not c.contado


def test_reincidencia_sem_teto_mostra_a_faixa_dobrada() -> None:
    antecedentes = [P(date(2026, 2, 10), date(2026, 3, 1), D("0.30"))]
    s = calcular_sancao("A", date(2026, 3, 10), antecedentes)
    assert s.descricao == "Multa de 0,20 a 1,00 URM (1ª reincidência)."
    assert "1 mês" in s.fundamentos[1]
    assert "(0,10 a 0,50 URM) × 2¹ = 0,20 a 1,00 URM" in s.fundamentos[3]
    assert not any(f.startswith("Art. 7º, I:") for f in s.fundamentos)


def test_teto_so_no_maximo() -> None:
    # Tipo D, 2ª reincidência: 2–3 URM × 4 = 8–12 → 8,00 a 10,00 URM.
    antecedentes = [P(date(2026, 1, 1), date(2026, 1, 10)), P(date(2026, 3, 1), date(2026, 3, 10))]
    s = calcular_sancao("D", date(2026, 5, 1), antecedentes)
    assert (s.reincidencia, s.multa_min_ur, s.multa_max_ur) == (2, D("8.00"), D("10.00"))
    assert "faixa aplicável de 8,00 a 10,00 URM" in "\n".join(s.fundamentos)
    assert not s.suspensao_cabivel


def test_motivos_de_nao_contar() -> None:
    dia = date(2026, 6, 1)
    anulado = P(date(2026, 5, 1), date(2026, 5, 10), D(1), anulada=True)
    sem_decisao = P(date(2026, 5, 2), None)
    decidido_depois = P(date(2026, 5, 3), date(2026, 6, 2))
    posterior = P(date(2026, 6, 1), date(2026, 6, 1))
    lista = [anulado, sem_decisao, decidido_depois, posterior]
    classes = classificar_antecedentes("E", dia, lista)
    assert [c.antecedente for c in classes] == lista  # na ordem recebida
    assert [c.situacao for c in classes] == [
        Situacao.ANULADO,
        Situacao.SEM_DECISAO,
        Situacao.DECIDIDO_DEPOIS,
        Situacao.POSTERIOR,
    ]
    assert not any(c.punido or c.contado for c in classes)
    assert (
        classes[2].explicacao
        == "infração de 03/05/2026: não conta — penalidade definitiva só em 02/06/2026, após o novo fato"
    )
    s = calcular_sancao("E", dia, lista)
    assert s.reincidencia == 0
    assert (
        "anteriores ao novo fato, de 01/06/2026, já autuadas e punidas (penalidade definitiva até esse dia, "
        "art. 7º, caput): nenhuma." in (s.fundamentos[0])
    )
    assert "infração de 01/05/2026 — penalidade anulada" in s.fundamentos[0]
    assert "infração de 02/05/2026 — sem penalidade definitiva" in s.fundamentos[0]
    assert "infração de 01/06/2026 — infração não anterior ao novo fato" in s.fundamentos[0]


def test_antecedente_punido_depois_do_fato_seguinte_da_cadeia_nao_conta() -> None:
    # 15/02 não foi reincidência de 10/02, porque 10/02 só foi decidida em 25/02 (§ 3º).
    p1 = P(date(2026, 2, 10), date(2026, 2, 25))
    p2 = P(date(2026, 2, 15), date(2026, 2, 20))
    s = calcular_sancao("A", date(2026, 3, 1), [p1, p2])
    assert s.reincidencia == 1
    c1, c2 = classificar_antecedentes("A", date(2026, 3, 1), [p1, p2])
    assert (c1.situacao, c1.punido, c1.contado) == (Situacao.DECIDIDO_DEPOIS, True, False)
    assert "depois da infração seguinte na cadeia, de 15/02/2026" in c1.explicacao
    assert c2.contado
    assert (
        "Punidas em definitivo só depois da infração seguinte, não entram na cadeia de reincidência: infração de "
        "10/02/2026" in s.fundamentos[0]
    )


def test_cadeia_interrompida_recomeca() -> None:
    antigo = P(date(2026, 1, 1), date(2026, 1, 5))
    recente = P(date(2026, 3, 10), date(2026, 3, 15))
    s = calcular_sancao("A", date(2026, 4, 1), [antigo, recente])
    assert s.reincidencia == 1
    situacoes = [c.situacao for c in classificar_antecedentes("A", date(2026, 4, 1), [antigo, recente])]
    assert situacoes == [Situacao.FORA_DO_PRAZO, Situacao.CONTADO]


def _cadeia(tipo: str, tamanho: int, inicio: date = date(2026, 1, 1), passo: int = 20) -> list[Antecedente]:
    """``tamanho`` infrações punidas, cada uma ``passo`` dias depois da anterior e decidida 5 dias após."""
    return [
        P(inicio + timedelta(days=passo * i), inicio + timedelta(days=passo * i + 5), D(1))
        for i in range(tamanho)
    ]


@pytest.mark.parametrize("tipo", list(NIVEL_SUSPENSAO))
def test_suspensao_so_a_partir_do_nivel_do_paragrafo_5(tipo: str) -> None:
    nivel = NIVEL_SUSPENSAO[tipo]
    antes = _cadeia(tipo, nivel - 1)
    dia = date(2026, 1, 1) + timedelta(days=20 * (nivel - 1))
    assert calcular_sancao(tipo, dia, antes).reincidencia == nivel - 1
    assert not calcular_sancao(tipo, dia, antes).suspensao_cabivel
    agora = _cadeia(tipo, nivel)
    dia = date(2026, 1, 1) + timedelta(days=20 * nivel)
    s = calcular_sancao(tipo, dia, agora)
    assert (s.reincidencia, s.suspensao_cabivel) == (nivel, True)
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (1, 10)
    assert s.multa_max_ur == TETO_MULTA_UR


def test_suspensao_em_dobro_limitada_a_30_dias() -> None:
    cadeia = _cadeia("E", 2)
    cadeia[-1] = replace(cadeia[-1], suspensao_dias=20)
    s = calcular_sancao("E", date(2026, 2, 20), cadeia)
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (30, 30)
    assert "suspensão em dobro: 40 dias, limitada a 30 dias (art. 7º, caput, II)." in s.fundamentos[-3]
    assert s.suspensao_anterior_dias == 20  # the auto states the capped figure as capped (REGRAS § 5)


def test_suspensao_de_um_dia_dobra_para_dois() -> None:
    cadeia = _cadeia("E", 2)
    cadeia[0] = replace(cadeia[0], suspensao_dias=1)
    s = calcular_sancao("E", date(2026, 2, 20), cadeia)
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (2, 2)
    assert "(infração de 01/01/2026, 1 dia) — suspensão em dobro: 2 dias." in s.fundamentos[-3]
    assert s.descricao == "Multa de 10,00 URM e suspensão de 2 dias (2ª reincidência)."
    assert s.suspensao_anterior_dias == 1


def test_dobra_a_suspensao_mais_recente() -> None:
    cadeia = _cadeia("E", 3)
    cadeia[0] = replace(cadeia[0], suspensao_dias=9)
    cadeia[1] = replace(cadeia[1], suspensao_dias=6)
    s = calcular_sancao("E", date(2026, 3, 12), cadeia)
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (12, 12)


def test_dobra_suspensao_de_antecedente_punido_fora_do_prazo() -> None:
    """Regra 6 fala em antecedente contado pela regra 1, sem exigir que esteja dentro do prazo do § 4º."""
    velho = P(date(2025, 1, 1), date(2025, 1, 10), D(5), 7)
    cadeia = [*_cadeia("E", 2), velho]
    s = calcular_sancao("E", date(2026, 2, 20), cadeia)
    assert s.reincidencia == 2
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (14, 14)


def test_empate_no_dia_escolhe_a_menor_suspensao() -> None:
    cadeia = _cadeia("E", 2)
    gemeo_a = replace(cadeia[1], suspensao_dias=5)
    gemeo_b = replace(cadeia[1], suspensao_dias=3)
    for ordem in ([cadeia[0], gemeo_a, gemeo_b], [gemeo_b, cadeia[0], gemeo_a]):
        s = calcular_sancao("E", date(2026, 2, 20), ordem)
        assert (s.suspensao_min_dias, s.suspensao_max_dias) == (6, 6)


def test_empate_no_dia_da_infracao_escolhe_a_que_ficou_definitiva_por_ultimo() -> None:
    # REGRAS § 3, regra 6: a mais recente pelo dia da infração; depois, o último dia em que ficou definitiva.
    cadeia = _cadeia("E", 2)
    cedo = replace(cadeia[1], suspensao_dias=3)
    decidida = cadeia[1].data_decisao
    assert decidida is not None
    tarde = replace(cadeia[1], data_decisao=decidida + timedelta(days=2), suspensao_dias=7)
    for ordem in ([cadeia[0], cedo, tarde], [tarde, cadeia[0], cedo]):
        s = calcular_sancao("E", date(2026, 2, 20), ordem)
        assert (s.suspensao_min_dias, s.suspensao_max_dias) == (14, 14)
    # A infração mais recente vence, mesmo que tenha ficado definitiva antes da outra.
    tres = _cadeia("E", 3)
    recente = replace(tres[1], suspensao_dias=3)  # infração de 21/01, definitiva em 26/01
    antiga = P(date(2026, 1, 2), date(2026, 2, 15), D(1), 9)  # infração de 02/01, definitiva em 15/02
    s = calcular_sancao("E", date(2026, 3, 1), [tres[0], recente, tres[2], antiga])
    assert (s.suspensao_min_dias, s.suspensao_max_dias) == (6, 6)


@PROPRIEDADE
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 15)), min_size=1, max_size=6))
def test_regra_6_dobra_pela_ordem_infracao_definitiva_menor_suspensao(
    suspensas: list[tuple[int, int, int]],
) -> None:
    # Uma cadeia de três infrações de tipo E (nível 3 em 01/06) e suspensões em dias de infração e de
    # definitividade repetidos: a dobrada é a de maior (infração, definitiva, −dias), em qualquer ordem.
    base = _cadeia("E", 3, passo=20)
    extras = [
        P(
            base[-1].data_infracao - timedelta(days=i),
            base[-1].data_infracao + timedelta(days=10 + f),
            D(1),
            dias,
        )
        for i, f, dias in suspensas
    ]
    dia = date(2026, 6, 1)
    escolhida = max(extras, key=lambda a: (a.data_infracao, a.data_decisao, -a.suspensao_dias))
    esperado = min(2 * escolhida.suspensao_dias, SUSPENSAO_MAXIMA_DIAS)
    lista = [*base, *extras]
    for ordem in (lista, list(reversed(lista)), random.Random(len(lista)).sample(lista, len(lista))):
        s = calcular_sancao("E", dia, ordem)
        assert s.suspensao_cabivel
        assert (s.suspensao_min_dias, s.suspensao_max_dias) == (esperado, esperado)


@pytest.mark.parametrize("tipo", ["", "F", "a", "AB", None])
def test_tipo_invalido(tipo: str) -> None:
    with pytest.raises(ValueError, match="Tipo de infração inválido") as erro:
        calcular_sancao(tipo, date(2026, 1, 1), [])
    assert isinstance(erro.value, TipoInvalido)
    assert isinstance(erro.value, ErroLei)
    with pytest.raises(TipoInvalido):
        classificar_antecedentes(tipo, date(2026, 1, 1), [])


@pytest.mark.parametrize(
    ("dia", "meses", "esperado"),
    [
        (date(2026, 1, 31), 1, date(2026, 2, 28)),
        (date(2024, 1, 31), 1, date(2024, 2, 29)),
        (date(2026, 3, 5), 8, date(2026, 11, 5)),
        (date(2026, 5, 5), 8, date(2027, 1, 5)),
        (date(2026, 8, 31), 6, date(2027, 2, 28)),
        (date(2026, 12, 15), 1, date(2027, 1, 15)),
        (date(2026, 3, 31), -1, date(2026, 2, 28)),
        (date(2026, 2, 10), 0, date(2026, 2, 10)),
    ],
)
def test_somar_meses(dia: date, meses: int, esperado: date) -> None:
    assert somar_meses(dia, meses) == esperado


def test_limite_reincidencia() -> None:
    assert limite_reincidencia("A", date(2026, 1, 31)) == date(2026, 2, 28)
    assert limite_reincidencia("E", date(2026, 3, 5)) == date(2026, 11, 5)
    with pytest.raises(TipoInvalido):
        limite_reincidencia("X", date(2026, 1, 1))


def test_faixa_multa() -> None:
    assert faixa_multa("A", 0) == FAIXA_PRIMEIRA_PENALIDADE["A"]
    assert faixa_multa("A", 3) == (D("0.80"), D("4.00"))
    assert faixa_multa("A", 5) == (D("3.20"), D("10.00"))
    assert faixa_multa("E", 1) == (D("6.00"), D("10.00"))
    assert faixa_multa("B", 40) == (TETO_MULTA_UR, TETO_MULTA_UR)
    with pytest.raises(ErroLei, match="Nível de reincidência inválido"):
        faixa_multa("A", -1)


def test_janelas_e_faixas_da_lei() -> None:
    assert JANELA_MESES == {"A": 1, "B": 2, "C": 4, "D": 6, "E": 8}
    assert NIVEL_SUSPENSAO == {"A": 6, "B": 5, "C": 4, "D": 3, "E": 2}
    assert FAIXA_PRIMEIRA_PENALIDADE["C"] == (D("1.00"), D("2.00"))
    assert SUSPENSAO_MAXIMA_DIAS == 30


class TestConferirPenalidade:
    primaria = calcular_sancao("A", date(2026, 3, 10), [])
    com_faixa = calcular_sancao("E", date(2026, 9, 1), EX6)
    com_dobro = calcular_sancao("E", date(2026, 11, 1), EX7)

    def test_aceita_dentro_da_faixa(self) -> None:
        conferir_penalidade(self.primaria, D("0.10"))
        conferir_penalidade(self.primaria, D("0.50"))
        conferir_penalidade(self.com_faixa, D(10), 10)
        conferir_penalidade(self.com_dobro, D(10), 8)

    def test_recusa_multa_fora_da_faixa(self) -> None:
        with pytest.raises(
            ErroLei, match=r"A multa de 0,60 URM está fora da faixa cabível \(0,10 a 0,50 URM"
        ):
            conferir_penalidade(self.primaria, D("0.60"))

    def test_recusa_suspensao_nao_cabivel(self) -> None:
        with pytest.raises(ErroLei, match="Suspensão não cabível"):
            conferir_penalidade(self.primaria, D("0.50"), 3)

    def test_recusa_suspensao_fora_do_cabivel(self) -> None:
        with pytest.raises(ErroLei, match=r"suspensão de 11 dias está fora do cabível \(de 1 a 10 dias"):
            conferir_penalidade(self.com_faixa, D(10), 11)
        with pytest.raises(ErroLei, match=r"suspensão de 7 dias está fora do cabível \(8 dias"):
            conferir_penalidade(self.com_dobro, D(10), 7)


# --- propriedades -------------------------------------------------------------------------------------------

TIPO = st.sampled_from(["A", "B", "C", "D", "E"])
DIA = st.dates(min_value=date(2024, 1, 1), max_value=date(2027, 12, 31))


@st.composite
def antecedentes(draw: st.DrawFn, maximo: int = 7) -> list[Antecedente]:
    """Antecedentes quaisquer, inclusive sem decisão, anulados, decididos tarde e em dias repetidos."""
    lista = []
    for _ in range(draw(st.integers(0, maximo))):
        infracao = draw(DIA)
        atraso = draw(st.none() | st.integers(0, 150))
        decisao = None if atraso is None else infracao + timedelta(days=atraso)
        lista.append(
            P(
                infracao,
                decisao,
                draw(st.sampled_from([D(0), D("0.5"), D(3)])),
                draw(st.sampled_from([0, 0, 1, 4, 15, 30])),
                draw(st.booleans()),
            )
        )
    return lista


def _resultado(s: Sancao) -> tuple[object, ...]:
    return (
        s.reincidencia,
        s.multa_min_ur,
        s.multa_max_ur,
        s.suspensao_cabivel,
        s.suspensao_min_dias,
        s.suspensao_max_dias,
    )


def _nivel_de_referencia(tipo: str, dia: date, lista: Sequence[Antecedente]) -> int:
    """REGRAS.md § 3, regras 1 a 3, escritas ao pé da letra e recursivamente, para conferir o módulo."""
    contados = [
        a
        for a in lista
        if not a.anulada and a.data_decisao is not None and a.data_decisao <= dia and a.data_infracao < dia
    ]
    if not contados:
        return 0
    ultimo = max(a.data_infracao for a in contados)
    if dia > somar_meses(ultimo, JANELA_MESES[tipo]):
        return 0
    return 1 + _nivel_de_referencia(tipo, ultimo, lista)


@PROPRIEDADE
@given(TIPO, DIA, antecedentes())
def test_nivel_confere_com_a_leitura_literal(tipo: str, dia: date, lista: list[Antecedente]) -> None:
    assert calcular_sancao(tipo, dia, lista).reincidencia == _nivel_de_referencia(tipo, dia, lista)


@PROPRIEDADE
@given(TIPO, DIA, antecedentes())
def test_multa_nunca_passa_de_10_urm(tipo: str, dia: date, lista: list[Antecedente]) -> None:
    s = calcular_sancao(tipo, dia, lista)
    assert D("0.10") <= s.multa_min_ur <= s.multa_max_ur <= TETO_MULTA_UR
    assert (s.multa_min_ur, s.multa_max_ur) == faixa_multa(tipo, s.reincidencia)


@PROPRIEDADE
@given(TIPO, DIA, antecedentes())
def test_suspensao_so_a_partir_do_paragrafo_5_e_ate_30_dias(
    tipo: str, dia: date, lista: list[Antecedente]
) -> None:
    s = calcular_sancao(tipo, dia, lista)
    assert s.suspensao_cabivel is (s.reincidencia >= NIVEL_SUSPENSAO[tipo])
    if s.suspensao_cabivel:
        assert s.suspensao_min_dias is not None and s.suspensao_max_dias is not None
        assert 1 <= s.suspensao_min_dias <= s.suspensao_max_dias <= SUSPENSAO_MAXIMA_DIAS
    else:
        assert s.suspensao_min_dias is None and s.suspensao_max_dias is None


@PROPRIEDADE
@given(TIPO, DIA, antecedentes(), st.randoms(use_true_random=False))
def test_ordem_dos_antecedentes_nao_importa(
    tipo: str, dia: date, lista: list[Antecedente], aleatorio: random.Random
) -> None:
    embaralhada = list(lista)
    aleatorio.shuffle(embaralhada)
    assert calcular_sancao(tipo, dia, embaralhada) == calcular_sancao(tipo, dia, lista)
    por_antecedente = {c.antecedente: c.situacao for c in classificar_antecedentes(tipo, dia, lista)}
    for c in classificar_antecedentes(tipo, dia, embaralhada):
        assert por_antecedente[c.antecedente] is c.situacao


@PROPRIEDADE
@given(TIPO, DIA, antecedentes(), DIA, st.booleans(), st.integers(0, 30))
def test_antecedente_anulado_ou_sem_decisao_nao_muda_nada(
    tipo: str, dia: date, lista: list[Antecedente], outro_dia: date, anulado: bool, suspensao: int
) -> None:
    intruso = (
        P(outro_dia, outro_dia, D(3), suspensao, anulada=True)
        if anulado
        else P(outro_dia, None, D(3), suspensao)
    )
    base = calcular_sancao(tipo, dia, lista)
    com_intruso = calcular_sancao(tipo, dia, [*lista, intruso])
    assert _resultado(com_intruso) == _resultado(base)
    situacao = classificar_antecedentes(tipo, dia, [intruso])[0].situacao
    assert situacao in {Situacao.ANULADO, Situacao.SEM_DECISAO, Situacao.POSTERIOR}


@PROPRIEDADE
@given(
    TIPO,
    DIA,
    st.lists(st.tuples(st.integers(1, 28), st.integers(0, 28)), min_size=1, max_size=9),
)
def test_faixa_nunca_diminui_com_a_cadeia(tipo: str, inicio: date, passos: list[tuple[int, int]]) -> None:
    """Cada fato até 28 dias depois do anterior (dentro de qualquer janela), o anterior já decidido."""
    dias = [inicio]
    for intervalo, _ in passos:
        dias.append(dias[-1] + timedelta(days=intervalo))
    cadeia = [
        P(dias[i], dias[i] + timedelta(days=min(atraso, dias[i + 1].toordinal() - dias[i].toordinal())))
        for i, (_, atraso) in enumerate(passos)
    ]
    anterior = calcular_sancao(tipo, dias[0], [])
    for k in range(1, len(dias)):
        atual = calcular_sancao(tipo, dias[k], cadeia[:k])
        assert atual.reincidencia == k
        assert atual.multa_min_ur >= anterior.multa_min_ur
        assert atual.multa_max_ur >= anterior.multa_max_ur
        assert atual.suspensao_cabivel >= anterior.suspensao_cabivel
        anterior = atual


@PROPRIEDADE
@given(TIPO, DIA, antecedentes())
def test_contados_sao_exatamente_a_cadeia(tipo: str, dia: date, lista: list[Antecedente]) -> None:
    s = calcular_sancao(tipo, dia, lista)
    classes = classificar_antecedentes(tipo, dia, lista)
    dias_contados = {c.antecedente.data_infracao for c in classes if c.contado}
    assert len(dias_contados) == s.reincidencia
    assert all(c.explicacao.startswith("infração de ") for c in classes)


# --- revisão: cadeias feitas à mão e o texto dos fundamentos ----------------------------------------------


def test_elo_anulado_no_meio_quebra_a_cadeia() -> None:
    # Tipo A (1 mês): 01/01 → 25/01 → 20/02 → 15/03 é a 3ª reincidência; anulada a de 25/01, 20/02 fica a
    # mais de um mês de 01/01 e a cadeia recomeça nela.
    p1 = P(date(2026, 1, 1), date(2026, 1, 5))
    p2 = P(date(2026, 1, 25), date(2026, 1, 28))
    p3 = P(date(2026, 2, 20), date(2026, 2, 22))
    dia = date(2026, 3, 15)
    inteira = calcular_sancao("A", dia, [p1, p2, p3])
    assert (inteira.reincidencia, inteira.multa_min_ur, inteira.multa_max_ur) == (3, D("0.80"), D("4.00"))
    for elo in (replace(p2, anulada=True), replace(p2, data_decisao=None)):
        s = calcular_sancao("A", dia, [p1, elo, p3])
        assert (s.reincidencia, s.multa_min_ur, s.multa_max_ur) == (1, D("0.20"), D("1.00"))
    # Decidida só depois de 20/02: 20/02 não foi reincidência dela, e a cadeia também recomeça em 20/02.
    tardia = replace(p2, data_decisao=date(2026, 2, 21))
    assert calcular_sancao("A", dia, [p1, tardia, p3]).reincidencia == 1
    # A primeira decidida depois de 25/01: a cadeia é 25/01 → 20/02 → 15/03.
    assert calcular_sancao("A", dia, [replace(p1, data_decisao=date(2026, 1, 26)), p2, p3]).reincidencia == 2


def test_decisao_no_proprio_dia_do_fato_conta_e_o_texto_diz_ate() -> None:
    s = calcular_sancao("A", date(2026, 3, 10), [P(date(2026, 2, 10), date(2026, 3, 10))])
    assert s.reincidencia == 1
    # Regra 1: decisão "até" o dia do novo fato (inclusive), infração estritamente anterior; o texto não pode
    # dizer "antes do fato" quando a decisão é do mesmo dia.
    assert "antes do fato" not in s.fundamentos[0]
    assert "penalidade definitiva até esse dia" in s.fundamentos[0]


def test_decidida_depois_da_seguinte_e_motivo_do_paragrafo_3_nao_do_4() -> None:
    p1 = P(date(2026, 2, 10), date(2026, 2, 25))
    p2 = P(date(2026, 2, 15), date(2026, 2, 20))
    s = calcular_sancao("A", date(2026, 3, 1), [p1, p2])
    assert s.fundamentos[0].startswith("Art. 7º, § 3º")
    assert "infração de 10/02/2026 — penalidade definitiva só em 25/02/2026" in s.fundamentos[0]
    assert "10/02/2026" not in s.fundamentos[1]  # o § 4º (prazo) não é o motivo


def test_cadeia_interrompida_explica_onde_se_interrompeu() -> None:
    # 01/11 → 20/11 estava no prazo; a cadeia se interrompe entre 20/11/2025 e 25/01/2026.
    lista = [
        P(date(2025, 11, 1), date(2025, 11, 2)),
        P(date(2025, 11, 20), date(2025, 11, 21)),
        P(date(2026, 1, 25), date(2026, 1, 28)),
        P(date(2026, 2, 20), date(2026, 2, 22)),
    ]
    classes = classificar_antecedentes("A", date(2026, 3, 15), lista)
    assert [c.situacao for c in classes] == [Situacao.FORA_DO_PRAZO] * 2 + [Situacao.CONTADO] * 2
    assert classes[0].explicacao == (
        "infração de 01/11/2025: não conta — a cadeia de reincidência se interrompeu depois dela: entre a "
        "infração de 20/11/2025 e a seguinte na cadeia, de 25/01/2026, passou mais de 1 mês"
    )
    assert classes[1].explicacao == (
        "infração de 20/11/2025: não conta — fora do prazo de reincidência: a infração seguinte na cadeia, "
        "de 25/01/2026, ocorreu depois de 20/12/2025"
    )


def test_explicacao_de_decidida_depois_nomeia_o_elo_seguinte_da_cadeia() -> None:
    # A infração seguinte a 01/01 é a de 10/01 (decidida depois do novo fato); o elo da cadeia é 20/01.
    lista = [
        P(date(2026, 1, 1), date(2026, 2, 1)),
        P(date(2026, 1, 10), date(2026, 4, 1)),
        P(date(2026, 1, 20), date(2026, 1, 25)),
    ]
    c = classificar_antecedentes("A", date(2026, 2, 10), lista)[0]
    assert c.explicacao == (
        "infração de 01/01/2026: não conta — penalidade definitiva só em 01/02/2026, depois da infração seguinte "
        "na cadeia, "
        "de 20/01/2026, que por isso não foi reincidência dela"
    )


def test_janela_de_um_mes_concorda_no_singular() -> None:
    s = calcular_sancao("A", date(2026, 3, 10), [])
    assert "1 mês (prazo contado de data a data)" in s.fundamentos[1]
    s = calcular_sancao("E", date(2026, 3, 10), [])
    assert "8 meses (prazo contado de data a data)" in s.fundamentos[1]


def test_paragrafo_5_cita_o_apos_da_lei() -> None:
    s = calcular_sancao("E", date(2026, 9, 1), EX6)
    assert s.fundamentos[5] == (
        "Art. 7º, § 5º, e): a pena de suspensão só pode ser aplicada após a 2ª reincidência (entendido como: "
        "a partir da própria 2ª reincidência) — cabível (nível 2)."
    )


@pytest.mark.parametrize(("tipo", "tamanho"), [("A", 90), ("A", 120), ("E", 100)])
def test_cadeia_muito_longa_nao_quebra_o_calculo(tipo: str, tamanho: int) -> None:
    """Uma operadora com dezenas de reincidências seguidas: o painel não pode cair com InvalidOperation."""
    cadeia = _cadeia(tipo, tamanho, inicio=date(2020, 1, 1), passo=7)
    dia = date(2020, 1, 1) + timedelta(days=7 * tamanho)
    s = calcular_sancao(tipo, dia, cadeia)
    assert (s.reincidencia, s.multa_min_ur, s.multa_max_ur) == (tamanho, TETO_MULTA_UR, TETO_MULTA_UR)
    paragrafo_2 = next(f for f in s.fundamentos if f.startswith("Art. 7º, § 2º"))
    assert "acima de 10,00 URM nos dois extremos" in paragrafo_2
    assert len(paragrafo_2) < 400


def test_interrupcao_da_cadeia_no_plural_e_no_novo_fato() -> None:
    # Tipo B (2 meses): 01/01 → 20/02 no prazo; o novo fato, 01/06, vem mais de 2 meses depois de 20/02.
    lista = [P(date(2026, 1, 1), date(2026, 1, 2)), P(date(2026, 2, 20), date(2026, 2, 21))]
    primeira, segunda = classificar_antecedentes("B", date(2026, 6, 1), lista)
    assert primeira.explicacao == (
        "infração de 01/01/2026: não conta — a cadeia de reincidência se interrompeu depois dela: entre a "
        "infração de 20/02/2026 e o novo fato, de 01/06/2026, passaram mais de 2 meses"
    )
    assert segunda.explicacao == (
        "infração de 20/02/2026: não conta — fora do prazo de reincidência: o novo fato, de 01/06/2026, "
        "ocorreu depois de 20/04/2026"
    )


# --- the citations the panel and the notices print beside each part of the sanction ---------------------------


@pytest.mark.parametrize(
    ("tipo", "dia", "antecedentes", "multa", "suspensao"),
    [
        # Worked example 1: first penalty — § 1º, alínea of the tipo; no suspension below § 5º's level.
        ("A", date(2026, 3, 10), [], "art. 7º, § 1º, alínea a", "art. 7º, § 5º, alínea a"),
        # Example 2: a recidivism doubles the range (§ 2º) without reaching the cap of inciso I.
        (
            "A",
            date(2026, 3, 10),
            [P(date(2026, 2, 10), date(2026, 3, 1), D("0.30"))],
            "art. 7º, § 1º, alínea a, e § 2º (em dobro a cada reincidência)",
            "art. 7º, § 5º, alínea a",
        ),
        # Example 6: the doubled range is capped at 10 URM (inciso I); a first suspension (§§ 5º, 6º, 8º).
        (
            "E",
            date(2026, 9, 1),
            EX6,
            "art. 7º, § 1º, alínea e, e § 2º (em dobro a cada reincidência) e inciso I (teto de 10,00 URM)",
            "art. 7º, §§ 5º, 6º e 8º",
        ),
        # Example 7: the earlier suspension doubled (§ 7º), never beyond 30 days (inciso II).
        (
            "E",
            date(2026, 11, 1),
            EX7,
            "art. 7º, § 1º, alínea e, e § 2º (em dobro a cada reincidência) e inciso I (teto de 10,00 URM)",
            "art. 7º, §§ 5º, 7º e 8º; inciso II (até 30 dias)",
        ),
    ],
)
def test_citacoes_dos_exemplos_de_regras(
    tipo: str, dia: date, antecedentes: list[Antecedente], multa: str, suspensao: str
) -> None:
    c = citacoes(tipo, calcular_sancao(tipo, dia, antecedentes))
    assert (c.multa, c.suspensao) == (multa, suspensao)
    assert c.dispositivo == CITACAO_TIPO == "art. 7º, § 1º"
    assert (c.antecedentes, c.reincidencia) == ("art. 7º, § 3º", "art. 7º, §§ 3º e 4º")


@PROPRIEDADE
@given(tipo=st.sampled_from(sorted(JANELA_MESES)), nivel=st.integers(min_value=0, max_value=12))
def test_citacoes_seguem_a_faixa_e_a_suspensao(tipo: str, nivel: int) -> None:
    """§ 2º is cited exactly when the range was doubled, inciso I exactly when it reached the cap, § 5º always
    for the suspension, § 7º exactly when the suspension is a fixed doubling."""
    minimo, maximo = faixa_multa(tipo, nivel)
    cabivel = nivel >= NIVEL_SUSPENSAO[tipo]
    for dobro in (None, 3) if cabivel else (None,):
        sancao = Sancao(
            nivel, minimo, maximo, cabivel,
            (dobro * 2 if dobro else 1) if cabivel else None,
            (dobro * 2 if dobro else 10) if cabivel else None,
            (),
        )  # fmt: skip
        c = citacoes(tipo, sancao)
        assert ("§ 2º" in c.multa) == (nivel > 0)
        assert ("inciso I " in c.multa) == (nivel > 0 and maximo >= TETO_MULTA_UR)
        assert f"alínea {tipo.lower()}" in c.multa
        assert "§ 5º" in c.suspensao or "§§ 5º" in c.suspensao
        assert ("§§ 5º, 7º" in c.suspensao) == bool(cabivel and dobro)
        assert ("§§ 5º, 6º" in c.suspensao) == bool(cabivel and not dobro)


def test_citacoes_recusam_tipo_invalido() -> None:
    with pytest.raises(TipoInvalido):
        citacoes("Z", calcular_sancao("A", date(2026, 3, 10), []))
