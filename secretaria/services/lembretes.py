"""Reminders on the home screen that are not queues of cases."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.models import DiaNaoUtil

MES_LEMBRETE_CALENDARIO = 12
"""From 1 December the administrator is reminded to register the coming year's decreed days."""


def lembrete_calendario(sessao: so.Session, hoje: date) -> str | None:
    """At the turn of the year (December, and January while still missing), when no decreed day of the year
    in question is registered: the municipal holidays are computed (REGRAS § 4), the pontos facultativos
    each year's decree sets are not."""
    if hoje.month == MES_LEMBRETE_CALENDARIO:
        ano = hoje.year + 1
    elif hoje.month == 1:
        ano = hoje.year
    else:
        return None
    existe = sessao.scalar(
        sa.select(DiaNaoUtil.id)
        .where(DiaNaoUtil.data >= date(ano, 1, 1), DiaNaoUtil.data <= date(ano, 12, 31))
        .limit(1)
    )
    if existe is not None:
        return None
    return (
        f"Nenhum dia sem expediente de {ano} está cadastrado. Cadastre os pontos facultativos decretados para "
        f"{ano} (Carnaval, véspera de Natal…) em Administração → Dias sem expediente: os feriados nacionais, "
        "estaduais e municipais já são considerados nos prazos."
    )
