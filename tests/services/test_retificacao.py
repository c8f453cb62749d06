"""Termo de retificação (REGRAS § 5): an issued auto is corrected by a numbered termo, never overwritten; a
correction of substance (provision, facts, day) reopens the defence from the termo's intimação and the
sanction follows the corrected provision; a formal one reopens nothing; the operator cannot be changed."""

from __future__ import annotations

import io
import json
from datetime import date, time
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.models import Auditoria, AutoInfracao, DocumentoEmitido, Intimacao, Retificacao
from secretaria.services import auditoria
from secretaria.services.autos import DadosTestemunha, PedidoCancelamento, cancelar_auto
from secretaria.services.base import AcessoNegado, ErroDominio
from secretaria.services.caso import obter_caso
from secretaria.services.documentos import emitir_documento, obter_documento
from secretaria.services.retificacoes import PedidoRetificacao, retificar_auto
from secretaria.services.tramitacao import PedidoIntimacao, registrar_defesa, registrar_intimacao
from tests.helpers.cenario_documentos import preencher_orgao
from tests.helpers.fabrica import ATORES, contagens, ultima_auditoria

MOTIVO = "Erro de digitação no auto, verificado pelo fiscal autuante."


def _retificar(banco: Banco, auto_id: int, ator: str = "fiscal", **alteracoes: Any) -> Any:
    return retificar_auto(
        banco.uow(), ATORES[ator], PedidoRetificacao(auto_id=auto_id, alteracoes=alteracoes, motivo=MOTIVO)
    )


@pytest.fixture(autouse=True)
def _orgao(banco: Banco) -> None:
    """The letterhead and office hours the papers of a correction of substance need (checked before the
    termo is drawn up: REGRAS § 5)."""
    preencher_orgao(banco)


def _emitir_intimacao_do_termo(banco: Banco, termo_id: int) -> Any:
    return emitir_documento(banco.uow(), ATORES["protocolo"], tipo="intimacao_termo", retificacao_id=termo_id)


def _intimar_termo(banco: Banco, auto_id: int, termo_id: int, dia: date) -> Any:
    """The termo delivered; a termo of substance's intimação (with the corrected copy) is issued first."""
    with banco.leitura() as s:
        termo = s.get(Retificacao, termo_id)
        substancial = termo is not None and termo.substancial
        ja_emitida = s.scalar(
            sa.select(sa.func.count(DocumentoEmitido.id)).where(
                DocumentoEmitido.tipo == "intimacao_termo", DocumentoEmitido.auto_id == auto_id
            )
        )
    if substancial and not ja_emitida:
        _emitir_intimacao_do_termo(banco, termo_id)
    return registrar_intimacao(
        banco.uow(),
        ATORES["protocolo"],
        PedidoIntimacao(
            auto_id=auto_id,
            data=dia,
            meio="pessoal",
            resultado="entregue",
            recebedor_nome="Carlos Representante",
            retificacao_id=termo_id,
        ),
    )


def _texto_pdf(conteudo: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(conteudo)).pages)


def _auto_intimado(roteiro: Any) -> int:
    """1-VI (tipo A), fact and auto of Mon 02/11/2026, intimated Tue 03/11: defence until Wed 18/11."""
    r = roteiro.lavrar(
        dispositivo="1-VI", data_infracao=date(2026, 11, 2), testemunhas=(DadosTestemunha("Jose da Silav"),)
    )
    roteiro.intimar(r.id, date(2026, 11, 3))
    return int(r.id)


def test_retificacao_formal_numera_o_termo_audita_e_nao_reabre_o_prazo(banco: Banco, roteiro: Any) -> None:
    auto_id = _auto_intimado(roteiro)
    resumo = _retificar(
        banco,
        auto_id,
        infrator_nome="Viação Princesa do Sul Ltda. (motorista João)",
        testemunhas=[DadosTestemunha("José da Silva", "RG 1234567")],
        local="Praça Coronel Pedro Osório, esquina Rua XV",
    )
    assert resumo.numero_formatado == "0001/2026"
    assert resumo.substancial is False
    assert "não é reaberto" in resumo.explicacao
    assert [(i.rotulo, i.de, i.para) for i in resumo.itens] == [
        ("Nome do infrator", "Viação Princesa do Sul Ltda.", "Viação Princesa do Sul Ltda. (motorista João)"),
        ("Local da infração", "Praça Coronel Pedro Osório", "Praça Coronel Pedro Osório, esquina Rua XV"),
        ("Testemunhas", "Jose da Silav", "José da Silva (RG 1234567)"),
    ]
    # The audit: the auto before → after, and the termo with its full image.
    ultima = ultima_auditoria(banco)
    assert ultima is not None and ultima["acao"] == "retificar_auto" and ultima["entidade"] == "auto_infracao"
    assert json.loads(ultima["antes"])["testemunhas"] == [
        {"nome": "Jose da Silav", "documento": "", "endereco": ""}
    ]
    assert json.loads(ultima["depois"])["testemunhas"] == [
        {"nome": "José da Silva", "documento": "RG 1234567", "endereco": ""}
    ]
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, auto_id)
        assert auto is not None
        assert (auto.fase, auto.prazo_defesa) == ("intimado", date(2026, 11, 18))
        assert auto.infrator_nome.endswith("(motorista João)")
        termo = s.get(Retificacao, resumo.id)
        assert termo is not None and termo.lavrado_por == "fiscal" and termo.motivo == MOTIVO
        imagem_termo = s.scalar(
            sa.select(Auditoria.depois).where(
                Auditoria.entidade == "retificacao",
                Auditoria.entidade_id == str(termo.id),
            )
        )
        assert json.loads(imagem_termo or "{}") == auditoria.instantaneo(termo)
        caso = obter_caso(s, auto_id)
    assert caso.prazo_defesa == date(2026, 11, 18)
    assert "retificar_auto" in caso.proximos_atos
    assert "registrar_intimacao_retificacao" in caso.proximos_atos  # notified like the auto
    evento = next(e for e in caso.linha_do_tempo if e.ato == "retificacao")
    assert evento.titulo == "Termo de retificação nº 0001/2026 (formal)"
    assert "“Jose da Silav” → “José da Silva (RG 1234567)”" in evento.descricao
    # The termo's delivery moves no deadline; a second termo takes the next number.
    entrega = _intimar_termo(banco, auto_id, resumo.id, date(2026, 11, 30))
    assert entrega.prazo is None and "não reabre" in (entrega.explicacao_prazo or "")
    segundo = _retificar(banco, auto_id, local_lavratura="Terminal Central, guichê 2")
    assert segundo.numero_formatado == "0002/2026"
    with banco.leitura() as s:
        assert s.get(AutoInfracao, auto_id).prazo_defesa == date(2026, 11, 18)  # type: ignore[union-attr]


def test_retificacao_de_substancia_reabre_a_defesa_e_a_faixa_segue_o_dispositivo_corrigido(
    banco: Banco, roteiro: Any
) -> None:
    auto_id = _auto_intimado(roteiro)
    roteiro.hoje = date(2026, 11, 10)
    registrar_defesa(banco.uow(), ATORES["protocolo"], auto_id=auto_id, protocolada_em=date(2026, 11, 10))
    roteiro.hoje = date(2026, 11, 20)
    roteiro.propor(auto_id, date(2026, 11, 20), "0.30")  # tipo A: 0,10 a 0,50
    roteiro.hoje = date(2026, 11, 30)
    # 1-VI (tipo A) → 1-V (tipo B: 0,50 a 1,00 URM on a first penalty).
    resumo = _retificar(banco, auto_id, dispositivo_codigo="1-V")
    assert resumo.substancial is True
    assert resumo.prazo_defesa_anterior == date(2026, 11, 18)
    assert resumo.itens[0].de == "Art. 1º, VI (tipo A)" and resumo.itens[0].para == "Art. 1º, V (tipo B)"
    assert "Reabre o prazo de defesa" in resumo.explicacao
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, auto_id)
        assert auto is not None
        assert (auto.dispositivo_codigo, auto.tipo, auto.fase, auto.prazo_defesa) == (
            "1-V",
            "B",
            "lavrado",
            None,
        )
        assert "Art. 1º, V" in auto.proxima_penalidade and "0,50" in auto.proxima_penalidade
        termo = s.get(Retificacao, resumo.id)
        assert termo is not None and termo.proxima_penalidade == auto.proxima_penalidade
        caso = obter_caso(s, auto_id)
    assert caso.fase_rotulo == "Aguardando intimação do termo"
    assert "registrar_intimacao_retificacao" in caso.proximos_atos
    assert "registrar_intimacao_auto" not in caso.proximos_atos
    assert caso.prazos == ()  # the deadline of 18/11 is set aside until the termo is delivered

    # The auto's own intimação and the decision wait for the termo's intimação.
    with pytest.raises(ErroDominio, match="registre a intimação do termo"):
        roteiro.intimar(auto_id, date(2026, 11, 30))
    with pytest.raises(ErroDominio, match="ainda não intimado"):
        roteiro.decidir(auto_id, date(2026, 11, 30), "0.80", propor=False)

    # Delivered Mon 30/11/2026: 15 days → Tue 15/12/2026 (§ 4), counted from the termo.
    entrega = _intimar_termo(banco, auto_id, resumo.id, date(2026, 11, 30))
    assert entrega.prazo == date(2026, 12, 15)
    assert (entrega.explicacao_prazo or "").startswith("Prazo de defesa reaberto (art. 14)")
    with banco.leitura() as s:
        caso = obter_caso(s, auto_id, date(2026, 12, 1))
    assert caso.prazo_defesa == date(2026, 12, 15)
    assert [(p.nome, p.estado) for p in caso.prazos] == [
        ("Defesa (art. 14)", "aberto")
    ]  # 10/11 answered 1-VI
    lavratura = next(e for e in caso.linha_do_tempo if e.ato == "lavratura")
    assert "Art. 1º, VI, tipo A" in lavratura.descricao  # the auto as drawn up
    titulos = [e.titulo for e in caso.linha_do_tempo]
    assert titulos.index("Termo de retificação nº 0001/2026 (de substância)") < titulos.index(
        "Intimação do termo de retificação nº 0001/2026"
    )

    # The defence of 10/11 answered the auto as it read: no penalty before the new deadline ends.
    roteiro.hoje = date(2026, 12, 1)
    with pytest.raises(ErroDominio, match="vai até 15/12/2026"):
        roteiro.propor(auto_id, date(2026, 12, 1), "0.80")
    roteiro.hoje = date(2026, 12, 16)
    # The proposal of 20/11 was on the old provision: it no longer supports a decision.
    with pytest.raises(ErroDominio, match="Não há proposta"):
        roteiro.decidir(auto_id, date(2026, 12, 16), "0.80", propor=False)
    # The range follows the corrected provision: 0,30 fits tipo A, not tipo B.
    with pytest.raises(ErroDominio) as recusa:
        roteiro.propor(auto_id, date(2026, 12, 16), "0.30")
    assert recusa.value.campo == "multa_ur"
    roteiro.propor(auto_id, date(2026, 12, 16), "0.80")
    decisao = roteiro.decidir(auto_id, date(2026, 12, 16), "0.80", propor=False)
    assert (decisao.faixa_min_ur, decisao.faixa_max_ur) == (Decimal("0.50"), Decimal("1.00"))


def test_retificar_a_data_da_infracao_e_de_substancia(banco: Banco, roteiro: Any) -> None:
    auto_id = _auto_intimado(roteiro)
    resumo = _retificar(banco, auto_id, data_infracao=date(2026, 11, 1), hora_infracao=time(22, 15))
    assert resumo.substancial is True
    assert [(i.rotulo, i.de, i.para) for i in resumo.itens] == [
        ("Data da infração", "02/11/2026", "01/11/2026"),
        ("Hora da infração", "08:30", "22:15"),
    ]


@pytest.mark.parametrize(
    ("alteracoes", "campo", "trecho"),
    [
        ({"operadora_id": 2}, "operadora_id", "cancele este auto e lavre um novo"),
        ({"veiculo_id": 1}, "veiculo_id", "Não se retifica o veículo"),
        ({"data_infracao": date(2026, 11, 3)}, "data_infracao", "posterior à da lavratura"),
        ({"descricao_fatos": "   "}, "descricao_fatos", "Informe a descrição dos fatos"),
        ({"dispositivo_codigo": "1-X"}, "dispositivo_codigo", "ainda não tem tipo"),
        ({"dispositivo_codigo": "9-XX"}, "dispositivo_codigo", "não existe no catálogo"),
        ({"hora_infracao": time(9, 30)}, "hora_infracao", "posterior à da lavratura"),
        ({"testemunhas": [DadosTestemunha("")]}, "testemunhas", "Informe o nome da 1ª testemunha"),
        ({"local": "Praça Coronel Pedro Osório"}, "auto_id", "não há o que retificar"),
    ],
)
def test_valores_invalidos_sao_recusados_sem_gravar_nada(
    banco: Banco, roteiro: Any, alteracoes: dict[str, Any], campo: str, trecho: str
) -> None:
    auto_id = _auto_intimado(roteiro)
    antes = contagens(banco)
    with pytest.raises(ErroDominio, match=trecho) as recusa:
        retificar_auto(
            banco.uow(),
            ATORES["fiscal"],
            PedidoRetificacao(auto_id=auto_id, alteracoes=alteracoes, motivo=MOTIVO),
        )
    assert recusa.value.campo == campo
    assert contagens(banco) == antes


def test_recusas_de_papel_cancelado_decidido_e_motivo(banco: Banco, roteiro: Any) -> None:
    auto_id = _auto_intimado(roteiro)
    antes = contagens(banco)
    with pytest.raises(AcessoNegado, match="Fiscal"):
        _retificar(banco, auto_id, "protocolo", local="Outro local")
    with pytest.raises(ErroDominio, match="Informe o motivo"):
        retificar_auto(
            banco.uow(),
            ATORES["fiscal"],
            PedidoRetificacao(auto_id=auto_id, alteracoes={"local": "Outro local"}, motivo=" "),
        )
    decidido = roteiro.decidido(data_infracao=date(2026, 10, 1), multa="0.30")
    with pytest.raises(ErroDominio, match="exigiria nova defesa e nova decisão"):
        _retificar(banco, decidido.id, local="Outro local")
    cancelar_auto(
        banco.uow(),
        ATORES["autoridade"],
        PedidoCancelamento(auto_id=auto_id, motivo="Lavrado em duplicidade."),
    )
    depois_do_cancelamento = contagens(banco)
    with pytest.raises(ErroDominio, match="foi cancelado em 30/11/2026: não é possível retificá-lo"):
        _retificar(banco, auto_id, local="Outro local")
    assert contagens(banco) == depois_do_cancelamento
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(Retificacao.id))) == 0
    assert antes["retificacao"] == 0


def test_termo_em_pdf_e_o_auto_ja_emitido_fica_como_estava(banco: Banco, roteiro: Any) -> None:
    auto_id = _auto_intimado(roteiro)
    original = emitir_documento(banco.uow(), ATORES["fiscal"], tipo="auto", auto_id=auto_id)
    formal = _retificar(banco, auto_id, infrator_nome="Viação Princesa do Sul Ltda")
    substancia = _retificar(banco, auto_id, dispositivo_codigo="1-V", descricao_fatos="Motorista sem crachá.")

    doc = emitir_documento(banco.uow(), ATORES["fiscal"], tipo="retificacao", retificacao_id=substancia.id)
    assert doc.descricao == "Termo de retificação nº 0002/2026"
    assert doc.nome_arquivo == "termo-de-retificacao-0002-2026.pdf"
    with banco.leitura() as s:
        texto = _texto_pdf(obter_documento(s, doc.id))
    for trecho in (
        "TERMO DE RETIFICAÇÃO Nº 0002/2026",
        "Auto de Infração nº 0001/2026",
        "Onde se lia",
        "Leia-se",
        "Art. 1º, VI (tipo A)",
        "Art. 1º, V (tipo B)",
        "Motorista sem crachá.",
        MOTIVO,
        "15 (quinze) dias contados do recebimento desta intimação",
        "Retificação de substância",
        "Fábio Fiscal",
        "Recebi este Termo de Retificação nº 0002/2026",
        "das 8h às 14h",
    ):
        assert trecho in " ".join(texto.split()), trecho
    assert "Próxima penalidade" in texto and "0,50" in texto

    doc_formal = emitir_documento(
        banco.uow(), ATORES["consulta"], tipo="retificacao", retificacao_id=formal.id
    )
    with banco.leitura() as s:
        texto_formal = " ".join(_texto_pdf(obter_documento(s, doc_formal.id)).split())
    assert "Retificação formal (nome do infrator)" in texto_formal
    assert "contados do recebimento" not in texto_formal
    assert "Art. 1º, VI" not in texto_formal  # printed as this termo left the auto, before the second

    # Issued again: the same bytes, nothing new stored; the auto's PDF is the copy issued before.
    assert (
        emitir_documento(banco.uow(), ATORES["fiscal"], tipo="retificacao", retificacao_id=substancia.id).novo
        is False
    )
    de_novo = emitir_documento(banco.uow(), ATORES["fiscal"], tipo="auto", auto_id=auto_id)
    assert (de_novo.id, de_novo.novo) == (original.id, False)
    with banco.leitura() as s:
        assert "Art. 1º, VI" in _texto_pdf(obter_documento(s, original.id))
        documentos = obter_caso(s, auto_id).documentos
    assert [d.tipo for d in documentos] == ["auto", "retificacao", "retificacao"]


def test_intimacao_do_termo_refere_o_termo_e_so_uma_vez_abre_o_prazo(banco: Banco, roteiro: Any) -> None:
    auto_id = _auto_intimado(roteiro)
    primeiro = _retificar(banco, auto_id, descricao_fatos="Veículo sujo, com lixo no corredor.")
    _emitir_intimacao_do_termo(banco, primeiro.id)
    segundo = _retificar(banco, auto_id, circunstancias="Constatado às 8h30 no terminal.")
    _emitir_intimacao_do_termo(banco, segundo.id)
    # The first termo delivered alone: the second still awaits, so the deadline does not start yet.
    entrega = _intimar_termo(banco, auto_id, primeiro.id, date(2026, 11, 30))
    assert entrega.prazo is None and "0002/2026" in (entrega.explicacao_prazo or "")
    entrega = _intimar_termo(banco, auto_id, segundo.id, date(2026, 11, 30))
    assert entrega.prazo == date(2026, 12, 15)
    with banco.leitura() as s:
        ligadas = s.scalars(
            sa.select(Intimacao.retificacao_id).where(Intimacao.auto_id == auto_id).order_by(Intimacao.id)
        ).all()
    assert ligadas == [None, primeiro.id, segundo.id]
    with pytest.raises(ErroDominio, match="Termo de retificação não encontrado"):
        _intimar_termo(banco, roteiro.lavrar().id, segundo.id, date(2026, 11, 30))


def test_termo_de_substancia_confere_os_papeis_antes_de_numerar(banco: Banco, roteiro: Any) -> None:
    """REGRAS § 5 (and DESENVOLVIMENTO's `conferir_*`): what the termo's papers need (the office hours
    where the reopened defence is received) is checked before the confirmation; nothing is written on
    refusal, so a termo is never recorded without its PDF."""
    from dataclasses import replace

    from secretaria.services import orgao
    from secretaria.services.retificacoes import PedidoRetificacao, conferir_retificacao

    auto_id = _auto_intimado(roteiro)
    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
    orgao.salvar_dados_orgao(
        banco.uow(), ATORES["administrador"], replace(atual.dados, horario_expediente=""), versao=atual.versao
    )
    antes = contagens(banco)
    with banco.leitura() as s, pytest.raises(ErroDominio, match="horário de expediente") as erro:
        conferir_retificacao(
            s,
            ATORES["fiscal"],
            PedidoRetificacao(auto_id=auto_id, alteracoes={"dispositivo_codigo": "1-V"}, motivo=MOTIVO),
        )
    assert erro.value.campo == "dados_orgao"
    with pytest.raises(ErroDominio, match="horário de expediente"):
        _retificar(banco, auto_id, dispositivo_codigo="1-V")
    assert contagens(banco) == antes
    # A formal termo states no office hours: it is drawn up (and its PDF issued) all the same.
    formal = _retificar(banco, auto_id, infrator_nome="Viação Princesa do Sul Ltda")
    assert emitir_documento(banco.uow(), ATORES["fiscal"], tipo="retificacao", retificacao_id=formal.id).novo


def test_entrega_com_a_copia_do_auto_retificado_exige_a_intimacao_emitida(banco: Banco, roteiro: Any) -> None:
    auto_id = _auto_intimado(roteiro)
    termo = _retificar(banco, auto_id, dispositivo_codigo="1-V")
    antes = contagens(banco)
    with pytest.raises(ErroDominio, match="ainda não foi emitida") as erro:
        registrar_intimacao(
            banco.uow(),
            ATORES["protocolo"],
            PedidoIntimacao(
                auto_id=auto_id,
                data=date(2026, 11, 30),
                meio="pessoal",
                resultado="entregue",
                recebedor_nome="Carlos Representante",
                retificacao_id=termo.id,
            ),
        )
    assert erro.value.campo == "retificacao_id"
    assert contagens(banco) == antes
    _emitir_intimacao_do_termo(banco, termo.id)
    assert _intimar_termo(banco, auto_id, termo.id, date(2026, 11, 30)).prazo is not None
