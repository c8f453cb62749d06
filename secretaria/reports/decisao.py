"""The decision notice (arts. 7º, 13 and 15): what the Secretário decided, and how to appeal.

The fine is printed the way REGRAS § 2 computes it — URM amount × the URM value in force on the decision
date = R$, with the amount in words — so the operator can check the arithmetic on the paper itself.
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table

from secretaria.reports.dados import DadosDecisao, Resultado, Timbre
from secretaria.reports.formato import (
    formatar_data,
    formatar_decimal,
    formatar_reais,
    formatar_urm,
    inteiro_por_extenso,
)
from secretaria.reports.pdf_base import COR_FAIXA, DocumentoPdf, texto

__all__ = ["DecisaoPdf", "linha_multa", "linha_suspensao"]


def linha_multa(dados: DadosDecisao) -> str:
    """The fine as REGRAS § 2 computes it, so the operator can check it: "0,50 URM × R$ 164,74 = R$ 82,37 (...)"."""
    assert dados.multa_urm is not None and dados.valor_urm is not None and dados.valor_reais is not None
    return (
        f"{formatar_urm(dados.multa_urm)} × {formatar_reais(dados.valor_urm)} = "
        f"{formatar_reais(dados.valor_reais)} ({dados.valor_por_extenso})"
    )


def linha_suspensao(dados: DadosDecisao) -> str:
    """Days in figures and words, and the period once fixed ("5 (cinco) dias, de 01/02/2027 a 05/02/2027")."""
    assert dados.suspensao_dias is not None
    dias = dados.suspensao_dias
    texto_dias = f"{dias} ({inteiro_por_extenso(dias)}) dia{'s' if dias > 1 else ''}"
    if dados.suspensao_inicio is not None and dados.suspensao_fim is not None:
        return (
            f"{texto_dias}, de {formatar_data(dados.suspensao_inicio)} a {formatar_data(dados.suspensao_fim)}"
        )
    return f"{texto_dias}, com início na data em que a decisão se tornar definitiva"


class DecisaoPdf(DocumentoPdf[DadosDecisao]):
    """The notice of the Secretário's decision on an auto: penalty applied, or the auto dismissed."""

    TITULO = "Notificação de decisão"

    def timbre_de(self, dados: DadosDecisao) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosDecisao) -> tuple[date, time | None]:
        return dados.data_decisao, None

    def identificacao_de(self, dados: DadosDecisao) -> str:
        return f"Notificação de decisão – Auto de Infração nº {dados.numero_auto}"

    def historia(self, dados: DadosDecisao) -> list[Flowable]:
        timbre = dados.timbre
        operadora = dados.operadora
        aplicada = dados.resultado is Resultado.APLICADA
        f: list[Flowable] = self.cabecalho(
            "NOTIFICAÇÃO DE DECISÃO",
            f"Auto de Infração nº {dados.numero_auto} – Lei Municipal nº 2.413/1978, arts. 7º, 13 e 15",
        )
        f.append(self.secao("Autuada"))
        auto = f"nº {dados.numero_auto}, lavrado em {formatar_data(dados.data_auto)}"
        if dados.dispositivo:
            auto += f" – {texto(dados.dispositivo)}"
            if dados.tipo:
                auto += f" (infração do tipo {dados.tipo})"
        f.append(
            self.campos(
                [
                    ("Razão social", f"<b>{texto(operadora.razao_social)}</b>"),
                    ("CNPJ", texto(operadora.cnpj)),
                    ("Endereço", texto(operadora.endereco)),
                    ("Auto de infração", auto),
                ]
            )
        )

        f.append(self.secao("Decisão (art. 13)"))
        f.append(
            self.p(
                f"Em {formatar_data(dados.data_decisao)}, {self._artigo(timbre)} "
                f"{texto(timbre.secretario_cargo)}, no uso da competência que lhe confere o art. 13 da Lei "
                "Municipal nº 2.413/1978, examinados o auto de infração e a defesa, se apresentada, decidiu:",
                "Justificado",
            )
        )
        f.append(Spacer(1, 3 * mm))
        if aplicada:
            f.append(
                self.caixa([self.p("APLICAR PENALIDADE", "DestaqueCentro")], fundo=COR_FAIXA, espessura=1)
            )
            f.append(Spacer(1, 2 * mm))
            assert dados.multa_urm is not None and dados.valor_urm is not None
            pares = [
                ("Multa (art. 7º, I)", f"<b>{texto(linha_multa(dados))}</b>"),
                (
                    "Base de cálculo",
                    f"{formatar_decimal(dados.multa_urm)} URM multiplicado pelo valor da URM vigente em "
                    f"{formatar_data(dados.data_decisao)} ({formatar_reais(dados.valor_urm)}), arredondado ao "
                    "centavo",
                ),
            ]
            if dados.suspensao_dias is not None:
                pares.append(
                    (
                        "Suspensão (art. 7º, II)",
                        f"<b>{texto(linha_suspensao(dados))}</b>, cumulativa com a multa (art. 7º, § 8º)",
                    )
                )
            else:
                pares.append(("Suspensão", "não aplicada"))
            f.append(self.campos(pares, largura_rotulo=38 * mm))
        else:
            f.append(
                self.caixa(
                    [self.p("ARQUIVAR O AUTO DE INFRAÇÃO", "DestaqueCentro")], fundo=COR_FAIXA, espessura=1
                )
            )
            f.append(Spacer(1, 2 * mm))
            f.append(
                self.p(
                    f"O Auto de Infração nº {dados.numero_auto} é julgado insubsistente e arquivado, sem "
                    "aplicação de penalidade.",
                    "Justificado",
                )
            )

        f.append(self.secao("Fundamentação"))
        f.append(self.p(texto(dados.fundamentacao), "Justificado"))
        if aplicada:
            f.append(Spacer(1, 2 * mm))
            f.append(
                self.p(
                    "A aplicação da penalidade não desobriga a infratora do cumprimento da exigência que a "
                    "determinou (art. 8º da Lei Municipal nº 2.413/1978).",
                    "Nota",
                )
            )
            f.append(Spacer(1, 4 * mm))
            f.append(self.recurso(dados))

        f.append(
            KeepTogether(
                [
                    Spacer(1, 4 * mm),
                    self.local_e_data(timbre, dados.data_decisao),
                    self.assinaturas(
                        [[f"<b>{texto(timbre.secretario_nome)}</b>", texto(timbre.secretario_cargo)]],
                        altura_espaco=12 * mm,
                    ),
                ]
            )
        )
        f.append(Spacer(1, 6 * mm))
        f.append(
            self.caixa(
                [
                    self.p("<b>RECIBO</b> (art. 11 da Lei nº 2.413/1978)", "Pequeno"),
                    Spacer(1, 2 * mm),
                    self.p("Recebi a 1ª via desta notificação em ____/____/________.", "Valor"),
                    Spacer(1, 5 * mm),
                    self.p(
                        "Nome: _______________________________________________ "
                        "Documento: _________________________",
                        "Valor",
                    ),
                    Spacer(1, 5 * mm),
                    self.p("Assinatura: _____________________________________________", "Valor"),
                ]
            )
        )
        return f

    def recurso(self, dados: DadosDecisao) -> Table:
        """Art. 15: to whom and until when; the date only once the decision's intimação is recorded."""
        conteudo: list[Flowable] = [
            self.p("RECURSO (art. 15)", "DestaqueCentro"),
            Spacer(1, 1.5 * mm),
        ]
        if dados.prazo_recurso is not None and dados.data_intimacao_decisao is not None:
            conteudo.append(
                self.p(
                    f"Intimação da decisão em {formatar_data(dados.data_intimacao_decisao)} – recurso até "
                    f"<b>{formatar_data(dados.prazo_recurso)}</b>",
                    "DestaqueCentro",
                )
            )
            conteudo.append(Spacer(1, 1.5 * mm))
        conteudo.append(
            self.p(
                f"Desta decisão cabe recurso ao <b>{texto(dados.autoridade_recurso)}</b>, por petição protocolada "
                f"na {texto(dados.timbre.secretaria)}, no prazo de 15 (quinze) dias contados da data da intimação "
                "desta decisão; vencendo o prazo em dia sem expediente, prorroga-se para o primeiro dia útil "
                "seguinte.",
                "Justificado",
            )
        )
        conteudo.append(Spacer(1, 1.5 * mm))
        conteudo.append(self.p(f"Art. 15: “{texto(dados.texto_art15)}”", "Citacao"))
        return self.caixa(conteudo, fundo=COR_FAIXA, espessura=1.2)

    @staticmethod
    def _artigo(timbre: Timbre) -> str:
        """The article ("o Secretário", "a Secretária") follows the office as the letterhead spells it."""
        return "a" if timbre.secretario_cargo.split(" ", 1)[0].endswith("a") else "o"
