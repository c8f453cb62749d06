"""The parts the notices share, given one home so a change of wording reaches every notice at once.

The decision, the judgment, the revisão, the intimações and the termo de retificação each name the notified
operator, end with an art. 11 receipt and (those that charge a fine) say how and until when to pay it, in
the same words; a notice's own wording stays in its module. Each function takes the document being built
(`doc`) for its paragraph styles.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from secretaria.reports.dados import DadosOperadora, ItemRetificado
from secretaria.reports.formato import formatar_data, formatar_reais, formatar_urm, formatar_valor_urm
from secretaria.reports.pdf_base import COR_FAIXA, COR_TEXTO, Campos, DocumentoPdf, texto

__all__ = [
    "CONTAGEM",
    "DIVIDA_ATIVA",
    "LARGURAS_ITENS",
    "LINHA_ASSINATURA",
    "LINHA_CARGO_E_ASSINATURA",
    "LINHA_NOME",
    "AutoNotificado",
    "caixa_recibo",
    "campos_da_parte",
    "descricao_do_auto",
    "linha_multa_urm",
    "notificada",
    "onde_e_como_defender",
    "onde_pagar",
    "pagamento",
    "prazo_reaberto",
    "tabela_itens",
]

#: Columns of a termo de retificação's items table (item, as it read, as it reads now), on the termo and on
#: its intimação alike, so the two papers show the correction the same way.
LARGURAS_ITENS: tuple[float, ...] = (34 * mm, 69 * mm, 69 * mm)
DIVIDA_ATIVA = "A multa não paga no prazo será <b>inscrita em dívida ativa</b> do Município, para cobrança."
LINHA_NOME = "Nome: _______________________________________________ Documento: _________________________"
LINHA_ASSINATURA = "Assinatura: _____________________________________________"
LINHA_CARGO_E_ASSINATURA = (
    "Cargo/função: ______________________________ Assinatura: _____________________________________"
)

CONTAGEM = (
    "Contagem do prazo: exclui-se o dia do recebimento e inclui-se o do vencimento; se este cair em sábado, "
    "domingo, feriado ou dia sem expediente, o prazo termina no primeiro dia útil seguinte (Lei federal "
    "nº 9.784/1999, art. 66)."
)
REPRESENTACAO = (
    "A destinatária pode apresentar a defesa por seu representante legal ou por procurador constituído, "
    "juntando o instrumento de mandato (Lei federal nº 9.784/1999, art. 26, § 1º, IV)."
)
REVELIA = (
    "Não apresentada a defesa no prazo, o processo prosseguirá e será decidido independentemente dela "
    "(Lei federal nº 9.784/1999, art. 26, § 1º, V)."
)


def onde_e_como_defender(
    doc: DocumentoPdf[Any], *, destinatario: str, secretaria: str, local: str, horario: str
) -> list[Flowable]:
    """Art. 14 and Lei 9.784/1999 art. 26 § 1º IV–V, as every notice that opens a defence deadline says
    them: a petition against a receipt, to whom, where and in which hours; through a representative; and
    that the case goes on without a defence."""
    return [
        doc.p(
            f"A defesa será apresentada por <b>petição, contra recibo</b>, dirigida ao <b>"
            f"{texto(destinatario)}</b>, no protocolo da {texto(secretaria)}: "
            f"{texto(local)}, <b>{texto(horario)}</b>.",
            "Justificado",
        ),
        Spacer(1, 1.5 * mm),
        doc.p(REPRESENTACAO, "Justificado"),
        Spacer(1, 1.5 * mm),
        doc.p(REVELIA, "Justificado"),
    ]


def descricao_do_auto(numero: str, data_auto: date, dispositivo: str | None, tipo: str | None) -> str:
    """ "nº 0001/2026, lavrado em 20/11/2026 – Art. 1º, VI (infração do tipo A)", markup-safe."""
    auto = f"nº {numero}, lavrado em {formatar_data(data_auto)}"
    if dispositivo:
        auto += f" – {texto(dispositivo)}"
        if tipo:
            auto += f" (infração do tipo {tipo})"
    return auto


def campos_da_parte(
    doc: DocumentoPdf[Any], operadora: DadosOperadora, representante: str | None, processo: str | None
) -> Campos:
    """Who is notified (art. 11): name, CNPJ, address, legal representative, and the case when given."""
    pares = [
        ("Razão social", f"<b>{texto(operadora.razao_social)}</b>"),
        ("CNPJ", texto(operadora.cnpj)),
        ("Endereço", texto(operadora.endereco)),
        ("Representante legal", texto(representante) if representante else "—"),
    ]
    if processo is not None:
        pares.append(("Processo", processo))
    return doc.campos(pares)


class AutoNotificado(Protocol):
    """What a notice that follows a decided auto knows of it and of the notified operator."""

    @property
    def operadora(self) -> DadosOperadora: ...
    @property
    def representante(self) -> str | None: ...
    @property
    def numero_auto(self) -> str: ...
    @property
    def data_auto(self) -> date: ...
    @property
    def dispositivo(self) -> str | None: ...
    @property
    def tipo(self) -> str | None: ...


def notificada(doc: DocumentoPdf[Any], dados: AutoNotificado) -> list[Flowable]:
    """The "Notificada" section of a notice that follows a decided auto (decision, judgment, revisão)."""
    auto = descricao_do_auto(dados.numero_auto, dados.data_auto, dados.dispositivo, dados.tipo)
    return [
        doc.secao("Notificada"),
        campos_da_parte(doc, dados.operadora, dados.representante, f"Auto de Infração {auto}"),
    ]


def linha_multa_urm(multa_urm: Decimal, valor_urm: Decimal, valor_reais: Decimal, por_extenso: str) -> str:
    """The fine as REGRAS § 2 computes it: "0,35 URM × R$ 164,7400 = R$ 57,66 (cinquenta e sete …)"."""
    return (
        f"{formatar_urm(multa_urm)} × {formatar_valor_urm(valor_urm)} = "
        f"{formatar_reais(valor_reais)} ({por_extenso})"
    )


def onde_pagar(instrucoes: str) -> str:
    """REGRAS § 5: where and how to pay, as the office's settings word it (one final full stop)."""
    return f"<b>Onde e como pagar:</b> {texto(instrucoes)}.".replace("..", ".")


def pagamento(doc: DocumentoPdf[Any], prazo: str, instrucoes: str) -> list[Flowable]:
    """REGRAS § 5 for a fine due: the deadline (`prazo`, the notice's own sentence), where and how to pay,
    dívida ativa, and art. 8º (paying does not excuse the duty)."""
    return [
        doc.secao("Pagamento da multa"),
        doc.p(prazo, "Justificado"),
        Spacer(1, 1.5 * mm),
        doc.p(onde_pagar(instrucoes), "Justificado"),
        Spacer(1, 1.5 * mm),
        doc.p(
            f"{DIVIDA_ATIVA} O pagamento não desobriga a infratora do cumprimento da exigência que determinou "
            "a penalidade (art. 8º da Lei Municipal nº 2.413/1978).",
            "Justificado",
        ),
    ]


def caixa_recibo(
    doc: DocumentoPdf[Any],
    recebi: str,
    *,
    titulo: str = "<b>RECIBO</b> (art. 11 da Lei nº 2.413/1978)",
    espaco: float = 5 * mm,
    ultima_linha: str = LINHA_ASSINATURA,
) -> Table:
    """Art. 11: the notice is made once delivered against this receipt, boxed at its foot."""
    return doc.caixa(
        [
            doc.p(titulo, "Pequeno"),
            Spacer(1, 2 * mm),
            doc.p(recebi, "Valor"),
            Spacer(1, espaco),
            doc.p(LINHA_NOME, "Valor"),
            Spacer(1, espaco),
            doc.p(ultima_linha, "Valor"),
        ]
    )


def prazo_reaberto(doc: DocumentoPdf[Any]) -> list[Flowable]:
    """The head of the boxed deadline a correction of substance reopens, counted from the receipt."""
    return [
        doc.p("PRAZO PARA DEFESA, REABERTO", "DestaqueCentro"),
        Spacer(1, 1.5 * mm),
        doc.p("15 (quinze) dias contados do recebimento desta intimação", "DestaqueCentro"),
    ]


def tabela_itens(doc: DocumentoPdf[Any], itens: Sequence[ItemRetificado], estilo: str) -> Table:
    """Item | onde se lia | leia-se: a termo de retificação's correction, old → new, one row per item."""
    linhas: list[list[object]] = [[doc.p(c, "CelulaCabecalho") for c in ("Item", "Onde se lia", "Leia-se")]]
    for item in itens:
        linhas.append(
            [
                doc.p(f"<b>{texto(item.rotulo)}</b>", estilo),
                doc.p(texto(item.de), estilo),
                doc.p(texto(item.para), estilo),
            ]
        )
    tabela = Table(linhas, colWidths=list(LARGURAS_ITENS), repeatRows=1)
    tabela.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, COR_TEXTO),
                ("BACKGROUND", (0, 0), (-1, 0), COR_FAIXA),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return tabela
