"""The days without office hours that deadlines skip (role administrador to change them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.formato import formatar_data
from secretaria.models import DiaNaoUtil
from secretaria.services import auditoria, revisao_prazos
from secretaria.services.base import (
    Ator,
    ErroDominio,
    data_obrigatoria,
    exigir_papel,
    obter_registro,
    texto_obrigatorio,
    texto_opcional,
)


@dataclass(frozen=True)
class DiaNaoUtilResumo:
    id: int
    data: date
    descricao: str
    ato: str
    versao: int


def dias_nao_uteis(sessao: so.Session, ano: int | None = None) -> list[DiaNaoUtilResumo]:
    """The administrator's days without office hours (national and RS holidays come from `holidays`)."""
    consulta = sa.select(DiaNaoUtil).order_by(DiaNaoUtil.data)
    if ano is not None:
        consulta = consulta.where(DiaNaoUtil.data >= date(ano, 1, 1), DiaNaoUtil.data <= date(ano, 12, 31))
    return [
        DiaNaoUtilResumo(d.id, d.data, d.descricao, d.ato or "", d.versao) for d in sessao.scalars(consulta)
    ]


def adicionar_dia_nao_util(
    uow: UnidadeDeTrabalho, ator: Ator, *, data: date, descricao: str, ato: str = ""
) -> int:
    """A decreed "ponto facultativo" or another day without office hours (the municipal holidays are computed).

    Deadlines already counted that it affects move later (`revisao_prazos`), never earlier."""
    exigir_papel(ator, "administrador", acao="alterar o calendário de dias sem expediente")
    dia = data_obrigatoria(data, "data", "a data")
    texto = texto_obrigatorio(descricao, "descricao", "a descrição (ex.: Ponto facultativo — Carnaval)", 200)
    texto_ato = texto_opcional(ato, "ato", "o ato", 200)
    with uow:
        s = uow.session
        existente = s.scalar(sa.select(DiaNaoUtil).where(DiaNaoUtil.data == dia))
        if existente is not None:
            raise ErroDominio(f"{formatar_data(dia)} já está no calendário: {existente.descricao}.", "data")
        registro = DiaNaoUtil(data=dia, descricao=texto, ato=texto_ato or None, alterado_por=ator.login)
        s.add(registro)
        s.flush()
        auditoria.registrar(
            s,
            ator,
            "adicionar_dia_nao_util",
            "dia_nao_util",
            registro.id,
            None,
            auditoria.instantaneo(registro),
        )
        revisao_prazos.rever_prazos(s, ator, dia)
        uow.commit()
        return registro.id


def remover_dia_nao_util(uow: UnidadeDeTrabalho, ator: Ator, dia_id: int) -> None:
    exigir_papel(ator, "administrador", acao="alterar o calendário de dias sem expediente")
    with uow:
        s = uow.session
        registro = obter_registro(s, DiaNaoUtil, dia_id, "Dia sem expediente")
        antes = auditoria.instantaneo(registro)
        s.delete(registro)
        s.flush()
        auditoria.registrar(s, ator, "remover_dia_nao_util", "dia_nao_util", dia_id, antes, None)
        uow.commit()
