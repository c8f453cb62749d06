"""A small city made through the services only (every record with its audit rows), with one case through
every act: the database `secretaria auditoria verificar` must find whole, and the one the tampering tests
alter behind the program's back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from secretaria.db import Banco
from secretaria.services import (
    autos,
    cadastros,
    calendario,
    documentos,
    execucao,
    representacoes,
    tramitacao,
    urm,
)
from secretaria.services.base import Ator
from secretaria.services.contas import criar_usuario
from tests.helpers import arquivos_prova, fabrica

ADMIN = Ator("admin", "Ana Administradora", frozenset({"administrador"}))
FISCAL = Ator("fiscal", "Fábio Fiscal", frozenset({"fiscal"}))
PROTOCOLO = Ator("protocolo", "Paula do Protocolo", frozenset({"protocolo"}))
AUTORIDADE = Ator("autoridade", "Augusto Autoridade", frozenset({"autoridade"}))
SECRETARIO = Ator("secretario", "Sérgio Secretário", frozenset({"secretario"}))

# The smallest valid PDF the attachment check accepts.
PDF = arquivos_prova.pdf(b"foto do auto")


@dataclass(frozen=True)
class CidadeAuditada:
    operadora_id: int
    operadora2_id: int
    auto_id: int
    auto2_id: int
    decisao_id: int
    intimacao_id: int
    anexo_id: int
    documento_id: int
    representacao_id: int
    usuario_id: int


def montar(banco: Banco) -> CidadeAuditada:
    u = banco.uow
    usuario_id = criar_usuario(
        u(), ADMIN, login="clara", nome="Clara Consulta", senha="senha123", papeis=["consulta"]
    )
    urm.adicionar_valor_urm(u(), ADMIN, vigencia=date(2020, 1, 1), valor=Decimal("150.0000"), ato="Decreto 1")
    urm.adicionar_valor_urm(u(), ADMIN, vigencia=date(2026, 1, 1), valor=Decimal("164.7400"), ato="Decreto 2")
    calendario.adicionar_dia_nao_util(u(), ADMIN, data=date(2026, 6, 9), descricao="Ponto facultativo")
    op = cadastros.criar_operadora(
        u(),
        ADMIN,
        cadastros.DadosOperadora(
            razao_social="Viação Princesa do Sul Ltda.",
            cnpj="11222333000181",
            logradouro="Rua Quinze de Novembro",
            representante_nome="Carlos Representante",
        ),
    )
    op2 = cadastros.criar_operadora(
        u(),
        ADMIN,
        cadastros.DadosOperadora(
            razao_social="Transportes Laranjal Ltda.",
            cnpj="11444777000161",
            delegacao="permissao",
            logradouro="Avenida Adolfo Fetter",
        ),
    )
    with banco.leitura() as s:
        versao = cadastros.obter_operadora(s, op).versao
    cadastros.editar_operadora(
        u(),
        ADMIN,
        op,
        cadastros.DadosOperadora(
            razao_social="Viação Princesa do Sul Ltda.",
            cnpj="11222333000181",
            logradouro="Rua Quinze de Novembro",
            numero_endereco="100",
            representante_nome="Carlos Representante",
        ),
        versao=versao,
    )
    linha = cadastros.criar_linha(
        u(), ADMIN, cadastros.DadosLinha(codigo="L10", nome="Centro", operadora_id=op)
    )
    veiculo = cadastros.criar_veiculo(
        u(),
        ADMIN,
        cadastros.DadosVeiculo(
            prefixo="101",
            placa="IAB1C23",
            renavam="00123456789",
            operadora_id=op,
            linha_id=linha,
            lugares_sentados=40,
        ),
    )
    empregado = cadastros.criar_empregado(
        u(), ADMIN, cadastros.DadosEmpregado(nome="João Motorista", cpf="11144477735", operadora_id=op)
    )
    fiscal = cadastros.criar_fiscal(u(), ADMIN, cadastros.DadosFiscal(nome="Fábio Fiscal", matricula="S-1"))

    def novo(dia: date, **campos: object) -> autos.NovoAuto:
        return fabrica.novo_auto(
            op, fiscal, dia, **{"veiculo_id": veiculo, "empregado_id": empregado, "linha_id": linha, **campos}
        )

    testemunha = autos.DadosTestemunha("Maria Testemunha", "RG 1234567", "Rua Andrade Neves, 10")
    auto = autos.lavrar_auto(u(), FISCAL, novo(date(2026, 8, 3), testemunhas=[testemunha])).id
    intim = tramitacao.registrar_intimacao(
        u(),
        PROTOCOLO,
        tramitacao.PedidoIntimacao(
            auto_id=auto,
            data=date(2026, 8, 4),
            meio="pessoal",
            resultado="entregue",
            recebedor_nome="Carlos Representante",
        ),
    ).id
    tramitacao.registrar_defesa(
        u(), PROTOCOLO, auto_id=auto, protocolada_em=date(2026, 8, 10), texto="Defesa."
    )
    tramitacao.registrar_proposta(
        u(),
        AUTORIDADE,
        auto_id=auto,
        data=date(2026, 9, 1),
        acao="aplicar",
        multa_ur=Decimal("0.30"),
        suspensao_dias=0,
        fundamentacao="Infração comprovada.",
    )
    decisao = tramitacao.decidir(
        u(),
        SECRETARIO,
        tramitacao.PedidoDecisao(
            auto_id=auto,
            data=date(2026, 9, 2),
            resultado="aplicada",
            multa_ur=Decimal("0.30"),
            suspensao_dias=0,
            fundamentacao="Infração comprovada pelo auto e não afastada pela defesa.",
        ),
    ).id
    tramitacao.registrar_intimacao(
        u(),
        PROTOCOLO,
        tramitacao.PedidoIntimacao(
            auto_id=auto,
            objeto="decisao",
            data=date(2026, 9, 3),
            meio="pessoal",
            resultado="entregue",
            recebedor_nome="Carlos Representante",
        ),
    )
    tramitacao.registrar_recurso(
        u(),
        PROTOCOLO,
        tramitacao.PedidoRecurso(auto_id=auto, protocolado_em=date(2026, 9, 8), razoes="Razões."),
    )
    tramitacao.julgar_recurso(
        u(),
        PROTOCOLO,
        tramitacao.PedidoJulgamento(
            auto_id=auto, data=date(2026, 10, 1), resultado="negado", fundamentacao="Negado."
        ),
    )
    execucao.registrar_pagamento(
        u(),
        PROTOCOLO,
        execucao.PedidoPagamento(
            auto_id=auto, situacao="pago", data=date(2026, 11, 2), valor_pago=Decimal("49.42")
        ),
    )
    execucao.registrar_cumprimento(u(), FISCAL, auto_id=auto, situacao="cumprida", data=date(2026, 11, 3))
    auto2 = autos.lavrar_auto(u(), FISCAL, novo(date(2026, 11, 9), dispositivo_codigo="1-I")).id
    anexo = autos.anexar_evidencia(u(), FISCAL, auto_id=auto2, nome_arquivo="foto.pdf", conteudo=PDF).id
    documento = documentos.emitir_documento(u(), FISCAL, tipo="auto", auto_id=auto2).id
    rep = representacoes.receber_representacao(
        u(),
        FISCAL,
        recebida_em=date(2026, 11, 10),
        peticionario_nome="Cidadã Reclamante",
        peticionario_profissao="professora",
        peticionario_endereco="Rua A, 1",
        fatos="O ônibus não parou.",
        meios_prova="Testemunho da peticionária.",
        operadora_id=op,
    ).id
    representacoes.arquivar_representacao(
        u(), AUTORIDADE, representacao_id=rep, motivo="Fato não configura infração.", data=date(2026, 11, 11)
    )
    cassacao = execucao.instaurar_cassacao(
        u(),
        SECRETARIO,
        execucao.PedidoInstauracao(operadora_id=op2, data=date(2026, 11, 12), motivo="Abandono do serviço."),
    )
    execucao.registrar_ato_cassacao(
        u(),
        SECRETARIO,
        cassacao_id=cassacao,
        data=date(2026, 11, 13),
        tipo="notificacao",
        descricao="Notificada.",
    )
    return CidadeAuditada(op, op2, auto, auto2, decisao, intim, anexo, documento, rep, usuario_id)
