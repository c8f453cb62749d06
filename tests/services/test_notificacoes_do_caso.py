"""Every notice of a case that CHANGED is true after everything it went through (REGRAS § 5).

One case goes through a correction of substance, a late defence, a decision, an appeal granted in part and a
payment; each notice is read back with pypdf and checked for what REGRAS § 5 says it states, and every
reprint of an earlier notice is the stored document, byte for byte. On SQLite and PostgreSQL (`banco`).
"""

from __future__ import annotations

import dataclasses
import io
import os
from datetime import date, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.lei.formato import formatar_data, formatar_reais, formatar_urm
from secretaria.lei.urm import por_extenso, urm_para_reais
from secretaria.models import AutoInfracao, Decisao, DocumentoEmitido, Usuario
from secretaria.reports.formato import formatar_valor_urm
from secretaria.services import filas, revisao_sancao
from secretaria.services.base import ErroDominio
from secretaria.services.caso import obter_caso
from secretaria.services.documentos import emitir_documento, obter_documento
from secretaria.services.execucao import PedidoPagamento, registrar_pagamento
from secretaria.services.retificacoes import PedidoRetificacao, retificar_auto
from secretaria.services.sancao import sancao_do_auto
from secretaria.services.tramitacao import (
    PedidoIntimacao,
    registrar_defesa,
    registrar_intimacao,
)
from tests.helpers.cenario_documentos import ORGAO, preencher_orgao
from tests.helpers.fabrica import ATORES, NOMES, URM_2026

MOTIVO = "O fiscal autuante indicou o dispositivo errado."


def paginas(conteudo: bytes) -> list[str]:
    """Each page's text with whitespace collapsed (lines wrap anywhere)."""
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(conteudo)).pages]


def texto(conteudo: bytes) -> str:
    return " ".join(paginas(conteudo))


def _emitir(banco: Banco, tipo: str, auto_id: int, **extra: Any) -> tuple[Any, bytes]:
    info = emitir_documento(banco.uow(), ATORES["protocolo"], tipo=tipo, auto_id=auto_id, **extra)
    with banco.leitura() as s:
        conteudo = obter_documento(s, info.id)
    _guardar_para_olhar(tipo, info.id, conteudo)
    return info, conteudo


def _guardar_para_olhar(tipo: str, numero: int, conteudo: bytes) -> None:
    """With NOTIFICACOES_PDF set (a folder), keep each notice there, to render and look at page by page."""
    pasta = os.environ.get("NOTIFICACOES_PDF")
    if pasta:
        with open(os.path.join(pasta, f"{tipo}-{numero}.pdf"), "wb") as f:
            f.write(conteudo)


def _auto(s: so.Session, auto_id: int) -> AutoInfracao:
    auto = s.get(AutoInfracao, auto_id)
    assert auto is not None
    return auto


def _usuario_autoridade(banco: Banco) -> None:
    """The proposing authority as an account, so the notice can name who proposed (art. 13)."""
    with banco.uow() as uow:
        uow.session.add(
            Usuario(login="autoridade", nome=NOMES["autoridade"], senha_hash="x", alterado_por="teste")
        )
        uow.commit()


@pytest.fixture
def caso(banco: Banco, roteiro: Any) -> Any:
    preencher_orgao(banco)
    _usuario_autoridade(banco)
    return roteiro


def test_caso_com_retificacao_defesa_tardia_decisao_recurso_parcial_e_pagamento(
    banco: Banco, caso: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = caso
    # --- a prior, art. 1º, V (tipo B), fact of 03/09/2026, decided 24/09, the decision intimated 25/09 and
    # final once its appeal deadline passed with no appeal on file.
    r.hoje = date(2026, 10, 20)
    anterior_id = int(r.decidido(data_infracao=date(2026, 9, 3), multa="0.50", dispositivo="1-V").id)
    # --- the auto, art. 1º, VI, drawn up on Mon 02/11/2026; its intimação issued and delivered on 03/11.
    r.hoje = date(2026, 11, 2)
    auto_id = int(r.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 2)).id)
    intimacao_auto, bytes_intimacao_auto = _emitir(
        banco, "intimacao", auto_id, data_entrega=date(2026, 11, 3)
    )
    # REGRAS § 5, the intimação: who is notified and the case number, the purpose, where and in which
    # hours the defence is received, in person or through a representative, the case goes on without a
    # defence, the provision (with the auto's copy), and "15 dias contados do recebimento" — no date.
    i = texto(bytes_intimacao_auto)
    assert "Viação Princesa do Sul Ltda." in i and "Processo Auto de Infração nº" in i
    assert "fica a destinatária INTIMADA do Auto de Infração nº" in i and "apresentar defesa" in i
    assert ORGAO.horario_expediente in i and "Rua Marechal Floriano, 123" in i
    assert "por seu representante legal ou por procurador constituído" in i
    assert "o processo prosseguirá e será decidido independentemente dela" in i
    assert "por infração ao Art. 1º, VI" in i and "cuja cópia autêntica acompanha esta intimação" in i
    assert "15 (quinze) dias contados do recebimento desta intimação" in i and "defesa até" not in i
    r.hoje = date(2026, 11, 3)
    r.intimar(auto_id, date(2026, 11, 3))
    with banco.leitura() as s:
        prazo_original = _auto(s, auto_id).prazo_defesa
    assert prazo_original is not None

    # --- a correction of substance on 05/11: the provision, Art. 1º, VI → Art. 1º, V.
    r.hoje = date(2026, 11, 5)
    termo = retificar_auto(
        banco.uow(),
        ATORES["fiscal"],
        PedidoRetificacao(auto_id=auto_id, alteracoes={"dispositivo_codigo": "1-V"}, motivo=MOTIVO),
    )
    assert termo.substancial
    # The termo itself (which item, old → new, why, who, when), printed like the auto.
    _info_termo, bytes_termo_retificacao = _emitir(banco, "retificacao", auto_id, retificacao_id=termo.id)
    tr = texto(bytes_termo_retificacao)
    assert f"TERMO DE RETIFICAÇÃO Nº {termo.numero_formatado}" in tr.upper()
    assert "Dispositivo infringido Art. 1º, VI (tipo A) Art. 1º, V (tipo B)" in tr
    assert MOTIVO in tr and NOMES["fiscal"] in tr and formatar_data(date(2026, 11, 5)) in tr

    # A reprint of the auto's earlier intimação is the stored document, never re-rendered with today's data.
    de_novo, bytes_de_novo = _emitir(banco, "intimacao", auto_id)
    assert (de_novo.id, de_novo.novo, bytes_de_novo) == (intimacao_auto.id, False, bytes_intimacao_auto)

    # The batch now carries the termo's intimação, with the corrected auto's copy.
    lote = emitir_documento(
        banco.uow(),
        ATORES["protocolo"],
        tipo="lote_intimacoes",
        periodo=(date(2026, 11, 1), date(2026, 11, 30)),
        data_entrega=date(2026, 11, 6),
    )
    with banco.leitura() as s:
        bytes_lote = obter_documento(s, lote.id)
    _guardar_para_olhar("lote", lote.id, bytes_lote)
    paginas_lote = paginas(bytes_lote)
    _confere_intimacao_do_termo(paginas_lote, termo.numero_formatado, r.hoje, prazo_original)

    # The same notice issued on its own, from the case (numbered, stored, the same rendering).
    intimacao_termo, bytes_termo = _emitir(banco, "intimacao_termo", auto_id, data_entrega=date(2026, 11, 6))
    assert intimacao_termo.referencia == termo.numero_formatado
    _confere_intimacao_do_termo(paginas(bytes_termo), termo.numero_formatado, r.hoje, prazo_original)

    # --- the termo's intimação delivered on 06/11 reopens the defence; the defence comes one day late.
    r.hoje = date(2026, 11, 6)
    registrar_intimacao(
        banco.uow(),
        ATORES["protocolo"],
        PedidoIntimacao(
            auto_id=auto_id,
            data=date(2026, 11, 6),
            meio="pessoal",
            resultado="entregue",
            recebedor_nome="Carlos Representante",
            retificacao_id=termo.id,
        ),
    )
    with banco.leitura() as s:
        prazo_reaberto = _auto(s, auto_id).prazo_defesa
    assert prazo_reaberto is not None and prazo_reaberto > date(2026, 11, 6)
    dia_defesa = prazo_reaberto + timedelta(days=1)
    r.hoje = dia_defesa
    defesa = registrar_defesa(
        banco.uow(),
        ATORES["protocolo"],
        auto_id=auto_id,
        protocolada_em=dia_defesa,
        texto="Não houve infração.",
    )
    assert defesa.tempestiva is False

    # --- proposal and decision (the top of the range), the decision intimated the next day.
    dia_decisao = dia_defesa + timedelta(days=3)
    r.hoje = dia_decisao
    with banco.leitura() as s:
        sancao = sancao_do_auto(s, _auto(s, auto_id), dia_decisao)
    # Corrected to art. 1º, V, the auto counts the prior of the same provision: 1st recidivism, range doubled.
    assert sancao.reincidencia == 1 and sancao.multa_min_ur < sancao.multa_max_ur
    r.propor(auto_id, dia_decisao, sancao.multa_max_ur)
    r.decidir(auto_id, dia_decisao, sancao.multa_max_ur)
    r.hoje = dia_decisao + timedelta(days=1)
    r.intimar(auto_id, r.hoje, objeto="decisao")
    decisao_info, bytes_decisao = _emitir(banco, "decisao", auto_id)
    t = texto(bytes_decisao)
    # Lei 9.784/1999, art. 26 § 1º and art. 50, as REGRAS § 5 lists them for the decision notice.
    assert "por seu representante legal ou por procurador constituído" in t
    assert ORGAO.horario_expediente in t and "Rua Marechal Floriano, 123" in t
    assert "Veículo em circulação sem condições de higiene." in t  # the facts, as the auto states them
    assert f"retificado pelo termo de retificação nº {termo.numero_formatado}" in t
    assert f"recebida em {formatar_data(dia_defesa)}, intempestiva" in t
    assert f"proposta pela autoridade competente, {NOMES['autoridade']}, em {formatar_data(dia_decisao)}" in t
    assert "Proposta (art. 13)" in t
    reais = urm_para_reais(sancao.multa_max_ur, URM_2026)
    assert (
        f"{formatar_urm(sancao.multa_max_ur)} × {formatar_valor_urm(URM_2026)} = {formatar_reais(reais)}" in t
    )
    assert "²" not in t and "³" not in t  # plain digits, no superscripts

    # --- appeal on time, granted in part (the bottom of the range) by the Prefeito.
    r.hoje = r.hoje + timedelta(days=2)
    r.recorrer(auto_id, r.hoje)
    r.hoje = r.hoje + timedelta(days=5)
    r.julgar(
        auto_id, r.hoje, "provido_parcialmente", multa_ur_nova=sancao.multa_min_ur, suspensao_dias_nova=0
    )
    julgamento, bytes_julgamento = _emitir(banco, "julgamento", auto_id)
    assert julgamento.referencia == julgamento.referencia and julgamento.novo
    j = texto(bytes_julgamento)
    reduzido = urm_para_reais(sancao.multa_min_ur, URM_2026)
    with banco.leitura() as s:
        definitiva = _auto(s, auto_id).data_definitiva
    assert definitiva == r.hoje  # the judgment is the last instance (art. 7º)
    assert "NOTIFICAÇÃO DO JULGAMENTO DO RECURSO" in j
    assert "RECURSO PROVIDO EM PARTE – PENALIDADE REDUZIDA" in j
    assert "Julgado." in j  # the reasons
    assert (
        f"{formatar_urm(sancao.multa_min_ur)} × {formatar_valor_urm(URM_2026)} = {formatar_reais(reduzido)}"
        in j
    )
    assert por_extenso(reduzido) in j
    assert f"contados de {formatar_data(definitiva)}, data em que a penalidade se tornou definitiva" in j
    assert "inscrita em dívida ativa" in j and ORGAO.pagamento_instrucoes in j

    # Notified like the decision: its delivery is recorded (no deadline starts: last instance).
    entrega = registrar_intimacao(
        banco.uow(),
        ATORES["protocolo"],
        PedidoIntimacao(
            auto_id=auto_id,
            objeto="julgamento",
            data=r.hoje,
            meio="pessoal",
            resultado="entregue",
            recebedor_nome="Carlos Representante",
        ),
    )
    assert entrega.prazo is None and "última instância" in (entrega.explicacao_prazo or "")
    with banco.leitura() as s:
        caso_visto = obter_caso(s, auto_id)
    assert any(e.titulo.startswith("Intimação do julgamento do recurso") for e in caso_visto.linha_do_tempo)
    assert "registrar_intimacao_julgamento" not in caso_visto.proximos_atos
    titulos = [e.titulo for e in caso_visto.linha_do_tempo]
    julgado_em = next(i for i, titulo in enumerate(titulos) if titulo.startswith("Julgamento do recurso"))
    notificado_em = next(
        i for i, titulo in enumerate(titulos) if titulo.startswith("Intimação do julgamento do recurso")
    )
    assert julgado_em < notificado_em  # same day: the judgment, then its notice

    # The earlier decision notice's reprint stays its stored bytes.
    decisao_de_novo, bytes_decisao_de_novo = _emitir(banco, "decisao", auto_id)
    assert (decisao_de_novo.id, bytes_decisao_de_novo) == (decisao_info.id, bytes_decisao)

    # --- payment of the reduced fine; the judgment notice reprinted is the same paper.
    registrar_pagamento(
        banco.uow(), ATORES["protocolo"], PedidoPagamento(auto_id=auto_id, situacao="pago", data=r.hoje)
    )
    julgamento_de_novo, bytes_de_novo = _emitir(banco, "julgamento", auto_id)
    assert (julgamento_de_novo.id, bytes_de_novo) == (julgamento.id, bytes_julgamento)

    # --- the prior's appeal, filed on time (01/10) but typed in only now, is granted: its penalty is
    # annulled, and the decided case that counted it goes to the Secretary's review list (art. 65).
    r.recorrer(anterior_id, date(2026, 10, 1))
    r.julgar(anterior_id, r.hoje, "provido")
    with banco.leitura() as s:
        fila = filas.revisoes_de_sancao(s, r.hoje)
        hoje_sancao = sancao_do_auto(s, _auto(s, auto_id), dia_decisao)
    assert [linha.id for linha in fila.linhas] == [auto_id]
    assert hoje_sancao.reincidencia == 0
    faixa = f"{formatar_urm(hoje_sancao.multa_min_ur).removesuffix(' URM')} a {formatar_urm(hoje_sancao.multa_max_ur)}"
    # The level and range it would have today (REGRAS § 5), beside the fine in force.
    assert fila.linhas[0].detalhe == f"Nível 0 (era 1): {faixa}; aplicada {formatar_urm(sancao.multa_min_ur)}"
    with banco.leitura() as s:
        revisao_id = revisao_sancao.revisoes_pendentes_do_auto(s, auto_id)[0].id
    # Never raising the penalty (art. 65, parágrafo único); within today's range.
    with pytest.raises(ErroDominio, match="nunca agrava") as erro:
        revisao_sancao.revisar_sancao(
            banco.uow(),
            ATORES["secretario"],
            revisao_sancao.PedidoRevisao(
                revisao_id=revisao_id, multa_ur=sancao.multa_max_ur, fundamentacao="Revisão."
            ),
        )
    assert erro.value.campo == "multa_ur"
    revista = revisao_sancao.revisar_sancao(
        banco.uow(),
        ATORES["secretario"],
        revisao_sancao.PedidoRevisao(
            revisao_id=revisao_id,
            multa_ur=hoje_sancao.multa_min_ur,
            fundamentacao="O antecedente foi anulado em recurso: a infração é primária.",
        ),
    )
    pago = urm_para_reais(sancao.multa_min_ur, URM_2026)
    revisto = urm_para_reais(hoje_sancao.multa_min_ur, URM_2026)
    assert revista.valor_restituir == pago - revisto
    with banco.leitura() as s:
        assert filas.revisoes_de_sancao(s, r.hoje).total == 0
    termo_revisao, bytes_revisao = _emitir(banco, "revisao", auto_id, revisao_id=revisao_id)
    assert termo_revisao.referencia == revista.numero_formatado
    v = texto(bytes_revisao)
    assert f"TERMO DE REVISÃO Nº {revista.numero_formatado}" in v
    assert "que contava como reincidência, teve a penalidade anulada em recurso" in v
    assert "infração primária (nível 0)" in v
    assert (
        f"{formatar_urm(hoje_sancao.multa_min_ur)} × {formatar_valor_urm(URM_2026)} = {formatar_reais(revisto)}"
        in v
    )
    assert por_extenso(revisto) in v
    assert f"{formatar_reais(pago - revisto)} a restituir" in v
    assert "não agrava a sanção" in v
    # Every later document shows the judgment (REGRAS § 5).
    assert (
        f"julgado em {formatar_data(definitiva)}, reduziu a multa da decisão, de "
        f"{formatar_urm(sancao.multa_max_ur)}, para {formatar_urm(sancao.multa_min_ur)}" in v
    )
    # By the auto's number (as `secretaria documento revisao NNNN/AAAA` asks): the same stored paper.
    de_novo_revisao, bytes_de_novo_revisao = _emitir(banco, "revisao", auto_id)
    assert (de_novo_revisao.id, bytes_de_novo_revisao) == (termo_revisao.id, bytes_revisao)
    # Even when the program would word it differently today: the termo is the paper issued.
    from secretaria.services import documentos

    original = documentos.dados_revisao
    monkeypatch.setattr(
        documentos,
        "dados_revisao",
        lambda s, i: dataclasses.replace(original(s, i), fundamentacao="Outra redação."),
    )
    outra_vez, bytes_outra_vez = _emitir(banco, "revisao", auto_id, revisao_id=revisao_id)
    assert (outra_vez.id, outra_vez.novo, bytes_outra_vez) == (termo_revisao.id, False, bytes_revisao)
    monkeypatch.undo()

    # --- the complete case file: every piece in order, each stored notice with its SHA-256.
    integral, bytes_integral = _emitir(banco, "processo", auto_id)
    _confere_processo_integral(banco, auto_id, bytes_integral)
    de_novo_integral, bytes_de_novo_integral = _emitir(banco, "processo", auto_id)
    assert (de_novo_integral.id, bytes_de_novo_integral) == (integral.id, bytes_integral)


def _confere_processo_integral(banco: Banco, auto_id: int, conteudo: bytes) -> None:
    """The complete case file: every stored notice as a piece, with the SHA-256 of its stored bytes, in the
    procedure's order (an act, then its notice, then the notice's delivery), folhas numbered."""
    todas = paginas(conteudo)
    indice = todas[0]
    assert "CÓPIA INTEGRAL DO PROCESSO" in indice
    with banco.leitura() as s:
        guardados = {
            d.tipo: d.sha256
            for d in s.scalars(
                sa.select(DocumentoEmitido).where(
                    DocumentoEmitido.auto_id == auto_id, DocumentoEmitido.tipo != "processo"
                )
            )
        }
    assert set(guardados) == {
        "intimacao",
        "retificacao",
        "intimacao_termo",
        "decisao",
        "julgamento",
        "revisao",
    }
    for sha in guardados.values():  # printed in two halves of 32 digits
        assert f"{sha[:32]} {sha[32:]}" in indice
    ordem = [
        "Registro do auto de infração",
        "Intimação do auto",
        "Registro da intimação do auto",
        "Termo de retificação nº",
        "Intimação do termo de retificação nº",
        "Registro da intimação do termo de retificação",
        "Defesa",
        "Proposta da autoridade (art. 13)",
        "Notificação de decisão",
        "Registro da intimação da decisão",
        "Recurso ao Prefeito",
        "Julgamento do recurso –",
        "Notificação do julgamento do recurso",
        "Registro da intimação do julgamento do recurso",
        "Pagamento da multa",
        "Termo de revisão nº",
        "Linha do tempo do processo",
    ]
    posicoes = [indice.index(peca) for peca in ordem]
    assert posicoes == sorted(posicoes), "the pieces in the procedure's order"
    assert all(f"fl. {n}" in pagina for n, pagina in enumerate(todas, 1))


def _confere_intimacao_do_termo(
    paginas_pdf: list[str], numero_termo: str, dia_termo: date, prazo_anulado: date
) -> None:
    """REGRAS § 5: the intimação is of the termo, names it and the auto as corrected, carries the corrected
    auto's copy, and states the new deadline only as "15 dias contados do recebimento"."""
    aviso = next(p for p in paginas_pdf if "INTIMAÇÃO DE TERMO DE RETIFICAÇÃO" in p)
    assert f"Termo de Retificação nº {numero_termo}, de {formatar_data(dia_termo)}" in aviso
    assert "o auto passa a ser por infração ao Art. 1º, V," in aviso
    assert "15 (quinze) dias contados do recebimento desta intimação" in aviso
    assert f"que venceria em {formatar_data(prazo_anulado)}) fica sem efeito" in aviso
    assert "defesa até" not in aviso  # no date computed from a planned delivery
    copia = [p for p in paginas_pdf if "CÓPIA DO AUTO RETIFICADO" in p]
    assert copia, "the corrected auto's copy goes with the notice"
    assert all("Art. 1º, V" in p and "Art. 1º, VI" not in p for p in copia)


def test_julgamento_provido_diz_que_nada_e_devido(banco: Banco, caso: Any) -> None:
    r = caso
    r.hoje = date(2026, 11, 30)
    auto_id = int(r.decidido(data_infracao=date(2026, 9, 1), multa="0.40").id)
    r.recorrer(auto_id, date(2026, 10, 5))
    r.julgar(auto_id, date(2026, 11, 20), "provido")
    _info, conteudo = _emitir(banco, "julgamento", auto_id)
    j = texto(conteudo)
    assert "RECURSO PROVIDO – PENALIDADE ANULADA" in j
    assert "nada é devido" in j
    assert "Pagamento da multa" not in j and "dívida ativa" not in j


def test_julgamento_negado_mantem_a_multa_da_decisao(banco: Banco, caso: Any) -> None:
    r = caso
    r.hoje = date(2026, 11, 30)
    auto_id = int(r.decidido(data_infracao=date(2026, 9, 1), multa="0.40").id)
    r.recorrer(auto_id, date(2026, 10, 5))
    r.julgar(auto_id, date(2026, 11, 20), "negado")
    _info, conteudo = _emitir(banco, "julgamento", auto_id)
    j = texto(conteudo)
    with banco.leitura() as s:
        decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto_id))
        assert decisao is not None
        reais = decisao.multa_reais
    assert "RECURSO NÃO PROVIDO – PENALIDADE MANTIDA" in j
    assert f"0,40 URM × {formatar_valor_urm(URM_2026)} = {formatar_reais(reais)}" in j
    assert "contados de 20/11/2026" in j


def test_sem_julgamento_nao_ha_notificacao(banco: Banco, caso: Any) -> None:
    r = caso
    r.hoje = date(2026, 11, 30)
    auto_id = int(r.decidido(data_infracao=date(2026, 9, 1), multa="0.40").id)
    with pytest.raises(ErroDominio, match="ainda não foi julgado"):
        _emitir(banco, "julgamento", auto_id)


def test_intimacao_do_auto_retificado_sem_copia_guardada_aponta_a_do_termo(banco: Banco, caso: Any) -> None:
    r = caso
    r.hoje = date(2026, 11, 5)
    auto_id = int(r.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 2)).id)
    retificar_auto(
        banco.uow(),
        ATORES["fiscal"],
        PedidoRetificacao(auto_id=auto_id, alteracoes={"dispositivo_codigo": "1-V"}, motivo=MOTIVO),
    )
    with pytest.raises(ErroDominio, match="a intimação a entregar é a do termo de retificação") as erro:
        _emitir(banco, "intimacao", auto_id)
    assert erro.value.campo == "tipo"


def test_lote_intima_cada_termo_de_substancia_pendente_como_a_tela_do_caso(banco: Banco, caso: Any) -> None:
    """Two corrections of substance before any delivery: the operator must be notified of each (a delivery
    records one termo; REGRAS § 5). The batch carries, for each termo still awaiting its intimação, the
    notice the case screen issues for it — the same words — and each delivery it covers can be recorded."""
    r = caso
    r.hoje = date(2026, 11, 2)
    auto_id = int(r.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 2)).id)
    r.hoje = date(2026, 11, 4)
    primeiro = retificar_auto(
        banco.uow(),
        ATORES["fiscal"],
        PedidoRetificacao(auto_id=auto_id, alteracoes={"dispositivo_codigo": "1-V"}, motivo=MOTIVO),
    )
    r.hoje = date(2026, 11, 5)
    segundo = retificar_auto(
        banco.uow(),
        ATORES["fiscal"],
        PedidoRetificacao(
            auto_id=auto_id,
            alteracoes={"descricao_fatos": "Veículo com bancos rasgados e sem limpeza."},
            motivo="Os fatos foram descritos de forma incompleta.",
        ),
    )
    assert primeiro.substancial and segundo.substancial
    entrega = date(2026, 11, 6)

    # What the case screen issues for each termo (the retificação dialog issues each; the Documentos tab
    # the latest): numbered, stored.
    tela: dict[str, list[str]] = {}
    for termo in (primeiro, segundo):
        info, conteudo = _emitir(
            banco, "intimacao_termo", auto_id, retificacao_id=termo.id, data_entrega=entrega
        )
        assert info.referencia == termo.numero_formatado
        tela[termo.numero_formatado] = paginas(conteudo)

    lote = emitir_documento(
        banco.uow(),
        ATORES["protocolo"],
        tipo="lote_intimacoes",
        periodo=(date(2026, 11, 1), date(2026, 11, 30)),
        data_entrega=entrega,
    )
    with banco.leitura() as s:
        bytes_lote = obter_documento(s, lote.id)
    _guardar_para_olhar("lote-dois-termos", lote.id, bytes_lote)
    do_lote = paginas(bytes_lote)
    avisos = [p for p in do_lote if "INTIMAÇÃO DE TERMO DE RETIFICAÇÃO" in p]
    # One notice per termo, oldest first, never the auto's own (superseded) intimação.
    assert len(avisos) == 2
    assert not any("INTIMAÇÃO Auto" in p or p.startswith("INTIMAÇÃO ") for p in do_lote)
    dias = (date(2026, 11, 4), date(2026, 11, 5))
    for aviso, termo, dia in zip(avisos, (primeiro, segundo), dias, strict=True):
        assert f"Termo de Retificação nº {termo.numero_formatado}, de {formatar_data(dia)}" in aviso
        pagina_tela = next(
            p for p in tela[termo.numero_formatado] if "INTIMAÇÃO DE TERMO DE RETIFICAÇÃO" in p
        )
        # The same notice, word for word, from its title to the receipt (the running header and page
        # number are the paper's own).
        inicio = "INTIMAÇÃO DE TERMO DE RETIFICAÇÃO"
        assert aviso[aviso.index(inicio) :] == pagina_tela[pagina_tela.index(inicio) :]
    assert "Dispositivo infringido Art. 1º, VI (tipo A) Art. 1º, V (tipo B)" in avisos[0]
    assert "Veículo com bancos rasgados e sem limpeza." in avisos[1]
    # Each notice goes with the corrected auto's copy; the delivery list names both termos.
    assert sum("CÓPIA DO AUTO RETIFICADO" in p for p in do_lote) >= 2
    relacao = next(p for p in do_lote if "RELAÇÃO DE ENTREGA DE INTIMAÇÕES" in p)
    assert f"TR {primeiro.numero_formatado}" in relacao and f"TR {segundo.numero_formatado}" in relacao
    assert "2 intimações" in relacao

    # Both deliveries can be recorded; the defence reopens with the last one (REGRAS § 5).
    r.hoje = entrega
    for termo in (primeiro, segundo):
        feita = registrar_intimacao(
            banco.uow(),
            ATORES["protocolo"],
            PedidoIntimacao(
                auto_id=auto_id,
                data=entrega,
                meio="pessoal",
                resultado="entregue",
                recebedor_nome="Carlos Representante",
                retificacao_id=termo.id,
            ),
        )
    assert feita.prazo is not None and feita.prazo > entrega
    # Delivered, the first termo's notice is no longer in a batch.
    with pytest.raises(ErroDominio, match="aguarda intimação"):
        emitir_documento(
            banco.uow(),
            ATORES["protocolo"],
            tipo="lote_intimacoes",
            periodo=(date(2026, 11, 1), date(2026, 11, 30)),
            data_entrega=entrega,
        )
