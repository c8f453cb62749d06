"""Conferência e formatação de CPF, CNPJ (numérico e alfanumérico), placa e RENAVAM.

Cada ``validar_*`` devolve o identificador normalizado (só letras maiúsculas e algarismos), que é a forma
guardada no banco, ou recusa com ``DocumentoInvalido`` cuja mensagem diz ao usuário o que está errado: um
auto com a operadora ou o veículo mal identificado é nulo, e o erro de digitação deve ser pego no cadastro.
"""

from __future__ import annotations

import re

from secretaria.lei.erros import ErroLei

__all__ = [
    "DocumentoInvalido",
    "chave_placa",
    "digito_renavam",
    "digitos_cnpj",
    "digitos_cpf",
    "formatar_cnpj",
    "formatar_cpf",
    "formatar_placa",
    "placa_antiga",
    "placas_equivalentes",
    "validar_cnpj",
    "validar_cpf",
    "validar_placa",
    "validar_renavam",
]

_PONTUACAO = str.maketrans("", "", " .-/")
_DIGITOS = re.compile(r"[0-9]*")
_CNPJ = re.compile(r"[0-9A-Z]{12}[0-9]{2}")
_PLACA_ANTIGA = re.compile(r"[A-Z]{3}[0-9]{4}")
_PLACA_MERCOSUL = re.compile(r"[A-Z]{3}[0-9][A-Z][0-9]{2}")
_PESOS_RENAVAM = (3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


class DocumentoInvalido(ErroLei):
    """CPF, CNPJ, placa ou RENAVAM que não passa na conferência; a mensagem diz o motivo."""


def _limpar(texto: str) -> str:
    """Tira a pontuação usual (pontos, traço, barra, espaços) e passa para maiúsculas."""
    return texto.translate(_PONTUACAO).upper()


def _informados(quantidade: int) -> str:
    """A quantidade recebida, com a concordância certa: "nenhum foi informado", "foi informado 1"."""
    if quantidade == 0:
        return "nenhum foi informado"
    if quantidade == 1:
        return "foi informado 1"
    return f"foram informados {quantidade}"


def _dv_modulo11(valores: list[int]) -> int:
    """Dígito verificador do CPF e do CNPJ: pesos 2, 3, ... a partir da direita; resto < 2 → 0."""
    soma = sum(v * p for v, p in zip(reversed(valores), _pesos(len(valores)), strict=True))
    resto = soma % 11
    return 0 if resto < 2 else 11 - resto


def _pesos(n: int) -> list[int]:
    return [2 + i % 8 for i in range(n)]


def validar_cpf(texto: str) -> str:
    """Os 11 dígitos do CPF, se ele confere."""
    cpf = _limpar(texto)
    if not _DIGITOS.fullmatch(cpf):
        raise DocumentoInvalido("CPF deve conter apenas números.")
    if len(cpf) != 11:
        raise DocumentoInvalido(f"CPF deve ter 11 dígitos ({_informados(len(cpf))}).")
    if len(set(cpf)) == 1:
        raise DocumentoInvalido("CPF inválido: todos os dígitos são iguais.")
    if cpf[9:] != digitos_cpf(cpf[:9]):
        raise DocumentoInvalido("O dígito verificador do CPF não confere.")
    return cpf


def digitos_cpf(base: str) -> str:
    """Os dois dígitos verificadores dos 9 primeiros dígitos de um CPF: ``"111444777"`` → ``"35"``."""
    valores = [int(c) for c in base]
    # O 2º dígito do CPF usa pesos 2..11, sem recomeçar em 2 como no CNPJ.
    dv1 = _dv_cpf(valores)
    dv2 = _dv_cpf([*valores, dv1])
    return f"{dv1}{dv2}"


def _dv_cpf(valores: list[int]) -> int:
    soma = sum(v * p for v, p in zip(reversed(valores), range(2, len(valores) + 2), strict=True))
    resto = soma % 11
    return 0 if resto < 2 else 11 - resto


def formatar_cpf(texto: str) -> str:
    """``"11144477735"`` → ``"111.444.777-35"`` (confere antes de formatar)."""
    c = validar_cpf(texto)
    return f"{c[:3]}.{c[3:6]}.{c[6:9]}-{c[9:]}"


def validar_cnpj(texto: str) -> str:
    """Os 14 caracteres do CNPJ, numérico ou alfanumérico (a partir de julho de 2026), se ele confere.

    No alfanumérico cada caractere vale seu código ASCII menos 48 (``"0"`` → 0, ``"A"`` → 17); os dois
    dígitos verificadores continuam numéricos e se calculam como no numérico.
    """
    cnpj = _limpar(texto)
    if len(cnpj) != 14:
        raise DocumentoInvalido(f"CNPJ deve ter 14 caracteres ({_informados(len(cnpj))}).")
    if not _CNPJ.fullmatch(cnpj):
        raise DocumentoInvalido(
            "CNPJ deve ter 12 letras ou números seguidos de 2 dígitos verificadores numéricos."
        )
    if len(set(cnpj)) == 1:
        raise DocumentoInvalido("CNPJ inválido: todos os dígitos são iguais.")
    if cnpj[12:] != digitos_cnpj(cnpj[:12]):
        raise DocumentoInvalido("O dígito verificador do CNPJ não confere.")
    return cnpj


def digitos_cnpj(base: str) -> str:
    """Os dois dígitos verificadores dos 12 primeiros caracteres de um CNPJ (numérico ou alfanumérico)."""
    valores = [ord(c) - 48 for c in base]
    dv1 = _dv_modulo11(valores)
    dv2 = _dv_modulo11([*valores, dv1])
    return f"{dv1}{dv2}"


def formatar_cnpj(texto: str) -> str:
    """``"12ABC34501DE35"`` → ``"12.ABC.345/01DE-35"`` (confere antes de formatar)."""
    c = validar_cnpj(texto)
    return f"{c[:2]}.{c[2:5]}.{c[5:8]}/{c[8:12]}-{c[12:]}"


def validar_placa(texto: str) -> str:
    """A placa sem traço, em maiúsculas: ``"ABC1234"`` (modelo antigo) ou ``"ABC1D23"`` (Mercosul)."""
    placa = _limpar(texto)
    if not (_PLACA_ANTIGA.fullmatch(placa) or _PLACA_MERCOSUL.fullmatch(placa)):
        raise DocumentoInvalido(
            f"Placa “{texto.strip()}” inválida: use o modelo antigo (ABC-1234) ou o Mercosul (ABC1D23)."
        )
    return placa


def formatar_placa(texto: str) -> str:
    """Modelo antigo com traço (``"ABC-1234"``), Mercosul sem traço (``"ABC1D23"``), como nas placas."""
    placa = validar_placa(texto)
    if placa[4].isdigit():
        return f"{placa[:3]}-{placa[3:]}"
    return placa


def chave_placa(texto: str) -> str:
    """A forma Mercosul da placa, que identifica o veículo nas duas formas.

    Na conversão para o Mercosul o 5º caractere, algarismo n, vira a letra 'A' + n (ABC-1234 → ABC1C34);
    comparar pela chave faz o auto lavrado com a placa antiga achar o veículo já cadastrado com a nova.
    """
    placa = validar_placa(texto)
    if placa[4].isdigit():
        return f"{placa[:4]}{chr(ord('A') + int(placa[4]))}{placa[5:]}"
    return placa


def placa_antiga(texto: str) -> str | None:
    """A forma antiga (``"ABC-1234"``) equivalente, ou ``None`` se a letra do 5º caractere passa de J."""
    chave = chave_placa(texto)
    numero = ord(chave[4]) - ord("A")
    if numero > 9:
        return None
    return f"{chave[:3]}-{chave[3]}{numero}{chave[5:]}"


def placas_equivalentes(a: str, b: str) -> bool:
    """Se as duas placas são do mesmo veículo (ABC-1234 e ABC1C34, por exemplo)."""
    return chave_placa(a) == chave_placa(b)


def validar_renavam(texto: str) -> str:
    """Os 11 dígitos do RENAVAM, se ele confere; os números antigos, de 9 dígitos, ganham zeros à esquerda."""
    renavam = _limpar(texto)
    if not _DIGITOS.fullmatch(renavam):
        raise DocumentoInvalido("RENAVAM deve conter apenas números.")
    if len(renavam) == 9:
        renavam = "00" + renavam
    if len(renavam) != 11:
        raise DocumentoInvalido(
            f"RENAVAM deve ter 11 dígitos, ou 9 nos números antigos ({_informados(len(renavam))})."
        )
    if set(renavam) == {"0"}:
        raise DocumentoInvalido("RENAVAM inválido: número zerado.")
    if renavam[10] != digito_renavam(renavam[:10]):
        raise DocumentoInvalido("O dígito verificador do RENAVAM não confere.")
    return renavam


def digito_renavam(base: str) -> str:
    """O dígito verificador dos 10 primeiros dígitos de um RENAVAM."""
    soma = sum(int(c) * p for c, p in zip(base, _PESOS_RENAVAM, strict=True))
    return str(soma * 10 % 11 % 10)
