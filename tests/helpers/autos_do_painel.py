"""The autos a bar of the Painel stands for, read the plain way: every auto with its decision, appeal,
payment and first delivered intimação (plain SELECTs), tested here in Python — the tests' own reading of
what the list opened from a bar must hold."""

from __future__ import annotations

from datetime import date
from typing import Any

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import AutoInfracao, Decisao, Intimacao, Pagamento, Recurso
from secretaria.services.filas import dias_para_decidir
from secretaria.services.listas.nucleo import EtapaAuto
from secretaria.services.painel import DestinoLista
from secretaria.services.tramitacao import decisao_final


def autos_esperados(banco: Banco, destino: DestinoLista, hoje: date) -> set[int]:
    a, d, r, p = AutoInfracao, Decisao, Recurso, Pagamento
    with banco.leitura() as s:
        limite = dias_para_decidir(s)
        linhas = s.execute(
            sa.select(
                a.id,
                a.operadora_id,
                a.linha_id,
                a.tipo,
                a.dispositivo_codigo,
                a.data_infracao,
                a.fase,
                a.penalidade_anulada,
                a.multa_ur,
                a.prazo_defesa,
                a.prazo_recurso,
                d.data,
                d.resultado,
                d.multa_reais,
                r.protocolado_em,
                r.tempestivo,
                r.julgado_em,
                p.situacao,
                p.pago_em,
                p.inscrito_divida_em,
            )
            .outerjoin(d, d.auto_id == a.id)
            .outerjoin(r, r.decisao_id == d.id)
            .outerjoin(p, p.decisao_id == d.id)
        ).all()
        intimados = set(
            s.scalars(
                sa.select(Intimacao.auto_id).where(Intimacao.sucesso.is_(True), Intimacao.objeto == "auto")
            )
        )
    ids: set[int] = set()
    for x in linhas:
        if destino.desde is not None and x.data_infracao < destino.desde:
            continue
        if destino.ate is not None and x.data_infracao > destino.ate:
            continue
        if destino.operadora_id is not None and x.operadora_id != destino.operadora_id:
            continue
        if destino.linha_id is not None and x.linha_id != destino.linha_id:
            continue
        if destino.tipo is not None and x.tipo != destino.tipo:
            continue
        if destino.dispositivo is not None and x.dispositivo_codigo != destino.dispositivo:
            continue
        if destino.etapa is None or _na_etapa(x, destino.etapa, limite, x.id in intimados, hoje):
            ids.add(x.id)
    return ids


def _na_etapa(x: Any, e: EtapaAuto, limite: int, intimado: bool, hoje: date) -> bool:
    def no_periodo(dia: date | None) -> bool:
        return dia is not None and (e.desde is None or dia >= e.desde) and (e.ate is None or dia <= e.ate)

    decidido = x.resultado is not None
    ativo = x.fase != "cancelado"
    etapa = e.etapa
    if etapa == "multa_aplicada":
        # A fine annulled on appeal is applied nowhere (REGRAS § 5, "Figures in reports").
        vale = x.resultado == "aplicada" and not x.penalidade_anulada and ativo and x.multa_ur > 0
        return bool(vale and no_periodo(x.data))
    if etapa == "multa_paga":
        return bool(x.situacao == "pago" and no_periodo(x.pago_em))
    if etapa == "divida_ativa":
        return bool(x.situacao == "divida_ativa" and no_periodo(x.inscrito_divida_em))
    if etapa in ("recurso_tempestivo", "recurso_intempestivo"):
        return bool(
            x.protocolado_em is not None
            and no_periodo(x.protocolado_em)
            and (x.tempestivo is True) == (etapa == "recurso_tempestivo")
        )
    if etapa in ("decisao_no_prazo", "decisao_atrasada"):
        assert e.dias_para_decidir == limite
        return bool(
            decidido
            and x.prazo_defesa is not None
            and no_periodo(x.data)
            and ((x.data - x.prazo_defesa).days > limite) == (etapa == "decisao_atrasada")
        )
    if etapa == "intimado":
        return ativo and intimado
    if etapa == "decidido":
        return ativo and decidido
    assert etapa == "definitivo"
    final = decisao_final(
        resultado=x.resultado,
        data_decisao=x.data,
        prazo_recurso=x.prazo_recurso,
        recurso_tempestivo=x.tempestivo,
        recurso_julgado_em=x.julgado_em,
        dia=hoje,
    )
    return ativo and final is not None
