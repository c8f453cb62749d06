"""Official documents from the database: the reports' plain data, and issuing them (render, store, audit).

`reports` never reads the database; the readers here build its frozen dataclasses (`dados_auto`,
`dados_intimacao`, `dados_decisao`, `dados_ficha`, `dados_lote_intimacoes`, `timbre`) in a few queries each.

Issuing (`emitir_documento`) renders the PDF, keeps its bytes in `DocumentoEmitido` with their SHA-256 and
writes the audit row; printing again serves the stored bytes (`obter_documento`, which re-checks the hash),
so a re-print is byte for byte the paper that was delivered (PRODUTO § 9). Issuing the same document twice
gives the same bytes (the renderers are pure functions of their data), and the second issue returns the
stored one instead of keeping a copy. Any role may issue and print: consulta "reads and prints". The reads
of the papers already issued live in `emitidos` (the case screen and the complete case file take them from
there) and are re-exported here.

The data is read in one short transaction and the PDF rendered outside it, so a batch of a thousand notices
never holds SQLite's write lock while ReportLab works.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import ROTULOS_CASSACAO, ROTULOS_CURTOS_PAGAMENTO, ROTULOS_RESULTADO_CASSACAO
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.documentos import DocumentoInvalido, validar_cnpj
from secretaria.lei.formato import formatar_data, formatar_urm
from secretaria.lei.sancoes import FAIXA_PRIMEIRA_PENALIDADE, TETO_MULTA_UR
from secretaria.lei.urm import por_extenso, urm_para_reais
from secretaria.models import (
    PAPEIS,
    Auditoria,
    AutoInfracao,
    Cassacao,
    DadosOrgao,
    Decisao,
    Defesa,
    DispositivoCatalogo,
    DocumentoEmitido,
    Intimacao,
    Linha,
    Operadora,
    Pagamento,
    Proposta,
    Recurso,
    Representacao,
    Retificacao,
    RevisaoSancao,
    Suspensao,
    Veiculo,
)
from secretaria.reports.dados import (
    DadosAuto,
    DadosDecisao,
    DadosDispositivo,
    DadosEmpregado,
    DadosFicha,
    DadosFiscal,
    DadosIntimacao,
    DadosIntimacaoRetificacao,
    DadosJulgamento,
    DadosLinha,
    DadosLoteIntimacao,
    DadosOperadora,
    DadosRevisao,
    DadosVeiculo,
    LinhaFichaCaso,
    LinhaFichaCassacao,
    Resultado,
    ResultadoJulgamento,
    Testemunha,
    Timbre,
)
from secretaria.services import auditoria, cifras
from secretaria.services.base import Ator, ErroDominio, NaoEncontrado, exigir_papel, mensagem_nao_encontrado
from secretaria.services.emitidos import (
    TIPOS_DOCUMENTO,
    DocumentoAlterado,
    DocumentoInfo,
    descricao_documento,
    documentos_emitidos,
    info_de,
    info_documento,
    obter_documento,
)
from secretaria.services.execucao import situacao_operadora
from secretaria.services.fundamentos import legiveis, sem_art_8
from secretaria.services.orgao import (
    dados_operadora,
    dados_pagamento,
    horario_expediente,
    timbre,
    timbre_para_assinar,
)
from secretaria.services.processo_base import auto_com_relacoes, com_decisao, termos_sem_intimacao
from secretaria.services.processo_integral import dados_processo_integral
from secretaria.services.retificacoes import dados_retificacao, itens_do_termo, obter_termo
from secretaria.services.rotulos import formatar_cnpj, formatar_cpf, formatar_placa

if TYPE_CHECKING:  # pyHanko is loaded only when a document is signed
    from secretaria.services.assinatura import Certificado

__all__ = [
    "TIPOS_DOCUMENTO",
    "DocumentoAlterado",
    "DocumentoInfo",
    "assinar_documento",
    "autos_para_intimar",
    "dados_auto",
    "dados_decisao",
    "dados_ficha",
    "dados_intimacao",
    "dados_intimacao_retificacao",
    "dados_julgamento",
    "dados_lote_intimacoes",
    "descricao_documento",
    "documentos_emitidos",
    "emitir_documento",
    "info_documento",
    "localizar_auto",
    "localizar_operadora",
    "localizar_termo",
    "obter_documento",
    "renderizar",
    "situacao_caso",
    "termo_a_intimar",
    "timbre",
]

FUNCOES_DOCUMENTO = {
    "motorista": "motorista",
    "cobrador": "cobrador",
    "fiscal_empresa": "fiscal da empresa",
    "outro": "outro",
}
SITUACOES_PAGAMENTO_FICHA = ROTULOS_CURTOS_PAGAMENTO
SITUACOES_CASSACAO_FICHA = ROTULOS_CASSACAO
RESULTADOS_CASSACAO_FICHA = ROTULOS_RESULTADO_CASSACAO
_NUMERO = re.compile(r"^\s*(\d{1,6})\s*/\s*(\d{4})\s*$")


# --- shared labels ------------------------------------------------------------------------------------------


def situacao_caso(
    fase: str, resultado_decisao: str | None, penalidade_anulada: bool, resultado_recurso: str | None
) -> str:
    """The case's state in words, as the ficha and the monthly spreadsheet print it."""
    if fase == "lavrado":
        return "Aguardando intimação"
    if fase == "intimado":
        return "Intimado"
    if fase == "decidido":
        return "Penalidade aplicada"
    if fase == "em_recurso":
        return "Em recurso"
    if fase == "cancelado":
        return "Cancelado"
    if fase == "encerrado":
        if resultado_decisao == "arquivado":
            return "Arquivado"
        if penalidade_anulada:
            return "Penalidade anulada em recurso"
        if resultado_recurso == "provido_parcialmente":
            return "Penalidade reduzida em recurso"
        if resultado_recurso == "negado":
            return "Penalidade mantida em recurso"
        return "Encerrado"
    return fase


def numero_auto(numero: int, ano: int) -> str:
    return f"{numero:04d}/{ano}"


# --- readers ------------------------------------------------------------------------------------------------


def _auto(sessao: so.Session, auto_id: int, *, aceitar_cancelado: bool = False) -> AutoInfracao:
    auto = auto_com_relacoes(sessao, auto_id)
    if auto.fase == "cancelado" and not aceitar_cancelado:
        quando = f" em {formatar_data(auto.cancelado_em.date())}" if auto.cancelado_em else ""
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} foi cancelado{quando}: não se emitem documentos dele "
            "(os já emitidos continuam guardados).",
            "auto_id",
        )
    return auto


def _dispositivo(sessao: so.Session, codigo: str) -> DispositivoCatalogo:
    d = sessao.get(DispositivoCatalogo, codigo)
    if d is None:
        raise NaoEncontrado(f"O dispositivo “{codigo}” não existe no catálogo.", "dispositivo_codigo")
    return d


def dados_auto(sessao: so.Session, auto_id: int) -> DadosAuto:
    """Everything art. 10 asks, as the auto was drawn up (the next penalty is the one computed then)."""
    auto = _auto(sessao, auto_id)
    d = _dispositivo(sessao, auto.dispositivo_codigo)
    empregado = None
    if auto.empregado is not None:
        e = auto.empregado
        empregado = DadosEmpregado(
            funcao=FUNCOES_DOCUMENTO.get(e.funcao, e.funcao),
            nome=e.nome,
            cpf=formatar_cpf(e.cpf) if e.cpf else None,
            cadastro=e.carteira_cadastro or None,
        )
    representacao = None
    if auto.representacao_id is not None:
        rep = sessao.get(Representacao, auto.representacao_id)
        representacao = f"nº {rep.numero_formatado}" if rep is not None else None
    # The renderer has one place (art. 10, I: where the auto was drawn up); the place of the fact, when
    # different, goes first among the circumstances so the paper still says where it happened.
    circunstancias = auto.circunstancias.strip()
    if auto.local.strip() and auto.local.strip() != auto.local_lavratura.strip():
        local_fato = f"Local do fato: {auto.local.strip()}."
        circunstancias = f"{local_fato}\n{circunstancias}" if circunstancias else local_fato
    return DadosAuto(
        timbre=timbre(sessao),
        numero=auto.numero_formatado,
        local=auto.local_lavratura,
        data_lavratura=auto.data_lavratura,
        hora_lavratura=auto.hora_lavratura,
        operadora=dados_operadora(auto.operadora),
        dispositivo=DadosDispositivo(rotulo=d.rotulo, texto=d.texto, tipo=auto.tipo, nota=d.nota or None),
        descricao_fatos=auto.descricao_fatos,
        proxima_penalidade=auto.proxima_penalidade,
        fiscal=DadosFiscal(nome=auto.fiscal.nome, matricula=auto.fiscal.matricula),
        circunstancias=circunstancias,
        data_fato=auto.data_infracao,
        hora_fato=auto.hora_infracao,
        empregado=empregado,
        veiculo=(
            DadosVeiculo(prefixo=auto.veiculo.prefixo, placa=formatar_placa(auto.veiculo.placa))
            if auto.veiculo is not None
            else None
        ),
        linha=DadosLinha(codigo=auto.linha.codigo, nome=auto.linha.nome) if auto.linha is not None else None,
        testemunhas=[
            Testemunha(
                nome=t.nome, documento=t.documento or "documento não informado", endereco=t.endereco or None
            )
            for t in auto.testemunhas
        ],
        recusou_assinar=auto.recusou_assinar,
        representacao=representacao,
    )


def _primeira_intimacao(sessao: so.Session, auto_id: int, objeto: str) -> Intimacao | None:
    """The delivery that started the deadline, if any: the one that carries it (`prazo`).

    Not "the earliest successful one by date": an earlier-dated delivery recorded later does not move a
    deadline already running (services.tramitacao), so the notice must name the delivery it counts from.
    """
    return sessao.scalar(
        sa.select(Intimacao)
        .where(
            Intimacao.auto_id == auto_id,
            Intimacao.objeto == objeto,
            Intimacao.prazo.is_not(None),
            Intimacao.retificacao_id.is_(None),  # a termo de retificação is its own notice
        )
        .order_by(Intimacao.id)
        .limit(1)
    )


def dados_intimacao(
    sessao: so.Session, auto_id: int, *, data_intimacao: date | None = None
) -> DadosIntimacao:
    """The notice of the auto. It states the deadline as "15 dias contados do recebimento" (REGRAS § 5);
    once the delivery is recorded, a copy issued again also prints that day and the deadline the program
    counted (and is dated that day, so issuing it again gives the same paper). Before delivery,
    `data_intimacao` is only the day it is expected to be delivered: it dates the paper, never a deadline."""
    auto = _auto(sessao, auto_id)
    # The deadline the auto's own delivery started (a correction of substance may have reopened another since).
    dia, prazo, emissao = _datas_da_intimacao(
        _primeira_intimacao(sessao, auto.id, "auto"),
        data_intimacao,
        auto.data_lavratura,
        f"à lavratura do auto nº {auto.numero_formatado}",
    )
    return _intimacao_do_auto(sessao, auto, "a intimação", emissao, dia, prazo)


def _intimacao_do_auto(
    sessao: so.Session,
    auto: AutoInfracao,
    documento: str,
    emissao: date,
    dia: date | None,
    prazo: date | None,
) -> DadosIntimacao:
    """The auto's addressee, provision and where to defend, as the auto's and a termo's intimação print
    them; `documento` names the paper in a refusal (no letterhead to sign, no office hours)."""
    t = timbre_para_assinar(sessao, documento)
    horario = horario_expediente(sessao, documento)
    d = _dispositivo(sessao, auto.dispositivo_codigo)
    return DadosIntimacao(
        timbre=t,
        numero_auto=auto.numero_formatado,
        data_auto=auto.data_lavratura,
        operadora=dados_operadora(auto.operadora),
        data_emissao=emissao,
        data_intimacao=dia,
        prazo_defesa=prazo,
        representante=auto.operadora.representante_nome or None,
        dispositivo=d.rotulo,
        tipo=auto.tipo,
        horario_expediente=horario,
    )


def _datas_da_intimacao(
    feita: Intimacao | None, data_intimacao: date | None, desde: date, anterior_a: str
) -> tuple[date | None, date | None, date]:
    """(day delivered, deadline, date of the paper) of an intimação (the auto's or a termo's). Once its
    delivery is recorded, a copy issued again prints that day and the deadline counted, and is dated that
    day, so issuing it again gives the same paper. Before, the paper is dated the expected delivery day
    (never before `desde`, the auto or termo it notifies, nor after today) and states no deadline;
    `anterior_a` names that auto or termo in the refusal of an earlier day."""
    if feita is not None and feita.prazo is not None:
        return feita.data, feita.prazo, feita.data
    entrega = data_intimacao or relogio.hoje()
    if entrega < desde:
        raise ErroDominio(
            f"A intimação ({formatar_data(entrega)}) não pode ser anterior {anterior_a} ({formatar_data(desde)}).",
            "data_intimacao",
        )
    return None, None, max(min(relogio.hoje(), entrega), desde)


def _intimacao_do_termo(sessao: so.Session, termo_id: int) -> Intimacao | None:
    """The termo's delivery that started the reopened defence deadline, if recorded."""
    return sessao.scalar(
        sa.select(Intimacao)
        .where(Intimacao.retificacao_id == termo_id, Intimacao.prazo.is_not(None))
        .order_by(Intimacao.id)
        .limit(1)
    )


def termo_a_intimar(sessao: so.Session, auto_id: int) -> Retificacao | None:
    """The auto's latest termo de retificação of substance: after it, the intimação is the termo's."""
    return sessao.scalar(
        sa.select(Retificacao)
        .where(Retificacao.auto_id == auto_id, Retificacao.substancial.is_(True))
        .order_by(Retificacao.id.desc())
        .limit(1)
    )


def _pendente(sessao: so.Session, termo: Retificacao) -> bool:
    """Whether no successful delivery has carried the termo yet (it must still be notified)."""
    return any(t.id == termo.id for t in termos_sem_intimacao(sessao, termo.auto_id, so_substancia=True))


def dados_intimacao_retificacao(
    sessao: so.Session, retificacao_id: int | None, *, data_intimacao: date | None = None
) -> DadosIntimacaoRetificacao:
    """The intimação of a termo of substance (REGRAS § 5): the termo, the auto as corrected and its copy,
    and the new defence deadline as "15 dias contados do recebimento". Once the termo's delivery is
    recorded, a copy issued again prints that day and the deadline counted, and is dated that day.

    A termo corrected again by a later one is still notified while no delivery has carried it (the
    operator is told of every correction of substance); once delivered, only its stored paper is reprinted."""
    termo = obter_termo(sessao, retificacao_id)
    auto = _auto(sessao, termo.auto_id)
    if not termo.substancial:
        raise ErroDominio(
            f"O termo de retificação nº {termo.numero_formatado} é formal: não reabre a defesa, e é entregue "
            "como está (documento “Termo de retificação”).",
            "retificacao_id",
        )
    ultimo = termo_a_intimar(sessao, auto.id)
    if ultimo is not None and ultimo.id != termo.id and not _pendente(sessao, termo):
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} foi retificado de novo pelo termo nº {ultimo.numero_formatado}: "
            "a intimação a entregar é a desse termo.",
            "retificacao_id",
        )
    dia, prazo, emissao = _datas_da_intimacao(
        _intimacao_do_termo(sessao, termo.id),
        data_intimacao,
        termo.data,
        f"ao termo de retificação nº {termo.numero_formatado}",
    )
    intimacao = _intimacao_do_auto(sessao, auto, "a intimação do termo de retificação", emissao, dia, prazo)
    return DadosIntimacaoRetificacao(
        intimacao=intimacao,
        numero_termo=termo.numero_formatado,
        data_termo=termo.data,
        itens=itens_do_termo(termo),
        motivo=termo.motivo,
        auto=dataclasses.replace(dados_auto(sessao, auto.id), timbre=intimacao.timbre),
        prazo_anterior=termo.prazo_defesa_anterior,
    )


def _quem_decidiu(sessao: so.Session, decisao: Decisao, t: Timbre) -> tuple[str, str]:
    """The Secretary who decided and the title, as the notice signs: recorded on the decision since
    revision 0003; for an older row, the letterhead's Secretary in force when it was decided, read from the
    audit trail of the órgão data (the first change after the decision's audit row holds, as "antes", the
    data then; no change since → today's data was already in force)."""
    if decisao.secretario_nome:
        return decisao.secretario_nome, decisao.secretario_cargo or t.secretario_cargo
    # The audit log is append-only and its ids follow the order of events (moments may tie).
    decidida = sessao.scalar(
        sa.select(Auditoria.id)
        .where(
            Auditoria.entidade == "decisao",
            Auditoria.entidade_id == str(decisao.id),
            Auditoria.acao == "decidir",
        )
        .order_by(Auditoria.id)
        .limit(1)
    )
    posterior = None
    if decidida is not None:
        posterior = sessao.scalar(
            sa.select(Auditoria.antes)
            .where(Auditoria.entidade == "dados_orgao", Auditoria.id > decidida, Auditoria.antes.is_not(None))
            .order_by(Auditoria.id)
            .limit(1)
        )
    if posterior:
        try:
            antes = json.loads(posterior)
        except ValueError:
            antes = {}
        nome = str(antes.get("secretario_nome") or "").strip()
        if nome:
            return nome, str(antes.get("secretario_cargo") or "").strip() or t.secretario_cargo
    return t.secretario_nome, t.secretario_cargo


def dados_decisao(sessao: so.Session, auto_id: int) -> DadosDecisao:
    """The Secretary's decision as notified: penalty in URM and R$ with the words, suspension, appeal deadline
    (once the decision's intimação is recorded). The appeal's later outcome is another act, not this notice."""
    auto = _auto(sessao, auto_id)
    decisao = sessao.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    if decisao is None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} ainda não foi decidido: não há decisão a notificar.",
            "auto_id",
        )
    t = timbre_para_assinar(sessao, "a notificação da decisão")
    d = _dispositivo(sessao, auto.dispositivo_codigo)
    nome, cargo = _quem_decidiu(sessao, decisao, t)
    # The notice states art. 8º once, in its payment section.
    linhas = [linha for linha in decisao.fundamentos_legais.splitlines() if linha.strip()]
    comum: dict[str, Any] = {
        "representante": auto.operadora.representante_nome or None,
        "secretario_nome": nome,
        "secretario_cargo": cargo,
        "fundamentos_legais": legiveis(sem_art_8(linhas)),
        "timbre": t,
        "numero_auto": auto.numero_formatado,
        "data_auto": auto.data_lavratura,
        "operadora": dados_operadora(auto.operadora),
        "data_decisao": decisao.data,
        "fundamentacao": decisao.fundamentacao.strip(),
        "dispositivo": d.rotulo,
        "tipo": auto.tipo,
    }
    if decisao.resultado != "aplicada":
        return DadosDecisao(
            resultado=Resultado.ARQUIVADA, **comum, **_instrucao_do_caso(sessao, auto, decisao)
        )
    valor_urm = decisao.valor_urm
    if valor_urm is None:  # never written so by `decidir`; a damaged row must not print a wrong amount
        raise ErroDominio(f"A decisão do auto nº {auto.numero_formatado} não tem o valor da URM.", "auto_id")
    reais = urm_para_reais(decisao.multa_ur, valor_urm)
    dias = decisao.suspensao_dias or None
    inicio = fim = None
    suspensao = sessao.scalar(sa.select(Suspensao).where(Suspensao.decisao_id == decisao.id))
    if suspensao is not None and not suspensao.anulada and suspensao.dias == dias:
        inicio, fim = suspensao.inicio, suspensao.fim
    intimada = _primeira_intimacao(sessao, auto.id, "decisao")
    prazo = auto.prazo_recurso if intimada is not None else None
    dias_pagar, instrucoes = dados_pagamento(sessao)
    faixa: dict[str, Any] = {}
    if (
        decisao.faixa_min_ur is not None
        and decisao.faixa_max_ur is not None
        and auto.tipo in FAIXA_PRIMEIRA_PENALIDADE
    ):
        faixa = {
            "reincidencia": decisao.reincidencia,
            "faixa_base": FAIXA_PRIMEIRA_PENALIDADE[auto.tipo],
            "faixa": (decisao.faixa_min_ur, decisao.faixa_max_ur),
            "teto_urm": TETO_MULTA_UR,
        }
    comum.update(_instrucao_do_caso(sessao, auto, decisao))
    return DadosDecisao(
        resultado=Resultado.APLICADA,
        prazo_pagamento_dias=dias_pagar,
        pagamento_instrucoes=instrucoes,
        **faixa,
        multa_urm=decisao.multa_ur,
        valor_urm=valor_urm,
        valor_reais=reais,
        valor_por_extenso=por_extenso(reais),
        suspensao_dias=dias,
        suspensao_inicio=inicio,
        suspensao_fim=fim,
        data_intimacao_decisao=intimada.data if intimada is not None and prazo is not None else None,
        prazo_recurso=prazo,
        **comum,
    )


def _instrucao_do_caso(sessao: so.Session, auto: AutoInfracao, decisao: Decisao) -> dict[str, Any]:
    """What else the decision notice states (Lei 9.784/1999, art. 26 § 1º and art. 50; REGRAS § 5): the
    facts as the auto states them (as corrected by any termo), the defence (received when, timely or not,
    or none), the proposal (who, when, art. 13), and where and in which hours the appeal is received."""
    from secretaria.models import Usuario

    termo = sessao.scalar(
        sa.select(Retificacao)
        .where(Retificacao.auto_id == auto.id, Retificacao.data <= decisao.data)
        .order_by(Retificacao.id.desc())
        .limit(1)
    )
    defesa = sessao.scalar(
        sa.select(Defesa)
        .where(Defesa.auto_id == auto.id, Defesa.protocolada_em <= decisao.data)
        .order_by(Defesa.protocolada_em.desc(), Defesa.id.desc())
        .limit(1)
    )
    proposta = sessao.scalar(
        sa.select(Proposta)
        .where(Proposta.auto_id == auto.id, Proposta.data <= decisao.data)
        .order_by(Proposta.data.desc(), Proposta.id.desc())
        .limit(1)
    )
    proposta_por = proposta_texto = ""
    if proposta is not None:
        nome = sessao.scalar(sa.select(Usuario.nome).where(Usuario.login == proposta.autoridade))
        proposta_por = (nome or proposta.autoridade).strip()
        if proposta.acao == "aplicar":
            proposta_texto = f"aplicação de multa de {formatar_urm(proposta.multa_ur)}" + (
                f" e suspensão de {proposta.suspensao_dias} {'dia' if proposta.suspensao_dias == 1 else 'dias'}"
                if proposta.suspensao_dias
                else ""
            )
        else:
            proposta_texto = "arquivamento do auto"
    o = sessao.get(DadosOrgao, 1)
    return {
        "fatos": auto.descricao_fatos.strip(),
        "data_fato": auto.data_infracao,
        "retificado_por": (
            f"termo de retificação nº {termo.numero_formatado}, de {formatar_data(termo.data)}"
            if termo is not None
            else None
        ),
        "defesa_recebida_em": defesa.protocolada_em if defesa is not None else None,
        "defesa_tempestiva": defesa.tempestiva if defesa is not None else None,
        "proposta_por": proposta_por,
        "proposta_em": proposta.data if proposta is not None else None,
        "proposta_texto": proposta_texto,
        "horario_expediente": (o.horario_expediente if o is not None else "").strip(),
    }


def dados_julgamento(sessao: so.Session, auto_id: int) -> DadosJulgamento:
    """The notificação do julgamento do recurso (REGRAS § 5): outcome, reasons and, where a penalty
    remains, the penalty with its arithmetic (the URM of the decision day, REGRAS § 2), amount in words and
    the payment deadline from the day it became final; where annulled, that nothing is due."""
    auto = _auto(sessao, auto_id)
    linha = com_decisao(sessao, Recurso, auto.id)
    if linha is None or linha[0].resultado == "pendente" or linha[0].julgado_em is None:
        raise ErroDominio(
            f"O recurso do auto nº {auto.numero_formatado} ainda não foi julgado: não há julgamento a notificar.",
            "auto_id",
        )
    recurso, decisao = linha
    julgado_em = recurso.julgado_em
    assert julgado_em is not None  # refused above
    t = timbre_para_assinar(sessao, "a notificação do julgamento do recurso")
    d = _dispositivo(sessao, auto.dispositivo_codigo)
    resultado = ResultadoJulgamento(recurso.resultado)
    pagamento = sessao.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id))
    comum: dict[str, Any] = {
        "timbre": t,
        "numero_auto": auto.numero_formatado,
        "data_auto": auto.data_lavratura,
        "operadora": dados_operadora(auto.operadora),
        "data_decisao": decisao.data,
        "data_recurso": recurso.protocolado_em,
        "recurso_tempestivo": recurso.tempestivo,
        "data_julgamento": julgado_em,
        "resultado": resultado,
        "fundamentacao": (recurso.fundamentacao_julgamento or "").strip()
        or "Fundamentação registrada no processo do recurso.",
        "multa_decisao_urm": decisao.multa_ur,
        "suspensao_decisao_dias": decisao.suspensao_dias or None,
        "dispositivo": d.rotulo,
        "tipo": auto.tipo,
        "representante": auto.operadora.representante_nome or None,
        # Paid before the judgment: what the judgment leaves to refund (a payment after it is just paid).
        "valor_pago": (
            pagamento.valor_pago
            if pagamento is not None
            and pagamento.situacao == "pago"
            and pagamento.pago_em is not None
            and pagamento.pago_em <= julgado_em
            else None
        ),
    }
    if resultado is ResultadoJulgamento.PROVIDO:
        return DadosJulgamento(**comum)
    valor_urm = decisao.valor_urm
    if valor_urm is None:
        raise ErroDominio(f"A decisão do auto nº {auto.numero_formatado} não tem o valor da URM.", "auto_id")
    reais = urm_para_reais(auto.multa_ur, valor_urm)
    dias_pagar, instrucoes = dados_pagamento(sessao)
    return DadosJulgamento(
        **comum,
        multa_urm=auto.multa_ur,
        valor_urm=valor_urm,
        valor_reais=reais,
        valor_por_extenso=por_extenso(reais),
        suspensao_dias=auto.suspensao_dias or None,
        data_definitiva=auto.data_definitiva,
        prazo_pagamento_dias=dias_pagar,
        pagamento_instrucoes=instrucoes,
    )


def dados_revisao(sessao: so.Session, revisao_id: int | None) -> DadosRevisao:
    """The termo de revisão (Lei 9.784/1999, art. 65) as notified: a function of the revision row, the
    decision and the letterhead, so issuing it again gives the same bytes."""
    from secretaria.services.processo_base import id_valido

    revisao = sessao.get(RevisaoSancao, revisao_id) if id_valido(revisao_id) else None
    if revisao is None or revisao.situacao != "revisada":
        raise ErroDominio("Não há termo de revisão lavrado com este número interno.", "revisao_id")
    auto = _auto(sessao, revisao.auto_id)
    decisao = sessao.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    if decisao is None or decisao.valor_urm is None:
        raise ErroDominio(f"A decisão do auto nº {auto.numero_formatado} não tem o valor da URM.", "auto_id")
    assert revisao.multa_ur_nova is not None and revisao.multa_ur_anterior is not None
    assert revisao.decidida_em is not None
    t = timbre_para_assinar(sessao, "o termo de revisão")
    d = _dispositivo(sessao, auto.dispositivo_codigo)
    reais = urm_para_reais(revisao.multa_ur_nova, decisao.valor_urm)
    dias_pagar, instrucoes = dados_pagamento(sessao)
    recurso = sessao.scalar(sa.select(Recurso).where(Recurso.decisao_id == decisao.id))
    julgamento = ""
    if recurso is not None and recurso.julgado_em is not None and recurso.resultado != "pendente":
        julgamento = f"O recurso ao Prefeito Municipal, julgado em {formatar_data(recurso.julgado_em)}, " + (
            f"reduziu a multa da decisão, de {formatar_urm(decisao.multa_ur)}, para "
            f"{formatar_urm(revisao.multa_ur_anterior)}."
            if recurso.resultado != "negado" and decisao.multa_ur != revisao.multa_ur_anterior
            else "reduziu a penalidade da decisão."
            if recurso.resultado != "negado"
            else "manteve a penalidade da decisão."
        )
    return DadosRevisao(
        julgamento=julgamento,
        timbre=t,
        numero=revisao.numero_formatado,
        numero_auto=auto.numero_formatado,
        data_auto=auto.data_lavratura,
        operadora=dados_operadora(auto.operadora),
        data=revisao.decidida_em,
        data_decisao=decisao.data,
        origem=revisao.origem,
        reincidencia_anterior=revisao.reincidencia_anterior,
        reincidencia_atual=revisao.reincidencia_atual,
        faixa=(revisao.faixa_min_ur, revisao.faixa_max_ur),
        multa_anterior_urm=revisao.multa_ur_anterior,
        multa_urm=revisao.multa_ur_nova,
        valor_urm=decisao.valor_urm,
        valor_reais=reais,
        valor_por_extenso=por_extenso(reais),
        fundamentacao=revisao.fundamentacao or "",
        secretario_nome=revisao.decidida_por_nome or t.secretario_nome,
        secretario_cargo=t.secretario_cargo,
        suspensao_anterior_dias=revisao.suspensao_dias_anterior or 0,
        suspensao_dias=revisao.suspensao_dias_nova or 0,
        valor_restituir=revisao.valor_restituir,
        dispositivo=d.rotulo,
        tipo=auto.tipo,
        representante=auto.operadora.representante_nome or None,
        prazo_pagamento_dias=dias_pagar,
        pagamento_instrucoes=instrucoes,
        data_definitiva=auto.data_definitiva,
    )


def dados_ficha(sessao: so.Session, operadora_id: int, *, hoje: date | None = None) -> DadosFicha:
    """The operator's registry data and every case (one joined query), as of `hoje` (default: today)."""
    dia = hoje or relogio.hoje()
    o = sessao.get(Operadora, operadora_id)
    if o is None:
        raise NaoEncontrado(f"Operadora não encontrada (nº interno {operadora_id}).", "operadora_id")
    a = AutoInfracao
    consulta = (
        cifras.consulta_casos(a.data_lavratura, pagamento=True, suspensao=True)
        .where(a.operadora_id == o.id)
        .order_by(a.data_lavratura, a.ano, a.numero)
    )
    casos = []
    for r in sessao.execute(consulta):
        aplicada = r.resultado == "aplicada" and not r.penalidade_anulada
        # The fine as every report counts it (services.cifras).
        multa = cifras.multa_da_linha(r)
        multa_urm = multa.urm if multa else None
        multa_reais = multa.reais if multa else None
        pagamento = "—"
        if r.pagamento is not None and (aplicada or r.pagamento == "pago"):
            pagamento = SITUACOES_PAGAMENTO_FICHA.get(r.pagamento, r.pagamento)
        suspensao_dias: int | None = None
        inicio = fim = None
        if aplicada and r.suspensao_auto:
            # As the penalty stands (after the appeal); the period once the suspension has started.
            suspensao_dias = r.suspensao_auto
            if r.inicio is not None and not r.anulada:
                suspensao_dias, inicio, fim = r.dias, r.inicio, r.fim
        casos.append(
            LinhaFichaCaso(
                numero=numero_auto(r.numero, r.ano),
                data=r.data_lavratura,
                dispositivo=r.rotulo,
                tipo=r.tipo,
                situacao=situacao_caso(r.fase, r.resultado, r.penalidade_anulada, r.recurso),
                multa_urm=multa_urm,
                multa_reais=multa_reais,
                suspensao_dias=suspensao_dias,
                suspensao_inicio=inicio,
                suspensao_fim=fim,
                pagamento=pagamento,
                data_pagamento=r.pago_em if r.pagamento == "pago" else None,
            )
        )
    situacao = situacao_operadora(sessao, o.id, dia)
    cassacoes = [
        LinhaFichaCassacao(
            instaurada_em=c.instaurada_em,
            situacao=SITUACOES_CASSACAO_FICHA.get(c.situacao, c.situacao),
            motivo=c.motivo,
            em_curso=c.situacao != "decidida",
            resultado=RESULTADOS_CASSACAO_FICHA.get(c.resultado, c.resultado) if c.resultado else None,
            decidida_em=c.decidida_em,
        )
        for c in sessao.scalars(
            sa.select(Cassacao)
            .where(Cassacao.operadora_id == o.id, Cassacao.instaurada_em <= dia)
            .order_by(Cassacao.instaurada_em, Cassacao.id)
        )
    ]
    veiculos = sessao.scalar(
        sa.select(sa.func.count(Veiculo.id)).where(
            Veiculo.operadora_id == o.id, Veiculo.situacao != "baixado"
        )
    )
    linhas = sessao.scalar(
        sa.select(sa.func.count(Linha.id)).where(Linha.operadora_id == o.id, Linha.ativa.is_(True))
    )
    return DadosFicha(
        timbre=timbre(sessao),
        emitida_em=dia,
        operadora=dados_operadora(o),
        modalidade="Permissionária" if o.delegacao == "permissao" else "Concessionária",
        situacao=situacao[:1].upper()
        + situacao[1:]
        + (" – cassação em curso (art. 16)" if any(c.em_curso for c in cassacoes) else ""),
        representante_nome=o.representante_nome or None,
        representante_cpf=formatar_cpf(o.representante_cpf) if o.representante_cpf else None,
        contrato_numero=o.contrato_numero or None,
        contrato_inicio=o.contrato_inicio,
        contrato_fim=o.contrato_fim,
        telefone=o.telefone or None,
        email=o.email or None,
        veiculos=int(veiculos or 0),
        linhas=int(linhas or 0),
        casos=casos,
        cassacoes=cassacoes,
    )


def _aguardam_intimacao(inicio: date, fim: date) -> sa.ColumnElement[bool]:
    """Autos awaiting an intimação that belongs to the period: drawn up in it, or corrected in it by a termo
    of substance (the auto is back to awaiting the termo's intimação, whenever it was drawn up)."""
    a = AutoInfracao
    termo_no_periodo = (
        sa.select(Retificacao.id)
        .where(
            Retificacao.auto_id == a.id,
            Retificacao.substancial.is_(True),
            Retificacao.data >= inicio,
            Retificacao.data <= fim,
        )
        .exists()
    )
    return sa.and_(
        a.fase == "lavrado",
        sa.or_(sa.and_(a.data_lavratura >= inicio, a.data_lavratura <= fim), termo_no_periodo),
    )


def autos_para_intimar(sessao: so.Session, inicio: date, fim: date) -> list[int]:
    """The autos drawn up (or corrected in substance) from `inicio` to `fim` still awaiting their intimação,
    by number."""
    a = AutoInfracao
    return list(
        sessao.scalars(sa.select(a.id).where(_aguardam_intimacao(inicio, fim)).order_by(*_por_numero()))
    )


def _por_numero() -> tuple[sa.ColumnElement[int], ...]:
    """ORDER BY ano, numero for the few autos awaiting intimação — the year as an expression (`ano + 0`), which
    no index sorts: SQLite then finds them by their phase's index and sorts them, where it walked every auto
    stored along the number's unique index to skip that sort (71 ms on 200,000 autos, 0.77 s on 2,000,000,
    on the window's thread at each date typed on the reports screen). PostgreSQL chose the phase anyway."""
    a = AutoInfracao
    return (a.ano + 0, a.numero.expression)


def dados_lote_intimacoes(
    sessao: so.Session, inicio: date, fim: date, *, data_entrega: date | None = None
) -> DadosLoteIntimacao:
    """Every auto drawn up in the period and still awaiting intimação, one notice each, for delivery on
    `data_entrega` (default: today), which dates the batch: each notice counts its 15 days from its own
    receipt (REGRAS § 5), never from this day. An auto corrected in substance by a termo de retificação
    awaits the termo's intimação: its notice is the termo's, with the corrected auto's copy."""
    if inicio > fim:
        raise ErroDominio(
            f"O início do período ({formatar_data(inicio)}) é posterior ao fim ({formatar_data(fim)}).",
            "inicio",
        )
    dia = data_entrega or relogio.hoje()
    t = timbre_para_assinar(sessao, "as intimações")
    a = AutoInfracao
    consulta = (
        sa.select(a.id, a.ano, a.numero, a.data_lavratura, a.tipo, DispositivoCatalogo.rotulo, Operadora)
        .join(Operadora, Operadora.id == a.operadora_id)
        .join(DispositivoCatalogo, DispositivoCatalogo.codigo == a.dispositivo_codigo)
        .where(_aguardam_intimacao(inicio, fim))
        .order_by(*_por_numero())
    )
    linhas = sessao.execute(consulta).all()
    if not linhas:
        raise ErroDominio(
            f"Nenhum auto lavrado de {formatar_data(inicio)} a {formatar_data(fim)} aguarda intimação.",
            "inicio",
        )
    # Each termo of substance not yet delivered, oldest first: the notice of each is the one the case
    # screen issues for it (a delivery records one termo; the defence reopens with the last).
    retificados = sessao.scalars(
        sa.select(Retificacao.auto_id)
        .where(Retificacao.auto_id.in_([r.id for r in linhas]), Retificacao.substancial.is_(True))
        .distinct()
    )
    termos = {
        auto_id: pendentes
        for auto_id in retificados
        if (pendentes := termos_sem_intimacao(sessao, auto_id, so_substancia=True))
    }
    ultima = max([r.data_lavratura for r in linhas] + [t_.data for ts in termos.values() for t_ in ts])
    if dia < ultima:
        raise ErroDominio(
            f"A entrega ({formatar_data(dia)}) não pode ser anterior à lavratura do último auto do lote "
            f"({formatar_data(ultima)}).",
            "data_entrega",
        )
    horario = horario_expediente(sessao, "as intimações")
    emissao = max(min(relogio.hoje(), dia), ultima)
    operadoras: dict[int, DadosOperadora] = {}
    intimacoes: list[DadosIntimacao | DadosIntimacaoRetificacao] = []
    for r in linhas:
        if r.id in termos:
            for do_termo in termos[r.id]:
                lida = dados_intimacao_retificacao(sessao, do_termo.id, data_intimacao=dia)
                intimacoes.append(
                    dataclasses.replace(
                        lida, intimacao=dataclasses.replace(lida.intimacao, timbre=t, data_emissao=emissao)
                    )
                )
            continue
        o: Operadora = r.Operadora
        if o.id not in operadoras:
            operadoras[o.id] = dados_operadora(o)
        intimacoes.append(
            DadosIntimacao(
                timbre=t,
                numero_auto=numero_auto(r.numero, r.ano),
                data_auto=r.data_lavratura,
                operadora=operadoras[o.id],
                data_emissao=emissao,
                representante=o.representante_nome or None,
                dispositivo=r.rotulo,
                tipo=r.tipo,
                horario_expediente=horario,
            )
        )
    return DadosLoteIntimacao(
        timbre=t, periodo_inicio=inicio, periodo_fim=fim, emitido_em=emissao, intimacoes=intimacoes
    )


# --- finding by what people type ------------------------------------------------------------------------------


def localizar_auto(sessao: so.Session, numero: str) -> int:
    """The id of auto "NNNN/AAAA" (leading zeros optional); a clear refusal for a bad or unknown number."""
    m = _NUMERO.match(numero or "")
    if m is None:
        raise ErroDominio(
            f"Número de auto inválido: “{numero}”. Use NNNN/AAAA, por exemplo 0001/2026.", "numero"
        )
    num, ano = int(m.group(1)), int(m.group(2))
    auto_id = sessao.scalar(
        sa.select(AutoInfracao.id).where(AutoInfracao.ano == ano, AutoInfracao.numero == num)
    )
    if auto_id is None:
        raise NaoEncontrado(f"Auto de infração nº {numero_auto(num, ano)} não encontrado.", "numero")
    return auto_id


def localizar_termo(sessao: so.Session, auto_id: int, numero: str) -> int:
    """The id of the auto's termo de retificação "NNNN/AAAA"; a clear refusal for a bad number or a termo
    of another auto."""
    m = _NUMERO.match(numero or "")
    if m is None:
        raise ErroDominio(
            f"Número de termo inválido: “{numero}”. Use NNNN/AAAA, por exemplo 0001/2026.", "retificacao_id"
        )
    num, ano = int(m.group(1)), int(m.group(2))
    termo_id = sessao.scalar(
        sa.select(Retificacao.id).where(
            Retificacao.auto_id == auto_id, Retificacao.ano == ano, Retificacao.numero == num
        )
    )
    if termo_id is None:
        raise NaoEncontrado(
            f"Termo de retificação nº {numero_auto(num, ano)} não encontrado neste auto.", "retificacao_id"
        )
    return termo_id


def localizar_operadora(sessao: so.Session, cnpj: str) -> int:
    """The id of the operator with this CNPJ (punctuation optional); refused when invalid or unknown."""
    try:
        chave = validar_cnpj(cnpj or "")
    except DocumentoInvalido as exc:
        raise ErroDominio(f"CNPJ inválido: “{cnpj}”. {exc}", "cnpj") from exc
    operadora_id = sessao.scalar(sa.select(Operadora.id).where(Operadora.cnpj == chave))
    if operadora_id is None:
        raise NaoEncontrado(f"Nenhuma operadora cadastrada com o CNPJ {formatar_cnpj(chave)}.", "cnpj")
    return operadora_id


# --- rendering and issuing ----------------------------------------------------------------------------------


def renderizar(tipo: str, dados: Any, progresso: Progresso | None = None) -> bytes:
    """The PDF of `dados` by the renderer of `tipo` (ReportLab is imported only here); `progresso(feitos,
    total, texto)` page by page."""
    if tipo == "auto":
        from secretaria.reports.auto_infracao import AutoInfracaoPdf

        return AutoInfracaoPdf().render(dados, progresso)
    if tipo == "intimacao":
        from secretaria.reports.intimacao import IntimacaoPdf

        return IntimacaoPdf().render(dados, progresso)
    if tipo == "lote_intimacoes":
        from secretaria.reports.intimacao import LoteIntimacoesPdf

        return LoteIntimacoesPdf().render(dados, progresso)
    if tipo == "decisao":
        from secretaria.reports.decisao import DecisaoPdf

        return DecisaoPdf().render(dados, progresso)
    if tipo == "retificacao":
        from secretaria.reports.retificacao import TermoRetificacaoPdf

        return TermoRetificacaoPdf().render(dados, progresso)
    if tipo == "intimacao_termo":
        from secretaria.reports.intimacao_retificacao import IntimacaoRetificacaoPdf

        return IntimacaoRetificacaoPdf().render(dados, progresso)
    if tipo == "julgamento":
        from secretaria.reports.julgamento import JulgamentoPdf

        return JulgamentoPdf().render(dados, progresso)
    if tipo == "revisao":
        from secretaria.reports.revisao import TermoRevisaoPdf

        return TermoRevisaoPdf().render(dados, progresso)
    if tipo == "processo":
        from secretaria.reports.processo_integral import montar_processo_integral

        return montar_processo_integral(dados, progresso)
    if tipo == "ficha":
        from secretaria.reports.ficha import FichaOperadoraPdf

        return FichaOperadoraPdf().render(dados, progresso)
    raise ErroDominio(f"Tipo de documento desconhecido: “{tipo}”.", "tipo")


@dataclass(frozen=True)
class _Pedido:
    tipo: str
    referencia: str
    nome_arquivo: str
    auto_id: int | None
    operadora_id: int | None
    dados: Any


def _pedido_de_ato_posterior(
    sessao: so.Session,
    tipo: str,
    auto_id: int | None,
    data_entrega: date | None,
    retificacao_id: int | None,
    revisao_id: int | None,
) -> _Pedido | None:
    """The documents of a case's later acts (the termo's intimação, the termo de revisão, the appeal's
    judgment, the complete case file); None for any other kind."""
    if tipo == "intimacao_termo":
        if retificacao_id is None and auto_id is not None:
            ultimo = termo_a_intimar(sessao, auto_id)
            retificacao_id = ultimo.id if ultimo is not None else None
            if ultimo is None:
                raise ErroDominio(
                    "Este auto não tem termo de retificação de substância: emita a intimação do auto.",
                    "auto_id",
                )
        lida = dados_intimacao_retificacao(sessao, retificacao_id, data_intimacao=data_entrega)
        nome = f"intimacao-termo-de-retificacao-{lida.numero_termo.replace('/', '-')}.pdf"
        termo_auto = sessao.scalar(sa.select(Retificacao.auto_id).where(Retificacao.id == retificacao_id))
        return _Pedido(tipo, lida.numero_termo, nome, termo_auto, None, lida)
    if tipo == "revisao":
        if revisao_id is None and auto_id is not None:  # the auto's latest termo de revisão
            revisao_id = sessao.scalar(
                sa.select(sa.func.max(RevisaoSancao.id)).where(
                    RevisaoSancao.auto_id == auto_id, RevisaoSancao.situacao == "revisada"
                )
            )
        revista = dados_revisao(sessao, revisao_id)
        nome = f"termo-de-revisao-{revista.numero.replace('/', '-')}.pdf"
        dono = sessao.scalar(sa.select(RevisaoSancao.auto_id).where(RevisaoSancao.id == revisao_id))
        return _Pedido(tipo, revista.numero, nome, dono, None, revista)
    if tipo == "julgamento":
        if auto_id is None:
            raise ErroDominio("Informe o auto de infração do documento.", "auto_id")
        julgado = dados_julgamento(sessao, auto_id)
        nome = f"julgamento-do-recurso-{julgado.numero_auto.replace('/', '-')}.pdf"
        return _Pedido(tipo, julgado.numero_auto, nome, auto_id, None, julgado)
    if tipo == "processo":
        if auto_id is None:
            raise ErroDominio("Informe o auto de infração do processo.", "auto_id")
        integral = dados_processo_integral(sessao, auto_id)
        nome = (
            f"processo-integral-{integral.numero_auto.replace('/', '-')}-{integral.emitida_em:%Y-%m-%d}.pdf"
        )
        return _Pedido(tipo, integral.numero_auto, nome, auto_id, None, integral)
    return None


def _pedido(
    sessao: so.Session,
    tipo: str,
    auto_id: int | None,
    operadora_id: int | None,
    periodo: tuple[date, date] | None,
    data_entrega: date | None,
    retificacao_id: int | None = None,
    revisao_id: int | None = None,
) -> _Pedido:
    if tipo == "retificacao":
        termo = obter_termo(sessao, retificacao_id)
        _auto(sessao, termo.auto_id)  # refused for a cancelled auto, like its other documents
        termo_dados = dados_retificacao(sessao, termo.id)
        nome = f"termo-de-retificacao-{termo_dados.numero.replace('/', '-')}.pdf"
        return _Pedido(tipo, termo_dados.numero, nome, termo.auto_id, None, termo_dados)
    if posterior := _pedido_de_ato_posterior(sessao, tipo, auto_id, data_entrega, retificacao_id, revisao_id):
        return posterior
    if tipo in ("auto", "intimacao", "decisao"):
        if auto_id is None:
            raise ErroDominio("Informe o auto de infração do documento.", "auto_id")
        dados: Any
        if tipo == "auto":
            dados = dados_auto(sessao, auto_id)
            numero = dados.numero
        elif tipo == "intimacao":
            dados = dados_intimacao(sessao, auto_id, data_intimacao=data_entrega)
            numero = dados.numero_auto
        else:
            dados = dados_decisao(sessao, auto_id)
            numero = dados.numero_auto
        prefixo = {"auto": "auto-de-infracao", "intimacao": "intimacao", "decisao": "decisao"}[tipo]
        return _Pedido(tipo, numero, f"{prefixo}-{numero.replace('/', '-')}.pdf", auto_id, None, dados)
    if tipo == "ficha":
        if operadora_id is None:
            raise ErroDominio("Escolha a operadora.", "operadora_id")
        dados = dados_ficha(sessao, operadora_id)
        cnpj = sessao.scalar(sa.select(Operadora.cnpj).where(Operadora.id == operadora_id)) or ""
        nome = f"ficha-{cnpj}-{dados.emitida_em:%Y-%m-%d}.pdf"
        return _Pedido(
            tipo,
            f"{dados.operadora.cnpj} em {formatar_data(dados.emitida_em)}",
            nome,
            None,
            operadora_id,
            dados,
        )
    if tipo == "lote_intimacoes":
        if periodo is None:
            raise ErroDominio("Informe o período das intimações.", "inicio")
        inicio, fim = periodo
        dados = dados_lote_intimacoes(sessao, inicio, fim, data_entrega=data_entrega)
        referencia = f"{formatar_data(inicio)} a {formatar_data(fim)}"
        nome = f"intimacoes-{inicio:%Y-%m-%d}-a-{fim:%Y-%m-%d}.pdf"
        return _Pedido(tipo, referencia, nome, None, None, dados)
    lista = ", ".join(f"“{t}”" for t in TIPOS_DOCUMENTO)
    raise ErroDominio(f"Tipo de documento desconhecido: “{tipo}” (use {lista}).", "tipo")


Progresso = Callable[[int, int, str], None]


def _sem_progresso(_feitos: int, _total: int, _texto: str) -> None:
    return None


@retentavel
def emitir_documento(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    tipo: str,
    auto_id: int | None = None,
    operadora_id: int | None = None,
    periodo: tuple[date, date] | None = None,
    data_entrega: date | None = None,
    retificacao_id: int | None = None,
    revisao_id: int | None = None,
    progresso: Progresso | None = None,
    certificado: Certificado | None = None,
) -> DocumentoInfo:
    """Issue a document: render it from the database, keep the bytes with their SHA-256, audit.

    With `certificado` (loaded on the user's PC for the session) a kind that `assinatura.ASSINATURA_POR_TIPO`
    lets this user sign is signed (PAdES) and the signed bytes are the issued document; the certificate is
    checked (validity, holder, revocation) before anything is rendered. Issuing again serves the signed copy;
    a copy issued unsigned before is kept and a signed version of it is added.

    `tipo` is a key of TIPOS_DOCUMENTO; "auto", "intimacao" and "decisao" take `auto_id`, "ficha" takes
    `operadora_id`, "lote_intimacoes" takes `periodo` (first and last day); `data_entrega` is the day the
    notices are expected to be delivered (intimação not yet recorded, and the batch). Issuing bytes
    already stored for the same document returns that document (`novo=False`) and writes nothing.
    "retificacao" and "intimacao_termo" take `retificacao_id`, "revisao" takes `revisao_id`; "processo" (the
    complete case file, services.processo_integral) takes `auto_id`. An auto corrected by a termo de
    retificação is never rendered
    again: its copy issued first is served (the auto as delivered; the termos say what changed).

    `progresso(feitos, total, texto)` is called while reading, page by page while rendering, and once more
    just before the one transaction that stores the document and its audit row: whatever it raises there
    (`Cancelado`) leaves nothing written.
    """
    exigir_papel(ator, *PAPEIS, acao="emitir documentos")
    avisar = progresso or _sem_progresso
    avisar(0, 0, "Lendo os dados do documento…")
    with uow:  # read only: released before rendering, so the write lock is never held while ReportLab works
        if tipo == "auto" and auto_id is not None:
            original = _auto_ja_emitido_e_retificado(uow.session, auto_id)
            if original is not None:
                return info_de(original, novo=False)
        carimbo_url = _conferir_para_assinar(uow.session, ator, tipo, certificado)
        guardado = _aviso_superado(uow.session, tipo, auto_id, retificacao_id)
        if guardado is not None:
            return info_de(guardado, novo=False)
        pedido = _pedido(
            uow.session, tipo, auto_id, operadora_id, periodo, data_entrega, retificacao_id, revisao_id
        )
        if (termo_guardado := _termo_de_revisao_guardado(uow.session, pedido, certificado)) is not None:
            return termo_guardado
    conteudo = renderizar(pedido.tipo, pedido.dados, avisar)
    sha = hashlib.sha256(conteudo).hexdigest()
    with uow:
        assinado, sem_assinatura = _ja_emitidos(uow.session, pedido.tipo, pedido.referencia, sha)
    if assinado is not None:
        return assinado
    if sem_assinatura is not None and certificado is None:
        return sem_assinatura
    momento = relogio.agora()
    assinatura = None
    if certificado is not None:
        from secretaria.services.assinatura import assinar_pdf

        avisar(1, 1, "Assinando o documento com o certificado digital…")
        descricao = _info_pedido(pedido).descricao
        conteudo = assinar_pdf(
            conteudo,
            certificado,
            motivo=descricao,
            identificador=sha,
            momento=momento,
            carimbo_url=carimbo_url,
        )
        assinatura = (certificado, sha, sem_assinatura.id if sem_assinatura is not None else None)
    avisar(1, 1, "Gravando o documento emitido…")
    return _gravar_documento(uow, ator, pedido, conteudo, momento, assinatura)


def _info_pedido(pedido: _Pedido) -> DocumentoInfo:
    return DocumentoInfo(0, pedido.tipo, pedido.referencia, pedido.nome_arquivo, "", relogio.agora(), "")


def _conferir_para_assinar(
    sessao: so.Session, ator: Ator, tipo: str, certificado: Certificado | None
) -> str | None:
    """Refuse a certificate this user may not sign this kind with (before anything is rendered); the
    office's timestamp server, if any."""
    if certificado is None:
        return None
    from secretaria.services.assinatura import (
        conferir_assinante,
        conferir_certificado,
        contexto_validacao,
        ler_config_assinatura,
    )

    config = ler_config_assinatura(sessao)
    conferir_assinante(tipo, ator, config.tipos_emissor, TIPOS_DOCUMENTO.get(tipo, tipo))
    momento = relogio.agora()
    conferir_certificado(certificado, ator, momento, contexto_validacao(sessao, momento, buscar=True))
    return config.carimbo_url


def _ja_emitidos(
    sessao: so.Session, tipo: str, referencia: str, sha: str
) -> tuple[DocumentoInfo | None, DocumentoInfo | None]:
    """The newest signed copy of these unsigned bytes, and the unsigned copy itself, when already stored."""
    d = DocumentoEmitido
    assinado = sessao.scalar(
        sa.select(d)
        .where(d.tipo == tipo, d.referencia == referencia, d.sha256_original == sha)
        .order_by(d.id.desc())
        .limit(1)
    )
    sem_assinatura = sessao.scalar(
        sa.select(d)
        .where(d.tipo == tipo, d.referencia == referencia, d.sha256 == sha)
        .order_by(d.id)
        .limit(1)
    )
    return (
        info_de(assinado, novo=False) if assinado is not None else None,
        info_de(sem_assinatura, novo=False) if sem_assinatura is not None else None,
    )


def _gravar_documento(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    pedido: _Pedido,
    conteudo: bytes,
    momento: datetime,
    assinatura: tuple[Certificado, str, int | None] | None,
) -> DocumentoInfo:
    with uow:
        s = uow.session
        sha = hashlib.sha256(conteudo).hexdigest()
        doc = DocumentoEmitido(
            tipo=pedido.tipo,
            referencia=pedido.referencia,
            auto_id=pedido.auto_id,
            operadora_id=pedido.operadora_id,
            nome_arquivo=pedido.nome_arquivo,
            sha256=sha,
            conteudo=conteudo,
            emitido_em=momento,
            emitido_por=ator.login,
        )
        acao = "emitir_documento"
        if assinatura is not None:
            cert, sha_original, versao_de = assinatura
            doc.assinado_por = cert.titular
            doc.certificado = cert.descricao[:300]
            doc.sha256_original = sha_original
            doc.versao_de_id = versao_de
            if versao_de is not None:
                acao = "assinar_documento"
        s.add(doc)
        s.flush()
        depois = auditoria.instantaneo(doc)
        depois["tamanho"] = len(conteudo)
        auditoria.registrar(s, ator, acao, "documento_emitido", doc.id, None, depois)
        uow.commit()
        return info_de(doc, novo=True)


@retentavel
def assinar_documento(
    uow: UnidadeDeTrabalho, ator: Ator, *, documento_id: int, certificado: Certificado
) -> DocumentoInfo:
    """Sign a document issued without a digital signature: a NEW version (the signature appended to the
    stored bytes, which stay its prefix) beside the first, which is kept. A document already signed, or
    whose signed version exists, is refused."""
    exigir_papel(ator, *PAPEIS, acao="assinar documentos")
    with uow:
        s = uow.session
        doc = s.get(DocumentoEmitido, documento_id)
        if doc is None:
            raise NaoEncontrado(mensagem_nao_encontrado("Documento emitido", documento_id), "documento_id")
        info = info_de(doc, novo=False)
        if doc.assinado_por is not None:
            raise ErroDominio(f"{info.descricao} já está assinado por {doc.assinado_por}.", "documento_id")
        versao = s.scalar(
            sa.select(DocumentoEmitido.id).where(DocumentoEmitido.versao_de_id == doc.id).limit(1)
        )
        if versao is not None:
            raise ErroDominio(
                f"{info.descricao} já tem uma versão assinada (documento nº {versao}).", "documento_id"
            )
        carimbo_url = _conferir_para_assinar(s, ator, doc.tipo, certificado)
        conteudo = obter_documento(s, doc.id)
        pedido = _Pedido(doc.tipo, doc.referencia, doc.nome_arquivo, doc.auto_id, doc.operadora_id, None)
    from secretaria.services.assinatura import assinar_pdf

    momento = relogio.agora()
    assinado = assinar_pdf(
        conteudo,
        certificado,
        motivo=info.descricao,
        identificador=info.sha256,
        momento=momento,
        carimbo_url=carimbo_url,
    )
    return _gravar_documento(uow, ator, pedido, assinado, momento, (certificado, info.sha256, info.id))


def _termo_de_revisao_guardado(
    sessao: so.Session, pedido: _Pedido, certificado: Certificado | None
) -> DocumentoInfo | None:
    """A termo de revisão once issued is that paper (REGRAS § 5: a reprint is the stored document, never
    re-rendered): its newest signed copy, else the first issued. None when never issued, or when it is to be
    signed now and has no signed copy yet (signing goes on as for any document)."""
    if pedido.tipo != "revisao":
        return None
    primeiro = sessao.scalar(
        sa.select(DocumentoEmitido)
        .where(DocumentoEmitido.tipo == "revisao", DocumentoEmitido.referencia == pedido.referencia)
        .order_by(DocumentoEmitido.id)
        .limit(1)
    )
    if primeiro is None:
        return None
    assinado, _sem = _ja_emitidos(sessao, "revisao", pedido.referencia, primeiro.sha256)
    if assinado is not None:
        return assinado
    return info_de(primeiro, novo=False) if certificado is None else None


def _auto_ja_emitido_e_retificado(sessao: so.Session, auto_id: int) -> DocumentoEmitido | None:
    """The auto's first issued copy when a termo de retificação has corrected the auto since."""
    if sessao.scalar(sa.select(Retificacao.id).where(Retificacao.auto_id == auto_id).limit(1)) is None:
        return None
    return sessao.scalar(
        sa.select(DocumentoEmitido)
        .where(DocumentoEmitido.tipo == "auto", DocumentoEmitido.auto_id == auto_id)
        .order_by(DocumentoEmitido.id)
        .limit(1)
    )


def _aviso_superado(
    sessao: so.Session, tipo: str, auto_id: int | None, retificacao_id: int | None
) -> DocumentoEmitido | None:
    """The stored copy of a notice a later act has superseded (REGRAS § 5: a reprint of an earlier notice is
    the stored document, byte for byte, never re-rendered with today's data); None when the notice is still
    the current one, or was never issued (`_superado_sem_copia` refuses that case).

    - the auto's intimação, once a termo de retificação of substance has corrected the auto;
    - the decision notice, once the appeal is judged;
    - a termo's intimação, once a later termo of substance has corrected the auto again;
    - the judgment notice, always (the judgment is the last instance).
    """
    if auto_id is None or tipo not in ("intimacao", "decisao", "intimacao_termo", "julgamento"):
        return None
    referencia: str | None = None
    antes: datetime | None = None
    if tipo == "julgamento":  # the judgment is final: whatever happens later, its notice stays as issued
        pass
    elif tipo == "intimacao":
        termo = termo_a_intimar(sessao, auto_id)
        if termo is None:
            return None
        antes = termo.lavrado_em
    elif tipo == "decisao":
        julgado = sessao.scalar(
            sa.select(Recurso.id)
            .join(Decisao, Decisao.id == Recurso.decisao_id)
            .where(Decisao.auto_id == auto_id, Recurso.resultado != "pendente")
        )
        if julgado is None:
            return None
    else:
        ultimo = termo_a_intimar(sessao, auto_id)
        if ultimo is None or retificacao_id is None or ultimo.id == retificacao_id:
            return None
        termo = obter_termo(sessao, retificacao_id)
        referencia = termo.numero_formatado
    consulta = sa.select(DocumentoEmitido).where(
        DocumentoEmitido.tipo == tipo, DocumentoEmitido.auto_id == auto_id
    )
    if referencia is not None:
        consulta = consulta.where(DocumentoEmitido.referencia == referencia)
    if antes is not None:
        consulta = consulta.where(DocumentoEmitido.emitido_em <= antes)
    guardado = sessao.scalar(consulta.order_by(DocumentoEmitido.id.desc()).limit(1))
    if guardado is None and tipo == "intimacao":
        assert termo is not None
        raise ErroDominio(
            f"O auto nº {numero_auto_de(sessao, auto_id)} foi retificado pelo termo nº {termo.numero_formatado}, "
            "que altera a sua substância: a intimação a entregar é a do termo de retificação, com a cópia do "
            "auto retificado (documento “Intimação do termo de retificação”).",
            "tipo",
        )
    return guardado


def numero_auto_de(sessao: so.Session, auto_id: int) -> str:
    linha = sessao.execute(
        sa.select(AutoInfracao.numero, AutoInfracao.ano).where(AutoInfracao.id == auto_id)
    ).first()
    return numero_auto(linha.numero, linha.ano) if linha is not None else str(auto_id)
