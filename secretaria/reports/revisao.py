"""The termo de revisão of a decided sanction (Lei 9.784/1999, art. 65; REGRAS § 5), notified like a decision.

A prior that the decided case counted as recidivism was later annulled or reduced, so the case was reviewed:
the termo says which prior and how, the level and range the case has today, the penalty before → after
(a revision never raises it: art. 65, parágrafo único), the revised fine with its arithmetic in plain
digits and in words, how to pay it, and an amount already paid beyond it, to be refunded.
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from secretaria.reports.dados import DadosRevisao, Timbre
from secretaria.reports.formato import (
    dias_por_extenso,
    formatar_data,
    formatar_decimal,
    formatar_reais,
    formatar_urm,
)
from secretaria.reports.notificacao import DIVIDA_ATIVA, caixa_recibo, linha_multa_urm, notificada, onde_pagar
from secretaria.reports.pdf_base import COR_FAIXA, DocumentoPdf, texto

__all__ = ["TermoRevisaoPdf"]


def _nivel(n: int) -> str:
    return "infração primária (nível 0)" if n == 0 else f"{n}ª reincidência (nível {n})"


class TermoRevisaoPdf(DocumentoPdf[DadosRevisao]):
    """One termo: why, today's range, before → after, payment, refund, reasons, signature, receipt."""

    TITULO = "Termo de revisão de sanção"

    def timbre_de(self, dados: DadosRevisao) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosRevisao) -> tuple[date, time | None]:
        return dados.data, None

    def identificacao_de(self, dados: DadosRevisao) -> str:
        return f"Termo de Revisão nº {dados.numero} – Auto de Infração nº {dados.numero_auto}"

    def historia(self, dados: DadosRevisao) -> list[Flowable]:
        f: list[Flowable] = self.cabecalho(
            f"TERMO DE REVISÃO Nº {dados.numero}",
            f"Revisão da sanção do Auto de Infração nº {dados.numero_auto} – Lei federal nº 9.784/1999, art. 65",
        )
        f += notificada(self, dados)
        f.append(self.secao("Motivo da revisão (art. 65)"))
        f.append(
            self.p(
                f"{texto(dados.origem)} A decisão de {formatar_data(dados.data_decisao)} contou-o como "
                f"antecedente: {_nivel(dados.reincidencia_anterior)}. Hoje, sem ele, o caso é "
                f"<b>{_nivel(dados.reincidencia_atual)}</b>, com multa cabível de "
                f"<b>{formatar_decimal(dados.faixa[0])} a {formatar_urm(dados.faixa[1])}</b> (art. 7º, §§ 1º a 3º)."
                + (f" {texto(dados.julgamento)}" if dados.julgamento else ""),
                "Justificado",
            )
        )
        f.append(Spacer(1, 3 * mm))
        f.append(self.caixa([self.p("PENALIDADE REVISTA", "DestaqueCentro")], fundo=COR_FAIXA, espessura=1))
        f.append(Spacer(1, 2 * mm))
        pares = [
            ("Multa antes da revisão", formatar_urm(dados.multa_anterior_urm)),
            (
                "Multa revista (art. 7º, I)",
                "<b>"
                + linha_multa_urm(
                    dados.multa_urm, dados.valor_urm, dados.valor_reais, texto(dados.valor_por_extenso)
                )
                + "</b>",
            ),
            (
                "Base de cálculo",
                f"o valor da URM vigente na data da decisão ({formatar_data(dados.data_decisao)}), arredondado "
                "ao centavo",
            ),
        ]
        if dados.suspensao_anterior_dias:
            depois = dias_por_extenso(dados.suspensao_dias) if dados.suspensao_dias else "afastada"
            pares.append(
                ("Suspensão", f"{dias_por_extenso(dados.suspensao_anterior_dias)} → <b>{depois}</b>")
            )
        f.append(self.campos(pares, largura_rotulo=40 * mm))
        f.append(Spacer(1, 1.5 * mm))
        f.append(
            self.p(
                "A revisão não agrava a sanção (Lei federal nº 9.784/1999, art. 65, parágrafo único).",
                "Pequeno",
            )
        )
        if dados.valor_restituir is not None:
            f.append(Spacer(1, 2 * mm))
            f.append(
                self.p(
                    f"A multa já paga excede o valor revisto: <b>{formatar_reais(dados.valor_restituir)} a "
                    "restituir</b> à notificada, que o requererá no protocolo.",
                    "Justificado",
                )
            )
        elif dados.prazo_pagamento_dias is not None:
            dias = dados.prazo_pagamento_dias
            definitiva = (
                f"{formatar_data(dados.data_definitiva)}, data em que a penalidade se tornou definitiva"
                if dados.data_definitiva is not None
                else "a data em que a penalidade se tornar definitiva"
            )
            f += [
                self.secao("Pagamento da multa"),
                self.p(
                    f"A multa revista deve ser paga <b>em até {dias_por_extenso(dias)} contados de {definitiva}</b>. "
                    + onde_pagar(dados.pagamento_instrucoes),
                    "Justificado",
                ),
                Spacer(1, 1.5 * mm),
                self.p(DIVIDA_ATIVA, "Justificado"),
            ]
        f.append(self.secao("Fundamentação"))
        f.append(self.p(texto(dados.fundamentacao), "Justificado"))
        f.append(
            KeepTogether(
                [
                    Spacer(1, 4 * mm),
                    self.local_e_data(dados.timbre, dados.data),
                    self.assinaturas(
                        [[f"<b>{texto(dados.secretario_nome)}</b>", texto(dados.secretario_cargo)]],
                        altura_espaco=12 * mm,
                    ),
                    Spacer(1, 4 * mm),
                    caixa_recibo(
                        self,
                        f"Recebi a 1ª via deste Termo de Revisão nº {dados.numero} em ____/____/________.",
                        espaco=4 * mm,
                    ),
                ]
            )
        )
        return f
