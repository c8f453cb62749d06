"""The home screen's work queues: what needs doing today, each row opening its case.

Each queue is ONE query, filtered on an indexed column (`auto_infracao.fase` + deadline, `pagamento.situacao`,
`recurso.resultado`, `veiculo` validity dates, `suspensao` period, `representacao.situacao`; contracts on the
small `operadora` table), returning the total (a window count) and the first `limite` rows, oldest deadline
first. Validity dates expiring within `vencimentos.DIAS_AVISO` days (30) have queues of their own.

"Overdue decision": an intimated auto with no decision whose defence deadline passed more than X days ago;
X is the setting `dias_para_decidir` (Configuracao), 30 by default.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import Delegacao
from secretaria.lei.formato import formatar_data, formatar_urm
from secretaria.lei.urm import formatar_reais
from secretaria.models import (
    AutoInfracao,
    Configuracao,
    Decisao,
    Defesa,
    Operadora,
    Pagamento,
    Recurso,
    Representacao,
    Retificacao,
    RevisaoPrazo,
    RevisaoSancao,
    Suspensao,
    Veiculo,
)
from secretaria.services import vencimentos
from secretaria.services.execucao import contador_prazo_pagamento, fim_da_suspensao_sql
from secretaria.services.tramitacao import condicao_final

CHAVE_DIAS_DECISAO = "dias_para_decidir"
DIAS_DECISAO_PADRAO = 30
LIMITE_PADRAO = 100


@dataclass(frozen=True)
class LinhaFila:
    entidade: str
    """"auto", "veiculo", "operadora" or "representacao": what a double click opens."""
    id: int
    referencia: str
    operadora_id: int | None
    operadora: str
    data: date | None
    prazo: date | None
    detalhe: str


@dataclass(frozen=True)
class Fila:
    chave: str
    titulo: str
    total: int
    linhas: tuple[LinhaFila, ...]


def _executar(
    sessao: so.Session,
    consulta: sa.Select[Any],
    limite: int,
    chave: str,
    titulo: str,
    linha: Callable[[Any], LinhaFila],
) -> Fila:
    """Run `consulta` once with a window count of all matching rows, keeping the first `limite` rows."""
    resultado = sessao.execute(
        consulta.add_columns(sa.func.count().over().label("total_fila")).limit(limite)
    ).all()
    total = resultado[0].total_fila if resultado else 0
    return Fila(chave, titulo, int(total), tuple(linha(r) for r in resultado))


def _auto_colunas() -> tuple[Any, ...]:
    a = AutoInfracao
    return (a.id, a.ano, a.numero, a.operadora_id, Operadora.razao_social, a.data_lavratura)


def _linha_auto(
    prazo: Callable[[Any], date | None], detalhe: Callable[[Any], str]
) -> Callable[[Any], LinhaFila]:
    def fazer(r: Any) -> LinhaFila:
        return LinhaFila(
            "auto",
            r.id,
            f"AI nº {r.numero:04d}/{r.ano}",
            r.operadora_id,
            r.razao_social,
            r.data_lavratura,
            prazo(r),
            detalhe(r),
        )

    return fazer


def autos_aguardando_intimacao(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    """Autos drawn up and not yet intimated, the oldest first.

    The candidates are counted in a subquery and only then sorted and cut, and the correction's date is read
    for the rows shown only: in one query, PostgreSQL on the 2,000,000-auto city walked every auto in the
    order of `data_lavratura` looking for the drawn-up ones, expecting the row limit to stop it early, which
    the window count never lets it do (0.81 s; the same as the fines' queue, below)."""
    a = AutoInfracao
    candidatos = (
        sa.select(*_auto_colunas())
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(a.fase == "lavrado")
        .add_columns(sa.func.count().over().label("total_fila"))
        .subquery("candidatos")
    )
    c = candidatos.c
    # A correction of substance sends an intimated auto back here: what awaits intimação is then the termo.
    termo = (
        sa.select(sa.func.max(Retificacao.data))
        .where(Retificacao.auto_id == c.id, Retificacao.substancial.is_(True))
        .scalar_subquery()
        .label("termo")
    )
    resultado = sessao.execute(
        sa.select(candidatos, termo).order_by(c.data_lavratura, c.id).limit(limite)
    ).all()

    def detalhe(r: Any) -> str:
        if r.termo is not None:
            return f"Termo de retificação de {formatar_data(r.termo)} aguardando intimação"
        return f"Lavrado em {formatar_data(r.data_lavratura)}"

    linha = _linha_auto(lambda r: None, detalhe)
    total = resultado[0].total_fila if resultado else 0
    return Fila(
        "aguardando_intimacao", "Autos aguardando intimação", int(total), tuple(linha(r) for r in resultado)
    )


def defesas_a_vencer(
    sessao: so.Session, hoje: date | None = None, dias: int = 7, limite: int = LIMITE_PADRAO
) -> Fila:
    """Intimated autos whose defence deadline falls in the next `dias` days and no defence is on file yet."""
    dia = hoje or relogio.hoje()
    a = AutoInfracao
    consulta = (
        sa.select(*_auto_colunas(), a.prazo_defesa)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(a.fase == "intimado", a.prazo_defesa >= dia, a.prazo_defesa <= dia + timedelta(days=dias))
        .where(~sa.exists().where(Defesa.auto_id == a.id))
        .order_by(a.prazo_defesa, a.id)
    )
    return _executar(
        sessao,
        consulta,
        limite,
        "defesas_a_vencer",
        f"Prazos de defesa que vencem nos próximos {dias} dias",
        _linha_auto(lambda r: r.prazo_defesa, lambda r: f"Defesa até {formatar_data(r.prazo_defesa)}"),
    )


def dias_para_decidir(sessao: so.Session) -> int:
    valor = sessao.get(Configuracao, CHAVE_DIAS_DECISAO)
    try:
        return max(0, int(valor.valor)) if valor is not None else DIAS_DECISAO_PADRAO
    except ValueError:
        return DIAS_DECISAO_PADRAO


def prazo_defesa_atrasa_antes_de(hoje: date, dias: int) -> date:
    """An intimated, undecided auto is late on `hoje` when its defence deadline falls before this day: more
    than `dias` (the "Dias para decidir" setting) have passed since it. The one rule behind the "Decisões
    atrasadas" queue and the case screen's "ATRASADA" line."""
    return hoje - timedelta(days=dias)


def primeiro_dia_de_atraso(prazo_defesa: date, dias: int) -> date:
    """The first day on which the decision of an auto with this defence deadline is late."""
    return prazo_defesa + timedelta(days=dias + 1)


def decisoes_atrasadas(
    sessao: so.Session, hoje: date | None = None, dias: int | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    """Intimated, undecided autos whose defence deadline passed more than `dias` (setting, default 30) ago."""
    dia = hoje or relogio.hoje()
    atraso = dias_para_decidir(sessao) if dias is None else dias
    a = AutoInfracao
    consulta = (
        sa.select(*_auto_colunas(), a.prazo_defesa)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(a.fase == "intimado", a.prazo_defesa < prazo_defesa_atrasa_antes_de(dia, atraso))
        .order_by(a.prazo_defesa, a.id)
    )
    return _executar(
        sessao,
        consulta,
        limite,
        "decisoes_atrasadas",
        f"Decisões atrasadas (prazo de defesa vencido há mais de {atraso} dias)",
        _linha_auto(lambda r: r.prazo_defesa, lambda r: f"Defesa venceu em {formatar_data(r.prazo_defesa)}"),
    )


def decisoes_aguardando_intimacao(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    a = AutoInfracao
    consulta = (
        sa.select(*_auto_colunas(), a.data_decisao)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(a.fase == "decidido", a.prazo_recurso.is_(None))
        .order_by(a.data_decisao, a.id)
    )
    return _executar(
        sessao,
        consulta,
        limite,
        "decisoes_aguardando_intimacao",
        "Decisões aguardando intimação",
        _linha_auto(lambda r: None, lambda r: f"Decidido em {formatar_data(r.data_decisao)}"),
    )


def recursos_em_prazo(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Decisions intimated whose appeal deadline is still open (no timely appeal filed yet)."""
    dia = hoje or relogio.hoje()
    a = AutoInfracao
    consulta = (
        sa.select(*_auto_colunas(), a.prazo_recurso)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(a.fase == "decidido", a.prazo_recurso >= dia)
        .order_by(a.prazo_recurso, a.id)
    )
    return _executar(
        sessao,
        consulta,
        limite,
        "recursos_em_prazo",
        "Prazos de recurso em curso",
        _linha_auto(lambda r: r.prazo_recurso, lambda r: f"Recurso até {formatar_data(r.prazo_recurso)}"),
    )


def recursos_aguardando_julgamento(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    a = AutoInfracao
    # The pending appeals found first, by `ix_recurso_resultado` (a materialized CTE), then joined and sorted:
    # in one query PostgreSQL walked every appeal stored along `ix_recurso_protocolado`, already in the order
    # shown, filtering as it went (27,982 read for 503 on the bench city, 17 ms; 141 ms on 2,000,000 autos).
    pendentes = (
        sa.select(Recurso.decisao_id, Recurso.protocolado_em, Recurso.tempestivo)
        .where(Recurso.resultado == "pendente")
        .cte("pendentes")
        .prefix_with("MATERIALIZED")
    )
    consulta = (
        sa.select(*_auto_colunas(), pendentes.c.protocolado_em, pendentes.c.tempestivo)
        .select_from(pendentes)
        .join(Decisao, Decisao.id == pendentes.c.decisao_id)
        .join(a, a.id == Decisao.auto_id)
        .join(Operadora, Operadora.id == a.operadora_id)
        .order_by(pendentes.c.protocolado_em, a.id)
    )
    return _executar(
        sessao,
        consulta,
        limite,
        "recursos_aguardando_julgamento",
        "Recursos aguardando julgamento do Prefeito",
        _linha_auto(
            lambda r: None,
            lambda r: (
                f"Recurso {'tempestivo' if r.tempestivo else 'intempestivo'} de {formatar_data(r.protocolado_em)}"
            ),
        ),
    )


def multas_definitivas_em_aberto(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    """Fines of final decisions (appeal deadline passed unused, or appeal decided) still unpaid, each with
    its payment deadline (`execucao.prazo_pagamento`): "no prazo de pagamento" until it, "vencida" after
    (only then may it go to dívida ativa, REGRAS § 5).

    Driven by the open payments (a few percent of the fines, read with their decision and amount from
    `ix_pagamento_situacao` alone), each checked for finality (`condicao_final`) on its auto by primary key. The
    candidates are filtered and counted in a subquery and only then sorted and cut: sorted in one query, both
    planners walked every final auto (96 % of them) in date order, expecting the row limit to stop early,
    which the window count never lets it do (0.32 s SQLite, 1.2 s PostgreSQL).
    """
    dia = hoje or relogio.hoje()
    a = AutoInfracao
    candidatas = (
        sa.select(*_auto_colunas(), Pagamento.valor, a.data_definitiva, a.data_decisao)
        .select_from(Pagamento)
        .join(Decisao, Decisao.id == Pagamento.decisao_id)
        .join(a, a.id == Decisao.auto_id)
        .join(Operadora, Operadora.id == a.operadora_id)
        # A book case the book closed (filed with the fine unpaid) asks for no act.
        .where(Pagamento.situacao == "aberto", condicao_final(dia), a.encerrado_no_livro.is_(None))
        .add_columns(sa.func.count().over().label("total_fila"))
        .subquery("candidatas")
    )
    c = candidatas.c
    resultado = sessao.execute(
        sa.select(candidatas).order_by(c.data_definitiva, c.data_decisao, c.id).limit(limite)
    ).all()
    # The calendar and the setting, read only when there is a fine to date (an empty queue stays one query).
    prazo_de = contador_prazo_pagamento(sessao) if resultado else None

    def prazo(r: Any) -> date | None:
        return prazo_de(r.data_definitiva) if prazo_de is not None and r.data_definitiva is not None else None

    def detalhe(r: Any) -> str:
        multa, ate = f"Multa de {formatar_reais(r.valor)}", prazo(r)
        if ate is None:
            return f"{multa} em aberto"
        if ate >= dia:
            return f"{multa} no prazo de pagamento (até {formatar_data(ate)})"
        return f"{multa} vencida em {formatar_data(ate)}"  # only now may it go to dívida ativa

    linha = _linha_auto(prazo, detalhe)
    total = resultado[0].total_fila if resultado else 0
    return Fila(
        "multas_em_aberto",
        "Multas de decisões definitivas não pagas",
        int(total),
        tuple(linha(r) for r in resultado),
    )


def veiculos_vencidos(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Vehicles in service with inspection (vistoria) or licence expired, or without its date (the office
    may register a bus before it has them, and then it is a problem to chase)."""
    dia = hoje or relogio.hoje()
    v = Veiculo
    consulta = (
        sa.select(
            v.id,
            v.prefixo,
            v.placa,
            v.operadora_id,
            Operadora.razao_social,
            v.vistoria_validade,
            v.licenca_validade,
        )
        .join(Operadora, Operadora.id == v.operadora_id)
        .where(
            sa.or_(
                v.vistoria_validade < dia,
                v.vistoria_validade.is_(None),
                v.licenca_validade < dia,
                v.licenca_validade.is_(None),
            ),
            v.situacao != "baixado",
        )
        .order_by(Operadora.razao_social, v.prefixo, v.id)
    )

    def linha(r: Any) -> LinhaFila:
        problemas = []
        for validade, texto in (
            (r.vistoria_validade, vencimentos.texto_vistoria),
            (r.licenca_validade, vencimentos.texto_licenca),
        ):
            if vencimentos.estado(validade, dia) in ("vencida", "sem_data"):
                problemas.append(texto(validade, dia))
        datas = [d for d in (r.vistoria_validade, r.licenca_validade) if d is not None and d < dia]
        return LinhaFila(
            "veiculo",
            r.id,
            f"{r.prefixo} — placa {r.placa}",
            r.operadora_id,
            r.razao_social,
            None,
            min(datas) if datas else None,
            _maiuscula("; ".join(problemas)),
        )

    return _executar(
        sessao,
        consulta,
        limite,
        "veiculos_vencidos",
        "Veículos com vistoria ou licença vencida ou sem data",
        linha,
    )


def veiculos_a_vencer(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Vehicles in service whose inspection or licence expires within `vencimentos.DIAS_AVISO` days (today
    included), the soonest first: renewing takes time, the expired queue comes too late."""
    dia = hoje or relogio.hoje()
    fim = vencimentos.janela(dia)
    v = Veiculo
    vistoria_perto = v.vistoria_validade.between(dia, fim)
    licenca_perto = v.licenca_validade.between(dia, fim)
    primeira = sa.case(
        (
            sa.and_(
                vistoria_perto,
                sa.or_(
                    ~licenca_perto, v.licenca_validade.is_(None), v.vistoria_validade <= v.licenca_validade
                ),
            ),
            v.vistoria_validade,
        ),
        else_=v.licenca_validade,
    )
    consulta = (
        sa.select(
            v.id,
            v.prefixo,
            v.placa,
            v.operadora_id,
            Operadora.razao_social,
            v.vistoria_validade,
            v.licenca_validade,
            primeira.label("primeira"),
        )
        .join(Operadora, Operadora.id == v.operadora_id)
        .where(sa.or_(vistoria_perto, licenca_perto), v.situacao != "baixado")
        .order_by(primeira, v.prefixo, v.id)
    )

    def linha(r: Any) -> LinhaFila:
        avisos = [
            texto(validade, dia)
            for validade, texto in (
                (r.vistoria_validade, vencimentos.texto_vistoria),
                (r.licenca_validade, vencimentos.texto_licenca),
            )
            if vencimentos.estado(validade, dia) == "a_vencer"
        ]
        return LinhaFila(
            "veiculo",
            r.id,
            f"{r.prefixo} — placa {r.placa}",
            r.operadora_id,
            r.razao_social,
            None,
            r.primeira,
            _maiuscula("; ".join(avisos)),
        )

    return _executar(
        sessao,
        consulta,
        limite,
        "veiculos_a_vencer",
        f"Vistorias e licenças que vencem nos próximos {vencimentos.DIAS_AVISO} dias",
        linha,
    )


def contratos_a_vencer(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Operators (not cassadas) whose contract or permission ended, or ends within `vencimentos.DIAS_AVISO`
    days, the earliest first. An ended contract is no status of the law: the operator stays "ativa", and
    this queue (and the list's highlight) is what tells the office."""
    dia = hoje or relogio.hoje()
    o = Operadora
    consulta = (
        sa.select(o.id, o.razao_social, o.delegacao, o.contrato_numero, o.contrato_fim)
        .where(
            o.contrato_fim <= vencimentos.janela(dia),
            sa.or_(o.cassada_em.is_(None), o.cassada_em > dia),
        )
        .order_by(o.contrato_fim, o.id)
    )

    def linha(r: Any) -> LinhaFila:
        documento = "Permissão" if r.delegacao == Delegacao.PERMISSAO else "Contrato"
        numero = f" nº {r.contrato_numero}" if r.contrato_numero else ""
        texto = vencimentos.texto_contrato(r.delegacao, r.contrato_fim, dia)
        return LinhaFila(
            "operadora",
            r.id,
            f"{documento}{numero}",
            r.id,
            r.razao_social,
            None,
            r.contrato_fim,
            _maiuscula(texto),
        )

    return _executar(
        sessao,
        consulta,
        limite,
        "contratos_a_vencer",
        f"Contratos e permissões vencidos ou que vencem nos próximos {vencimentos.DIAS_AVISO} dias",
        linha,
    )


def _maiuscula(texto: str) -> str:
    return texto[:1].upper() + texto[1:]


def operadoras_suspensas(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Operators serving a suspension on `hoje`: one row each, until the end of the suspensions they serve
    back to back (`execucao.fim_da_suspensao_sql`), ending last."""
    dia = hoje or relogio.hoje()
    s = Suspensao
    suspensas = (
        sa.select(s.operadora_id, Operadora.razao_social, sa.func.min(s.inicio).label("inicio"))
        .join(Operadora, Operadora.id == s.operadora_id)
        .where(s.fim >= dia, s.inicio <= dia, s.anulada.is_(False))
        .group_by(s.operadora_id, Operadora.razao_social)
        .subquery("suspensas")
    )
    c = suspensas.c
    fim = fim_da_suspensao_sql(c.operadora_id, dia).label("fim")
    consulta = sa.select(c.operadora_id, c.razao_social, c.inicio, fim).order_by(fim, c.operadora_id)

    def linha(r: Any) -> LinhaFila:
        return LinhaFila(
            "operadora",
            r.operadora_id,
            r.razao_social,
            r.operadora_id,
            r.razao_social,
            r.inicio,
            r.fim,
            f"Suspensa de {formatar_data(r.inicio)} até {formatar_data(r.fim)}",
        )

    return _executar(sessao, consulta, limite, "operadoras_suspensas", "Operadoras suspensas hoje", linha)


def suspensoes_a_iniciar(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Final suspensions not yet started (REGRAS § 5): a work item until someone starts it.

    "Final" is the stored day the penalty became final (`data_definitiva`, REGRAS § 3 rule 1) on or before
    `hoje`; the oldest first. A suspension starts only after the operator's started ones ended (REGRAS § 5),
    so a row whose operator is still serving one says the first free day.
    """
    dia = hoje or relogio.hoje()
    a = AutoInfracao
    iniciada = sa.exists().where(Decisao.auto_id == a.id, Suspensao.decisao_id == Decisao.id)
    ocupada_ate = (
        sa.select(sa.func.max(Suspensao.fim))
        .where(Suspensao.operadora_id == a.operadora_id, Suspensao.anulada.is_(False))
        .scalar_subquery()
        .label("ocupada_ate")
    )
    consulta = (
        sa.select(*_auto_colunas(), a.data_definitiva, a.suspensao_dias, ocupada_ate)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(
            a.data_definitiva <= dia,
            a.suspensao_dias > 0,
            a.penalidade_anulada.is_(False),
            a.fase != "cancelado",
            ~iniciada,
        )
        .order_by(a.data_definitiva, a.id)
    )

    def livre(r: Any) -> date | None:
        """The first day free of the operator's started suspensions, when later than today."""
        return (
            r.ocupada_ate + timedelta(days=1) if r.ocupada_ate is not None and r.ocupada_ate >= dia else None
        )

    def detalhe(r: Any) -> str:
        dias = f"{r.suspensao_dias} {'dia' if r.suspensao_dias == 1 else 'dias'}"
        if (inicio := livre(r)) is not None:
            return (
                f"Suspensão de {dias}: inicie a partir de {formatar_data(inicio)}, após a suspensão em curso "
                f"(definitiva desde {formatar_data(r.data_definitiva)})"
            )
        return f"Suspensão de {dias} definitiva desde {formatar_data(r.data_definitiva)}: registre o início"

    return _executar(
        sessao,
        consulta,
        limite,
        "suspensoes_a_iniciar",
        "Suspensões definitivas ainda não iniciadas",
        # The date column: from when it may start (the day it became final, or the first free day).
        _linha_auto(lambda r: livre(r) or r.data_definitiva, detalhe),
    )


def revisoes_de_prazo_a_conferir(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    """Decided cases whose petition changed class when a later non-business day moved a deadline (REGRAS § 4):
    the Secretary reviews each (`revisao_prazos.conferir_revisao`)."""
    a, r_ = AutoInfracao, RevisaoPrazo
    consulta = (
        sa.select(*_auto_colunas(), r_.novo, r_.reclassificacao)
        .select_from(r_)
        .join(a, a.id == r_.auto_id)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(r_.reclassificou.is_(True), r_.decidido.is_(True), r_.conferida_em.is_(None))
        .order_by(r_.id)
    )
    return _executar(
        sessao,
        consulta,
        limite,
        "revisoes_de_prazo",
        "Casos decididos com petição reclassificada por prorrogação de prazo",
        _linha_auto(lambda r: r.novo, lambda r: r.reclassificacao[:1].upper() + r.reclassificacao[1:]),
    )


def revisoes_de_sancao(sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO) -> Fila:
    """Decided cases whose counted prior was later annulled or reduced (Lei 9.784/1999, art. 65; REGRAS § 5),
    with the level and range they would have today: the Secretary revises or keeps each
    (`revisao_sancao.revisar_sancao` / `manter_sancao`)."""
    a, r_ = AutoInfracao, RevisaoSancao
    consulta = (
        sa.select(
            *_auto_colunas(),
            r_.registrada_em,
            r_.reincidencia_anterior,
            r_.reincidencia_atual,
            r_.faixa_min_ur,
            r_.faixa_max_ur,
            a.multa_ur,
        )
        .select_from(r_)
        .join(a, a.id == r_.auto_id)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(r_.situacao == "pendente")
        .order_by(r_.registrada_em, r_.id)
    )

    def detalhe(r: Any) -> str:
        faixa = (
            formatar_urm(r.faixa_min_ur)
            if r.faixa_min_ur == r.faixa_max_ur
            else f"{formatar_urm(r.faixa_min_ur).removesuffix(' URM')} a {formatar_urm(r.faixa_max_ur)}"
        )
        # Short enough for the Situação column at 1366 px: level today (as decided), range, fine in force.
        return (
            f"Nível {r.reincidencia_atual} (era {r.reincidencia_anterior}): {faixa}; "
            f"aplicada {formatar_urm(r.multa_ur)}"
        )

    return _executar(
        sessao,
        consulta,
        limite,
        "revisoes_de_sancao",
        "Sanções a revisar: reincidência anulada ou reduzida (art. 65 da Lei 9.784/1999)",
        _linha_auto(lambda r: None, detalhe),
    )


def representacoes_pendentes(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO
) -> Fila:
    r_ = Representacao
    consulta = (
        sa.select(
            r_.id,
            r_.ano,
            r_.numero,
            r_.operadora_id,
            Operadora.razao_social,
            r_.recebida_em,
            r_.peticionario_nome,
        )
        .outerjoin(Operadora, Operadora.id == r_.operadora_id)
        .where(r_.situacao == "recebida")
        .order_by(r_.recebida_em, r_.id)
    )

    def linha(r: Any) -> LinhaFila:
        return LinhaFila(
            "representacao",
            r.id,
            f"REP nº {r.numero:04d}/{r.ano}",
            r.operadora_id,
            r.razao_social or "",
            r.recebida_em,
            None,
            f"De {r.peticionario_nome}",
        )

    return _executar(
        sessao,
        consulta,
        limite,
        "representacoes_pendentes",
        "Representações aguardando autuação ou arquivamento",
        linha,
    )


def painel(
    sessao: so.Session, hoje: date | None = None, limite: int = LIMITE_PADRAO, dias_defesa: int = 7
) -> tuple[Fila, ...]:
    """All the home screen's queues, in the order the screen shows them."""
    dia = hoje or relogio.hoje()
    return (
        autos_aguardando_intimacao(sessao, dia, limite),
        defesas_a_vencer(sessao, dia, dias_defesa, limite),
        decisoes_atrasadas(sessao, dia, None, limite),
        decisoes_aguardando_intimacao(sessao, dia, limite),
        recursos_em_prazo(sessao, dia, limite),
        recursos_aguardando_julgamento(sessao, dia, limite),
        multas_definitivas_em_aberto(sessao, dia, limite),
        veiculos_vencidos(sessao, dia, limite),
        veiculos_a_vencer(sessao, dia, limite),
        contratos_a_vencer(sessao, dia, limite),
        revisoes_de_prazo_a_conferir(sessao, dia, limite),
        revisoes_de_sancao(sessao, dia, limite),
        suspensoes_a_iniciar(sessao, dia, limite),
        operadoras_suspensas(sessao, dia, limite),
        representacoes_pendentes(sessao, dia, limite),
    )
