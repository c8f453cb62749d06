"""Carrying out the decision: suspension, payment of the fine, the art. 8º follow-up, and cassação (art. 16).

The operator's status (ativa / suspensa até … / cassada) is derived here from the Suspensao rows and the
cassação outcome, never typed by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from secretaria import relogio
from secretaria.codigos import REGISTROS_CUMPRIMENTO, REGISTROS_PAGAMENTO, ResultadoCassacao
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.formato import formatar_data
from secretaria.lei.prazos import PRAZO_DEFESA_DIAS
from secretaria.models import (
    Auditoria,
    AutoInfracao,
    Cassacao,
    CassacaoAto,
    Cumprimento,
    Decisao,
    Operadora,
    Pagamento,
    Suspensao,
)
from secretaria.services import auditoria
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    mensagem_nao_encontrado,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)
from secretaria.services.configuracoes import obter_configuracoes
from secretaria.services.lei_db import calendario
from secretaria.services.processo_base import (
    auto_para_ato,
    com_decisao,
    data_valida,
    escolha,
    imagem,
    obter,
    reais_validos,
)
from secretaria.services.tramitacao import final_em

TIPOS_ATO_CASSACAO = {
    "notificacao": "notificação da permissionária para defesa",
    "defesa": "defesa da permissionária",
    "prova": "produção de provas",
    "parecer": "parecer",
    "outro": "outro ato",
}
RESULTADOS_CASSACAO = {"cassada": "cassar a permissão", "arquivada": "arquivar o procedimento"}


def _data(dia: date | None) -> str:
    return formatar_data(dia) if dia is not None else "data não registrada"


# --- operator status ---------------------------------------------------------------------------------------


class _DiaSeguinte(FunctionElement[date]):
    """The day after a date column, in SQL: SQLite keeps dates as ISO text, PostgreSQL adds an integer."""

    type = sa.Date()
    name = "dia_seguinte"
    inherit_cache = True


@compiles(_DiaSeguinte)
def _dia_seguinte_pg(elemento: _DiaSeguinte, compilador: Any, **opcoes: Any) -> str:
    return f"({compilador.process(elemento.clauses, **opcoes)} + 1)"


@compiles(_DiaSeguinte, "sqlite")
def _dia_seguinte_sqlite(elemento: _DiaSeguinte, compilador: Any, **opcoes: Any) -> str:
    return f"date({compilador.process(elemento.clauses, **opcoes)}, '+1 day')"


def fim_da_suspensao_sql(operadora_id: Any, dia: date) -> sa.ScalarSelect[date]:
    """The last day of the run of suspensions an operator serves from `dia` on, as a correlated subquery
    over `operadora_id` (NULL when none ends on or after `dia`).

    Suspensions of one operator follow one another (REGRAS § 5: each starts only after the others ended),
    so "suspensa até" must name the end of the whole run, not of the suspension served today: the run ends
    at the first suspension (ending on or after `dia`) that no other continues on the next day or overlaps.
    """
    s, seguinte = so.aliased(Suspensao), so.aliased(Suspensao)
    continua = sa.exists().where(
        seguinte.operadora_id == s.operadora_id,
        seguinte.anulada.is_(False),
        seguinte.fim > s.fim,
        seguinte.inicio <= _DiaSeguinte(s.fim),
    )
    return (
        sa.select(sa.func.min(s.fim))
        .where(s.operadora_id == operadora_id, s.anulada.is_(False), s.fim >= dia, ~continua)
        .scalar_subquery()
    )


def _suspensa_em(dia: date) -> sa.ColumnElement[bool]:
    return sa.exists().where(
        Suspensao.operadora_id == Operadora.id,
        Suspensao.anulada.is_(False),
        Suspensao.inicio <= dia,
        Suspensao.fim >= dia,
    )


def situacao_operadora(sessao: so.Session, operadora_id: int, dia: date) -> str:
    """ "ativa", "suspensa até dd/mm/aaaa" or "cassada" on `dia`, from the suspensions and the cassação.
    "Até" is the end of the run of suspensions served back to back (`fim_da_suspensao_sql`)."""
    linha = sessao.execute(
        sa.select(Operadora.cassada_em, _suspensa_em(dia), fim_da_suspensao_sql(Operadora.id, dia)).where(
            Operadora.id == operadora_id
        )
    ).first()
    if linha is None:
        return "ativa"
    cassada_em, suspensa, fim = linha
    if cassada_em is not None and cassada_em <= dia:
        return "cassada"
    return f"suspensa até {formatar_data(fim)}" if suspensa and fim is not None else "ativa"


def situacoes_operadoras(sessao: so.Session, dia: date) -> dict[int, str]:
    """The status of every operator that is not "ativa" on `dia` (for lists: one query, not one per row)."""
    linhas = sessao.execute(
        sa.select(Operadora.id, Operadora.cassada_em, fim_da_suspensao_sql(Operadora.id, dia)).where(
            sa.or_(Operadora.cassada_em <= dia, _suspensa_em(dia))
        )
    )
    situacoes: dict[int, str] = {}
    for operadora_id, cassada_em, fim in linhas:
        if cassada_em is not None and cassada_em <= dia:
            situacoes[operadora_id] = "cassada"
        elif fim is not None:
            situacoes[operadora_id] = f"suspensa até {formatar_data(fim)}"
    return situacoes


# --- suspension --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResumoSuspensao:
    id: int
    inicio: date
    fim: date
    dias: int


@dataclass(frozen=True)
class PedidoSuspensao:
    """What `iniciar_suspensao` and `conferir_suspensao` are asked: the day a final suspension starts."""

    auto_id: int
    inicio: date
    versao: int | None = None


def _conferir_suspensao(
    s: so.Session, ator: Ator, pedido: PedidoSuspensao, *, travar: bool = True
) -> tuple[AutoInfracao, Decisao, date, Operadora]:
    """Every check of `iniciar_suspensao`, in its order, writing nothing."""
    exigir_papel(ator, "secretario", "autoridade", acao="iniciar a suspensão")
    auto = auto_para_ato(s, pedido.auto_id, "iniciar a suspensão", travar=travar)
    verificar_versao(auto, pedido.versao, f"O auto nº {auto.numero_formatado}")
    decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    if (
        decisao is None
        or decisao.resultado != "aplicada"
        or auto.suspensao_dias <= 0
        or auto.penalidade_anulada
    ):
        raise ErroDominio(f"O auto nº {auto.numero_formatado} não tem suspensão a cumprir.", "auto_id")
    existente = s.scalar(sa.select(Suspensao).where(Suspensao.decisao_id == decisao.id))
    if existente is not None:
        raise ErroDominio(
            f"A suspensão do auto nº {auto.numero_formatado} já foi iniciada em "
            f"{formatar_data(existente.inicio)}.",
            "auto_id",
        )
    definitiva = final_em(s, auto.id)
    if definitiva is None:
        motivo = (
            f"o prazo de recurso vai até {formatar_data(auto.prazo_recurso)}"
            if auto.prazo_recurso is not None and auto.fase == "decidido"
            else "há recurso pendente"
            if auto.fase == "em_recurso"
            else "a decisão ainda não foi intimada"
        )
        raise ErroDominio(
            f"A decisão do auto nº {auto.numero_formatado} ainda não é definitiva ({motivo}): a suspensão só "
            "se cumpre depois dela.",
            "inicio",
        )
    dia = data_valida(
        pedido.inicio,
        "inicio",
        "o início da suspensão",
        minimo=definitiva,
        rotulo_minimo="a decisão definitiva",
        futuro=True,
    )
    # The operator's row is locked first: two suspensions started at once on two PCs would each see the
    # other's days free.
    consulta = sa.select(Operadora).where(Operadora.id == auto.operadora_id)
    operadora = s.scalar(consulta.with_for_update() if travar else consulta)
    if operadora is None:
        raise NaoEncontrado(mensagem_nao_encontrado("Operadora", auto.operadora_id), "auto_id")
    if operadora.cassada_em is not None and operadora.cassada_em <= dia:
        raise ErroDominio(
            f"A operadora {operadora.razao_social} teve a permissão cassada em "
            f"{formatar_data(operadora.cassada_em)}.",
            "inicio",
        )
    ocupada = suspensao_em_curso(s, operadora.id)
    if ocupada is not None and dia <= ocupada.fim:
        raise ErroDominio(
            f"A operadora {operadora.razao_social} cumpre a suspensão do auto nº {ocupada.auto} de "
            f"{formatar_data(ocupada.inicio)} até {formatar_data(ocupada.fim)}, e as suspensões se cumprem uma "
            f"após a outra (art. 7º, § 8º): esta só pode começar a partir de "
            f"{formatar_data(ocupada.fim + timedelta(days=1))}.",
            "inicio",
        )
    assert decisao is not None
    return auto, decisao, dia, operadora


@dataclass(frozen=True)
class SuspensaoEmCurso:
    """The started suspension of an operator that ends last: a new one starts the day after `fim`."""

    auto: str
    """ "0023/2026": the auto whose suspension it is."""
    inicio: date
    fim: date


def suspensao_em_curso(s: so.Session, operadora_id: int) -> SuspensaoEmCurso | None:
    """The operator's started, not annulled suspension that ends last (None when it never had one)."""
    linha = s.execute(
        sa.select(Suspensao.inicio, Suspensao.fim, AutoInfracao.numero, AutoInfracao.ano)
        .join(Decisao, Decisao.id == Suspensao.decisao_id)
        .join(AutoInfracao, AutoInfracao.id == Decisao.auto_id)
        .where(Suspensao.operadora_id == operadora_id, Suspensao.anulada.is_(False))
        .order_by(Suspensao.fim.desc(), Suspensao.id.desc())
        .limit(1)
    ).first()
    if linha is None:
        return None
    return SuspensaoEmCurso(f"{linha.numero:04d}/{linha.ano}", linha.inicio, linha.fim)


def primeiro_dia_livre(s: so.Session, operadora_id: int, definitiva: date, hoje: date) -> date:
    """The start the screen proposes for a final suspension: today, but never before the penalty became
    final nor before the day after the operator's other started suspensions end (REGRAS § 5)."""
    dia = max(hoje, definitiva)
    ocupada = suspensao_em_curso(s, operadora_id)
    if ocupada is not None:
        dia = max(dia, ocupada.fim + timedelta(days=1))
    return dia


def conferir_suspensao(sessao: so.Session, ator: Ator, pedido: PedidoSuspensao) -> None:
    """The refusals `iniciar_suspensao` would raise (a decision not yet final, a start before it, an
    operator already cassada, …), from a read session and writing nothing: what the screen runs before
    asking to confirm."""
    _conferir_suspensao(sessao, ator, pedido, travar=False)


@retentavel
def iniciar_suspensao(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoSuspensao) -> ResumoSuspensao:
    """Start serving a final suspension: the operator is "suspensa" from `inicio` to `inicio + dias − 1`.
    The checks are `conferir_suspensao`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        auto, decisao, dia, _operadora = _conferir_suspensao(s, ator, pedido)
        suspensao = Suspensao(
            operadora_id=auto.operadora_id,
            decisao_id=decisao.id,
            inicio=dia,
            dias=auto.suspensao_dias,
            fim=dia + timedelta(days=auto.suspensao_dias - 1),
            anulada=False,
            alterado_por=ator.login,
        )
        s.add(suspensao)
        s.flush()
        auditoria.registrar(s, ator, "iniciar_suspensao", "suspensao", suspensao.id, None, imagem(suspensao))
        uow.commit()
        return ResumoSuspensao(suspensao.id, suspensao.inicio, suspensao.fim, suspensao.dias)


# --- payment and follow-up ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _PagamentoConferido:
    pagamento: Pagamento
    situacao: str
    dia: date
    valor_pago: Decimal | None
    guia: str


@dataclass(frozen=True)
class PedidoPagamento:
    """What `registrar_pagamento` and `conferir_pagamento` are asked: the fine paid (amount; default the
    full amount) or sent to dívida ativa, on a day. `versao` is the payment record's version."""

    auto_id: int
    situacao: str
    data: date
    valor_pago: Decimal | None = None
    guia: str = ""
    versao: int | None = None


def _conferir_pagamento(
    s: so.Session, ator: Ator, pedido: PedidoPagamento, *, travar: bool = True
) -> _PagamentoConferido:
    """Every check of `registrar_pagamento`, in its order, writing nothing."""
    p = pedido
    exigir_papel(ator, "protocolo", acao="registrar pagamentos")
    situacao = escolha(p.situacao, REGISTROS_PAGAMENTO, "situacao", "a situação da multa")
    guia_limpa = texto_opcional(p.guia, "guia", "a guia", 60)
    auto = auto_para_ato(s, p.auto_id, "registrar pagamentos", travar=travar)
    linha = com_decisao(s, Pagamento, auto.id)
    if linha is None:
        raise ErroDominio(f"O auto nº {auto.numero_formatado} não tem multa aplicada.", "auto_id")
    pagamento, decisao = linha
    verificar_versao(pagamento, p.versao, f"O pagamento do auto nº {auto.numero_formatado}")
    if pagamento.situacao == "cancelado":
        raise ErroDominio(
            f"A multa do auto nº {auto.numero_formatado} foi anulada pelo recurso: não há o que pagar.",
            "situacao",
        )
    if pagamento.situacao == "pago":
        raise ErroDominio(
            f"A multa do auto nº {auto.numero_formatado} já foi paga em {_data(pagamento.pago_em)}.",
            "situacao",
        )
    if situacao == "pago":
        dia = data_valida(
            p.data, "data", "a data do pagamento", minimo=decisao.data, rotulo_minimo="a decisão"
        )
        valor = reais_validos(
            pagamento.valor if p.valor_pago is None else p.valor_pago, "valor_pago", "o valor pago"
        )
        return _PagamentoConferido(pagamento, situacao, dia, valor, guia_limpa)
    if pagamento.situacao == "divida_ativa":
        raise ErroDominio(
            f"A multa do auto nº {auto.numero_formatado} já foi inscrita em dívida ativa em "
            f"{_data(pagamento.inscrito_divida_em)}.",
            "situacao",
        )
    definitiva = final_em(s, auto.id)
    if definitiva is None:
        raise ErroDominio(
            f"A decisão do auto nº {auto.numero_formatado} ainda não é definitiva: a multa só vai para a "
            "dívida ativa depois dela.",
            "situacao",
        )
    dia = data_valida(
        p.data, "data", "a data da inscrição", minimo=definitiva, rotulo_minimo="a decisão definitiva"
    )
    prazo = prazo_pagamento(s, definitiva)
    if dia <= prazo:
        raise ErroDominio(
            f"A multa do auto nº {auto.numero_formatado} pode ser paga até {formatar_data(prazo)} (prazo de "
            f"pagamento contado de {formatar_data(definitiva)}, quando a penalidade se tornou definitiva): "
            f"só pode ser inscrita em dívida ativa depois dele, a partir de "
            f"{formatar_data(prazo + timedelta(days=1))}.",
            "data",
        )
    return _PagamentoConferido(pagamento, situacao, dia, None, guia_limpa)


def prazo_pagamento(s: so.Session, definitiva: date) -> date:
    """The last day to pay a fine that became final on `definitiva`: the administrator's "prazo para pagar"
    in days, counted as every deadline is (REGRAS § 4: from the next day, moved off a non-business day).
    The fine may go to dívida ativa only after it (REGRAS § 5)."""
    return contador_prazo_pagamento(s)(definitiva)


def contador_prazo_pagamento(s: so.Session) -> Callable[[date], date]:
    """`prazo_pagamento` for many fines: the calendar and the setting read once."""
    cal, dias = calendario(s), obter_configuracoes(s).prazo_pagamento_dias
    return lambda definitiva: cal.vencimento(definitiva, dias)


def conferir_pagamento(sessao: so.Session, ator: Ator, pedido: PedidoPagamento) -> None:
    """The refusals `registrar_pagamento` would raise (a fine annulled or already paid, a date before the
    decision or in the future, dívida ativa before the decision is final), from a read session and
    writing nothing: what the screen runs before asking to confirm."""
    _conferir_pagamento(sessao, ator, pedido, travar=False)


@retentavel
def registrar_pagamento(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoPagamento) -> None:
    """The fine paid on a day (amount; default the full amount), or sent to the municipal debt roll.

    `pedido.versao` is the payment record's version. Inscription in dívida ativa needs the decision to be
    final. The checks are `conferir_pagamento`'s, run again inside this unit of work.
    """
    with uow:
        s = uow.session
        c = _conferir_pagamento(s, ator, pedido)
        pagamento = c.pagamento
        antes = imagem(pagamento)
        if c.situacao == "pago":
            pagamento.pago_em = c.dia
            pagamento.valor_pago = c.valor_pago
            pagamento.situacao = "pago"
        else:
            pagamento.inscrito_divida_em = c.dia
            pagamento.situacao = "divida_ativa"
        if c.guia:
            pagamento.guia = c.guia
        pagamento.alterado_por = ator.login
        s.flush()
        auditoria.registrar(
            s, ator, "registrar_pagamento", "pagamento", pagamento.id, antes, imagem(pagamento)
        )
        uow.commit()


@retentavel
def registrar_cumprimento(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    auto_id: int,
    situacao: str,
    data: date,
    observacao: str = "",
    versao: int | None = None,
) -> None:
    """Art. 8º: whether the operator complied with the duty, checked on a day by the acting user.

    `versao` is the follow-up record's version. A later check may replace an earlier "não cumprida".
    """
    exigir_papel(ator, "fiscal", "protocolo", acao="registrar o cumprimento da exigência")
    situacao = escolha(situacao, REGISTROS_CUMPRIMENTO, "situacao", "o resultado da verificação")
    obs = texto_opcional(observacao, "observacao", "a observação")
    with uow:
        s = uow.session
        auto = auto_para_ato(s, auto_id, "registrar o cumprimento da exigência")
        cumprimento = s.scalar(sa.select(Cumprimento).where(Cumprimento.auto_id == auto.id))
        if cumprimento is None or auto.data_decisao is None:
            raise ErroDominio(
                f"O auto nº {auto.numero_formatado} não tem penalidade aplicada: não há exigência a acompanhar.",
                "auto_id",
            )
        verificar_versao(cumprimento, versao, f"O acompanhamento do auto nº {auto.numero_formatado}")
        dia = data_valida(
            data, "data", "a data da verificação", minimo=auto.data_decisao, rotulo_minimo="a decisão"
        )
        antes = imagem(cumprimento)
        cumprimento.situacao = situacao
        cumprimento.verificado_em = dia
        cumprimento.verificado_por = ator.login
        cumprimento.observacao = obs
        cumprimento.alterado_por = ator.login
        s.flush()
        auditoria.registrar(
            s, ator, "registrar_cumprimento", "cumprimento", cumprimento.id, antes, imagem(cumprimento)
        )
        uow.commit()


# --- cassação (art. 16) ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PedidoInstauracao:
    """What `instaurar_cassacao` and `conferir_instauracao` are asked: whose permission, when, and why."""

    operadora_id: int
    data: date
    motivo: str


def _conferir_instauracao(
    s: so.Session, ator: Ator, pedido: PedidoInstauracao, *, travar: bool = True
) -> tuple[Operadora, date, str]:
    """Every check of `instaurar_cassacao`, in its order, writing nothing."""
    exigir_papel(ator, "autoridade", "secretario", acao="instaurar cassação")
    motivo_limpo = texto_obrigatorio(pedido.motivo, "motivo", "o motivo relevante da cassação")
    dia = data_valida(pedido.data, "data", "a data da instauração")
    consulta = sa.select(Operadora).where(Operadora.id == pedido.operadora_id)
    operadora = s.scalar(consulta.with_for_update() if travar else consulta)
    if operadora is None:
        raise ErroDominio("Operadora não encontrada.", "operadora_id")
    if operadora.delegacao != "permissao":
        raise ErroDominio(
            f"O art. 16 prevê a cassação de permissão ou autorização; {operadora.razao_social} é "
            "concessionária.",
            "operadora_id",
        )
    if operadora.cassada_em is not None:
        raise ErroDominio(
            f"A permissão de {operadora.razao_social} já foi cassada em {formatar_data(operadora.cassada_em)}.",
            "operadora_id",
        )
    aberta = s.scalar(
        sa.select(Cassacao.instaurada_em).where(
            Cassacao.operadora_id == operadora.id, Cassacao.situacao != "decidida"
        )
    )
    if aberta is not None:
        raise ErroDominio(
            f"Já há um procedimento de cassação em andamento contra {operadora.razao_social}, instaurado em "
            f"{formatar_data(aberta)}.",
            "operadora_id",
        )
    return operadora, dia, motivo_limpo


def conferir_instauracao(sessao: so.Session, ator: Ator, pedido: PedidoInstauracao) -> None:
    """The refusals `instaurar_cassacao` would raise (a concessionária, a permission already cassada, a
    procedure already open), from a read session and writing nothing: checked before asking to confirm."""
    _conferir_instauracao(sessao, ator, pedido, travar=False)


@retentavel
def instaurar_cassacao(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoInstauracao) -> int:
    """Open the cassação procedure of a permission (art. 16: relevant, proven reason; full defence).
    The checks are `conferir_instauracao`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        operadora, dia, motivo_limpo = _conferir_instauracao(s, ator, pedido)
        cassacao = Cassacao(
            operadora_id=operadora.id,
            instaurada_em=dia,
            motivo=motivo_limpo,
            situacao="instaurada",
            alterado_por=ator.login,
        )
        s.add(cassacao)
        s.flush()
        auditoria.registrar(s, ator, "instaurar_cassacao", "cassacao", cassacao.id, None, imagem(cassacao))
        uow.commit()
        return cassacao.id


def _cassacao_para_ato(s: so.Session, cassacao_id: int, *, travar: bool = True) -> Cassacao:
    consulta = sa.select(Cassacao).where(Cassacao.id == cassacao_id)
    cassacao = s.scalar(consulta.with_for_update() if travar else consulta)
    if cassacao is None:
        raise ErroDominio("Procedimento de cassação não encontrado.", "cassacao_id")
    if cassacao.situacao == "decidida":
        raise ErroDominio(
            f"O procedimento de cassação já foi decidido em {_data(cassacao.decidida_em)}.",
            "cassacao_id",
        )
    return cassacao


@retentavel
def registrar_ato_cassacao(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    cassacao_id: int,
    data: date,
    tipo: str,
    descricao: str,
    versao: int | None = None,
) -> int:
    """Record an act of the procedure (notice to defend, defence, evidence, opinion…)."""
    exigir_papel(ator, "protocolo", "autoridade", "secretario", acao="registrar atos da cassação")
    tipo = escolha(tipo, TIPOS_ATO_CASSACAO, "tipo", "o tipo do ato")
    descricao_limpa = texto_obrigatorio(descricao, "descricao", "a descrição do ato")
    with uow:
        s = uow.session
        cassacao = _cassacao_para_ato(s, cassacao_id)
        verificar_versao(cassacao, versao, "O procedimento de cassação")
        dia = data_valida(
            data, "data", "a data do ato", minimo=cassacao.instaurada_em, rotulo_minimo="a instauração"
        )
        antes = imagem(cassacao)
        ato = CassacaoAto(
            cassacao_id=cassacao.id, data=dia, tipo=tipo, descricao=descricao_limpa, registrado_por=ator.login
        )
        s.add(ato)
        if tipo in ("notificacao", "defesa") and cassacao.situacao == "instaurada":
            cassacao.situacao = "em_defesa"
            cassacao.alterado_por = ator.login
        s.flush()
        auditoria.registrar(s, ator, "registrar_ato_cassacao", "cassacao_ato", ato.id, None, imagem(ato))
        if imagem(cassacao) != antes:
            auditoria.registrar(
                s, ator, "registrar_ato_cassacao", "cassacao", cassacao.id, antes, imagem(cassacao)
            )
        uow.commit()
        return ato.id


@dataclass(frozen=True)
class PedidoDecisaoCassacao:
    """What `decidir_cassacao` and `conferir_decisao_cassacao` are asked: the Secretary's decision."""

    cassacao_id: int
    data: date
    resultado: str
    fundamentacao: str
    versao: int | None = None


def _conferir_decisao_cassacao(
    s: so.Session, ator: Ator, pedido: PedidoDecisaoCassacao, *, travar: bool = True
) -> tuple[Cassacao, Operadora, date, str, str]:
    """Every check of `decidir_cassacao`, in its order, writing nothing."""
    p = pedido
    exigir_papel(ator, "secretario", acao="decidir a cassação")
    resultado = escolha(p.resultado, RESULTADOS_CASSACAO, "resultado", "a decisão")
    fundamentos = texto_obrigatorio(p.fundamentacao, "fundamentacao", "a fundamentação da decisão")
    cassacao = _cassacao_para_ato(s, p.cassacao_id, travar=travar)
    verificar_versao(cassacao, p.versao, "O procedimento de cassação")
    dia = data_valida(
        p.data, "data", "a data da decisão", minimo=cassacao.instaurada_em, rotulo_minimo="a instauração"
    )
    consulta = sa.select(Operadora).where(Operadora.id == cassacao.operadora_id)
    operadora = s.scalar(consulta.with_for_update() if travar else consulta)
    assert operadora is not None
    if resultado == "cassada":
        atos = s.execute(
            sa.select(CassacaoAto.tipo, sa.func.min(CassacaoAto.data))
            .where(CassacaoAto.cassacao_id == cassacao.id)
            .group_by(CassacaoAto.tipo)
        ).all()
        primeiros = {tipo: primeiro for tipo, primeiro in atos}
        notificada = primeiros.get("notificacao")
        if notificada is None:
            raise ErroDominio(
                "O art. 16 assegura ampla defesa: registre a notificação da permissionária para se defender "
                "antes de decidir pela cassação.",
                "resultado",
            )
        prazo = calendario(s).vencimento(notificada, PRAZO_DEFESA_DIAS)
        defesa = primeiros.get("defesa")
        # Within the defence window only a defence already filed by the decision's day allows deciding:
        # one filed later was not weighed by a decision dated before it.
        if (defesa is None or defesa > dia) and dia <= prazo:
            raise ErroDominio(
                f"A permissionária foi notificada em {formatar_data(notificada)} e pode se defender até "
                f"{formatar_data(prazo)}: sem defesa registrada, a cassação só pode ser decidida depois disso.",
                "data",
            )
    return cassacao, operadora, dia, resultado, fundamentos


def conferir_decisao_cassacao(sessao: so.Session, ator: Ator, pedido: PedidoDecisaoCassacao) -> None:
    """The refusals `decidir_cassacao` would raise (no notification yet, a decision inside the defence
    window, …), from a read session and writing nothing: what the screen runs before asking to confirm."""
    _conferir_decisao_cassacao(sessao, ator, pedido, travar=False)


@retentavel
def decidir_cassacao(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoDecisaoCassacao) -> None:
    """The Secretary's decision. Cassar needs the full defence of art. 16: the permissionária notified to
    defend itself, and its defence on file or the 15-day period (as in art. 14) passed. The checks are
    `conferir_decisao_cassacao`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        cassacao, operadora, dia, resultado, fundamentos = _conferir_decisao_cassacao(s, ator, pedido)
        antes, antes_operadora = imagem(cassacao), imagem(operadora)
        cassacao.situacao = "decidida"
        cassacao.resultado = resultado
        cassacao.decidida_em = dia
        cassacao.fundamentacao = fundamentos
        cassacao.alterado_por = ator.login
        if resultado == "cassada":
            operadora.cassada_em = dia
            operadora.alterado_por = ator.login
        s.flush()
        auditoria.registrar(s, ator, "decidir_cassacao", "cassacao", cassacao.id, antes, imagem(cassacao))
        if resultado == "cassada":
            auditoria.registrar(
                s, ator, "decidir_cassacao", "operadora", operadora.id, antes_operadora, imagem(operadora)
            )
        uow.commit()


# --- cassação: what the operator's screen reads ------------------------------------------------------------

SITUACOES_CASSACAO = {"instaurada": "instaurada", "em_defesa": "em defesa", "decidida": "decidida"}


@dataclass(frozen=True)
class AtoCassacaoResumo:
    id: int
    data: date
    tipo: str
    tipo_rotulo: str
    """ "notificação da permissionária para defesa", "defesa da permissionária", …"""
    descricao: str
    registrado_por: str


@dataclass(frozen=True)
class EventoCassacao:
    """One line of the procedure's timeline: instauração, each act, the decision (date order)."""

    data: date
    titulo: str
    descricao: str
    por: str | None
    resultado: ResultadoCassacao | None = None
    """The decision's result on the decision's line (None on every other): the timeline colours from it."""


@dataclass(frozen=True)
class CassacaoDetalhe:
    id: int
    operadora_id: int
    operadora_nome: str
    instaurada_em: date
    motivo: str
    situacao: str
    """ "instaurada", "em_defesa" or "decidida"."""
    resultado: str | None
    """ "cassada" or "arquivada" once decided."""
    decidida_em: date | None
    fundamentacao: str | None
    versao: int
    alterado_em: datetime
    alterado_por: str | None
    atos: tuple[AtoCassacaoResumo, ...]
    notificada_em: date | None
    """The first notice to defend itself (art. 16: full defence)."""
    prazo_defesa: date | None
    """15 days (as in art. 14) from the first notice, in business days of the municipal calendar."""
    defesa_em: date | None
    linha_do_tempo: tuple[EventoCassacao, ...]

    @property
    def em_andamento(self) -> bool:
        return self.situacao != "decidida"

    @property
    def rotulo(self) -> str:
        """The outcome or the stage, as the screen's list shows it."""
        if self.resultado == "cassada":
            return f"Permissão cassada em {_data(self.decidida_em)}"
        if self.resultado == "arquivada":
            return f"Arquivado em {_data(self.decidida_em)}"
        if self.situacao == "em_defesa":
            return "Em andamento — defesa"
        return "Em andamento — aguardando a notificação da permissionária"

    def pendencia(self, hoje: date | None = None) -> str:
        """What the procedure waits for on `hoje` (default today; empty once decided)."""
        if not self.em_andamento:
            return ""
        dia = hoje or relogio.hoje()
        if self.notificada_em is None:
            return (
                "Aguardando a notificação da permissionária para se defender: sem ela a cassação não pode ser "
                "decidida (art. 16, ampla defesa)."
            )
        if self.defesa_em is not None:
            return (
                f"Defesa registrada em {_data(self.defesa_em)}: o procedimento pode ser decidido pelo(a) "
                "Secretário(a)."
            )
        if self.prazo_defesa is not None and dia > self.prazo_defesa:
            return (
                f"Permissionária notificada em {_data(self.notificada_em)}; o prazo de defesa terminou em "
                f"{_data(self.prazo_defesa)} sem defesa registrada: o procedimento pode ser decidido pelo(a) "
                "Secretário(a)."
            )
        return (
            f"Permissionária notificada em {_data(self.notificada_em)}: pode se defender até "
            f"{_data(self.prazo_defesa)}; depois disso, mesmo sem defesa, o procedimento pode ser decidido."
        )


def _quem_fez(sessao: so.Session, ids: list[int]) -> dict[tuple[int, str], str | None]:
    """Who opened and who decided each procedure, from the audit log (absent for imported data)."""
    if not ids:
        return {}
    linhas = sessao.execute(
        sa.select(Auditoria.entidade_id, Auditoria.acao, Auditoria.usuario_login).where(
            Auditoria.entidade == "cassacao",
            Auditoria.entidade_id.in_([str(i) for i in ids]),
            Auditoria.acao.in_(("instaurar_cassacao", "decidir_cassacao")),
        )
    ).all()
    return {(int(entidade_id), acao): usuario for entidade_id, acao, usuario in linhas}


def _detalhe_cassacao(
    sessao: so.Session,
    cassacao: Cassacao,
    operadora_nome: str,
    atos: list[CassacaoAto],
    autores: dict[tuple[int, str], str | None],
) -> CassacaoDetalhe:
    resumos = tuple(
        AtoCassacaoResumo(
            a.id, a.data, a.tipo, TIPOS_ATO_CASSACAO.get(a.tipo, a.tipo), a.descricao, a.registrado_por
        )
        for a in sorted(atos, key=lambda a: (a.data, a.id))
    )
    notificada = min((a.data for a in resumos if a.tipo == "notificacao"), default=None)
    defesa = min((a.data for a in resumos if a.tipo == "defesa"), default=None)
    prazo = calendario(sessao).vencimento(notificada, PRAZO_DEFESA_DIAS) if notificada is not None else None
    eventos = [
        EventoCassacao(
            cassacao.instaurada_em,
            "Instauração",
            cassacao.motivo,
            autores.get((cassacao.id, "instaurar_cassacao")),
        )
    ]
    eventos += [
        EventoCassacao(a.data, a.tipo_rotulo[:1].upper() + a.tipo_rotulo[1:], a.descricao, a.registrado_por)
        for a in resumos
    ]
    if cassacao.situacao == "decidida" and cassacao.decidida_em is not None:
        cassada = cassacao.resultado == ResultadoCassacao.CASSADA
        titulo = "Decisão: permissão cassada" if cassada else "Decisão: arquivamento"
        eventos.append(
            EventoCassacao(
                cassacao.decidida_em,
                titulo,
                cassacao.fundamentacao or "",
                autores.get((cassacao.id, "decidir_cassacao")),
                ResultadoCassacao(cassacao.resultado) if cassacao.resultado else None,
            )
        )
    return CassacaoDetalhe(
        id=cassacao.id,
        operadora_id=cassacao.operadora_id,
        operadora_nome=operadora_nome,
        instaurada_em=cassacao.instaurada_em,
        motivo=cassacao.motivo,
        situacao=cassacao.situacao,
        resultado=cassacao.resultado,
        decidida_em=cassacao.decidida_em,
        fundamentacao=cassacao.fundamentacao,
        versao=cassacao.versao,
        alterado_em=cassacao.alterado_em,
        alterado_por=cassacao.alterado_por,
        atos=resumos,
        notificada_em=notificada,
        prazo_defesa=prazo,
        defesa_em=defesa,
        # Date order; on one day the instauração first and the decision last (a stable sort keeps that).
        linha_do_tempo=tuple(sorted(eventos, key=lambda e: e.data)),
    )


def obter_cassacoes(sessao: so.Session, operadora_id: int) -> list[CassacaoDetalhe]:
    """Every cassação procedure of an operator (newest first), each with its acts and outcome."""
    nome = sessao.scalar(sa.select(Operadora.razao_social).where(Operadora.id == operadora_id))
    if nome is None:
        raise NaoEncontrado(mensagem_nao_encontrado("Operadora", operadora_id), "operadora_id")
    cassacoes = list(
        sessao.scalars(
            sa.select(Cassacao)
            .where(Cassacao.operadora_id == operadora_id)
            .order_by(Cassacao.instaurada_em.desc(), Cassacao.id.desc())
        )
    )
    ids = [c.id for c in cassacoes]
    atos: dict[int, list[CassacaoAto]] = {i: [] for i in ids}
    if ids:
        for ato in sessao.scalars(sa.select(CassacaoAto).where(CassacaoAto.cassacao_id.in_(ids))):
            atos[ato.cassacao_id].append(ato)
    autores = _quem_fez(sessao, ids)
    return [_detalhe_cassacao(sessao, c, nome, atos[c.id], autores) for c in cassacoes]


def obter_cassacao(sessao: so.Session, cassacao_id: int) -> CassacaoDetalhe:
    """One cassação procedure: motive, acts, the defence deadline, outcome, and its timeline."""
    cassacao = obter(sessao, Cassacao, cassacao_id, "Procedimento de cassação", "cassacao_id")
    nome = sessao.scalar(sa.select(Operadora.razao_social).where(Operadora.id == cassacao.operadora_id)) or ""
    atos = list(sessao.scalars(sa.select(CassacaoAto).where(CassacaoAto.cassacao_id == cassacao.id)))
    return _detalhe_cassacao(sessao, cassacao, nome, atos, _quem_fez(sessao, [cassacao.id]))
