"""`secretaria importar TIPO ARQUIVO`: exit 0 when every row is imported, 1 when rows were
refused (each printed as "linha N: motivo", nothing written unless --so-validas), 2 when the file or the
arguments are unusable; `--modelo` writes the template."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from secretaria import cli
from secretaria.db import Banco
from secretaria.services.semente import abrir_e_semear
from tests.helpers.fabrica import contagens, popular

CABECALHO = "Razão social;CNPJ;Logradouro;Bairro\n"
VALIDA = "Viação Nova Ltda.;11.444.777/0001-61;Rua A;Centro\n"
INVALIDA = "Viação Errada Ltda.;11.444.777/0001-00;Rua B;Centro\n"


@pytest.fixture
def banco(banco_url: str) -> Banco:
    b = abrir_e_semear(banco_url)
    popular(b)
    return b


def rodar(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    codigo = cli.main(list(argv))
    saida = capsys.readouterr()
    return codigo, saida.out, saida.err


def _arquivo(tmp_path: Path, *linhas: str) -> Path:
    caminho = tmp_path / "operadoras.csv"
    caminho.write_bytes((CABECALHO + "".join(linhas)).encode("cp1252"))
    return caminho


def test_linhas_recusadas_saida_1_nada_gravado_e_com_so_validas_grava_as_validas(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arquivo = _arquivo(tmp_path, VALIDA, INVALIDA)
    antes = contagens(banco)
    codigo, out, _err = rodar(capsys, "importar", "operadoras", str(arquivo), "--db", banco_url)
    assert codigo == 1
    assert "linha 3: Coluna “CNPJ”, “11.444.777/0001-00”: O dígito verificador do CNPJ não confere." in out
    assert "Nada foi gravado" in out
    assert contagens(banco) == antes

    codigo, out, _err = rodar(capsys, "importar", "operadoras", str(arquivo), "--simular", "--db", banco_url)
    assert codigo == 1 and "Simulação" in out and contagens(banco) == antes

    recusadas = tmp_path / "recusadas.xlsx"
    codigo, out, _err = rodar(
        capsys,
        "importar",
        "operadoras",
        str(arquivo),
        "--so-validas",
        "--recusadas",
        str(recusadas),
        "--db",
        banco_url,
    )
    assert codigo == 1
    assert "0 novas, 1 atualizada, 0 sem alteração, 1 recusada" in out
    ws = openpyxl.load_workbook(recusadas).worksheets[0]
    linhas = list(ws.iter_rows(values_only=True))
    assert linhas[0][-1] == "Motivo da recusa"
    assert linhas[1][0] == "Viação Errada Ltda." and linhas[1][-1].endswith(
        "O dígito verificador do CNPJ não confere."
    )
    banco.fechar()


def test_tudo_valido_saida_0_e_de_novo_sem_alteracao(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arquivo = _arquivo(tmp_path, VALIDA)
    codigo, out, _err = rodar(capsys, "importar", "operadoras", str(arquivo), "--db", banco_url)
    assert codigo == 0, out
    antes = contagens(banco)
    codigo, out, _err = rodar(capsys, "importar", "operadoras", str(arquivo), "--db", banco_url)
    assert codigo == 0 and "1 sem alteração" in out
    assert contagens(banco) == antes
    banco.fechar()


@pytest.mark.parametrize(
    ("conteudo", "mensagem"),
    [
        (b"", "está vazio"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "Excel antigo (.xls)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "não é uma planilha"),
        (b"PK\x03\x04 isto nao e um zip", "não pôde ser lido como planilha .xlsx"),
        ("Denominação;Endereço\nA;B\n".encode(), "colunas obrigatórias: Razão social, CNPJ"),
    ],
)
def test_arquivo_inutilizavel_saida_2(
    conteudo: bytes,
    mensagem: str,
    banco: Banco,
    banco_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    arquivo = tmp_path / "x.csv"
    arquivo.write_bytes(conteudo)
    antes = contagens(banco)
    codigo, _out, err = rodar(capsys, "importar", "operadoras", str(arquivo), "--db", banco_url)
    assert codigo == 2
    assert mensagem in err
    assert contagens(banco) == antes
    banco.fechar()


def test_argumentos_inutilizaveis_saida_2(
    banco: Banco, banco_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    banco.fechar()
    codigo, _out, err = rodar(capsys, "importar", "operadoras", "--db", banco_url)
    assert codigo == 2 and "Informe o ARQUIVO a importar" in err
    with pytest.raises(SystemExit) as saida:
        cli.main(["importar", "onibus", "x.csv"])
    assert saida.value.code == 2
    assert "valor inválido: 'onibus'" in capsys.readouterr().err


def test_modelo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    destino = tmp_path / "modelo-empregados.xlsx"
    codigo, out, _err = rodar(capsys, "importar", "empregados", "--modelo", str(destino))
    assert codigo == 0 and str(destino) in out
    livro = openpyxl.load_workbook(io.BytesIO(destino.read_bytes()))
    assert [c.value for c in livro["Dados"][1]][:3] == ["Nome", "CPF", "CNPJ da operadora"]


def test_historico_de_autos_pela_linha_de_comando(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arquivo = tmp_path / "livro.csv"
    arquivo.write_text(
        "Nº do auto;CNPJ da operadora;Dispositivo;Data da infração;Matrícula do fiscal\n"
        "0005/2025;11.222.333/0001-81;Art. 1º, VI;10/02/2025;SMSU-001\n"
        "0006/2025;11.222.333/0001-81;Art. 1º, VI;10/02/2025;SMSU-404\n",
        encoding="utf-8",
    )
    codigo, out, _err = rodar(capsys, "importar", "autos", str(arquivo), "--so-validas", "--db", banco_url)
    assert codigo == 1
    assert "linha 3: Coluna “Matrícula do fiscal”: Fiscal de matrícula “SMSU-404” não cadastrado" in out
    assert "1 nova" in out
    banco.fechar()


def test_planilhas_do_orgao_pela_linha_de_comando(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The office's own files (title rows, hidden sheet, merged CNPJ, numbers as numbers, two-digit
    years, its words), the presumption of the book's final days, and blank cells that clear only on request."""
    from datetime import timedelta

    import sqlalchemy as sa

    from secretaria.lei.documentos import validar_cnpj
    from secretaria.models import AutoInfracao, Operadora
    from tests.helpers import livros

    for tipo, conteudo in (
        ("operadoras", livros.operadoras()),
        ("fiscais", livros.fiscais()),
        ("veiculos", livros.veiculos()),
    ):
        caminho = tmp_path / f"{tipo}.xlsx"
        caminho.write_bytes(conteudo)
        codigo, out, _err = rodar(capsys, "importar", tipo, str(caminho), "--db", banco_url)
        assert codigo == 0, out
    assert "Aviso: Lida a aba “Frota”, a primeira visível; outras abas: Listas (oculta)." in out
    assert "Aviso: Rodapé ignorado: linha 9." in out

    conteudo, esperados = livros.autos()
    livro = tmp_path / "livro.xlsx"
    livro.write_bytes(conteudo)
    codigo, out, _err = rodar(capsys, "importar", "autos", str(livro), "--simular", "--db", banco_url)
    assert codigo == 1
    assert (
        "Aviso: 2 autos com penalidade aplicada não têm a data em que a penalidade se tornou definitiva"
        in out
    )
    assert "linha 8: Coluna “Multa Aplicada (URM)”" in out and "1.234,56" in out
    antes = contagens(banco)
    codigo, out, _err = rodar(
        capsys,
        "importar",
        "autos",
        str(livro),
        "--so-validas",
        "--presumir-definitiva",
        "45",
        "--db",
        banco_url,
    )
    assert codigo == 1 and "3 novas" in out
    assert contagens(banco) != antes
    with banco.leitura() as s:
        for e in esperados:
            auto = s.scalars(
                sa.select(AutoInfracao).where(AutoInfracao.ano == e.ano, AutoInfracao.numero == e.numero)
            ).one()
            assert (auto.data_infracao, auto.data_decisao, auto.multa_ur) == (e.infracao, e.decisao, e.multa)
            presumida = e.decisao + timedelta(days=45) if e.decisao else None
            assert (auto.data_definitiva, auto.definitiva_presumida) == (presumida, e.decisao is not None)

    # A blank cell keeps the registered value, unless --limpar-vazias; the preview says which it clears.
    vazio = tmp_path / "operadoras-vazio.csv"
    vazio.write_text(
        f"CNPJ;Razão social;Logradouro;Nº\n{livros.CNPJ_ALFA};{livros.ALFA};Rua Alfa;\n", "utf-8"
    )
    codigo, out, _err = rodar(capsys, "importar", "operadoras", str(vazio), "--db", banco_url)
    assert codigo == 0 and "deixam os valores cadastrados como estão" in out

    def numero() -> str:
        with banco.leitura() as s:
            op = s.scalars(sa.select(Operadora).where(Operadora.cnpj == validar_cnpj(livros.CNPJ_ALFA))).one()
            return op.numero_endereco

    assert numero() == "100"
    codigo, out, _err = rodar(
        capsys, "importar", "operadoras", str(vazio), "--limpar-vazias", "--db", banco_url
    )
    assert codigo == 0 and "linha 2: a célula em branco apaga o valor de Nº" in out
    assert numero() == ""


def test_coluna_ambigua_perguntada_e_resolvida_com_coluna(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arquivo = tmp_path / "livro.csv"
    arquivo.write_text(
        "Nº do auto;CNPJ da operadora;Dispositivo;Data da infração;Matrícula do fiscal;Data da decisão do recurso\n"
        "0005/2025;11.222.333/0001-81;Art. 1º, VI;10/02/2025;SMSU-001;\n",
        encoding="utf-8",
    )
    codigo, _out, err = rodar(capsys, "importar", "autos", str(arquivo), "--simular", "--db", banco_url)
    assert codigo == 2
    assert "“Data da decisão do recurso” pode ser Data da decisão ou Recurso" in err
    codigo, out, _err = rodar(
        capsys, "importar", "autos", str(arquivo), "--simular", "--coluna", "Data da decisão do recurso=",
        "--db", banco_url,
    )  # fmt: skip
    assert codigo == 0 and "1 nova" in out
