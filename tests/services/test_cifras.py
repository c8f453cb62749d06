"""One source for the figures every report shows (REGRAS § 5, "Figures in reports"): the same month and year read
through the monthly workbook, the annual report (PDF text and workbook), the operator's ficha (data and PDF) and
the Painel agree with one another and with the test's own count of the scenario it built — a fine annulled on
appeal counts nowhere, a reduced one at its final value, an auto by the date the column names."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.lei.formato import formatar_reais
from secretaria.models import AutoInfracao, Decisao
from secretaria.reports.ficha import FichaOperadoraPdf
from secretaria.reports.relatorio_anual import ABAS_ANUAIS, FORMATO_MES
from secretaria.services import cifras, painel
from secretaria.services.documentos import dados_ficha
from secretaria.services.execucao import PedidoPagamento, registrar_pagamento
from secretaria.services.relatorios import gerar_relatorio_mensal
from tests.helpers.fabrica import ATORES, Roteiro


@dataclass(frozen=True)
class Cenario:
    ids: dict[str, int]
    valor_urm: dict[str, Decimal]
    """Each decided case's URM of the decision day, as stored with the decision (an input, not a figure)."""

    def reais(self, caso: str, urm: str) -> Decimal:
        return (Decimal(urm) * self.valor_urm[caso]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _cenario(r: Roteiro) -> Cenario:
    """April 2026: a fine paid, one annulled on appeal, one reduced on appeal (5,00 → 3,50 URM), a dismissal
    and a fine later inscribed in dívida ativa; an auto of April's last day drawn up on 2 May; one of
    30/12/2025 drawn up on 02/01/2026; and one of December 2025 decided in January 2026."""
    c = r.cidade
    op1, op2 = c.operadora_id, c.operadora2_id
    ids: dict[str, int] = {}
    ids["pago"] = r.decidido(
        data_infracao=date(2026, 4, 1), multa="4.00", dispositivo="2-I", operadora_id=op1
    ).id
    registrar_pagamento(
        r.uow(),
        ATORES["protocolo"],
        PedidoPagamento(auto_id=ids["pago"], situacao="pago", data=date(2026, 5, 20)),
    )
    ids["anulado"] = r.decidido(
        data_infracao=date(2026, 4, 2), multa="0.40", dispositivo="1-VI", operadora_id=op2
    ).id
    r.recorrer(ids["anulado"], date(2026, 4, 27))
    r.julgar(ids["anulado"], date(2026, 5, 15), "provido")
    ids["reduzido"] = r.decidido(
        data_infracao=date(2026, 4, 3), multa="5.00", dispositivo="1-I", operadora_id=op1
    ).id
    r.recorrer(ids["reduzido"], date(2026, 4, 28))
    r.julgar(ids["reduzido"], date(2026, 5, 15), "provido_parcialmente", multa_ur_nova=Decimal("3.50"))
    ids["arquivado"] = r.lavrar(data_infracao=date(2026, 4, 6), dispositivo="1-VI", operadora_id=op1).id
    r.intimar(ids["arquivado"], date(2026, 4, 7))
    r.decidir(ids["arquivado"], date(2026, 4, 27), resultado="arquivado")
    ids["divida"] = r.decidido(
        data_infracao=date(2026, 4, 7), multa="4.50", dispositivo="1-II", operadora_id=op2
    ).id
    registrar_pagamento(
        r.uow(),
        ATORES["protocolo"],
        PedidoPagamento(auto_id=ids["divida"], situacao="divida_ativa", data=date(2026, 9, 1)),
    )
    ids["fim_de_abril"] = r.lavrar(
        data_infracao=date(2026, 4, 30), data_lavratura=date(2026, 5, 2), dispositivo="1-II", operadora_id=op1
    ).id
    ids["virada"] = r.lavrar(
        data_infracao=date(2025, 12, 30),
        data_lavratura=date(2026, 1, 2),
        dispositivo="1-II",
        operadora_id=op1,
    ).id
    ids["de_2025"] = r.decidido(
        data_infracao=date(2025, 12, 10),
        multa="0.30",
        dispositivo="1-VI",
        operadora_id=op1,
        dias_ate_decisao=30,
    ).id
    with r.banco.leitura() as s:
        por_auto: dict[int, Decimal] = {
            i: v for i, v in s.execute(sa.select(Decisao.auto_id, Decisao.valor_urm)) if v is not None
        }
    valor_urm = {caso: por_auto[i] for caso, i in ids.items() if i in por_auto}
    return Cenario(ids, valor_urm)  # fmt: skip


def _coluna(aba: Any, titulo: str) -> list[Any]:
    """A sheet's data cells under `titulo`, without its totals row."""
    cabecalho = [c.value for c in aba[1]]
    j = cabecalho.index(titulo)
    valores = []
    for linha in aba.iter_rows(min_row=2, values_only=True):
        if linha[0] == "Total":
            break
        valores.append(linha[j])
    return valores


def _soma(valores: list[Any]) -> Decimal:
    return sum((Decimal(str(v)) for v in valores if v is not None), Decimal(0))


def _texto_pdf(dados: bytes) -> str:
    """The pages' text with every run of blanks and line breaks as one space (a table cell per line)."""
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(dados)).pages).split())


def test_mes_e_ano_conferem_em_todos_os_relatorios(banco: Banco, roteiro: Roteiro, tmp_path: Path) -> None:
    c = _cenario(roteiro)
    # --- the test's own count of what it built
    abril = c.reais("pago", "4.00") + c.reais("reduzido", "3.50") + c.reais("divida", "4.50")
    janeiro = c.reais("de_2025", "0.30")
    no_ano = abril + janeiro
    lavrados_2026, lavrados_abril, lavrados_janeiro = 7, 5, 1  # by the lavratura
    infracoes_2026 = 6  # by the day of the fact: not the auto of 30/12/2025 drawn up in January
    op1_reais = c.reais("pago", "4.00") + c.reais("reduzido", "3.50")  # 2 fines, 1 dismissal
    op2_reais = c.reais("divida", "4.50")  # 1 fine (the annulled one is not)

    # --- the monthly workbooks (April and January)
    for mes, reais, lavrados, decisoes in ((4, abril, lavrados_abril, 5), (1, janeiro, lavrados_janeiro, 1)):
        gerar_relatorio_mensal(banco, 2026, mes, tmp_path / f"mes{mes}.xlsx")
        livro = load_workbook(tmp_path / f"mes{mes}.xlsx")
        assert len(_coluna(livro["Autos"], "Número")) == lavrados
        penalidades = livro["Penalidades"]
        assert len(_coluna(penalidades, "Auto")) == decisoes
        assert _soma(_coluna(penalidades, "Multa (R$)")) == reais
        assert _soma(_coluna(livro["Resumo por operadora"], "Multas decididas no mês (R$)")) == reais
        assert _soma(_coluna(livro["Resumo por operadora"], "Autos lavrados no mês")) == lavrados
    abril_livro = load_workbook(tmp_path / "mes4.xlsx")["Penalidades"]
    resultados = dict(zip(_coluna(abril_livro, "Resultado"), _coluna(abril_livro, "Multa (R$)"), strict=True))
    assert resultados["Penalidade anulada em recurso"] is None
    assert Decimal(str(resultados["Penalidade reduzida em recurso"])) == c.reais("reduzido", "3.50")
    assert _coluna(abril_livro, "Multa (URM)").count(3.5) == 1

    # --- the Painel
    with banco.leitura() as s:
        p = painel.ler_painel(
            s, painel.FiltroPainel(date(2026, 1, 1), date(2026, 12, 31)), date(2026, 11, 30)
        )
    multas = {(v.mes, v.serie): v.valor for v in p.multas}
    assert multas[("2026-04", "decidida")] == abril and multas[("2026-01", "decidida")] == janeiro
    assert sum(v for (_m, serie), v in multas.items() if serie == "decidida") == no_ano
    assert multas[("2026-05", "paga")] == c.reais("pago", "4.00")
    assert multas[("2026-09", "divida_ativa")] == c.reais("divida", "4.50")
    assert sum(x.valor for x in p.por_tipo) == infracoes_2026  # "Autos por mês da infração"

    # --- the annual workbook
    painel.gerar_relatorio_anual(banco, 2026, tmp_path / "ano.xlsx")
    livro = load_workbook(tmp_path / "ano.xlsx")
    por_mes = livro[ABAS_ANUAIS[1]]
    meses = _coluna(por_mes, "Mês")
    assert [m.date() for m in meses] == [date(2026, m, 1) for m in range(1, 13)]  # dates, not text
    assert all(por_mes.cell(i, 1).number_format == FORMATO_MES for i in range(2, 14))
    autos_mes = _coluna(por_mes, "Autos lavrados")
    multas_mes = [Decimal(str(v)) for v in _coluna(por_mes, "Multas aplicadas (R$)")]
    assert (
        autos_mes[0] == lavrados_janeiro
        and autos_mes[3] == lavrados_abril
        and sum(autos_mes) == lavrados_2026
    )
    assert multas_mes[0] == janeiro and multas_mes[3] == abril and sum(multas_mes) == no_ano
    por_op = livro[ABAS_ANUAIS[0]]
    assert sum(_coluna(por_op, "Autos lavrados")) == lavrados_2026
    assert _soma(_coluna(por_op, "Multas dos autos (R$)")) == op1_reais + op2_reais
    for autos, multas_n, arquivados in zip(
        _coluna(por_op, "Autos lavrados"),
        _coluna(por_op, "Multas aplicadas"),
        _coluna(por_op, "Arquivados"),
        strict=True,
    ):
        assert multas_n + arquivados <= autos
    assert sum(_coluna(livro[ABAS_ANUAIS[2]], "Autos lavrados")) == lavrados_2026

    # --- the annual PDF
    painel.gerar_relatorio_anual(banco, 2026, tmp_path / "ano.pdf")
    texto = _texto_pdf((tmp_path / "ano.pdf").read_bytes())
    assert f"Autos lavrados {lavrados_2026}" in texto
    assert f"Multas aplicadas no ano {formatar_reais(no_ano)}" in texto
    assert f"abr/26 {lavrados_abril} {formatar_reais(abril)}" in texto
    assert f"jan/26 {lavrados_janeiro} {formatar_reais(janeiro)}" in texto
    assert f"Total {lavrados_2026} {formatar_reais(no_ano)}" in texto  # the months table's totals row
    assert re.search(rf"Total {lavrados_2026} 3 1 {re.escape(formatar_reais(op1_reais + op2_reais))}", texto)

    # --- the fichas (data and PDF): every year of the operator, the fines as they stand
    with banco.leitura() as s:
        ficha1 = dados_ficha(s, roteiro.cidade.operadora_id)
        ficha2 = dados_ficha(s, roteiro.cidade.operadora2_id)
    total1 = op1_reais + janeiro
    texto1 = _texto_pdf(FichaOperadoraPdf().render(ficha1))
    assert f"Multas aplicadas 3 – {formatar_reais(total1)}" in texto1
    assert f"Multas pagas 1 – {formatar_reais(c.reais('pago', '4.00'))}" in texto1
    assert f"Em aberto 2 – {formatar_reais(c.reais('reduzido', '3.50') + janeiro)}" in texto1
    assert f"Em dívida ativa 0 – {formatar_reais(Decimal(0))}" in texto1
    texto2 = _texto_pdf(FichaOperadoraPdf().render(ficha2))
    assert f"Multas aplicadas 1 – {formatar_reais(op2_reais)}" in texto2  # the annulled fine is not there
    assert f"Em aberto 0 – {formatar_reais(Decimal(0))}" in texto2
    assert f"Em dívida ativa 1 – {formatar_reais(op2_reais)}" in texto2
    # The ficha and the annual report's operator rows agree on the year's autos (all but one of 2025).
    assert sum(x.multa_reais or 0 for x in ficha1.casos if x.data.year == 2026) == op1_reais


def test_consulta_por_auto_da_as_mesmas_linhas(banco: Banco, roteiro: Roteiro) -> None:
    """The monthly workbook's per-auto plan on PostgreSQL (the decision reached through its auto, LATERAL) reads
    exactly the rows and values of the plain join: autos undecided, dismissed, appealed, paid."""
    if not banco.url.startswith("postgresql"):
        pytest.skip("LATERAL só no PostgreSQL; o SQLite já vai pelos índices com a junção simples")
    c = _cenario(roteiro)
    a = AutoInfracao
    with banco.leitura() as s:
        linhas = {
            por_auto: s.execute(
                cifras.consulta_casos(a.id, pagamento=True, suspensao=True, por_auto=por_auto).order_by(a.id)
            ).all()
            for por_auto in (False, True)
        }
    assert len(linhas[False]) == len(c.ids)
    assert [tuple(x) for x in linhas[True]] == [tuple(x) for x in linhas[False]]
    assert linhas[True][0]._fields == linhas[False][0]._fields
