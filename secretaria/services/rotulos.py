"""Portuguese labels and display formats for the stored codes, shared by lists, forms and reports.

The database keeps short codes without accents ("em_recurso", "fiscal_empresa"); every screen and every
spreadsheet shows the words of `secretaria.codigos`, beside each code list's enum.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal

from secretaria.codigos import (
    ROTULOS_CUMPRIMENTO,
    ROTULOS_DELEGACAO,
    ROTULOS_FASE,
    ROTULOS_FUNCAO,
    ROTULOS_MEIO,
    ROTULOS_OPERADORA,
    ROTULOS_ORIGEM,
    ROTULOS_PAGAMENTO,
    ROTULOS_PAPEIS,
    ROTULOS_RECURSO,
    ROTULOS_REPRESENTACAO,
    ROTULOS_RESULTADO_INTIMACAO,
    ROTULOS_VEICULO,
)
from secretaria.lei.formato import formatar_data, formatar_decimal, formatar_reais

__all__ = [
    "DELEGACOES",
    "FASES",
    "FUNCOES",
    "MEIOS_INTIMACAO",
    "ORIGENS_DISPOSITIVO",
    "RESULTADOS_INTIMACAO",
    "RESULTADOS_RECURSO",
    "ROTULOS_PAPEIS",
    "SITUACOES_CUMPRIMENTO",
    "SITUACOES_OPERADORA",
    "SITUACOES_PAGAMENTO",
    "SITUACOES_REPRESENTACAO",
    "SITUACOES_VEICULO",
    "formatar_cnpj",
    "formatar_cpf",
    "formatar_data",
    "formatar_data_hora",
    "formatar_numero",
    "formatar_numero_processo",
    "formatar_placa",
    "formatar_reais",
    "formatar_valor",
    "rotulo",
    "rotulo_acao",
]

# The tables under their old names: the screens, lists and spreadsheets import them from here.
FASES = ROTULOS_FASE
SITUACOES_OPERADORA = ROTULOS_OPERADORA
DELEGACOES = ROTULOS_DELEGACAO
SITUACOES_VEICULO = ROTULOS_VEICULO
FUNCOES = ROTULOS_FUNCAO
SITUACOES_REPRESENTACAO = ROTULOS_REPRESENTACAO
MEIOS_INTIMACAO = ROTULOS_MEIO
RESULTADOS_INTIMACAO = ROTULOS_RESULTADO_INTIMACAO
RESULTADOS_RECURSO = ROTULOS_RECURSO
SITUACOES_PAGAMENTO = ROTULOS_PAGAMENTO
SITUACOES_CUMPRIMENTO = ROTULOS_CUMPRIMENTO
ORIGENS_DISPOSITIVO = ROTULOS_ORIGEM


def rotulo(tabela: Mapping[str, str], codigo: str | None) -> str:
    """The label of `codigo` in `tabela`; an unknown code is shown as it is rather than hidden."""
    if codigo is None:
        return ""
    return tabela.get(codigo, codigo)


def rotulo_acao(acao: str) -> str:
    """An audit action code as words: "editar_operadora" → "Editar operadora"."""
    texto = acao.replace("_", " ").strip()
    return texto[:1].upper() + texto[1:]


def formatar_data_hora(momento: datetime) -> str:
    return f"{formatar_data(momento.date())} {momento:%H:%M}"


def formatar_numero(valor: Decimal | int) -> str:
    """Integers as "1.234"; decimals (URM amounts) with two places, "0,50"."""
    if isinstance(valor, int):
        return formatar_decimal(valor, 0)
    return formatar_decimal(valor)


def formatar_numero_processo(numero: int, ano: int) -> str:
    """The number of an auto or representação as printed: "0001/2026"."""
    return f"{numero:04d}/{ano}"


def formatar_cnpj(cnpj: str) -> str:
    """A stored 14-character CNPJ with its punctuation; anything else is shown as stored."""
    if len(cnpj) != 14:
        return cnpj
    return f"{cnpj[:2]}.{cnpj[2:5]}.{cnpj[5:8]}/{cnpj[8:12]}-{cnpj[12:]}"


def formatar_cpf(cpf: str) -> str:
    if len(cpf) != 11:
        return cpf
    return f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"


def formatar_placa(placa: str) -> str:
    """Old plates with their hyphen ("ABC-1234"), Mercosul plates without ("ABC1D23"), as on the vehicle."""
    if len(placa) == 7 and placa[4].isdigit():
        return f"{placa[:3]}-{placa[3:]}"
    return placa


def formatar_valor(valor: object, tipo: str) -> str:
    """A list cell as text, by the column's kind (see services.listas.Coluna.tipo)."""
    if valor is None:
        return ""
    if isinstance(valor, bool):
        return "Sim" if valor else "Não"
    if isinstance(valor, datetime):
        return formatar_data_hora(valor)
    if isinstance(valor, date):
        return formatar_data(valor)
    if tipo == "dinheiro" and isinstance(valor, Decimal | int):
        return formatar_reais(Decimal(valor))
    if isinstance(valor, Decimal | int):
        return formatar_numero(valor)
    return str(valor)
