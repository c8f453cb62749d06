"""The decision notice (arts. 7º, 13 and 15): what the Secretário decided, how to pay, and how to appeal.

The fine is printed the way REGRAS § 2 computes it — URM amount × the URM value in force on the decision
date (with all its decimals) = R$, with the amount in words — and the range the way § 3 computes it, in
plain digits ("× 16 (2 elevado a 4, …)"), so every product on the paper is true as printed and the
operator can check it. REGRAS § 5 lists what else it says: who is notified, the payment deadline, where
and how to pay, dívida ativa, the appeal.
"""

from __future__ import annotations

from datetime import date, time
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table

from secretaria.reports.dados import DadosDecisao, Resultado, Timbre
from secretaria.reports.formato import (
    dias_por_extenso,
    formatar_data,
    formatar_decimal,
    formatar_valor_urm,
)
from secretaria.reports.notificacao import caixa_recibo, linha_multa_urm, notificada, pagamento
from secretaria.reports.pdf_base import COR_FAIXA, DocumentoPdf, texto

__all__ = ["REPRESENTACAO_RECURSO", "DecisaoPdf", "linha_faixa", "linha_multa", "linha_suspensao"]

REPRESENTACAO_RECURSO = (
    "A notificada pode agir pessoalmente, por seu representante legal ou por procurador constituído, "
    "juntando o instrumento de mandato (Lei federal nº 9.784/1999, art. 26, § 1º, IV)."
)


def _milhar(numero: int) -> str:
    return formatar_decimal(Decimal(numero), 0)


def linha_multa(dados: DadosDecisao) -> str:
    """The fine as REGRAS § 2 computes it: "10,00 URM × R$ 157,6459 = R$ 1.576,46 (...)"."""
    assert dados.multa_urm is not None and dados.valor_urm is not None and dados.valor_reais is not None
    assert dados.valor_por_extenso is not None
    return linha_multa_urm(dados.multa_urm, dados.valor_urm, dados.valor_reais, dados.valor_por_extenso)


def linha_faixa(dados: DadosDecisao) -> str | None:
    """The range as § 3 computes it, in plain digits:
    "(1,00 a 2,00 URM) × 16 (2 elevado a 4, reincidência de nível 4) = 16,00 a 32,00 URM; ..."."""
    if dados.faixa is None or dados.faixa_base is None or dados.reincidencia is None:
        return None
    n = dados.reincidencia
    (base_min, base_max), (faixa_min, faixa_max) = dados.faixa_base, dados.faixa
    base = f"{formatar_decimal(base_min)} a {formatar_decimal(base_max)} URM"
    if n == 0:
        return f"{base} (primeira penalidade do tipo {dados.tipo}, art. 7º, § 1º)" if dados.tipo else base
    dobro = 2**n
    motivo = "em dobro, reincidência de nível 1" if n == 1 else f"2 elevado a {n}, reincidência de nível {n}"
    texto = (
        f"({base}) × {_milhar(dobro)} ({motivo}, art. 7º, § 2º) = "
        f"{formatar_decimal(base_min * dobro)} a {formatar_decimal(base_max * dobro)} URM"
    )
    if (faixa_min, faixa_max) != (base_min * dobro, base_max * dobro):
        texto += (
            f"; cada extremo limitado a {formatar_decimal(dados.teto_urm)} URM (art. 7º, I): "
            f"{formatar_decimal(faixa_min)} a {formatar_decimal(faixa_max)} URM"
        )
    return texto


def linha_suspensao(dados: DadosDecisao) -> str:
    """Days in figures and words, and the period once fixed ("5 (cinco) dias, de 01/02/2027 a 05/02/2027")."""
    assert dados.suspensao_dias is not None
    texto_dias = dias_por_extenso(dados.suspensao_dias)
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
        aplicada = dados.resultado is Resultado.APLICADA
        nome = dados.secretario_nome or timbre.secretario_nome
        cargo = dados.secretario_cargo or timbre.secretario_cargo
        f: list[Flowable] = self.cabecalho(
            "NOTIFICAÇÃO DE DECISÃO",
            f"Auto de Infração nº {dados.numero_auto} – Lei Municipal nº 2.413/1978, arts. 7º, 13 e 15",
        )
        f += notificada(self, dados)

        f += self.instrucao(dados)
        f.append(self.secao("Decisão (art. 13)"))
        examinados = "o auto de infração, a defesa" if dados.defesa_recebida_em else "o auto de infração"
        if dados.proposta_em is not None:
            examinados += " e a proposta da autoridade competente"
        f.append(
            self.p(
                f"Em {formatar_data(dados.data_decisao)}, {self._artigo(cargo)} {texto(cargo)}, "
                f"{texto(nome)}, no uso da competência que lhe confere o art. 13 da Lei Municipal "
                f"nº 2.413/1978, examinados {examinados}, decidiu:",
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
            pares = []
            faixa = linha_faixa(dados)
            if faixa is not None:
                pares.append(("Faixa da multa (art. 7º, §§ 1º a 3º)", texto(faixa)))
            pares += [
                ("Multa (art. 7º, I)", f"<b>{texto(linha_multa(dados))}</b>"),
                (
                    "Base de cálculo",
                    f"{formatar_decimal(dados.multa_urm)} URM multiplicado pelo valor da URM vigente em "
                    f"{formatar_data(dados.data_decisao)} ({formatar_valor_urm(dados.valor_urm)}), "
                    "arredondado ao centavo",
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
            f += self.pagamento(dados)
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

        f.append(
            self.secao("Fundamentação: fatos e fundamentos jurídicos (Lei federal nº 9.784/1999, art. 50)")
        )
        f.append(self.p(texto(dados.fundamentacao), "Justificado"))
        if dados.fundamentos_legais:
            f.append(Spacer(1, 2 * mm))
            f.append(self.p("<b>Fundamentos legais da penalidade</b>", "Pequeno"))
            for numero, linha in enumerate(dados.fundamentos_legais, 1):
                f.append(self.p(f"{numero}. {texto(linha)}", "Pequeno"))
        if aplicada:
            f.append(Spacer(1, 4 * mm))
            f.append(self.recurso(dados))

        # The signature never stands alone on a page: it goes with the text block before it (the appeal box,
        # or the last paragraph of the grounds), so whoever reads the signed page reads what was decided.
        ultimo = [f.pop()]
        f.append(
            KeepTogether(
                [
                    *ultimo,
                    Spacer(1, 4 * mm),
                    self.local_e_data(timbre, dados.data_decisao),
                    self.assinaturas([[f"<b>{texto(nome)}</b>", texto(cargo)]], altura_espaco=12 * mm),
                ]
            )
        )
        f.append(Spacer(1, 6 * mm))
        f.append(caixa_recibo(self, "Recebi a 1ª via desta notificação em ____/____/________."))
        return f

    def instrucao(self, dados: DadosDecisao) -> list[Flowable]:
        """Lei 9.784/1999, art. 26 § 1º and art. 50 (REGRAS § 5): the facts as the auto states them (as
        corrected), the defence (the day received and whether timely, or that none was filed) and the
        proposal (who, when, art. 13)."""
        if not dados.fatos and dados.defesa_recebida_em is None and dados.proposta_em is None:
            return []  # an older notice's data (tests of the renderer alone)
        pares: list[tuple[str, str]] = []
        if dados.fatos:
            rotulo = "Fatos (art. 10, III)"
            fatos = texto(dados.fatos)
            if dados.data_fato is not None:
                fatos = f"Em {formatar_data(dados.data_fato)}: {fatos}"
            if dados.retificado_por:
                fatos += f" <i>(conforme o auto retificado pelo {texto(dados.retificado_por)})</i>"
            pares.append((rotulo, fatos))
        if dados.defesa_recebida_em is not None:
            tempo = (
                "<b>tempestiva</b> (no prazo do art. 14)"
                if dados.defesa_tempestiva
                else "<b>intempestiva</b> (apresentada após o prazo do art. 14; ainda assim examinada)"
            )
            pares.append(
                ("Defesa (art. 14)", f"recebida em {formatar_data(dados.defesa_recebida_em)}, {tempo}")
            )
        else:
            pares.append(("Defesa (art. 14)", "não foi apresentada defesa"))
        if dados.proposta_em is not None:
            pares.append(
                (
                    "Proposta (art. 13)",
                    f"{texto(dados.proposta_texto)}, proposta pela autoridade competente, "
                    f"{texto(dados.proposta_por)}, em {formatar_data(dados.proposta_em)}",
                )
            )
        return [self.secao("Instrução do processo"), self.campos(pares, largura_rotulo=38 * mm)]

    def pagamento(self, dados: DadosDecisao) -> list[Flowable]:
        """REGRAS § 5: the payment deadline, where and how to pay, dívida ativa; art. 8º, said once."""
        assert dados.prazo_pagamento_dias is not None
        dias = dados.prazo_pagamento_dias
        prazo = (
            f"A multa deve ser paga <b>em até {dias_por_extenso(dias)} contados da data em que a penalidade se "
            "tornar definitiva</b>: o dia seguinte ao fim do prazo de recurso sem recurso tempestivo, ou o dia "
            f"em que o {texto(dados.autoridade_recurso)} julgar o recurso (art. 7º, caput: a penalidade é "
            "aplicada após a decisão em última instância)."
        )
        return pagamento(self, prazo, dados.pagamento_instrucoes)

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
        timbre = dados.timbre
        local = dados.local_protocolo or f"{timbre.endereco} – {timbre.cidade}/{timbre.uf}"
        horario = dados.horario_expediente.strip().rstrip(".")
        onde = f"na {texto(timbre.secretaria)}"
        if horario:
            onde += f", {texto(local)}, <b>{texto(horario)}</b>"
        conteudo.append(
            self.p(
                f"Desta decisão cabe recurso ao <b>{texto(dados.autoridade_recurso)}</b>, por petição protocolada "
                f"{onde}, no prazo de 15 (quinze) dias contados da data da intimação "
                "desta decisão; vencendo o prazo em dia sem expediente, prorroga-se para o primeiro dia útil "
                "seguinte.",
                "Justificado",
            )
        )
        if horario:
            conteudo.append(Spacer(1, 1.5 * mm))
            conteudo.append(self.p(REPRESENTACAO_RECURSO, "Justificado"))
        conteudo.append(Spacer(1, 1.5 * mm))
        conteudo.append(self.p(f"Art. 15: “{texto(dados.texto_art15)}”", "Citacao"))
        return self.caixa(conteudo, fundo=COR_FAIXA, espessura=1.2)

    @staticmethod
    def _artigo(cargo: str) -> str:
        """The article ("o Secretário", "a Secretária") follows the office as it is spelt."""
        return "a" if cargo.split(" ", 1)[0].endswith("a") else "o"
