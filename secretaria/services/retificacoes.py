"""Correcting an issued auto by a numbered "termo de retificação" (REGRAS § 5), never by overwriting it.

The auto's columns take the corrected values (what the case screen, the proposal and the decision read); the
termo keeps every item changed as it read before and after, the reason, who and when; the audit row keeps
both images of the auto; the auto's PDF already issued stays stored as it was delivered.

Whether a correction is of substance is decided here from the fields that changed, never chosen by the
user. Substance (`CAMPOS_SUBSTANCIA`): the provision, the facts and their circumstances, the day and hour of
the infraction — what the operator defends itself against. Such a correction sets the running defence
deadline aside: the case goes back to awaiting an intimação, now of the termo (`registrar_intimacao` with
`retificacao_id`: the termo is the paper delivered, with the copy of the corrected auto), and the 15 days of
art. 14 count from that delivery, with the calendar of § 4; the next penalty (art. 10, V) is restated for the
corrected provision and day, and the proposal and decision evaluate the sanction on them (they read the
auto). Formal (a misspelt name, the place, the witnesses, where the auto was drawn up): nothing reopens.

Refused: the operator (cancel the auto and draw up a new one); a cancelled auto; a decided one (a correction
of substance would then need a new decision, which only the appeal to the Prefeito can bring about).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.formato import formatar_data
from secretaria.models import (
    AutoInfracao,
    Decisao,
    DispositivoCatalogo,
    Fiscal,
    Retificacao,
    Testemunha,
    Usuario,
)
from secretaria.reports.dados import DadosRetificacao, ItemRetificado
from secretaria.services import auditoria
from secretaria.services.autos import CamposAuto, DadosTestemunha, NovoAuto, conferir_fato, validar_campos
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    texto_obrigatorio,
    verificar_versao,
)
from secretaria.services.lei_db import dispositivo_citavel
from secretaria.services.numeracao import proximo_numero
from secretaria.services.orgao import dados_operadora, horario_expediente, timbre, timbre_para_assinar
from secretaria.services.processo_base import auto_para_ato, id_valido, imagem
from secretaria.services.sancao import avaliar_sancao, texto_proxima_penalidade

__all__ = [
    "CAMPOS_FORMAIS",
    "CAMPOS_RETIFICAVEIS",
    "CAMPOS_SUBSTANCIA",
    "PedidoRetificacao",
    "ResumoRetificacao",
    "dados_retificacao",
    "explicar_natureza",
    "retificar_auto",
]

CAMPOS_SUBSTANCIA: dict[str, str] = {
    "dispositivo_codigo": "Dispositivo infringido",
    "data_infracao": "Data da infração",
    "hora_infracao": "Hora da infração",
    "descricao_fatos": "Descrição dos fatos",
    "circunstancias": "Circunstâncias",
}
"""Art. 10, III and IV and the day of the fact: a change reopens the defence and the sanction."""
CAMPOS_FORMAIS: dict[str, str] = {
    "infrator_nome": "Nome do infrator",
    "local": "Local da infração",
    "local_lavratura": "Local da lavratura",
    "testemunhas": "Testemunhas",
}
"""Names and places: a change corrects how the auto reads, not what the operator defends itself against."""
CAMPOS_RETIFICAVEIS: dict[str, str] = {**CAMPOS_SUBSTANCIA, **CAMPOS_FORMAIS}
"""What a termo can correct, field → its name on the termo. The operator never (cancel and draw up anew);
the vehicle, line and employee, the inspector and the day and hour of drawing up are not items of a termo."""

_NAO_RETIFICAVEIS = {
    "operadora_id": "a operadora autuada",
    "veiculo_id": "o veículo",
    "linha_id": "a linha",
    "empregado_id": "o empregado ou condutor",
    "fiscal_id": "o fiscal autuante",
    "data_lavratura": "a data da lavratura",
    "hora_lavratura": "a hora da lavratura",
    "recusou_assinar": "a recusa de assinatura",
    "representacao_id": "a representação de origem",
}


@dataclass(frozen=True)
class ResumoRetificacao:
    id: int
    numero_formatado: str
    """"0001/2026" (TR nº 0001/2026)."""
    substancial: bool
    itens: tuple[ItemRetificado, ...]
    explicacao: str
    """Why the correction does or does not reopen the defence deadline, in the clerk's words."""
    prazo_defesa_anterior: date | None


def explicar_natureza(substancial: bool, rotulos: list[str]) -> str:
    """The termo's sentence on its own nature: which items, and what follows from them."""
    lista = _lista(rotulos)
    if substancial:
        return (
            f"Retificação de substância ({lista}): altera o que a autuada tem de defender. Reabre o prazo de "
            "defesa de 15 (quinze) dias, contados do recebimento da intimação deste termo (art. 14 da Lei "
            "Municipal nº 2.413/1978), e a sanção é avaliada de novo para o dispositivo e o dia corrigidos."
        )
    return (
        f"Retificação formal ({lista}): não altera o fato, o dispositivo nem o dia da infração; o prazo de "
        "defesa não é reaberto."
    )


def _lista(itens: list[str]) -> str:
    nomes = [i[:1].lower() + i[1:] for i in itens]
    return nomes[0] if len(nomes) == 1 else ", ".join(nomes[:-1]) + " e " + nomes[-1]


def _testemunhas(auto: AutoInfracao) -> tuple[DadosTestemunha, ...]:
    return tuple(DadosTestemunha(t.nome, t.documento, t.endereco) for t in auto.testemunhas)


def _como_novo_auto(auto: AutoInfracao) -> NovoAuto:
    """The auto's current values in the shape the auto form validates."""
    return NovoAuto(
        operadora_id=auto.operadora_id,
        dispositivo_codigo=auto.dispositivo_codigo,
        data_infracao=auto.data_infracao,
        local=auto.local,
        data_lavratura=auto.data_lavratura,
        hora_lavratura=auto.hora_lavratura,
        local_lavratura=auto.local_lavratura,
        descricao_fatos=auto.descricao_fatos,
        fiscal_id=auto.fiscal_id,
        hora_infracao=auto.hora_infracao,
        circunstancias=auto.circunstancias,
        infrator_nome=auto.infrator_nome,
        veiculo_id=auto.veiculo_id,
        linha_id=auto.linha_id,
        empregado_id=auto.empregado_id,
        testemunhas=_testemunhas(auto),
        recusou_assinar=auto.recusou_assinar,
        representacao_id=auto.representacao_id,
    )


def _mostrar(s: so.Session, campo: str, valor: Any) -> str:
    """A value as the termo prints it."""
    if campo == "dispositivo_codigo":
        d = s.get(DispositivoCatalogo, valor)
        return f"{d.rotulo} (tipo {d.tipo})" if d is not None and d.tipo else str(valor)
    if campo == "data_infracao":
        return formatar_data(valor)
    if campo == "hora_infracao":
        return "não informada" if valor is None else f"{valor:%H:%M}"
    if campo == "testemunhas":
        partes = []
        for t in valor:
            extras = ", ".join(x for x in (t.documento, t.endereco) if x)
            partes.append(f"{t.nome} ({extras})" if extras else t.nome)
        return "; ".join(partes) or "nenhuma"
    return str(valor) if str(valor).strip() else "(em branco)"


@dataclass(frozen=True)
class _RetificacaoConferida:
    auto: AutoInfracao
    campos: CamposAuto
    novos: dict[str, Any]
    antigos: dict[str, Any]
    mudados: list[str]
    tipo: str
    motivo: str


@dataclass(frozen=True)
class PedidoRetificacao:
    """What `retificar_auto` and `conferir_retificacao` are asked: `alteracoes` maps fields of
    `CAMPOS_RETIFICAVEIS` to their new values (unchanged ones are ignored; the testemunhas as a sequence of
    `DadosTestemunha`)."""

    auto_id: int
    alteracoes: Mapping[str, Any]
    motivo: str
    versao: int | None = None


def _conferir_retificacao(
    s: so.Session, ator: Ator, pedido: PedidoRetificacao, *, travar: bool = True
) -> _RetificacaoConferida:
    """Every check of `retificar_auto`, in its order, writing nothing."""
    alteracoes = pedido.alteracoes
    exigir_papel(ator, "fiscal", acao="retificar autos de infração")
    if "operadora_id" in alteracoes:
        raise ErroDominio(
            "A operadora autuada não pode ser alterada por retificação: cancele este auto e lavre um novo "
            "contra a operadora correta.",
            "operadora_id",
        )
    for campo in alteracoes:
        if campo not in CAMPOS_RETIFICAVEIS:
            nome = _NAO_RETIFICAVEIS.get(campo, f"o campo “{campo}”")
            raise ErroDominio(
                f"Não se retifica {nome} por termo de retificação. Se estiver errado, cancele o auto e lavre "
                "um novo.",
                campo,
            )
    for campo, valor in alteracoes.items():
        _conferir_tipo(campo, valor)
    motivo_limpo = texto_obrigatorio(pedido.motivo, "motivo", "o motivo da retificação")
    auto = auto_para_ato(s, pedido.auto_id, "retificá-lo", travar=travar)
    verificar_versao(auto, pedido.versao, f"O auto nº {auto.numero_formatado}")
    decidido_em = s.scalar(sa.select(Decisao.data).where(Decisao.auto_id == auto.id))
    if decidido_em is not None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} já foi decidido em {formatar_data(decidido_em)}: não pode "
            "mais ser retificado. Uma retificação de substância exigiria nova defesa e nova decisão, e a "
            "decisão só se altera pelo recurso ao Prefeito (art. 15).",
            "auto_id",
        )
    atual = _como_novo_auto(auto)
    trocas: dict[str, Any] = dict(alteracoes)
    if "testemunhas" in trocas:
        trocas["testemunhas"] = tuple(trocas["testemunhas"] or ())
    if "dispositivo_codigo" in trocas:
        trocas["dispositivo_codigo"] = str(trocas["dispositivo_codigo"] or "").strip().upper()
    dados = dataclasses.replace(atual, **trocas)
    c = validar_campos(dados)
    novos: dict[str, Any] = {
        "dispositivo_codigo": dados.dispositivo_codigo,
        "data_infracao": c.data_infracao,
        "hora_infracao": dados.hora_infracao,
        "descricao_fatos": c.fatos,
        "circunstancias": c.circunstancias,
        "infrator_nome": c.infrator or auto.operadora.razao_social,
        "local": c.local,
        "local_lavratura": c.local_lavratura,
        "testemunhas": c.testemunhas,
    }
    antigos: dict[str, Any] = {
        "dispositivo_codigo": auto.dispositivo_codigo,
        "data_infracao": auto.data_infracao,
        "hora_infracao": auto.hora_infracao,
        "descricao_fatos": auto.descricao_fatos,
        "circunstancias": auto.circunstancias,
        "infrator_nome": auto.infrator_nome,
        "local": auto.local,
        "local_lavratura": auto.local_lavratura,
        "testemunhas": atual.testemunhas,
    }
    mudados = [campo for campo in CAMPOS_RETIFICAVEIS if campo in trocas and novos[campo] != antigos[campo]]
    if not mudados:
        raise ErroDominio(
            f"Nenhum dado do auto nº {auto.numero_formatado} foi alterado: não há o que retificar.",
            "auto_id",
        )
    tipo = auto.tipo
    if "dispositivo_codigo" in mudados:
        tipo = dispositivo_citavel(s, novos["dispositivo_codigo"]).tipo
    if "data_infracao" in mudados:
        conferir_fato(s, dados, auto.operadora, c.data_infracao)
    if any(campo in CAMPOS_SUBSTANCIA for campo in mudados):
        _conferir_papeis_do_termo(s)
    return _RetificacaoConferida(auto, c, novos, antigos, mudados, tipo, motivo_limpo)


def _conferir_papeis_do_termo(s: so.Session) -> None:
    """What the papers of a correction of substance need, checked before the termo takes its number (like
    every act that issues a document): the termo and its intimação state where and in which office hours
    the reopened defence is received, and the intimação is signed by the Secretary at the letterhead's
    address. A termo is never recorded without the papers that must be delivered (REGRAS § 5)."""
    timbre_para_assinar(s, "a intimação do termo de retificação")
    horario_expediente(s, "o termo de retificação e a sua intimação")


def conferir_retificacao(sessao: so.Session, ator: Ator, pedido: PedidoRetificacao) -> None:
    """The refusals `retificar_auto` would raise (a decided auto, nothing changed, a new date or provision
    the auto form would refuse), from a read session and writing nothing: what the screen runs before
    asking to confirm the termo, which takes a number and cannot be undone."""
    _conferir_retificacao(sessao, ator, pedido, travar=False)


@retentavel
def retificar_auto(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoRetificacao) -> ResumoRetificacao:
    """Draw up the next "TR nº NNNN/AAAA" correcting the auto with `pedido.alteracoes`, validated exactly as
    the auto form validates them (`conferir_retificacao`'s checks, run again inside this unit of work)."""
    with uow:
        s = uow.session
        r = _conferir_retificacao(s, ator, pedido)
        auto, c, novos, antigos, mudados, tipo = r.auto, r.campos, r.novos, r.antigos, r.mudados, r.tipo
        motivo_limpo = r.motivo
        substancial = any(campo in CAMPOS_SUBSTANCIA for campo in mudados)
        hoje = relogio.hoje()
        proxima = None
        if substancial:
            avaliacao = avaliar_sancao(
                s,
                operadora_id=auto.operadora_id,
                dispositivo_codigo=novos["dispositivo_codigo"],
                data_infracao=c.data_infracao,
                excluir_auto_id=auto.id,
                data_valor=hoje,
                tipo=None if "dispositivo_codigo" in mudados else auto.tipo,
            )
            proxima = texto_proxima_penalidade(avaliacao)
        itens = tuple(
            ItemRetificado(
                CAMPOS_RETIFICAVEIS[campo],
                _mostrar(s, campo, antigos[campo]),
                _mostrar(s, campo, novos[campo]),
            )
            for campo in mudados
        )
        antes = imagem(auto, testemunhas=auditoria.imagem_testemunhas(auto.testemunhas))
        termo = Retificacao(
            ano=hoje.year,
            numero=proximo_numero(s, "TR", hoje.year),
            auto_id=auto.id,
            data=hoje,
            substancial=substancial,
            itens=json.dumps(
                [
                    {"campo": campo, "rotulo": i.rotulo, "de": i.de, "para": i.para}
                    for campo, i in zip(mudados, itens, strict=True)
                ],
                ensure_ascii=False,
            ),
            motivo=motivo_limpo,
            proxima_penalidade=proxima,
            proxima_penalidade_anterior=auto.proxima_penalidade if substancial else None,
            prazo_defesa_anterior=auto.prazo_defesa if substancial else None,
            dispositivo_codigo=novos["dispositivo_codigo"],
            tipo=tipo,
            lavrado_por=ator.login,
            lavrado_por_nome=_fiscal_da_conta(s, ator.login)[0] or ator.nome,
            lavrado_em=relogio.agora(),
        )
        for campo in mudados:
            if campo == "testemunhas":
                auto.testemunhas = [
                    Testemunha(nome=t.nome, documento=t.documento, endereco=t.endereco) for t in c.testemunhas
                ]
            else:
                setattr(auto, campo, novos[campo])
        if substancial:
            assert proxima is not None
            auto.tipo = tipo
            auto.proxima_penalidade = proxima
            if auto.fase == "intimado":
                # Back to awaiting an intimação: the termo's, from which the 15 days count again.
                auto.fase = "lavrado"
            auto.prazo_defesa = None
        auto.alterado_por = ator.login
        s.add(termo)
        s.flush()
        auditoria.registrar(s, ator, "retificar_auto", "retificacao", termo.id, None, imagem(termo))
        auditoria.registrar(
            s,
            ator,
            "retificar_auto",
            "auto_infracao",
            auto.id,
            antes,
            imagem(auto, testemunhas=auditoria.imagem_testemunhas(auto.testemunhas)),
        )
        uow.commit()
        return ResumoRetificacao(
            id=termo.id,
            numero_formatado=termo.numero_formatado,
            substancial=substancial,
            itens=itens,
            explicacao=explicar_natureza(substancial, [i.rotulo for i in itens]),
            prazo_defesa_anterior=termo.prazo_defesa_anterior,
        )


_TEXTOS = (
    "dispositivo_codigo",
    "descricao_fatos",
    "circunstancias",
    "infrator_nome",
    "local",
    "local_lavratura",
)


def _conferir_tipo(campo: str, valor: Any) -> None:
    """A value of the wrong kind is refused like a wrong value (dates and hours: by `validar_campos`)."""
    nome = CAMPOS_RETIFICAVEIS[campo]
    if campo in _TEXTOS and not isinstance(valor, str):
        raise ErroDominio(f"{nome}: valor inválido; informe um texto.", campo)
    if campo == "testemunhas" and (
        isinstance(valor, str | bytes)
        or not isinstance(valor, list | tuple)
        or not all(isinstance(t, DadosTestemunha) for t in valor)
        or not all(isinstance(x, str) for t in valor for x in (t.nome, t.documento, t.endereco))
    ):
        raise ErroDominio(
            "Testemunhas: valor inválido; informe nome, documento e endereço de cada uma.", campo
        )


def itens_do_termo(termo: Retificacao) -> tuple[ItemRetificado, ...]:
    return tuple(ItemRetificado(i["rotulo"], i["de"], i["para"]) for i in json.loads(termo.itens))


def obter_termo(sessao: so.Session, retificacao_id: int | None) -> Retificacao:
    termo = sessao.get(Retificacao, retificacao_id) if id_valido(retificacao_id) else None
    if termo is None:
        raise NaoEncontrado(
            f"Termo de retificação não encontrado (nº interno {retificacao_id}).", "retificacao_id"
        )
    return termo


def _fiscal_da_conta(sessao: so.Session, login: str) -> tuple[str | None, str | None]:
    """The inspector (name, matrícula) registered for the account `login`: the one who signs a termo is the
    inspector, not the account's own name; (None, None) for an account linked to no inspector."""
    linha = sessao.execute(
        sa.select(Fiscal.nome, Fiscal.matricula)
        .join(Usuario, Usuario.id == Fiscal.usuario_id)
        .where(Usuario.login == login)
    ).first()
    return (linha.nome, linha.matricula) if linha is not None else (None, None)


def dados_retificacao(sessao: so.Session, retificacao_id: int) -> DadosRetificacao:
    """The termo as printed and notified: a function of the termo alone (and of the letterhead), so issuing
    it again gives the same bytes even after later corrections of the same auto."""
    termo = obter_termo(sessao, retificacao_id)
    auto = termo.auto
    itens = itens_do_termo(termo)
    d = sessao.get(DispositivoCatalogo, termo.dispositivo_codigo)
    horario = horario_expediente(sessao, "o termo de retificação") if termo.substancial else ""
    nome_fiscal, matricula = _fiscal_da_conta(sessao, termo.lavrado_por)
    return DadosRetificacao(
        timbre=timbre(sessao),
        numero=termo.numero_formatado,
        numero_auto=auto.numero_formatado,
        data_auto=auto.data_lavratura,
        data=termo.data,
        operadora=dados_operadora(auto.operadora),
        itens=itens,
        motivo=termo.motivo,
        substancial=termo.substancial,
        razao=explicar_natureza(termo.substancial, [i.rotulo for i in itens]),
        dispositivo=d.rotulo if d is not None else termo.dispositivo_codigo,
        tipo=termo.tipo,
        lavrado_por_nome=nome_fiscal or termo.lavrado_por_nome,
        lavrado_por_matricula=matricula,
        representante=auto.operadora.representante_nome or None,
        proxima_penalidade=termo.proxima_penalidade,
        horario_expediente=horario,
    )
