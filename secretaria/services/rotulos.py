"""Portuguese labels and display formats for the stored codes, shared by lists, forms and reports.

The database keeps short codes without accents ("em_recurso", "fiscal_empresa"); every screen and every
spreadsheet shows the words below. One table per code set, so a new code fails loudly in one place.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from secretaria.lei.formato import formatar_data, formatar_decimal, formatar_reais
from secretaria.services.base import ROTULOS_PAPEIS

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

FASES = {
    "lavrado": "Lavrado",
    "intimado": "Intimado",
    "decidido": "Decidido",
    "em_recurso": "Em recurso",
    "encerrado": "Encerrado",
    "cancelado": "Cancelado",
}
"""Stored phase of an auto (models.FASES_AUTO), in procedural order."""

SITUACOES_OPERADORA = {"ativa": "Ativa", "suspensa": "Suspensa", "cassada": "Cassada"}
DELEGACOES = {"concessao": "Concessão", "permissao": "Permissão"}
SITUACOES_VEICULO = {"ativo": "Ativo", "reserva": "Reserva", "baixado": "Baixado"}
FUNCOES = {
    "motorista": "Motorista",
    "cobrador": "Cobrador",
    "fiscal_empresa": "Fiscal da empresa",
    "outro": "Outro",
}
SITUACOES_REPRESENTACAO = {"recebida": "Recebida", "autuada": "Autuada", "arquivada": "Arquivada"}
MEIOS_INTIMACAO = {
    "pessoal": "Pessoalmente, ao representante legal",
    "endereco": "Cópia entregue no endereço da empresa, com recibo",
    "postal_ar": "Via postal com aviso de recebimento (AR)",
}
RESULTADOS_INTIMACAO = {
    "entregue": "Entregue",
    "recusada": "Recusada",
    "nao_encontrado": "Destinatário não encontrado",
    "endereco_incorreto": "Endereço incorreto",
    "devolvida": "Devolvida",
}
RESULTADOS_RECURSO = {
    "pendente": "Pendente",
    "negado": "Negado",
    "provido": "Provido",
    "provido_parcialmente": "Provido em parte",
}
SITUACOES_PAGAMENTO = {
    "aberto": "Em aberto",
    "pago": "Pago",
    "divida_ativa": "Inscrito em dívida ativa",
    "cancelado": "Cancelado (penalidade anulada)",
}
SITUACOES_CUMPRIMENTO = {"pendente": "Pendente", "cumprida": "Cumprida", "nao_cumprida": "Não cumprida"}
ORIGENS_DISPOSITIVO = {"lei": "Lei nº 2.413/1978", "contrato": "Contrato", "ato": "Ato normativo"}


def rotulo(tabela: dict[str, str], codigo: str | None) -> str:
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
