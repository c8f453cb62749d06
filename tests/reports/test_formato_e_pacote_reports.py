"""pt-BR formatting, and the package's boundaries: plain data in, nothing heavy loaded at start-up."""

from __future__ import annotations

import ast
import subprocess
import sys
from datetime import date, time
from decimal import Decimal
from pathlib import Path

import pytest

from secretaria.reports import formato

RAIZ = Path(__file__).resolve().parents[2]
PACOTE = RAIZ / "secretaria" / "reports"


@pytest.mark.parametrize(
    ("valor", "esperado"),
    [
        (Decimal("82.37"), "R$ 82,37"),
        (Decimal("1234.5"), "R$ 1.234,50"),
        (Decimal("1234567.891"), "R$ 1.234.567,89"),
        (Decimal("0.005"), "R$ 0,01"),  # half-up, as REGRAS § 2 rounds
        (Decimal("0"), "R$ 0,00"),
        (Decimal("-3.5"), "-R$ 3,50"),
    ],
)
def test_formatar_reais(valor: Decimal, esperado: str) -> None:
    assert formato.formatar_reais(valor) == esperado


def test_datas_horas_e_urm() -> None:
    assert formato.formatar_data(date(2026, 2, 3)) == "03/02/2026"
    assert formato.formatar_hora(time(9, 5)) == "09h05"
    assert formato.formatar_urm(Decimal("0.5")) == "0,50 URM"
    assert formato.formatar_urm(Decimal("10")) == "10,00 URM"
    assert formato.data_por_extenso(date(2026, 3, 1)) == "1 de março de 2026"
    assert formato.inteiro_por_extenso(5) == "cinco"
    assert formato.inteiro_por_extenso(30) == "trinta"


def test_concorda_com_a_formatacao_da_lei() -> None:
    """reports prints money and URM by the law package's formatter, so both must print the same."""
    urm = pytest.importorskip("secretaria.lei.urm")
    for valor in (Decimal("0"), Decimal("82.37"), Decimal("1234.565"), Decimal("1000000")):
        assert formato.formatar_reais(valor) == urm.formatar_reais(valor)
        assert formato.formatar_urm(valor) == urm.formatar_urm(valor)


def test_limpar_texto() -> None:
    assert formato.limpar_texto("a\x00b\x07c\r\nd\te") == "abc\nd\te"


def test_imprimivel_guarda_o_que_a_fonte_desenha() -> None:
    from secretaria.reports.fontes import imprimivel

    assert imprimivel("Ação – “ok” € º ª 2⁴ … Erdoğan Łódź") == "Ação – “ok” € º ª 2⁴ … Erdoğan Łódź"
    # A character no face of the family draws: its plain letter when it has one, else "?" (never a box).
    assert imprimivel("n⁰ \U0001f68c") == "n0 ?"


def _importacoes(arquivo: Path) -> set[str]:
    arvore = ast.parse(arquivo.read_text(encoding="utf-8"))
    nomes: set[str] = set()
    for no in ast.walk(arvore):
        if isinstance(no, ast.Import):
            nomes.update(alias.name for alias in no.names)
        elif isinstance(no, ast.ImportFrom) and no.module:
            nomes.add(no.module)
    return nomes


def test_reports_le_dados_simples_sem_banco_nem_qt() -> None:
    proibidos = (
        "sqlalchemy",
        "PySide6",
        "secretaria.models",
        "secretaria.services",
        "secretaria.ui",
        "secretaria.db",
    )
    for arquivo in PACOTE.glob("*.py"):
        for nome in _importacoes(arquivo):
            assert not nome.startswith(proibidos), f"{arquivo.name} importa {nome}"


def test_importar_o_pacote_nao_carrega_reportlab_nem_openpyxl() -> None:
    codigo = (
        "import sys;"
        "import secretaria.reports, secretaria.reports.dados, secretaria.reports.formato,"
        " secretaria.reports.planilha_mensal;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('reportlab', 'openpyxl', 'num2words')))"
    )
    saida = subprocess.run(
        [sys.executable, "-c", codigo], cwd=RAIZ, capture_output=True, text=True, check=True
    )
    assert saida.stdout.strip() == "[]"
