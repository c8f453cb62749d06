"""The complete case file's data: every piece of the case, in order, with its bytes (issued as "processo").

The list of pieces is driven by what the case holds, never by a list of known documents: every document
issued for the auto (any kind, so a notice added later joins by itself), labelled by TIPOS_DOCUMENTO, with
its stored bytes after re-checking their SHA-256; the records that have no document of their own (each
delivery and its receipt, the defence and its text, the proposal, the appeal, its judgment, the payment,
a termo or a decision whose document was never issued); and the evidence attached to the auto. Pieces go
by date, and on the same day in the order the procedure has them (auto, intimação, defence, proposal,
decision, termos, appeal, judgment, payment).

`emitir_documento(tipo="processo", auto_id=…)` issues it like any document: numbered, stored, reprinted
from the stored bytes. The file itself is never one of its pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import ROTULOS_MEIO, ROTULOS_PAGAMENTO, ROTULOS_RECURSO, ROTULOS_RESULTADO_INTIMACAO
from secretaria.lei.formato import formatar_data, formatar_reais, formatar_urm
from secretaria.models import Anexo, DocumentoEmitido
from secretaria.reports.dados import DadosProcessoIntegral, EventoProcesso, PecaProcesso
from secretaria.services.anexos import abrir_anexo_conferido
from secretaria.services.caso import Caso, obter_caso
from secretaria.services.emitidos import DocumentoInfo, info_documento, obter_documento
from secretaria.services.orgao import timbre
from secretaria.services.rotulos import formatar_cnpj

__all__ = ["TIPO_PROCESSO", "dados_processo_integral"]

TIPO_PROCESSO = "processo"

ORDEM_NO_DIA = {
    "auto": 0,
    "intimacao": 1,
    "registro_intimacao": 2,
    "defesa": 3,
    "proposta": 4,
    "decisao": 5,
    "registro_intimacao_decisao": 5.5,
    "retificacao": 6,
    "intimacao_termo": 6.2,
    "registro_intimacao_termo": 6.4,
    "recurso": 7,
    "julgamento": 8,
    "registro_intimacao_julgamento": 8.4,
    "pagamento": 9,
    "revisao": 10,
    "registro_intimacao_revisao": 10.5,
}
"""On one day, the pieces in the procedure's order: an act, then its notice, then the notice's delivery
(the termo before its intimação, the judgment before its notification and the payment, a revision last); a
kind of document not named here goes after the decision, among the notices (the day and its number order
it)."""
_ORDEM_OUTROS = 5.7
_ORDEM_DOCUMENTO = {"julgamento": 8.2}
"""A document whose act is also a record of its own (the judgment): the notice after the act."""

_OBJETOS = {"auto": "do auto", "decisao": "da decisão", "julgamento": "do julgamento do recurso"}


def _dias(n: int) -> str:
    return f"{n} dia" if n == 1 else f"{n} dias"


def _sim_nao(valor: bool) -> str:
    return "sim" if valor else "não"


def _registro(titulo: str, data: date, campos: list[tuple[str, str]], texto: str = "") -> PecaProcesso:
    return PecaProcesso(
        titulo=titulo,
        data=data,
        origem="registro do sistema",
        formato="registro",
        campos=tuple((r, v) for r, v in campos if v),
        texto=texto,
    )


def _data_do_ato(c: Caso, tipo: str, referencia: str) -> date | None:
    """The day of the act a document belongs to, so a copy printed later still sits where its act is."""
    if tipo == "auto":
        return c.data_lavratura
    if tipo == "intimacao":
        feitas = [
            i.data for i in c.intimacoes if i.objeto == "auto" and i.sucesso and not i.retificacao_numero
        ]
        return min(feitas) if feitas else None
    if tipo == "decisao" and c.decisao is not None:
        return c.decisao.data
    if tipo == "retificacao":
        return next((t.data for t in c.retificacoes if t.numero_formatado == referencia), None)
    return None


def _documentos(sessao: so.Session, c: Caso) -> list[tuple[tuple[date, float, int], PecaProcesso, str]]:
    """Every document issued for the auto (but earlier case files), with its checked stored bytes."""
    auto_id = c.id
    docs = sessao.scalars(
        sa.select(DocumentoEmitido)
        .where(DocumentoEmitido.auto_id == auto_id, DocumentoEmitido.tipo != TIPO_PROCESSO)
        .order_by(DocumentoEmitido.emitido_em, DocumentoEmitido.id)
    ).all()
    saida = []
    for d in docs:
        info: DocumentoInfo = info_documento(sessao, d.id)
        peca = PecaProcesso(
            titulo=info.descricao,
            data=d.emitido_em.date(),
            origem=f"documento emitido nº {d.id}, em {formatar_data(d.emitido_em.date())}",
            formato="pdf",
            conteudo=obter_documento(sessao, d.id),
            sha256=d.sha256,
        )
        ato = _data_do_ato(c, d.tipo, d.referencia)
        dia = min(peca.data, ato) if ato is not None else peca.data
        chave = (dia, float(_ORDEM_DOCUMENTO.get(d.tipo, ORDEM_NO_DIA.get(d.tipo, _ORDEM_OUTROS))), d.id)
        saida.append((chave, peca, f"{d.tipo}:{d.referencia}"))
    return saida


def _anexo(sessao: so.Session, anexo_id: int, titulo: str, prova: bool) -> PecaProcesso:
    a = abrir_anexo_conferido(sessao, anexo_id)
    anexado = sessao.scalar(sa.select(Anexo.anexado_em).where(Anexo.id == anexo_id))
    dia = anexado.date() if anexado is not None else relogio.hoje()
    return PecaProcesso(
        titulo=f"{titulo}: {a.nome_arquivo}",
        data=dia,
        origem=f"anexo nº {a.anexo_id}, anexado em {formatar_data(dia)}",
        formato="pdf" if a.tipo_mime == "application/pdf" else "imagem",
        conteudo=a.conteudo,
        sha256=a.sha256,
        prova=prova,
    )


def _registros(
    sessao: so.Session, c: Caso, emitidos: set[str]
) -> list[tuple[tuple[date, float, int], PecaProcesso]]:
    """The acts that have no document of their own, each drawn from its record."""
    r: list[tuple[tuple[date, float, int], PecaProcesso]] = []

    def incluir(tipo: str, seq: int, peca: PecaProcesso) -> None:
        r.append(((peca.data, float(ORDEM_NO_DIA[tipo]), seq), peca))

    if not any(e.startswith("auto:") for e in emitidos):
        incluir(
            "auto",
            0,
            _registro(
                f"Registro do auto de infração nº {c.numero_formatado}",
                c.data_lavratura,
                [
                    ("Dispositivo", c.dispositivo_rotulo),
                    ("Infração", f"{formatar_data(c.data_infracao)}, {c.local}"),
                    ("Lavratura", f"{formatar_data(c.data_lavratura)}, {c.local_lavratura}"),
                    ("Fiscal", f"{c.fiscal_nome} (matrícula {c.fiscal_matricula})"),
                    ("Próxima penalidade", c.proxima_penalidade),
                ],
                c.descricao_fatos,
            ),
        )
    for i in c.intimacoes:
        objeto = (
            f"do termo de retificação nº {i.retificacao_numero}"
            if i.retificacao_numero
            else f"do termo de revisão nº {i.revisao_numero or '—'}"
            if i.objeto == "revisao"
            else _OBJETOS.get(i.objeto, i.objeto)
        )
        ordem = "registro_intimacao_termo" if i.retificacao_numero else f"registro_intimacao_{i.objeto}"
        incluir(
            ordem if ordem in ORDEM_NO_DIA else "registro_intimacao",
            i.id,
            _registro(
                f"Registro da intimação {objeto}",
                i.data,
                [
                    ("Data", formatar_data(i.data)),
                    ("Meio", ROTULOS_MEIO.get(i.meio, i.meio)),
                    ("Resultado", ROTULOS_RESULTADO_INTIMACAO.get(i.resultado, i.resultado)),
                    ("Recebida por", i.recebedor_nome),
                    ("Documento", i.recebedor_documento),
                    ("Recibo / AR", i.recibo),
                    ("Prazo aberto até", formatar_data(i.prazo) if i.prazo else ""),
                    ("Registrada por", i.registrado_por),
                ],
                i.observacao,
            ),
        )
    anexos = sessao.execute(
        sa.select(Anexo.id, Anexo.defesa_id, Anexo.recurso_id).where(Anexo.auto_id == c.id).order_by(Anexo.id)
    ).all()
    for d in c.defesas:
        incluir(
            "defesa",
            d.id,
            _registro(
                "Defesa",
                d.protocolada_em,
                [
                    ("Protocolada em", formatar_data(d.protocolada_em)),
                    ("Tempestiva", _sim_nao(d.tempestiva)),
                    ("Requerente", d.requerente),
                    ("Recibo", d.recibo),
                ],
                d.texto or "Texto da defesa não transcrito no sistema.",
            ),
        )
        for a in anexos:
            if a.defesa_id == d.id:
                incluir("defesa", d.id, _anexo(sessao, a.id, "Anexo da defesa", False))
    for p in c.propostas:
        pena = ", ".join(
            parte
            for parte in (
                f"multa de {formatar_urm(p.multa_ur)}" if p.multa_ur else "",
                f"suspensão de {_dias(p.suspensao_dias)}" if p.suspensao_dias else "",
            )
            if parte
        ) or ("arquivamento" if p.acao == "arquivar" else "—")
        incluir(
            "proposta",
            p.id,
            _registro(
                "Proposta da autoridade (art. 13)",
                p.data,
                [("Data", formatar_data(p.data)), ("Proposta", pena), ("Registrada por", p.autoridade)],
                p.fundamentacao,
            ),
        )
    if c.decisao is not None and not any(e.startswith("decisao:") for e in emitidos):
        dec = c.decisao
        incluir(
            "decisao",
            dec.id,
            _registro(
                "Decisão do(a) Secretário(a)",
                dec.data,
                [
                    ("Data", formatar_data(dec.data)),
                    ("Resultado", "penalidade aplicada" if dec.resultado == "aplicada" else "auto arquivado"),
                    (
                        "Multa",
                        f"{formatar_urm(dec.multa_ur)} = {formatar_reais(dec.multa_reais)}"
                        if dec.multa_ur
                        else "",
                    ),
                    ("Suspensão", _dias(dec.suspensao_dias) if dec.suspensao_dias else ""),
                ],
                dec.fundamentacao,
            ),
        )
    for t in c.retificacoes:
        if f"retificacao:{t.numero_formatado}" in emitidos:
            continue
        incluir(
            "retificacao",
            t.id,
            _registro(
                f"Termo de retificação nº {t.numero_formatado} (registro)",
                t.data,
                [
                    ("Data", formatar_data(t.data)),
                    ("Natureza", "de substância" if t.substancial else "formal"),
                    *((i.rotulo, f"de “{i.de}” para “{i.para}”") for i in t.itens),
                    ("Lavrado por", t.lavrado_por_nome),
                ],
                t.motivo,
            ),
        )
    _recurso_e_pagamento(sessao, c, anexos, incluir)
    for a in anexos:
        if a.defesa_id is None and a.recurso_id is None:
            peca = _anexo(sessao, a.id, "Prova", True)
            r.append(((peca.data, 0.0, a.id), peca))
    return r


def _recurso_e_pagamento(
    sessao: so.Session,
    c: Caso,
    anexos: Sequence[sa.Row[Any]],
    incluir: Callable[[str, int, PecaProcesso], None],
) -> None:
    """The appeal (and what was attached to it), its judgment and the payment, from their records."""
    if c.recurso is not None:
        rec = c.recurso
        incluir(
            "recurso",
            rec.id,
            _registro(
                "Recurso ao Prefeito",
                rec.protocolado_em,
                [
                    ("Protocolado em", formatar_data(rec.protocolado_em)),
                    ("Tempestivo", _sim_nao(rec.tempestivo)),
                ],
                rec.razoes,
            ),
        )
        for a in anexos:
            if a.recurso_id == rec.id:
                incluir("recurso", rec.id, _anexo(sessao, a.id, "Anexo do recurso", False))
        if rec.julgado_em is not None:
            nova = []
            if rec.multa_ur_nova is not None:
                nova.append(("Nova multa", f"{formatar_urm(rec.multa_ur_nova)}"))
            if rec.suspensao_dias_nova:
                nova.append(("Nova suspensão", _dias(rec.suspensao_dias_nova)))
            incluir(
                "julgamento",
                rec.id,
                _registro(
                    "Julgamento do recurso",
                    rec.julgado_em,
                    [
                        ("Julgado em", formatar_data(rec.julgado_em)),
                        ("Resultado", ROTULOS_RECURSO.get(rec.resultado, rec.resultado)),
                        *nova,
                    ],
                    rec.fundamentacao_julgamento or "",
                ),
            )
    pg = c.pagamento
    if pg is not None and pg.situacao != "aberto":
        dia = pg.pago_em or pg.inscrito_divida_em or (c.decisao.data if c.decisao else c.data_lavratura)
        incluir(
            "pagamento",
            pg.id,
            _registro(
                "Pagamento da multa",
                dia,
                [
                    ("Situação", ROTULOS_PAGAMENTO.get(pg.situacao, pg.situacao)),
                    ("Valor", formatar_reais(pg.valor)),
                    ("Pago em", formatar_data(pg.pago_em) if pg.pago_em else ""),
                    ("Valor pago", formatar_reais(pg.valor_pago) if pg.valor_pago is not None else ""),
                    ("Guia", pg.guia),
                    (
                        "Inscrita em dívida ativa em",
                        formatar_data(pg.inscrito_divida_em) if pg.inscrito_divida_em else "",
                    ),
                ],
            ),
        )


def dados_processo_integral(sessao: so.Session, auto_id: int) -> DadosProcessoIntegral:
    """Every piece of the case with its bytes, the cover's data and the timeline (a cancelled auto too:
    its file is what a court asks for)."""
    c = obter_caso(sessao, auto_id)
    documentos = _documentos(sessao, c)
    emitidos = {tipo_ref for _chave, _peca, tipo_ref in documentos}
    todas = [(chave, peca) for chave, peca, _t in documentos] + _registros(sessao, c, emitidos)
    todas.sort(key=lambda par: par[0])
    return DadosProcessoIntegral(
        timbre=timbre(sessao),
        numero_auto=c.numero_formatado,
        operadora=c.operadora_nome,
        cnpj=formatar_cnpj(c.operadora_cnpj),
        dispositivo=c.dispositivo_rotulo,
        data_lavratura=c.data_lavratura,
        situacao=c.fase_rotulo,
        emitida_em=relogio.hoje(),
        pecas=tuple(peca for _chave, peca in todas),
        linha_do_tempo=tuple(EventoProcesso(e.data, e.titulo, e.descricao) for e in c.linha_do_tempo),
    )
