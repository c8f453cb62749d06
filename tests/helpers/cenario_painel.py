"""A year of cases for the Painel's tests (services and screen): both operators, several provisions, fines
paid and in dívida ativa, appeals timely and late, undecided autos (two old enough for the prescription
warning) and a chain of final penalties still open today. Built through `fabrica.Roteiro` (30/11/2026)."""

from __future__ import annotations

from datetime import date

from secretaria.services.execucao import PedidoPagamento, registrar_pagamento
from tests.helpers.fabrica import ATORES, Roteiro


def cenario(r: Roteiro) -> dict[str, int]:
    """Autos over the year on both operators and several provisions: decided, paid, in dívida ativa, an
    appeal timely and one late, undecided ones, an old undecided one (prescription warning) and a chain of
    final penalties of one provision (recidivism)."""
    c = r.cidade
    ids: dict[str, int] = {}
    # A chain of final penalties of 1-I (tipo E, 8-month window) on the first operator, still open today.
    for i, (dia, multa) in enumerate(
        ((date(2026, 2, 2), "3.00"), (date(2026, 5, 4), "10.00"), (date(2026, 7, 1), "10.00"))
    ):
        ids[f"cadeia{i}"] = r.decidido(data_infracao=dia, multa=multa, dispositivo="1-I").id
    a = r.decidido(data_infracao=date(2026, 2, 10), multa="3.50", dispositivo="2-I").id
    registrar_pagamento(
        r.uow(), ATORES["protocolo"], PedidoPagamento(auto_id=a, situacao="pago", data=date(2026, 4, 20))
    )
    ids["pago"] = a
    b = r.decidido(data_infracao=date(2026, 1, 5), multa="4.00", dispositivo="2-I", dias_ate_decisao=70).id
    registrar_pagamento(
        r.uow(),
        ATORES["protocolo"],
        PedidoPagamento(auto_id=b, situacao="divida_ativa", data=date(2026, 9, 1)),
    )
    ids["divida"] = b
    d = r.decidido(
        data_infracao=date(2026, 8, 3),
        multa="0.20",
        dispositivo="1-VI",
        operadora_id=c.operadora2_id,
        notificar=False,
    ).id
    r.intimar(d, date(2026, 9, 10), objeto="decisao")
    r.recorrer(d, date(2026, 9, 15))
    r.julgar(d, date(2026, 10, 1), "negado")
    ids["recurso_tempestivo"] = d
    e = r.decidido(
        data_infracao=date(2026, 3, 3), multa="0.25", dispositivo="1-VI", operadora_id=c.operadora2_id
    ).id
    r.recorrer(e, date(2026, 5, 20))
    ids["recurso_tardio"] = e
    f = r.lavrar(data_infracao=date(2026, 10, 5), dispositivo="1-VI", operadora_id=c.operadora2_id).id
    r.intimar(f, date(2026, 10, 9))
    r.decidir(f, date(2026, 11, 20), resultado="arquivado")
    ids["arquivado"] = f
    for dia in (date(2026, 11, 2), date(2026, 11, 3), date(2025, 12, 15)):
        r.lavrar(data_infracao=dia, dispositivo="1-II")
    ids["antigo"] = r.lavrar(
        data_infracao=date(2022, 10, 1), dispositivo="1-II", data_lavratura=date(2022, 10, 1)
    ).id
    ids["quase"] = r.lavrar(
        data_infracao=date(2023, 3, 1), dispositivo="1-II", data_lavratura=date(2023, 3, 1)
    ).id
    return ids
