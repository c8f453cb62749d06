"""The catalogue of provisions an auto or a representação cites (role administrador to change it).

Catalogue rule (REGRAS.md § 1): the 55 provisions of the law are never retyped or deleted; only Art. 1º, X,
whose tipo the copy of the law lost, gets its tipo once, with the act that decided it. Contractual
provisions (origem "contrato" or "ato") are added with their tipo; one already cited by an auto or a
representação is never deleted or retyped (deactivate it instead: it stays on the old cases and cannot be
cited again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.catalogo import TIPOS
from secretaria.models import AutoInfracao, DispositivoCatalogo, Representacao
from secretaria.services import auditoria
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    texto_obrigatorio,
    texto_opcional,
)

CODIGO_1X = "1-X"
_CODIGO_CONTRATUAL = re.compile(r"[A-Z]{1,10}-[0-9A-Z]{1,12}(\.[0-9A-Z]{1,6})?")
_ORIGENS_CONTRATUAIS = {"contrato": "Contrato", "ato": "Ato"}
_SUJEITOS = ("concessionaria", "empregado", "condutor")
_NATUREZAS = ("dever", "proibicao")


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
    exigir_papel(ator, "administrador", acao="definir o tipo de infração de um dispositivo")
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
    exigir_papel(ator, "administrador", acao="cadastrar dispositivos contratuais")
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
    exigir_papel(ator, "administrador", acao="alterar o catálogo de dispositivos")
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


def conferir_exclusao_dispositivo(sessao: so.Session, ator: Ator, codigo: str) -> None:
    """The refusals `excluir_dispositivo` would raise, from a read session and writing nothing: what the screen
    runs before asking to confirm the deletion (which cannot be undone)."""
    _conferir_exclusao(sessao, ator, codigo)


def _conferir_exclusao(s: so.Session, ator: Ator, codigo: str) -> DispositivoCatalogo:
    exigir_papel(ator, "administrador", acao="alterar o catálogo de dispositivos")
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
    return d


def excluir_dispositivo(uow: UnidadeDeTrabalho, ator: Ator, codigo: str) -> None:
    """Delete a contractual provision typed by mistake; never one of the law, never one a case cites."""
    exigir_papel(ator, "administrador", acao="alterar o catálogo de dispositivos")
    with uow:
        s = uow.session
        d = _conferir_exclusao(s, ator, codigo)
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
