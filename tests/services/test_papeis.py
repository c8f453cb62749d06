"""Role × act matrix: every act refused, naming the role needed, for each role that lacks it (PRODUTO roles)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time
from decimal import Decimal
from typing import Any

from secretaria.db import Banco
from secretaria.models import PAPEIS, AutoInfracao
from secretaria.services import (
    autos,
    execucao,
    representacoes,
    retificacoes,
    revisao_prazos,
    revisao_sancao,
    tramitacao,
)
from secretaria.services.base import ROTULOS_PAPEIS, AcessoNegado, Ator, ErroDominio
from secretaria.services.caso import PAPEIS_DOS_ATOS
from tests.helpers.fabrica import contagens

DIA = date(2026, 3, 10)
NENHUM = 999_999  # no such record: an allowed role gets past the role check and stops at the lookup

# act → (roles that may do it, the call with arguments that can never be written)
MATRIZ: dict[str, tuple[tuple[str, ...], Callable[..., Any], dict[str, Any]]] = {
    "lavrar_auto": (
        ("fiscal",),
        autos.lavrar_auto,
        {
            "dados": autos.NovoAuto(
                operadora_id=NENHUM,
                dispositivo_codigo="1-VI",
                data_infracao=DIA,
                local="x",
                data_lavratura=DIA,
                hora_lavratura=time(9, 0),
                local_lavratura="x",
                descricao_fatos="x",
                fiscal_id=NENHUM,
            )
        },
    ),
    "anexar_evidencia": (
        ("fiscal", "protocolo"),
        autos.anexar_evidencia,
        {"auto_id": NENHUM, "nome_arquivo": "a.pdf", "conteudo": b"%PDF-1.4"},
    ),
    "cancelar_auto": (
        ("autoridade", "secretario"),
        autos.cancelar_auto,
        {"pedido": autos.PedidoCancelamento(auto_id=NENHUM, motivo="Erro.")},
    ),
    "retificar_auto": (
        ("fiscal",),
        retificacoes.retificar_auto,
        {"pedido": retificacoes.PedidoRetificacao(auto_id=NENHUM, alteracoes={"local": "x"}, motivo="Erro.")},
    ),
    "revisar_sancao": (
        ("secretario",),
        revisao_sancao.revisar_sancao,
        {
            "pedido": revisao_sancao.PedidoRevisao(
                revisao_id=NENHUM, multa_ur=Decimal("0.50"), fundamentacao="Revisão."
            )
        },
    ),
    "manter_sancao": (
        ("secretario",),
        revisao_sancao.manter_sancao,
        {"pedido": revisao_sancao.PedidoManutencao(revisao_id=NENHUM, fundamentacao="Mantida.")},
    ),
    "receber_representacao": (
        ("fiscal",),
        representacoes.receber_representacao,
        {
            "recebida_em": DIA,
            "peticionario_nome": "",
            "peticionario_profissao": "x",
            "peticionario_endereco": "x",
            "fatos": "x",
            "meios_prova": "x",
        },
    ),
    "arquivar_representacao": (
        ("autoridade", "secretario"),
        representacoes.arquivar_representacao,
        {"representacao_id": NENHUM, "motivo": "Sem fundamento."},
    ),
    "anexar_prova_representacao": (
        ("fiscal",),
        representacoes.anexar_prova_representacao,
        {"representacao_id": NENHUM, "nome_arquivo": "a.pdf", "conteudo": b"%PDF-1.4"},
    ),
    "registrar_intimacao": (
        ("protocolo",),
        tramitacao.registrar_intimacao,
        {
            "pedido": tramitacao.PedidoIntimacao(
                auto_id=NENHUM, data=DIA, meio="pessoal", resultado="recusada"
            )
        },
    ),
    "registrar_defesa": (
        ("protocolo",),
        tramitacao.registrar_defesa,
        {"auto_id": NENHUM, "protocolada_em": DIA},
    ),
    "registrar_proposta": (
        ("autoridade",),
        tramitacao.registrar_proposta,
        {"auto_id": NENHUM, "data": DIA, "acao": "arquivar", "fundamentacao": "x"},
    ),
    "decidir": (
        ("secretario",),
        tramitacao.decidir,
        {
            "pedido": tramitacao.PedidoDecisao(
                auto_id=NENHUM, data=DIA, resultado="aplicada", multa_ur=Decimal("0.3"), fundamentacao="x"
            )
        },
    ),
    "registrar_recurso": (
        ("protocolo",),
        tramitacao.registrar_recurso,
        {"pedido": tramitacao.PedidoRecurso(auto_id=NENHUM, protocolado_em=DIA)},
    ),
    "julgar_recurso": (
        ("protocolo",),
        tramitacao.julgar_recurso,
        {"pedido": tramitacao.PedidoJulgamento(auto_id=NENHUM, data=DIA, resultado="negado")},
    ),
    "conferir_revisao_prazo": (
        ("secretario",),
        revisao_prazos.conferir_revisoes_do_auto,
        {"auto_id": NENHUM},
    ),
    "iniciar_suspensao": (
        ("secretario", "autoridade"),
        execucao.iniciar_suspensao,
        {"pedido": execucao.PedidoSuspensao(auto_id=NENHUM, inicio=DIA)},
    ),
    "registrar_pagamento": (
        ("protocolo",),
        execucao.registrar_pagamento,
        {"pedido": execucao.PedidoPagamento(auto_id=NENHUM, situacao="pago", data=DIA)},
    ),
    "registrar_cumprimento": (
        ("fiscal", "protocolo"),
        execucao.registrar_cumprimento,
        {"auto_id": NENHUM, "situacao": "cumprida", "data": DIA},
    ),
    "instaurar_cassacao": (
        ("autoridade", "secretario"),
        execucao.instaurar_cassacao,
        {"pedido": execucao.PedidoInstauracao(operadora_id=NENHUM, data=DIA, motivo="Motivo relevante.")},
    ),
    "registrar_ato_cassacao": (
        ("protocolo", "autoridade", "secretario"),
        execucao.registrar_ato_cassacao,
        {"cassacao_id": NENHUM, "data": DIA, "tipo": "notificacao", "descricao": "x"},
    ),
    "decidir_cassacao": (
        ("secretario",),
        execucao.decidir_cassacao,
        {
            "pedido": execucao.PedidoDecisaoCassacao(
                cassacao_id=NENHUM, data=DIA, resultado="arquivada", fundamentacao="x"
            )
        },
    ),
}


def test_matriz_de_papeis_e_atos(banco: Banco) -> None:
    antes = contagens(banco)
    falhas: list[str] = []
    for ato, (permitidos, funcao, argumentos) in MATRIZ.items():
        for papel in PAPEIS:
            ator = Ator(f"usuario.{papel}", "Usuário de teste", frozenset({papel}))
            try:
                funcao(banco.uow(), ator, **argumentos)
            except AcessoNegado as exc:
                if papel in permitidos:
                    falhas.append(f"{ato}: {papel} deveria poder")
                elif (
                    not all(ROTULOS_PAPEIS[p] in exc.mensagem for p in permitidos)
                    or ator.login not in exc.mensagem
                ):
                    falhas.append(f"{ato}/{papel}: a mensagem não nomeia o papel: {exc.mensagem}")
            except ErroDominio:
                if papel not in permitidos:
                    falhas.append(f"{ato}: {papel} passou pela verificação de papel")
            else:
                falhas.append(f"{ato}/{papel}: gravou com argumentos impossíveis")
    assert not falhas, "\n".join(falhas)
    assert contagens(banco) == antes


def test_um_usuario_com_varios_papeis_faz_o_que_cada_um_permite(banco: Banco, roteiro: Any) -> None:
    ator = Ator("ana", "Ana", frozenset({"fiscal", "secretario"}))
    r = autos.lavrar_auto(banco.uow(), ator, roteiro.novo_auto())
    autos.cancelar_auto(banco.uow(), ator, autos.PedidoCancelamento(auto_id=r.id, motivo="Teste de papéis."))
    with banco.leitura() as s:  # drawn up as fiscal, cancelled as secretário: both acts landed
        auto = s.get(AutoInfracao, r.id)
        assert auto is not None and auto.lavrado_por == "ana" and auto.fase == "cancelado"


def test_a_tela_do_caso_usa_os_mesmos_papeis_que_os_servicos() -> None:
    equivalentes = {
        "registrar_intimacao_auto": "registrar_intimacao",
        "registrar_intimacao_decisao": "registrar_intimacao",
        "registrar_intimacao_retificacao": "registrar_intimacao",
        "registrar_intimacao_julgamento": "registrar_intimacao",
        "registrar_intimacao_revisao": "registrar_intimacao",
    }
    for ato_tela, papeis in PAPEIS_DOS_ATOS.items():
        assert set(papeis) == set(MATRIZ[equivalentes.get(ato_tela, ato_tela)][0]), ato_tela
