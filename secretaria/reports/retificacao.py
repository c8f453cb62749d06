"""The termo de retificação of an auto (REGRAS § 5), which is also its intimação.

It says which auto it corrects, each item as it read and as it reads now, why, and whether the correction
reopens the defence: a correction of substance does, for "15 (quinze) dias contados do recebimento desta
intimação" (never a date: the real delivery is what counts), with where, to whom and in which hours the
defence is filed, and restates the next penalty (art. 10, V) for the corrected provision and day; a formal
one says that nothing reopens. The inspector who drew it up signs; the receipt block proves the intimação
(art. 11).
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table

from secretaria.reports.dados import DadosRetificacao, Timbre
from secretaria.reports.formato import formatar_data
from secretaria.reports.notificacao import (
    CONTAGEM,
    LINHA_CARGO_E_ASSINATURA,
    caixa_recibo,
    campos_da_parte,
    onde_e_como_defender,
    prazo_reaberto,
    tabela_itens,
)
from secretaria.reports.pdf_base import COR_FAIXA, DocumentoPdf, texto

__all__ = ["TermoRetificacaoPdf"]


class TermoRetificacaoPdf(DocumentoPdf[DadosRetificacao]):
    """One termo; usually one page, the receipt kept whole on the last."""

    TITULO = "Termo de Retificação"

    def timbre_de(self, dados: DadosRetificacao) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosRetificacao) -> tuple[date, time | None]:
        return dados.data, None

    def identificacao_de(self, dados: DadosRetificacao) -> str:
        return f"Termo de Retificação nº {dados.numero} – Auto de Infração nº {dados.numero_auto}"

    def historia(self, dados: DadosRetificacao) -> list[Flowable]:
        f: list[Flowable] = self.cabecalho(
            f"TERMO DE RETIFICAÇÃO Nº {dados.numero}",
            f"Retifica o Auto de Infração nº {dados.numero_auto}, lavrado em {formatar_data(dados.data_auto)} – "
            "Lei Municipal nº 2.413/1978, arts. 10 e 11",
        )
        f.append(self.secao("Autuada"))
        f.append(
            campos_da_parte(
                self, dados.operadora, dados.representante, f"Auto de Infração nº {dados.numero_auto}"
            )
        )
        f.append(Spacer(1, 3 * mm))
        f.append(
            self.p(
                f"Pelo presente termo, lavrado em {formatar_data(dados.data)}, fica retificado o <b>Auto de "
                f"Infração nº {dados.numero_auto}</b> nos itens abaixo. O auto não é substituído: vale no que "
                "não foi retificado, e a sua redação original permanece no processo.",
                "Justificado",
            )
        )
        f.append(self.secao("Itens retificados"))
        f.append(self.itens(dados))
        f.append(self.secao("Motivo da retificação"))
        f.append(self.p(texto(dados.motivo), "Justificado"))
        f.append(self.secao("Natureza da retificação e prazo de defesa"))
        f.append(self.p(texto(dados.razao), "Justificado"))
        if dados.substancial:
            f += self.defesa(dados)
        else:
            f.append(Spacer(1, 2 * mm))
            f.append(
                self.p(
                    "Fica a autuada cientificada deste termo. O prazo de defesa do auto segue contado da "
                    "intimação do auto, sem reabertura nem alteração.",
                    "Justificado",
                )
            )
        f.append(
            KeepTogether(
                [
                    Spacer(1, 4 * mm),
                    self.local_e_data(dados.timbre, dados.data),
                    self.assinaturas(
                        [
                            [
                                f"<b>{texto(dados.lavrado_por_nome)}</b>",
                                f"Fiscal da SMSU – matrícula {texto(dados.lavrado_por_matricula)}"
                                if dados.lavrado_por_matricula
                                else "Fiscal da SMSU – matrícula: ____________",
                                "lavrou o termo",
                            ]
                        ],
                        altura_espaco=12 * mm,
                    ),
                    Spacer(1, 6 * mm),
                    self.recibo(dados),
                ]
            )
        )
        return f

    def itens(self, dados: DadosRetificacao) -> Table:
        """Item | onde se lia | leia-se: the correction, old → new, one row per item."""
        return tabela_itens(self, dados.itens, "Valor")

    def defesa(self, dados: DadosRetificacao) -> list[Flowable]:
        """A correction of substance: the intimação, the reopened deadline boxed, where and how to defend."""
        timbre = dados.timbre
        horario = dados.horario_expediente.strip().rstrip(".")
        local = f"{timbre.endereco} – {timbre.cidade}/{timbre.uf}"
        f: list[Flowable] = [
            Spacer(1, 2 * mm),
            self.p(
                f"Fica a autuada <b>INTIMADA</b> deste termo, acompanhado de cópia autêntica do auto retificado, "
                f"para, querendo, apresentar defesa sobre o auto tal como retificado ({texto(dados.dispositivo)}, "
                f"infração do tipo {dados.tipo}), no prazo abaixo (arts. 11 e 14 da Lei Municipal nº 2.413/1978).",
                "Justificado",
            ),
            Spacer(1, 3 * mm),
            self.caixa(
                prazo_reaberto(self),
                fundo=COR_FAIXA,
                espessura=1.2,
            ),
            Spacer(1, 2 * mm),
            *onde_e_como_defender(
                self,
                destinatario=dados.destinatario_defesa,
                secretaria=timbre.secretaria,
                local=local,
                horario=horario,
            ),
            Spacer(1, 1.5 * mm),
            self.p(CONTAGEM, "Nota"),
        ]
        if dados.proxima_penalidade:
            f += [
                self.secao("Próxima penalidade a ser aplicada (art. 10, V), conforme a retificação"),
                self.p(texto(dados.proxima_penalidade), "Justificado"),
            ]
        return f

    def recibo(self, dados: DadosRetificacao) -> Table:
        """Art. 11: the termo is notified once delivered against this receipt."""
        copia = " e a cópia autêntica do auto retificado" if dados.substancial else ""
        return caixa_recibo(
            self,
            f"Recebi este Termo de Retificação nº {dados.numero}{copia} em ____/____/________.",
            ultima_linha=LINHA_CARGO_E_ASSINATURA,
        )
