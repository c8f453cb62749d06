"""The case after the auto (arts. 11, 13, 14 and 15): intimações, defence, proposal, decision, appeal.

The law's order of acts is enforced here, once, for every caller:
- an intimação that reaches the operator (the first success) starts the defence deadline (REGRAS § 4); a
  further successful one is recorded but never moves the running deadline (the clerk is told so); a delivery
  at the company's address or by post counts only against a receipt (art. 11);
- a defence needs that intimação; one filed late is still recorded, marked "intempestiva";
- the Secretary may dismiss the auto at any time before deciding; a penalty needs the intimação, either the
  defence deadline passed or a defence filed on or before the day of the act (art. 14: ampla defesa), and the
  authority's proposal to apply it (art. 13), and must lie in the range `calcular_sancao` gives for the auto's
  infraction day with the antecedents as they stand at the decision; the fine in R$ uses the URM of the
  decision day;
- the intimação of an applied decision starts the appeal deadline; one appeal per decision, only against an
  applied penalty. An appeal filed before the decision's intimação is accepted and counted as timely (the
  deadline had not even started); one filed after the deadline is recorded as untimely and does not stop the
  decision from becoming final;
- the Mayor's outcome: denied, granted (penalty annulled: fine cancelled unless already paid, suspension
  annulled, and later cases no longer count this one), or granted in part (reduced, within the range).

Phases of the auto (`AutoInfracao.fase`): lavrado → intimado → decidido (penalty applied) → em_recurso (a timely
appeal pending) → encerrado (appeal judged); a dismissal goes straight to encerrado. "Final" is derived from
dates (`decisao_final`), never stored by a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.formato import formatar_data
from secretaria.lei.prazos import PRAZO_DEFESA_DIAS, PRAZO_RECURSO_DIAS, tempestivo
from secretaria.lei.sancoes import Sancao
from secretaria.lei.urm import formatar_urm, urm_para_reais
from secretaria.models import (
    AutoInfracao,
    Cumprimento,
    DadosOrgao,
    Decisao,
    Defesa,
    DocumentoEmitido,
    Intimacao,
    Pagamento,
    Proposta,
    Recurso,
    Retificacao,
    RevisaoSancao,
    Suspensao,
)
from secretaria.services import auditoria, definitividade
from secretaria.services.base import (
    Ator,
    ErroDominio,
    exigir_papel,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)
from secretaria.services.lei_db import calendario, valor_urm_em
from secretaria.services.processo_base import (
    auto_para_ato,
    com_decisao,
    data_valida,
    dias_validos,
    escolha,
    id_valido,
    imagem,
    inicio_prazo_retificado,
    termos_sem_intimacao,
    urm_valida,
)
from secretaria.services.sancao import conferir_penalidade_nos_campos, sancao_do_auto

OBJETOS_INTIMACAO = {
    "auto": "auto de infração",
    "decisao": "decisão",
    "julgamento": "notificação do julgamento do recurso",
    "revisao": "termo de revisão",
}
MEIOS_INTIMACAO = {
    "pessoal": "na pessoa do representante legal",
    "endereco": "cópia entregue no endereço da empresa, mediante recibo",
    "postal_ar": "via postal com aviso de recebimento (AR)",
}
RESULTADOS_INTIMACAO = {
    "entregue": "entregue",
    "recusada": "recusada",
    "nao_encontrado": "destinatário não encontrado",
    "endereco_incorreto": "endereço incorreto",
    "devolvida": "devolvida",
}
RESULTADOS_DECISAO = {"aplicada": "aplicar a penalidade", "arquivado": "arquivar o auto"}
ACOES_PROPOSTA = {"aplicar": "aplicar a penalidade", "arquivar": "arquivar o auto"}
RESULTADOS_JULGAMENTO = {
    "negado": "recurso negado",
    "provido": "recurso provido (penalidade anulada)",
    "provido_parcialmente": "recurso provido em parte (penalidade reduzida)",
}


# --- finality ----------------------------------------------------------------------------------------------


def decisao_final(
    *,
    resultado: str | None,
    data_decisao: date | None,
    prazo_recurso: date | None,
    recurso_tempestivo: bool | None,
    recurso_julgado_em: date | None,
    dia: date,
) -> date | None:
    """The day the decision became final ("definitiva") if it is final on `dia`, else None.

    A dismissal is final when made (no appeal lies against it). A penalty is final the day after the appeal
    deadline when no timely appeal was filed (a late one changes nothing), or on the day a timely appeal was
    decided (`definitividade.decisao_definitiva_em`, the one rule).
    """
    final = definitividade.decisao_definitiva_em(
        resultado=resultado,
        data_decisao=data_decisao,
        prazo_recurso=prazo_recurso,
        recurso_tempestivo=recurso_tempestivo,
        recurso_julgado_em=recurso_julgado_em,
    )
    return final if final is not None and final <= dia else None


def condicao_final(hoje: date) -> sa.ColumnElement[bool]:
    """The same rule as `decisao_final`, for queries on `auto_infracao` (uses its `fase` indexes)."""
    a = AutoInfracao
    return sa.or_(a.fase == "encerrado", sa.and_(a.fase == "decidido", a.prazo_recurso < hoje))


def final_em(sessao: so.Session, auto_id: int, dia: date | None = None) -> date | None:
    """`decisao_final` for one auto, read from the database (None when not decided or not final yet)."""
    linha = sessao.execute(
        sa.select(
            Decisao.resultado,
            Decisao.data,
            AutoInfracao.prazo_recurso,
            Recurso.tempestivo,
            Recurso.julgado_em,
        )
        .join(AutoInfracao, AutoInfracao.id == Decisao.auto_id)
        .outerjoin(Recurso, Recurso.decisao_id == Decisao.id)
        .where(Decisao.auto_id == auto_id)
    ).first()
    if linha is None:
        return None
    return decisao_final(
        resultado=linha.resultado,
        data_decisao=linha.data,
        prazo_recurso=linha.prazo_recurso,
        recurso_tempestivo=linha.tempestivo,
        recurso_julgado_em=linha.julgado_em,
        dia=dia or relogio.hoje(),
    )


# --- intimação (art. 11) -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResumoIntimacao:
    id: int
    sucesso: bool
    prazo: date | None
    """The deadline this intimação started (defence or appeal), when it was the first success."""
    explicacao_prazo: str | None


@dataclass(frozen=True)
class _IntimacaoConferida:
    auto: AutoInfracao
    decisao: Decisao | None
    pendentes: list[Retificacao]
    termo: Retificacao | None
    dia: date
    objeto: str
    meio: str
    resultado: str
    nome: str
    documento: str
    recibo: str
    observacao: str


@dataclass(frozen=True)
class PedidoIntimacao:
    """What `registrar_intimacao` and `conferir_intimacao` are asked: one delivery attempt as typed."""

    auto_id: int
    data: date
    meio: str
    resultado: str
    objeto: str = "auto"
    recebedor_nome: str = ""
    recebedor_documento: str = ""
    recibo: str = ""
    observacao: str = ""
    versao: int | None = None
    retificacao_id: int | None = None


def _conferir_intimacao(
    s: so.Session, ator: Ator, pedido: PedidoIntimacao, *, travar: bool = True
) -> _IntimacaoConferida:
    """Every check of `registrar_intimacao`, in its order, writing nothing."""
    p = pedido
    exigir_papel(ator, "protocolo", acao="registrar intimações")
    objeto = escolha(p.objeto, OBJETOS_INTIMACAO, "objeto", "o que foi intimado")
    meio = escolha(p.meio, MEIOS_INTIMACAO, "meio", "o meio da intimação")
    resultado = escolha(p.resultado, RESULTADOS_INTIMACAO, "resultado", "o resultado da intimação")
    sucesso = resultado == "entregue"
    nome = texto_opcional(p.recebedor_nome, "recebedor_nome", "o nome de quem recebeu", 200)
    if sucesso and not nome:
        raise ErroDominio("Informe quem recebeu a intimação (art. 11).", "recebedor_nome")
    documento = texto_opcional(
        p.recebedor_documento, "recebedor_documento", "o documento de quem recebeu", 60
    )
    recibo_limpo = texto_opcional(p.recibo, "recibo", "o recibo", 120)
    if sucesso and meio != "pessoal" and not recibo_limpo:
        raise ErroDominio(
            "Informe o recibo (ou o número do AR): a cópia do auto entregue no endereço da empresa só intima "
            "mediante recibo (art. 11).",
            "recibo",
        )
    obs = texto_opcional(p.observacao, "observacao", "a observação")
    auto = auto_para_ato(s, p.auto_id, "registrar intimações", travar=travar)
    verificar_versao(auto, p.versao, f"O auto nº {auto.numero_formatado}")
    decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    pendentes = termos_sem_intimacao(s, auto.id, so_substancia=True)
    termo = _termo_intimado(s, auto, objeto, p.retificacao_id, pendentes)
    if termo is not None:
        dia = data_valida(
            p.data,
            "data",
            "a data da intimação",
            minimo=termo.data,
            rotulo_minimo=f"o termo de retificação nº {termo.numero_formatado}",
        )
        if termo.substancial and sucesso:
            _exigir_intimacao_do_termo_emitida(s, auto, termo)
    elif objeto == "auto":
        if decisao is not None:
            raise ErroDominio(
                f"O auto nº {auto.numero_formatado} já foi decidido: registre a intimação da decisão.",
                "objeto",
            )
        dia = data_valida(
            p.data,
            "data",
            "a data da intimação",
            minimo=auto.data_lavratura,
            rotulo_minimo="a lavratura do auto",
        )
    elif objeto == "julgamento":
        julgado_em = s.scalar(
            sa.select(Recurso.julgado_em).where(
                Recurso.decisao_id == (decisao.id if decisao is not None else -1),
                Recurso.julgado_em.is_not(None),
            )
        )
        if julgado_em is None:
            raise ErroDominio(
                f"O recurso do auto nº {auto.numero_formatado} ainda não foi julgado: não há julgamento a notificar.",
                "objeto",
            )
        dia = data_valida(
            p.data, "data", "a data da intimação", minimo=julgado_em, rotulo_minimo="o julgamento do recurso"
        )
    elif objeto == "revisao":
        revisao = termo_revisao_a_intimar(s, auto)
        dia = data_valida(
            p.data,
            "data",
            "a data da intimação",
            minimo=revisao.decidida_em,
            rotulo_minimo=f"o termo de revisão nº {revisao.numero_formatado}",
        )
    else:
        if decisao is None:
            raise ErroDominio(
                f"O auto nº {auto.numero_formatado} ainda não foi decidido: não há decisão a intimar.",
                "objeto",
            )
        dia = data_valida(
            p.data, "data", "a data da intimação", minimo=decisao.data, rotulo_minimo="a decisão"
        )
    return _IntimacaoConferida(
        auto, decisao, pendentes, termo, dia, objeto, meio, resultado, nome, documento, recibo_limpo, obs
    )


def termo_revisao_a_intimar(s: so.Session, auto: AutoInfracao) -> RevisaoSancao:
    """The auto's latest termo de revisão, the one a delivery of objeto "revisao" carries: refused when the
    auto has none, or when its PDF was never issued (the case would hold no proof of what was delivered)."""
    revisao = s.scalar(
        sa.select(RevisaoSancao)
        .where(RevisaoSancao.auto_id == auto.id, RevisaoSancao.situacao == "revisada")
        .order_by(RevisaoSancao.decidida_em.desc(), RevisaoSancao.id.desc())
        .limit(1)
    )
    if revisao is None or revisao.decidida_em is None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} não tem termo de revisão: não há revisão a intimar.", "objeto"
        )
    emitido = s.scalar(
        sa.select(DocumentoEmitido.id)
        .where(
            DocumentoEmitido.tipo == "revisao",
            DocumentoEmitido.auto_id == auto.id,
            DocumentoEmitido.referencia == revisao.numero_formatado,
        )
        .limit(1)
    )
    if emitido is None:
        raise ErroDominio(
            f"O termo de revisão nº {revisao.numero_formatado} ainda não foi emitido: emita-o (aba Documentos, "
            "“Termo de revisão (PDF)”) antes de registrar a entrega.",
            "objeto",
        )
    return revisao


def _exigir_intimacao_do_termo_emitida(s: so.Session, auto: AutoInfracao, termo: Retificacao) -> None:
    """A delivery "com a cópia do auto retificado" needs that paper: the termo's intimação, issued and
    stored (it carries the corrected auto's copy). Recording a delivery of a paper that was never issued
    would leave the case without proof of what the operator received (REGRAS § 5)."""
    emitida = s.scalar(
        sa.select(DocumentoEmitido.id)
        .where(
            DocumentoEmitido.tipo == "intimacao_termo",
            DocumentoEmitido.auto_id == auto.id,
            DocumentoEmitido.referencia == termo.numero_formatado,
        )
        .limit(1)
    )
    if emitida is None and not _em_lote_emitido(s, auto, termo):
        raise ErroDominio(
            f"A intimação do termo de retificação nº {termo.numero_formatado}, com a cópia do auto retificado, "
            "ainda não foi emitida: emita-a (aba Documentos, “Intimação do termo (PDF)”, ou o lote de "
            "intimações) antes de registrar a entrega.",
            "retificacao_id",
        )


def _em_lote_emitido(s: so.Session, auto: AutoInfracao, termo: Retificacao) -> bool:
    """Whether a batch of intimações issued after the termo covers it: the batch carries the intimação of
    every termo of substance not yet delivered of each auto drawn up, or corrected in substance, in its
    period ("dd/mm/aaaa a dd/mm/aaaa")."""
    termos = s.execute(
        sa.select(Retificacao.data, Retificacao.lavrado_em).where(
            Retificacao.auto_id == auto.id, Retificacao.substancial.is_(True)
        )
    ).all()
    for referencia, emitido_em in s.execute(
        sa.select(DocumentoEmitido.referencia, DocumentoEmitido.emitido_em).where(
            DocumentoEmitido.tipo == "lote_intimacoes", DocumentoEmitido.emitido_em >= termo.lavrado_em
        )
    ):
        inicio, _a, fim = referencia.partition(" a ")
        try:
            de, ate = (datetime.strptime(x.strip(), "%d/%m/%Y").date() for x in (inicio, fim))
        except ValueError:
            continue
        # The auto was in that batch if drawn up, or corrected in substance before it, within its period.
        dias = [auto.data_lavratura] + [dia for dia, lavrado in termos if lavrado <= emitido_em]
        if any(de <= dia <= ate for dia in dias):
            return True
    return False


def conferir_intimacao(sessao: so.Session, ator: Ator, pedido: PedidoIntimacao) -> None:
    """The refusals `registrar_intimacao` would raise for the same request, from a read session and
    writing nothing: what the screen runs before asking to confirm a delivered intimação."""
    _conferir_intimacao(sessao, ator, pedido, travar=False)


@retentavel
def registrar_intimacao(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoIntimacao) -> ResumoIntimacao:
    """Record one delivery attempt of the auto, the decision, the appeal's judgment or the latest termo de
    revisão, successful or not.

    With `pedido.retificacao_id` (objeto "auto"), what was delivered is that termo de retificação of the auto. While
    a correction of substance awaits its intimação, the auto's own intimação is refused: the termo is what
    must be delivered, and its first delivery, once no other termo of substance awaits one, starts the
    reopened defence deadline (REGRAS § 5). A formal termo's delivery starts and moves no deadline.

    Objeto "revisao" delivers the auto's latest termo de revisão (its PDF issued; dated on or after the termo).
    Like the judgment's notice, that delivery starts no deadline: the case is already decided, and a revision
    only ever lowers the penalty (Lei 9.784/1999, art. 65, parágrafo único), so there is nothing new to
    defend or appeal against — no new appeal is opened (art. 15 gives one appeal, against the decision) —
    and the fine's payment deadline still counts from the day the penalty became final (the revised amount
    replaces the open one). The delivery is recorded so the case holds the proof that the operator was told.
    The checks are `conferir_intimacao`'s, run again inside this unit of work.
    """
    with uow:
        s = uow.session
        c = _conferir_intimacao(s, ator, pedido)
        auto, decisao, pendentes, termo, dia = c.auto, c.decisao, c.pendentes, c.termo, c.dia
        objeto, resultado, nome = c.objeto, c.resultado, c.nome
        sucesso = resultado == "entregue"
        intimacao = Intimacao(
            auto_id=auto.id,
            objeto=objeto,
            data=dia,
            meio=c.meio,
            resultado=resultado,
            sucesso=sucesso,
            recebedor_nome=nome,
            recebedor_documento=c.documento,
            recibo=c.recibo,
            observacao=c.observacao,
            registrado_por=ator.login,
            registrado_em=relogio.agora(),
            retificacao_id=termo.id if termo is not None else None,
        )
        antes = imagem(auto)
        mudou = False
        explicacao = None
        sem_prazo = _termo_sem_prazo(termo, pendentes) if sucesso else None
        if sem_prazo is not None:
            explicacao = sem_prazo
        elif sucesso and objeto == "auto" and auto.prazo_defesa is None:
            prazo = calendario(s).prazo(dia, PRAZO_DEFESA_DIAS)
            intimacao.prazo = auto.prazo_defesa = prazo.vencimento
            auto.fase = "intimado"
            nome = "Prazo de defesa (art. 14)" if termo is None else "Prazo de defesa reaberto (art. 14)"
            explicacao, mudou = f"{nome}: {prazo.explicacao}", True
        elif (
            sucesso
            and objeto == "decisao"
            and decisao is not None
            and decisao.resultado == "aplicada"
            and auto.prazo_recurso is None
        ):
            prazo = calendario(s).prazo(dia, PRAZO_RECURSO_DIAS)
            intimacao.prazo = auto.prazo_recurso = prazo.vencimento
            explicacao, mudou = f"Prazo de recurso (art. 15): {prazo.explicacao}", True
            definitividade.atualizar(s, auto)
        elif sucesso and objeto == "julgamento":
            explicacao = (
                "Notificação do julgamento do recurso entregue: a decisão é de última instância (art. 15) e "
                "nenhum prazo começa a correr; o da multa conta do dia em que a penalidade se tornou definitiva."
            )
        elif sucesso and objeto == "revisao":
            explicacao = (
                "Termo de revisão entregue: a revisão só reduz a penalidade já decidida (Lei federal nº "
                "9.784/1999, art. 65, parágrafo único) e nenhum prazo começa a correr; o da multa conta do dia "
                "em que a penalidade se tornou definitiva."
            )
        elif sucesso:
            explicacao = _prazo_mantido(s, auto, objeto, decisao)
        if mudou:
            auto.alterado_por = ator.login
        s.add(intimacao)
        s.flush()
        auditoria.registrar(
            s, ator, "registrar_intimacao", "intimacao", intimacao.id, None, imagem(intimacao)
        )
        if mudou:
            auditoria.registrar(s, ator, "registrar_intimacao", "auto_infracao", auto.id, antes, imagem(auto))
        uow.commit()
        return ResumoIntimacao(intimacao.id, sucesso, intimacao.prazo, explicacao)


def _termo_intimado(
    s: so.Session, auto: AutoInfracao, objeto: str, retificacao_id: int | None, pendentes: list[Retificacao]
) -> Retificacao | None:
    """The termo de retificação this delivery carries; refused when it is not the auto's, and the auto's own
    intimação refused while a termo of substance awaits its own (the deadline counts from that one)."""
    if retificacao_id is None:
        if objeto == "auto" and pendentes:
            ultimo = pendentes[-1]
            raise ErroDominio(
                f"O auto nº {auto.numero_formatado} foi retificado pelo termo nº {ultimo.numero_formatado}, de "
                f"{formatar_data(ultimo.data)}, que altera a substância do auto: registre a intimação do termo "
                "de retificação (o prazo de defesa é contado dela).",
                "retificacao_id",
            )
        return None
    termo = s.get(Retificacao, retificacao_id) if id_valido(retificacao_id) else None
    if termo is None or termo.auto_id != auto.id:
        raise ErroDominio(
            f"Termo de retificação não encontrado no auto nº {auto.numero_formatado}.", "retificacao_id"
        )
    if objeto != "auto":
        raise ErroDominio(
            "O termo de retificação retifica o auto: registre-o como intimação do auto, não da decisão.",
            "objeto",
        )
    return termo


def _termo_sem_prazo(termo: Retificacao | None, pendentes: list[Retificacao]) -> str | None:
    """Why a delivered termo starts no deadline: it is formal, or another termo of substance still awaits."""
    if termo is None:
        return None
    if not termo.substancial:
        return (
            f"Termo de retificação nº {termo.numero_formatado} (formal) intimado: não reabre nem move o prazo "
            "de defesa."
        )
    outros = [t for t in pendentes if t.id != termo.id]
    if outros:
        return (
            f"O prazo de defesa só recomeça com a intimação do termo nº {outros[-1].numero_formatado}, que "
            "também altera a substância do auto."
        )
    return None


def _prazo_mantido(s: so.Session, auto: AutoInfracao, objeto: str, decisao: Decisao | None) -> str | None:
    """Why a further successful intimação leaves the running deadline where it is (None when none runs).

    Arts. 14 and 15 count the 15 days from "the intimação": the first valid one. A later one does not reopen the
    deadline, and one dated earlier but recorded later does not shorten a deadline already announced (the longer
    one never harms the defence, a shorter one could void the procedure); so the deadline is never moved.
    """
    if objeto == "auto":
        prazo, nome = auto.prazo_defesa, "Prazo de defesa (art. 14)"
    elif decisao is not None and decisao.resultado == "aplicada":
        prazo, nome = auto.prazo_recurso, "Prazo de recurso (art. 15)"
    else:
        return None
    if prazo is None:
        return None
    inicio = s.scalar(
        sa.select(Intimacao.data)
        .where(Intimacao.auto_id == auto.id, Intimacao.objeto == objeto, Intimacao.prazo.is_not(None))
        .order_by(Intimacao.id.desc())  # the running one: a termo of substance reopens it (REGRAS § 5)
        .limit(1)
    )
    contado = f", contado da intimação de {formatar_data(inicio)}" if inicio is not None else ""
    return (
        f"{nome} mantido: vence em {formatar_data(prazo)}{contado}. Uma nova intimação não reabre nem "
        "encurta o prazo já em curso."
    )


def _primeira_intimacao(s: so.Session, auto_id: int, objeto: str) -> date | None:
    return s.scalar(
        sa.select(sa.func.min(Intimacao.data)).where(
            Intimacao.auto_id == auto_id, Intimacao.objeto == objeto, Intimacao.sucesso.is_(True)
        )
    )


# --- defesa (art. 14) --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResumoDefesa:
    id: int
    tempestiva: bool
    prazo: date


@retentavel
def registrar_defesa(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    auto_id: int,
    protocolada_em: date,
    requerente: str = "",
    texto: str = "",
    recibo: str = "",
    versao: int | None = None,
) -> ResumoDefesa:
    """Record the defence petition; an untimely one is recorded too, marked "intempestiva"."""
    exigir_papel(ator, "protocolo", acao="registrar defesas")
    requerente_limpo = texto_opcional(requerente, "requerente", "o requerente", 200)
    texto_limpo = texto_opcional(texto, "texto", "o texto da defesa")
    recibo_limpo = texto_opcional(recibo, "recibo", "o recibo", 120)
    with uow:
        s = uow.session
        auto = auto_para_ato(s, auto_id, "registrar defesas")
        verificar_versao(auto, versao, f"O auto nº {auto.numero_formatado}")
        intimado_em = _primeira_intimacao(s, auto.id, "auto")
        if auto.prazo_defesa is None or intimado_em is None:
            raise ErroDominio(
                f"O auto nº {auto.numero_formatado} ainda não foi intimado: a defesa só corre a partir da "
                "intimação (art. 14). Registre antes a intimação.",
                "protocolada_em",
            )
        data_decisao = s.scalar(sa.select(Decisao.data).where(Decisao.auto_id == auto.id))
        if data_decisao is not None:
            raise ErroDominio(
                f"O auto nº {auto.numero_formatado} já foi decidido em {formatar_data(data_decisao)}: "
                "a defesa não pode mais ser registrada (cabe recurso ao Prefeito).",
                "auto_id",
            )
        dia = data_valida(
            protocolada_em,
            "protocolada_em",
            "a data do protocolo",
            minimo=intimado_em,
            rotulo_minimo="a intimação",
        )
        defesa = Defesa(
            auto_id=auto.id,
            protocolada_em=dia,
            tempestiva=tempestivo(dia, auto.prazo_defesa),
            requerente=requerente_limpo,
            texto=texto_limpo,
            recibo=recibo_limpo,
            registrado_por=ator.login,
            alterado_por=ator.login,
        )
        s.add(defesa)
        s.flush()
        auditoria.registrar(s, ator, "registrar_defesa", "defesa", defesa.id, None, imagem(defesa))
        uow.commit()
        return ResumoDefesa(defesa.id, defesa.tempestiva, auto.prazo_defesa)


# --- penalty range -----------------------------------------------------------------------------------------


def _aguarda_defesa(s: so.Session, auto: AutoInfracao, dia: date, acao: str) -> None:
    """Refuse a penalty before the intimação, or before the defence deadline when no defence is on file."""
    pendentes = termos_sem_intimacao(s, auto.id, so_substancia=True)
    if pendentes:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} foi retificado pelo termo nº {pendentes[-1].numero_formatado}, "
            f"ainda não intimado: não é possível {acao} antes da intimação do termo e do novo prazo de defesa "
            "(arts. 11 e 14).",
            "auto_id",
        )
    if auto.fase == "lavrado" or auto.prazo_defesa is None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} ainda não foi intimado: não é possível {acao} antes da "
            "intimação e do prazo de defesa (arts. 11 e 14).",
            "auto_id",
        )
    if dia > auto.prazo_defesa:
        return
    consulta = sa.select(sa.func.min(Defesa.protocolada_em)).where(Defesa.auto_id == auto.id)
    reaberto = inicio_prazo_retificado(s, auto.id)
    if reaberto is not None:  # a defence of the auto as it read before the correction answers another text
        consulta = consulta.where(Defesa.protocolada_em >= reaberto)
    primeira_defesa = s.scalar(consulta)
    if primeira_defesa is None:
        raise ErroDominio(
            f"O prazo de defesa do auto nº {auto.numero_formatado} vai até {formatar_data(auto.prazo_defesa)} e "
            f"nenhuma defesa foi registrada: não é possível {acao} antes do fim do prazo (art. 14).",
            "data",
        )
    if primeira_defesa > dia:
        raise ErroDominio(
            f"O prazo de defesa do auto nº {auto.numero_formatado} vai até {formatar_data(auto.prazo_defesa)} e a "
            f"defesa só foi protocolada em {formatar_data(primeira_defesa)}: não é possível {acao} em "
            f"{formatar_data(dia)}, antes da defesa e do fim do prazo (art. 14).",
            "data",
        )


# --- proposta (art. 13) ------------------------------------------------------------------------------------


@retentavel
def registrar_proposta(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    auto_id: int,
    data: date,
    acao: str,
    fundamentacao: str,
    multa_ur: Decimal | None = None,
    suspensao_dias: int = 0,
) -> int:
    """The competent authority proposes the penalty (inside the range) or the dismissal."""
    exigir_papel(ator, "autoridade", acao="propor penalidades")
    acao = escolha(acao, ACOES_PROPOSTA, "acao", "a proposta")
    fundamentos = texto_obrigatorio(fundamentacao, "fundamentacao", "a fundamentação da proposta")
    if acao == "aplicar":
        multa = urm_valida(multa_ur, "multa_ur", "a multa proposta (URM)")
        dias = dias_validos(suspensao_dias, "suspensao_dias", "a suspensão proposta")
    else:
        multa, dias = Decimal(0), 0
    with uow:
        s = uow.session
        auto = auto_para_ato(s, auto_id, "propor penalidade")
        _recusar_decidido(s, auto)
        dia = data_valida(
            data, "data", "a data da proposta", minimo=auto.data_lavratura, rotulo_minimo="a lavratura"
        )
        if acao == "aplicar":
            _aguarda_defesa(s, auto, dia, "propor a penalidade")
            conferir_penalidade_nos_campos(sancao_do_auto(s, auto, dia), multa, dias)
        proposta = Proposta(
            auto_id=auto.id,
            data=dia,
            acao=acao,
            multa_ur=multa,
            suspensao_dias=dias,
            fundamentacao=fundamentos,
            autoridade=ator.login,
            registrada_em=relogio.agora(),
        )
        s.add(proposta)
        s.flush()
        auditoria.registrar(s, ator, "registrar_proposta", "proposta", proposta.id, None, imagem(proposta))
        uow.commit()
        return proposta.id


def _exigir_proposta(s: so.Session, auto: AutoInfracao, dia: date) -> None:
    """Art. 13: "as penalidades serão propostas pela autoridade competente e aplicadas pelo Secretário".

    A penalty needs the authority's proposal to apply one, on file on or before the decision day; the latest
    such proposal counts (a later proposal to dismiss replaces an earlier one to apply). The Secretary is not
    bound to the proposed amount, only to the range. A dismissal needs no proposal (it applies no penalty).
    """
    consulta = sa.select(Proposta.data, Proposta.acao).where(
        Proposta.auto_id == auto.id, Proposta.data <= dia
    )
    reaberto = inicio_prazo_retificado(s, auto.id)
    if reaberto is not None:  # proposed on the auto as it read before a correction of substance
        consulta = consulta.where(Proposta.data >= reaberto)
    ultima = s.execute(consulta.order_by(Proposta.data.desc(), Proposta.id.desc()).limit(1)).first()
    if ultima is None:
        raise ErroDominio(
            f"Não há proposta de penalidade da autoridade competente no auto nº {auto.numero_formatado} até "
            f"{formatar_data(dia)}: pelo art. 13, as penalidades são propostas pela autoridade e aplicadas pelo "
            "Secretário. Registre antes a proposta (o arquivamento não depende dela).",
            "resultado",
        )
    if ultima.acao != "aplicar":
        raise ErroDominio(
            f"A última proposta da autoridade, de {formatar_data(ultima.data)}, é de arquivamento: para aplicar "
            "penalidade, a autoridade deve antes propô-la (art. 13).",
            "resultado",
        )


def _recusar_decidido(s: so.Session, auto: AutoInfracao) -> None:
    data_decisao = s.scalar(sa.select(Decisao.data).where(Decisao.auto_id == auto.id))
    if data_decisao is not None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} já foi decidido em {formatar_data(data_decisao)}.", "auto_id"
        )


# --- decisão (art. 13) -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisaoCaso:
    """A decision as the case screen shows it (`caso.obter_caso`) and as `decidir` answers."""

    id: int
    data: date
    resultado: str
    multa_ur: Decimal
    valor_urm: Decimal | None
    multa_reais: Decimal
    suspensao_dias: int
    reincidencia: int
    faixa_min_ur: Decimal | None
    faixa_max_ur: Decimal | None
    fundamentacao: str
    fundamentos_legais: str
    secretario: str
    defesa_intempestiva: bool
    """On the case screen, every defence of the current defence period is late, as they are classified today
    (the Prazos box's reading); in `decidir`'s answer, the flag stored with the decision (what held on its
    day)."""
    versao: int

    @classmethod
    def do_registro(cls, d: Decisao, *, defesa_intempestiva: bool) -> DecisaoCaso:
        return cls(
            id=d.id,
            data=d.data,
            resultado=d.resultado,
            multa_ur=d.multa_ur,
            valor_urm=d.valor_urm,
            multa_reais=d.multa_reais,
            suspensao_dias=d.suspensao_dias,
            reincidencia=d.reincidencia,
            faixa_min_ur=d.faixa_min_ur,
            faixa_max_ur=d.faixa_max_ur,
            fundamentacao=d.fundamentacao,
            fundamentos_legais=d.fundamentos_legais,
            secretario=d.secretario,
            defesa_intempestiva=defesa_intempestiva,
            versao=d.versao,
        )


@dataclass(frozen=True)
class _DecisaoConferida:
    auto: AutoInfracao
    dia: date
    resultado: str
    fundamentos: str
    multa: Decimal
    dias: int
    sancao: Sancao | None
    valor_urm: Decimal | None
    reais: Decimal


@dataclass(frozen=True)
class PedidoDecisao:
    """What `decidir` and `conferir_decisao` are asked: dismiss, or apply a fine (and a suspension)."""

    auto_id: int
    data: date
    resultado: str
    fundamentacao: str
    multa_ur: Decimal | None = None
    suspensao_dias: int = 0
    versao: int | None = None


def _conferir_decisao(
    s: so.Session, ator: Ator, pedido: PedidoDecisao, *, travar: bool = True
) -> _DecisaoConferida:
    """Every check of `decidir`, in its order, writing nothing: the decision day (not before the
    intimação, not in the future), the defence window, the proposal, the fine's range and the suspension."""
    p = pedido
    exigir_papel(ator, "secretario", acao="decidir autos de infração")
    resultado = escolha(p.resultado, RESULTADOS_DECISAO, "resultado", "a decisão")
    fundamentos = texto_obrigatorio(p.fundamentacao, "fundamentacao", "a fundamentação da decisão")
    if resultado == "aplicada":
        multa = urm_valida(p.multa_ur, "multa_ur", "a multa (URM)")
        dias = dias_validos(p.suspensao_dias, "suspensao_dias", "a suspensão")
    else:
        multa, dias = Decimal(0), 0
    auto = auto_para_ato(s, p.auto_id, "decidi-lo", travar=travar)
    verificar_versao(auto, p.versao, f"O auto nº {auto.numero_formatado}")
    _recusar_decidido(s, auto)
    intimado_em = _primeira_intimacao(s, auto.id, "auto")
    dia = data_valida(
        p.data,
        "data",
        "a data da decisão",
        minimo=intimado_em or auto.data_lavratura,
        rotulo_minimo="a intimação do auto" if intimado_em else "a lavratura do auto",
    )
    sancao = None
    valor_urm = None
    reais = Decimal(0)
    if resultado == "aplicada":
        _aguarda_defesa(s, auto, dia, "aplicar a penalidade")
        _exigir_proposta(s, auto, dia)
        sancao = sancao_do_auto(s, auto, dia)
        conferir_penalidade_nos_campos(sancao, multa, dias)
        valor_urm = valor_urm_em(s, dia, "data")
        reais = urm_para_reais(multa, valor_urm)
    return _DecisaoConferida(auto, dia, resultado, fundamentos, multa, dias, sancao, valor_urm, reais)


def conferir_decisao(sessao: so.Session, ator: Ator, pedido: PedidoDecisao) -> None:
    """The refusals `decidir` would raise for the same request (a fine outside the range, a suspension
    the provision does not allow, a decision before the defence window ends, …), from a read session and
    writing nothing: what the screen runs before asking to confirm the irreversible decision."""
    _conferir_decisao(sessao, ator, pedido, travar=False)


@retentavel
def decidir(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoDecisao) -> DecisaoCaso:
    """The Secretary dismisses the auto or applies the penalty (fine in range, suspension where allowed).
    The checks are `conferir_decisao`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        c = _conferir_decisao(s, ator, pedido)
        auto, dia, resultado, fundamentos = c.auto, c.dia, c.resultado, c.fundamentos
        multa, dias, sancao, valor_urm, reais = c.multa, c.dias, c.sancao, c.valor_urm, c.reais
        defesas = s.execute(sa.select(Defesa.tempestiva).where(Defesa.auto_id == auto.id)).scalars().all()
        antes = imagem(auto)
        orgao = s.get(DadosOrgao, 1)
        decisao = Decisao(
            auto_id=auto.id,
            data=dia,
            resultado=resultado,
            multa_ur=multa,
            valor_urm=valor_urm,
            multa_reais=reais,
            suspensao_dias=dias,
            reincidencia=sancao.reincidencia if sancao else 0,
            faixa_min_ur=sancao.multa_min_ur if sancao else None,
            faixa_max_ur=sancao.multa_max_ur if sancao else None,
            fundamentacao=fundamentos,
            fundamentos_legais="\n".join(sancao.fundamentos) if sancao else "",
            secretario=ator.login,
            # The notice signs with the letterhead's Secretary of the day: recorded now, so a later
            # change of Secretary never renames an old decision.
            secretario_nome=(orgao.secretario_nome.strip() or None) if orgao is not None else None,
            secretario_cargo=((orgao.secretario_cargo or "").strip() or None) if orgao is not None else None,
            defesa_intempestiva=bool(defesas) and not any(defesas),
            alterado_por=ator.login,
        )
        s.add(decisao)
        novos: list[Any] = [decisao]
        if resultado == "aplicada":
            auto.fase = "decidido"
            auto.data_decisao = dia
            auto.multa_ur = multa
            auto.suspensao_dias = dias
            auto.data_definitiva = None  # final only once notified and unappealed (definitividade)
            novos.append(Pagamento(decisao=decisao, situacao="aberto", valor=reais, alterado_por=ator.login))
            novos.append(Cumprimento(auto_id=auto.id, situacao="pendente", alterado_por=ator.login))
        else:
            # A dismissal punishes nothing: no penalty decision day, so later cases never count it.
            auto.fase = "encerrado"
        auto.alterado_por = ator.login
        s.add_all(novos)
        s.flush()
        for registro in novos:
            auditoria.registrar(
                s, ator, "decidir", registro.__tablename__, registro.id, None, imagem(registro)
            )
        auditoria.registrar(s, ator, "decidir", "auto_infracao", auto.id, antes, imagem(auto))
        uow.commit()
        return DecisaoCaso.do_registro(decisao, defesa_intempestiva=decisao.defesa_intempestiva)


# --- recurso (art. 15) -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResumoRecurso:
    id: int
    tempestivo: bool
    antes_da_intimacao: bool
    """Filed before the decision was intimated: accepted, and timely (the deadline had not started)."""
    prazo: date | None


@dataclass(frozen=True)
class PedidoRecurso:
    """What `registrar_recurso` and `conferir_recurso` are asked: the appeal as filed."""

    auto_id: int
    protocolado_em: date
    razoes: str = ""
    versao: int | None = None


def _conferir_recurso(
    s: so.Session, ator: Ator, pedido: PedidoRecurso, *, travar: bool = True
) -> tuple[AutoInfracao, Decisao, date, str]:
    """Every check of `registrar_recurso`, in its order, writing nothing."""
    exigir_papel(ator, "protocolo", acao="registrar recursos")
    razoes_limpas = texto_opcional(pedido.razoes, "razoes", "as razões do recurso")
    auto = auto_para_ato(s, pedido.auto_id, "registrar recursos", travar=travar)
    verificar_versao(auto, pedido.versao, f"O auto nº {auto.numero_formatado}")
    decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    if decisao is None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} ainda não foi decidido: não há decisão de que recorrer.",
            "auto_id",
        )
    if decisao.resultado != "aplicada":
        raise ErroDominio(
            f"Não cabe recurso: a decisão de {formatar_data(decisao.data)} arquivou o auto nº "
            f"{auto.numero_formatado}, sem penalidade.",
            "auto_id",
        )
    anterior = s.scalar(sa.select(Recurso).where(Recurso.decisao_id == decisao.id))
    if anterior is not None:
        raise ErroDominio(
            f"Já foi registrado recurso contra a decisão do auto nº {auto.numero_formatado}, protocolado em "
            f"{formatar_data(anterior.protocolado_em)}: o art. 15 admite um só recurso.",
            "auto_id",
        )
    dia = data_valida(
        pedido.protocolado_em,
        "protocolado_em",
        "a data do protocolo",
        minimo=decisao.data,
        rotulo_minimo="a decisão",
    )
    return auto, decisao, dia, razoes_limpas


def conferir_recurso(sessao: so.Session, ator: Ator, pedido: PedidoRecurso) -> None:
    """The refusals `registrar_recurso` would raise (no applied decision, a second appeal, a protocol date
    before the decision or in the future), from a read session and writing nothing."""
    _conferir_recurso(sessao, ator, pedido, travar=False)


@retentavel
def registrar_recurso(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoRecurso) -> ResumoRecurso:
    """Record the appeal to the Prefeito against an applied penalty (one per decision). The checks are
    `conferir_recurso`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        auto, decisao, dia, razoes_limpas = _conferir_recurso(s, ator, pedido)
        antes_da_intimacao = auto.prazo_recurso is None
        no_prazo = auto.prazo_recurso is None or tempestivo(dia, auto.prazo_recurso)
        recurso = Recurso(
            decisao_id=decisao.id,
            protocolado_em=dia,
            tempestivo=no_prazo,
            razoes=razoes_limpas,
            registrado_por=ator.login,
            resultado="pendente",
            alterado_por=ator.login,
        )
        s.add(recurso)
        antes = imagem(auto)
        if no_prazo:
            auto.fase = "em_recurso"
            auto.alterado_por = ator.login
            definitividade.atualizar(s, auto)
        s.flush()
        auditoria.registrar(s, ator, "registrar_recurso", "recurso", recurso.id, None, imagem(recurso))
        if no_prazo:
            auditoria.registrar(s, ator, "registrar_recurso", "auto_infracao", auto.id, antes, imagem(auto))
        uow.commit()
        return ResumoRecurso(recurso.id, no_prazo, antes_da_intimacao, auto.prazo_recurso)


@dataclass(frozen=True)
class _JulgamentoConferido:
    auto: AutoInfracao
    recurso: Recurso
    decisao: Decisao
    dia: date
    resultado: str
    fundamentos: str
    multa_nova: Decimal | None
    dias_novos: int | None


@dataclass(frozen=True)
class PedidoJulgamento:
    """What `julgar_recurso` and `conferir_julgamento` are asked: the Prefeito's outcome (and, when the
    appeal is granted in part, the reduced penalty)."""

    auto_id: int
    data: date
    resultado: str
    fundamentacao: str = ""
    multa_ur_nova: Decimal | None = None
    suspensao_dias_nova: int | None = None
    versao: int | None = None


def _conferir_julgamento(
    s: so.Session, ator: Ator, pedido: PedidoJulgamento, *, travar: bool = True
) -> _JulgamentoConferido:
    """Every check of `julgar_recurso`, in its order, writing nothing."""
    p = pedido
    exigir_papel(ator, "protocolo", acao="registrar o julgamento de recursos")
    resultado = escolha(p.resultado, RESULTADOS_JULGAMENTO, "resultado", "o resultado do recurso")
    fundamentos = texto_opcional(p.fundamentacao, "fundamentacao", "a fundamentação")
    auto = auto_para_ato(s, p.auto_id, "registrar o julgamento do recurso", travar=travar)
    verificar_versao(auto, p.versao, f"O auto nº {auto.numero_formatado}")
    linha = com_decisao(s, Recurso, auto.id)
    if linha is None:
        raise ErroDominio(f"Não há recurso registrado no auto nº {auto.numero_formatado}.", "auto_id")
    recurso, decisao = linha
    if recurso.resultado != "pendente":
        raise ErroDominio(
            f"O recurso do auto nº {auto.numero_formatado} já foi julgado em "
            f"{formatar_data(recurso.julgado_em or recurso.protocolado_em)}.",
            "auto_id",
        )
    dia = data_valida(
        p.data,
        "data",
        "a data do julgamento",
        minimo=recurso.protocolado_em,
        rotulo_minimo="o protocolo do recurso",
    )
    multa_nova: Decimal | None = None
    dias_novos: int | None = None
    if resultado == "provido_parcialmente":
        multa_nova = urm_valida(p.multa_ur_nova, "multa_ur", "a multa reduzida (URM)")
        dias_novos = dias_validos(p.suspensao_dias_nova, "suspensao_dias", "a suspensão reduzida")
        if multa_nova > auto.multa_ur or dias_novos > auto.suspensao_dias:
            raise ErroDominio(
                "No provimento parcial a penalidade só pode ser reduzida: a decisão aplicou "
                f"{formatar_urm(auto.multa_ur)}"
                + (
                    f" e {auto.suspensao_dias} {'dia' if auto.suspensao_dias == 1 else 'dias'} de suspensão"
                    if auto.suspensao_dias
                    else ""
                )
                + ".",
                "multa_ur" if multa_nova > auto.multa_ur else "suspensao_dias",
            )
        if multa_nova == auto.multa_ur and dias_novos == auto.suspensao_dias:
            raise ErroDominio(
                "No provimento parcial a penalidade deve ser reduzida; para mantê-la, registre “recurso negado”.",
                "multa_ur",
            )
        conferir_penalidade_nos_campos(sancao_do_auto(s, auto, dia), multa_nova, dias_novos)
    return _JulgamentoConferido(auto, recurso, decisao, dia, resultado, fundamentos, multa_nova, dias_novos)


def conferir_julgamento(sessao: so.Session, ator: Ator, pedido: PedidoJulgamento) -> None:
    """The refusals `julgar_recurso` would raise (no pending appeal, a date before its protocol or in the
    future, a "reduced" penalty that is not lower or is outside the range), from a read session and
    writing nothing: what the screen runs before asking to confirm."""
    _conferir_julgamento(sessao, ator, pedido, travar=False)


@retentavel
def julgar_recurso(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoJulgamento) -> None:
    """Record the Prefeito's outcome; a granted appeal annuls the penalty, a partial one reduces it. The
    checks are `conferir_julgamento`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        c = _conferir_julgamento(s, ator, pedido)
        auto, recurso, decisao, dia, resultado = c.auto, c.recurso, c.decisao, c.dia, c.resultado
        fundamentos, multa_nova, dias_novos = c.fundamentos, c.multa_nova, c.dias_novos
        antes_auto, antes_recurso = imagem(auto), imagem(recurso)
        recurso.resultado = resultado
        recurso.julgado_em = dia
        recurso.multa_ur_nova = multa_nova
        recurso.suspensao_dias_nova = dias_novos
        recurso.fundamentacao_julgamento = fundamentos or None
        recurso.alterado_por = ator.login
        auto.fase = "encerrado"
        auto.alterado_por = ator.login
        pagamento = s.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id))
        suspensao = s.scalar(sa.select(Suspensao).where(Suspensao.decisao_id == decisao.id))
        alterados: list[tuple[str, Any, dict[str, Any]]] = []
        if pagamento is not None:
            alterados.append(("pagamento", pagamento, imagem(pagamento)))
        if suspensao is not None:
            alterados.append(("suspensao", suspensao, imagem(suspensao)))
        if resultado == "provido":
            auto.penalidade_anulada = True
            if pagamento is not None and pagamento.situacao != "pago":
                pagamento.situacao = "cancelado"
            if suspensao is not None:
                suspensao.anulada = True
        elif resultado == "provido_parcialmente":
            assert multa_nova is not None and dias_novos is not None
            auto.multa_ur = multa_nova
            auto.suspensao_dias = dias_novos
            if pagamento is not None and pagamento.situacao != "pago" and decisao.valor_urm is not None:
                pagamento.valor = urm_para_reais(multa_nova, decisao.valor_urm)
            if suspensao is not None:
                if dias_novos == 0:
                    suspensao.anulada = True
                else:
                    suspensao.dias = dias_novos
                    suspensao.fim = suspensao.inicio + timedelta(days=dias_novos - 1)
        definitividade.atualizar(s, auto)
        mudaram = [
            (nome, registro, antes) for nome, registro, antes in alterados if imagem(registro) != antes
        ]
        for _, registro, _antes in mudaram:
            registro.alterado_por = ator.login
        s.flush()
        auditoria.registrar(s, ator, "julgar_recurso", "recurso", recurso.id, antes_recurso, imagem(recurso))
        auditoria.registrar(s, ator, "julgar_recurso", "auto_infracao", auto.id, antes_auto, imagem(auto))
        for nome, registro, antes in mudaram:
            auditoria.registrar(s, ator, "julgar_recurso", nome, registro.id, antes, imagem(registro))
        if resultado in ("provido", "provido_parcialmente"):
            # A later decided case that counted this penalty as recidivism goes to the review list (art. 65).
            from secretaria.services.revisao_sancao import sinalizar

            efeito = "anulada" if resultado == "provido" else "reduzida"
            sinalizar(s, ator, auto, f"teve a penalidade {efeito} em recurso julgado em {formatar_data(dia)}")
        uow.commit()
