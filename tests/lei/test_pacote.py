"""O pacote ``secretaria.lei`` como um todo: puro, e com uma só exceção de base."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from decimal import Decimal

from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data, formatar_decimal, formatar_reais, formatar_urm


def test_nao_importa_qt_nem_sqlalchemy_nem_o_resto_do_projeto() -> None:
    codigo = (
        "import sys\n"
        "import secretaria.lei.catalogo, secretaria.lei.sancoes, secretaria.lei.prazos\n"
        "import secretaria.lei.urm, secretaria.lei.documentos\n"
        "secretaria.lei.prazos.vencimento(__import__('datetime').date(2026, 11, 20))\n"
        "proibidos = [m for m in sys.modules if m.split('.')[0] in {'PySide6', 'sqlalchemy', 'alembic'}\n"
        "             or (m.startswith('secretaria.')\n"
        "                 and not m.startswith(('secretaria.lei', 'secretaria.resources')))]\n"
        "print(proibidos)\n"
    )
    saida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True)
    assert saida.stdout.strip() == "[]"


def test_erro_lei_e_value_error() -> None:
    assert issubclass(ErroLei, ValueError)


def test_formatos_brasileiros() -> None:
    assert formatar_data(date(2026, 12, 7)) == "07/12/2026"
    assert formatar_data(date(5, 1, 2)) == "02/01/0005"
    assert formatar_decimal(Decimal("-1234.5")) == "-1.234,50"
    assert formatar_decimal(Decimal("0.005")) == "0,01"


def test_formatar_decimal_nao_quebra_com_numeros_grandes() -> None:
    assert formatar_decimal(Decimal(2**100)) == "1.267.650.600.228.229.401.496.703.205.376,00"
    assert formatar_decimal(Decimal("1E+30"), casas=0) == "1.000.000.000.000.000.000.000.000.000.000"


def test_dinheiro_negativo_na_convencao_brasileira() -> None:
    """The sign goes before the currency symbol, "-R$ 1.234,56", in every screen and document alike."""
    assert formatar_reais(Decimal("-1234.56")) == "-R$ 1.234,56"
    assert formatar_reais(Decimal("1234.56")) == "R$ 1.234,56"
    assert formatar_reais(7) == "R$ 7,00"
    assert formatar_reais(Decimal(-(2**100))) == "-R$ 1.267.650.600.228.229.401.496.703.205.376,00"
    assert formatar_urm(Decimal("-0.5")) == "-0,50 URM"


def test_o_que_arredonda_para_zero_nao_tem_sinal() -> None:
    assert formatar_decimal(Decimal("-0.004")) == "0,00"
    assert formatar_decimal(Decimal("-0")) == "0,00"
    assert formatar_reais(Decimal("-0.001")) == "R$ 0,00"
