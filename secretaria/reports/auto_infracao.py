"""The auto de infração (arts. 9º, I, 10 and 11 of Lei nº 2.413/1978), in two copies.

Art. 10 lists what an auto must contain; each item gets its own numbered section with the inciso in its
title, so anyone checking the paper against the law finds them in order. Art. 11 makes the delivery of a copy
against a receipt a valid intimação, so both copies (the operator's and the file's) carry the receipt block.
"""

from __future__ import annotations

from datetime import date, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer

from secretaria.reports.dados import DadosAuto, Timbre
from secretaria.reports.formato import formatar_data, formatar_hora
from secretaria.reports.pdf_base import DocumentoPdf, MarcaPagina, texto

__all__ = ["VIAS", "AutoInfracaoPdf"]

#: The two copies: (label in the box, footer label).
VIAS: tuple[tuple[str, str], ...] = (
    ("1ª VIA<br/>OPERADORA", "1ª via – operadora"),
    ("2ª VIA<br/>PROCESSO", "2ª via – processo"),
)


class AutoInfracaoPdf(DocumentoPdf[DadosAuto]):
    """Renders an auto as two copies, each starting on its own page."""

    TITULO = "Auto de Infração"

    def timbre_de(self, dados: DadosAuto) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosAuto) -> tuple[date, time | None]:
        return dados.data_lavratura, dados.hora_lavratura

    def identificacao_de(self, dados: DadosAuto) -> str:
        return f"Auto de Infração nº {dados.numero}"

    def historia(self, dados: DadosAuto) -> list[Flowable]:
        historia: list[Flowable] = []
        for indice, (via, rodape) in enumerate(VIAS):
            if indice:
                historia.append(PageBreak())
            # Each copy is its own paper: numbered on its own ("Página 1 de 1"), not as pages of one file.
            historia.append(
                MarcaPagina(f"Auto de Infração nº {dados.numero} – {rodape}", grupo=("via", indice))
            )
            historia += self.via(dados, via)
        return historia

    def via(self, dados: DadosAuto, via: str) -> list[Flowable]:
        """One complete copy; the copies differ only in their label."""
        f: list[Flowable] = self.cabecalho(
            f"AUTO DE INFRAÇÃO Nº {dados.numero}",
            "Lei Municipal nº 2.413, de 19 de maio de 1978 – arts. 9º, I, e 10",
            via=via,
        )
        if dados.representacao:
            f.append(
                self.p(
                    texto(
                        f"Lavrado a partir da representação {dados.representacao} (art. 12 da Lei nº 2.413/1978)."
                    ),
                    "Nota",
                )
            )

        # I – local, dia e hora
        f.append(self.secao("I – Local, dia e hora da lavratura (art. 10, I)"))
        pares = [
            ("Local", texto(dados.local)),
            (
                "Data e hora",
                f"{formatar_data(dados.data_lavratura)}, às {formatar_hora(dados.hora_lavratura)}",
            ),
        ]
        if dados.data_fato is not None:
            quando = formatar_data(dados.data_fato)
            if dados.hora_fato is not None:
                quando += f", às {formatar_hora(dados.hora_fato)}"
            pares.append(("Data e hora do fato", quando))
        f.append(self.campos(pares))

        # II – infrator e testemunhas
        f.append(self.secao("II – Infrator e testemunhas (art. 10, II)"))
        operadora = dados.operadora
        nome_operadora = f"<b>{texto(operadora.razao_social)}</b>"
        if operadora.nome_fantasia:
            nome_operadora += f" ({texto(operadora.nome_fantasia)})"
        pares = [
            ("Infratora", nome_operadora),
            ("CNPJ", texto(operadora.cnpj)),
            ("Endereço", texto(operadora.endereco)),
        ]
        empregado = dados.empregado
        if empregado is not None:
            partes = [
                texto(empregado.nome) if empregado.nome else "não identificado",
                texto(empregado.funcao),
            ]
            if empregado.cpf:
                partes.append(f"CPF {texto(empregado.cpf)}")
            if empregado.cadastro:
                partes.append(f"cadastro nº {texto(empregado.cadastro)}")
            pares.append(("Empregado/condutor", " – ".join(partes)))
        if dados.veiculo is not None:
            pares.append(
                ("Veículo", f"prefixo {texto(dados.veiculo.prefixo)} – placa {texto(dados.veiculo.placa)}")
            )
        if dados.linha is not None:
            pares.append(("Linha", f"{texto(dados.linha.codigo)} – {texto(dados.linha.nome)}"))
        if dados.testemunhas:
            linhas = []
            for numero, testemunha in enumerate(dados.testemunhas, 1):
                linha = f"{numero}. {texto(testemunha.nome)} – {texto(testemunha.documento)}"
                if testemunha.endereco:
                    linha += f" – {texto(testemunha.endereco)}"
                linhas.append(linha)
            pares.append(("Testemunhas", "<br/>".join(linhas)))
        else:
            pares.append(("Testemunhas", "não houve"))
        f.append(self.campos(pares))

        # III – fatos e circunstâncias
        f.append(self.secao("III – Descrição do fato e circunstâncias (art. 10, III)"))
        pares = [("Fato", texto(dados.descricao_fatos))]
        pares.append(
            (
                "Circunstâncias",
                texto(dados.circunstancias) if dados.circunstancias.strip() else "nada a registrar",
            )
        )
        f.append(self.campos(pares))

        # IV – dispositivo
        dispositivo = dados.dispositivo
        f.append(self.secao("IV – Dispositivo legal violado (art. 10, IV)"))
        bloco: list[Flowable] = [
            self.p(
                f"<b>{texto(dispositivo.rotulo)}, da Lei Municipal nº 2.413/1978 – infração do tipo "
                f"{texto(dispositivo.tipo)}</b>",
                "Valor",
            ),
            self.p(f"“{texto(dispositivo.texto)}”", "Citacao"),
        ]
        if dispositivo.nota:
            bloco.append(self.p(f"Nota: {texto(dispositivo.nota)}", "Nota"))
        f.append(KeepTogether(bloco))

        # V – próxima penalidade, kept on the page of the signatures: they never stand alone on a page
        fim: list[Flowable] = [
            self.secao("V – Próxima penalidade a ser aplicada (art. 10, V)"),
            self.p(texto(dados.proxima_penalidade), "Valor"),
            self.p(
                "Prazo para defesa: 15 (quinze) dias, contados da intimação, por petição contra recibo "
                "dirigida ao Secretário Municipal de Serviços Urbanos (art. 14).",
                "Nota",
            ),
        ]

        # assinaturas
        fiscal = dados.fiscal
        autuado = ["Autuado ou preposto"]
        fim += [Spacer(1, 2 * mm), self.local_e_data(dados.timbre, dados.data_lavratura)]
        if dados.recusou_assinar:
            autuado.append("<i>recusou-se a assinar</i>")
            fim.append(
                self.p(
                    "<b>Recusa de assinatura:</b> a pessoa presente recusou-se a assinar este auto, o que o "
                    "fiscal registra para os devidos fins.",
                    "Pequeno",
                )
            )
        fim.append(
            self.assinaturas(
                [
                    [f"<b>{texto(fiscal.nome)}</b>", f"Fiscal da SMSU – matrícula {texto(fiscal.matricula)}"],
                    autuado,
                ],
                altura_espaco=10 * mm,
            )
        )
        # Art. 10, II names the witnesses; each signs the auto too.
        testemunhas = list(dados.testemunhas)
        for inicio in range(0, len(testemunhas), 2):
            fim.append(
                self.assinaturas(
                    [
                        [f"<b>{texto(t.nome)}</b>", f"Testemunha – {texto(t.documento)}"]
                        for t in testemunhas[inicio : inicio + 2]
                    ],
                    altura_espaco=9 * mm,
                )
            )
        f.append(KeepTogether(fim))

        # recibo do art. 11
        f.append(Spacer(1, 4 * mm))
        f.append(self.recibo())
        return f

    def recibo(self) -> Flowable:
        """Art. 11's receipt: delivering the copy against it is a valid intimação."""
        return self.caixa(
            [
                self.p("<b>RECIBO DA 1ª VIA</b> (art. 11 da Lei nº 2.413/1978)", "Pequeno"),
                Spacer(1, 2.5 * mm),
                self.p(
                    "Recebi a 1ª via em ____/____/________.&nbsp;&nbsp;&nbsp;Nome: "
                    "______________________________________________",
                    "Valor",
                ),
                Spacer(1, 5 * mm),
                self.p(
                    "Documento: _____________________________&nbsp;&nbsp;&nbsp;Assinatura: "
                    "______________________________________",
                    "Valor",
                ),
            ]
        )
