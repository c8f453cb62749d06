"""CPF, CNPJ (numérico e alfanumérico), placa e RENAVAM."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from secretaria.lei.documentos import (
    DocumentoInvalido,
    chave_placa,
    digito_renavam,
    digitos_cnpj,
    digitos_cpf,
    formatar_cnpj,
    formatar_cpf,
    formatar_placa,
    placa_antiga,
    placas_equivalentes,
    validar_cnpj,
    validar_cpf,
    validar_placa,
    validar_renavam,
)
from secretaria.lei.erros import ErroLei

PROPRIEDADE = settings(max_examples=200, deadline=None, database=None)


def test_cpf_valido() -> None:
    assert validar_cpf("111.444.777-35") == "11144477735"
    assert validar_cpf(" 11144477735 ") == "11144477735"
    assert formatar_cpf("11144477735") == "111.444.777-35"


@pytest.mark.parametrize(
    ("texto", "mensagem"),
    [
        ("111.444.777-36", "O dígito verificador do CPF não confere."),
        ("111.444.777-3", "CPF deve ter 11 dígitos (foram informados 10)."),
        ("", "CPF deve ter 11 dígitos (nenhum foi informado)."),
        ("111.444.777-355", "CPF deve ter 11 dígitos (foram informados 12)."),
        ("111.444.777-3X", "CPF deve conter apenas números."),
        ("111.111.111-11", "CPF inválido: todos os dígitos são iguais."),
        ("000.000.000-00", "CPF inválido: todos os dígitos são iguais."),
    ],
)
def test_cpf_recusado_com_motivo(texto: str, mensagem: str) -> None:
    with pytest.raises(DocumentoInvalido) as erro:
        validar_cpf(texto)
    assert str(erro.value) == mensagem
    assert isinstance(erro.value, ValueError) and isinstance(erro.value, ErroLei)


def test_cnpj_numerico_e_alfanumerico() -> None:
    assert validar_cnpj("11.222.333/0001-81") == "11222333000181"
    assert formatar_cnpj("11222333000181") == "11.222.333/0001-81"
    assert validar_cnpj("12.ABC.345/01DE-35") == "12ABC34501DE35"
    assert validar_cnpj("12.abc.345/01de-35") == "12ABC34501DE35"
    assert formatar_cnpj("12ABC34501DE35") == "12.ABC.345/01DE-35"


@pytest.mark.parametrize(
    ("texto", "mensagem"),
    [
        ("11.222.333/0001-82", "O dígito verificador do CNPJ não confere."),
        ("12.ABC.345/01DE-36", "O dígito verificador do CNPJ não confere."),
        ("11.222.333/0001-8", "CNPJ deve ter 14 caracteres (foram informados 13)."),
        (
            "12.ABC.345/01DE-3A",
            "CNPJ deve ter 12 letras ou números seguidos de 2 dígitos verificadores numéricos.",
        ),
        (
            "12.ABC.345/01D#-35",
            "CNPJ deve ter 12 letras ou números seguidos de 2 dígitos verificadores numéricos.",
        ),
        ("00.000.000/0000-00", "CNPJ inválido: todos os dígitos são iguais."),
        ("11.111.111/1111-11", "CNPJ inválido: todos os dígitos são iguais."),
    ],
)
def test_cnpj_recusado_com_motivo(texto: str, mensagem: str) -> None:
    with pytest.raises(DocumentoInvalido) as erro:
        validar_cnpj(texto)
    assert str(erro.value) == mensagem


def test_placas_antiga_e_mercosul() -> None:
    assert validar_placa("abc-1234") == "ABC1234"
    assert validar_placa("ABC1D23") == "ABC1D23"
    assert formatar_placa("abc1234") == "ABC-1234"
    assert formatar_placa("abc 1d23") == "ABC1D23"
    assert chave_placa("ABC-1234") == "ABC1C34"
    assert chave_placa("ABC1C34") == "ABC1C34"
    assert placas_equivalentes("ABC-1234", "abc1c34")
    assert not placas_equivalentes("ABC-1234", "ABC1D34")
    assert placa_antiga("ABC1C34") == "ABC-1234"
    assert placa_antiga("IAA-0000") == "IAA-0000"
    assert placa_antiga("ABC1K34") is None


@pytest.mark.parametrize("texto", ["", "AB-1234", "ABC-12345", "1BC-1234", "ABC1DD3", "ABC-12D4", "ÁBC-1234"])
def test_placa_recusada(texto: str) -> None:
    with pytest.raises(DocumentoInvalido, match="inválida: use o modelo antigo"):
        validar_placa(texto)


def test_renavam() -> None:
    assert validar_renavam("00639884962") == "00639884962"
    assert validar_renavam("01234567897") == "01234567897"
    assert validar_renavam("639884962") == "00639884962"  # número antigo, de 9 dígitos
    assert validar_renavam("10000000130") == "10000000130"  # resto 10 → dígito 0


@pytest.mark.parametrize(
    ("texto", "mensagem"),
    [
        ("00639884961", "O dígito verificador do RENAVAM não confere."),
        ("0063988496", "RENAVAM deve ter 11 dígitos, ou 9 nos números antigos (foram informados 10)."),
        ("0063988496A", "RENAVAM deve conter apenas números."),
        ("00000000000", "RENAVAM inválido: número zerado."),
    ],
)
def test_renavam_recusado(texto: str, mensagem: str) -> None:
    with pytest.raises(DocumentoInvalido) as erro:
        validar_renavam(texto)
    assert str(erro.value) == mensagem


# --- propriedades: dígitos calculados por uma implementação independente, escrita a partir da regra ---------


def _dv(valores: list[int], ciclo: int) -> int:
    """Pesos 2, 3, ... a partir da direita, recomeçando em 2 a cada ``ciclo`` pesos."""
    pesos = [2 + i % ciclo for i in range(len(valores))]
    soma = sum(v * p for v, p in zip(reversed(valores), pesos, strict=True))
    return 0 if soma % 11 < 2 else 11 - soma % 11


def _completar_cpf(base: str) -> str:
    v = [int(c) for c in base]
    d1 = _dv(v, 100)
    return base + str(d1) + str(_dv([*v, d1], 100))


def _completar_cnpj(base: str) -> str:
    v = [ord(c) - 48 for c in base]
    d1 = _dv(v, 8)
    return base + str(d1) + str(_dv([*v, d1], 8))


def _aceita(validar: Callable[[str], str], texto: str) -> bool:
    try:
        validar(texto)
    except DocumentoInvalido:
        return False
    return True


@PROPRIEDADE
@given(st.text("0123456789", min_size=9, max_size=9), st.integers(0, 10), st.integers(1, 9))
def test_cpf_aceita_exatamente_o_dv_certo(base: str, posicao: int, delta: int) -> None:
    cpf = _completar_cpf(base)
    if len(set(cpf)) > 1:
        assert validar_cpf(formatar_cpf(cpf)) == cpf
    # Um dígito trocado: o módulo 11 não pega toda troca (restos 0 e 1 dão o mesmo dígito), por isso a
    # referência decide; trocar um dígito verificador, porém, sempre é pego.
    trocado = cpf[:posicao] + str((int(cpf[posicao]) + delta) % 10) + cpf[posicao + 1 :]
    esperado = len(set(trocado)) > 1 and _completar_cpf(trocado[:9]) == trocado
    assert _aceita(validar_cpf, trocado) is esperado
    if posicao >= 9:
        assert not esperado


@PROPRIEDADE
@given(
    st.text("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=12, max_size=12),
    st.integers(0, 13),
    st.integers(1, 9),
)
def test_cnpj_alfanumerico_aceita_exatamente_o_dv_certo(base: str, posicao: int, delta: int) -> None:
    cnpj = _completar_cnpj(base)
    if len(set(cnpj)) > 1:
        assert validar_cnpj(formatar_cnpj(cnpj.lower())) == cnpj
    caractere = cnpj[posicao]
    novo = (
        str((int(caractere) + delta) % 10)
        if caractere.isdigit()
        else chr((ord(caractere) - 65 + delta) % 26 + 65)
    )
    trocado = cnpj[:posicao] + novo + cnpj[posicao + 1 :]
    esperado = len(set(trocado)) > 1 and _completar_cnpj(trocado[:12]) == trocado
    assert _aceita(validar_cnpj, trocado) is esperado
    if posicao >= 12:
        assert not esperado


@PROPRIEDADE
@given(
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3),
    st.text("0123456789", min_size=4, max_size=4),
)
def test_as_duas_formas_da_placa_tem_a_mesma_chave(letras: str, numeros: str) -> None:
    antiga = f"{letras}-{numeros}"
    mercosul = f"{letras}{numeros[0]}{'ABCDEFGHIJ'[int(numeros[1])]}{numeros[2:]}"
    assert placas_equivalentes(antiga, mercosul)
    assert formatar_placa(antiga) == antiga
    assert formatar_placa(mercosul) == mercosul
    assert placa_antiga(mercosul) == antiga


@pytest.mark.parametrize(
    ("validar", "texto", "mensagem"),
    [
        (validar_cpf, "1", "CPF deve ter 11 dígitos (foi informado 1)."),
        (validar_cpf, "", "CPF deve ter 11 dígitos (nenhum foi informado)."),
        (validar_cnpj, "A", "CNPJ deve ter 14 caracteres (foi informado 1)."),
        (validar_cnpj, " ", "CNPJ deve ter 14 caracteres (nenhum foi informado)."),
        (validar_renavam, "7", "RENAVAM deve ter 11 dígitos, ou 9 nos números antigos (foi informado 1)."),
    ],
)
def test_mensagem_de_tamanho_concorda_com_a_quantidade(
    validar: Callable[[str], str], texto: str, mensagem: str
) -> None:
    with pytest.raises(DocumentoInvalido) as erro:
        validar(texto)
    assert str(erro.value) == mensagem


def test_digitos_verificadores_para_quem_gera_documentos() -> None:
    """The demo city builds its CPFs, CNPJs and RENAVAMs from these, so they must be the validators' own."""
    assert digitos_cpf("111444777") == "35"
    assert digitos_cnpj("12ABC34501DE") == "35"
    assert digito_renavam("0063988496") == "2"
    assert digito_renavam("1000000013") == "0"


@PROPRIEDADE
@given(st.text("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=12, max_size=12))
def test_digitos_concordam_com_a_referencia(base: str) -> None:
    assert base + digitos_cnpj(base) == _completar_cnpj(base)
    numeros = "".join(str(ord(c) % 10) for c in base)
    assert numeros[:9] + digitos_cpf(numeros[:9]) == _completar_cpf(numeros[:9])
