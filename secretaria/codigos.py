"""The stored code lists — phases, situations, results, means, roles — each one `StrEnum` with its labels.

It sits below the models (it imports nothing of the project), so the models build their CHECK constraints
from these enums and services and windows build their labels, combo items and colours from the same
members: the database keeps the code ("divida_ativa"), every screen shows a label, and no behaviour ever
keys on a label. A `StrEnum` member *is* its code string, so a value read from the database compares equal
to the member and looks it up in a label table directly.

Where a list is shown in two forms (the short one of a table cell, the long one of a form or of the case
header) both tables are here, beside the enum, and tests/test_codigos.py checks each covers the whole list.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

__all__ = [
    "AcaoProposta",
    "Delegacao",
    "FaseAuto",
    "Funcao",
    "MeioIntimacao",
    "ObjetoIntimacao",
    "OrigemDispositivo",
    "Papel",
    "PrazoRevisado",
    "ResultadoCassacao",
    "ResultadoDecisao",
    "ResultadoIntimacao",
    "ResultadoRecurso",
    "SituacaoCassacao",
    "SituacaoCumprimento",
    "SituacaoOperadora",
    "SituacaoPagamento",
    "SituacaoRepresentacao",
    "SituacaoVeiculo",
    "check_em",
    "itens",
]


class FaseAuto(StrEnum):
    """Stored phase of an auto, in procedural order: what the queues filter on. Time-dependent states
    (defence window open, decision final) are derived from the dates stored beside it."""

    LAVRADO = "lavrado"
    INTIMADO = "intimado"
    DECIDIDO = "decidido"
    EM_RECURSO = "em_recurso"
    ENCERRADO = "encerrado"
    CANCELADO = "cancelado"


ROTULOS_FASE: dict[str, str] = {
    FaseAuto.LAVRADO: "Lavrado",
    FaseAuto.INTIMADO: "Intimado",
    FaseAuto.DECIDIDO: "Decidido",
    FaseAuto.EM_RECURSO: "Em recurso",
    FaseAuto.ENCERRADO: "Encerrado",
    FaseAuto.CANCELADO: "Cancelado",
}
DESCRICOES_FASE: dict[str, str] = {
    FaseAuto.LAVRADO: "Lavrado — aguardando intimação",
    FaseAuto.INTIMADO: "Intimado — prazo de defesa",
    FaseAuto.DECIDIDO: "Decidido",
    FaseAuto.EM_RECURSO: "Em recurso ao Prefeito",
    FaseAuto.ENCERRADO: "Encerrado",
    FaseAuto.CANCELADO: "Cancelado",
}
"""The phase as the case screen's header says it: what the case waits for."""


class SituacaoPagamento(StrEnum):
    ABERTO = "aberto"
    PAGO = "pago"
    DIVIDA_ATIVA = "divida_ativa"
    CANCELADO = "cancelado"
    """An appeal annulled the penalty before it was paid."""


ROTULOS_PAGAMENTO: dict[str, str] = {
    SituacaoPagamento.ABERTO: "Em aberto",
    SituacaoPagamento.PAGO: "Pago",
    SituacaoPagamento.DIVIDA_ATIVA: "Inscrito em dívida ativa",
    SituacaoPagamento.CANCELADO: "Cancelado (penalidade anulada)",
}
ROTULOS_CURTOS_PAGAMENTO: dict[str, str] = {
    SituacaoPagamento.ABERTO: "Em aberto",
    SituacaoPagamento.PAGO: "Pago",
    SituacaoPagamento.DIVIDA_ATIVA: "Dívida ativa",
    SituacaoPagamento.CANCELADO: "Cancelado",
}
"""The payment as the operator's record (ficha) and the monthly report print it."""
REGISTROS_PAGAMENTO: dict[str, str] = {
    SituacaoPagamento.PAGO: "Paga",
    SituacaoPagamento.DIVIDA_ATIVA: "Inscrita em dívida ativa",
}
"""What "Registrar pagamento" may record, as its choice reads ("the fine was …"): the other two situations
are the start (aberto) and an appeal's consequence (cancelado), never typed."""


class SituacaoCumprimento(StrEnum):
    PENDENTE = "pendente"
    CUMPRIDA = "cumprida"
    NAO_CUMPRIDA = "nao_cumprida"


ROTULOS_CUMPRIMENTO: dict[str, str] = {
    SituacaoCumprimento.PENDENTE: "Pendente",
    SituacaoCumprimento.CUMPRIDA: "Cumprida",
    SituacaoCumprimento.NAO_CUMPRIDA: "Não cumprida",
}
REGISTROS_CUMPRIMENTO: dict[str, str] = {
    SituacaoCumprimento.CUMPRIDA: "Exigência cumprida",
    SituacaoCumprimento.NAO_CUMPRIDA: "Exigência não cumprida",
}
"""What "Verificar cumprimento" may record (pendente is the start, never typed)."""


class ResultadoRecurso(StrEnum):
    PENDENTE = "pendente"
    NEGADO = "negado"
    PROVIDO = "provido"
    PROVIDO_PARCIALMENTE = "provido_parcialmente"


ROTULOS_RECURSO: dict[str, str] = {
    ResultadoRecurso.PENDENTE: "Pendente",
    ResultadoRecurso.NEGADO: "Negado",
    ResultadoRecurso.PROVIDO: "Provido",
    ResultadoRecurso.PROVIDO_PARCIALMENTE: "Provido em parte",
}


class MeioIntimacao(StrEnum):
    """Art. 11's three ways of serving an auto or a decision."""

    PESSOAL = "pessoal"
    ENDERECO = "endereco"
    POSTAL_AR = "postal_ar"


ROTULOS_MEIO: dict[str, str] = {
    MeioIntimacao.PESSOAL: "Pessoalmente, ao representante legal",
    MeioIntimacao.ENDERECO: "Cópia entregue no endereço da empresa, com recibo",
    MeioIntimacao.POSTAL_AR: "Via postal com aviso de recebimento (AR)",
}


class ResultadoIntimacao(StrEnum):
    ENTREGUE = "entregue"
    RECUSADA = "recusada"
    NAO_ENCONTRADO = "nao_encontrado"
    ENDERECO_INCORRETO = "endereco_incorreto"
    DEVOLVIDA = "devolvida"


ROTULOS_RESULTADO_INTIMACAO: dict[str, str] = {
    ResultadoIntimacao.ENTREGUE: "Entregue",
    ResultadoIntimacao.RECUSADA: "Recusada",
    ResultadoIntimacao.NAO_ENCONTRADO: "Destinatário não encontrado",
    ResultadoIntimacao.ENDERECO_INCORRETO: "Endereço incorreto",
    ResultadoIntimacao.DEVOLVIDA: "Devolvida",
}


class ObjetoIntimacao(StrEnum):
    AUTO = "auto"
    DECISAO = "decisao"
    JULGAMENTO = "julgamento"  # the notificação do julgamento do recurso (REGRAS § 5): starts no deadline
    REVISAO = "revisao"  # the auto's latest termo de revisão (art. 65; REGRAS § 5): starts no deadline


class PrazoRevisado(StrEnum):
    DEFESA = "defesa"
    RECURSO = "recurso"


class AcaoProposta(StrEnum):
    APLICAR = "aplicar"
    ARQUIVAR = "arquivar"


class ResultadoDecisao(StrEnum):
    APLICADA = "aplicada"
    ARQUIVADO = "arquivado"


class SituacaoRepresentacao(StrEnum):
    RECEBIDA = "recebida"
    AUTUADA = "autuada"
    ARQUIVADA = "arquivada"


ROTULOS_REPRESENTACAO: dict[str, str] = {
    SituacaoRepresentacao.RECEBIDA: "Recebida",
    SituacaoRepresentacao.AUTUADA: "Autuada",
    SituacaoRepresentacao.ARQUIVADA: "Arquivada",
}


class SituacaoCassacao(StrEnum):
    INSTAURADA = "instaurada"
    EM_DEFESA = "em_defesa"
    DECIDIDA = "decidida"


ROTULOS_CASSACAO: dict[str, str] = {
    SituacaoCassacao.INSTAURADA: "Instaurada",
    SituacaoCassacao.EM_DEFESA: "Em defesa",
    SituacaoCassacao.DECIDIDA: "Decidida",
}


class ResultadoCassacao(StrEnum):
    CASSADA = "cassada"
    ARQUIVADA = "arquivada"


ROTULOS_RESULTADO_CASSACAO: dict[str, str] = {
    ResultadoCassacao.CASSADA: "Permissão cassada",
    ResultadoCassacao.ARQUIVADA: "Arquivada",
}


class SituacaoOperadora(StrEnum):
    """Derived, never stored: from the suspensions being served and the cassação procedure."""

    ATIVA = "ativa"
    SUSPENSA = "suspensa"
    CASSADA = "cassada"


ROTULOS_OPERADORA: dict[str, str] = {
    SituacaoOperadora.ATIVA: "Ativa",
    SituacaoOperadora.SUSPENSA: "Suspensa",
    SituacaoOperadora.CASSADA: "Cassada",
}


class Delegacao(StrEnum):
    CONCESSAO = "concessao"
    PERMISSAO = "permissao"


ROTULOS_DELEGACAO: dict[str, str] = {Delegacao.CONCESSAO: "Concessão", Delegacao.PERMISSAO: "Permissão"}


class SituacaoVeiculo(StrEnum):
    ATIVO = "ativo"
    RESERVA = "reserva"
    BAIXADO = "baixado"


ROTULOS_VEICULO: dict[str, str] = {
    SituacaoVeiculo.ATIVO: "Ativo",
    SituacaoVeiculo.RESERVA: "Reserva",
    SituacaoVeiculo.BAIXADO: "Baixado",
}


class Funcao(StrEnum):
    """An operator's employee's job."""

    MOTORISTA = "motorista"
    COBRADOR = "cobrador"
    FISCAL_EMPRESA = "fiscal_empresa"
    OUTRO = "outro"


ROTULOS_FUNCAO: dict[str, str] = {
    Funcao.MOTORISTA: "Motorista",
    Funcao.COBRADOR: "Cobrador",
    Funcao.FISCAL_EMPRESA: "Fiscal da empresa",
    Funcao.OUTRO: "Outro",
}


class OrigemDispositivo(StrEnum):
    LEI = "lei"
    CONTRATO = "contrato"
    ATO = "ato"


ROTULOS_ORIGEM: dict[str, str] = {
    OrigemDispositivo.LEI: "Lei nº 2.413/1978",
    OrigemDispositivo.CONTRATO: "Contrato",
    OrigemDispositivo.ATO: "Ato normativo",
}


class Papel(StrEnum):
    """A user's role: what acts the user may perform (services check it, the audit records it)."""

    ADMINISTRADOR = "administrador"
    FISCAL = "fiscal"
    PROTOCOLO = "protocolo"
    AUTORIDADE = "autoridade"
    SECRETARIO = "secretario"
    CONSULTA = "consulta"


ROTULOS_PAPEIS: dict[str, str] = {
    Papel.ADMINISTRADOR: "Administrador",
    Papel.FISCAL: "Fiscal",
    Papel.PROTOCOLO: "Protocolo",
    Papel.AUTORIDADE: "Autoridade competente",
    Papel.SECRETARIO: "Secretário",
    Papel.CONSULTA: "Consulta",
}


def check_em(coluna: str, codigos: type[StrEnum], *, nulo: bool = False) -> str:
    """The SQL of a CHECK constraint keeping `coluna` inside the list: "fase IN ('lavrado',...)"."""
    valores = ",".join(f"'{c.value}'" for c in codigos)
    return f"{coluna} IS NULL OR {coluna} IN ({valores})" if nulo else f"{coluna} IN ({valores})"


def itens(rotulos: Mapping[str, str]) -> list[tuple[str, str]]:
    """(label, code) pairs in the table's order, as a combo box adds its items."""
    return [(rotulo, str(codigo)) for codigo, rotulo in rotulos.items()]
