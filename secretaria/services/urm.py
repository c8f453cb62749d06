"""The URM table (role administrador to change it).

URM table rule (decided here): a decision stores the URM value it used, and the table must keep saying the
same thing about that day. So any change to the table — a new value, an edited date or value, a removal —
is refused when it would change the value in force on the day of a decision already recorded; the message
names the first such decision day. Everything else is allowed: back-filling years before the first
decision, correcting a typo in the act's name, removing a value no decision relied on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data
from secretaria.lei.urm import ValorUrm, formatar_reais, vigente_em
from secretaria.models import Decisao, ValorURM
from secretaria.services import auditoria
from secretaria.services.base import (
    Ator,
    ErroDominio,
    data_obrigatoria,
    exigir_papel,
    obter_registro,
    texto_obrigatorio,
    verificar_versao,
)

VALOR_URM_MAXIMO = Decimal("1e9")


@dataclass(frozen=True)
class LinhaUrm:
    id: int
    vigencia: date
    valor: Decimal
    ato: str
    versao: int
    decisoes: int
    """Decisions dated while this value was in force (such a row cannot change its value or start)."""


def tabela_urm(sessao: so.Session) -> list[LinhaUrm]:
    """The URM table, oldest first, with how many decisions each value served."""
    linhas = sessao.execute(
        sa.select(ValorURM.id, ValorURM.vigencia, ValorURM.valor, ValorURM.ato, ValorURM.versao).order_by(
            ValorURM.vigencia
        )
    ).all()
    resultado = []
    for i, r in enumerate(linhas):
        fim = linhas[i + 1].vigencia if i + 1 < len(linhas) else None
        resultado.append(
            LinhaUrm(r.id, r.vigencia, r.valor, r.ato, r.versao, _decisoes_entre(sessao, r.vigencia, fim))
        )
    return resultado


def valor_urm_em(sessao: so.Session, dia: date) -> Decimal:
    """The URM value in force on `dia` (REGRAS.md § 2); refused, naming the gap, when there is none."""
    linhas = sessao.execute(
        sa.select(ValorURM.vigencia, ValorURM.valor, ValorURM.ato).order_by(ValorURM.vigencia)
    )
    tabela = [ValorUrm(v, x, a) for v, x, a in linhas]
    try:
        return vigente_em(tabela, dia).valor
    except ErroLei as exc:
        raise ErroDominio(str(exc), "data") from None


def adicionar_valor_urm(
    uow: UnidadeDeTrabalho, ator: Ator, *, vigencia: date, valor: Decimal | str, ato: str
) -> int:
    exigir_papel(ator, "administrador", acao="alterar a tabela da URM")
    dia = data_obrigatoria(vigencia, "vigencia", "a data de início da vigência")
    quantia = _valor_urm(valor)
    texto_ato = texto_obrigatorio(ato, "ato", "o ato que fixou o valor (decreto, portaria…)", 200)
    with uow:
        s = uow.session
        existente = s.scalar(sa.select(ValorURM).where(ValorURM.vigencia == dia))
        if existente is not None:
            raise ErroDominio(
                f"Já há um valor da URM a partir de {formatar_data(dia)} ({formatar_reais(existente.valor)}, "
                f"{existente.ato}): altere esse valor em vez de cadastrar outro.",
                "vigencia",
            )
        antes = _pares(s)
        _conferir_decisoes(s, antes, sorted([*antes, (dia, quantia)]), "vigencia")
        registro = ValorURM(vigencia=dia, valor=quantia, ato=texto_ato, alterado_por=ator.login)
        s.add(registro)
        s.flush()
        auditoria.registrar(
            s, ator, "adicionar_valor_urm", "valor_urm", registro.id, None, auditoria.instantaneo(registro)
        )
        uow.commit()
        return int(registro.id)


def editar_valor_urm(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    valor_id: int,
    *,
    vigencia: date,
    valor: Decimal | str,
    ato: str,
    versao: int,
) -> int:
    exigir_papel(ator, "administrador", acao="alterar a tabela da URM")
    dia = data_obrigatoria(vigencia, "vigencia", "a data de início da vigência")
    quantia = _valor_urm(valor)
    texto_ato = texto_obrigatorio(ato, "ato", "o ato que fixou o valor (decreto, portaria…)", 200)
    with uow:
        s = uow.session
        registro = obter_registro(s, ValorURM, valor_id, "Valor da URM")
        verificar_versao(registro, versao, f"O valor da URM de {formatar_data(registro.vigencia)}")
        if (
            s.scalar(sa.select(ValorURM.id).where(ValorURM.vigencia == dia, ValorURM.id != registro.id))
            is not None
        ):
            raise ErroDominio(f"Já há outro valor da URM a partir de {formatar_data(dia)}.", "vigencia")
        antes_pares = _pares(s)
        depois_pares = sorted([p for p in antes_pares if p[0] != registro.vigencia] + [(dia, quantia)])
        _conferir_decisoes(s, antes_pares, depois_pares, "valor" if dia == registro.vigencia else "vigencia")
        antes = auditoria.instantaneo(registro)
        registro.vigencia, registro.valor, registro.ato = dia, quantia, texto_ato
        registro.alterado_por = ator.login
        s.flush()
        auditoria.registrar(
            s, ator, "editar_valor_urm", "valor_urm", registro.id, antes, auditoria.instantaneo(registro)
        )
        uow.commit()
        return int(registro.id)


def conferir_exclusao_valor_urm(sessao: so.Session, ator: Ator, valor_id: int) -> None:
    """The refusals `excluir_valor_urm` would raise, from a read session and writing nothing: what the screen
    runs before asking to confirm the deletion (which cannot be undone)."""
    _conferir_exclusao(sessao, ator, valor_id)


def _conferir_exclusao(s: so.Session, ator: Ator, valor_id: int) -> ValorURM:
    exigir_papel(ator, "administrador", acao="alterar a tabela da URM")
    registro: ValorURM = obter_registro(s, ValorURM, valor_id, "Valor da URM")
    antes_pares = _pares(s)
    _conferir_decisoes(s, antes_pares, [p for p in antes_pares if p[0] != registro.vigencia], "vigencia")
    return registro


def excluir_valor_urm(uow: UnidadeDeTrabalho, ator: Ator, valor_id: int) -> None:
    exigir_papel(ator, "administrador", acao="alterar a tabela da URM")
    with uow:
        s = uow.session
        registro = _conferir_exclusao(s, ator, valor_id)
        antes = auditoria.instantaneo(registro)
        s.delete(registro)
        s.flush()
        auditoria.registrar(s, ator, "excluir_valor_urm", "valor_urm", valor_id, antes, None)
        uow.commit()


def _pares(s: so.Session) -> list[tuple[date, Decimal]]:
    return [
        (v, x) for v, x in s.execute(sa.select(ValorURM.vigencia, ValorURM.valor).order_by(ValorURM.vigencia))
    ]


def _em_vigor(pares: list[tuple[date, Decimal]], dia: date) -> Decimal | None:
    valor = None
    for inicio, v in pares:
        if inicio <= dia:
            valor = v
    return valor


def _conferir_decisoes(
    s: so.Session, antes: list[tuple[date, Decimal]], depois: list[tuple[date, Decimal]], campo: str
) -> None:
    """Refuse when the change alters the value in force on the day of a recorded decision."""
    marcos = sorted({d for d, _ in antes} | {d for d, _ in depois})
    for i, inicio in enumerate(marcos):
        if _em_vigor(antes, inicio) == _em_vigor(depois, inicio):
            continue
        fim = marcos[i + 1] if i + 1 < len(marcos) else None
        primeira = s.scalar(sa.select(sa.func.min(Decisao.data)).where(*_no_periodo(inicio, fim)))
        if primeira is not None:
            valor = _em_vigor(antes, primeira)
            usado = f" com a URM de {formatar_reais(valor)}" if valor is not None else ""
            raise ErroDominio(
                f"Há decisão de {formatar_data(primeira)} calculada{usado}: a alteração mudaria o valor da URM "
                "em vigor nesse dia. A tabela deve continuar de acordo com as decisões já tomadas; "
                "cadastre o novo valor com vigência posterior à última decisão.",
                campo,
            )


def _no_periodo(inicio: date, fim: date | None) -> list[sa.ColumnElement[bool]]:
    conds = [Decisao.valor_urm.is_not(None), Decisao.data >= inicio]
    if fim is not None:
        conds.append(Decisao.data < fim)
    return conds


def _decisoes_entre(s: so.Session, inicio: date, fim: date | None) -> int:
    return int(s.scalar(sa.select(sa.func.count(Decisao.id)).where(*_no_periodo(inicio, fim))) or 0)


def _valor_urm(valor: Decimal | str | None) -> Decimal:
    if valor is None or (isinstance(valor, str) and not valor.strip()):
        raise ErroDominio("Informe o valor da URM em reais.", "valor")
    try:
        if isinstance(valor, Decimal):
            numero = valor
        else:
            texto = str(valor).strip().replace("R$", "").strip()
            if "," in texto:  # written the Brazilian way: 1.234,5678
                texto = texto.replace(".", "").replace(",", ".")
            numero = Decimal(texto)
        if not numero.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise ErroDominio(f"Valor da URM inválido: “{valor}”. Use um valor como 164,74.", "valor") from None
    if numero <= 0 or numero >= VALOR_URM_MAXIMO:
        raise ErroDominio("O valor da URM deve ser maior que zero.", "valor")
    if numero != numero.quantize(Decimal("0.0001")):
        raise ErroDominio("O valor da URM pode ter no máximo quatro casas decimais.", "valor")
    return numero.quantize(Decimal("0.0001"))
