"""The sanction panel and the auto's "next penalty" (art. 10, V): the law's calculation on the database's data.

Indexed queries for the antecedents — newest first, only as far back as the recidivism chain can reach (see
`lei_db.antecedentes_alcance`) — plus two key lookups (the provision and the URM value), then the pure
`calcular_sancao`: fast enough to run on every change of the auto form, however long the operator's history.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.lei.catalogo import LEITURA_ART7_PARAGRAFO2, TEXTO_ART7_PARAGRAFO2
from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.lei.sancoes import (
    Sancao,
    Situacao,
    calcular_sancao,
    classificar_antecedentes,
    conferir_penalidade,
)
from secretaria.lei.urm import urm_para_reais
from secretaria.models import AutoInfracao, DispositivoCatalogo, ValorURM
from secretaria.services.base import ErroDominio
from secretaria.services.definitividade import motivo_nao_definitiva
from secretaria.services.lei_db import (
    antecedentes_alcance,
    dispositivo_citado,
    dispositivo_citavel,
    valor_urm_em,
)


@dataclass(frozen=True)
class AntecedenteAvaliado:
    """One earlier auto, as the panel lists it: counted or not, and why."""

    auto_id: int
    numero: str
    data_infracao: date
    data_decisao: date | None
    """The Secretary's decision day (penalty applied), final or not."""
    multa_ur: Decimal
    suspensao_dias: int
    anulada: bool
    contado: bool
    situacao: str
    """`secretaria.lei.sancoes.Situacao` value, "arquivado" for a dismissed auto, or "nao_definitiva" for a
    decided one whose penalty was not yet final on the new fact's day (REGRAS § 3 rule 1)."""
    motivo: str
    definitiva_em: date | None = None
    """The day the penalty became (or, unappealed, becomes) final; None while it is not."""
    importado_de: str | None = None
    """The spreadsheet an auto of the office's past came from (the panel says "importado de ARQUIVO")."""
    definitiva_presumida: bool = False
    """The final day was presumed at the import, the book not saying it (REGRAS § 3 rule 1)."""


@dataclass(frozen=True)
class AvaliacaoSancao:
    operadora_id: int
    dispositivo_codigo: str
    dispositivo_rotulo: str
    dispositivo_texto: str
    tipo: str
    data_infracao: date
    sancao: Sancao
    antecedentes: tuple[AntecedenteAvaliado, ...]
    data_valor: date
    valor_urm: Decimal | None
    multa_min_reais: Decimal | None
    multa_max_reais: Decimal | None
    aviso_urm: str | None
    """Why there are no R$ amounts (no URM value in force on `data_valor`), else None."""
    nota_dispositivo: str | None
    """The provision's "(sic)" note, when its printed text is garbled."""
    leitura_paragrafo2: str | None
    """Art. 7º § 2º as printed and the reading applied, when the range is a recidivism one (n ≥ 1)."""
    omitidos: int = 0
    """Older autos not examined nor listed: outside any recidivism window, they cannot change the penalty."""

    @property
    def aviso_omitidos(self) -> str | None:
        """The line under the list of antecedents saying how many older autos were left out, else None."""
        if not self.omitidos:
            return None
        if self.omitidos == 1:
            return "1 auto anterior mais antigo, fora do prazo de reincidência, não listado."
        return f"{_milhar(self.omitidos)} autos anteriores mais antigos, fora do prazo de reincidência, não listados."

    @property
    def reincidencia(self) -> int:
        return self.sancao.reincidencia

    @property
    def contados(self) -> tuple[AntecedenteAvaliado, ...]:
        return tuple(a for a in self.antecedentes if a.contado)


def avaliar_sancao(
    sessao: so.Session,
    *,
    operadora_id: int,
    dispositivo_codigo: str,
    data_infracao: date,
    excluir_auto_id: int | None = None,
    data_valor: date | None = None,
    tipo: str | None = None,
) -> AvaliacaoSancao:
    """The penalty the law allows for this infraction, with the antecedents that count and those that don't.

    Refused (ErroDominio on `dispositivo_codigo`) for a provision that cannot be cited. R$ amounts use the URM
    of `data_valor` (default today); with no value in force they are None and `aviso_urm` says why.
    `tipo`: for an auto already drawn up, the tipo it was drawn up with; the provision is then not checked
    again as citable (a contractual provision deactivated since stays on the cases that cite it).
    """
    dia_valor = data_valor or relogio.hoje()
    # One round trip for the provision (then found by `sessao.get` below) and the URM value in force.
    chave = (dispositivo_codigo or "").strip().upper()
    urm_vigente = (
        sa.select(ValorURM.valor)
        .where(ValorURM.vigencia <= dia_valor)
        .order_by(ValorURM.vigencia.desc())
        .limit(1)
        .scalar_subquery()
    )
    linha = sessao.execute(
        sa.select(DispositivoCatalogo, urm_vigente).where(DispositivoCatalogo.codigo == chave)
    ).first()
    valor_lido = linha[1] if linha is not None else None
    if tipo is None:
        dispositivo = dispositivo_citavel(sessao, dispositivo_codigo)
    else:
        dispositivo = dispositivo_citado(sessao, dispositivo_codigo, tipo)
    alcance = antecedentes_alcance(
        sessao,
        operadora_id,
        dispositivo.codigo,
        dispositivo.tipo,
        data_infracao,
        excluir_auto_id=excluir_auto_id,
    )
    registros = alcance.registros
    lista = [r.antecedente for r in registros]
    sancao = calcular_sancao(dispositivo.tipo, data_infracao, lista)
    if alcance.omitidos:
        sancao = replace(sancao, fundamentos=_com_omitidos(sancao.fundamentos, alcance.omitidos))
    classificacoes = classificar_antecedentes(dispositivo.tipo, data_infracao, lista)
    avaliados = []
    for r, c in zip(registros, classificacoes, strict=True):
        motivo = c.explicacao
        situacao = str(c.situacao)
        infracao = f"infração de {formatar_data(r.antecedente.data_infracao)}"
        if r.arquivado:
            situacao = "arquivado"
            motivo = f"{infracao}: não conta — auto arquivado"
        elif (
            r.data_decisao is not None
            and not r.antecedente.anulada
            and r.antecedente.data_infracao < data_infracao
            and c.situacao in (Situacao.SEM_DECISAO, Situacao.DECIDIDO_DEPOIS)
        ):
            pendencia = motivo_nao_definitiva(
                data_decisao=r.data_decisao,
                data_definitiva=r.antecedente.data_decisao,
                prazo_recurso=r.prazo_recurso,
                recurso_pendente=r.recurso_pendente,
                dia=data_infracao,
            )
            if pendencia is not None:
                situacao = "nao_definitiva"
                motivo = f"{infracao}: não conta — {pendencia} (art. 7º, caput, e § 3º)"
        avaliados.append(
            AntecedenteAvaliado(
                auto_id=r.auto_id,
                numero=r.numero,
                data_infracao=r.antecedente.data_infracao,
                data_decisao=r.data_decisao,
                multa_ur=r.antecedente.multa_ur,
                suspensao_dias=r.antecedente.suspensao_dias,
                anulada=r.antecedente.anulada,
                contado=c.contado,
                situacao=situacao,
                motivo=f"AI nº {r.numero}{_origem(r.importado_de, r.definitiva_presumida)} — {motivo}",
                definitiva_em=r.antecedente.data_decisao,
                importado_de=r.importado_de,
                definitiva_presumida=r.definitiva_presumida,
            )
        )
    valor: Decimal | None = valor_lido
    aviso: str | None = None
    if valor is None:
        try:
            valor = valor_urm_em(sessao, dia_valor)
        except ErroDominio as exc:
            valor, aviso = None, exc.mensagem
    return AvaliacaoSancao(
        operadora_id=operadora_id,
        dispositivo_codigo=dispositivo.codigo,
        dispositivo_rotulo=dispositivo.rotulo,
        dispositivo_texto=dispositivo.texto,
        tipo=dispositivo.tipo,
        data_infracao=data_infracao,
        sancao=sancao,
        antecedentes=tuple(avaliados),
        data_valor=dia_valor,
        valor_urm=valor,
        multa_min_reais=None if valor is None else urm_para_reais(sancao.multa_min_ur, valor),
        multa_max_reais=None if valor is None else urm_para_reais(sancao.multa_max_ur, valor),
        aviso_urm=aviso,
        nota_dispositivo=dispositivo.nota or None,
        leitura_paragrafo2=(
            f"{TEXTO_ART7_PARAGRAFO2}\n{LEITURA_ART7_PARAGRAFO2}" if sancao.reincidencia >= 1 else None
        ),
        omitidos=alcance.omitidos,
    )


def _origem(importado_de: str | None, presumida: bool = False) -> str:
    """ " (importado de livros-2025.xlsx)" for an auto of the office's past, else nothing; with the
    presumption the import made of its final day (REGRAS § 3 rule 1)."""
    if not importado_de:
        return ""
    return (
        f" (definitiva presumida: importado de {importado_de})"
        if presumida
        else f" (importado de {importado_de})"
    )


def _milhar(n: int) -> str:
    """1788 → "1.788" (pt-BR thousands separator)."""
    return f"{n:,}".replace(",", ".")


def _com_omitidos(fundamentos: tuple[str, ...], omitidos: int) -> tuple[str, ...]:
    """The grounds say that the older autos, not examined one by one, lie outside every recidivism window."""
    quantos = (
        "1 auto anterior mais antigo"
        if omitidos == 1
        else f"{_milhar(omitidos)} autos anteriores mais antigos"
    )
    linha = (
        f"Art. 7º, § 4º: {quantos} ao mesmo dispositivo, fora do prazo de reincidência de qualquer infração "
        f"acima, não {'altera' if omitidos == 1 else 'alteram'} o nível nem a faixa."
    )
    return (*fundamentos[:2], linha, *fundamentos[2:])


def texto_proxima_penalidade(avaliacao: AvaliacaoSancao) -> str:
    """The text printed on the auto as "a próxima penalidade a ser aplicada" (art. 10, V)."""
    return redigir_proxima_penalidade(
        avaliacao.sancao, avaliacao.dispositivo_rotulo, avaliacao.tipo, avaliacao.data_infracao
    )


def redigir_proxima_penalidade(s: Sancao, dispositivo_rotulo: str, tipo: str, data_infracao: date) -> str:
    """Art. 10, V, from a computed sanction (also used by the demo generator, which has no session).

    It is the penalty the Secretary may apply for THIS infraction: the fine range of its recidivism level and,
    where § 5º allows it, the suspension, which "poderá ser aplicada" (never printed as certain), cumulative with
    the fine (§ 8º): 1 to 10 days the first time (§ 6º), exactly double the last one after a suspension (§ 7º).
    The antecedents are those punished up to the day of the fact (§ 3º), so that is the day the text names.
    """
    nivel = f"{s.reincidencia}ª reincidência" if s.reincidencia else "infração primária"
    texto = f"Multa de {_faixa_urm(s.multa_min_ur, s.multa_max_ur)} URM ({nivel})"
    if s.suspensao_min_dias is not None and s.suspensao_max_dias is not None:
        if s.suspensao_min_dias == s.suspensao_max_dias:
            texto += (
                f", podendo ser aplicada, cumulativamente, {_suspensao_em_dobro(s)} (art. 7º, §§ 5º, 7º e 8º)"
            )
        else:
            texto += (
                f", podendo ser aplicada, cumulativamente, suspensão de {s.suspensao_min_dias} a "
                f"{_dias(s.suspensao_max_dias)} (art. 7º, §§ 5º, 6º e 8º)"
            )
    return (
        f"{texto} — {dispositivo_rotulo}, tipo {tipo}; art. 7º da Lei Municipal "
        "nº 2.413/1978, considerando as infrações anteriores da operadora ao mesmo dispositivo autuadas e "
        f"punidas em definitivo até a data desta infração ({formatar_data(data_infracao)})."
    )


def _suspensao_em_dobro(s: Sancao) -> str:
    """§ 7º as art. 10, V states it (REGRAS § 5): a capped figure as capped, "suspensão de 30 dias (o dobro
    da anterior, 36 dias, limitado a 30 pelo art. 7º, II)", never "o dobro" beside a number that is not."""
    assert s.suspensao_max_dias is not None
    dias = s.suspensao_max_dias
    anterior = s.suspensao_anterior_dias
    if anterior is None:  # a fixed length that is not § 7º's double (never produced by the law layer today)
        return f"suspensão de exatamente {_dias(dias)}"
    if 2 * anterior > dias:
        return (
            f"suspensão de {_dias(dias)} (o dobro da anterior, {_dias(2 * anterior)}, limitado a {dias} pelo "
            "art. 7º, II)"
        )
    return f"suspensão de exatamente {_dias(dias)}, o dobro da anterior"


def _faixa_urm(minimo: Decimal, maximo: Decimal) -> str:
    return (
        formatar_decimal(minimo)
        if minimo == maximo
        else f"{formatar_decimal(minimo)} a {formatar_decimal(maximo)}"
    )


def _dias(quantidade: int) -> str:
    return f"{quantidade} {'dia' if quantidade == 1 else 'dias'}"


def sancao_do_auto(s: so.Session, auto: AutoInfracao, data_valor: date | None = None) -> Sancao:
    """The range for the auto's infraction day, with the antecedents as they stand now (the auto left out).

    The tipo is the one the auto was drawn up with: a provision since deactivated in the catalogue stays
    on the cases that cite it (only new autos can no longer cite it).
    """
    return avaliar_sancao(
        s,
        operadora_id=auto.operadora_id,
        dispositivo_codigo=auto.dispositivo_codigo,
        data_infracao=auto.data_infracao,
        excluir_auto_id=auto.id,
        data_valor=data_valor,
        tipo=auto.tipo,
    ).sancao


def conferir_penalidade_nos_campos(sancao: Sancao, multa_ur: Decimal, suspensao_dias: int) -> None:
    """`conferir_penalidade`, with the refusal placed beside the field that is wrong."""
    try:
        conferir_penalidade(sancao, multa_ur, 0)
    except ErroLei as exc:
        raise ErroDominio(str(exc), "multa_ur") from exc
    try:
        conferir_penalidade(sancao, multa_ur, suspensao_dias)
    except ErroLei as exc:
        raise ErroDominio(str(exc), "suspensao_dias") from exc
