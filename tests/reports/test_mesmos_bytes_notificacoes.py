"""The notices render to the same bytes as before the clean-up that gave their shared parts one home.

The SHA-256 values below were computed from the code as it stood BEFORE that refactor (commit 8996134,
branch h30a) and written here by hand: this test does not check that the documents are right (the
renderer and service tests do), it pins that moving code between the renderers changed no byte of any
document a citizen may already hold, whose SHA-256 the office keeps and the case file index prints. A
deliberate change of a document's text or layout must update the value here, saying why.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from secretaria.reports.dados import (
    DadosIntimacaoRetificacao,
    DadosJulgamento,
    DadosProcessoIntegral,
    DadosRetificacao,
    DadosRevisao,
    EventoProcesso,
    ItemRetificado,
    PecaProcesso,
    ResultadoJulgamento,
)
from secretaria.reports.decisao import DecisaoPdf
from secretaria.reports.intimacao import IntimacaoPdf
from secretaria.reports.intimacao_retificacao import IntimacaoRetificacaoPdf
from secretaria.reports.julgamento import JulgamentoPdf
from secretaria.reports.processo_integral import montar_processo_integral
from secretaria.reports.retificacao import TermoRetificacaoPdf
from secretaria.reports.revisao import TermoRevisaoPdf
from tests.helpers import amostras_documentos as amostras
from tests.helpers.arquivos_prova import png

ITENS = (
    ItemRetificado("Dispositivo", "Art. 1º, VI", "Art. 1º, XVI"),
    ItemRetificado("Descrição dos fatos", "sem uniforme", "sem uniforme & sem crachá <visível>"),
)


def _julgamento(resultado: ResultadoJulgamento, **mudancas: Any) -> DadosJulgamento:
    mantida = resultado is not ResultadoJulgamento.PROVIDO
    dados = DadosJulgamento(
        timbre=amostras.TIMBRE,
        numero_auto="0001/2026",
        data_auto=date(2026, 11, 20),
        operadora=amostras.OPERADORA,
        data_decisao=date(2026, 12, 18),
        data_recurso=date(2027, 1, 4),
        recurso_tempestivo=True,
        data_julgamento=date(2027, 2, 10),
        resultado=resultado,
        fundamentacao="O recurso repete a defesa; a infração está provada pela foto do fiscal.",
        multa_decisao_urm=Decimal("0.50"),
        suspensao_decisao_dias=5,
        dispositivo="Art. 1º, VI",
        tipo="A",
        representante="Roberto Carlos Almeida",
        multa_urm=Decimal("0.35") if mantida else None,
        valor_urm=amostras.URM if mantida else None,
        valor_reais=amostras.reais(Decimal("0.35")) if mantida else None,
        valor_por_extenso="cinquenta e sete reais e sessenta e seis centavos" if mantida else None,
        data_definitiva=date(2027, 2, 10) if mantida else None,
        prazo_pagamento_dias=30 if mantida else None,
        pagamento_instrucoes=amostras.PAGAMENTO if mantida else "",
    )
    return replace(dados, **mudancas)


def _revisao(**mudancas: Any) -> DadosRevisao:
    dados = DadosRevisao(
        timbre=amostras.TIMBRE,
        numero="0001/2027",
        numero_auto="0001/2026",
        data_auto=date(2026, 11, 20),
        operadora=amostras.OPERADORA,
        data=date(2027, 3, 1),
        data_decisao=date(2026, 12, 18),
        origem="O Auto de Infração nº 0009/2025 foi anulado em 20/02/2027.",
        reincidencia_anterior=1,
        reincidencia_atual=0,
        faixa=(Decimal("0.10"), Decimal("0.50")),
        multa_anterior_urm=Decimal("1.00"),
        multa_urm=Decimal("0.50"),
        valor_urm=amostras.URM,
        valor_reais=amostras.reais(Decimal("0.50")),
        valor_por_extenso="oitenta e dois reais e trinta e sete centavos",
        fundamentacao="Sem o antecedente anulado, o caso é de infração primária.",
        secretario_nome="Maria Helena Duarte",
        secretario_cargo="Secretária Municipal de Serviços Urbanos",
        suspensao_anterior_dias=5,
        suspensao_dias=2,
        dispositivo="Art. 1º, VI",
        tipo="A",
        representante="Roberto Carlos Almeida",
        prazo_pagamento_dias=30,
        pagamento_instrucoes=amostras.PAGAMENTO,
        data_definitiva=date(2027, 1, 6),
    )
    return replace(dados, **mudancas)


def _retificacao(substancial: bool) -> DadosRetificacao:
    return DadosRetificacao(
        timbre=amostras.TIMBRE,
        numero="0002/2026",
        numero_auto="0001/2026",
        data_auto=date(2026, 11, 20),
        data=date(2026, 11, 25),
        operadora=amostras.OPERADORA,
        itens=ITENS,
        motivo="Erro de digitação do dispositivo, percebido na revisão do auto.",
        substancial=substancial,
        razao="A retificação altera o dispositivo." if substancial else "A retificação é só de forma.",
        dispositivo="Art. 1º, XVI",
        tipo="B",
        lavrado_por_nome="João Pedro Fiscal",
        lavrado_por_matricula="12345" if substancial else None,
        representante="Roberto Carlos Almeida",
        proxima_penalidade="Multa de 0,20 a 1,00 URM." if substancial else None,
        horario_expediente=amostras.HORARIO if substancial else "",
    )


def _intimacao_retificacao(entregue: bool) -> DadosIntimacaoRetificacao:
    intimacao = amostras.intimacao(
        dispositivo="Art. 1º, XVI",
        tipo="B",
        data_emissao=date(2026, 11, 25),
        data_intimacao=date(2026, 11, 26) if entregue else None,
        prazo_defesa=date(2026, 12, 11) if entregue else None,
    )
    return DadosIntimacaoRetificacao(
        intimacao=intimacao,
        numero_termo="0002/2026",
        data_termo=date(2026, 11, 25),
        itens=ITENS,
        motivo="Erro de digitação do dispositivo.",
        auto=amostras.auto(),
        prazo_anterior=date(2026, 12, 5) if entregue else None,
    )


def _processo_integral() -> bytes:
    foto = png(b"foto-1")
    pecas = (
        PecaProcesso(
            titulo="Auto de infração nº 0001/2026",
            data=date(2026, 11, 20),
            origem="documento emitido nº 1",
            formato="pdf",
            conteudo=(pdf := IntimacaoPdf().render(amostras.intimacao())),
            sha256=hashlib.sha256(pdf).hexdigest(),
        ),
        PecaProcesso(
            titulo="Registro da defesa",
            data=date(2026, 12, 1),
            origem="registro do sistema",
            formato="registro",
            campos=(("Recebida em", "01/12/2026"), ("Tempestiva", "sim")),
            texto="A empresa alega que o motorista estava de folga & <sem> uniforme.",
        ),
        PecaProcesso(
            titulo="Prova: foto-1.png",
            data=date(2026, 11, 20),
            origem="anexo nº 1",
            formato="imagem",
            conteudo=foto,
            sha256=hashlib.sha256(foto).hexdigest(),
            prova=True,
        ),
    )
    return montar_processo_integral(
        DadosProcessoIntegral(
            timbre=amostras.TIMBRE,
            numero_auto="0001/2026",
            operadora=amostras.OPERADORA.razao_social,
            cnpj=amostras.OPERADORA.cnpj,
            dispositivo="Art. 1º, VI",
            data_lavratura=date(2026, 11, 20),
            situacao="Em defesa",
            emitida_em=date(2026, 12, 2),
            pecas=pecas,
            linha_do_tempo=(EventoProcesso(date(2026, 11, 20), "Auto lavrado", "Pelo fiscal João Pedro."),),
        )
    )


DOCUMENTOS: dict[str, tuple[Callable[[], bytes], str]] = {
    "decisao_aplicada": (
        lambda: DecisaoPdf().render(amostras.decisao()),
        "96b847c1f8e7d238324612dc49065840d149bdafa79823bb6f86a2c2acaa3f3a",
    ),
    "decisao_arquivada": (
        lambda: DecisaoPdf().render(amostras.decisao_arquivada()),
        "9992b6f4ed5a412b7fd8ec391bc5d380c92e85db0a92c5cf0f9c4460ea533a2f",
    ),
    "julgamento_negado": (
        lambda: JulgamentoPdf().render(_julgamento(ResultadoJulgamento.NEGADO)),
        "d860c096cfd285589b3826d57803d4bf3c14576c83554969089f8395cbd7b6b6",
    ),
    "julgamento_parcial_pago_a_mais": (
        lambda: JulgamentoPdf().render(
            _julgamento(
                ResultadoJulgamento.PROVIDO_PARCIALMENTE,
                suspensao_dias=2,
                valor_pago=Decimal("82.37"),
            )
        ),
        "ccf15eb295139bca0f05358959fa54e695a6ce26c651d24e5d970254982c6305",
    ),
    "julgamento_provido_pago": (
        lambda: JulgamentoPdf().render(_julgamento(ResultadoJulgamento.PROVIDO, valor_pago=Decimal("82.37"))),
        "640ee0b8b1458bface960bce7395ad2d2f1a3f26f0de913a8e1ed9d04df11a73",
    ),
    "revisao_a_pagar": (
        lambda: TermoRevisaoPdf().render(_revisao()),
        "f0b7f8a95f108da3260a9e713f6e566c1a9fd546326ef104e9c3b63885ff69df",
    ),
    "revisao_a_restituir": (
        lambda: TermoRevisaoPdf().render(
            _revisao(valor_restituir=Decimal("82.37"), suspensao_dias=0, data_definitiva=None)
        ),
        "f8e1f248ac021ea76f8b08662e24bb273da4c0ce7e5e3b054f53fa3df582c27d",
    ),
    "intimacao": (
        lambda: IntimacaoPdf().render(amostras.intimacao()),
        "aa149b9d0bf181a7c8dafd61a02c3331c6c367c6bfb78ab1e561561ed95fba8c",
    ),
    "intimacao_do_termo": (
        lambda: IntimacaoRetificacaoPdf().render(_intimacao_retificacao(entregue=False)),
        "16cb3a97d55f9fe424bfe931f4d58ec5b5bcdfa0361aef7e573059bdc17c0b55",
    ),
    "intimacao_do_termo_entregue": (
        lambda: IntimacaoRetificacaoPdf().render(_intimacao_retificacao(entregue=True)),
        "e7c863c134e2741e0f7647e0f5e27ed47538c53732d5b002578b8ac8437ca8b9",
    ),
    "termo_retificacao_substancial": (
        lambda: TermoRetificacaoPdf().render(_retificacao(True)),
        "deda5fe48c450efaedea79658284dd5ac01789fc6dafb21ec18f30712ed0e8c7",
    ),
    "termo_retificacao_formal": (
        lambda: TermoRetificacaoPdf().render(_retificacao(False)),
        "e608d2d9561bbf7319aa08b1c5464baf213cae8055ef6fd9c3fa4004a43709e8",
    ),
    "processo_integral": (
        _processo_integral,
        "36e4ad03252997e2fe7edde50ecb59e8b69148b1d90a3c2dc67219cb095addb5",
    ),
}


@pytest.mark.parametrize("nome", sorted(DOCUMENTOS))
def test_documento_da_os_mesmos_bytes_de_antes_da_limpeza(nome: str) -> None:
    gerar, esperado = DOCUMENTOS[nome]
    assert hashlib.sha256(gerar()).hexdigest() == esperado
