"""The monthly workbook, reopened with openpyxl as Excel would read it."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import zipfile
from collections import defaultdict
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from secretaria.reports.dados import DadosMensais
from secretaria.reports.planilha_mensal import (
    ABA_GRAFICOS,
    ABAS,
    FORMATO_DATA,
    FORMATO_REAIS,
    FORMATO_URM,
    gerar_planilha_mensal,
)
from tests.helpers.amostras_documentos import PERIGOSA, mensal

CABECALHOS = {
    "Autos": [
        "Número",
        "Data da infração",
        "Lavrado em",
        "Operadora",
        "Dispositivo",
        "Tipo",
        "Veículo",
        "Empregado",
        "Situação",
        "Multa (URM)",
        "Multa (R$)",
    ],
    "Resumo por operadora": [
        "Operadora",
        "Tipo",
        "Autos lavrados no mês",
        "Multas decididas no mês",
        "Multas decididas no mês (URM)",
        "Multas decididas no mês (R$)",
    ],
    "Penalidades": [
        "Auto",
        "Data da decisão",
        "Operadora",
        "Dispositivo",
        "Tipo",
        "Resultado",
        "Multa (URM)",
        "Valor da URM",
        "Multa (R$)",
        "Suspensão (dias)",
        "Início da suspensão",
        "Fim da suspensão",
    ],
    "Suspensões": ["Auto", "Operadora", "Dispositivo", "Início", "Fim", "Dias", "Situação"],
    "Prazos": ["Auto", "Operadora", "Prazo", "Intimação em", "Vencimento", "Dias restantes"],
    "Pagamentos": [
        "Auto",
        "Operadora",
        "Multa (R$)",
        "Situação",
        "Data do pagamento",
        "Valor pago (R$)",
        "Observação",
    ],
}
#: The columns each table sums in its own totals row.
SOMADAS = {
    "Autos": ["Multa (URM)", "Multa (R$)"],
    "Resumo por operadora": CABECALHOS["Resumo por operadora"][2:],
    "Penalidades": ["Multa (URM)", "Multa (R$)", "Suspensão (dias)"],
    "Suspensões": ["Dias"],
    "Prazos": [],
    "Pagamentos": ["Multa (R$)", "Valor pago (R$)"],
}


def chaves_do_resumo(dados: DadosMensais) -> set[tuple[str, str]]:
    return {(a.operadora, a.tipo) for a in dados.autos} | {
        (p.operadora, p.tipo) for p in dados.penalidades if p.multa_urm
    }


def gerar(dados: DadosMensais) -> bytes:
    saida = io.BytesIO()
    gerar_planilha_mensal(dados, saida)
    return saida.getvalue()


@pytest.fixture(scope="module")
def dados() -> DadosMensais:
    return mensal(300)


@pytest.fixture(scope="module")
def arquivo(dados: DadosMensais) -> bytes:
    return gerar(dados)


@pytest.fixture(scope="module")
def livro(arquivo: bytes) -> Workbook:
    return load_workbook(io.BytesIO(arquivo))


def cabecalho(aba: Worksheet) -> list[object]:
    return [celula.value for celula in aba[1]]


def test_abas_cabecalhos_tabelas_filtros_e_cabecalho_congelado(livro: Workbook, dados: DadosMensais) -> None:
    assert livro.sheetnames == [*ABAS, ABA_GRAFICOS]
    linhas = {
        "Autos": len(dados.autos),
        "Resumo por operadora": len(chaves_do_resumo(dados)),
        "Penalidades": len(dados.penalidades),
        "Suspensões": len(dados.suspensoes),
        "Prazos": len(dados.prazos),
        "Pagamentos": len(dados.pagamentos),
    }
    for nome in ABAS:
        aba = livro[nome]
        assert cabecalho(aba) == CABECALHOS[nome]
        assert aba.freeze_panes == "A2"
        assert len(aba.tables) == 1
        tabela = next(iter(aba.tables.values()))
        ultima_coluna = get_column_letter(len(CABECALHOS[nome]))
        com_totais = bool(SOMADAS[nome])
        assert tabela.ref == f"A1:{ultima_coluna}{linhas[nome] + 1 + com_totais}"
        # The filter covers the header and the data, never the totals row.
        assert (
            tabela.autoFilter is not None and tabela.autoFilter.ref == f"A1:{ultima_coluna}{linhas[nome] + 1}"
        )
        assert [c.name for c in tabela.tableColumns] == CABECALHOS[nome]
        assert tabela.tableStyleInfo.name == "TableStyleMedium2" and tabela.tableStyleInfo.showRowStripes
        assert aba.page_setup.orientation == "landscape"
        # Every header fits beside its filter button (about three characters).
        for indice, titulo in enumerate(CABECALHOS[nome], start=1):
            assert aba.column_dimensions[get_column_letter(indice)].width >= len(titulo) + 3, (nome, titulo)


def test_largura_acompanha_o_valor_mais_longo_ate_um_limite() -> None:
    dados = mensal(3)
    longo = "Transportes " * 3 + "Ltda."
    enorme = "Observação " * 30
    pagamento = replace(dados.pagamentos[0], operadora=longo, observacao=enorme)
    livro = load_workbook(io.BytesIO(gerar(replace(dados, pagamentos=[pagamento]))))
    aba = livro["Pagamentos"]
    assert aba.column_dimensions["B"].width >= len(longo)
    assert len(enorme) > aba.column_dimensions["G"].width >= 40
    assert aba.column_dimensions["C"].width >= len("R$ 82,37")


def test_formatos_de_data_dinheiro_e_urm(livro: Workbook, dados: DadosMensais) -> None:
    autos = livro["Autos"]
    decidido = next(i for i, a in enumerate(dados.autos) if a.multa_urm is not None)
    linha = autos[decidido + 2]
    esperado = dados.autos[decidido]
    assert linha[1].value == datetime.combine(esperado.data_infracao, datetime.min.time())
    assert linha[2].value == datetime.combine(esperado.data_lavratura, datetime.min.time())
    assert linha[1].number_format == linha[2].number_format == FORMATO_DATA == "DD/MM/YYYY"
    assert Decimal(str(linha[9].value)) == esperado.multa_urm
    assert linha[9].number_format == FORMATO_URM
    assert Decimal(str(linha[10].value)) == esperado.multa_reais
    assert linha[10].number_format == FORMATO_REAIS == '"R$" #,##0.00'
    penalidades = livro["Penalidades"]
    assert penalidades["B2"].number_format == FORMATO_DATA
    assert penalidades["H2"].number_format == FORMATO_REAIS
    assert (
        penalidades["K2"].value == datetime(2026, 12, 1) and penalidades["K2"].number_format == FORMATO_DATA
    )
    suspensoes = livro["Suspensões"]
    assert suspensoes["D2"].number_format == suspensoes["E2"].number_format == FORMATO_DATA
    pagamentos = livro["Pagamentos"]
    assert pagamentos["C2"].number_format == FORMATO_REAIS
    assert pagamentos["E3"].number_format == FORMATO_DATA


def test_linha_de_totais_e_da_propria_tabela_com_subtotal(livro: Workbook, dados: DadosMensais) -> None:
    for nome in ABAS:
        aba = livro[nome]
        tabela = next(iter(aba.tables.values()))
        if not SOMADAS[nome]:
            assert not tabela.totalsRowCount
            continue
        assert tabela.totalsRowCount == 1
        ultima = aba.max_row
        assert tabela.ref.endswith(str(ultima))  # the totals row is inside the table
        total = aba[ultima]
        assert total[0].value == "Total" and all(c.font.bold for c in total)
        colunas = {c.name: c for c in tabela.tableColumns}
        assert colunas[CABECALHOS[nome][0]].totalsRowLabel == "Total"
        for indice, titulo in enumerate(CABECALHOS[nome]):
            if titulo in SOMADAS[nome]:
                assert colunas[titulo].totalsRowFunction == "sum"
                assert total[indice].value == f"=SUBTOTAL(109,{tabela.displayName}[{titulo}])"
                preenchidas = [c for (c,) in aba.iter_rows(min_row=2, max_row=ultima - 1, min_col=indice + 1,
                               max_col=indice + 1) if c.value is not None]  # fmt: skip
                assert preenchidas and total[indice].number_format == preenchidas[0].number_format
            elif indice:
                assert colunas[titulo].totalsRowFunction is None and total[indice].value is None


def test_resumo_traz_os_autos_lavrados_e_as_multas_decididas_no_mes(
    livro: Workbook, dados: DadosMensais
) -> None:
    lavrados: dict[tuple[str, str], int] = defaultdict(int)
    decididas: dict[tuple[str, str], list[Decimal]] = defaultdict(list)
    reais: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for auto in dados.autos:
        lavrados[auto.operadora, auto.tipo] += 1
    for p in dados.penalidades:
        if p.multa_urm:
            decididas[p.operadora, p.tipo].append(p.multa_urm)
            reais[p.operadora, p.tipo] += p.multa_reais or Decimal(0)
    esperado = sorted(
        (
            (
                op,
                tipo,
                lavrados[op, tipo],
                len(decididas[op, tipo]),
                sum(decididas[op, tipo], Decimal(0)),
                reais[op, tipo],
            )
            for op, tipo in chaves_do_resumo(dados)
        ),
        key=lambda linha: (str(linha[0]).casefold(), str(linha[0]), str(linha[1])),
    )
    aba = livro["Resumo por operadora"]
    obtido = [
        (op, tipo, qtd, decid, Decimal(str(urm)), Decimal(str(valor)))
        for op, tipo, qtd, decid, urm, valor in aba.iter_rows(
            min_row=2, max_row=aba.max_row - 1, values_only=True
        )
    ]
    assert obtido == esperado
    assert sum(r[3] for r in esperado) == len(dados.penalidades)  # every sample decision is a fine
    assert aba["F2"].number_format == FORMATO_REAIS and aba["E2"].number_format == FORMATO_URM


def test_texto_perigoso_fica_texto_e_caracteres_invalidos_somem(livro: Workbook, arquivo: bytes) -> None:
    autos = livro["Autos"]
    linha = autos[2]
    assert linha[3].value == PERIGOSA == "=cmd|' /C calc'!A0"
    assert linha[3].data_type == "s" and linha[3].quotePrefix
    assert linha[7].value == "@SUM(A1)" and linha[7].data_type == "s"
    assert linha[6].value == "+55 53" and linha[6].data_type == "s"
    assert linha[8].value == "Em defesa"
    perigosa = next(c for c in livro["Resumo por operadora"]["A"] if c.value == PERIGOSA)
    assert perigosa.data_type == "s"
    assert livro["Pagamentos"]["G3"].value == "-pago com desconto"
    with zipfile.ZipFile(io.BytesIO(arquivo)) as pacote:
        planilhas = [n for n in pacote.namelist() if n.startswith("xl/worksheets/")]
        xml = b"".join(pacote.read(n) for n in planilhas)
    assert b"cmd|" in xml
    assert b"<f>cmd" not in xml and b"<f>SUM(A1)" not in xml  # never a formula
    assert b"\x07" not in xml and b"\x00" not in xml


def test_codigo_de_erro_digitado_e_texto() -> None:
    dados = mensal(3)
    dados = replace(dados, autos=[replace(dados.autos[1], empregado="#N/A")])
    aba = load_workbook(io.BytesIO(gerar(dados)))["Autos"]
    assert aba["H2"].value == "#N/A" and aba["H2"].data_type == "s"


def test_prazos_em_ordem_de_vencimento_com_dias_restantes_no_fim_do_mes(
    livro: Workbook, dados: DadosMensais
) -> None:
    aba = livro["Prazos"]
    vencimentos = [aba.cell(row=r, column=5).value for r in range(2, aba.max_row + 1)]
    assert vencimentos == sorted(vencimentos)
    for r in range(2, aba.max_row + 1):
        vencimento = aba.cell(row=r, column=5).value.date()
        assert aba.cell(row=r, column=6).value == (vencimento - date(2026, 11, 30)).days


def test_mes_vazio_ainda_e_uma_pasta_valida() -> None:
    livro = load_workbook(io.BytesIO(gerar(DadosMensais(ano=2026, mes=12))))
    assert livro.sheetnames == [*ABAS, ABA_GRAFICOS]
    tabela = livro["Autos"].tables["Autos"]
    assert tabela.ref == "A1:K3" and tabela.autoFilter.ref == "A1:K2"
    assert livro["Autos"]["A3"].value == "Total"
    assert (
        livro["Resumo por operadora"]["C3"].value
        == "=SUBTOTAL(109,ResumoPorOperadora[Autos lavrados no mês])"
    )
    assert livro["Prazos"].tables["Prazos"].ref == "A1:F2"


def test_grava_em_caminho_e_informa_o_progresso(tmp_path: Path) -> None:
    dados = mensal(1200)
    chamadas: list[tuple[int, int]] = []
    destino = tmp_path / "mensal-2026-11.xlsx"
    gerar_planilha_mensal(dados, destino, progresso=lambda feitas, total: chamadas.append((feitas, total)))
    total = (
        len(dados.autos)
        + len(chaves_do_resumo(dados))
        + len(dados.penalidades)
        + len(dados.suspensoes)
        + len(dados.prazos)
        + len(dados.pagamentos)
    )
    assert chamadas == [(1000, total), (total, total)]
    livro = load_workbook(destino, read_only=True)
    assert sum(1 for _ in livro["Autos"].iter_rows(values_only=True)) == 1202  # header, rows, totals
    assert livro.properties.title == "Relatório mensal 11/2026"
    livro.close()


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) não instalado")
def test_libreoffice_calcula_os_totais_e_o_filtro_nao_os_fixa(tmp_path: Path, dados: DadosMensais) -> None:
    """A spreadsheet program opening the file computes every totals row to the sum of its sheet's values."""
    arquivo = tmp_path / "mensal.xlsx"
    gerar_planilha_mensal(dados, arquivo)
    filtro = "Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    subprocess.run(
        ["soffice", "--headless", f"-env:UserInstallation={(tmp_path / 'perfil').as_uri()}", "--convert-to",
         f"csv:{filtro}", "--outdir", str(tmp_path), str(arquivo)],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    esperado = {
        "Autos": [sum((a.multa_urm or Decimal(0) for a in dados.autos), Decimal(0)),
                  sum((a.multa_reais or Decimal(0) for a in dados.autos), Decimal(0))],
        "Penalidades": [sum((p.multa_urm or Decimal(0) for p in dados.penalidades), Decimal(0)),
                        sum((p.multa_reais or Decimal(0) for p in dados.penalidades), Decimal(0)),
                        sum(p.suspensao_dias or 0 for p in dados.penalidades)],
        "Suspensões": [sum(s.dias for s in dados.suspensoes)],
        "Pagamentos": [sum((p.valor_multa for p in dados.pagamentos), Decimal(0)),
                       sum((p.valor_pago or Decimal(0) for p in dados.pagamentos), Decimal(0))],
        "Resumo por operadora": [len(dados.autos), len(dados.penalidades),
                                 sum((p.multa_urm or Decimal(0) for p in dados.penalidades), Decimal(0)),
                                 sum((p.multa_reais or Decimal(0) for p in dados.penalidades), Decimal(0))],
    }  # fmt: skip
    for nome, somas in esperado.items():
        with open(tmp_path / f"mensal-{nome}.csv", encoding="utf-8", newline="") as f:
            ultima = list(csv.reader(f))[-1]
        assert ultima[0] == "Total"
        indices = [CABECALHOS[nome].index(t) for t in SOMADAS[nome]]
        assert [Decimal(ultima[i]) for i in indices] == somas, nome


def _somar_se(livro: Workbook, formula: str) -> Decimal:
    """Evaluate the Gráficos sheet's `=SUMIF('aba'!$X$2:$X$n,"crit",'aba'!$Y$2:$Y$n)` over the cells."""
    import re

    m = re.fullmatch(
        r"=SUMIF\('([^']+)'!\$([A-Z])\$2:\$[A-Z]\$(\d+),\"(.*)\",'[^']+'!\$([A-Z])\$2:\$[A-Z]\$\d+\)", formula
    )
    assert m is not None, formula
    aba, criterio, soma, ultima = livro[m[1]], m[4], m[5], int(m[3])
    total = Decimal(0)
    for linha in range(2, ultima + 1):
        if str(aba[f"{m[2]}{linha}"].value) == criterio:
            total += Decimal(str(aba[f"{soma}{linha}"].value or 0))
    return total


def test_graficos_nativos_lidos_das_tabelas(livro: Workbook, dados: DadosMensais) -> None:
    """The Gráficos sheet: native bar charts whose series are its cells, each cell a SUMIF over a sheet."""
    aba = livro[ABA_GRAFICOS]
    graficos = aba._charts
    assert len(graficos) == 4
    titulos = []
    for g in graficos:
        titulos.append("".join(r.t for p in g.title.tx.rich.p for r in (p.r or [])))
        (serie,) = g.series
        dados_ref = serie.val.numRef.f
        categorias = serie.cat.strRef.f if serie.cat.strRef is not None else serie.cat.numRef.f
        assert dados_ref.startswith("'Gráficos'!$B$") and categorias.startswith("'Gráficos'!$A$")
    assert titulos == [
        "Autos lavrados no mês, por operadora",
        "Autos lavrados no mês, por tipo",
        "Multas decididas no mês (R$), por operadora",
        "Multas por situação do pagamento (R$)",
    ]
    # Each chart's cells: what the sheets hold, computed again here from the month's data.
    valores: dict[str, dict[str, Decimal]] = defaultdict(dict)
    atual = ""
    for a, b in aba.iter_rows(min_col=1, max_col=2, values_only=True):
        if a in titulos:
            atual = str(a)
        elif isinstance(b, str) and b.startswith("=SUMIF"):
            valores[atual][str(a)] = _somar_se(livro, b)
    por_operadora: dict[str, int] = defaultdict(int)
    por_tipo: dict[str, int] = defaultdict(int)
    for auto in dados.autos:
        por_operadora[auto.operadora] += 1
        por_tipo[f"Tipo {auto.tipo}"] += 1
    assert valores[titulos[0]] == {o: Decimal(n) for o, n in por_operadora.items()}
    assert {t: v for t, v in valores[titulos[1]].items() if v} == {t: Decimal(n) for t, n in por_tipo.items()}
    reais: dict[str, Decimal] = defaultdict(Decimal)
    for p in dados.penalidades:
        if p.multa_urm:
            reais[p.operadora] += p.multa_reais or Decimal(0)
    assert {o: v for o, v in valores[titulos[2]].items() if v} == {o: v for o, v in reais.items() if v}
    situacoes: dict[str, Decimal] = defaultdict(Decimal)
    for pg in dados.pagamentos:
        situacoes[pg.situacao] += pg.valor_multa
    assert valores[titulos[3]] == dict(situacoes)
