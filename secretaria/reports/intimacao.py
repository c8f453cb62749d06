"""The intimação of an auto (arts. 11 and 14), and the batch of a period's intimações with its delivery list.

The notice answers the operator's questions in the words of art. 14 and of Lei federal 9.784/1999, art. 26
§ 1º (REGRAS § 5): until when ("15 dias contados do recebimento desta intimação" — never a date computed
from a planned delivery day, which the real delivery would contradict), to whom (the Secretário Municipal
de Serviços Urbanos), how (a petition, against a receipt), where and in which office hours, that the
operator may act through a representative and that the case goes on without a defence. Its receipt block
is art. 11's proof that the intimação was made.
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer, Table, TableStyle

from secretaria.reports.dados import DadosIntimacao, DadosIntimacaoRetificacao, DadosLoteIntimacao, Timbre
from secretaria.reports.formato import formatar_data, formatar_decimal
from secretaria.reports.intimacao_retificacao import VIA_COPIA_RETIFICADA, IntimacaoRetificacaoPdf
from secretaria.reports.notificacao import CONTAGEM, campos_da_parte, onde_e_como_defender
from secretaria.reports.pdf_base import (
    COR_FAIXA,
    COR_TEXTO,
    COR_ZEBRA,
    FONTE,
    DocumentoPdf,
    MarcaPagina,
    texto,
)

__all__ = ["IntimacaoPdf", "LoteIntimacoesPdf"]


class IntimacaoPdf(DocumentoPdf[DadosIntimacao]):
    """One intimação, one page."""

    TITULO = "Intimação de Auto de Infração"

    def timbre_de(self, dados: DadosIntimacao) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosIntimacao) -> tuple[date, time | None]:
        return dados.data_emissao, None

    def identificacao_de(self, dados: DadosIntimacao) -> str:
        return f"Intimação – Auto de Infração nº {dados.numero_auto}"

    def historia(self, dados: DadosIntimacao) -> list[Flowable]:
        return self.corpo(dados)

    def corpo(self, dados: DadosIntimacao) -> list[Flowable]:
        """The notice's flowables; the batch places them one per page."""
        # What is the same on every notice is laid out once per file (see BlocoFixo).
        f: list[Flowable] = [
            self.bloco_fixo("titulo", lambda: [self.p("INTIMAÇÃO", "Titulo")]),
            self.p(
                f"Auto de Infração nº {dados.numero_auto} – Lei Municipal nº 2.413/1978, arts. 11 e 14",
                "Subtitulo",
            ),
            Spacer(1, 3 * mm),
            self.bloco_fixo("destinataria", lambda: [self.secao("Destinatária")]),
        ]
        f.append(
            campos_da_parte(
                self, dados.operadora, dados.representante, f"Auto de Infração nº {dados.numero_auto}"
            )
        )
        infracao = ""
        if dados.dispositivo:
            infracao = f", por infração ao {texto(dados.dispositivo)}, da Lei Municipal nº 2.413/1978"
            if dados.tipo:
                infracao += f" (infração do tipo {dados.tipo})"
        f.append(Spacer(1, 3 * mm))
        f.append(
            self.p(
                f"Pela presente, fica a destinatária <b>INTIMADA</b> do <b>Auto de Infração nº "
                f"{dados.numero_auto}</b>, lavrado em {formatar_data(dados.data_auto)}{infracao}, cuja cópia "
                "autêntica acompanha esta intimação, para, querendo, apresentar defesa no prazo abaixo "
                "(arts. 11 e 14 da Lei Municipal nº 2.413/1978).",
                "Justificado",
            )
        )
        f.append(Spacer(1, 4 * mm))
        f.append(self.prazo(dados))
        f.append(Spacer(1, 2 * mm))
        f.append(self.onde_apresentar(dados))
        f.append(self.assinatura(dados))
        f.append(Spacer(1, 6 * mm))
        f.append(self.bloco_fixo("recibo", self.recibo))
        return f

    def prazo(self, dados: DadosIntimacao) -> Flowable:
        """The deadline, boxed: the one thing the operator must not miss, counted from the receipt."""

        def conteudo() -> list[Flowable]:
            miolo: list[Flowable] = [
                self.p("PRAZO PARA DEFESA", "DestaqueCentro"),
                Spacer(1, 1.5 * mm),
                self.p("15 (quinze) dias contados do recebimento desta intimação", "DestaqueCentro"),
            ]
            if dados.data_intimacao is not None and dados.prazo_defesa is not None:
                miolo += [
                    Spacer(1, 1 * mm),
                    self.p(
                        f"Intimação recebida em {formatar_data(dados.data_intimacao)}, conforme o recibo: "
                        f"defesa até <b>{formatar_data(dados.prazo_defesa)}</b>.",
                        "Subtitulo",
                    ),
                ]
            return [self.caixa(miolo, fundo=COR_FAIXA, espessura=1.2)]

        return self.bloco_fixo(f"prazo|{dados.data_intimacao}|{dados.prazo_defesa}", conteudo)

    def onde_apresentar(self, dados: DadosIntimacao) -> Flowable:
        """Art. 14 and art. 26 § 1º: a petition, against a receipt, to the Secretário; where, in which hours;
        through a representative; the case goes on without it; and how the days are counted."""
        timbre = dados.timbre
        local = dados.local_protocolo or f"{timbre.endereco} – {timbre.cidade}/{timbre.uf}"
        horario = dados.horario_expediente.strip().rstrip(".") or "em dias úteis, no horário de expediente"

        def conteudo() -> list[Flowable]:
            return [
                self.secao("Onde e a quem apresentar a defesa (art. 14)"),
                *onde_e_como_defender(
                    self,
                    destinatario=dados.destinatario_defesa,
                    secretaria=timbre.secretaria,
                    local=local,
                    horario=horario,
                ),
                Spacer(1, 2 * mm),
                self.p(f"Art. 14 da Lei Municipal nº 2.413/1978: “{texto(dados.texto_art14)}”", "Citacao"),
                Spacer(1, 2 * mm),
                self.p(CONTAGEM, "Nota"),
            ]

        chave = f"onde|{dados.destinatario_defesa}|{timbre.secretaria}|{local}|{horario}|{dados.texto_art14}"
        return self.bloco_fixo(chave, conteudo)

    def assinatura(self, dados: DadosIntimacao) -> Flowable:
        timbre = dados.timbre

        def conteudo() -> list[Flowable]:
            return [
                Spacer(1, 4 * mm),
                self.local_e_data(timbre, dados.data_emissao),
                self.assinaturas(
                    [[f"<b>{texto(timbre.secretario_nome)}</b>", texto(timbre.secretario_cargo)]],
                    altura_espaco=12 * mm,
                ),
            ]

        chave = f"assinatura|{timbre.cidade}|{dados.data_emissao}|{timbre.secretario_nome}|{timbre.secretario_cargo}"
        return self.bloco_fixo(chave, conteudo)

    def recibo(self) -> list[Flowable]:
        """Art. 11: the intimação is valid once delivered against this receipt."""
        return [
            self.caixa(
                [
                    self.p("<b>RECIBO DE INTIMAÇÃO</b> (art. 11 da Lei nº 2.413/1978)", "Pequeno"),
                    Spacer(1, 2 * mm),
                    self.p(
                        "Recebi esta intimação e a cópia autêntica do auto de infração nela indicado "
                        "em ____/____/________.",
                        "Valor",
                    ),
                    Spacer(1, 5 * mm),
                    self.p(
                        "Nome: _______________________________________________ "
                        "Documento: _________________________",
                        "Valor",
                    ),
                    Spacer(1, 5 * mm),
                    self.p(
                        "Cargo/função: ______________________________ "
                        "Assinatura: _____________________________________",
                        "Valor",
                    ),
                ]
            )
        ]


class LoteIntimacoesPdf(DocumentoPdf[DadosLoteIntimacao]):
    """All intimações of a period, one per page, then the delivery list the messenger has signed.

    Each notice is numbered on its own ("Página 1 de 1"): it leaves the building as a separate paper. The
    letterhead is one form XObject for the whole file, which is what keeps a thousand notices fast.
    """

    TITULO = "Lote de intimações"
    #: Column widths of the delivery list (nº, auto, operadora, endereço, recebido por, data, assinatura).
    LARGURAS_LISTA: tuple[float, ...] = (7 * mm, 17 * mm, 32 * mm, 38 * mm, 30 * mm, 18 * mm, 30 * mm)
    ALTURA_LINHA_LISTA = 13 * mm

    def __init__(self) -> None:
        super().__init__()
        self._intimacao = IntimacaoPdf()

    def timbre_de(self, dados: DadosLoteIntimacao) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosLoteIntimacao) -> tuple[date, time | None]:
        return dados.emitido_em, None

    def identificacao_de(self, dados: DadosLoteIntimacao) -> str:
        return f"Intimações de {formatar_data(dados.periodo_inicio)} a {formatar_data(dados.periodo_fim)}"

    def historia(self, dados: DadosLoteIntimacao) -> list[Flowable]:
        self._intimacao._blocos = self._blocos
        termo = IntimacaoRetificacaoPdf()
        termo._blocos = self._blocos
        f: list[Flowable] = []
        for indice, intimacao in enumerate(dados.intimacoes):
            if indice:
                f.append(PageBreak())
            if isinstance(intimacao, DadosIntimacaoRetificacao):
                # After a correction of substance the termo is notified, with the corrected auto's copy.
                f.append(MarcaPagina(termo.identificacao_de(intimacao), grupo=("intimacao", indice)))
                f += termo.corpo(intimacao)
                f.append(PageBreak())
                f.append(
                    MarcaPagina(
                        f"Auto de Infração nº {intimacao.numero_auto}, retificado pelo termo nº "
                        f"{intimacao.numero_termo} – cópia",
                        grupo=("copia", indice),
                    )
                )
                f += termo._auto.via(intimacao.auto, VIA_COPIA_RETIFICADA)
                continue
            f.append(MarcaPagina(self._intimacao.identificacao_de(intimacao), grupo=("intimacao", indice)))
            f += self._intimacao.corpo(intimacao)
        if f:
            f.append(PageBreak())
        f.append(MarcaPagina(f"Relação de entrega – {self.identificacao_de(dados)}", grupo="relacao"))
        f += self.relacao(dados)
        return f

    def relacao(self, dados: DadosLoteIntimacao) -> list[Flowable]:
        """The delivery list: one row per notice, with room for who received it, when, and a signature."""
        f: list[Flowable] = self.cabecalho(
            "RELAÇÃO DE ENTREGA DE INTIMAÇÕES",
            f"Período de {formatar_data(dados.periodo_inicio)} a {formatar_data(dados.periodo_fim)} – "
            f"{formatar_decimal(len(dados.intimacoes), 0)} {'intimação' if len(dados.intimacoes) == 1 else 'intimações'} – art. 11 da Lei Municipal nº 2.413/1978",
        )
        cabecalho = ["Nº", "Auto", "Operadora", "Endereço", "Recebido por", "Data", "Assinatura"]
        linhas: list[list[object]] = [[self.p(c, "CelulaCabecalho") for c in cabecalho]]
        for ordem, intimacao in enumerate(dados.intimacoes, 1):
            linhas.append(
                [
                    str(ordem),  # short fixed texts: plain cells, no paragraph to lay out
                    self.p(f"{intimacao.numero_auto}<br/>TR {intimacao.numero_termo}", "Celula")
                    if isinstance(intimacao, DadosIntimacaoRetificacao)
                    else intimacao.numero_auto,
                    self.p(texto(intimacao.operadora.razao_social), "Celula"),
                    self.p(texto(intimacao.operadora.endereco), "Celula"),
                    "",
                    "",
                    "",
                ]
            )
        # The declaration and the signature are the table's last row (spanning every column, without grid),
        # kept with the last notices' rows (NOSPLIT): when the page ends, those rows go over with it, under
        # the repeated header — the declaration never stands alone on a page ("as intimações acima").
        declaracao = [
            Spacer(1, 6 * mm),
            self.p(
                "Declaro que entreguei as intimações acima, com a cópia autêntica dos respectivos autos"
                + (
                    " (retificados, com o termo de retificação, onde indicado “TR”)"
                    if any(isinstance(i, DadosIntimacaoRetificacao) for i in dados.intimacoes)
                    else ""
                )
                + ", às pessoas indicadas, nas datas anotadas.",
                "Pequeno",
            ),
            self.local_e_data(dados.timbre, dados.emitido_em),
            self.assinaturas([["Responsável pela entrega", "Nome e matrícula: ____________________"]]),
        ]
        linhas.append([declaracao, "", "", "", "", "", ""])
        n = len(dados.intimacoes)
        alturas = [None] + [self.ALTURA_LINHA_LISTA] * n + [None]
        tabela = Table(linhas, colWidths=list(self.LARGURAS_LISTA), rowHeights=alturas, repeatRows=1)
        estilo = [
            ("GRID", (0, 0), (-1, n), 0.4, COR_TEXTO),
            ("BACKGROUND", (0, 0), (-1, 0), COR_FAIXA),
            ("VALIGN", (0, 0), (-1, 0), "MIDDLE"),
            ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("FONTNAME", (0, 1), (1, -1), FONTE),
            ("FONTSIZE", (0, 1), (1, -1), 7.5),
            ("SPAN", (0, -1), (-1, -1)),
            ("LEFTPADDING", (0, -1), (-1, -1), 0),
            ("RIGHTPADDING", (0, -1), (-1, -1), 0),
            ("NOSPLIT", (0, max(1, n - 1)), (-1, -1)),
        ]
        estilo += [("BACKGROUND", (0, i), (-1, i), COR_ZEBRA) for i in range(2, n + 1, 2)]
        tabela.setStyle(TableStyle(estilo))
        f.append(tabela)
        return f
