"""The operator's record ("ficha"): registry data and every case, with penalties, suspensions and payments.

A long record runs over several pages; the case table repeats its header on each, so a page read alone still
says what its columns are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, time
from decimal import Decimal
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from secretaria.codigos import ROTULOS_CURTOS_PAGAMENTO, SituacaoPagamento
from secretaria.reports.dados import DadosFicha, LinhaFichaCaso, Timbre
from secretaria.reports.formato import formatar_data, formatar_decimal, formatar_reais
from secretaria.reports.pdf_base import COR_FAIXA, COR_TEXTO, COR_ZEBRA, DocumentoPdf, texto
from secretaria.reports.tabela_longa import ParagrafoCelula, TabelaLonga

__all__ = ["FichaOperadoraPdf"]


EM_ABERTO = ROTULOS_CURTOS_PAGAMENTO[SituacaoPagamento.ABERTO]
DIVIDA_ATIVA = ROTULOS_CURTOS_PAGAMENTO[SituacaoPagamento.DIVIDA_ATIVA]
"""The payment column's words (as `services.documentos.dados_ficha` fills it) for an open fine and one
inscribed in dívida ativa."""


def _inteiro(numero: int) -> str:
    """ "1.234", a count as the reader writes it."""
    return formatar_decimal(Decimal(numero), 0)


def _dias(numero: int) -> str:
    return f"{_inteiro(numero)} dia" if numero == 1 else f"{_inteiro(numero)} dias"


class FichaOperadoraPdf(DocumentoPdf[DadosFicha]):
    """Registry data, a summary line, and the table of cases."""

    TITULO = "Ficha da operadora"
    CABECALHO_CASOS: tuple[str, ...] = (
        "Auto",
        "Data",
        "Dispositivo",
        "Tipo",
        "Situação",
        "Multa (URM)",
        "Multa (R$)",
        "Suspensão",
        "Pagamento",
    )
    LARGURAS_CASOS: tuple[float, ...] = (
        16 * mm,
        16 * mm,
        20 * mm,
        8 * mm,
        24 * mm,
        15 * mm,
        19 * mm,
        26 * mm,
        28 * mm,
    )
    #: Columns aligned right (numbers).
    COLUNAS_NUMERICAS: frozenset[int] = frozenset({5, 6})

    def timbre_de(self, dados: DadosFicha) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosFicha) -> tuple[date, time | None]:
        return dados.emitida_em, None

    def identificacao_de(self, dados: DadosFicha) -> str:
        return f"Ficha da operadora – CNPJ {dados.operadora.cnpj}"

    def __init__(self) -> None:
        super().__init__()
        self._celulas: dict[tuple[str, str, str], Paragraph] = {}

    def historia(self, dados: DadosFicha) -> list[Flowable]:
        self._celulas = {}
        operadora = dados.operadora
        f: list[Flowable] = self.cabecalho(
            "FICHA DA OPERADORA",
            f"Emitida em {formatar_data(dados.emitida_em)} – Lei Municipal nº 2.413/1978",
        )
        f.append(self.secao("Dados cadastrais"))
        pares = [
            ("Razão social", f"<b>{texto(operadora.razao_social)}</b>"),
            ("Nome fantasia", texto(operadora.nome_fantasia) if operadora.nome_fantasia else "—"),
            ("CNPJ", texto(operadora.cnpj)),
            ("Modalidade", texto(dados.modalidade)),
            ("Endereço", texto(operadora.endereco)),
        ]
        contato = " – ".join(texto(c) for c in (dados.telefone, dados.email) if c)
        if contato:
            pares.append(("Contato", contato))
        representante = texto(dados.representante_nome) if dados.representante_nome else "—"
        if dados.representante_cpf:
            representante += f" – CPF {texto(dados.representante_cpf)}"
        pares.append(("Representante legal", representante))
        if dados.contrato_numero:
            contrato = f"nº {texto(dados.contrato_numero)}"
            if dados.contrato_inicio:
                contrato += f", de {formatar_data(dados.contrato_inicio)}"
            if dados.contrato_fim:
                contrato += f" a {formatar_data(dados.contrato_fim)}"
            pares.append(("Contrato/permissão", contrato))
        frota = []
        if dados.veiculos is not None:
            frota.append(f"{dados.veiculos} veículo(s)")
        if dados.linhas is not None:
            frota.append(f"{dados.linhas} linha(s)")
        if frota:
            pares.append(("Frota e linhas", ", ".join(frota)))
        pares.append(("Situação", f"<b>{texto(dados.situacao)}</b>"))
        for cassacao in dados.cassacoes:
            if cassacao.em_curso:
                pares.append(
                    (
                        "Cassação (art. 16)",
                        f"<b>em curso</b> – instaurada em {formatar_data(cassacao.instaurada_em)}, "
                        f"{texto(cassacao.situacao.lower())}",
                    )
                )
        f.append(self.campos(pares))
        if dados.cassacoes:
            f.append(self.secao(f"Cassação (art. 16) ({len(dados.cassacoes)})"))
            for cassacao in dados.cassacoes:
                estado = texto(cassacao.situacao)
                if cassacao.resultado:
                    estado += f" – {texto(cassacao.resultado)}"
                    if cassacao.decidida_em:
                        estado += f" em {formatar_data(cassacao.decidida_em)}"
                f.append(
                    self.p(
                        f"<b>Instaurada em {formatar_data(cassacao.instaurada_em)}</b> – {estado}. "
                        f"Motivo: {texto(cassacao.motivo)}",
                        "Pequeno",
                    )
                )
        # In the order they are served: started ones by their first day, those not started yet after them.
        suspensoes = sorted(
            (c for c in dados.casos if c.suspensao_dias),
            key=lambda c: (c.suspensao_inicio is None, c.suspensao_inicio or c.data, c.data, c.numero),
        )
        if suspensoes:
            f.append(self.secao(f"Suspensões (art. 7º, II) ({len(suspensoes)})"))
            f.append(self.tabela_suspensoes(suspensoes))

        f.append(self.secao("Resumo"))
        f.append(self.campos(self.resumo(dados.casos)))

        f.append(self.secao(f"Processos ({len(dados.casos)})"))
        if dados.casos:
            f.append(self.tabela_casos(dados.casos))
        else:
            f.append(self.p("Nenhum auto de infração registrado para esta operadora.", "Valor"))
        f.append(Spacer(1, 4 * mm))
        f.append(
            self.p(
                "Multa em R$ calculada pelo valor da URM vigente na data de cada decisão (art. 7º, I). "
                "Situação conforme registros da Secretaria na data de emissão.",
                "Nota",
            )
        )
        return f

    def resumo(self, lista: Sequence[LinhaFichaCaso]) -> list[tuple[str, str]]:
        """Totals a reader would otherwise add up by hand: fines applied (as they stand), paid, open, in
        dívida ativa (no longer the Secretaria's to collect, so not "em aberto"); suspension days."""
        multas = [c.multa_reais for c in lista if c.multa_reais is not None]
        pagas = [c.multa_reais for c in lista if c.multa_reais is not None and c.data_pagamento is not None]
        divida = [c.multa_reais for c in lista if c.multa_reais is not None and c.pagamento == DIVIDA_ATIVA]
        abertas = [c.multa_reais for c in lista if c.multa_reais is not None and c.pagamento == EM_ABERTO]
        total = sum(multas, Decimal(0))
        suspensoes = [c.suspensao_dias for c in lista if c.suspensao_dias]
        return [
            ("Autos", _inteiro(len(lista))),
            ("Multas aplicadas", f"{_inteiro(len(multas))} – {formatar_reais(total)}"),
            ("Multas pagas", f"{_inteiro(len(pagas))} – {formatar_reais(sum(pagas, Decimal(0)))}"),
            ("Em aberto", f"{_inteiro(len(abertas))} – {formatar_reais(sum(abertas, Decimal(0)))}"),
            ("Em dívida ativa", f"{_inteiro(len(divida))} – {formatar_reais(sum(divida, Decimal(0)))}"),
            (
                "Suspensões",
                f"{len(suspensoes)} ({_dias(sum(suspensoes))} no total)" if suspensoes else "nenhuma",
            ),
        ]

    def tabela_suspensoes(self, lista: Sequence[LinhaFichaCaso]) -> Flowable:
        """Each suspension on its own row: the auto, start, end and days (or that it has not started)."""
        cabecalho = [
            self.celula(c, "CelulaCabecalho", "suspensoes.cabecalho")
            for c in ("Auto", "Início", "Fim", "Dias", "Situação do processo")
        ]
        linhas: list[list[object]] = []
        for caso in lista:
            assert caso.suspensao_dias is not None
            inicio = formatar_data(caso.suspensao_inicio) if caso.suspensao_inicio else "a iniciar"
            fim = formatar_data(caso.suspensao_fim) if caso.suspensao_fim else "—"
            linhas.append(
                [
                    caso.numero,
                    inicio,
                    fim,
                    str(caso.suspensao_dias),
                    self.celula(texto(caso.situacao), "Celula", "suspensoes.situacao"),
                ]
            )
        larguras = [22 * mm, 24 * mm, 24 * mm, 14 * mm]
        return self.tabela(
            cabecalho,
            linhas,
            [*larguras, self.largura_util - sum(larguras)],
            [
                ("GRID", (0, 0), (-1, -1), 0.4, COR_TEXTO),
                ("BACKGROUND", (0, 0), (-1, 0), COR_FAIXA),
                ("FONTSIZE", (0, 1), (3, -1), 7.5),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (3, 1), (3, -1), "RIGHT"),
            ],
        )

    def tabela_casos(self, lista: Sequence[LinhaFichaCaso]) -> Flowable:
        # The header repeats on every page: a cell paragraph is laid out and drawn once, then written again.
        cabecalho = [self.celula(c, "CelulaCabecalho", "cabecalho") for c in self.CABECALHO_CASOS]
        linhas: list[list[object]] = []
        celula = self.celula
        for caso in lista:
            suspensao = "—"
            if caso.suspensao_dias:
                suspensao = _dias(caso.suspensao_dias)
                if caso.suspensao_inicio and caso.suspensao_fim:
                    suspensao += (
                        f": {formatar_data(caso.suspensao_inicio)} a {formatar_data(caso.suspensao_fim)}"
                    )
            pagamento = texto(caso.pagamento)
            if caso.data_pagamento is not None:
                pagamento += f" em {formatar_data(caso.data_pagamento)}"
            linhas.append(
                [
                    celula(texto(caso.numero), "Celula", "auto"),
                    celula(formatar_data(caso.data), "Celula", "data"),
                    celula(texto(caso.dispositivo), "Celula", "dispositivo"),
                    celula(texto(caso.tipo), "Celula", "tipo"),
                    celula(texto(caso.situacao), "Celula", "situacao"),
                    celula(
                        formatar_decimal(caso.multa_urm) if caso.multa_urm is not None else "—",
                        "CelulaDireita",
                        "multa_urm",
                    ),
                    celula(
                        formatar_reais(caso.multa_reais) if caso.multa_reais is not None else "—",
                        "CelulaDireita",
                        "multa_reais",
                    ),
                    celula(suspensao, "Celula", "suspensao"),
                    celula(pagamento, "Celula", "pagamento"),
                ]
            )
        estilo = [
            ("GRID", (0, 0), (-1, -1), 0.3, COR_TEXTO),
            ("BACKGROUND", (0, 0), (-1, 0), COR_FAIXA),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        # Zebra: every other case (table rows 2, 4, ... under the header), as the eye follows a long row.
        return self.tabela(
            cabecalho,
            linhas,
            list(self.LARGURAS_CASOS),
            estilo,
            lambda indice: COR_ZEBRA if indice % 2 == 1 else None,
        )

    def esquecer_historia(self) -> None:
        super().esquecer_historia()
        self._celulas = {}

    # ---- cells and tables: overridable so a test can compare with ReportLab's plain Table ------------
    def celula(self, conteudo: str, estilo: str, coluna: str = "") -> Paragraph:
        """A cell of markup. Equal cells of a column (the same words, the same style, the same `coluna`) share
        one paragraph, laid out once: most of a ficha's cells repeat ("Decidido", "Art. 1º, VI", "—"). Never
        across columns: a paragraph keeps the layout of one width, and "—" shared by two columns of different
        widths was laid out and drawn again at every cell of the 4,587 rows without a fine."""
        chave = (conteudo, estilo, coluna)
        paragrafo = self._celulas.get(chave)
        if paragrafo is None:
            paragrafo = ParagrafoCelula.de_texto(conteudo, self.estilos[estilo])
            self._celulas[chave] = paragrafo
        return paragrafo

    def tabela(
        self,
        cabecalho: Sequence[object],
        linhas: Sequence[Sequence[object]],
        larguras: Sequence[float],
        estilo: Sequence[tuple[Any, ...]],
        fundo_linha: Callable[[int], object | None] = lambda _i: None,
    ) -> Flowable:
        """`Table([cabecalho, *linhas], repeatRows=1)` with `estilo` and row backgrounds, laid out by windows
        of rows (`TabelaLonga`): the same pages in time proportional to the rows."""
        return TabelaLonga(cabecalho, linhas, larguras, estilo, fundo_linha)
