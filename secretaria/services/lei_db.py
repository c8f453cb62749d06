"""What the law code needs from the database: the calendar, the URM table, citable provisions, antecedents.

`secretaria.lei` is pure; these readers turn rows into its inputs (a `Calendario`, `ValorUrm` rows,
`Antecedente`s) and its refusals into `ErroDominio`s with the form field they belong beside.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.erros import ErroLei
from secretaria.lei.prazos import Calendario
from secretaria.lei.sancoes import Antecedente
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


def antecedentes_autos(
    sessao: so.Session,
    operadora_id: int,
    dispositivo_codigo: str,
    excluir_auto_id: int | None = None,
    ate: date | None = None,
) -> tuple[AntecedenteAuto, ...]:
    """One query on `ix_auto_recidiva`: every non-cancelled auto of the operator for the provision.

    `ate` limits them to infractions on or before that day (later ones can never count). A dismissed auto
    ("encerrado" without a penalty decision day) is passed to the law as undecided, so it never counts.
    """
    a = AutoInfracao
    consulta = sa.select(
        a.id,
        a.ano,
        a.numero,
        a.data_lavratura,
        a.data_infracao,
        a.data_decisao,
        a.multa_ur,
        a.suspensao_dias,
        a.penalidade_anulada,
        a.fase,
    ).where(a.operadora_id == operadora_id, a.dispositivo_codigo == dispositivo_codigo, a.fase != "cancelado")
    if excluir_auto_id is not None:
        consulta = consulta.where(a.id != excluir_auto_id)
    if ate is not None:
        consulta = consulta.where(a.data_infracao <= ate)
    consulta = consulta.order_by(a.data_infracao, a.id)
    return tuple(
        AntecedenteAuto(
            auto_id=r.id,
            numero=f"{r.numero:04d}/{r.ano}",
            data_lavratura=r.data_lavratura,
            arquivado=r.fase == "encerrado" and r.data_decisao is None,
            antecedente=Antecedente(
                data_infracao=r.data_infracao,
                data_decisao=r.data_decisao,
                multa_ur=r.multa_ur or Decimal(0),
                suspensao_dias=r.suspensao_dias or 0,
                anulada=bool(r.penalidade_anulada),
            ),
        )
        for r in sessao.execute(consulta)
    )


def antecedentes(
    sessao: so.Session, operadora_id: int, dispositivo_codigo: str, excluir_auto_id: int | None = None
) -> list[Antecedente]:
    """The `Antecedente`s of `calcular_sancao` for this operator and provision (cancelled autos left out)."""
    return [
        x.antecedente for x in antecedentes_autos(sessao, operadora_id, dispositivo_codigo, excluir_auto_id)
    ]
