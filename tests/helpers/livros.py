"""Spreadsheets shaped like a real office's, written with openpyxl: title rows above the header,
a hidden first sheet, a company's name and CNPJ merged over its block of rows, numbers and dates typed as
Excel numbers and dates, two-digit years, the office's own titles and words, a footer. The expected values
are written beside them, so a test checks what was stored against what the book says."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import openpyxl


def cnpj_valido(base: str) -> str:
    """A CNPJ with its check digits, from 12 digits."""
    digitos = [int(c) for c in base]
    for pesos in ((5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2), (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)):
        resto = sum(d * p for d, p in zip(digitos, pesos, strict=True)) % 11
        digitos.append(0 if resto < 2 else 11 - resto)
    t = "".join(map(str, digitos))
    return f"{t[:2]}.{t[2:5]}.{t[5:8]}/{t[8:12]}-{t[12:]}"


CNPJ_ALFA = cnpj_valido("334455660001")
CNPJ_BETA = cnpj_valido("778899000001")
ALFA, BETA = "Transportes Alfa Ltda.", "Expresso Beta Ltda."


def livro_xlsx(
    linhas: Sequence[Sequence[Any]],
    *,
    titulo: str = "Planilha",
    oculta_antes: bool = True,
    mesclas: Sequence[str] = (),
) -> bytes:
    """The sheet `titulo` (after a hidden sheet of lookup lists, unless `oculta_antes` is False)."""
    livro = openpyxl.Workbook()
    primeira = livro.active
    assert primeira is not None
    if oculta_antes:
        primeira.title = "Listas"
        primeira.append(["Modalidades"])
        primeira.append(["Concessionária"])
        primeira.sheet_state = "hidden"
        ws = livro.create_sheet(titulo)
    else:
        ws = primeira
        ws.title = titulo
    for linha in linhas:
        ws.append(list(linha))
    for faixa in mesclas:
        ws.merge_cells(faixa)
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()


TITULOS = [["PREFEITURA MUNICIPAL DE PELOTAS"], ["Secretaria de Segurança — relação de 2026"], []]


def operadoras() -> bytes:
    return livro_xlsx(
        [
            *TITULOS,
            ["Empresa", "CNPJ/CPF", "Modalidade", "Endereço", "Nº", "Vencimento"],
            [ALFA, CNPJ_ALFA, "Concessionária", "Rua Alfa", 100, "5/3/35"],
            [BETA, CNPJ_BETA, "Permissionária", "Rua Beta", "12", datetime(2031, 1, 31)],
            [],
            ["Total: 2 empresas"],
        ],
        titulo="Empresas",
    )


OPERADORAS_ESPERADAS = {
    CNPJ_ALFA: ("concessao", "Rua Alfa", "100", date(2035, 3, 5)),
    CNPJ_BETA: ("permissao", "Rua Beta", "12", date(2031, 1, 31)),
}


def veiculos() -> bytes:
    """Alfa's name and CNPJ merged over its three buses (rows 5–7)."""
    return livro_xlsx(
        [
            *TITULOS,
            ["Empresa", "CNPJ", "Nº de Ordem", "Placa", "RENAVAM", "Ano Fab.", "Venc. Vistoria", "Venc. Licença",
             "Situação", "Sentados"],
            [ALFA, CNPJ_ALFA, 101, "IAA1A11", 345678915, 2019, "23/7/27", "5/3/35", "Em operação", 40],
            [None, None, 102, "IAA-2222", "98765432103", 2015.0, datetime(2027, 1, 10), "10/01/2027",
             "Desativado", 38.0],
            [None, None, "103", "IAA3C33", 11122233340, 2021, "1/12/26", "01/12/26", "Reserva", "42"],
            [BETA, CNPJ_BETA, 201, "IBB1B11", 55566677781, 2020, "30/6/28", "30/6/28", "Ativo", 40],
            ["Total: 4 veículos"],
        ],
        titulo="Frota",
        mesclas=("A5:A7", "B5:B7"),
    )  # fmt: skip


VEICULOS_ESPERADOS = {
    # placa: (operadora, prefixo, renavam, ano, vistoria, licença, situação)
    "IAA1A11": (CNPJ_ALFA, "101", "00345678915", 2019, date(2027, 7, 23), date(2035, 3, 5), "ativo"),
    "IAA2222": (CNPJ_ALFA, "102", "98765432103", 2015, date(2027, 1, 10), date(2027, 1, 10), "baixado"),
    "IAA3C33": (CNPJ_ALFA, "103", "11122233340", 2021, date(2026, 12, 1), date(2026, 12, 1), "reserva"),
    "IBB1B11": (CNPJ_BETA, "201", "55566677781", 2020, date(2028, 6, 30), date(2028, 6, 30), "ativo"),
}


def fiscais() -> bytes:
    return livro_xlsx(
        [["Fiscais da SMSU"], ["Nome", "Matrícula", "Situação"], ["Rosa Fiscal", "SMSU-101", "Em atividade"],
         ["Paulo Antigo", "SMSU-102", "Aposentado"]],
        oculta_antes=False,
    )  # fmt: skip


FISCAIS_ESPERADOS = {"SMSU-101": ("Rosa Fiscal", True), "SMSU-102": ("Paulo Antigo", False)}


@dataclass(frozen=True)
class AutoEsperado:
    numero: int
    ano: int
    operadora: str
    placa: str | None
    dispositivo: str
    infracao: date
    decisao: date | None
    multa: Decimal
    valor_pago: Decimal | None
    pago_em: date | None
    situacao_pagamento: str | None
    encerrado: str | None


CABECALHO_AUTOS = ["Nº/Ano", "Empresa", "Placa/Prefixo", "Artigo", "Data", "Fiscal", "Data da decisão",
                   "Multa Aplicada (URM)", "Valor pago (R$)", "Pago (Sim/Não)", "Data do pagamento",
                   "Situação final"]  # fmt: skip


def autos() -> tuple[bytes, list[AutoEsperado]]:
    """The book: no "definitiva" column (the paper books never say it), fines typed as numbers."""
    linhas: list[list[Any]] = [
        ["12/2025", ALFA, "IAA1A11", "Art. 1º, I", "5/3/25", "Rosa Fiscal", "20/4/25", 1.5, 82.37, "Sim",
         "10/5/25", ""],
        ["13/2025", BETA, "", "1-VI", date(2025, 6, 1), "Paulo Antigo", datetime(2025, 7, 1), "0,50", None, "Não",
         None, "Inscrito em dívida ativa"],
        ["14/2026", ALFA, "102", "1-I", "2/2/26", "Rosa Fiscal", None, None, None, None, None, ""],
        ["15/2026", ALFA, None, "1-I", "10/3/26", "Rosa Fiscal", "1/4/26", "1.234,56", None, None, None, ""],
    ]  # fmt: skip
    esperados = [
        AutoEsperado(12, 2025, CNPJ_ALFA, "IAA1A11", "1-I", date(2025, 3, 5), date(2025, 4, 20),
                     Decimal("1.50"), Decimal("82.37"), date(2025, 5, 10), "pago", None),
        AutoEsperado(13, 2025, CNPJ_BETA, None, "1-VI", date(2025, 6, 1), date(2025, 7, 1), Decimal("0.50"),
                     None, None, "divida_ativa", "divida_ativa"),
        AutoEsperado(14, 2026, CNPJ_ALFA, "IAA2222", "1-I", date(2026, 2, 2), None, Decimal(0), None, None,
                     None, None),
    ]  # fmt: skip
    # Row 15's fine (1.234,56 URM) is beyond the law's cap: refused, naming the column and the value.
    conteudo = livro_xlsx(
        [*TITULOS, CABECALHO_AUTOS, *linhas, [], ["Total: 4 autos"]], titulo="Livro 2025-2026"
    )
    return conteudo, esperados


def operadora_com_problemas() -> tuple[bytes, list[tuple[str, str, str]]]:
    """A title row, then one operator whose row has five independent problems (its CNPJ, a blank address, its
    UF, its e-mail, a contract that ends before it starts); each expected as (column title, value, why)."""
    conteudo = livro_xlsx(
        [TITULOS[0], ["Empresa", "CNPJ/CPF", "Endereço", "UF", "E-mail", "Início do contrato", "Vencimento"],
         ["Viação Gama", "11.222.333/0001-00", "", "XX", "gama@", "1/1/30", "1/1/25"]],
        titulo="Empresas",
    )  # fmt: skip
    esperados = [
        ("CNPJ/CPF", "11.222.333/0001-00", "dígito verificador"),
        ("Endereço", "", "Informe o endereço"),
        ("UF", "XX", "inválida"),
        ("E-mail", "gama@", "inválido"),
        ("Vencimento", "01/01/2025", "não pode ser anterior ao início (01/01/2030)"),
    ]
    return conteudo, esperados


def autos_corrigido() -> bytes:
    """The book again, auto 12/2025 with its vehicle, payment day and amount paid left blank (a corrected
    copy where the clerk did not retype them)."""
    linha = ["12/2025", ALFA, "", "Art. 1º, I", "5/3/25", "Rosa Fiscal", "20/4/25", 1.5, None, "", None, ""]
    return livro_xlsx([*TITULOS, CABECALHO_AUTOS, linha], titulo="Livro corrigido")


EM_BRANCO_NO_CORRIGIDO = ["Placa/Prefixo", "Valor pago (R$)", "Data do pagamento"]


CABECALHO_MULTA_REAIS = ["Nº/Ano", "Empresa", "Artigo", "Data", "Fiscal", "Data da decisão", "Valor da multa (R$)",
                         "Multa (URM)"]  # fmt: skip


def livro_multa_em_reais() -> tuple[bytes, dict[tuple[int, int], tuple[Decimal, Decimal]]]:
    """A book that writes its fines in reais (the URM table of `tests.helpers.fabrica`: R$ 150,00 from 2020,
    R$ 164,74 from 2026). Two rows convert exactly; one amount is no URM amount with two decimals, one
    disagrees with its URM column: both refused. Expected: (ano, número) → (URM, R$)."""
    conteudo = livro_xlsx(
        [*TITULOS, CABECALHO_MULTA_REAIS,
         ["30/2025", ALFA, "1-I", "5/3/25", "Rosa Fiscal", "20/4/25", 225, None],
         ["34/2026", ALFA, "1-I", "5/3/26", "Rosa Fiscal", "20/4/26", "R$ 82,37", "0,50"],
         ["31/2025", ALFA, "1-I", "6/3/25", "Rosa Fiscal", "20/4/25", "100,00", None],
         ["32/2025", ALFA, "1-I", "7/3/25", "Rosa Fiscal", "20/4/25", 75.0, 0.6]],
        titulo="Livro",
    )  # fmt: skip
    esperados = {
        (2025, 30): (Decimal("1.50"), Decimal("225.00")),
        (2026, 34): (Decimal("0.50"), Decimal("82.37")),
    }
    return conteudo, esperados
