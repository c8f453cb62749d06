"""Drawing up the auto, its evidence files, cancelling it, the representação, and the case read model."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, time, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import models
from secretaria.db import Banco
from secretaria.models import Anexo, AutoInfracao, Representacao, VeiculoHistorico
from secretaria.services.autos import (
    LIMITE_ANEXO_BYTES,
    DadosTestemunha,
    PedidoCancelamento,
    abrir_anexo,
    anexar_evidencia,
    cancelar_auto,
    lavrar_auto,
    obter_caso,
)
from secretaria.services.base import ConflitoEdicao, ErroDominio
from secretaria.services.representacoes import (
    anexar_prova_representacao,
    arquivar_representacao,
    dados_auto_de_representacao,
    obter_representacao,
    receber_representacao,
)
from secretaria.services.tramitacao import registrar_defesa
from tests.helpers import arquivos_prova
from tests.helpers.fabrica import ATORES, Roteiro, ultima_auditoria

PNG = arquivos_prova.png()
PDF = arquivos_prova.pdf()


def test_lavrar_numera_guarda_a_proxima_penalidade_e_audita(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar(
        data_infracao=date(2026, 3, 9),
        data_lavratura=date(2026, 3, 10),
        veiculo_id=roteiro.cidade.veiculo_id,
        linha_id=roteiro.cidade.linha_id,
        empregado_id=roteiro.cidade.empregado_id,
        testemunhas=(DadosTestemunha("Rita Passageira", "RG 123"), DadosTestemunha("Otto Comerciante")),
        recusou_assinar=True,
    )
    assert r.numero_formatado == "0001/2026"
    assert r.proxima_penalidade.startswith("Multa de 0,10 a 0,50 URM (infração primária)")
    assert roteiro.lavrar(data_infracao=date(2025, 12, 30)).numero_formatado == "0001/2025"
    assert roteiro.lavrar(data_infracao=date(2026, 3, 11)).numero_formatado == "0002/2026"
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, r.id)
        assert auto is not None
        assert (auto.fase, auto.tipo, auto.infrator_nome) == ("lavrado", "A", "Viação Princesa do Sul Ltda.")
        assert auto.recusou_assinar and auto.lavrado_por == "fiscal" and auto.alterado_por == "fiscal"
        nomes = s.scalars(
            sa.select(models.Testemunha.nome)
            .where(models.Testemunha.auto_id == r.id)
            .order_by(models.Testemunha.id)
        ).all()
        assert nomes == ["Rita Passageira", "Otto Comerciante"]
    with banco.leitura() as s:
        from secretaria.models import Auditoria

        reg = s.scalar(sa.select(Auditoria).where(Auditoria.acao == "lavrar_auto").order_by(Auditoria.id))
        assert reg is not None and reg.usuario_login == "fiscal" and reg.antes is None
        depois = json.loads(reg.depois or "{}")
        assert depois["numero"] == 1
        assert [t["nome"] for t in depois["testemunhas"]] == ["Rita Passageira", "Otto Comerciante"]
        assert depois["testemunhas"][0]["documento"] == "RG 123"  # each witness whole


def test_veiculo_de_outra_operadora_so_vale_pelo_historico(banco: Banco, roteiro: Roteiro) -> None:
    c = roteiro.cidade
    with pytest.raises(ErroDominio, match="não pertencia à operadora") as erro:
        roteiro.lavrar(veiculo_id=c.veiculo2_id, data_infracao=date(2026, 3, 10))
    assert erro.value.campo == "veiculo_id"
    with banco.uow() as uow:  # bus 201 served the first operator in March 2026, then moved
        uow.session.add(
            VeiculoHistorico(
                veiculo_id=c.veiculo2_id,
                operadora_id=c.operadora_id,
                inicio=date(2026, 3, 1),
                fim=date(2026, 3, 31),
            )
        )
        uow.commit()
    assert roteiro.lavrar(veiculo_id=c.veiculo2_id, data_infracao=date(2026, 3, 10)).numero == 1
    with pytest.raises(ErroDominio, match="não é operada por"):
        roteiro.lavrar(linha_id=c.linha2_id, data_infracao=date(2026, 3, 10))
    with pytest.raises(ErroDominio, match="não é empregado"):
        roteiro.lavrar(empregado_id=c.empregado2_id, data_infracao=date(2026, 3, 10))


def test_hora_da_infracao_depois_da_lavratura_no_mesmo_dia(roteiro: Roteiro) -> None:
    with pytest.raises(ErroDominio, match="hora da infração") as erro:
        roteiro.lavrar(data_infracao=date(2026, 3, 10), hora_infracao=time(11, 0), hora_lavratura=time(10, 0))
    assert erro.value.campo == "hora_infracao"


def test_representacao_vira_auto_preenchido(banco: Banco, roteiro: Roteiro) -> None:
    fiscal = ATORES["fiscal"]
    rep = receber_representacao(
        roteiro.uow(),
        fiscal,
        recebida_em=date(2026, 3, 12),
        peticionario_nome="Beatriz Usuária",
        peticionario_profissao="Professora",
        peticionario_endereco="Rua Félix da Cunha, 500",
        fatos="O ônibus 101 passou sem parar no ponto da escola.",
        meios_prova="Vídeo gravado pelo celular.",
        operadora_id=roteiro.cidade.operadora_id,
        dispositivo_codigo="1-vi",
        data_fato=date(2026, 3, 11),
        local_fato="Avenida Bento Gonçalves",
    )
    assert rep.numero_formatado == "0001/2026"
    anexar_prova_representacao(
        roteiro.uow(), fiscal, representacao_id=rep.id, nome_arquivo="video.png", conteudo=PNG
    )
    with banco.leitura() as s:
        pre = dados_auto_de_representacao(s, rep.id)
    assert (pre.operadora_id, pre.dispositivo_codigo, pre.data_infracao) == (
        roteiro.cidade.operadora_id,
        "1-VI",
        date(2026, 3, 11),
    )
    assert "Beatriz Usuária" in pre.circunstancias and "art. 10" in pre.nota
    auto = roteiro.lavrar(
        data_infracao=pre.data_infracao,
        data_lavratura=date(2026, 3, 13),
        descricao_fatos=pre.descricao_fatos,
        circunstancias=pre.circunstancias,
        representacao_id=rep.id,
    )
    with banco.leitura() as s:
        assert s.get(Representacao, rep.id).situacao == "autuada"  # type: ignore[union-attr]
        assert obter_caso(s, auto.id).representacao_numero == "0001/2026"
        with pytest.raises(ErroDominio, match="já foi autuada"):
            dados_auto_de_representacao(s, rep.id)
    with pytest.raises(ErroDominio, match="já foi autuada"):
        roteiro.lavrar(data_infracao=date(2026, 3, 11), representacao_id=rep.id)


def test_representacao_arquivada_com_motivo(banco: Banco, roteiro: Roteiro) -> None:
    rep = receber_representacao(
        roteiro.uow(),
        ATORES["fiscal"],
        recebida_em=date(2026, 3, 12),
        peticionario_nome="Beatriz Usuária",
        peticionario_profissao="Professora",
        peticionario_endereco="Rua Félix da Cunha, 500",
        fatos="Ônibus atrasado.",
        meios_prova="Relato pessoal.",
    )
    with pytest.raises(ErroDominio, match="motivo do arquivamento"):
        arquivar_representacao(roteiro.uow(), ATORES["autoridade"], representacao_id=rep.id, motivo="  ")
    arquivar_representacao(
        roteiro.uow(),
        ATORES["autoridade"],
        representacao_id=rep.id,
        motivo="Fato não previsto na lei.",
        versao=1,
    )
    with banco.leitura() as s:
        r = s.get(Representacao, rep.id)
        assert r is not None and (r.situacao, r.motivo_arquivamento) == (
            "arquivada",
            "Fato não previsto na lei.",
        )
    with pytest.raises(ErroDominio, match="já foi arquivada"):
        roteiro.lavrar(representacao_id=rep.id)


def test_evidencias_com_sha256_tipo_pelo_conteudo_e_limite(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar()
    fiscal = ATORES["fiscal"]
    anexo = anexar_evidencia(
        roteiro.uow(), fiscal, auto_id=r.id, nome_arquivo="C:\\fotos\\onibus.png", conteudo=PNG
    )
    assert (anexo.nome_arquivo, anexo.tipo_mime, anexo.tamanho) == ("onibus.png", "image/png", len(PNG))
    assert len(anexo.sha256) == 64
    pdf = anexar_evidencia(roteiro.uow(), fiscal, auto_id=r.id, nome_arquivo="laudo", conteudo=PDF)
    assert pdf.tipo_mime == "application/pdf"  # by content, not by name
    with pytest.raises(ErroDominio, match=r"é um PDF, mas o nome termina em \.jpg"):
        anexar_evidencia(roteiro.uow(), fiscal, auto_id=r.id, nome_arquivo="laudo.jpg", conteudo=PDF)
    with pytest.raises(ErroDominio, match="não é PDF, JPEG nem PNG"):
        anexar_evidencia(
            roteiro.uow(), fiscal, auto_id=r.id, nome_arquivo="foto.png", conteudo=b"MZ\x90\x00virus"
        )
    with pytest.raises(ErroDominio, match="limite é 20 MB"):
        anexar_evidencia(
            roteiro.uow(),
            fiscal,
            auto_id=r.id,
            nome_arquivo="g.png",
            conteudo=PNG + b"0" * LIMITE_ANEXO_BYTES,
        )
    with pytest.raises(ErroDominio, match="vazio"):
        anexar_evidencia(roteiro.uow(), fiscal, auto_id=r.id, nome_arquivo="g.png", conteudo=b"")
    with banco.leitura() as s:
        arquivo = abrir_anexo(s, anexo.id)
        assert arquivo.integro and arquivo.conteudo == PNG
        assert [a.nome_arquivo for a in obter_caso(s, r.id).anexos] == ["onibus.png", "laudo"]
    with banco.engine.begin() as conn:  # altered behind the program's back
        conn.execute(sa.update(Anexo).where(Anexo.id == anexo.id).values(conteudo=PNG + b"!"))
    with banco.leitura() as s:
        assert not abrir_anexo(s, anexo.id).integro


def test_cancelar_com_motivo_nunca_apaga(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar()
    with pytest.raises(ErroDominio, match="motivo do cancelamento"):
        cancelar_auto(roteiro.uow(), ATORES["secretario"], PedidoCancelamento(auto_id=r.id, motivo=""))
    cancelar_auto(
        roteiro.uow(),
        ATORES["secretario"],
        PedidoCancelamento(auto_id=r.id, motivo="Operadora errada.", versao=r.versao),
    )
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    assert (caso.fase, caso.motivo_cancelamento, caso.cancelado_por) == (
        "cancelado",
        "Operadora errada.",
        "secretario",
    )
    assert caso.proximos_atos == ()
    assert caso.linha_do_tempo[-1].titulo == "Auto cancelado"
    auditoria = ultima_auditoria(banco)
    assert auditoria is not None and auditoria["acao"] == "cancelar_auto"
    assert json.loads(auditoria["antes"])["fase"] == "lavrado"
    assert json.loads(auditoria["depois"])["fase"] == "cancelado"


def test_cancelamento_com_copia_desatualizada_e_recusado(roteiro: Roteiro) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 20))
    roteiro.intimar(r.id, date(2026, 11, 23))  # someone else changed it meanwhile
    with pytest.raises(ConflitoEdicao, match=r"alterado por protocolo em .* depois que você o abriu"):
        cancelar_auto(
            roteiro.uow(),
            ATORES["autoridade"],
            PedidoCancelamento(auto_id=r.id, motivo="Erro.", versao=r.versao),
        )


def test_caso_decidido_nao_se_cancela(roteiro: Roteiro) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 3, 2), multa="0.20")
    with pytest.raises(ErroDominio, match=r"já foi decidido em .* não pode mais ser cancelado"):
        cancelar_auto(
            roteiro.uow(), ATORES["secretario"], PedidoCancelamento(auto_id=r.id, motivo="Arrependimento.")
        )


def test_caso_mostra_prazos_e_proximos_atos(banco: Banco, roteiro: Roteiro) -> None:
    roteiro.hoje = date(2026, 11, 30)
    r = roteiro.lavrar(data_infracao=date(2026, 11, 19))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    assert caso.proximos_atos[0] == "registrar_intimacao_auto"
    assert caso.atos_permitidos(ATORES["protocolo"]) == ("registrar_intimacao_auto", "anexar_evidencia")
    assert caso.atos_permitidos(ATORES["consulta"]) == ()
    roteiro.intimar(r.id, date(2026, 11, 20), resultado="recusada")
    roteiro.intimar(r.id, date(2026, 11, 20))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    assert caso.fase == "intimado" and caso.prazo_defesa == date(2026, 12, 7)
    assert [(p.estado, p.texto) for p in caso.prazos] == [("aberto", "vence em 07/12/2026")]
    assert "registrar_defesa" in caso.proximos_atos and "decidir" in caso.proximos_atos
    titulos = [e.titulo for e in caso.linha_do_tempo]
    assert titulos == [
        "Infração",
        "Auto de infração nº 0001/2026",
        "Intimação do auto (sem êxito)",
        "Intimação do auto",
    ]
    with banco.leitura() as s:
        assert obter_caso(s, r.id, hoje=date(2026, 12, 8)).prazos[0].texto == "vencido em 07/12/2026"
    roteiro.hoje = date(2026, 12, 8)
    registrar_defesa(roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 12, 8))
    with banco.leitura() as s:
        prazo = obter_caso(s, r.id).prazos[0]
    assert (prazo.estado, prazo.texto) == (
        "cumprido",
        "cumprido: defesa protocolada em 08/12/2026 (intempestiva)",
    )


def test_dados_do_auto_sao_conferidos_antes_de_qualquer_gravacao(roteiro: Roteiro) -> None:
    dados = roteiro.novo_auto(data_infracao=date(2026, 3, 10))
    invalidos: list[tuple[str, Any, str]] = [
        ("local", "  ", "local da infração"),
        ("descricao_fatos", "", "descrição dos fatos"),
        ("local_lavratura", "\x00\x01", "local da lavratura"),
        ("testemunhas", (DadosTestemunha(""),), "1ª testemunha"),
        ("fiscal_id", 999, r"Fiscal não encontrado \(nº 999\)"),
        ("operadora_id", 2**40, "Operadora não encontrada"),
        ("data_infracao", date(1900, 1, 1), "anterior à Lei nº 2.413"),
    ]
    for campo, valor, trecho in invalidos:
        with pytest.raises(ErroDominio, match=trecho):
            lavrar_auto(roteiro.uow(), ATORES["fiscal"], replace(dados, **{campo: valor}))
    assert (
        roteiro.lavrar(data_infracao=date(2026, 3, 10) + timedelta(days=1)).numero == 1
    )  # no number was taken


def test_auto_da_representacao_leva_as_provas_com_o_sha(banco: Banco, roteiro: Roteiro) -> None:
    """The representação's evidence files become the auto's (same bytes and SHA-256), each with an audit row
    naming the representação; one altered since it was attached is left out and named; the audit still
    verifies the records."""
    import hashlib

    from secretaria.services.anexos import abrir_anexo_conferido
    from secretaria.services.verificacao import verificar_tudo

    fiscal = ATORES["fiscal"]
    rep = receber_representacao(
        roteiro.uow(),
        fiscal,
        recebida_em=date(2026, 3, 12),
        peticionario_nome="Beatriz Usuária",
        peticionario_profissao="Professora",
        peticionario_endereco="Rua Félix da Cunha, 500",
        fatos="O ônibus 101 passou sem parar no ponto da escola.",
        meios_prova="Fotos e declaração.",
        operadora_id=roteiro.cidade.operadora_id,
        dispositivo_codigo="1-vi",
        data_fato=date(2026, 3, 11),
        local_fato="Avenida Bento Gonçalves",
    )
    foto, declaracao, forjada = arquivos_prova.png(b"ponto"), arquivos_prova.pdf(b"declara"), PNG
    a1 = anexar_prova_representacao(
        roteiro.uow(), fiscal, representacao_id=rep.id, nome_arquivo="ponto.png", conteudo=foto
    )
    a2 = anexar_prova_representacao(
        roteiro.uow(), fiscal, representacao_id=rep.id, nome_arquivo="declaração.pdf", conteudo=declaracao
    )
    a3 = anexar_prova_representacao(
        roteiro.uow(), fiscal, representacao_id=rep.id, nome_arquivo="trocada.png", conteudo=forjada
    )
    with banco.engine.begin() as conn:
        conn.execute(sa.update(Anexo).where(Anexo.id == a3.id).values(conteudo=arquivos_prova.png(b"outra")))
    auto = roteiro.lavrar(
        data_infracao=date(2026, 3, 11), data_lavratura=date(2026, 3, 13), representacao_id=rep.id
    )
    assert auto.provas_juntadas == ("ponto.png", "declaração.pdf")
    assert len(auto.provas_nao_juntadas) == 1 and auto.provas_nao_juntadas[0].startswith("trocada.png: ")
    with banco.leitura() as s:
        caso = obter_caso(s, auto.id)
        assert [(a.id, a.sha256) for a in caso.anexos] == [(a1.id, a1.sha256), (a2.id, a2.sha256)]
        assert abrir_anexo_conferido(s, a2.id).sha256 == hashlib.sha256(declaracao).hexdigest()
        assert {a.id for a in obter_representacao(s, rep.id).anexos} == {a1.id, a2.id, a3.id}
        linhas = s.scalars(
            sa.select(models.Auditoria)
            .where(models.Auditoria.acao == "juntar_prova_da_representacao")
            .order_by(models.Auditoria.id)
        ).all()
        assert [int(r.entidade_id or 0) for r in linhas] == [a1.id, a2.id]
        depois = json.loads(linhas[0].depois or "{}")
        assert depois["auto_id"] == auto.id and depois["origem"] == f"representação nº {rep.numero_formatado}"
        assert json.loads(linhas[0].antes or "{}")["auto_id"] is None
        relatorio = verificar_tudo(s)
    # (the small city is built without audit rows: only what concerns the files is looked at)
    sobre_anexos = [a for a in relatorio.achados if "nexo" in a]
    assert len(sobre_anexos) == 1 and "trocada.png" in sobre_anexos[0]
