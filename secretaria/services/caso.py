"""The case screen's read model: the auto, every act with its date, the deadlines and the next acts allowed.

Plain frozen dataclasses (never live ORM objects), read in a handful of indexed queries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from decimal import Decimal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import PrazoRevisado
from secretaria.lei.documentos import formatar_placa
from secretaria.lei.formato import formatar_data
from secretaria.lei.urm import formatar_reais, formatar_urm
from secretaria.models import (
    Anexo,
    AutoInfracao,
    Cumprimento,
    Decisao,
    Defesa,
    DispositivoCatalogo,
    Intimacao,
    Pagamento,
    Proposta,
    Recurso,
    Representacao,
    Retificacao,
    RevisaoSancao,
    Suspensao,
)
from secretaria.services.base import Ator
from secretaria.services.emitidos import DocumentoInfo, documentos_emitidos
from secretaria.services.execucao import prazo_pagamento, primeiro_dia_livre
from secretaria.services.processo_base import ROTULOS_FASE, auto_com_relacoes
from secretaria.services.revisao_prazos import RevisaoResumo, revisoes_do_auto
from secretaria.services.tramitacao import MEIOS_INTIMACAO, RESULTADOS_INTIMACAO, DecisaoCaso, decisao_final

PAPEIS_DOS_ATOS: dict[str, tuple[str, ...]] = {
    "registrar_intimacao_auto": ("protocolo",),
    "registrar_defesa": ("protocolo",),
    "registrar_proposta": ("autoridade",),
    "decidir": ("secretario",),
    "registrar_intimacao_decisao": ("protocolo",),
    "registrar_recurso": ("protocolo",),
    "julgar_recurso": ("protocolo",),
    "iniciar_suspensao": ("secretario", "autoridade"),
    "registrar_pagamento": ("protocolo",),
    "registrar_cumprimento": ("fiscal", "protocolo"),
    "anexar_evidencia": ("fiscal", "protocolo"),
    "cancelar_auto": ("autoridade", "secretario"),
    "conferir_revisao_prazo": ("secretario",),
    "retificar_auto": ("fiscal",),
    "registrar_intimacao_retificacao": ("protocolo",),
    "revisar_sancao": ("secretario",),
    "registrar_intimacao_julgamento": ("protocolo",),
    "registrar_intimacao_revisao": ("protocolo",),
}
"""Each act the case screen offers → the roles that may do it (the services check the same roles)."""

ROTULOS_ATOS = {
    "registrar_intimacao_auto": "Registrar intimação do auto",
    "registrar_defesa": "Registrar defesa",
    "registrar_proposta": "Propor penalidade",
    "decidir": "Decidir",
    "registrar_intimacao_decisao": "Registrar intimação da decisão",
    "registrar_recurso": "Registrar recurso",
    "julgar_recurso": "Registrar julgamento do recurso",
    "iniciar_suspensao": "Iniciar suspensão",
    "registrar_pagamento": "Registrar pagamento",
    "registrar_cumprimento": "Registrar cumprimento (art. 8º)",
    "anexar_evidencia": "Anexar arquivo",
    "cancelar_auto": "Cancelar auto",
    "conferir_revisao_prazo": "Conferir prazo revisto",
    "retificar_auto": "Retificar auto",
    "registrar_intimacao_retificacao": "Registrar intimação do termo de retificação",
    "revisar_sancao": "Revisar sanção (art. 65)",
    "registrar_intimacao_julgamento": "Registrar intimação do julgamento do recurso",
    "registrar_intimacao_revisao": "Registrar intimação do termo de revisão",
}


@dataclass(frozen=True)
class RevisaoSancaoCaso:
    """A pending review of the decided sanction: why, and the level and range the case has today."""

    id: int
    origem: str
    registrada_em: date
    reincidencia_anterior: int
    reincidencia_atual: int
    faixa_min_ur: Decimal
    faixa_max_ur: Decimal
    suspensao_max_dias: int | None


@dataclass(frozen=True)
class TermoRevisaoCaso:
    """A termo de revisão of the decided penalty (art. 65; REGRAS § 5), notified like a decision."""

    id: int
    numero_formatado: str
    data: date
    intimado_em: date | None
    """The day a successful intimação delivered it (None while it awaits one)."""


@dataclass(frozen=True)
class EventoCaso:
    data: date
    ato: str
    titulo: str
    descricao: str
    ressalva: bool = False
    """Worth a look, not an alarm: a delivery that failed, a petition filed late. The timeline highlights
    it from this flag, never from the title's words."""


@dataclass(frozen=True)
class PrazoCaso:
    nome: str
    vencimento: date
    estado: str
    """"aberto" (running), "vencido" (passed, still relevant), "cumprido" (the petition was filed) or
    "encerrado" (passed unused, but the case moved on: nothing to warn about)."""
    texto: str
    """"vence em dd/mm/aaaa", "vencido em dd/mm/aaaa", "cumprido: defesa protocolada em dd/mm/aaaa"…"""
    prazo: PrazoRevisado = PrazoRevisado.DEFESA
    """Which deadline this is: the defence's (art. 14) or the appeal's (art. 15)."""
    tempestivo: bool = True
    """False when the petition was filed ("cumprido") after the deadline."""


@dataclass(frozen=True)
class TestemunhaCaso:
    __test__ = False  # not a pytest test class, despite the name

    nome: str
    documento: str
    endereco: str


@dataclass(frozen=True)
class IntimacaoCaso:
    id: int
    objeto: str
    data: date
    meio: str
    resultado: str
    sucesso: bool
    recebedor_nome: str
    recebedor_documento: str
    recibo: str
    observacao: str
    prazo: date | None
    registrado_por: str
    retificacao_numero: str | None = None
    """The termo de retificação this delivery carried ("0001/2026"), when it carried one."""
    revisao_numero: str | None = None
    """The termo de revisão this delivery (objeto "revisao") carried ("0001/2026")."""


@dataclass(frozen=True)
class ItemRetificacaoCaso:
    rotulo: str
    de: str
    para: str


@dataclass(frozen=True)
class RetificacaoCaso:
    """A termo de retificação of the auto (REGRAS § 5)."""

    id: int
    numero_formatado: str
    data: date
    substancial: bool
    itens: tuple[ItemRetificacaoCaso, ...]
    motivo: str
    lavrado_por: str
    lavrado_por_nome: str
    proxima_penalidade: str | None
    proxima_penalidade_anterior: str | None
    prazo_defesa_anterior: date | None
    intimado_em: date | None
    """The day a successful intimação delivered it (None while it awaits one)."""


@dataclass(frozen=True)
class DefesaCaso:
    id: int
    protocolada_em: date
    tempestiva: bool
    requerente: str
    texto: str
    recibo: str
    versao: int


@dataclass(frozen=True)
class PropostaCaso:
    id: int
    data: date
    acao: str
    multa_ur: Decimal
    suspensao_dias: int
    fundamentacao: str
    autoridade: str


@dataclass(frozen=True)
class RecursoCaso:
    id: int
    protocolado_em: date
    tempestivo: bool
    razoes: str
    resultado: str
    julgado_em: date | None
    multa_ur_nova: Decimal | None
    suspensao_dias_nova: int | None
    fundamentacao_julgamento: str | None
    versao: int
    antes_da_intimacao: bool
    """Filed before the decision was intimated: accepted and timely (REGRAS § 4: the deadline had not started)."""


@dataclass(frozen=True)
class PagamentoCaso:
    id: int
    situacao: str
    valor: Decimal
    pago_em: date | None
    valor_pago: Decimal | None
    guia: str
    inscrito_divida_em: date | None
    versao: int


@dataclass(frozen=True)
class CumprimentoCaso:
    id: int
    situacao: str
    verificado_em: date | None
    verificado_por: str | None
    observacao: str
    versao: int


@dataclass(frozen=True)
class SuspensaoCaso:
    id: int
    inicio: date
    fim: date
    dias: int
    anulada: bool


@dataclass(frozen=True)
class AnexoCaso:
    id: int
    nome_arquivo: str
    tipo_mime: str
    tamanho: int
    sha256: str
    anexado_em: datetime
    anexado_por: str


@dataclass(frozen=True)
class Caso:
    id: int
    ano: int
    numero: int
    numero_formatado: str
    fase: str
    fase_rotulo: str
    versao: int
    operadora_id: int
    operadora_nome: str
    operadora_cnpj: str
    operadora_endereco: str
    operadora_representante: str
    dispositivo_codigo: str
    dispositivo_rotulo: str
    dispositivo_texto: str
    dispositivo_nota: str | None
    tipo: str
    data_infracao: date
    hora_infracao: time | None
    local: str
    data_lavratura: date
    hora_lavratura: time
    local_lavratura: str
    descricao_fatos: str
    circunstancias: str
    infrator_nome: str
    veiculo_id: int | None
    veiculo_descricao: str | None
    linha_id: int | None
    linha_descricao: str | None
    empregado_id: int | None
    empregado_nome: str | None
    fiscal_id: int
    fiscal_nome: str
    fiscal_matricula: str
    testemunhas: tuple[TestemunhaCaso, ...]
    recusou_assinar: bool
    proxima_penalidade: str
    representacao_id: int | None
    representacao_numero: str | None
    lavrado_por: str
    cancelado_em: datetime | None
    cancelado_por: str | None
    motivo_cancelamento: str | None
    prazo_defesa: date | None
    prazo_recurso: date | None
    multa_ur: Decimal
    """The penalty as it stands (after the appeal)."""
    suspensao_dias: int
    penalidade_anulada: bool
    intimacoes: tuple[IntimacaoCaso, ...]
    defesas: tuple[DefesaCaso, ...]
    propostas: tuple[PropostaCaso, ...]
    decisao: DecisaoCaso | None
    recurso: RecursoCaso | None
    pagamento: PagamentoCaso | None
    cumprimento: CumprimentoCaso | None
    suspensao: SuspensaoCaso | None
    anexos: tuple[AnexoCaso, ...]
    documentos: tuple[DocumentoInfo, ...]
    """Issued documents, oldest first."""
    retificacoes: tuple[RetificacaoCaso, ...]
    linha_do_tempo: tuple[EventoCaso, ...]
    prazos: tuple[PrazoCaso, ...]
    final_em: date | None
    """The day the decision became final, when it is."""
    proximos_atos: tuple[str, ...]
    """Keys of PAPEIS_DOS_ATOS that the case's phase allows now (whatever the user's roles)."""
    revisoes_a_conferir: tuple[RevisaoResumo, ...]
    """Deadlines moved after the decision that changed a petition's class, not yet reviewed (REGRAS § 4)."""
    importado_de: str | None = None
    """The spreadsheet an auto of the office's past was imported from (None: drawn up in the program)."""
    importado_em: date | None = None
    inicio_suspensao_proposto: date | None = None
    """For a final suspension not yet started: today, or the first day free of the operator's other started
    suspensions when later (REGRAS § 5: suspensions of one operator never run on the same days)."""
    prazo_pagamento: date | None = None
    """For a final fine: the last day to pay it (`execucao.prazo_pagamento`); dívida ativa only after it."""
    revisoes_sancao: tuple[RevisaoSancaoCaso, ...] = ()
    """Reviews of the decided sanction (Lei 9.784/1999, art. 65) still waiting for the Secretary."""
    termos_revisao: tuple[TermoRevisaoCaso, ...] = ()
    """The termos de revisão of the penalty, oldest first, with the day each was delivered."""

    def atos_permitidos(self, ator: Ator) -> tuple[str, ...]:
        """The next acts this user may do (the phase allows it and the user holds a role for it)."""
        return tuple(a for a in self.proximos_atos if ator.tem(*PAPEIS_DOS_ATOS[a]))


def obter_caso(sessao: so.Session, auto_id: int, hoje: date | None = None) -> Caso:
    """Everything the case screen shows, as of `hoje` (default: today)."""
    dia = hoje or relogio.hoje()
    auto = auto_com_relacoes(sessao, auto_id)
    dispositivo = sessao.get(DispositivoCatalogo, auto.dispositivo_codigo)
    representacao = sessao.get(Representacao, auto.representacao_id) if auto.representacao_id else None
    termos = sessao.scalars(
        sa.select(Retificacao).where(Retificacao.auto_id == auto.id).order_by(Retificacao.id)
    ).all()
    revisoes_sancao = _revisoes_sancao(sessao, auto.id)
    revistas = sorted(
        (r for r in revisoes_sancao if r.situacao == "revisada" and r.decidida_em is not None),
        key=lambda r: (r.decidida_em, r.id),
    )
    intimacoes = _intimacoes(sessao, auto.id, {t.id: t.numero_formatado for t in termos}, revistas)
    retificacoes = tuple(_retificacao(t, intimacoes) for t in termos)
    defesas = _defesas(sessao, auto.id)
    propostas = _propostas(sessao, auto.id)
    decisao, recurso, pagamento, suspensao = _decisao_e_execucao(sessao, auto.id, intimacoes)
    cumprimento = _cumprimento(sessao, auto.id)
    definitiva = decisao_final(
        resultado=decisao.resultado if decisao else None,
        data_decisao=decisao.data if decisao else None,
        prazo_recurso=auto.prazo_recurso,
        recurso_tempestivo=recurso.tempestivo if recurso else None,
        recurso_julgado_em=recurso.julgado_em if recurso else None,
        dia=dia,
    )
    revisoes = revisoes_do_auto(sessao, auto.id)
    termos_revisao = tuple(
        _termo_revisao(r, r.decidida_em, intimacoes) for r in revistas if r.decidida_em is not None
    )
    pendentes_sancao = tuple(r for r in revisoes_sancao if r.situacao == "pendente")
    a_conferir = tuple(r for r in revisoes if r.reclassificacao and r.decidido and r.conferida_em is None)
    defesas_do_prazo = _defesas_do_prazo(defesas, intimacoes)
    if decisao is not None:
        # The reading the Prazos box shows, not the flag stored with the decision: a non-business day
        # registered later may have made the defence timely (REGRAS § 4), and the header must not disagree.
        decisao = replace(
            decisao,
            defesa_intempestiva=bool(defesas_do_prazo) and not any(d.tempestiva for d in defesas_do_prazo),
        )
    eventos = (
        *_linha_do_tempo(
            auto,
            representacao,
            retificacoes,
            intimacoes,
            defesas,
            propostas,
            decisao,
            recurso,
            pagamento,
            cumprimento,
            suspensao,
        ),
        *(
            EventoCaso(data=r.data, ato="revisao_prazo", titulo=r.titulo, descricao=r.descricao)
            for r in revisoes
        ),
        *(_evento_revisao_sancao(r) for r in revisoes_sancao),
    )
    proximos = _proximos_atos(
        auto,
        decisao,
        recurso,
        pagamento,
        cumprimento,
        suspensao,
        definitiva,
        retificacoes,
        any(i.objeto == "julgamento" and i.sucesso for i in intimacoes),
        termos_revisao,
    )
    operadora = auto.operadora
    return Caso(
        id=auto.id,
        ano=auto.ano,
        numero=auto.numero,
        numero_formatado=auto.numero_formatado,
        fase=auto.fase,
        fase_rotulo=_rotulo_da_fase(auto.fase, retificacoes),
        versao=auto.versao,
        operadora_id=operadora.id,
        operadora_nome=operadora.razao_social,
        operadora_cnpj=operadora.cnpj,
        operadora_endereco=operadora.endereco_completo,
        operadora_representante=operadora.representante_nome,
        dispositivo_codigo=auto.dispositivo_codigo,
        dispositivo_rotulo=dispositivo.rotulo if dispositivo else auto.dispositivo_codigo,
        dispositivo_texto=dispositivo.texto if dispositivo else "",
        dispositivo_nota=dispositivo.nota if dispositivo else None,
        tipo=auto.tipo,
        data_infracao=auto.data_infracao,
        hora_infracao=auto.hora_infracao,
        local=auto.local,
        data_lavratura=auto.data_lavratura,
        hora_lavratura=auto.hora_lavratura,
        local_lavratura=auto.local_lavratura,
        descricao_fatos=auto.descricao_fatos,
        circunstancias=auto.circunstancias,
        infrator_nome=auto.infrator_nome,
        veiculo_id=auto.veiculo_id,
        veiculo_descricao=f"{auto.veiculo.prefixo} — placa {formatar_placa(auto.veiculo.placa)}"
        if auto.veiculo
        else None,
        linha_id=auto.linha_id,
        linha_descricao=f"{auto.linha.codigo} — {auto.linha.nome}" if auto.linha else None,
        empregado_id=auto.empregado_id,
        empregado_nome=auto.empregado.nome if auto.empregado else None,
        fiscal_id=auto.fiscal_id,
        fiscal_nome=auto.fiscal.nome,
        fiscal_matricula=auto.fiscal.matricula,
        testemunhas=tuple(
            TestemunhaCaso(nome=t.nome, documento=t.documento, endereco=t.endereco) for t in auto.testemunhas
        ),
        recusou_assinar=auto.recusou_assinar,
        proxima_penalidade=auto.proxima_penalidade,
        representacao_id=auto.representacao_id,
        representacao_numero=representacao.numero_formatado if representacao else None,
        lavrado_por=auto.lavrado_por,
        importado_de=auto.importado_de,
        importado_em=auto.criado_em.date() if auto.importado_de else None,
        cancelado_em=auto.cancelado_em,
        cancelado_por=auto.cancelado_por,
        motivo_cancelamento=auto.motivo_cancelamento,
        prazo_defesa=auto.prazo_defesa,
        prazo_recurso=auto.prazo_recurso,
        multa_ur=auto.multa_ur,
        suspensao_dias=auto.suspensao_dias,
        penalidade_anulada=auto.penalidade_anulada,
        intimacoes=intimacoes,
        defesas=defesas,
        propostas=propostas,
        decisao=decisao,
        recurso=recurso,
        pagamento=pagamento,
        cumprimento=cumprimento,
        suspensao=suspensao,
        anexos=_anexos(sessao, auto.id),
        documentos=_documentos(sessao, auto.id),
        retificacoes=retificacoes,
        linha_do_tempo=tuple(sorted(eventos, key=lambda e: (e.data, _ordem(e)))),
        prazos=_prazos(auto, defesas_do_prazo, decisao, recurso, dia),
        final_em=definitiva,
        proximos_atos=(("conferir_revisao_prazo",) if a_conferir else ())
        + (("revisar_sancao",) if pendentes_sancao else ())
        + proximos,
        revisoes_a_conferir=a_conferir,
        inicio_suspensao_proposto=(
            primeiro_dia_livre(sessao, operadora.id, definitiva, dia)
            if definitiva is not None and suspensao is None and auto.suspensao_dias > 0
            else None
        ),
        prazo_pagamento=prazo_pagamento(sessao, definitiva)
        if definitiva is not None and pagamento is not None
        else None,
        revisoes_sancao=tuple(_revisao_sancao_pendente(r) for r in pendentes_sancao),
        termos_revisao=termos_revisao,
    )


def _rotulo_da_fase(fase: str, retificacoes: tuple[RetificacaoCaso, ...]) -> str:
    if any(r.substancial and r.intimado_em is None for r in retificacoes) and fase != "cancelado":
        return "Aguardando intimação do termo"
    return ROTULOS_FASE.get(fase, fase)


def _defesas_do_prazo(
    defesas: tuple[DefesaCaso, ...], intimacoes: tuple[IntimacaoCaso, ...]
) -> tuple[DefesaCaso, ...]:
    """The defences of the current defence period: a correction of substance reopened the defence, and what
    was filed before it answered the auto as it read."""
    ultima_com_prazo = max(
        (i for i in intimacoes if i.objeto == "auto" and i.prazo), key=lambda i: i.id, default=None
    )
    reaberto = ultima_com_prazo.data if ultima_com_prazo and ultima_com_prazo.retificacao_numero else None
    return tuple(d for d in defesas if reaberto is None or d.protocolada_em >= reaberto)


def _intimacoes(
    sessao: so.Session, auto_id: int, numeros_termos: dict[int, str], revistas: list[RevisaoSancao]
) -> tuple[IntimacaoCaso, ...]:
    consulta = sa.select(Intimacao).where(Intimacao.auto_id == auto_id).order_by(Intimacao.data, Intimacao.id)
    return tuple(
        IntimacaoCaso(
            id=i.id,
            objeto=i.objeto,
            data=i.data,
            meio=i.meio,
            resultado=i.resultado,
            sucesso=i.sucesso,
            recebedor_nome=i.recebedor_nome,
            recebedor_documento=i.recebedor_documento,
            recibo=i.recibo,
            observacao=i.observacao,
            prazo=i.prazo,
            registrado_por=i.registrado_por,
            retificacao_numero=numeros_termos.get(i.retificacao_id or 0),
            revisao_numero=_termo_revisao_entregue(revistas, i.data) if i.objeto == "revisao" else None,
        )
        for i in sessao.scalars(consulta)
    )


def _retificacao(t: Retificacao, intimacoes: tuple[IntimacaoCaso, ...]) -> RetificacaoCaso:
    return RetificacaoCaso(
        id=t.id,
        numero_formatado=t.numero_formatado,
        data=t.data,
        substancial=t.substancial,
        itens=tuple(
            ItemRetificacaoCaso(rotulo=i["rotulo"], de=i["de"], para=i["para"]) for i in json.loads(t.itens)
        ),
        motivo=t.motivo,
        lavrado_por=t.lavrado_por,
        lavrado_por_nome=t.lavrado_por_nome,
        proxima_penalidade=t.proxima_penalidade,
        proxima_penalidade_anterior=t.proxima_penalidade_anterior,
        prazo_defesa_anterior=t.prazo_defesa_anterior,
        intimado_em=min(
            (i.data for i in intimacoes if i.sucesso and i.retificacao_numero == t.numero_formatado),
            default=None,
        ),
    )


def _defesas(sessao: so.Session, auto_id: int) -> tuple[DefesaCaso, ...]:
    consulta = sa.select(Defesa).where(Defesa.auto_id == auto_id).order_by(Defesa.protocolada_em, Defesa.id)
    return tuple(
        DefesaCaso(
            id=d.id,
            protocolada_em=d.protocolada_em,
            tempestiva=d.tempestiva,
            requerente=d.requerente,
            texto=d.texto,
            recibo=d.recibo,
            versao=d.versao,
        )
        for d in sessao.scalars(consulta)
    )


def _propostas(sessao: so.Session, auto_id: int) -> tuple[PropostaCaso, ...]:
    consulta = sa.select(Proposta).where(Proposta.auto_id == auto_id).order_by(Proposta.data, Proposta.id)
    return tuple(
        PropostaCaso(
            id=p.id,
            data=p.data,
            acao=p.acao,
            multa_ur=p.multa_ur,
            suspensao_dias=p.suspensao_dias,
            fundamentacao=p.fundamentacao,
            autoridade=p.autoridade,
        )
        for p in sessao.scalars(consulta)
    )


def _decisao_e_execucao(
    sessao: so.Session, auto_id: int, intimacoes: tuple[IntimacaoCaso, ...]
) -> tuple[DecisaoCaso | None, RecursoCaso | None, PagamentoCaso | None, SuspensaoCaso | None]:
    """The decision and what hangs on it: the appeal, the fine's payment, the suspension."""
    d = sessao.scalar(sa.select(Decisao).where(Decisao.auto_id == auto_id))
    if d is None:
        return None, None, None, None
    decisao = DecisaoCaso.do_registro(d, defesa_intempestiva=False)  # read from the defences by `obter_caso`
    recurso = pagamento = suspensao = None
    r = sessao.scalar(sa.select(Recurso).where(Recurso.decisao_id == d.id))
    if r is not None:
        intimada_antes = any(
            i.sucesso and i.objeto == "decisao" and i.data <= r.protocolado_em for i in intimacoes
        )
        recurso = RecursoCaso(
            id=r.id,
            protocolado_em=r.protocolado_em,
            tempestivo=r.tempestivo,
            razoes=r.razoes,
            resultado=r.resultado,
            julgado_em=r.julgado_em,
            multa_ur_nova=r.multa_ur_nova,
            suspensao_dias_nova=r.suspensao_dias_nova,
            fundamentacao_julgamento=r.fundamentacao_julgamento,
            versao=r.versao,
            antes_da_intimacao=not intimada_antes,
        )
    p = sessao.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == d.id))
    if p is not None:
        pagamento = PagamentoCaso(
            id=p.id,
            situacao=p.situacao,
            valor=p.valor,
            pago_em=p.pago_em,
            valor_pago=p.valor_pago,
            guia=p.guia,
            inscrito_divida_em=p.inscrito_divida_em,
            versao=p.versao,
        )
    su = sessao.scalar(sa.select(Suspensao).where(Suspensao.decisao_id == d.id))
    if su is not None:
        suspensao = SuspensaoCaso(id=su.id, inicio=su.inicio, fim=su.fim, dias=su.dias, anulada=su.anulada)
    return decisao, recurso, pagamento, suspensao


def _cumprimento(sessao: so.Session, auto_id: int) -> CumprimentoCaso | None:
    c = sessao.scalar(sa.select(Cumprimento).where(Cumprimento.auto_id == auto_id))
    if c is None:
        return None
    return CumprimentoCaso(
        id=c.id,
        situacao=c.situacao,
        verificado_em=c.verificado_em,
        verificado_por=c.verificado_por,
        observacao=c.observacao,
        versao=c.versao,
    )


def _anexos(sessao: so.Session, auto_id: int) -> tuple[AnexoCaso, ...]:
    """The evidence attached, without its content."""
    a = Anexo
    consulta = sa.select(
        a.id, a.nome_arquivo, a.tipo_mime, a.tamanho, a.sha256, a.anexado_em, a.anexado_por
    ).where(a.auto_id == auto_id)
    return tuple(
        AnexoCaso(
            id=linha.id,
            nome_arquivo=linha.nome_arquivo,
            tipo_mime=linha.tipo_mime,
            tamanho=linha.tamanho,
            sha256=linha.sha256,
            anexado_em=linha.anexado_em,
            anexado_por=linha.anexado_por,
        )
        for linha in sessao.execute(consulta.order_by(a.id))
    )


def _documentos(sessao: so.Session, auto_id: int) -> tuple[DocumentoInfo, ...]:
    """The documents issued, without their content, oldest first."""
    return tuple(reversed(documentos_emitidos(sessao, auto_id=auto_id)))


def _termo_revisao(r: RevisaoSancao, data: date, intimacoes: tuple[IntimacaoCaso, ...]) -> TermoRevisaoCaso:
    return TermoRevisaoCaso(
        id=r.id,
        numero_formatado=r.numero_formatado,
        data=data,
        intimado_em=min(
            (i.data for i in intimacoes if i.sucesso and i.revisao_numero == r.numero_formatado),
            default=None,
        ),
    )


def _revisao_sancao_pendente(r: RevisaoSancao) -> RevisaoSancaoCaso:
    return RevisaoSancaoCaso(
        id=r.id,
        origem=r.origem,
        registrada_em=r.registrada_em,
        reincidencia_anterior=r.reincidencia_anterior,
        reincidencia_atual=r.reincidencia_atual,
        faixa_min_ur=r.faixa_min_ur,
        faixa_max_ur=r.faixa_max_ur,
        suspensao_max_dias=r.suspensao_max_dias,
    )


def _texto_intimacao(i: IntimacaoCaso) -> str:
    """ "Na pessoa do representante legal: entregue, recebida por Fulana; prazo até dd/mm/aaaa." """
    meio = MEIOS_INTIMACAO.get(i.meio, i.meio)
    texto = f"{meio[:1].upper()}{meio[1:]}: {RESULTADOS_INTIMACAO.get(i.resultado, i.resultado)}"
    if i.recebedor_nome and i.resultado == "recusada":
        texto += f" por {i.recebedor_nome}"  # "recusada por Fulana", never "recusada, recusada por"
    elif i.recebedor_nome:
        texto += f", recebida por {i.recebedor_nome}"
    if i.prazo is not None:
        texto += f"; prazo até {formatar_data(i.prazo)}"
    return _frase(texto)


def _dias(n: int) -> str:
    return f"{n} {'dia' if n == 1 else 'dias'}"


def _frase(texto: str) -> str:
    """A sentence ended once: a name typed with its own period ("… Ltda.") takes no second one."""
    return texto if texto.rstrip().endswith((".", "!", "?", "…")) else texto + "."


def _evento_retificacao(r: RetificacaoCaso) -> EventoCaso:
    """The termo on the timeline: each item old → new, the reason, and what a correction of substance reopens."""
    natureza = "de substância" if r.substancial else "formal"
    texto = (
        "; ".join(f"{i.rotulo}: “{i.de}” → “{i.para}”" for i in r.itens) + f". Motivo: {r.motivo.rstrip('.')}"
    )
    if r.substancial:
        texto += ". Reabre o prazo de defesa (15 dias da intimação do termo) e a sanção é avaliada de novo"
        if r.prazo_defesa_anterior:
            texto += f"; o prazo que vencia em {formatar_data(r.prazo_defesa_anterior)} fica sem efeito"
    return EventoCaso(
        r.data,
        "retificacao",
        f"Termo de retificação nº {r.numero_formatado} ({natureza})",
        f"{texto}. Lavrado por {r.lavrado_por_nome}.",
    )


def _termo_revisao_entregue(revistas: list[RevisaoSancao], dia: date) -> str | None:
    """The termo de revisão a delivery of `dia` carried: the latest one dated on or before it. A delivery is
    only ever recorded for the auto's latest termo, dated on or after it and never in the future, so a later
    termo is always dated after every delivery of an earlier one — save one revised again on the very day the
    earlier was delivered, which this reading attributes to the later termo."""
    numero = None
    for r in revistas:
        if r.decidida_em is not None and r.decidida_em <= dia:
            numero = r.numero_formatado
    return numero


def _objeto_intimado(i: IntimacaoCaso) -> str:
    if i.retificacao_numero:
        return f"do termo de retificação nº {i.retificacao_numero}"
    if i.objeto == "revisao":
        return f"do termo de revisão nº {i.revisao_numero or '—'}"
    return {"auto": "do auto", "julgamento": "do julgamento do recurso"}.get(i.objeto, "da decisão")


def _proxima_como_lavrada(auto: AutoInfracao, retificacoes: tuple[RetificacaoCaso, ...]) -> str:
    """Art. 10, V as the auto was drawn up: a later termo of substance restated it, not the lavratura."""
    anteriores = [r.proxima_penalidade_anterior for r in retificacoes if r.proxima_penalidade_anterior]
    return anteriores[0] if anteriores else auto.proxima_penalidade


def _lavratura(auto: AutoInfracao, proxima: str) -> str:
    """How the timeline tells the drawing-up: an auto imported from the paper book has no hour of its own
    (the import stores midnight), so none is shown."""
    if auto.importado_de:
        return (
            f"Registrado no livro de autos (hora não registrada); importado de {auto.importado_de}. {proxima}"
        )
    return f"Lavrado às {auto.hora_lavratura:%H:%M} em {auto.local_lavratura}. {proxima}"


def _linha_do_tempo(
    auto: AutoInfracao,
    representacao: Representacao | None,
    retificacoes: tuple[RetificacaoCaso, ...],
    intimacoes: tuple[IntimacaoCaso, ...],
    defesas: tuple[DefesaCaso, ...],
    propostas: tuple[PropostaCaso, ...],
    decisao: DecisaoCaso | None,
    recurso: RecursoCaso | None,
    pagamento: PagamentoCaso | None,
    cumprimento: CumprimentoCaso | None,
    suspensao: SuspensaoCaso | None,
) -> tuple[EventoCaso, ...]:
    ev: list[EventoCaso] = []
    if representacao is not None:
        ev.append(
            EventoCaso(
                representacao.recebida_em,
                "representacao",
                f"Representação nº {representacao.numero_formatado}",
                f"Recebida de {representacao.peticionario_nome} (art. 12).",
            )
        )
    ev.append(EventoCaso(auto.data_infracao, "infracao", "Infração", _frase(auto.local)))
    proxima = _proxima_como_lavrada(auto, retificacoes)
    ev.append(
        EventoCaso(
            auto.data_lavratura,
            "lavratura",
            f"Auto de infração nº {auto.numero_formatado}",
            _lavratura(auto, proxima),
        )
    )
    ev += [_evento_retificacao(r) for r in retificacoes]
    for i in intimacoes:
        objeto = _objeto_intimado(i)
        texto = _texto_intimacao(i)
        if i.objeto == "revisao" and i.sucesso:
            texto = (
                f"Termo de revisão nº {i.revisao_numero or '—'} entregue em {formatar_data(i.data)}. {texto} "
                "A revisão só reduz a penalidade: nenhum prazo começa a correr."
            )
        ev.append(
            EventoCaso(
                i.data,
                "intimacao",
                f"Intimação {objeto}{'' if i.sucesso else ' (sem êxito)'}",
                texto,
                ressalva=not i.sucesso,
            )
        )
    for d in defesas:
        situacao = "tempestiva" if d.tempestiva else "intempestiva"
        ev.append(
            EventoCaso(
                d.protocolada_em,
                "defesa",
                f"Defesa ({situacao})",
                d.requerente or "Defesa protocolada.",
                ressalva=not d.tempestiva,
            )
        )
    for p in propostas:
        texto = (
            f"Multa de {formatar_urm(p.multa_ur)}"
            + (f" e suspensão de {_dias(p.suspensao_dias)}" if p.suspensao_dias else "")
            if p.acao == "aplicar"
            else "Arquivamento"
        )
        ev.append(EventoCaso(p.data, "proposta", "Proposta da autoridade (art. 13)", texto + "."))
    if decisao is not None:
        if decisao.resultado == "aplicada":
            texto = f"Multa de {formatar_urm(decisao.multa_ur)} = {formatar_reais(decisao.multa_reais)}"
            if decisao.suspensao_dias:
                texto += f" e suspensão de {_dias(decisao.suspensao_dias)}"
            ev.append(EventoCaso(decisao.data, "decisao", "Decisão: penalidade aplicada", texto + "."))
        else:
            ev.append(EventoCaso(decisao.data, "decisao", "Decisão: auto arquivado", decisao.fundamentacao))
    if recurso is not None:
        ev.append(
            EventoCaso(
                recurso.protocolado_em,
                "recurso",
                f"Recurso ao Prefeito ({'tempestivo' if recurso.tempestivo else 'intempestivo'}"
                + (", interposto antes da intimação da decisão)" if recurso.antes_da_intimacao else ")"),
                recurso.razoes or "Recurso protocolado.",
                ressalva=not recurso.tempestivo,
            )
        )
        if recurso.julgado_em is not None:
            texto = {
                "negado": "Recurso negado: penalidade mantida.",
                "provido": "Recurso provido: penalidade anulada.",
                "provido_parcialmente": f"Recurso provido em parte: multa reduzida a {formatar_urm(recurso.multa_ur_nova or Decimal(0))}"
                + (
                    f" e suspensão a {_dias(recurso.suspensao_dias_nova)}"
                    if recurso.suspensao_dias_nova
                    else ""
                )
                + ".",
            }.get(recurso.resultado, recurso.resultado)
            ev.append(EventoCaso(recurso.julgado_em, "julgamento_recurso", "Julgamento do recurso", texto))
    if suspensao is not None:
        texto = (
            f"De {formatar_data(suspensao.inicio)} a {formatar_data(suspensao.fim)} ({_dias(suspensao.dias)})"
        )
        ev.append(
            EventoCaso(
                suspensao.inicio,
                "suspensao",
                "Suspensão",
                texto + (" — anulada." if suspensao.anulada else "."),
            )
        )
    if pagamento is not None and pagamento.pago_em is not None:
        ev.append(
            EventoCaso(
                pagamento.pago_em,
                "pagamento",
                "Multa paga",
                formatar_reais(pagamento.valor_pago or pagamento.valor) + ".",
            )
        )
    if pagamento is not None and pagamento.inscrito_divida_em is not None:
        ev.append(
            EventoCaso(pagamento.inscrito_divida_em, "divida_ativa", "Multa inscrita em dívida ativa", "")
        )
    if cumprimento is not None and cumprimento.verificado_em is not None:
        titulo = "Exigência cumprida" if cumprimento.situacao == "cumprida" else "Exigência não cumprida"
        ev.append(
            EventoCaso(
                cumprimento.verificado_em, "cumprimento", f"{titulo} (art. 8º)", cumprimento.observacao
            )
        )
    if auto.cancelado_em is not None:
        ev.append(
            EventoCaso(
                auto.cancelado_em.date(), "cancelamento", "Auto cancelado", auto.motivo_cancelamento or ""
            )
        )
    return tuple(sorted(ev, key=lambda e: (e.data, _ordem(e))))


_ORDEM_ATOS = {
    "representacao": 0, "infracao": 1, "lavratura": 2, "retificacao": 2.5, "intimacao": 3, "defesa": 4, "proposta": 5, "decisao": 6,
    "recurso": 8, "julgamento_recurso": 9, "suspensao": 10, "pagamento": 11, "divida_ativa": 12, "cumprimento": 13,
    "cancelamento": 14,
}  # fmt: skip


def _ordem(e: EventoCaso) -> float:
    """Acts of the same day in the order the procedure has them (the decision's intimação after the decision)."""
    if e.ato == "intimacao" and e.titulo.startswith("Intimação da decisão"):
        return 7
    if e.ato == "intimacao" and e.titulo.startswith("Intimação do julgamento"):
        return 9.5  # after the judgment it notifies
    if e.ato == "intimacao" and e.titulo.startswith("Intimação do termo de revisão"):
        return 100  # after the termo de revisão itself (99), which it delivers
    return _ORDEM_ATOS.get(e.ato, 99)


def _estado(vencimento: date, dia: date) -> tuple[str, str]:
    if dia <= vencimento:
        return "aberto", ("vence hoje" if dia == vencimento else f"vence em {formatar_data(vencimento)}")
    return "vencido", f"vencido em {formatar_data(vencimento)}"


def _prazos(
    auto: AutoInfracao,
    defesas: tuple[DefesaCaso, ...],
    decisao: DecisaoCaso | None,
    recurso: RecursoCaso | None,
    dia: date,
) -> tuple[PrazoCaso, ...]:
    prazos: list[PrazoCaso] = []
    if auto.prazo_defesa is not None:
        if defesas:
            primeira = defesas[0]
            estado, texto = (
                "cumprido",
                (
                    f"cumprido: defesa protocolada em {formatar_data(primeira.protocolada_em)}"
                    + ("" if primeira.tempestiva else " (intempestiva)")
                ),
            )
        elif decisao is not None or auto.fase == "cancelado":
            estado, texto = "encerrado", f"venceu em {formatar_data(auto.prazo_defesa)}, sem defesa"
        else:
            estado, texto = _estado(auto.prazo_defesa, dia)
        tempestiva = not defesas or defesas[0].tempestiva
        prazos.append(PrazoCaso("Defesa (art. 14)", auto.prazo_defesa, estado, texto, tempestivo=tempestiva))
    if auto.prazo_recurso is not None:
        if recurso is not None:
            estado, texto = (
                "cumprido",
                (
                    f"cumprido: recurso protocolado em {formatar_data(recurso.protocolado_em)}"
                    + ("" if recurso.tempestivo else " (intempestivo)")
                ),
            )
        else:
            estado, texto = _estado(auto.prazo_recurso, dia)
            if estado == "vencido":
                texto += " — decisão definitiva"
        prazos.append(
            PrazoCaso(
                "Recurso ao Prefeito (art. 15)",
                auto.prazo_recurso,
                estado,
                texto,
                prazo=PrazoRevisado.RECURSO,
                tempestivo=recurso is None or recurso.tempestivo,
            )
        )
    return tuple(prazos)


def _revisoes_sancao(sessao: so.Session, auto_id: int) -> list[RevisaoSancao]:
    return list(
        sessao.scalars(
            sa.select(RevisaoSancao).where(RevisaoSancao.auto_id == auto_id).order_by(RevisaoSancao.id)
        )
    )


def _evento_revisao_sancao(r: RevisaoSancao) -> EventoCaso:
    """The timeline's line of a review of the sanction (art. 65): listed, revised by a termo, or kept."""
    if r.situacao == "revisada" and r.decidida_em is not None and r.multa_ur_nova is not None:
        restituir = (
            f"; {formatar_reais(r.valor_restituir)} a restituir" if r.valor_restituir is not None else ""
        )
        return EventoCaso(
            r.decidida_em,
            "revisao_sancao",
            f"Termo de revisão nº {r.numero_formatado}",
            f"Penalidade revista de {formatar_urm(r.multa_ur_anterior or Decimal(0))} para "
            f"{formatar_urm(r.multa_ur_nova)}{restituir}. {r.fundamentacao or ''}".strip(),
        )
    if r.situacao == "mantida" and r.decidida_em is not None:
        return EventoCaso(
            r.decidida_em, "revisao_sancao", "Penalidade mantida na revisão", r.fundamentacao or ""
        )
    return EventoCaso(
        r.registrada_em, "revisao_sancao", "Sanção a revisar (art. 65)", r.origem, ressalva=True
    )


def _proximos_atos(
    auto: AutoInfracao,
    decisao: DecisaoCaso | None,
    recurso: RecursoCaso | None,
    pagamento: PagamentoCaso | None,
    cumprimento: CumprimentoCaso | None,
    suspensao: SuspensaoCaso | None,
    definitiva: date | None,
    retificacoes: tuple[RetificacaoCaso, ...] = (),
    julgamento_intimado: bool = False,
    termos_revisao: tuple[TermoRevisaoCaso, ...] = (),
) -> tuple[str, ...]:
    if auto.fase == "cancelado":
        return ()
    atos: list[str] = []
    if any(r.intimado_em is None for r in retificacoes):
        atos.append("registrar_intimacao_retificacao")
    substancia_pendente = any(r.substancial and r.intimado_em is None for r in retificacoes)
    if decisao is None:
        if auto.fase == "lavrado":
            if not substancia_pendente:
                atos.append("registrar_intimacao_auto")
        else:
            atos += ["registrar_defesa", "registrar_proposta"]
        atos += ["decidir", "retificar_auto", "cancelar_auto"]
    else:
        if auto.prazo_recurso is None and decisao.resultado == "aplicada":
            atos.append("registrar_intimacao_decisao")
        if decisao.resultado == "aplicada" and recurso is None:
            atos.append("registrar_recurso")
        if recurso is not None and recurso.resultado == "pendente":
            atos.append("julgar_recurso")
        if recurso is not None and recurso.julgado_em is not None and not julgamento_intimado:
            atos.append("registrar_intimacao_julgamento")
        if termos_revisao and termos_revisao[-1].intimado_em is None:  # only the latest one is delivered
            atos.append("registrar_intimacao_revisao")
        if not auto.penalidade_anulada and decisao.resultado == "aplicada":
            if auto.suspensao_dias > 0 and suspensao is None and definitiva is not None:
                atos.append("iniciar_suspensao")
            if pagamento is not None and pagamento.situacao in ("aberto", "divida_ativa"):
                atos.append("registrar_pagamento")
            if cumprimento is not None and cumprimento.situacao != "cumprida":
                atos.append("registrar_cumprimento")
    atos.append("anexar_evidencia")
    return tuple(atos)
