"""Validity dates of the registries — a vehicle's inspection (vistoria) and licence, an operator's contract or
permission — read the same way everywhere: expired (the day after "válida até"), expiring within
`DIAS_AVISO` days ("vence em 12 dias"), missing, or in order.

The home queues (`services.filas`) and the lists (`services.listas`) select the rows in SQL with
`janela(hoje)`; this module only words a date already read and names its highlight code.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Literal

from secretaria.codigos import Delegacao
from secretaria.lei.formato import formatar_data

DIAS_AVISO = 30
"""How many days ahead an expiry is announced ("vence em N dias"): a fixed default, not a setting."""

Estado = Literal["vencida", "a_vencer", "sem_data", "em_dia"]
DESTAQUES: dict[Estado, str | None] = {
    "vencida": "alerta",
    "sem_data": "alerta",
    "a_vencer": "aviso",
    "em_dia": None,
}
"""Highlight code of each state in the lists (red, amber)."""


def janela(hoje: date) -> date:
    """The last day of the warning window: a validity up to this day (and not past) is "a vencer"."""
    return hoje + timedelta(days=DIAS_AVISO)


def estado(validade: date | None, hoje: date) -> Estado:
    if validade is None:
        return "sem_data"
    if validade < hoje:
        return "vencida"
    return "a_vencer" if validade <= janela(hoje) else "em_dia"


def quando_vence(validade: date, hoje: date) -> str:
    """ "vence hoje", "vence amanhã (01/12/2026)", "vence em 12 dias (12/12/2026)"."""
    dias = (validade - hoje).days
    if dias <= 0:
        return "vence hoje"
    if dias == 1:
        return f"vence amanhã ({formatar_data(validade)})"
    return f"vence em {dias} dias ({formatar_data(validade)})"


def texto(
    documento: str,
    validade: date | None,
    hoje: date,
    *,
    feminino: bool = True,
    sem_data: str = "",
    com_data: bool = True,
) -> str:
    """How one validity reads beside its record, "" when in order: "vistoria vencida em 31/10/2026",
    "licença vence em 12 dias (12/12/2026)", "contrato vencido em 03/10/2026", or `sem_data` when missing.
    Without `com_data` ("vistoria vencida", "licença vence em 12 dias"): for a list whose own column shows
    the date beside it."""
    situacao = estado(validade, hoje)
    if situacao == "sem_data":
        return sem_data
    if situacao == "em_dia" or validade is None:
        return ""
    if situacao == "vencida":
        vencida = "vencida" if feminino else "vencido"
        return f"{documento} {vencida} em {formatar_data(validade)}" if com_data else f"{documento} {vencida}"
    quando = quando_vence(validade, hoje)
    return f"{documento} {quando if com_data else quando.split(' (')[0]}"


def texto_vistoria(validade: date | None, hoje: date, *, com_data: bool = True) -> str:
    return texto("vistoria", validade, hoje, sem_data="sem data de vistoria", com_data=com_data)


def texto_licenca(validade: date | None, hoje: date, *, com_data: bool = True) -> str:
    return texto("licença", validade, hoje, sem_data="sem licença", com_data=com_data)


def texto_contrato(delegacao: str, validade: date | None, hoje: date, *, com_data: bool = True) -> str:
    """An operator's contract (concessão) or permission (permissão); no end date says nothing (a contract
    may run without a fixed term)."""
    if delegacao == Delegacao.PERMISSAO:
        return texto("permissão", validade, hoje, com_data=com_data)
    return texto("contrato", validade, hoje, feminino=False, com_data=com_data)


def pior(*estados: Estado) -> Estado:
    """The state a row shows when it has several dates: expired or missing before expiring before in order."""
    ordem: tuple[Estado, ...] = ("vencida", "sem_data", "a_vencer")
    return next((candidato for candidato in ordem if candidato in estados), "em_dia")


__all__ = [
    "DESTAQUES",
    "DIAS_AVISO",
    "Estado",
    "estado",
    "janela",
    "pior",
    "quando_vence",
    "texto",
    "texto_contrato",
    "texto_licenca",
    "texto_vistoria",
]
