"""The notificação do julgamento do recurso (art. 15; REGRAS § 5), notified like the decision.

It says what the Prefeito decided on the appeal and why. Where a penalty remains (appeal denied, or granted
in part) it states that penalty with its arithmetic in plain digits — URM amount × the URM value of the
decision day (REGRAS § 2) = R$, with the amount in words — and the payment deadline, counted from the day
the penalty became final (the judgment, in last instance: art. 7º, caput), where and how to pay, and
dívida ativa. Where the appeal annulled the penalty, it says that nothing is due (and that an amount already
paid is refunded). The decision notice delivered before stays as it was; this paper is what changed it.
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from secretaria.reports.dados import DadosJulgamento, ResultadoJulgamento, Timbre
from secretaria.reports.formato import (
    dias_por_extenso,
    formatar_data,
    formatar_reais,
    formatar_urm,
    formatar_valor_urm,
)
from secretaria.reports.notificacao import caixa_recibo, linha_multa_urm, notificada, pagamento
from secretaria.reports.pdf_base import COR_FAIXA, DocumentoPdf, texto

__all__ = ["ROTULOS_JULGAMENTO", "JulgamentoPdf", "linha_multa_julgamento"]

ROTULOS_JULGAMENTO = {
    ResultadoJulgamento.NEGADO: "RECURSO NÃO PROVIDO – PENALIDADE MANTIDA",
    ResultadoJulgamento.PROVIDO: "RECURSO PROVIDO – PENALIDADE ANULADA",
    ResultadoJulgamento.PROVIDO_PARCIALMENTE: "RECURSO PROVIDO EM PARTE – PENALIDADE REDUZIDA",
}


def linha_multa_julgamento(dados: DadosJulgamento) -> str:
    """ "0,35 URM × R$ 164,7400 = R$ 57,66 (cinquenta e sete reais e sessenta e seis centavos)"."""
    assert dados.multa_urm is not None and dados.valor_urm is not None and dados.valor_reais is not None
    assert dados.valor_por_extenso is not None
    return linha_multa_urm(dados.multa_urm, dados.valor_urm, dados.valor_reais, dados.valor_por_extenso)


class JulgamentoPdf(DocumentoPdf[DadosJulgamento]):
    """One notice: the outcome boxed, the penalty that remains (or that none does), reasons, receipt."""

    TITULO = "Notificação do julgamento do recurso"

    def timbre_de(self, dados: DadosJulgamento) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosJulgamento) -> tuple[date, time | None]:
        return dados.data_julgamento, None

    def identificacao_de(self, dados: DadosJulgamento) -> str:
        return f"Julgamento do recurso – Auto de Infração nº {dados.numero_auto}"

    def historia(self, dados: DadosJulgamento) -> list[Flowable]:
        timbre = dados.timbre
        f: list[Flowable] = self.cabecalho(
            "NOTIFICAÇÃO DO JULGAMENTO DO RECURSO",
            f"Auto de Infração nº {dados.numero_auto} – Lei Municipal nº 2.413/1978, arts. 7º e 15",
        )
        f += notificada(self, dados)
        f.append(self.secao("Recurso (art. 15)"))
        aplicada = formatar_urm(dados.multa_decisao_urm)
        if dados.suspensao_decisao_dias:
            aplicada += f" e suspensão de {dias_por_extenso(dados.suspensao_decisao_dias)}"
        tempo = "tempestivo" if dados.recurso_tempestivo else "intempestivo"
        f.append(
            self.p(
                f"Da decisão de {formatar_data(dados.data_decisao)}, que aplicou multa de {aplicada}, a notificada "
                f"recorreu ao {texto(dados.autoridade)} em {formatar_data(dados.data_recurso)} (recurso {tempo}). "
                f"Em {formatar_data(dados.data_julgamento)}, o {texto(dados.autoridade)} julgou o recurso:",
                "Justificado",
            )
        )
        f.append(Spacer(1, 3 * mm))
        f.append(
            self.caixa(
                [self.p(ROTULOS_JULGAMENTO[dados.resultado], "DestaqueCentro")], fundo=COR_FAIXA, espessura=1
            )
        )
        f.append(Spacer(1, 2 * mm))
        if dados.resultado is ResultadoJulgamento.PROVIDO:
            f += self.anulada(dados)
        else:
            f += self.penalidade(dados)
        f.append(self.secao("Fundamentação do julgamento"))
        f.append(self.p(texto(dados.fundamentacao), "Justificado"))
        f.append(
            KeepTogether(
                [
                    Spacer(1, 4 * mm),
                    self.p(
                        "Esta decisão é de última instância administrativa (art. 15 da Lei Municipal "
                        "nº 2.413/1978).",
                        "Pequeno",
                    ),
                    self.local_e_data(timbre, dados.data_julgamento),
                    self.assinaturas(
                        [[f"<b>{texto(timbre.secretario_nome)}</b>", texto(timbre.secretario_cargo)]],
                        altura_espaco=12 * mm,
                    ),
                ]
            )
        )
        f.append(Spacer(1, 6 * mm))
        f.append(caixa_recibo(self, "Recebi a 1ª via desta notificação em ____/____/________."))
        return f

    def anulada(self, dados: DadosJulgamento) -> list[Flowable]:
        devolver = ""
        if dados.valor_pago is not None:
            devolver = (
                f" O valor já pago, {formatar_reais(dados.valor_pago)}, será restituído à notificada, que o "
                "requererá no protocolo."
            )
        return [
            self.p(
                f"A penalidade aplicada no Auto de Infração nº {dados.numero_auto} fica <b>anulada</b>: "
                f"<b>nada é devido</b> por este auto, nem multa nem suspensão, e não há o que pagar.{devolver}",
                "Justificado",
            )
        ]

    def penalidade(self, dados: DadosJulgamento) -> list[Flowable]:
        """The penalty that remains, as REGRAS § 2 computes it, and how and until when to pay it."""
        assert dados.multa_urm is not None and dados.valor_urm is not None
        assert dados.prazo_pagamento_dias is not None
        pares = [
            ("Multa (art. 7º, I)", f"<b>{texto(linha_multa_julgamento(dados))}</b>"),
            (
                "Base de cálculo",
                f"{formatar_urm(dados.multa_urm)} multiplicado pelo valor da URM vigente na data da decisão "
                f"({formatar_data(dados.data_decisao)}: {formatar_valor_urm(dados.valor_urm)}), arredondado ao "
                "centavo",
            ),
        ]
        if dados.suspensao_dias:
            pares.append(("Suspensão (art. 7º, II)", f"<b>{dias_por_extenso(dados.suspensao_dias)}</b>"))
        elif dados.suspensao_decisao_dias:
            pares.append(("Suspensão", "afastada no julgamento do recurso"))
        f: list[Flowable] = [self.campos(pares, largura_rotulo=38 * mm)]
        dias = dados.prazo_pagamento_dias
        definitiva = (
            f"{formatar_data(dados.data_definitiva)}, data em que a penalidade se tornou definitiva"
            if dados.data_definitiva is not None
            else "a data em que a penalidade se tornou definitiva"
        )
        f += pagamento(
            self,
            f"A multa deve ser paga <b>em até {dias_por_extenso(dias)} contados de {definitiva}</b> (julgamento do "
            "recurso em última instância; art. 7º, caput).",
            dados.pagamento_instrucoes,
        )
        if (
            dados.valor_pago is not None
            and dados.valor_reais is not None
            and dados.valor_pago > dados.valor_reais
        ):
            f.append(Spacer(1, 1.5 * mm))
            f.append(
                self.p(
                    f"Já foram pagos {formatar_reais(dados.valor_pago)}: a diferença de "
                    f"{formatar_reais(dados.valor_pago - dados.valor_reais)} será restituída à notificada.",
                    "Justificado",
                )
            )
        return f
