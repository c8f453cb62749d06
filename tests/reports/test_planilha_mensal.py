"""The monthly workbook, reopened with openpyxl as Excel would read it."""

from __future__ import annotations

import io
import zipfile
from collections import defaultdict
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from secretaria.reports.dados import DadosMensais
from secretaria.reports.planilha_mensal import (
    ABAS,
    FORMATO_DATA,
    FORMATO_REAIS,
    FORMATO_URM,
    TIPOS,
    gerar_planilha_mensal,
)
from tests.reports.amostras_documentos import PERIGOSA, mensal

CABECALHOS = {
    "Autos": [
        "Número",
        "Data",
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
        *[f"Tipo {t} – {m}" for t in TIPOS for m in ("qtd", "R$")],
        "Total – qtd",
        "Total – R$",
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
    assert livro.sheetnames == list(ABAS)
    linhas = {
        "Autos": len(dados.autos),
        "Resumo por operadora": len({a.operadora for a in dados.autos}),
        "Penalidades": len(dados.penalidades),
        "Prazos": len(dados.prazos),
        "Pagamentos": len(dados.pagamentos),
    }
    for nome in ABAS:
        aba = livro[nome]
        assert cabecalho(aba) == CABECALHOS[nome]
        assert aba.freeze_panes == "A2"
        assert len(aba.tables) == 1
        tabela = next(iter(aba.tables.values()))
        ultima_coluna = chr(ord("A") + len(CABECALHOS[nome]) - 1)
        assert tabela.ref == f"A1:{ultima_coluna}{linhas[nome] + 1}"
        assert tabela.autoFilter is not None and tabela.autoFilter.ref == tabela.ref
        assert [c.name for c in tabela.tableColumns] == CABECALHOS[nome]
        assert tabela.tableStyleInfo.name == "TableStyleMedium2" and tabela.tableStyleInfo.showRowStripes
        assert aba.column_dimensions["A"].width >= 10
        assert aba.page_setup.orientation == "landscape"


def test_formatos_de_data_dinheiro_e_urm(livro: Workbook, dados: DadosMensais) -> None:
    autos = livro["Autos"]
    decidido = next(i for i, a in enumerate(dados.autos) if a.multa_urm is not None)
    linha = autos[decidido + 2]
    esperado = dados.autos[decidido]
    assert linha[1].value == datetime.combine(esperado.data, datetime.min.time())
    assert linha[1].number_format == FORMATO_DATA == "DD/MM/YYYY"
    assert Decimal(str(linha[8].value)) == esperado.multa_urm
    assert linha[8].number_format == FORMATO_URM
    assert Decimal(str(linha[9].value)) == esperado.multa_reais
    assert linha[9].number_format == FORMATO_REAIS == '"R$" #,##0.00'
    penalidades = livro["Penalidades"]
    assert penalidades["B2"].number_format == FORMATO_DATA
    assert penalidades["H2"].number_format == FORMATO_REAIS
    assert (
        penalidades["K2"].value == datetime(2026, 12, 1) and penalidades["K2"].number_format == FORMATO_DATA
    )
    pagamentos = livro["Pagamentos"]
    assert pagamentos["C2"].number_format == FORMATO_REAIS
    assert pagamentos["E3"].number_format == FORMATO_DATA


def test_totais_do_resumo_sao_formulas_sobre_os_numeros_dos_autos(
    livro: Workbook, dados: DadosMensais
) -> None:
    resumo = livro["Resumo por operadora"]
    operadoras = sorted({a.operadora for a in dados.autos}, key=str.casefold)
    ultima = len(operadoras) + 1
    total = resumo[ultima + 1]
    assert total[0].value == "Total"
    assert all(celula.font.bold for celula in total)

    esperado_qtd: dict[str, int] = defaultdict(int)
    esperado_valor: dict[str, Decimal] = defaultdict(Decimal)
    for auto in dados.autos:
        esperado_qtd[auto.tipo] += 1
        esperado_valor[auto.tipo] += auto.multa_reais or Decimal(0)

    for indice, tipo in enumerate(TIPOS):
        for coluna, esperado in (
            (2 + 2 * indice, esperado_qtd[tipo]),
            (3 + 2 * indice, esperado_valor[tipo]),
        ):
            celula = total[coluna - 1]
            letra = celula.column_letter
            assert celula.value == f"=SUM({letra}2:{letra}{ultima})"
            entradas = [resumo.cell(row=r, column=coluna).value for r in range(2, ultima + 1)]
            assert sum(Decimal(str(v)) for v in entradas) == esperado
    # Each operator's row total is a formula over its own tipo columns.
    assert resumo.cell(row=2, column=12).value == "=B2+D2+F2+H2+J2"
    assert resumo.cell(row=2, column=13).value == "=C2+E2+G2+I2+K2"
    assert total[11].value == f"=SUM(L2:L{ultima})" and total[12].value == f"=SUM(M2:M{ultima})"
    assert total[12].number_format == FORMATO_REAIS
    # Per operator and tipo, the counts are those of the Autos sheet.
    for linha in range(2, ultima + 1):
        operadora = resumo.cell(row=linha, column=1).value
        for indice, tipo in enumerate(TIPOS):
            contagem = sum(1 for a in dados.autos if a.operadora == operadora and a.tipo == tipo)
            assert resumo.cell(row=linha, column=2 + 2 * indice).value == contagem


def test_texto_perigoso_fica_texto_e_caracteres_invalidos_somem(livro: Workbook, arquivo: bytes) -> None:
    autos = livro["Autos"]
    linha = autos[2]
    assert linha[2].value == PERIGOSA == "=cmd|' /C calc'!A0"
    assert linha[2].data_type == "s" and linha[2].quotePrefix
    assert linha[6].value == "@SUM(A1)" and linha[6].data_type == "s"
    assert linha[5].value == "+55 53" and linha[5].data_type == "s"
    assert linha[7].value == "Em defesa"
    assert livro["Resumo por operadora"]["A2"].value == PERIGOSA
    assert livro["Resumo por operadora"]["A2"].data_type == "s"
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
    assert aba["G2"].value == "#N/A" and aba["G2"].data_type == "s"


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
    assert livro.sheetnames == list(ABAS)
    assert livro["Autos"].tables["Autos"].ref == "A1:J2"
    assert livro["Resumo por operadora"]["B3"].value == "=SUM(B2:B2)"


def test_grava_em_caminho_e_informa_o_progresso(tmp_path: Path) -> None:
    dados = mensal(1200)
    chamadas: list[tuple[int, int]] = []
    destino = tmp_path / "mensal-2026-11.xlsx"
    gerar_planilha_mensal(dados, destino, progresso=lambda feitas, total: chamadas.append((feitas, total)))
    operadoras = len({a.operadora for a in dados.autos})
    total = len(dados.autos) + operadoras + len(dados.penalidades) + len(dados.prazos) + len(dados.pagamentos)
    assert chamadas == [(1000, total), (total, total)]
    livro = load_workbook(destino, read_only=True)
    assert sum(1 for _ in livro["Autos"].iter_rows(values_only=True)) == 1201
    assert livro.properties.title == "Relatório mensal 11/2026"
    livro.close()
