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
    "ENTIDADES",
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
    "com_preposicao",
    "data_inexistente",
    "formatar_cnpj",
    "formatar_cpf",
    "formatar_data",
    "formatar_data_hora",
    "formatar_numero",
    "formatar_numero_processo",
    "formatar_placa",
    "formatar_reais",
    "formatar_valor",
    "invalido",
    "rotulo",
    "rotulo_acao",
    "rotulo_entidade",
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


# The audited tables as words, for the audit screen and its list ("documento_emitido" → "Documento emitido").
ENTIDADES: dict[str, str] = {
    "auto_infracao": "Auto de infração",
    "intimacao": "Intimação",
    "defesa": "Defesa",
    "proposta": "Proposta",
    "decisao": "Decisão",
    "recurso": "Recurso",
    "pagamento": "Pagamento",
    "cumprimento": "Cumprimento",
    "suspensao": "Suspensão",
    "cassacao": "Cassação",
    "cassacao_ato": "Ato da cassação",
    "testemunha": "Testemunha",
    "anexo": "Anexo",
    "documento": "Documento emitido",
    "numeracao": "Numeração",
    "veiculo_historico": "Histórico do veículo",
    "operadora": "Operadora",
    "linha": "Linha",
    "veiculo": "Veículo",
    "empregado": "Empregado",
    "fiscal": "Fiscal",
    "usuario": "Usuário",
    "auto": "Auto de infração",
    "representacao": "Representação",
    "valor_urm": "Valor da URM",
    "dia_nao_util": "Dia sem expediente",
    "dispositivo": "Dispositivo",
    "dados_orgao": "Dados do órgão",
    "configuracao": "Configuração",
    "termo_auditoria": "Termo de verificação da auditoria",
    "documento_emitido": "Documento emitido",
}

# The words of the audit action codes that are written without their accents.
_PALAVRAS_ACAO = {
    "usuario": "usuário",
    "usuarios": "usuários",
    "nao": "não",
    "util": "útil",
    "uteis": "úteis",
    "intimacao": "intimação",
    "representacao": "representação",
    "cassacao": "cassação",
    "suspensao": "suspensão",
    "retificacao": "retificação",
    "decisao": "decisão",
    "revisao": "revisão",
    "configuracao": "configuração",
    "configuracoes": "configurações",
    "orgao": "órgão",
    "veiculo": "veículo",
    "urm": "URM",
    "infracao": "infração",
    "sancao": "sanção",
    "numeracao": "numeração",
    "senha": "senha",
    "auditoria": "auditoria",
    "verificacao": "verificação",
}

# Actions better said in other words than their code's.
_ACOES = {
    "adicionar_dia_nao_util": "Cadastrar dia sem expediente",
    "remover_dia_nao_util": "Remover dia sem expediente",
    "decidir": "Decidir o auto",
    "termo_verificacao": "Emitir termo de verificação",
    "troca_usuario": "Trocar de usuário",
    "editar_dados_orgao": "Editar os dados do órgão",
    "alterar_configuracoes": "Alterar as configurações",
}


def rotulo(tabela: Mapping[str, str], codigo: str | None) -> str:
    """The label of `codigo` in `tabela`; an unknown code is shown as it is rather than hidden."""
    if codigo is None:
        return ""
    return tabela.get(codigo, codigo)


def rotulo_acao(acao: str) -> str:
    """An audit action code as words, with their accents: "criar_usuario" → "Criar usuário"."""
    if acao in _ACOES:
        return _ACOES[acao]
    palavras = [_PALAVRAS_ACAO.get(p, p) for p in acao.strip().split("_") if p]
    texto = " ".join(palavras)
    return texto[:1].upper() + texto[1:]


def rotulo_entidade(entidade: str | None) -> str:
    """An audited table as words: "documento_emitido" → "Documento emitido"; an unknown one without "_"."""
    if not entidade:
        return ""
    if entidade in ENTIDADES:
        return ENTIDADES[entidade]
    texto = rotulo_acao(entidade)
    return texto


def com_preposicao(preposicao: str, frase: str) -> str:
    """The preposition joined to the phrase's article as Portuguese writes it: ("em", "a validade") → "na validade".

    Contracts em/de/a/por + o/a/os/as/um/uma; any other phrase is simply preceded by the preposition.
    """
    primeira, _, resto = frase.strip().partition(" ")
    artigo = primeira.lower()
    contracoes = _CONTRACOES.get(preposicao, {})
    if artigo in contracoes and resto:
        contraida = contracoes[artigo]
        if primeira[:1].isupper():
            contraida = contraida[:1].upper() + contraida[1:]
        return f"{contraida} {resto}"
    return f"{preposicao} {frase.strip()}"


def invalido(frase: str) -> str:
    """ "inválido" or "inválida", agreeing with the article the phrase starts with ("O início do contrato")."""
    artigo = frase.strip().split(" ", 1)[0].lower()
    return "inválido" if artigo in ("o", "os", "um") else "inválida"


_CONTRACOES: dict[str, dict[str, str]] = {
    "em": {"o": "no", "a": "na", "os": "nos", "as": "nas", "um": "num", "uma": "numa"},
    "de": {"o": "do", "a": "da", "os": "dos", "as": "das", "um": "dum", "uma": "duma"},
    "a": {"o": "ao", "a": "à", "os": "aos", "as": "às"},
    "por": {"o": "pelo", "a": "pela", "os": "pelos", "as": "pelas"},
}


_NOMES_MESES = (
    "janeiro", "fevereiro", "março", "abril", "maio", "junho",
    "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
)  # fmt: skip


def data_inexistente(texto: str) -> str | None:
    """Why a value already written as dd/mm/aaaa is no date ("31/02/2024 não existe: fevereiro de 2024 tem 29
    dias."), or None when it is not in that form (then the form is what to explain). Telling the user to "use
    dd/mm/aaaa" for a value already in that form sent them looking for a typing mistake that was not there."""
    import calendar
    import re

    achado = re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*", texto)
    if achado is None:
        return None
    dia, mes, ano = (int(g) for g in achado.groups())
    escrito = f"{dia:02d}/{mes:02d}/{ano:04d}"
    if not 1 <= mes <= 12:
        return f"{escrito} não existe: o mês vai de 01 a 12."
    if ano < 1:
        return f"{escrito} não existe: confira o ano."
    ultimo = calendar.monthrange(ano, mes)[1]
    if not 1 <= dia <= ultimo:
        return f"{escrito} não existe: {_NOMES_MESES[mes - 1]} de {ano} tem {ultimo} dias."
    return None


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
