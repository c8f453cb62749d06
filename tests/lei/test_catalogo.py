"""O catálogo dos 55 dispositivos dos arts. 1º a 6º, conferido com a lei."""

from __future__ import annotations

import re

import pytest

from secretaria.lei.catalogo import (
    LEITURA_ART7_PARAGRAFO2,
    NOTA_ART3_PARAGRAFO_UNICO,
    NOTA_ART10_NUMERACAO,
    NOTA_ART12_PARAGRAFO2,
    ROTULO_NATUREZA,
    ROTULO_SUJEITO,
    TEXTO_ART7_PARAGRAFO2,
    TIPOS,
    DispositivoInexistente,
    Natureza,
    Sujeito,
    TipoIndefinido,
    dispositivo,
    dispositivos,
    rotulo,
    rotulo_do_codigo,
)
from secretaria.lei.erros import ErroLei

# Transcrição independente da do arquivo de dados: o tipo de cada inciso, na ordem, como impresso na lei
# ("-" para o Art. 1º, X, cujo tipo a cópia da lei perdeu).
TIPOS_NA_LEI = {
    1: "EEEEBABDE-DEBBCDDAABAB",
    2: "EEABEECCEBBAA",
    3: "BAABAA",
    4: "BABA",
    5: "AAAAC",
    6: "AABAA",
}
ROMANOS = [
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII",
]  # fmt: skip


def test_55_dispositivos_na_ordem_da_lei() -> None:
    todos = dispositivos()
    assert len(todos) == 55
    esperados = [f"{art}-{ROMANOS[i]}" for art, tipos in TIPOS_NA_LEI.items() for i in range(len(tipos))]
    assert [d.codigo for d in todos] == esperados
    assert all(d.codigo == f"{d.artigo}-{d.inciso}" for d in todos)


def test_cada_tipo_confere_com_a_transcricao_e_com_o_texto() -> None:
    for d in dispositivos():
        esperado = TIPOS_NA_LEI[d.artigo][ROMANOS.index(d.inciso)]
        assert d.tipo == (None if esperado == "-" else esperado), d.codigo
        marca = re.search(r"\(\s*tipo\s*([A-E])", d.texto)
        assert (marca.group(1) if marca else None) == d.tipo, d.codigo


@pytest.mark.parametrize(
    ("codigo", "tipo"),
    [("1-I", "E"), ("1-V", "B"), ("1-VI", "A"), ("1-XV", "C"), ("1-XVI", "D"), ("2-III", "A"),
     ("2-VIII", "C"), ("3-VI", "A"), ("4-I", "B"), ("5-V", "C"), ("6-III", "B"), ("6-V", "A")],
)  # fmt: skip
def test_tipos_conferidos_a_mao(codigo: str, tipo: str) -> None:
    assert dispositivo(codigo).tipo == tipo


def test_art_1_x_sem_tipo() -> None:
    d = dispositivo("1-X")
    assert d.tipo is None
    assert d.texto == "Cumprir regularmente o itinerário ...(sic)"
    assert "administrador" in d.nota
    with pytest.raises(TipoIndefinido, match=r"O Art\. 1º, X não tem tipo legível"):
        d.tipo_exigido()
    definido = d.com_tipo("D")
    assert definido.tipo == definido.tipo_exigido() == "D"
    with pytest.raises(ErroLei, match="fixado pela lei"):
        definido.com_tipo("E")
    with pytest.raises(ErroLei, match="Tipo de infração “F” inválido"):
        d.com_tipo("F")


def test_tipo_da_lei_nao_se_altera() -> None:
    with pytest.raises(ErroLei, match=r"O tipo do Art\. 1º, V é fixado pela lei \(tipo B\)"):
        dispositivo("1-V").com_tipo("A")
    assert dispositivo("1-V").tipo_exigido() == "B"


def test_sic_tem_nota_e_o_resto_nao() -> None:
    com_sic = {d.codigo for d in dispositivos() if "(sic)" in d.texto}
    assert com_sic == {"1-VI", "1-IX", "1-X"}
    for d in dispositivos():
        assert bool(d.nota) is (d.codigo in com_sic), d.codigo


def test_notas_do_sic_nao_inventam_palavras() -> None:
    """REGRAS.md só fixa leituras para o § 2º do art. 7º e para a numeração dos arts. 10 e 12; nos incisos
    com "(sic)" a nota marca a lacuna e não supre palavras (a nota é impressa no auto, e um texto que a lei
    não contém não pode fundamentar a autuação)."""
    for codigo in ("1-VI", "1-IX", "1-X"):
        nota = dispositivo(codigo).nota
        assert nota.startswith("Lacuna"), codigo
        assert "Leitura aplicada" not in nota and "[" not in nota, codigo
        assert "não completa" in nota, codigo
        for trecho in re.findall(r"“([^”]*)”", nota):
            assert trecho in dispositivo(codigo).texto, (codigo, trecho)
    assert "administrador" in dispositivo("1-X").nota
    assert "tipo A está legível" in dispositivo("1-VI").nota
    assert "tipo E está legível" in dispositivo("1-IX").nota


def test_texto_como_impresso() -> None:
    assert dispositivo("1-XVI").texto == (
        "Afixar, no exterior dos veículos, sinalização indicativa do número de cadastro, do destino ou "
        "número da linha, e da tarifa legível à distância de 40 (quarenta) metros e visível à noite (tipo D)"
    )
    assert dispositivo("1-IX").texto.count("(sic)") == 2
    assert dispositivo("5-I").texto == "Atender à sinalização dos fiscais (tipo A:)"


@pytest.mark.parametrize(
    ("artigo", "sujeito", "natureza", "quantos"),
    [
        (1, Sujeito.CONCESSIONARIA, Natureza.DEVER, 22),
        (2, Sujeito.CONCESSIONARIA, Natureza.PROIBICAO, 13),
        (3, Sujeito.EMPREGADO, Natureza.DEVER, 6),
        (4, Sujeito.EMPREGADO, Natureza.PROIBICAO, 4),
        (5, Sujeito.CONDUTOR, Natureza.DEVER, 5),
        (6, Sujeito.CONDUTOR, Natureza.PROIBICAO, 5),
    ],
)
def test_sujeito_e_natureza_por_artigo(
    artigo: int, sujeito: Sujeito, natureza: Natureza, quantos: int
) -> None:
    do_artigo = [d for d in dispositivos() if d.artigo == artigo]
    assert len(do_artigo) == quantos
    assert {(d.sujeito, d.natureza) for d in do_artigo} == {(sujeito, natureza)}


def test_rotulos() -> None:
    assert dispositivo("1-XVI").rotulo == "Art. 1º, XVI"
    assert rotulo(3, "VI") == "Art. 3º, VI"
    assert rotulo_do_codigo("6-iii") == "Art. 6º, III"
    assert Sujeito.CONCESSIONARIA.rotulo == "Concessionária/permissionária"
    assert Sujeito.EMPREGADO.rotulo == "Empregado ou preposto"
    assert Sujeito.CONDUTOR.rotulo == "Condutor"
    assert Natureza.DEVER.rotulo == ROTULO_NATUREZA["dever"] == "Dever"
    assert Natureza.PROIBICAO.rotulo == "Proibição"
    assert set(ROTULO_SUJEITO) == set(Sujeito)
    assert TIPOS == ("A", "B", "C", "D", "E")


@pytest.mark.parametrize("codigo", ["", "1", "XVI", "1-", "A-I"])
def test_codigo_malformado(codigo: str) -> None:
    with pytest.raises(ErroLei, match="malformado"):
        rotulo_do_codigo(codigo)


def test_consulta_por_codigo() -> None:
    assert dispositivo(" 1-xvi ").codigo == "1-XVI"
    assert dispositivo("3-VI") is dispositivos()[22 + 13 + 5]
    with pytest.raises(DispositivoInexistente) as erro:
        dispositivo("7-I")
    assert str(erro.value) == "O dispositivo “7-I” não existe nos arts. 1º a 6º da Lei nº 2.413/1978."
    assert isinstance(erro.value, KeyError) and isinstance(erro.value, ValueError)


def test_dispositivos_lidos_uma_vez() -> None:
    assert dispositivos() is dispositivos()


def test_notas_das_passagens_truncadas() -> None:
    assert "inciso VI do art. 3º não exclui" in NOTA_ART3_PARAGRAFO_UNICO
    assert "incisos IV, V e VI do art. 10º" in NOTA_ART12_PARAGRAFO2
    assert "aplica os incisos IV" in NOTA_ART12_PARAGRAFO2 and " e V " in NOTA_ART12_PARAGRAFO2
    assert "(sic) peitados" in TEXTO_ART7_PARAGRAFO2
    assert "[em dobro, res]peitados" in LEITURA_ART7_PARAGRAFO2
    assert "10,00 URM" in LEITURA_ART7_PARAGRAFO2
    assert "art. 10" in NOTA_ART10_NUMERACAO
