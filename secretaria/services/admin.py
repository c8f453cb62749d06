"""Administration (role administrador): URM table, non-business days, catalogue, letterhead, settings, audit log.

URM table rule (decided here): a decision stores the URM value it used, and the table must keep saying the
same thing about that day. So any change to the table — a new value, an edited date or value, a removal —
is refused when it would change the value in force on the day of a decision already recorded; the message
names the first such decision day. Everything else is allowed: back-filling years before the first
decision, correcting a typo in the act's name, removing a value no decision relied on.

Catalogue rule (REGRAS.md § 1): the 55 provisions of the law are never retyped or deleted; only Art. 1º, X,
whose tipo the copy of the law lost, gets its tipo once, with the act that decided it. Contractual
provisions (origem "contrato" or "ato") are added with their tipo; one already cited by an auto or a
representação is never deleted or retyped (deactivate it instead: it stays on the old cases and cannot be
cited again).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.catalogo import TIPOS
from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data
from secretaria.lei.urm import ValorUrm, formatar_reais, vigente_em
from secretaria.models import (
    Auditoria,
    AutoInfracao,
    Configuracao,
    DadosOrgao,
    Decisao,
    DiaNaoUtil,
    DispositivoCatalogo,
    Representacao,
    ValorURM,
)
from secretaria.services import auditoria, listas, revisao_prazos
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)

__all__ = [
    "CHAVE_COPIAS_BACKUP",
    "CHAVE_DIAS_DECISAO",
    "CHAVE_PRAZO_PAGAMENTO",
    "CODIGO_1X",
    "Configuracoes",
    "DadosDoOrgao",
    "DiaNaoUtilResumo",
    "DispositivoResumo",
    "LinhaUrm",
    "OrgaoDetalhe",
    "PaginaAuditoria",
    "RegistroAuditoria",
    "adicionar_dia_nao_util",
    "adicionar_dispositivo_contratual",
    "adicionar_valor_urm",
    "consultar_auditoria",
    "definir_tipo_1x",
    "definir_tipo_dispositivo",
    "desativar_dispositivo",
    "dias_nao_uteis",
    "editar_valor_urm",
    "entidades_auditadas",
    "excluir_dispositivo",
    "excluir_valor_urm",
    "listar_dispositivos",
    "obter_configuracoes",
    "obter_dados_orgao",
    "reativar_dispositivo",
    "registro_auditoria",
    "remover_dia_nao_util",
    "salvar_configuracoes",
    "salvar_dados_orgao",
    "tabela_urm",
    "valor_urm_em",
]

CODIGO_1X = "1-X"
CARGO_SECRETARIO_PADRAO = "Secretário Municipal de Serviços Urbanos"
CHAVE_COPIAS_BACKUP = "backup_manter"
"""The key `services.backup.copias_mantidas` reads."""
COPIAS_BACKUP_PADRAO, COPIAS_BACKUP_MAXIMO = 7, 365
CHAVE_DIAS_DECISAO = "dias_para_decidir"
CHAVE_PRAZO_PAGAMENTO = "prazo_pagamento_dias"
PRAZO_PAGAMENTO_PADRAO, PRAZO_PAGAMENTO_MAXIMO = 30, 365
"""The key `services.filas.dias_para_decidir` reads (an intimated auto is overdue for decision this many
days after its defence deadline)."""
DIAS_DECISAO_PADRAO, DIAS_DECISAO_MAXIMO = 30, 365
VALOR_URM_MAXIMO = Decimal("1e9")
_CODIGO_CONTRATUAL = re.compile(r"[A-Z]{1,10}-[0-9A-Z]{1,12}(\.[0-9A-Z]{1,6})?")
_ORIGENS_CONTRATUAIS = {"contrato": "Contrato", "ato": "Ato"}
_SUJEITOS = ("concessionaria", "empregado", "condutor")
_NATUREZAS = ("dever", "proibicao")


def _exigir_admin(ator: Ator, acao: str) -> None:
    exigir_papel(ator, "administrador", acao=acao)


# -- URM table ------------------------------------------------------------------------------------


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
    _exigir_admin(ator, "alterar a tabela da URM")
    dia = _data(vigencia, "vigencia", "a data de início da vigência")
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
    _exigir_admin(ator, "alterar a tabela da URM")
    dia = _data(vigencia, "vigencia", "a data de início da vigência")
    quantia = _valor_urm(valor)
    texto_ato = texto_obrigatorio(ato, "ato", "o ato que fixou o valor (decreto, portaria…)", 200)
    with uow:
        s = uow.session
        registro = _obter(s, ValorURM, valor_id, "Valor da URM")
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


def excluir_valor_urm(uow: UnidadeDeTrabalho, ator: Ator, valor_id: int) -> None:
    _exigir_admin(ator, "alterar a tabela da URM")
    with uow:
        s = uow.session
        registro = _obter(s, ValorURM, valor_id, "Valor da URM")
        antes_pares = _pares(s)
        _conferir_decisoes(s, antes_pares, [p for p in antes_pares if p[0] != registro.vigencia], "vigencia")
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
        raise ErroDominio(f"Valor da URM inválido: “{valor}”. Use um valor como 164,7400.", "valor") from None
    if numero <= 0 or numero >= VALOR_URM_MAXIMO:
        raise ErroDominio("O valor da URM deve ser maior que zero.", "valor")
    if numero != numero.quantize(Decimal("0.0001")):
        raise ErroDominio("O valor da URM pode ter no máximo quatro casas decimais.", "valor")
    return numero.quantize(Decimal("0.0001"))


# -- non-business days ----------------------------------------------------------------------------


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
    _exigir_admin(ator, "alterar o calendário de dias sem expediente")
    dia = _data(data, "data", "a data")
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
    _exigir_admin(ator, "alterar o calendário de dias sem expediente")
    with uow:
        s = uow.session
        registro = _obter(s, DiaNaoUtil, dia_id, "Dia sem expediente")
        antes = auditoria.instantaneo(registro)
        s.delete(registro)
        s.flush()
        auditoria.registrar(s, ator, "remover_dia_nao_util", "dia_nao_util", dia_id, antes, None)
        uow.commit()


# -- catalogue ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DispositivoResumo:
    codigo: str
    origem: str
    rotulo: str
    tipo: str | None
    texto: str
    nota: str | None
    ato_tipo: str | None
    ativo: bool
    versao: int
    citacoes: int
    """Autos and representações that cite it."""

    @property
    def da_lei(self) -> bool:
        return self.origem == "lei"


def listar_dispositivos(sessao: so.Session, *, incluir_inativos: bool = True) -> list[DispositivoResumo]:
    """The catalogue: the law's 55 provisions in the law's order, then the contractual ones by code."""
    d = DispositivoCatalogo
    autos = sa.select(AutoInfracao.dispositivo_codigo.label("c"), sa.func.count().label("n")).group_by(
        AutoInfracao.dispositivo_codigo
    )
    reps = (
        sa.select(Representacao.dispositivo_codigo.label("c"), sa.func.count().label("n"))
        .where(Representacao.dispositivo_codigo.is_not(None))
        .group_by(Representacao.dispositivo_codigo)
    )
    citacoes: dict[str, int] = {}
    for c, n in sessao.execute(sa.union_all(autos, reps)):
        citacoes[c] = citacoes.get(c, 0) + n
    consulta = sa.select(d)
    if not incluir_inativos:
        consulta = consulta.where(d.ativo.is_(True))
    registros = sessao.scalars(consulta).all()
    registros = sorted(
        registros,
        key=lambda r: (
            (0, r.artigo or 0, _romano(r.inciso or ""), "") if r.origem == "lei" else (1, 0, 0, r.codigo)
        ),
    )
    return [
        DispositivoResumo(
            r.codigo,
            r.origem,
            r.rotulo,
            r.tipo,
            r.texto,
            r.nota,
            r.ato_tipo,
            r.ativo,
            r.versao,
            citacoes.get(r.codigo, 0),
        )
        for r in registros
    ]


def _romano(texto: str) -> int:
    valores = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for atual, seguinte in zip(texto, [*texto[1:], ""], strict=True):
        v = valores.get(atual, 0)
        total += -v if seguinte and valores.get(seguinte, 0) > v else v
    return total


def definir_tipo_1x(uow: UnidadeDeTrabalho, ator: Ator, *, tipo: str, ato: str) -> None:
    """Set the tipo of Art. 1º, X (lost in the copy of the law), once, with the act that decided it."""
    definir_tipo_dispositivo(uow, ator, codigo=CODIGO_1X, tipo=tipo, ato=ato)


def definir_tipo_dispositivo(uow: UnidadeDeTrabalho, ator: Ator, *, codigo: str, tipo: str, ato: str) -> None:
    """Type (or retype) a provision. Refused for the law's provisions, except Art. 1º, X's first typing;
    a contractual provision may be retyped only while no case cites it."""
    _exigir_admin(ator, "definir o tipo de infração de um dispositivo")
    tipo_limpo = _tipo(tipo)
    texto_ato = texto_obrigatorio(ato, "ato", "o ato que decidiu o tipo (ex.: Portaria SMSU nº …)", 300)
    with uow:
        s = uow.session
        d = _dispositivo(s, codigo)
        if d.origem == "lei":
            if d.codigo != CODIGO_1X:
                raise ErroDominio(
                    f"O tipo do {d.rotulo} é fixado pela Lei nº 2.413/1978 (tipo {d.tipo}) e não pode ser alterado.",
                    "tipo",
                )
            if d.tipo is not None:
                raise ErroDominio(
                    f"O tipo do {d.rotulo} já foi definido (tipo {d.tipo}, {d.ato_tipo}) e não pode ser "
                    "alterado: autos podem tê-lo aplicado.",
                    "tipo",
                )
        elif d.tipo != tipo_limpo and _citacoes(s, d.codigo):
            raise ErroDominio(
                f"O dispositivo {d.rotulo} já foi citado em autos ou representações: seu tipo não pode mudar. "
                "Desative-o e cadastre um novo dispositivo com o tipo correto.",
                "tipo",
            )
        antes = auditoria.instantaneo(d)
        d.tipo, d.ato_tipo, d.alterado_por = tipo_limpo, texto_ato, ator.login
        s.flush()
        auditoria.registrar(
            s, ator, "definir_tipo_dispositivo", "dispositivo", d.codigo, antes, auditoria.instantaneo(d)
        )
        uow.commit()


def adicionar_dispositivo_contratual(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    origem: str,
    codigo: str,
    texto: str,
    tipo: str,
    ato: str,
    rotulo: str = "",
    sujeito: str = "concessionaria",
    natureza: str = "dever",
) -> str:
    """A provision of the concession contract or of another act (art. 7º caput), e.g. "CT-01", with its tipo."""
    _exigir_admin(ator, "cadastrar dispositivos contratuais")
    if origem not in _ORIGENS_CONTRATUAIS:
        raise ErroDominio("Escolha a origem: contrato ou ato normativo.", "origem")
    chave = (codigo or "").strip().upper()
    if not chave:
        raise ErroDominio("Informe o código do dispositivo, como CT-01.", "codigo")
    if not _CODIGO_CONTRATUAL.fullmatch(chave):
        raise ErroDominio(
            f"Código “{codigo}” inválido: use letras, hífen e números, como CT-01 (os códigos dos artigos da lei, "
            "como 1-XVI, são reservados).",
            "codigo",
        )
    texto_limpo = texto_obrigatorio(texto, "texto", "o texto do dispositivo", 10_000)
    tipo_limpo = _tipo(tipo)
    texto_ato = texto_obrigatorio(ato, "ato", "o contrato ou ato de onde vem o dispositivo", 300)
    rotulo_limpo = (
        texto_opcional(rotulo, "rotulo", "o rótulo", 120) or f"{_ORIGENS_CONTRATUAIS[origem]} {chave}"
    )
    if sujeito not in _SUJEITOS:
        raise ErroDominio("Escolha quem deve cumprir: concessionária, empregado ou condutor.", "sujeito")
    if natureza not in _NATUREZAS:
        raise ErroDominio("Escolha a natureza: dever ou proibição.", "natureza")
    with uow:
        s = uow.session
        existente = s.get(DispositivoCatalogo, chave)
        if existente is not None:
            raise ErroDominio(f"Já existe o dispositivo {chave} ({existente.rotulo}).", "codigo")
        d = DispositivoCatalogo(
            codigo=chave,
            origem=origem,
            artigo=None,
            inciso=None,
            rotulo=rotulo_limpo,
            sujeito=sujeito,
            natureza=natureza,
            texto=texto_limpo,
            nota=None,
            tipo=tipo_limpo,
            ato_tipo=texto_ato,
            ativo=True,
            alterado_por=ator.login,
        )
        s.add(d)
        s.flush()
        auditoria.registrar(
            s, ator, "adicionar_dispositivo", "dispositivo", chave, None, auditoria.instantaneo(d)
        )
        uow.commit()
        return chave


def desativar_dispositivo(uow: UnidadeDeTrabalho, ator: Ator, codigo: str) -> None:
    """A contractual provision that no longer applies: kept on its cases, no longer citable."""
    _ativar(uow, ator, codigo, False)


def reativar_dispositivo(uow: UnidadeDeTrabalho, ator: Ator, codigo: str) -> None:
    _ativar(uow, ator, codigo, True)


def _ativar(uow: UnidadeDeTrabalho, ator: Ator, codigo: str, ativo: bool) -> None:
    _exigir_admin(ator, "alterar o catálogo de dispositivos")
    with uow:
        s = uow.session
        d = _dispositivo(s, codigo)
        if d.origem == "lei":
            raise ErroDominio(
                f"O {d.rotulo} é dispositivo da Lei nº 2.413/1978 e não pode ser desativado.", "codigo"
            )
        if d.ativo == ativo:
            return
        antes = auditoria.instantaneo(d)
        d.ativo, d.alterado_por = ativo, ator.login
        s.flush()
        acao = "reativar_dispositivo" if ativo else "desativar_dispositivo"
        auditoria.registrar(s, ator, acao, "dispositivo", d.codigo, antes, auditoria.instantaneo(d))
        uow.commit()


def excluir_dispositivo(uow: UnidadeDeTrabalho, ator: Ator, codigo: str) -> None:
    """Delete a contractual provision typed by mistake; never one of the law, never one a case cites."""
    _exigir_admin(ator, "alterar o catálogo de dispositivos")
    with uow:
        s = uow.session
        d = _dispositivo(s, codigo)
        if d.origem == "lei":
            raise ErroDominio(
                f"O {d.rotulo} é dispositivo da Lei nº 2.413/1978 e não pode ser excluído.", "codigo"
            )
        if _citacoes(s, d.codigo):
            raise ErroDominio(
                f"O dispositivo {d.rotulo} já foi citado em autos ou representações e não pode ser excluído; "
                "desative-o para que não seja mais citado.",
                "codigo",
            )
        antes = auditoria.instantaneo(d)
        s.delete(d)
        s.flush()
        auditoria.registrar(s, ator, "excluir_dispositivo", "dispositivo", d.codigo, antes, None)
        uow.commit()


def _dispositivo(s: so.Session, codigo: str) -> DispositivoCatalogo:
    d = s.get(DispositivoCatalogo, (codigo or "").strip().upper())
    if d is None:
        raise NaoEncontrado(f"O dispositivo “{codigo}” não existe no catálogo.", "codigo")
    return d


def _citacoes(s: so.Session, codigo: str) -> int:
    autos = (
        s.scalar(sa.select(sa.func.count(AutoInfracao.id)).where(AutoInfracao.dispositivo_codigo == codigo))
        or 0
    )
    reps = (
        s.scalar(sa.select(sa.func.count(Representacao.id)).where(Representacao.dispositivo_codigo == codigo))
        or 0
    )
    return int(autos) + int(reps)


def _tipo(tipo: str | None) -> str:
    limpo = (tipo or "").strip().upper()
    if limpo not in TIPOS:
        raise ErroDominio("Escolha o tipo de infração: A, B, C, D ou E.", "tipo")
    return limpo


# -- letterhead -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DadosDoOrgao:
    """The issuing authority's data printed on every document's letterhead."""

    prefeitura: str
    secretaria: str
    secretario_nome: str
    endereco: str
    cidade: str = "Pelotas/RS"
    telefone: str = ""
    email: str = ""
    secretario_cargo: str = CARGO_SECRETARIO_PADRAO
    """The title printed under the Secretary's signature ("Secretária Municipal de Serviços Urbanos")."""
    horario_expediente: str = ""
    """The protocol's office hours, stated on the intimação (Lei 9.784/1999, art. 26 § 1º, via REGRAS § 5)."""
    pagamento_instrucoes: str = ""
    """Where and how a fine is paid, stated on the decision notice."""


@dataclass(frozen=True)
class OrgaoDetalhe:
    dados: DadosDoOrgao
    versao: int
    alterado_em: datetime
    alterado_por: str | None


def obter_dados_orgao(sessao: so.Session) -> OrgaoDetalhe:
    o = sessao.get(DadosOrgao, 1)
    if o is None:  # seeded at every opening; only a damaged database lacks it
        raise NaoEncontrado("Os dados do órgão não foram encontrados; reabra o banco de dados.")
    dados = DadosDoOrgao(**{f.name: getattr(o, f.name) for f in fields(DadosDoOrgao)})
    return OrgaoDetalhe(dados, o.versao, o.alterado_em, o.alterado_por)


def salvar_dados_orgao(uow: UnidadeDeTrabalho, ator: Ator, dados: DadosDoOrgao, *, versao: int) -> None:
    _exigir_admin(ator, "alterar os dados do órgão")
    valores = {
        "prefeitura": texto_obrigatorio(dados.prefeitura, "prefeitura", "o nome da Prefeitura", 200),
        "secretaria": texto_obrigatorio(dados.secretaria, "secretaria", "o nome da Secretaria", 200),
        "secretario_nome": texto_obrigatorio(
            dados.secretario_nome, "secretario_nome", "o nome do(a) Secretário(a)", 200
        ),
        "secretario_cargo": texto_obrigatorio(
            dados.secretario_cargo,
            "secretario_cargo",
            "o cargo do(a) Secretário(a), como deve sair sob a assinatura",
            200,
        ),
        "endereco": texto_obrigatorio(dados.endereco, "endereco", "o endereço da Secretaria", 300),
        "cidade": texto_obrigatorio(dados.cidade, "cidade", "a cidade", 100),
        "telefone": texto_opcional(dados.telefone, "telefone", "o telefone", 60),
        "email": texto_opcional(dados.email, "email", "o e-mail", 200),
        "horario_expediente": texto_opcional(
            dados.horario_expediente, "horario_expediente", "o horário de expediente", 200
        ),
        "pagamento_instrucoes": texto_opcional(
            dados.pagamento_instrucoes, "pagamento_instrucoes", "onde e como pagar a multa", 500
        ),
    }
    if valores["email"] and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", valores["email"]):
        raise ErroDominio(f"E-mail “{valores['email']}” inválido.", "email")
    with uow:
        s = uow.session
        o = s.get(DadosOrgao, 1)
        if o is None:
            raise NaoEncontrado("Os dados do órgão não foram encontrados; reabra o banco de dados.")
        verificar_versao(o, versao, "Os dados do órgão")
        antes = auditoria.instantaneo(o)
        for chave, valor in valores.items():
            setattr(o, chave, valor)
        o.alterado_por = ator.login
        so.attributes.flag_modified(o, "alterado_por")
        s.flush()
        auditoria.registrar(s, ator, "editar_dados_orgao", "dados_orgao", 1, antes, auditoria.instantaneo(o))
        uow.commit()


# -- settings -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Configuracoes:
    copias_backup: int
    """Daily SQLite copies kept (services.backup)."""
    dias_decisao_atrasada: int
    """Days after the defence deadline when an undecided auto enters the "overdue decisions" queue."""
    prazo_pagamento_dias: int = PRAZO_PAGAMENTO_PADRAO
    """Days to pay a fine, counted from the day the penalty becomes final (stated on the decision notice)."""


def obter_configuracoes(sessao: so.Session) -> Configuracoes:
    return Configuracoes(
        copias_backup=_inteiro(sessao, CHAVE_COPIAS_BACKUP, COPIAS_BACKUP_PADRAO, 1, COPIAS_BACKUP_MAXIMO),
        dias_decisao_atrasada=_inteiro(
            sessao, CHAVE_DIAS_DECISAO, DIAS_DECISAO_PADRAO, 0, DIAS_DECISAO_MAXIMO
        ),
        prazo_pagamento_dias=_inteiro(
            sessao, CHAVE_PRAZO_PAGAMENTO, PRAZO_PAGAMENTO_PADRAO, 1, PRAZO_PAGAMENTO_MAXIMO
        ),
    )


def salvar_configuracoes(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    copias_backup: int,
    dias_decisao_atrasada: int,
    prazo_pagamento_dias: int | None = None,
) -> None:
    """Save the settings; `prazo_pagamento_dias` None keeps the one stored."""
    _exigir_admin(ator, "alterar as configurações")
    verificar = [
        (copias_backup, "copias_backup", 1, COPIAS_BACKUP_MAXIMO, "Cópias de segurança mantidas"),
        (dias_decisao_atrasada, "dias_decisao_atrasada", 0, DIAS_DECISAO_MAXIMO, "Dias para decidir"),
    ]
    if prazo_pagamento_dias is not None:
        verificar.append(
            (
                prazo_pagamento_dias,
                "prazo_pagamento_dias",
                1,
                PRAZO_PAGAMENTO_MAXIMO,
                "Prazo para pagar a multa",
            )
        )
    for valor, campo, minimo, maximo, rotulo in verificar:
        if isinstance(valor, bool) or not isinstance(valor, int) or not minimo <= valor <= maximo:
            raise ErroDominio(f"{rotulo}: informe um número inteiro de {minimo} a {maximo}.", campo)
    with uow:
        s = uow.session
        mudancas = {CHAVE_COPIAS_BACKUP: str(copias_backup), CHAVE_DIAS_DECISAO: str(dias_decisao_atrasada)}
        if prazo_pagamento_dias is not None:
            mudancas[CHAVE_PRAZO_PAGAMENTO] = str(prazo_pagamento_dias)
        antes: dict[str, Any] = {}
        for chave, novo in mudancas.items():
            registro = s.get(Configuracao, chave)
            antes[chave] = None if registro is None else registro.valor
            if registro is None:
                s.add(Configuracao(chave=chave, valor=novo))
            else:
                registro.valor = novo
        s.flush()
        auditoria.registrar(s, ator, "alterar_configuracoes", "configuracao", None, antes, mudancas)
        uow.commit()


def _inteiro(s: so.Session, chave: str, padrao: int, minimo: int, maximo: int) -> int:
    registro = s.get(Configuracao, chave)
    try:
        valor = int(registro.valor) if registro is not None else padrao
    except ValueError:
        return padrao
    return valor if minimo <= valor <= maximo else padrao


# -- audit log ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RegistroAuditoria:
    id: int
    momento: datetime
    usuario: str | None
    acao: str
    entidade: str
    entidade_id: str | None
    antes: dict[str, Any] | None
    depois: dict[str, Any] | None

    @property
    def alteracoes(self) -> list[tuple[str, Any, Any]]:
        """(field, before, after) for each field that changed (all fields on creation or removal)."""
        antes, depois = self.antes or {}, self.depois or {}
        chaves = sorted(set(antes) | set(depois))
        ignorar = {"versao", "alterado_em", "criado_em", "alterado_por"}
        return [
            (c, antes.get(c), depois.get(c))
            for c in chaves
            if c not in ignorar and antes.get(c) != depois.get(c)
        ]


@dataclass(frozen=True)
class PaginaAuditoria:
    total: int
    registros: tuple[RegistroAuditoria, ...]


def consultar_auditoria(
    sessao: so.Session,
    *,
    usuario: str | None = None,
    entidade: str | None = None,
    desde: date | None = None,
    ate: date | None = None,
    texto: str = "",
    inicio: int = 0,
    quantidade: int = 100,
) -> PaginaAuditoria:
    """The audit log, newest first, filtered by user, kind of record, period (days inclusive) and free text."""
    if desde is not None and ate is not None and ate < desde:
        raise ErroDominio("A data final do período não pode ser anterior à inicial.", "ate")
    filtro = listas.Filtro(
        texto=texto, usuario=usuario or None, entidade=entidade or None, desde=desde, ate=ate
    )
    total = listas.contar(sessao, "auditoria", filtro)
    ids = [r[0] for r in listas.pagina(sessao, "auditoria", filtro, ("id", False), inicio, quantidade)]
    registros = (
        {a.id: a for a in sessao.scalars(sa.select(Auditoria).where(Auditoria.id.in_(ids)))} if ids else {}
    )
    return PaginaAuditoria(
        total,
        tuple(_registro(registros[i]) for i in ids),
    )


def _registro(a: Auditoria) -> RegistroAuditoria:
    return RegistroAuditoria(
        a.id, a.momento, a.usuario_login, a.acao, a.entidade, a.entidade_id, _json(a.antes), _json(a.depois)
    )


def registro_auditoria(sessao: so.Session, id: int) -> RegistroAuditoria:
    """One entry of the audit log, with its before → after (what the audit screen shows beside the list)."""
    a = (
        sessao.get(Auditoria, id)
        if isinstance(id, int) and not isinstance(id, bool) and 0 < id < 2**63
        else None
    )
    if a is None:
        raise NaoEncontrado(f"Registro de auditoria nº {id} não encontrado.", "id")
    return _registro(a)


def entidades_auditadas(sessao: so.Session) -> list[str]:
    """The kinds of record the log mentions (for the filter's combo box)."""
    return list(sessao.scalars(sa.select(Auditoria.entidade).distinct().order_by(Auditoria.entidade)))


def _json(texto: str | None) -> dict[str, Any] | None:
    if not texto:
        return None
    try:
        valor = json.loads(texto)
    except ValueError:
        return {"texto": texto}
    return valor if isinstance(valor, dict) else {"valor": valor}


# -- shared ---------------------------------------------------------------------------------------


def _data(valor: date | None, campo: str, rotulo: str) -> date:
    if valor is None:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    if isinstance(valor, datetime) or not isinstance(valor, date):
        raise ErroDominio("Data inválida: use dd/mm/aaaa.", campo)
    if valor < date(1900, 1, 1) or valor > date(2200, 12, 31):
        raise ErroDominio(f"Data fora dos limites: {formatar_data(valor)}.", campo)
    return valor


def _obter(s: so.Session, modelo: Any, ident: int, descricao: str) -> Any:
    registro = s.get(modelo, ident)
    if registro is None:
        raise NaoEncontrado(
            f"{descricao} não encontrado (nº {ident}); talvez outro usuário o tenha excluído."
        )
    return registro
