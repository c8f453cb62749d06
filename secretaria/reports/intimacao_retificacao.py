"""The intimação of a termo de retificação of substance (REGRAS § 5), with the corrected auto's copy.

After a correction of substance the operator defends itself against the auto as corrected, so what is
delivered is the termo's intimação: it names the termo and the auto as it now reads (provision, tipo,
facts), lists each item corrected (old → new), says that the deadline the auto's intimação had opened is
void, and states the new one only as "15 dias contados do recebimento desta intimação" — then the copy of
the corrected auto follows, so the notice and the copy it carries never contradict each other. The receipt
names the three papers delivered (art. 11).
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer, Table

from secretaria.reports.auto_infracao import AutoInfracaoPdf
from secretaria.reports.dados import DadosIntimacaoRetificacao, Timbre
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
from secretaria.reports.pdf_base import COR_FAIXA, DocumentoPdf, MarcaPagina, texto

__all__ = ["VIA_COPIA_RETIFICADA", "IntimacaoRetificacaoPdf"]

#: The corrected auto's copy delivered with the termo's intimação (alone, or in a batch of intimações).
VIA_COPIA_RETIFICADA = "CÓPIA DO AUTO<br/>RETIFICADO"


class IntimacaoRetificacaoPdf(DocumentoPdf[DadosIntimacaoRetificacao]):
    """The notice (usually one page), then the corrected auto's copy on its own pages."""

    TITULO = "Intimação de Termo de Retificação"

    def __init__(self) -> None:
        super().__init__()
        self._auto = AutoInfracaoPdf()

    def timbre_de(self, dados: DadosIntimacaoRetificacao) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosIntimacaoRetificacao) -> tuple[date, time | None]:
        return dados.intimacao.data_emissao, None

    def identificacao_de(self, dados: DadosIntimacaoRetificacao) -> str:
        return f"Intimação – Termo de Retificação nº {dados.numero_termo} – Auto de Infração nº {dados.numero_auto}"

    def historia(self, dados: DadosIntimacaoRetificacao) -> list[Flowable]:
        f: list[Flowable] = [MarcaPagina(self.identificacao_de(dados), grupo="intimacao")]
        f += self.corpo(dados)
        f.append(PageBreak())
        f.append(
            MarcaPagina(
                f"Auto de Infração nº {dados.numero_auto}, retificado pelo termo nº {dados.numero_termo} – cópia",
                grupo="copia",
            )
        )
        f += self._auto.via(dados.auto, VIA_COPIA_RETIFICADA)
        return f

    def corpo(self, dados: DadosIntimacaoRetificacao) -> list[Flowable]:
        """The notice's flowables (the batch places them among the other notices)."""
        self._auto._blocos = self._blocos
        i = dados.intimacao
        f: list[Flowable] = [
            self.p("INTIMAÇÃO DE TERMO DE RETIFICAÇÃO", "Titulo"),
            self.p(
                f"Termo de Retificação nº {dados.numero_termo} do Auto de Infração nº {dados.numero_auto} – "
                "Lei Municipal nº 2.413/1978, arts. 11 e 14",
                "Subtitulo",
            ),
            Spacer(1, 3 * mm),
            self.secao("Destinatária"),
            campos_da_parte(self, dados.operadora, i.representante, None),
            Spacer(1, 2 * mm),
        ]
        infracao = f"por infração ao {texto(i.dispositivo or '')}, da Lei Municipal nº 2.413/1978"
        if i.tipo:
            infracao += f" (infração do tipo {i.tipo})"
        f.append(
            self.p(
                f"Pela presente, fica a destinatária <b>INTIMADA</b> do <b>Termo de Retificação nº "
                f"{dados.numero_termo}</b>, de {formatar_data(dados.data_termo)}, que retificou o <b>Auto de "
                f"Infração nº {dados.numero_auto}</b>, lavrado em {formatar_data(i.data_auto)}. Retificado, "
                f"o auto passa a ser {infracao}, conforme a <b>cópia autêntica do auto retificado</b> que "
                "acompanha esta intimação, para, querendo, apresentar defesa sobre o auto tal como retificado "
                "(arts. 11 e 14 da Lei Municipal nº 2.413/1978).",
                "Justificado",
            )
        )
        f.append(Spacer(1, 2 * mm))
        f.append(self.p("<b>Itens retificados</b>", "Pequeno"))
        f.append(self.itens(dados))
        f.append(Spacer(1, 1.5 * mm))
        f.append(self.p(f"<b>Motivo:</b> {texto(dados.motivo)}", "Pequeno"))
        f.append(Spacer(1, 2 * mm))
        f.append(self.prazo(dados))
        f.append(Spacer(1, 2 * mm))
        f.append(self.secao("Onde e a quem apresentar a defesa (art. 14)"))
        timbre = i.timbre
        f += onde_e_como_defender(
            self,
            destinatario=i.destinatario_defesa,
            secretaria=timbre.secretaria,
            local=i.local_protocolo or f"{timbre.endereco} – {timbre.cidade}/{timbre.uf}",
            horario=i.horario_expediente.strip().rstrip(".") or "em dias úteis, no horário de expediente",
        )
        f.append(Spacer(1, 1.5 * mm))
        f.append(self.p(CONTAGEM, "Nota"))
        f.append(
            KeepTogether(
                [
                    Spacer(1, 1 * mm),
                    self.local_e_data(timbre, i.data_emissao),
                    self.assinaturas(
                        [[f"<b>{texto(timbre.secretario_nome)}</b>", texto(timbre.secretario_cargo)]],
                        altura_espaco=10 * mm,
                    ),
                    Spacer(1, 2 * mm),
                    self.recibo(dados),
                ]
            )
        )
        return f

    def prazo(self, dados: DadosIntimacaoRetificacao) -> Table:
        """The reopened deadline, boxed, counted from the receipt; the one the auto's intimação had opened
        is void (REGRAS § 5)."""
        i = dados.intimacao
        anterior = (
            f"O prazo aberto pela intimação do auto (que venceria em {formatar_data(dados.prazo_anterior)}) "
            "fica sem efeito: a retificação alterou a substância do auto."
            if dados.prazo_anterior is not None
            else "Qualquer prazo de defesa aberto antes deste termo fica sem efeito: a retificação alterou a "
            "substância do auto."
        )
        miolo = prazo_reaberto(self)
        if i.data_intimacao is not None and i.prazo_defesa is not None:
            miolo += [
                Spacer(1, 1 * mm),
                self.p(
                    f"Intimação recebida em {formatar_data(i.data_intimacao)}, conforme o recibo: defesa até "
                    f"<b>{formatar_data(i.prazo_defesa)}</b>.",
                    "Subtitulo",
                ),
            ]
        miolo += [Spacer(1, 1 * mm), self.p(anterior, "Subtitulo")]
        return self.caixa(miolo, fundo=COR_FAIXA, espessura=1.2)

    def itens(self, dados: DadosIntimacaoRetificacao) -> Table:
        """Item | onde se lia | leia-se, as the termo prints them."""
        return tabela_itens(self, dados.itens, "Celula")

    def recibo(self, dados: DadosIntimacaoRetificacao) -> Table:
        """Art. 11: valid once delivered against this receipt, which names every paper delivered."""
        return caixa_recibo(
            self,
            f"Recebi esta intimação, o Termo de Retificação nº {dados.numero_termo} e a cópia autêntica "
            f"do Auto de Infração nº {dados.numero_auto} retificado em ____/____/________.",
            titulo="<b>RECIBO DE INTIMAÇÃO</b> (art. 11 da Lei nº 2.413/1978)",
            espaco=3.5 * mm,
            ultima_linha=LINHA_CARGO_E_ASSINATURA,
        )
