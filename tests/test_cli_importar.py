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


def test_todos_os_problemas_de_uma_linha_de_cadastro_pela_linha_de_comando(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import livros

    conteudo, esperados = livros.operadora_com_problemas()
    arquivo = tmp_path / "empresas.xlsx"
    arquivo.write_bytes(conteudo)
    antes = contagens(banco)
    codigo, out, _err = rodar(capsys, "importar", "operadoras", str(arquivo), "--db", banco_url)
    assert codigo == 1 and contagens(banco) == antes
    (linha,) = [t for t in out.splitlines() if t.startswith("linha 3: ")]
    partes = linha.removeprefix("linha 3: ").split("Coluna “")[1:]
    assert len(partes) == len(esperados), linha
    for parte, (coluna, valor, motivo) in zip(partes, esperados, strict=True):
        assert parte.startswith(f"{coluna}”") and valor in parte and motivo in parte
    banco.fechar()


def test_livro_corrigido_pela_linha_de_comando_em_branco_so_apaga_com_limpar_vazias(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlalchemy as sa

    from secretaria.models import AutoInfracao
    from tests.helpers import livros

    for tipo, conteudo in (
        ("operadoras", livros.operadoras()),
        ("fiscais", livros.fiscais()),
        ("veiculos", livros.veiculos()),
        ("autos", livros.autos()[0]),
    ):
        caminho = tmp_path / f"{tipo}.xlsx"
        caminho.write_bytes(conteudo)
        rodar(capsys, "importar", tipo, str(caminho), "--so-validas", "--db", banco_url)
    corrigido = tmp_path / "livro-corrigido.xlsx"
    corrigido.write_bytes(livros.autos_corrigido())

    def veiculo() -> int | None:
        with banco.leitura() as s:
            return s.scalar(sa.select(AutoInfracao.veiculo_id).where(AutoInfracao.numero == 12))

    assert veiculo() is not None
    codigo, out, _err = rodar(capsys, "importar", "autos", str(corrigido), "--db", banco_url)
    assert codigo == 0 and "Aviso: Em 1 linha, células em branco deixam os valores cadastrados" in out
    assert "0 atualizadas, 1 sem alteração" in out and veiculo() is not None
    codigo, out, _err = rodar(
        capsys, "importar", "autos", str(corrigido), "--limpar-vazias", "--db", banco_url
    )
    assert codigo == 0
    assert f"linha 5: a célula em branco apaga o valor de {', '.join(livros.EM_BRANCO_NO_CORRIGIDO)}" in out
    assert "1 atualizada" in out and veiculo() is None
    banco.fechar()


def test_multa_em_reais_pela_linha_de_comando(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlalchemy as sa

    from secretaria.models import AutoInfracao, Decisao
    from tests.helpers import livros

    for tipo, conteudo in (("operadoras", livros.operadoras()), ("fiscais", livros.fiscais())):
        caminho = tmp_path / f"{tipo}.xlsx"
        caminho.write_bytes(conteudo)
        assert rodar(capsys, "importar", tipo, str(caminho), "--db", banco_url)[0] == 0
    conteudo, esperados = livros.livro_multa_em_reais()
    livro = tmp_path / "livro-reais.xlsx"
    livro.write_bytes(conteudo)
    codigo, out, _err = rodar(capsys, "importar", "autos", str(livro), "--so-validas", "--db", banco_url)
    assert codigo == 1 and "2 novas" in out
    assert "linha 7: Coluna “Valor da multa (R$)”: R$ 100,00 não corresponde a uma multa em URM" in out
    assert "linha 8: Coluna “Valor da multa (R$)”: A multa em reais (R$ 75,00) é 0,50 URM" in out
    with banco.leitura() as s:
        for (ano, numero), (urm, reais) in esperados.items():
            linha = s.execute(
                sa.select(AutoInfracao.multa_ur, Decisao.multa_reais)
                .join(Decisao, Decisao.auto_id == AutoInfracao.id)
                .where(AutoInfracao.ano == ano, AutoInfracao.numero == numero)
            ).one()
            assert tuple(linha) == (urm, reais)
    banco.fechar()


def test_avaliacao_dos_arquivos_do_orgao_pela_linha_de_comando(
    banco: Banco, banco_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one-shot evaluation (`tests.helpers.avaliacao_livros`) through `secretaria importar`: the refused
    rows are the ones it prints, every accepted row stored exactly as the file says."""
    import re

    from secretaria import relogio
    from tests.helpers import avaliacao_livros

    def importar_arquivo(tipo: str, conteudo: bytes) -> dict[int, str]:
        caminho = tmp_path / f"{tipo}.xlsx"
        caminho.write_bytes(conteudo)
        presumir = ["--presumir-definitiva", str(avaliacao_livros.PRESUNCAO)] if tipo == "autos" else []
        codigo, out, err = rodar(
            capsys, "importar", tipo, str(caminho), "--so-validas", *presumir, "--db", banco_url
        )
        assert codigo in (0, 1), err
        return {int(m[1]): m[2] for m in re.finditer(r"^linha (\d+): (.*)$", out, re.MULTILINE)}

    conjunto = avaliacao_livros.gerar(relogio.hoje())
    resumo = avaliacao_livros.conferir(avaliacao_livros.avaliar(banco, conjunto, importar_arquivo), conjunto)
    with capsys.disabled():
        print(f"\n[{banco.engine.dialect.name}, linha de comando]\n{resumo}")
    banco.fechar()
