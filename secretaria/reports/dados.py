"""The plain data each document is made from.

`reports` never reads the database: the services build these frozen dataclasses (from the models, the law
layer and the administration data) and hand them over. That keeps the renderers testable without a database,
and makes an issued document a pure function of its data: same data, same bytes (PRODUTO § 9: re-printing
gives the same bytes, checked by SHA-256).

Conventions, so the services engineer need not guess:
- money and URM amounts are `Decimal` (never float); dates are `datetime.date`, hours `datetime.time`;
- identifiers arrive already formatted for display: CNPJ "12.345.678/0001-95", CPF "123.456.789-09",
  auto number "0001/2026", provision label "Art. 1º, XVI";
- text is plain text (newlines allowed); the renderers escape it, nothing is read as markup;
- sequences may be given as lists: they are stored as tuples, so the objects stay immutable and hashable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Any

__all__ = [
    "TEXTO_ART_10",
    "TEXTO_ART_11",
    "TEXTO_ART_14",
    "TEXTO_ART_15",
    "DadosAuto",
    "DadosDecisao",
    "DadosDispositivo",
    "DadosEmpregado",
    "DadosFicha",
    "DadosFiscal",
    "DadosIntimacao",
    "DadosIntimacaoRetificacao",
    "DadosJulgamento",
    "DadosLinha",
    "DadosLoteIntimacao",
    "DadosMensais",
    "DadosOperadora",
    "DadosProcessoIntegral",
    "DadosRetificacao",
    "DadosRevisao",
    "DadosVeiculo",
    "EventoProcesso",
    "ItemRetificado",
    "LinhaAutoMensal",
    "LinhaFichaCaso",
    "LinhaFichaCassacao",
    "LinhaPagamentoMensal",
    "LinhaPenalidadeMensal",
    "LinhaPrazoMensal",
    "LinhaSuspensaoMensal",
    "PecaProcesso",
    "Resultado",
    "ResultadoJulgamento",
    "Testemunha",
    "Timbre",
]

# The articles as printed in Lei nº 2.413/1978 (the OCR copy's spelling fixed only where it is plain).
TEXTO_ART_10 = (
    "O auto de infração, lavrado com precisão e clareza, deverá conter: I - o local, o dia e a hora da "
    "lavratura; II - o nome do infrator e das testemunhas, se houver; III - a descrição do fato que "
    "constitui a infração e as circunstâncias pertinentes; IV - a indicação do dispositivo legal violado; "
    "V - a próxima penalidade a ser aplicada."
)
TEXTO_ART_11 = (
    "Consideram-se intimados os concessionários ou permissionários, quando a intimação se fizer na pessoa "
    "do representante legal da pessoa jurídica autuada, ou quando for entregue a cópia autêntica do auto de "
    "infração, no endereço da empresa, mediante recibo."
)
TEXTO_ART_14 = (
    "A defesa do infrator será apresentada por petição contra recibo, ao Secretário Municipal de Serviços "
    "Urbanos, no prazo de 15 (quinze) dias, contados da intimação."
)
TEXTO_ART_15 = (
    "Da decisão do Secretário Municipal de Serviços Urbanos caberá recurso ao Prefeito, interposto no prazo "
    "de 15 (quinze) dias, contados da data de intimação da decisão."
)

_NUMERO_AUTO = re.compile(r"^\d{4,}/\d{4}$")
_TIPOS = frozenset("ABCDE")
_CENTAVO = Decimal("0.01")


def _tupla(obj: Any, nome: str) -> None:
    """Store a sequence field as a tuple (frozen dataclasses cannot be assigned normally)."""
    valor = getattr(obj, nome)
    if not isinstance(valor, tuple):
        object.__setattr__(obj, nome, tuple(valor))


def _exigir(condicao: bool, mensagem: str) -> None:
    if not condicao:
        raise ValueError(mensagem)


def _checar_numero(numero: str) -> None:
    _exigir(bool(_NUMERO_AUTO.match(numero)), f"Número de auto inválido: {numero!r} (esperado NNNN/AAAA).")


def _checar_tipo(tipo: str) -> None:
    _exigir(tipo in _TIPOS, f"Tipo de infração inválido: {tipo!r} (esperado A, B, C, D ou E).")


# --------------------------------------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timbre:
    """The issuing authority, from the administration data (PRODUTO § 11), printed as the letterhead.

    `secretario_cargo` is separate from the name so a Secretária signs as such.
    """

    secretario_nome: str
    endereco: str  # "Rua Marechal Floriano, 123 – Centro – CEP 96015-440"
    cidade: str = "Pelotas"
    uf: str = "RS"
    telefone: str = ""
    email: str = ""
    prefeitura: str = "Prefeitura Municipal de Pelotas"
    secretaria: str = "Secretaria Municipal de Serviços Urbanos"
    secretario_cargo: str = "Secretário Municipal de Serviços Urbanos"
    estado: str = "Estado do Rio Grande do Sul"


@dataclass(frozen=True, slots=True)
class DadosOperadora:
    """The concessionária/permissionária as a notice addresses it (art. 11: its address for notices)."""

    razao_social: str
    cnpj: str  # formatted, numeric or alphanumeric form
    endereco: str  # full address for notices, one line
    nome_fantasia: str | None = None


@dataclass(frozen=True, slots=True)
class DadosEmpregado:
    """The employee, agent or driver involved (art. 7º caput: identified when known; the fine still falls
    on the operator). `nome` is None when the person was not identified on the spot."""

    funcao: str  # "motorista", "cobrador", "fiscal da empresa", "condutor", "outro"
    nome: str | None = None
    cpf: str | None = None
    cadastro: str | None = None  # registration card number (art. 1º, XVIII), if known


@dataclass(frozen=True, slots=True)
class DadosVeiculo:
    prefixo: str  # fleet number
    placa: str  # old or Mercosul form, formatted


@dataclass(frozen=True, slots=True)
class DadosLinha:
    codigo: str
    nome: str


@dataclass(frozen=True, slots=True)
class Testemunha:
    """A witness of art. 10, II; `documento` is what identifies them ("RG 1234567890", "CPF ...")."""

    nome: str
    documento: str
    endereco: str | None = None


@dataclass(frozen=True, slots=True)
class DadosDispositivo:
    """The provision infringed (art. 10, IV), as the catalogue holds it.

    `nota` carries REGRAS § 1's marked note for garbled passages (e.g. "Texto com lacuna no original
    (sic)"), printed under the text so the operator sees the same words the program applied.
    """

    rotulo: str  # "Art. 1º, XVI"
    texto: str
    tipo: str  # A–E: an auto cannot cite a provision without tipo (REGRAS § 1)
    nota: str | None = None

    def __post_init__(self) -> None:
        _checar_tipo(self.tipo)


@dataclass(frozen=True, slots=True)
class DadosFiscal:
    """The SMSU inspector who drew up the auto (art. 9º, I)."""

    nome: str
    matricula: str


# --------------------------------------------------------------------------------------------------------
# Auto de infração (arts. 10 and 11)
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DadosAuto:
    """Everything art. 10 requires, plus who drew the auto up.

    `proxima_penalidade` is art. 10, V, already worded by the law layer as of the day of the auto (REGRAS
    § 5), e.g. "Multa de 0,20 a 1,00 URM (art. 7º, § 1º, a, e § 2º — 1ª reincidência)".
    `representacao` is the "REP nº 0003/2026" the auto was drawn from (art. 12), if any.
    """

    timbre: Timbre
    numero: str  # "0001/2026"
    local: str  # where it was drawn up (art. 10, I)
    data_lavratura: date
    hora_lavratura: time
    operadora: DadosOperadora
    dispositivo: DadosDispositivo
    descricao_fatos: str  # art. 10, III
    proxima_penalidade: str  # art. 10, V
    fiscal: DadosFiscal
    circunstancias: str = ""  # art. 10, III, "as circunstâncias pertinentes"
    data_fato: date | None = None  # when the fact differs from the lavratura
    hora_fato: time | None = None
    empregado: DadosEmpregado | None = None
    veiculo: DadosVeiculo | None = None
    linha: DadosLinha | None = None
    testemunhas: Sequence[Testemunha] = ()
    recusou_assinar: bool = False  # the person present refused to sign
    representacao: str | None = None

    def __post_init__(self) -> None:
        _checar_numero(self.numero)
        _tupla(self, "testemunhas")
        _exigir(bool(self.local.strip()), "O local da lavratura é obrigatório (art. 10, I).")
        _exigir(bool(self.descricao_fatos.strip()), "A descrição dos fatos é obrigatória (art. 10, III).")
        _exigir(bool(self.proxima_penalidade.strip()), "A próxima penalidade é obrigatória (art. 10, V).")


# --------------------------------------------------------------------------------------------------------
# Intimação of the auto (arts. 11 and 14)
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DadosIntimacao:
    """The notice of an auto.

    The paper states the deadline as "15 dias contados do recebimento desta intimação" (REGRAS § 5), never
    as a date computed from a planned delivery. `data_intimacao` and `prazo_defesa` are set only when the
    delivery is already recorded (a copy issued afterwards), and are then printed as the program counted
    them. Where to file defaults to the letterhead's address when `local_protocolo` is None.
    """

    timbre: Timbre
    numero_auto: str
    data_auto: date
    operadora: DadosOperadora
    data_emissao: date
    data_intimacao: date | None = None
    prazo_defesa: date | None = None
    representante: str | None = None  # the legal representative (art. 11)
    dispositivo: str | None = None  # "Art. 1º, XVI"
    tipo: str | None = None
    local_protocolo: str | None = None
    destinatario_defesa: str = "Secretário Municipal de Serviços Urbanos"
    texto_art14: str = TEXTO_ART_14
    horario_expediente: str = ""  # "de segunda a sexta-feira, das 8h às 14h"

    def __post_init__(self) -> None:
        _checar_numero(self.numero_auto)
        if self.tipo is not None:
            _checar_tipo(self.tipo)
        _exigir(
            (self.data_intimacao is None) == (self.prazo_defesa is None),
            "Intimação registrada exige a data e o prazo de defesa; antes da entrega, nenhum dos dois.",
        )
        if self.data_intimacao is not None and self.prazo_defesa is not None:
            _exigir(
                self.prazo_defesa > self.data_intimacao,
                "O prazo de defesa deve ser posterior à data da intimação (art. 14).",
            )
            _exigir(self.data_intimacao >= self.data_auto, "A intimação não pode ser anterior ao auto.")


@dataclass(frozen=True, slots=True)
class ItemRetificado:
    """One item of the auto a termo corrects, as it read and as it reads now."""

    rotulo: str
    de: str
    para: str


@dataclass(frozen=True, slots=True)
class DadosRetificacao:
    """The termo de retificação of an auto (REGRAS § 5), which is also its intimação.

    `substancial`: the correction changes the provision, the facts or the day of the infraction, so the
    defence deadline reopens, counted from the receipt of this termo ("15 dias contados do recebimento
    desta intimação", never a date), and `proxima_penalidade` restates art. 10, V for the corrected
    provision and day. A formal one (`substancial` False) reopens nothing. `razao` says which.
    """

    timbre: Timbre
    numero: str  # "0001/2026"
    numero_auto: str
    data_auto: date
    data: date
    operadora: DadosOperadora
    itens: Sequence[ItemRetificado]
    motivo: str
    substancial: bool
    razao: str
    dispositivo: str  # as corrected: "Art. 1º, XVI"
    tipo: str
    lavrado_por_nome: str
    """The inspector who drew the termo up (REGRAS § 5: "who"), signing it."""
    lavrado_por_matricula: str | None = None
    representante: str | None = None
    proxima_penalidade: str | None = None
    horario_expediente: str = ""
    destinatario_defesa: str = "Secretário Municipal de Serviços Urbanos"
    texto_art14: str = TEXTO_ART_14

    def __post_init__(self) -> None:
        _tupla(self, "itens")
        _checar_numero(self.numero)
        _checar_numero(self.numero_auto)
        _checar_tipo(self.tipo)
        _exigir(bool(self.itens), "O termo de retificação deve indicar ao menos um item retificado.")
        _exigir(self.data >= self.data_auto, "O termo de retificação não pode ser anterior ao auto.")
        _exigir(
            not self.substancial or bool(self.horario_expediente.strip()),
            "A retificação de substância reabre a defesa: informe o horário de expediente do protocolo.",
        )


@dataclass(frozen=True, slots=True)
class DadosIntimacaoRetificacao:
    """The intimação of a termo de retificação of substance (REGRAS § 5): it names the termo and the auto
    as corrected, carries the corrected auto's copy (`auto`, rendered from the auto as it now reads), and
    states the new defence deadline only as "15 dias contados do recebimento". `intimacao` holds the
    addressee, where and when to defend, and the provision as corrected; its `data_intimacao` and
    `prazo_defesa` are set once the termo's delivery is recorded, like the auto's notice."""

    intimacao: DadosIntimacao
    numero_termo: str  # "0001/2026"
    data_termo: date
    itens: Sequence[ItemRetificado]
    motivo: str
    auto: DadosAuto
    prazo_anterior: date | None = None  # the defence deadline the termo set aside, if one was running

    def __post_init__(self) -> None:
        _tupla(self, "itens")
        _checar_numero(self.numero_termo)
        _exigir(bool(self.itens), "A intimação do termo deve indicar ao menos um item retificado.")
        _exigir(self.auto.numero == self.intimacao.numero_auto, "O auto retificado não é o da intimação.")
        _exigir(self.data_termo >= self.intimacao.data_auto, "O termo não pode ser anterior ao auto.")

    @property
    def timbre(self) -> Timbre:
        return self.intimacao.timbre

    @property
    def numero_auto(self) -> str:
        return self.intimacao.numero_auto

    @property
    def operadora(self) -> DadosOperadora:
        return self.intimacao.operadora


@dataclass(frozen=True, slots=True)
class DadosLoteIntimacao:
    """All intimações of a period in one PDF, followed by the delivery list to be signed.

    The batch prints one letterhead for all notices, so every notice must carry the same `timbre`.
    """

    timbre: Timbre
    periodo_inicio: date
    periodo_fim: date
    emitido_em: date
    intimacoes: Sequence[DadosIntimacao | DadosIntimacaoRetificacao]

    def __post_init__(self) -> None:
        _tupla(self, "intimacoes")
        _exigir(self.periodo_inicio <= self.periodo_fim, "O início do período é posterior ao fim.")
        for intimacao in self.intimacoes:
            _exigir(
                intimacao.timbre is self.timbre or intimacao.timbre == self.timbre,
                f"A intimação do auto {intimacao.numero_auto} tem outro timbre que o do lote.",
            )


# --------------------------------------------------------------------------------------------------------
# Decision notice (arts. 7º, 13 and 15)
# --------------------------------------------------------------------------------------------------------


class Resultado(StrEnum):
    """What the Secretário decided (art. 13)."""

    APLICADA = "aplicada"  # penalty applied
    ARQUIVADA = "arquivada"  # auto dismissed (julgado insubsistente) and filed


@dataclass(frozen=True, slots=True)
class DadosDecisao:
    """The Secretário's decision, as notified to the operator.

    For `Resultado.APLICADA` the fine fields are all required and must agree: `valor_reais` = `multa_urm` ×
    `valor_urm` (the URM in force on `data_decisao`), rounded half-up to the cent (REGRAS § 2); the words
    come ready-made (`secretaria.lei.urm.por_extenso`). A suspension (§§ 5º–8º) is always on top of the fine;
    its period may be unknown yet (it starts when the decision is final). `prazo_recurso` appears once the
    intimação of the decision is recorded (art. 15); until then the notice states the rule.
    """

    timbre: Timbre
    numero_auto: str
    data_auto: date
    operadora: DadosOperadora
    data_decisao: date
    resultado: Resultado
    fundamentacao: str  # the reasons
    dispositivo: str | None = None  # "Art. 1º, XVI"
    tipo: str | None = None
    multa_urm: Decimal | None = None
    valor_urm: Decimal | None = None
    valor_reais: Decimal | None = None
    valor_por_extenso: str | None = None  # "oitenta e dois reais e trinta e sete centavos"
    suspensao_dias: int | None = None
    suspensao_inicio: date | None = None
    suspensao_fim: date | None = None
    data_intimacao_decisao: date | None = None
    prazo_recurso: date | None = None
    autoridade_recurso: str = "Prefeito Municipal"
    texto_art15: str = TEXTO_ART_15
    representante: str | None = None  # the operator's legal representative, notified with it (art. 11)
    secretario_nome: str = ""  # who decided; "" → the letterhead's
    secretario_cargo: str = ""
    fundamentos_legais: Sequence[str] = ()  # the sanction's grounds, one line per rule
    reincidencia: int | None = None  # the recidivism level n of the range
    faixa_base: tuple[Decimal, Decimal] | None = None  # § 1º range of the tipo (first penalty)
    faixa: tuple[Decimal, Decimal] | None = None  # the range applied: base × 2ⁿ, each end capped
    teto_urm: Decimal = Decimal("10.00")  # art. 7º, I
    prazo_pagamento_dias: int | None = None  # days to pay, from the day the penalty becomes final
    pagamento_instrucoes: str = ""  # where and how to pay
    # Lei 9.784/1999, art. 26 § 1º and art. 50 (REGRAS § 5, "What the notices say"):
    fatos: str = ""  # the facts as the auto states them, as corrected by any termo de retificação
    data_fato: date | None = None
    retificado_por: str | None = None  # "termo de retificação nº 0001/2026, de 20/11/2026"
    defesa_recebida_em: date | None = None  # None: no defence was filed
    defesa_tempestiva: bool | None = None
    proposta_por: str = ""  # who proposed the penalty (art. 13), by name
    proposta_em: date | None = None
    proposta_texto: str = ""  # "aplicação de multa de 0,40 URM" / "arquivamento do auto"
    horario_expediente: str = ""  # the office hours in which the appeal is received
    local_protocolo: str | None = None  # where the appeal is filed; None → the letterhead's address

    def __post_init__(self) -> None:
        _checar_numero(self.numero_auto)
        _tupla(self, "fundamentos_legais")
        _exigir(
            (self.defesa_recebida_em is None) == (self.defesa_tempestiva is None),
            "A defesa recebida exige o dia do recebimento e se foi tempestiva; sem defesa, nenhum dos dois.",
        )
        if self.tipo is not None:
            _checar_tipo(self.tipo)
        _exigir(self.data_decisao >= self.data_auto, "A decisão não pode ser anterior ao auto.")
        if self.faixa is not None or self.faixa_base is not None:
            _exigir(
                self.faixa is not None and self.faixa_base is not None and self.reincidencia is not None,
                "A faixa da multa exige a faixa do § 1º, a aplicada e o nível de reincidência.",
            )
            assert self.faixa is not None and self.faixa_base is not None and self.reincidencia is not None
            dobro = 2**self.reincidencia
            esperada = tuple(min(v * dobro, self.teto_urm) for v in self.faixa_base)
            _exigir(
                esperada == self.faixa,
                f"Faixa incoerente: {self.faixa_base} × {dobro}, limitada a {self.teto_urm}, "
                f"dá {esperada}, não {self.faixa}.",
            )
        _exigir(bool(self.fundamentacao.strip()), "A fundamentação da decisão é obrigatória.")
        if self.resultado is Resultado.APLICADA:
            _exigir(
                None not in (self.multa_urm, self.valor_urm, self.valor_reais, self.valor_por_extenso),
                "Decisão que aplica penalidade exige multa em URM, valor da URM, valor em R$ e por extenso.",
            )
            assert self.multa_urm is not None and self.valor_urm is not None
            esperado = (self.multa_urm * self.valor_urm).quantize(_CENTAVO, rounding=ROUND_HALF_UP)
            _exigir(
                self.valor_reais == esperado,
                f"Valor da multa incoerente: {self.multa_urm} URM × {self.valor_urm} = {esperado}, "
                f"não {self.valor_reais}.",
            )
            _exigir(
                self.prazo_pagamento_dias is not None and self.prazo_pagamento_dias >= 1,
                "Decisão que aplica multa exige o prazo de pagamento (dias).",
            )
            _exigir(
                bool(self.pagamento_instrucoes.strip()), "Decisão que aplica multa exige onde e como pagar."
            )
        else:
            _exigir(
                self.multa_urm is None and self.suspensao_dias is None,
                "Decisão de arquivamento não aplica multa nem suspensão.",
            )
        if self.suspensao_dias is not None:
            _exigir(1 <= self.suspensao_dias <= 30, "A suspensão vai de 1 a 30 dias (art. 7º, II).")
        _exigir(
            (self.suspensao_inicio is None) == (self.suspensao_fim is None),
            "O período de suspensão precisa de início e fim.",
        )
        if self.suspensao_inicio is not None and self.suspensao_fim is not None:
            _exigir(self.suspensao_dias is not None, "Período de suspensão sem número de dias.")
            assert self.suspensao_dias is not None
            _exigir(
                self.suspensao_fim - self.suspensao_inicio == timedelta(days=self.suspensao_dias - 1),
                "O período de suspensão não corresponde ao número de dias.",
            )
        if self.prazo_recurso is not None:
            _exigir(self.data_intimacao_decisao is not None, "Prazo de recurso sem data de intimação.")
            assert self.data_intimacao_decisao is not None
            _exigir(
                self.prazo_recurso > self.data_intimacao_decisao,
                "O prazo de recurso deve ser posterior à intimação da decisão (art. 15).",
            )


# --------------------------------------------------------------------------------------------------------
# Judgment of the appeal (art. 15; REGRAS § 5)
# --------------------------------------------------------------------------------------------------------


class ResultadoJulgamento(StrEnum):
    NEGADO = "negado"
    PROVIDO = "provido"
    PROVIDO_PARCIALMENTE = "provido_parcialmente"


@dataclass(frozen=True, slots=True)
class DadosJulgamento:
    """The notificação do julgamento do recurso (REGRAS § 5), notified like the decision: the outcome, the
    reasons and, where a penalty remains (denied, or granted in part), the penalty with its arithmetic,
    the amount in R$ and in words and the payment deadline counted from the day the penalty became final
    (`data_definitiva`: the judgment, in last instance, art. 7º); where annulled, that nothing is due.
    `multa_decisao_urm`/`suspensao_decisao_dias` are what the Secretary's decision applied."""

    timbre: Timbre
    numero_auto: str
    data_auto: date
    operadora: DadosOperadora
    data_decisao: date
    data_recurso: date
    recurso_tempestivo: bool
    data_julgamento: date
    resultado: ResultadoJulgamento
    fundamentacao: str
    multa_decisao_urm: Decimal
    suspensao_decisao_dias: int | None = None
    dispositivo: str | None = None
    tipo: str | None = None
    representante: str | None = None
    autoridade: str = "Prefeito Municipal"
    multa_urm: Decimal | None = None  # the penalty that remains
    valor_urm: Decimal | None = None  # the URM of the decision day (REGRAS § 2)
    valor_reais: Decimal | None = None
    valor_por_extenso: str | None = None
    suspensao_dias: int | None = None
    data_definitiva: date | None = None
    prazo_pagamento_dias: int | None = None
    pagamento_instrucoes: str = ""
    valor_pago: Decimal | None = None  # already paid before the judgment (an annulled fine is refunded)

    def __post_init__(self) -> None:
        _checar_numero(self.numero_auto)
        if self.tipo is not None:
            _checar_tipo(self.tipo)
        _exigir(self.data_julgamento >= self.data_recurso, "O julgamento não pode ser anterior ao recurso.")
        _exigir(bool(self.fundamentacao.strip()), "A fundamentação do julgamento é obrigatória.")
        if self.resultado is ResultadoJulgamento.PROVIDO:
            _exigir(
                self.multa_urm is None and self.suspensao_dias is None,
                "Recurso provido anula a penalidade: nada resta a pagar nem a cumprir.",
            )
            return
        _exigir(
            None not in (self.multa_urm, self.valor_urm, self.valor_reais, self.valor_por_extenso),
            "Penalidade mantida ou reduzida exige multa em URM, valor da URM, valor em R$ e por extenso.",
        )
        assert self.multa_urm is not None and self.valor_urm is not None
        esperado = (self.multa_urm * self.valor_urm).quantize(_CENTAVO, rounding=ROUND_HALF_UP)
        _exigir(
            self.valor_reais == esperado, f"Valor da multa incoerente: {esperado}, não {self.valor_reais}."
        )
        _exigir(self.multa_urm <= self.multa_decisao_urm, "O julgamento do recurso nunca agrava a multa.")
        _exigir(
            self.prazo_pagamento_dias is not None and self.prazo_pagamento_dias >= 1,
            "Penalidade mantida ou reduzida exige o prazo de pagamento (dias).",
        )
        _exigir(
            bool(self.pagamento_instrucoes.strip()), "Penalidade mantida ou reduzida exige onde e como pagar."
        )


@dataclass(frozen=True, slots=True)
class DadosRevisao:
    """The termo de revisão of a decided sanction (Lei 9.784/1999, art. 65; REGRAS § 5), notified like a
    decision: why the case was reviewed (a prior annulled or reduced), the level and range it has today,
    the penalty before → after (never higher), the amount with its arithmetic and words, the payment
    deadline, and an amount already paid beyond the revised one, to be refunded."""

    timbre: Timbre
    numero: str  # "0001/2026" (TRV nº)
    numero_auto: str
    data_auto: date
    operadora: DadosOperadora
    data: date
    data_decisao: date
    origem: str
    reincidencia_anterior: int
    reincidencia_atual: int
    faixa: tuple[Decimal, Decimal]
    multa_anterior_urm: Decimal
    multa_urm: Decimal
    valor_urm: Decimal
    valor_reais: Decimal
    valor_por_extenso: str
    fundamentacao: str
    secretario_nome: str
    secretario_cargo: str
    suspensao_anterior_dias: int = 0
    suspensao_dias: int = 0
    valor_restituir: Decimal | None = None
    dispositivo: str | None = None
    tipo: str | None = None
    representante: str | None = None
    prazo_pagamento_dias: int | None = None
    pagamento_instrucoes: str = ""
    data_definitiva: date | None = None
    julgamento: str = field(default="", repr=False)
    """How the appeal's judgment set the penalty in force before the revision ("" when not appealed): every
    later document shows the judgment (REGRAS § 5). Out of the repr that seeds the PDF's /ID, so a termo
    issued before this field existed re-renders to its stored bytes; the text it adds is in the content."""

    def __post_init__(self) -> None:
        _checar_numero(self.numero)
        _checar_numero(self.numero_auto)
        _exigir(self.multa_urm <= self.multa_anterior_urm, "A revisão nunca agrava a multa (art. 65).")
        _exigir(self.suspensao_dias <= self.suspensao_anterior_dias, "A revisão nunca agrava a suspensão.")
        esperado = (self.multa_urm * self.valor_urm).quantize(_CENTAVO, rounding=ROUND_HALF_UP)
        _exigir(
            self.valor_reais == esperado, f"Valor da multa incoerente: {esperado}, não {self.valor_reais}."
        )
        _exigir(bool(self.fundamentacao.strip()), "A fundamentação da revisão é obrigatória.")


# --------------------------------------------------------------------------------------------------------
# Ficha of an operator
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LinhaFichaCaso:
    """One case on an operator's record.

    `situacao` is the case's workflow state as the program names it ("Aguardando intimação", "Em defesa",
    "Decidido", "Em recurso", "Arquivado", "Cancelado", ...). `pagamento` is "Em aberto", "Pago",
    "Dívida ativa" or "—" when there is no fine; a case counts as paid when `data_pagamento` is set.
    """

    numero: str
    data: date
    dispositivo: str
    tipo: str
    situacao: str
    multa_urm: Decimal | None = None
    multa_reais: Decimal | None = None
    suspensao_dias: int | None = None
    suspensao_inicio: date | None = None
    suspensao_fim: date | None = None
    pagamento: str = "—"
    data_pagamento: date | None = None


@dataclass(frozen=True, slots=True)
class LinhaFichaCassacao:
    """A cassação procedure (art. 16) on the operator: `situacao` as the program names it ("Instaurada",
    "Em defesa", "Decidida"), `resultado` "Cassada"/"Arquivada" once decided."""

    instaurada_em: date
    situacao: str
    motivo: str
    em_curso: bool
    resultado: str | None = None
    decidida_em: date | None = None


@dataclass(frozen=True, slots=True)
class DadosFicha:
    """An operator's registry data and every case, for the "ficha" (PRODUTO § 9)."""

    timbre: Timbre
    emitida_em: date
    operadora: DadosOperadora
    modalidade: str  # "Concessionária" or "Permissionária"
    situacao: str  # "Ativa", "Suspensa até 05/02/2027", "Cassada"
    representante_nome: str | None = None
    representante_cpf: str | None = None
    contrato_numero: str | None = None
    contrato_inicio: date | None = None
    contrato_fim: date | None = None
    telefone: str | None = None
    email: str | None = None
    veiculos: int | None = None  # fleet size, when the service counts it
    linhas: int | None = None
    casos: Sequence[LinhaFichaCaso] = ()
    cassacoes: Sequence[LinhaFichaCassacao] = ()

    def __post_init__(self) -> None:
        _tupla(self, "casos")
        _tupla(self, "cassacoes")


# --------------------------------------------------------------------------------------------------------
# Monthly spreadsheet (PRODUTO § 10)
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LinhaAutoMensal:
    """An auto drawn up in the month (`data_lavratura`), with the day of the infraction it records. The fine
    is None while the case is undecided or was dismissed."""

    numero: str
    data_lavratura: date
    data_infracao: date
    operadora: str
    dispositivo: str
    tipo: str
    situacao: str
    veiculo: str | None = None  # "1234 – IAB1C23"
    empregado: str | None = None
    multa_urm: Decimal | None = None
    multa_reais: Decimal | None = None


@dataclass(frozen=True, slots=True)
class LinhaPenalidadeMensal:
    """A decision taken in the month: fine and, where applied, suspension."""

    numero_auto: str
    data_decisao: date
    operadora: str
    dispositivo: str
    tipo: str
    resultado: str  # "Penalidade aplicada", "Arquivado", "Recurso provido", ...
    multa_urm: Decimal | None = None
    valor_urm: Decimal | None = None
    multa_reais: Decimal | None = None
    suspensao_dias: int | None = None
    suspensao_inicio: date | None = None
    suspensao_fim: date | None = None


@dataclass(frozen=True, slots=True)
class LinhaSuspensaoMensal:
    """A suspension whose serving started in the month, whatever month it was decided in."""

    numero_auto: str
    operadora: str
    dispositivo: str
    inicio: date
    fim: date
    dias: int
    situacao: str  # "Cumprida", "Em curso no fim do mês", "Anulada"


@dataclass(frozen=True, slots=True)
class LinhaPrazoMensal:
    """A defence (art. 14) or appeal (art. 15) deadline still open on the month's last day."""

    numero_auto: str
    operadora: str
    prazo: str  # "Defesa (art. 14)" or "Recurso (art. 15)"
    data_intimacao: date
    vencimento: date


@dataclass(frozen=True, slots=True)
class LinhaPagamentoMensal:
    """A fine's payment situation in the month (art. 8º follow-up is not money and is not here)."""

    numero_auto: str
    operadora: str
    valor_multa: Decimal
    situacao: str  # "Pago", "Em aberto", "Dívida ativa"
    data_pagamento: date | None = None
    valor_pago: Decimal | None = None
    observacao: str = ""


@dataclass(frozen=True, slots=True)
class DadosMensais:
    """Everything the monthly spreadsheet shows for `ano`/`mes`.

    The "Resumo por operadora" sheet is computed from `autos` (autos drawn up) and `penalidades` (fines
    decided in the month), so it always agrees with the "Autos" and "Penalidades" sheets.
    """

    ano: int
    mes: int
    autos: Sequence[LinhaAutoMensal] = ()
    penalidades: Sequence[LinhaPenalidadeMensal] = ()
    prazos: Sequence[LinhaPrazoMensal] = ()
    pagamentos: Sequence[LinhaPagamentoMensal] = ()
    suspensoes: Sequence[LinhaSuspensaoMensal] = ()

    def __post_init__(self) -> None:
        _exigir(1 <= self.mes <= 12, f"Mês inválido: {self.mes}.")
        for nome in ("autos", "penalidades", "prazos", "pagamentos", "suspensoes"):
            _tupla(self, nome)


# --------------------------------------------------------------------------------------------------------
# The complete case file (reports/processo_integral.py)
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PecaProcesso:
    """One piece of the file: a stored PDF, an evidence image, or a record drawn as a short page."""

    titulo: str
    """"Auto de infração nº 0001/2026", "Registro da defesa", "Prova: foto-1.jpg"…"""
    data: date
    origem: str
    """Where the bytes come from: "documento emitido nº 4", "anexo nº 2", "registro do sistema"."""
    formato: str
    """"pdf" (`conteudo` is a PDF), "imagem" (a JPEG or PNG) or "registro" (`campos` and `texto`)."""
    conteudo: bytes = field(default=b"", repr=False)
    sha256: str = ""
    """Of `conteudo` (checked by the reader); a record's is taken from the page drawn for it."""
    campos: tuple[tuple[str, str], ...] = ()
    texto: str = ""
    prova: bool = False
    """Evidence attached to the auto: listed in the index under its own heading."""


@dataclass(frozen=True)
class EventoProcesso:
    data: date
    titulo: str
    descricao: str


@dataclass(frozen=True)
class DadosProcessoIntegral:
    timbre: Timbre
    numero_auto: str
    operadora: str
    cnpj: str
    dispositivo: str
    data_lavratura: date
    situacao: str
    emitida_em: date
    pecas: tuple[PecaProcesso, ...]
    linha_do_tempo: tuple[EventoProcesso, ...]
