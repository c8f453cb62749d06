"""Read models the screens show whole: a cassação procedure with its acts and outcome, a representação with
everything received and what became of it, one audit entry by its id, and the Secretary's title on the
letterhead."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest

from secretaria.db import Banco
from secretaria.services import consulta_auditoria, documentos, orgao
from secretaria.services.base import ErroDominio, NaoEncontrado
from secretaria.services.execucao import (
    PedidoDecisaoCassacao,
    PedidoInstauracao,
    decidir_cassacao,
    instaurar_cassacao,
    obter_cassacao,
    obter_cassacoes,
    registrar_ato_cassacao,
)
from secretaria.services.representacoes import (
    anexar_prova_representacao,
    arquivar_representacao,
    obter_representacao,
    receber_representacao,
)
from tests.helpers import arquivos_prova
from tests.helpers.fabrica import ATORES, Roteiro

PNG = arquivos_prova.png()


def test_cassacao_lida_com_atos_prazo_e_resultado(banco: Banco, roteiro: Roteiro) -> None:
    c = roteiro.cidade
    with banco.leitura() as s:
        assert obter_cassacoes(s, c.operadora2_id) == []
    primeira = instaurar_cassacao(
        roteiro.uow(),
        ATORES["autoridade"],
        PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 8, 3), motivo="Denúncia."),
    )
    decidir_cassacao(
        roteiro.uow(), ATORES["secretario"], PedidoDecisaoCassacao(cassacao_id=primeira, data=date(2026, 8, 10),
        resultado="arquivada", fundamentacao="Sem prova."),
    )  # fmt: skip
    cid = instaurar_cassacao(
        roteiro.uow(),
        ATORES["secretario"],
        PedidoInstauracao(
            operadora_id=c.operadora2_id, data=date(2026, 9, 1), motivo="Reiteradas suspensões."
        ),
    )
    with banco.leitura() as s:
        aberta = obter_cassacao(s, cid)
    assert aberta.em_andamento and aberta.situacao == "instaurada"
    assert aberta.operadora_nome == "Transportes Laranjal Ltda."
    assert aberta.notificada_em is None and aberta.prazo_defesa is None
    assert "Aguardando a notificação da permissionária" in aberta.pendencia()
    assert [(e.titulo, e.por) for e in aberta.linha_do_tempo] == [("Instauração", "secretario")]

    registrar_ato_cassacao(
        roteiro.uow(), ATORES["protocolo"], cassacao_id=cid, data=date(2026, 9, 2), tipo="notificacao",
        descricao="Notificada pelo correio (AR).",
    )  # fmt: skip
    with banco.leitura() as s:
        notificada = obter_cassacao(s, cid)
    assert notificada.situacao == "em_defesa" and notificada.notificada_em == date(2026, 9, 2)
    assert notificada.prazo_defesa is not None and notificada.prazo_defesa > date(2026, 9, 16)
    prazo = notificada.prazo_defesa
    assert f"pode se defender até {prazo:%d/%m/%Y}" in notificada.pendencia(date(2026, 9, 3))
    assert f"o prazo de defesa terminou em {prazo:%d/%m/%Y} sem defesa" in notificada.pendencia(
        prazo + timedelta(1)
    )

    registrar_ato_cassacao(
        roteiro.uow(), ATORES["protocolo"], cassacao_id=cid, data=date(2026, 9, 10), tipo="defesa",
        descricao="Defesa escrita.",
    )  # fmt: skip
    decidir_cassacao(
        roteiro.uow(), ATORES["secretario"], PedidoDecisaoCassacao(cassacao_id=cid, data=date(2026, 9, 20), resultado="cassada",
        fundamentacao="Motivo relevante comprovado."),
    )  # fmt: skip
    with banco.leitura() as s:
        todas = obter_cassacoes(s, c.operadora2_id)
        with pytest.raises(NaoEncontrado):
            obter_cassacao(s, 999_999)
        with pytest.raises(NaoEncontrado):
            obter_cassacoes(s, 999_999)
    assert [t.id for t in todas] == [cid, primeira]  # newest first
    decidida = todas[0]
    assert not decidida.em_andamento and decidida.pendencia() == ""
    assert decidida.rotulo == "Permissão cassada em 20/09/2026"
    assert todas[1].rotulo == "Arquivado em 10/08/2026"
    assert [(a.tipo_rotulo, a.registrado_por) for a in decidida.atos] == [
        ("notificação da permissionária para defesa", "protocolo"),
        ("defesa da permissionária", "protocolo"),
    ]
    assert [(e.data, e.titulo, e.por) for e in decidida.linha_do_tempo] == [
        (date(2026, 9, 1), "Instauração", "secretario"),
        (date(2026, 9, 2), "Notificação da permissionária para defesa", "protocolo"),
        (date(2026, 9, 10), "Defesa da permissionária", "protocolo"),
        (date(2026, 9, 20), "Decisão: permissão cassada", "secretario"),
    ]
    assert decidida.linha_do_tempo[-1].descricao == "Motivo relevante comprovado."


def test_representacao_inteira_com_anexo_e_auto(banco: Banco, roteiro: Roteiro) -> None:
    fiscal = ATORES["fiscal"]
    rep = receber_representacao(
        roteiro.uow(),
        fiscal,
        recebida_em=date(2026, 11, 20),
        peticionario_nome="Maria Passageira",
        peticionario_profissao="professora",
        peticionario_endereco="Rua Gonçalves Chaves, 500",
        peticionario_contato="(53) 99999-0000",
        fatos="O ônibus não parou no ponto.",
        meios_prova="Fotografia.",
        operadora_id=roteiro.cidade.operadora_id,
        dispositivo_codigo="2-III",
        data_fato=date(2026, 11, 18),
        local_fato="Av. Bento Gonçalves, 3000",
    )
    anexar_prova_representacao(
        roteiro.uow(), fiscal, representacao_id=rep.id, nome_arquivo="foto.png", conteudo=PNG
    )
    with banco.leitura() as s:
        d = obter_representacao(s, rep.id)
    assert (d.numero_formatado, d.situacao_rotulo, d.recebida_por) == ("0001/2026", "Recebida", "fiscal")
    assert (d.peticionario_nome, d.peticionario_profissao) == ("Maria Passageira", "professora")
    assert d.peticionario_endereco == "Rua Gonçalves Chaves, 500"
    assert d.peticionario_contato == "(53) 99999-0000"
    assert (d.fatos, d.meios_prova) == ("O ônibus não parou no ponto.", "Fotografia.")
    assert d.operadora_nome == "Viação Princesa do Sul Ltda."
    assert d.dispositivo_rotulo is not None and d.dispositivo_rotulo.startswith("Art. 2º")
    assert (d.data_fato, d.local_fato) == (date(2026, 11, 18), "Av. Bento Gonçalves, 3000")
    assert [(a.nome_arquivo, a.tamanho, a.anexado_por) for a in d.anexos] == [
        ("foto.png", len(PNG), "fiscal")
    ]
    assert d.auto_id is None and d.arquivada_em is None

    auto = roteiro.lavrar(
        representacao_id=rep.id,
        dispositivo="2-III",
        data_infracao=date(2026, 11, 18),
        data_lavratura=date(2026, 11, 20),
    )
    with banco.leitura() as s:
        d = obter_representacao(s, rep.id)
    assert (d.situacao, d.auto_id, d.auto_numero, d.auto_fase) == ("autuada", auto.id, "0001/2026", "lavrado")

    outra = receber_representacao(
        roteiro.uow(), fiscal, recebida_em=date(2026, 11, 21), peticionario_nome="João",
        peticionario_profissao="motorista", peticionario_endereco="Rua B, 2", fatos="Fato.", meios_prova="Relato.",
    )  # fmt: skip
    arquivar_representacao(
        roteiro.uow(), ATORES["autoridade"], representacao_id=outra.id, motivo="Fato não confirmado.",
        data=date(2026, 11, 25),
    )  # fmt: skip
    with banco.leitura() as s:
        arquivada = obter_representacao(s, outra.id)
        with pytest.raises(NaoEncontrado):
            obter_representacao(s, 999_999)
    assert arquivada.situacao_rotulo == "Arquivada"
    assert (arquivada.arquivada_em, arquivada.motivo_arquivamento) == (
        date(2026, 11, 25),
        "Fato não confirmado.",
    )
    assert (
        arquivada.operadora_nome is None and arquivada.dispositivo_rotulo is None and arquivada.anexos == ()
    )


def test_registro_de_auditoria_pelo_id(banco: Banco) -> None:
    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
    orgao.salvar_dados_orgao(
        banco.uow(),
        ATORES["administrador"],
        replace(atual.dados, secretario_nome="Marta Lopes", endereco="Rua A, 1"),
        versao=atual.versao,
    )
    with banco.leitura() as s:
        ultimo = consulta_auditoria.consultar_auditoria(s, quantidade=1).registros[0]
        registro = consulta_auditoria.registro_auditoria(s, ultimo.id)
        for invalido in (999_999_999, 0, -1, 2**70):
            with pytest.raises(NaoEncontrado):
                consulta_auditoria.registro_auditoria(s, invalido)
    assert registro == ultimo
    assert (registro.usuario, registro.acao, registro.entidade) == (
        "administrador",
        "editar_dados_orgao",
        "dados_orgao",
    )
    assert ("secretario_nome", "", "Marta Lopes") in registro.alteracoes


def test_cargo_do_secretario_no_timbre(banco: Banco) -> None:
    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
        assert atual.dados.secretario_cargo == "Secretário Municipal de Serviços Urbanos"  # the default
        assert documentos.timbre(s).secretario_cargo == "Secretário Municipal de Serviços Urbanos"
    with pytest.raises(ErroDominio) as recusa:
        orgao.salvar_dados_orgao(
            banco.uow(),
            ATORES["administrador"],
            replace(atual.dados, secretario_nome="Marta", endereco="Rua A, 1", secretario_cargo="  "),
            versao=atual.versao,
        )
    assert recusa.value.campo == "secretario_cargo"
    orgao.salvar_dados_orgao(
        banco.uow(),
        ATORES["administrador"],
        replace(
            atual.dados,
            secretario_nome="Marta Lopes",
            endereco="Rua A, 1",
            secretario_cargo="Secretária Municipal de Serviços Urbanos",
        ),
        versao=atual.versao,
    )
    with banco.leitura() as s:
        assert orgao.obter_dados_orgao(s).dados.secretario_cargo == "Secretária Municipal de Serviços Urbanos"
        assert documentos.timbre(s).secretario_cargo == "Secretária Municipal de Serviços Urbanos"
