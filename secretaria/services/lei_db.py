"""What the law code needs from the database: the calendar, the URM table, citable provisions, antecedents.

`secretaria.lei` is pure; these readers turn rows into its inputs (a `Calendario`, `ValorUrm` rows,
`Antecedente`s) and its refusals into `ErroDominio`s with the form field they belong beside.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.erros import ErroLei
from secretaria.lei.prazos import Calendario
from secretaria.lei.sancoes import (
    JANELA_MESES,
    Antecedente,
    Situacao,
    calcular_sancao,
    classificar_antecedentes,
    somar_meses,
)
from secretaria.lei.urm import ValorUrm, vigente_em
from secretaria.models import AutoInfracao, DiaNaoUtil, DispositivoCatalogo, ValorURM
from secretaria.services.base import ErroDominio


def calendario(sessao: so.Session) -> Calendario:
    """Weekends, national and RS holidays (the `holidays` package) and the administrator's `DiaNaoUtil` rows.

    The extra days go in as a mapping date → description, so a postponed deadline names the holiday.
    """
    extras = {
        d: descricao for d, descricao in sessao.execute(sa.select(DiaNaoUtil.data, DiaNaoUtil.descricao))
    }
    return Calendario(extras)


def tabela_urm(sessao: so.Session) -> tuple[ValorUrm, ...]:
    linhas = sessao.execute(
        sa.select(ValorURM.vigencia, ValorURM.valor, ValorURM.ato).order_by(ValorURM.vigencia)
    )
    return tuple(ValorUrm(inicio=v, valor=valor, ato=ato) for v, valor, ato in linhas)


def valor_urm_em(sessao: so.Session, dia: date, campo: str = "data") -> Decimal:
    """The URM value in force on `dia`; refused, naming the gap, when the table has none for that day."""
    valor = sessao.scalar(
        sa.select(ValorURM.valor).where(ValorURM.vigencia <= dia).order_by(ValorURM.vigencia.desc()).limit(1)
    )
    if valor is not None:
        return valor
    try:  # only to build the message: the law module words the gap
        return vigente_em(tabela_urm(sessao), dia).valor
    except ErroLei as exc:
        raise ErroDominio(str(exc), campo) from exc


@dataclass(frozen=True)
class DispositivoCitavel:
    """A provision an auto may cite, with its (set) tipo."""

    codigo: str
    rotulo: str
    tipo: str
    texto: str
    nota: str | None
    origem: str


def dispositivo_citavel(
    sessao: so.Session, codigo: str, campo: str = "dispositivo_codigo"
) -> DispositivoCitavel:
    """The provision `codigo`, refused when unknown, deactivated, or without tipo (Art. 1º, X before it is set)."""
    chave = (codigo or "").strip().upper()
    if not chave:
        raise ErroDominio("Informe o dispositivo infringido.", campo)
    d = sessao.get(DispositivoCatalogo, chave)
    if d is None:
        raise ErroDominio(f"O dispositivo “{codigo}” não existe no catálogo.", campo)
    if not d.ativo:
        raise ErroDominio(
            f"O dispositivo {d.rotulo} está desativado no catálogo e não pode ser citado.", campo
        )
    if d.tipo is None:
        raise ErroDominio(
            f"O {d.rotulo} ainda não tem tipo de infração: o texto da lei foi cortado por “(sic)”. "
            "O administrador deve definir o tipo, com o ato que o decidiu, antes que um auto possa citá-lo.",
            campo,
        )
    return DispositivoCitavel(
        codigo=d.codigo, rotulo=d.rotulo, tipo=d.tipo, texto=d.texto, nota=d.nota, origem=d.origem
    )


def dispositivo_citado(sessao: so.Session, codigo: str, tipo: str) -> DispositivoCitavel:
    """The provision an existing auto cites, with the tipo it was drawn up with, even if since deactivated.

    Deactivating a contractual provision stops new autos from citing it; the cases that already cite it go on.
    """
    d = sessao.get(DispositivoCatalogo, codigo)
    if d is None:  # pragma: no cover - the foreign key keeps the row
        raise ErroDominio(f"O dispositivo “{codigo}” não existe no catálogo.", "dispositivo_codigo")
    return DispositivoCitavel(
        codigo=d.codigo, rotulo=d.rotulo, tipo=tipo, texto=d.texto, nota=d.nota, origem=d.origem
    )


@dataclass(frozen=True)
class AntecedenteAuto:
    """An earlier auto of the same operator and provision, as the sanction rules see it."""

    auto_id: int
    numero: str
    data_lavratura: date
    arquivado: bool
    """Dismissed by the Secretary: never punished (so never counts), shown with that reason."""
    antecedente: Antecedente
    """For the law: `data_decisao` is the day the penalty became final (`AutoInfracao.data_definitiva`)."""
    data_decisao: date | None = None
    """The Secretary's decision day (the penalty applied), final or not."""
    prazo_recurso: date | None = None
    recurso_pendente: bool = False
    """A timely appeal awaits the Prefeito (phase "em_recurso")."""
    importado_de: str | None = None
    """The spreadsheet an auto of the office's past came from (None: drawn up in the program)."""
    definitiva_presumida: bool = False
    """The book did not say when the penalty became final: the import presumed it (REGRAS § 3 rule 1)."""


def _consulta_antecedentes(
    operadora_id: int, dispositivo_codigo: str, excluir_auto_id: int | None, ate: date | None
) -> sa.Select[Any]:
    a = AutoInfracao
    consulta = sa.select(
        a.id,
        a.ano,
        a.numero,
        a.data_lavratura,
        a.data_infracao,
        a.data_decisao,
        a.data_definitiva,
        a.prazo_recurso,
        a.multa_ur,
        a.suspensao_dias,
        a.penalidade_anulada,
        a.fase,
        a.importado_de,
        a.definitiva_presumida,
    ).where(a.operadora_id == operadora_id, a.dispositivo_codigo == dispositivo_codigo, a.fase != "cancelado")
    if excluir_auto_id is not None:
        consulta = consulta.where(a.id != excluir_auto_id)
    if ate is not None:
        consulta = consulta.where(a.data_infracao <= ate)
    return consulta


def _registro(r: Any) -> AntecedenteAuto:
    return AntecedenteAuto(
        auto_id=r.id,
        numero=f"{r.numero:04d}/{r.ano}",
        data_lavratura=r.data_lavratura,
        arquivado=r.fase == "encerrado" and r.data_decisao is None,
        antecedente=Antecedente(
            data_infracao=r.data_infracao,
            data_decisao=r.data_definitiva,
            multa_ur=r.multa_ur or Decimal(0),
            suspensao_dias=r.suspensao_dias or 0,
            anulada=bool(r.penalidade_anulada),
        ),
        data_decisao=r.data_decisao,
        prazo_recurso=r.prazo_recurso,
        recurso_pendente=r.fase == "em_recurso",
        importado_de=r.importado_de,
        definitiva_presumida=bool(r.definitiva_presumida),
    )


def antecedentes_autos(
    sessao: so.Session,
    operadora_id: int,
    dispositivo_codigo: str,
    excluir_auto_id: int | None = None,
    ate: date | None = None,
) -> tuple[AntecedenteAuto, ...]:
    """One query on `ix_auto_recidiva`: every non-cancelled auto of the operator for the provision.

    `ate` limits them to infractions on or before that day (later ones can never count). A dismissed auto
    ("encerrado" without a penalty decision day) is passed to the law as undecided, so it never counts; a
    decided one is passed with the day its penalty became final (REGRAS § 3 rule 1), None while not final.
    """
    consulta = _consulta_antecedentes(operadora_id, dispositivo_codigo, excluir_auto_id, ate)
    consulta = consulta.order_by(AutoInfracao.data_infracao, AutoInfracao.id)
    return tuple(_registro(r) for r in sessao.execute(consulta))


@dataclass(frozen=True)
class AntecedentesAlcance:
    """The earlier autos the sanction of one infraction can depend on, and how many older ones were skipped."""

    registros: tuple[AntecedenteAuto, ...]
    """In order of infraction day (then id): every auto from the newest back past the reach of the recidivism
    chain, plus, when older, the latest punished one with a suspension (§ 7º doubles it whatever its age)."""
    omitidos: int
    """Older autos not examined: they lie outside any recidivism window (§ 4º), so they cannot change the
    level, the fine range or the suspension."""


PAGINA_ANTECEDENTES = 32


def antecedentes_alcance(
    sessao: so.Session,
    operadora_id: int,
    dispositivo_codigo: str,
    tipo: str,
    dia: date,
    excluir_auto_id: int | None = None,
    pagina: int = PAGINA_ANTECEDENTES,
) -> AntecedentesAlcance:
    """The antecedents of an infraction of `tipo` on `dia`, read newest-first on `ix_auto_recidiva` in pages.

    Reading stops once the recidivism chain (REGRAS § 3, rule 3) cannot reach further back: the oldest day
    read, plus the tipo's window W, falls before the chain's earliest link (or before `dia` with no chain).
    Any older punished auto is then more than W before that link, so the chain, hence the level and the fine
    range, is the one the full history gives. Rule 6 (§ 7º: double the most recent suspension among the
    punished antecedents) looks at no window: one more query fetches that auto when the suspension is due.
    `calcular_sancao` over `registros` gives the same level, fine range and suspension as over every auto.
    """
    a = AutoInfracao
    base = _consulta_antecedentes(operadora_id, dispositivo_codigo, excluir_auto_id, dia)
    janela = JANELA_MESES[tipo]
    lidos: list[AntecedenteAuto] = []
    ultimo: tuple[date, int] | None = None  # the (day, id) of the oldest row read
    tamanho = pagina
    total = 0  # every auto of the history, counted (on the index alone) with the first page
    while True:
        consulta = base
        if ultimo is None:
            contagem = sa.select(sa.func.count()).select_from(base.subquery()).scalar_subquery()
            consulta = consulta.add_columns(contagem.label("total_historico"))
        else:
            consulta = consulta.where(
                sa.or_(a.data_infracao < ultimo[0], sa.and_(a.data_infracao == ultimo[0], a.id < ultimo[1]))
            )
        linhas = sessao.execute(consulta.order_by(a.data_infracao.desc(), a.id.desc()).limit(tamanho)).all()
        if ultimo is None and linhas:
            total = linhas[0].total_historico
        lidos += (_registro(r) for r in linhas)
        if len(linhas) < tamanho:  # the whole history was read
            lidos.reverse()
            return AntecedentesAlcance(tuple(lidos), 0)
        ultimo = (linhas[-1].data_infracao, linhas[-1].id)
        lista = [r.antecedente for r in reversed(lidos)]
        elos = [
            c.antecedente.data_infracao
            for c in classificar_antecedentes(tipo, dia, lista)
            if c.situacao is Situacao.CONTADO
        ]
        if somar_meses(ultimo[0], janela) < min(elos, default=dia):
            break
        tamanho *= 2
    lidos.reverse()
    if calcular_sancao(tipo, dia, lista).suspensao_cabivel:
        suspensa = sessao.execute(
            base.where(
                a.suspensao_dias > 0,
                a.penalidade_anulada.is_not(True),
                a.data_infracao < dia,
                a.data_definitiva <= dia,
            )
            # Rule 6's order: latest infraction, then latest final day, then the smaller suspension.
            .order_by(a.data_infracao.desc(), a.data_definitiva.desc(), a.suspensao_dias, a.id.desc())
            .limit(1)
        ).first()
        if suspensa is not None and all(r.auto_id != suspensa.id for r in lidos):
            lidos.insert(0, _registro(suspensa))  # older than the pages: listed, so not among the omitted
    return AntecedentesAlcance(tuple(lidos), total - len(lidos))


def antecedentes(
    sessao: so.Session, operadora_id: int, dispositivo_codigo: str, excluir_auto_id: int | None = None
) -> list[Antecedente]:
    """The `Antecedente`s of `calcular_sancao` for this operator and provision (cancelled autos left out)."""
    return [
        x.antecedente for x in antecedentes_autos(sessao, operadora_id, dispositivo_codigo, excluir_auto_id)
    ]
