"""The bench's part "assinatura": signing 1,000 intimações with an A1 certificate.

Two ways the office signs them: each intimação its own signed PDF (1,000 signatures, as when every notice is
issued on its own), and the batch of 1,000 in one PDF signed once (`documento intimacoes`). No database is
needed: the notices are the sample data of the tests (tests/helpers/amostras_documentos.py), the certificate
comes from the tests' CA (tests/helpers/ca_teste.py, RSA 2048 like an ICP-Brasil A1), and the plain way
beside each figure is the same PDFs unsigned.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime

from bench.medidas import Resultado, cronometrar, falha

QUANTIDADE = 1000


def medir_assinatura(nome_banco: str, quantidade: int = QUANTIDADE) -> list[Resultado]:
    medida_uma = f"Assinar {quantidade:,} intimações (um PDF assinado cada)".replace(",", ".")
    medida_lote = f"Assinar o lote de {quantidade:,} intimações (um PDF)".replace(",", ".")
    try:
        from secretaria.reports.intimacao import IntimacaoPdf, LoteIntimacoesPdf
        from secretaria.services.assinatura import assinar_pdf, carregar_a1
        from tests.helpers import amostras_documentos, ca_teste
    except ImportError as exc:
        return [falha(medida_uma, nome_banco, exc), falha(medida_lote, nome_banco, exc)]
    certificado = carregar_a1(ca_teste.p12(), ca_teste.SENHA)
    momento = datetime(2026, 11, 30, 10, 0)
    intimacao = amostras_documentos.intimacao()
    pdf = IntimacaoPdf().render(intimacao)
    assinar_pdf(pdf, certificado, motivo="aquecimento", identificador="0" * 64, momento=momento)

    def renderizar_todas() -> list[bytes]:
        return [IntimacaoPdf().render(intimacao) for _ in range(quantidade)]

    t_render, pdfs = cronometrar(renderizar_todas)
    cpu = time.process_time()
    t_assinar, assinados = cronometrar(
        lambda: [
            assinar_pdf(p, certificado, motivo="Intimação", identificador="0" * 64, momento=momento)
            for p in pdfs
        ]
    )
    cpu = time.process_time() - cpu
    extra = sum(len(a) - len(p) for a, p in zip(assinados, pdfs, strict=True)) / quantidade
    resultados = [
        Resultado(
            medida_uma,
            nome_banco,
            t_render + t_assinar,
            t_render,
            "as mesmas intimações sem assinatura",
            None,
            nota=f"assinaturas {t_assinar:.2f} s (CPU {cpu:.2f} s, {t_assinar / quantidade * 1000:.1f} ms cada); "
            f"+{extra / 1024:.1f} KB por PDF",
        )
    ]
    lote = amostras_documentos.lote(quantidade)
    lote = dataclasses.replace(lote, intimacoes=lote.intimacoes[:quantidade])
    t_lote, pdf_lote = cronometrar(lambda: LoteIntimacoesPdf().render(lote))
    t_assinar_lote, assinado = cronometrar(
        lambda: assinar_pdf(pdf_lote, certificado, motivo="Lote", identificador="0" * 64, momento=momento)
    )
    resultados.append(
        Resultado(
            medida_lote,
            nome_banco,
            t_lote + t_assinar_lote,
            t_lote,
            "o mesmo lote sem assinatura",
            6.0,
            nota=f"assinatura {t_assinar_lote:.2f} s sobre um PDF de {len(pdf_lote) / 1e6:.1f} MB "
            f"(+{(len(assinado) - len(pdf_lote)) / 1024:.1f} KB)",
        )
    )
    return resultados
