"""Sample data for the document tests (and for `medir_desempenho.py`): a realistic Pelotas case.

Plain builders rather than fixtures so the measuring script can use them too; each takes keyword overrides
(`dataclasses.replace`) so a test states only what it changes.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from secretaria.reports.dados import (
    DadosAuto,
    DadosDecisao,
    DadosDispositivo,
    DadosEmpregado,
    DadosFicha,
    DadosFiscal,
    DadosIntimacao,
    DadosLinha,
    DadosLoteIntimacao,
    DadosMensais,
    DadosOperadora,
    DadosVeiculo,
    LinhaAutoMensal,
    LinhaFichaCaso,
    LinhaPagamentoMensal,
    LinhaPenalidadeMensal,
    LinhaPrazoMensal,
    LinhaSuspensaoMensal,
    Resultado,
    Testemunha,
    Timbre,
)

URM = Decimal("164.74")
CENTAVO = Decimal("0.01")

TIMBRE = Timbre(
    secretario_nome="Maria Helena Duarte",
    secretario_cargo="Secretária Municipal de Serviços Urbanos",
    endereco="Rua Marechal Floriano, 123 – Centro – CEP 96015-440",
    telefone="(53) 3225-0000",
    email="smsu@pelotas.rs.gov.br",
)

OPERADORA = DadosOperadora(
    razao_social="Viação Princesa do Sul & Filhos <Ltda.>",
    cnpj="12.345.678/0001-95",
    endereco="Av. Bento Gonçalves, 4500 – Centro – Pelotas/RS – CEP 96015-000",
    nome_fantasia="Princesa do Sul",
)

TEXTO_1_VI = (
    "Fazer com que empregados e preposto de qualquer natureza na execução do serviço, se apresentem e se "
    "....(sic) decente e asseada, e em conformidade com ...(sic) específico"
)
HORARIO = "de segunda a sexta-feira, das 8h às 14h"
PAGAMENTO = "por guia de recolhimento retirada no protocolo da Secretaria, paga na rede bancária credenciada"
NOTA_1_VI = "Trecho ilegível no original (sic); o programa aplica o texto como impresso."


def reais(urm: Decimal) -> Decimal:
    return (urm * URM).quantize(CENTAVO, rounding=ROUND_HALF_UP)


def auto(**mudancas: Any) -> DadosAuto:
    dados = DadosAuto(
        timbre=TIMBRE,
        numero="0001/2026",
        local="Terminal do Centro, Praça Coronel Pedro Osório",
        data_lavratura=date(2026, 11, 20),
        hora_lavratura=time(14, 35),
        operadora=OPERADORA,
        dispositivo=DadosDispositivo(rotulo="Art. 1º, VI", texto=TEXTO_1_VI, tipo="A", nota=NOTA_1_VI),
        descricao_fatos="O motorista conduzia o ônibus sem o uniforme da empresa, de bermuda e chinelos.",
        circunstancias="Constatado no ponto final da linha, na presença de usuários.",
        proxima_penalidade="Multa de 0,20 a 1,00 URM (art. 7º, § 1º, a, e § 2º – 1ª reincidência).",
        fiscal=DadosFiscal(nome="Carlos Alberto Nunes", matricula="12.345-6"),
        data_fato=date(2026, 11, 20),
        hora_fato=time(14, 20),
        empregado=DadosEmpregado(funcao="motorista", nome="João da Silva", cpf="123.456.789-09"),
        veiculo=DadosVeiculo(prefixo="1234", placa="IAB1C23"),
        linha=DadosLinha(codigo="10", nome="Centro – Fragata"),
        testemunhas=[
            Testemunha("Ana Paula Souza", "RG 1234567890"),
            Testemunha("Pedro Ramos", "CPF 987.654.321-00"),
        ],
        recusou_assinar=True,
    )
    return replace(dados, **mudancas)


def intimacao(**mudancas: Any) -> DadosIntimacao:
    dados = DadosIntimacao(
        timbre=TIMBRE,
        numero_auto="0001/2026",
        data_auto=date(2026, 11, 20),
        operadora=OPERADORA,
        data_emissao=date(2026, 11, 20),
        representante="Roberto Carlos Almeida",
        dispositivo="Art. 1º, VI",
        tipo="A",
        horario_expediente=HORARIO,
    )
    return replace(dados, **mudancas)


def lote(quantidade: int) -> DadosLoteIntimacao:
    intimacoes = []
    for i in range(quantidade):
        operadora = DadosOperadora(
            razao_social=f"Empresa de Transportes {i % 20:02d} Ltda.",
            cnpj=f"{10 + i % 20}.345.678/0001-95",
            endereco=f"Rua General Osório, {100 + i} – Centro – Pelotas/RS",
        )
        intimacoes.append(
            DadosIntimacao(
                timbre=TIMBRE,
                numero_auto=f"{i + 1:04d}/2026",
                data_auto=date(2026, 11, 3),
                operadora=operadora,
                data_emissao=date(2026, 11, 30),
                representante=f"Representante {i + 1}",
                dispositivo="Art. 2º, III",
                tipo="C",
                horario_expediente=HORARIO,
            )
        )
    return DadosLoteIntimacao(
        timbre=TIMBRE,
        periodo_inicio=date(2026, 11, 1),
        periodo_fim=date(2026, 11, 30),
        emitido_em=date(2026, 11, 30),
        intimacoes=intimacoes,
    )


def decisao(**mudancas: Any) -> DadosDecisao:
    dados = DadosDecisao(
        timbre=TIMBRE,
        numero_auto="0001/2026",
        data_auto=date(2026, 11, 20),
        operadora=OPERADORA,
        data_decisao=date(2026, 12, 18),
        resultado=Resultado.APLICADA,
        fundamentacao="A defesa não afasta a infração: o dever do art. 1º, VI, é da concessionária.",
        dispositivo="Art. 1º, VI",
        tipo="A",
        multa_urm=Decimal("0.50"),
        valor_urm=URM,
        valor_reais=Decimal("82.37"),
        valor_por_extenso="oitenta e dois reais e trinta e sete centavos",
        suspensao_dias=5,
        suspensao_inicio=date(2027, 2, 1),
        suspensao_fim=date(2027, 2, 5),
        data_intimacao_decisao=date(2026, 12, 21),
        prazo_recurso=date(2027, 1, 5),
        representante="Roberto Carlos Almeida",
        reincidencia=0,
        faixa_base=(Decimal("0.10"), Decimal("0.50")),
        faixa=(Decimal("0.10"), Decimal("0.50")),
        prazo_pagamento_dias=30,
        pagamento_instrucoes=PAGAMENTO,
    )
    return replace(dados, **mudancas)


def decisao_arquivada() -> DadosDecisao:
    return decisao(
        resultado=Resultado.ARQUIVADA,
        fundamentacao="O veículo estava em manutenção programada, comunicada à SMSU antes do fato.",
        multa_urm=None,
        valor_urm=None,
        valor_reais=None,
        valor_por_extenso=None,
        suspensao_dias=None,
        suspensao_inicio=None,
        suspensao_fim=None,
        data_intimacao_decisao=None,
        prazo_recurso=None,
        reincidencia=None,
        faixa_base=None,
        faixa=None,
        prazo_pagamento_dias=None,
        pagamento_instrucoes="",
    )


def casos(quantidade: int, semente: int = 1) -> list[LinhaFichaCaso]:
    sorteio = random.Random(semente)
    resultado = []
    for i in range(quantidade):
        multa = Decimal(sorteio.choice(["0.10", "0.50", "1.00", "2.00"]))
        paga = sorteio.random() < 0.5
        suspensa = i % 17 == 0
        resultado.append(
            LinhaFichaCaso(
                numero=f"{i + 1:04d}/2025",
                data=date(2025, 1 + i % 12, 1 + i % 28),
                dispositivo=sorteio.choice(["Art. 1º, VI", "Art. 2º, III", "Art. 5º, II"]),
                tipo=sorteio.choice("ABCDE"),
                situacao=sorteio.choice(["Decidido", "Em recurso", "Decisão definitiva"]),
                multa_urm=multa,
                multa_reais=reais(multa),
                suspensao_dias=5 if suspensa else None,
                suspensao_inicio=date(2025, 3, 1) if suspensa else None,
                suspensao_fim=date(2025, 3, 5) if suspensa else None,
                pagamento="Pago" if paga else "Dívida ativa" if i % 7 == 3 else "Em aberto",
                data_pagamento=date(2025, 6, 1) if paga else None,
            )
        )
    return resultado


def ficha(quantidade: int = 60, **mudancas: Any) -> DadosFicha:
    dados = DadosFicha(
        timbre=TIMBRE,
        emitida_em=date(2026, 11, 30),
        operadora=OPERADORA,
        modalidade="Concessionária",
        situacao="Ativa",
        representante_nome="Roberto Carlos Almeida",
        representante_cpf="111.222.333-44",
        contrato_numero="12/2015",
        contrato_inicio=date(2015, 3, 1),
        contrato_fim=date(2035, 2, 28),
        telefone="(53) 3222-1111",
        email="contato@princesa.com.br",
        veiculos=87,
        linhas=12,
        casos=casos(quantidade),
    )
    return replace(dados, **mudancas)


OPERADORAS_MES = tuple(f"Empresa {i:02d} Transportes Ltda." for i in range(20))
PERIGOSA = "=cmd|' /C calc'!A0"


def mensal(quantidade: int, semente: int = 7) -> DadosMensais:
    """A month of autos; the first one carries hostile text (a formula, control characters)."""
    sorteio = random.Random(semente)
    autos = []
    for i in range(quantidade):
        multa = Decimal(sorteio.choice(["0.10", "0.50", "1.00", "2.00"])) if sorteio.random() < 0.6 else None
        autos.append(
            LinhaAutoMensal(
                numero=f"{i + 1:04d}/2026",
                data_lavratura=date(2026, 11, 1 + i % 30),
                data_infracao=date(2026, 10, 31) + timedelta(days=i % 30),
                operadora=sorteio.choice(OPERADORAS_MES),
                dispositivo="Art. 1º, VI",
                tipo=sorteio.choice("ABCDE"),
                situacao="Decidido" if multa else "Aguardando intimação",
                veiculo=f"{1000 + i % 1500} – IAB{i % 10}C23",
                empregado=f"Empregado {i}",
                multa_urm=multa,
                multa_reais=reais(multa) if multa is not None else None,
            )
        )
    if autos:
        autos[0] = replace(
            autos[0], operadora=PERIGOSA, situacao="Em\x07 defesa\x00", empregado="@SUM(A1)", veiculo="+55 53"
        )
    decididos = max(1, quantidade // 10)
    penalidades = [
        LinhaPenalidadeMensal(
            numero_auto=f"{i + 1:04d}/2026",
            data_decisao=date(2026, 11, 5 + i % 20),
            operadora=OPERADORAS_MES[i % 20],
            dispositivo="Art. 2º, III",
            tipo="C",
            resultado="Penalidade aplicada",
            multa_urm=Decimal("1.00"),
            valor_urm=URM,
            multa_reais=reais(Decimal("1.00")),
            suspensao_dias=5 if i % 10 == 0 else None,
            suspensao_inicio=date(2026, 12, 1) if i % 10 == 0 else None,
            suspensao_fim=date(2026, 12, 5) if i % 10 == 0 else None,
        )
        for i in range(decididos)
    ]
    prazos = [
        LinhaPrazoMensal(
            numero_auto=f"{i + 1:04d}/2026",
            operadora=OPERADORAS_MES[i % 20],
            prazo="Defesa (art. 14)" if i % 2 else "Recurso (art. 15)",
            data_intimacao=date(2026, 11, 20 + i % 10),
            vencimento=date(2026, 12, 7 + i % 10),
        )
        for i in range(decididos)
    ]
    pagamentos = [
        LinhaPagamentoMensal(
            numero_auto=f"{i + 1:04d}/2025",
            operadora=OPERADORAS_MES[i % 20],
            valor_multa=reais(Decimal("0.50")),
            situacao="Pago" if i % 3 else "Em aberto",
            data_pagamento=date(2026, 11, 10) if i % 3 else None,
            valor_pago=reais(Decimal("0.50")) if i % 3 else None,
            observacao="-pago com desconto" if i == 1 else "",
        )
        for i in range(decididos)
    ]
    suspensoes = [
        LinhaSuspensaoMensal(
            numero_auto=f"{i + 1:04d}/2026",
            operadora=OPERADORAS_MES[i % 20],
            dispositivo="Art. 1º, I",
            inicio=date(2026, 11, 2 + i % 20),
            fim=date(2026, 11, 6 + i % 20),
            dias=5,
            situacao="Cumprida",
        )
        for i in range(max(1, decididos // 5))
    ]
    return DadosMensais(
        ano=2026,
        mes=11,
        autos=autos,
        penalidades=penalidades,
        prazos=prazos,
        pagamentos=pagamentos,
        suspensoes=suspensoes,
    )
