"""What every database holds from its first opening: the law's catalogue and the letterhead row."""

from __future__ import annotations

import sqlalchemy as sa

from secretaria.db import Banco, abrir_banco
from secretaria.lei.catalogo import Dispositivo, dispositivos
from secretaria.models import DadosOrgao, DispositivoCatalogo
from secretaria.services import auditoria
from secretaria.services.base import SISTEMA


def abrir_e_semear(url: str | None = None) -> Banco:
    """Open (create or upgrade) the database for use and seed what every database holds.

    What every program path that opens a database for work calls (the command line, the window, the test
    fixtures, the benchmark); `db.abrir_banco(url, migrar=False)` opens one to read as it is, unseeded.
    """
    banco = abrir_banco(url)
    semear_basico(banco)
    return banco


def _campos_da_lei(d: Dispositivo) -> dict[str, object]:
    return {
        "artigo": d.artigo,
        "inciso": d.inciso,
        "rotulo": d.rotulo,
        "sujeito": str(d.sujeito),
        "natureza": str(d.natureza),
        "texto": d.texto,
        "nota": d.nota or None,
    }


def semear_basico(banco: Banco) -> None:
    """Keep the law's 55 provisions in the database as the catalogue file states them; add the letterhead row.

    Idempotent and cheap (one query when nothing changed). The text and notes of law rows follow the file,
    so a corrected note reaches existing databases; a law row's tipo is the law's, except 1-X's, which
    the administrator sets (and which is never overwritten here).
    """
    with banco.fabrica() as sessao:
        existentes = {d.codigo: d for d in sessao.scalars(sa.select(DispositivoCatalogo))}
        inseridos: list[str] = []
        for d in dispositivos():
            campos = _campos_da_lei(d)
            linha = existentes.get(d.codigo)
            if linha is None:
                sessao.add(
                    DispositivoCatalogo(
                        codigo=d.codigo, origem="lei", tipo=d.tipo, alterado_por="sistema", **campos
                    )
                )
                continue
            mudou = {k: v for k, v in campos.items() if getattr(linha, k) != v}
            if d.tipo is not None and linha.tipo != d.tipo:
                mudou["tipo"] = d.tipo
            if mudou:
                antes = {k: getattr(linha, k) for k in mudou}
                for chave, valor in mudou.items():
                    setattr(linha, chave, valor)
                linha.alterado_por = "sistema"
                auditoria.registrar(
                    sessao, SISTEMA, "atualizar_dispositivo_lei", "dispositivo", d.codigo, antes, mudou
                )
        if inseridos:
            auditoria.registrar(
                sessao, SISTEMA, "semear_catalogo_lei", "dispositivo", None, None, {"codigos": inseridos}
            )
        if sessao.get(DadosOrgao, 1) is None:
            sessao.add(DadosOrgao(id=1, alterado_por="sistema"))
        if sessao.new or sessao.dirty:
            sessao.commit()
