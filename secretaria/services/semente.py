"""What every database holds from its first opening: the law's catalogue and the letterhead row."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlalchemy as sa

from secretaria.lei.catalogo import dispositivos
from secretaria.models import DadosOrgao, DispositivoCatalogo

if TYPE_CHECKING:
    from secretaria.db import Banco


def semear_basico(banco: Banco) -> None:
    """Insert the law's provisions that are missing, and the letterhead row; idempotent and cheap."""
    with banco.fabrica() as sessao:
        existentes = set(sessao.scalars(sa.select(DispositivoCatalogo.codigo)))
        faltantes = [d for d in dispositivos() if d.codigo not in existentes]
        for d in faltantes:
            sessao.add(
                DispositivoCatalogo(
                    codigo=d.codigo,
                    origem="lei",
                    artigo=d.artigo,
                    inciso=d.inciso,
                    rotulo=d.rotulo,
                    sujeito=d.sujeito,
                    natureza=d.natureza,
                    texto=d.texto,
                    nota=d.nota or None,
                    tipo=d.tipo,
                    alterado_por="sistema",
                )
            )
        if sessao.get(DadosOrgao, 1) is None:
            sessao.add(DadosOrgao(id=1, alterado_por="sistema"))
        if sessao.new:
            sessao.commit()
