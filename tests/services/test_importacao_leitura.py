"""Reading the office's files: xlsx sheets by name, CSV in UTF-8 or Windows-1252 with ";" or ",",
formulas read by their cached value (never evaluated) or refused, merged headers, blank rows, limits."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from secretaria.services.importacao import leitura
from secretaria.services.importacao.colunas import mapear, normalizar
from secretaria.services.importacao.leitura import ArquivoInvalido, ler_arquivo, ler_conteudo


def _livro(*abas: tuple[str, list[list[object]]]) -> openpyxl.Workbook:
    livro = openpyxl.Workbook()
    livro.remove(livro.worksheets[0])
    for nome, linhas in abas:
        ws = livro.create_sheet(nome)
        for linha in linhas:
            ws.append(linha)
    return livro


def _bytes(livro: openpyxl.Workbook) -> bytes:
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()


def test_aba_escolhida_pelo_nome_e_aba_inexistente() -> None:
    conteudo = _bytes(
        _livro(("Capa", [["Relação da frota"], ["2026"]]), ("Frota 2026", [["Placa"], ["IAB1C23"]]))
    )
    assert ler_conteudo(conteudo, "f.xlsx").cabecalhos == ("Relação da frota",)
    planilha = ler_conteudo(conteudo, "f.xlsx", "frota 2026")
    assert planilha.aba == "Frota 2026" and planilha.linhas == ((2, ("IAB1C23",)),)
    with pytest.raises(
        ArquivoInvalido, match=re.escape("não tem a aba “Frota 2025”. Abas do arquivo: Capa, Frota 2026")
    ):
        ler_conteudo(conteudo, "f.xlsx", "Frota 2025")


@pytest.mark.parametrize(
    ("codificacao", "bom", "separador", "esperada"),
    [
        ("cp1252", b"", ";", "Windows-1252 (Latin-1)"),
        ("utf-8", b"", ",", "UTF-8"),
        ("utf-8", b"\xef\xbb\xbf", ";", "UTF-8"),
    ],
)
def test_csv_codificacao_e_separador(codificacao: str, bom: bytes, separador: str, esperada: str) -> None:
    texto = separador.join(["Razão social", "Função", "Observação"]) + "\n"
    texto += separador.join(["Viação São João", "Motorista", "ação, já"]).replace("ação, já", '"ação, já"')
    planilha = ler_conteudo(bom + texto.encode(codificacao), "x.csv")
    assert planilha.codificacao == esperada
    assert planilha.cabecalhos == ("Razão social", "Função", "Observação")
    assert planilha.linhas[0][1] == ("Viação São João", "Motorista", "ação, já")


def test_formula_lida_pelo_valor_guardado_nunca_calculada() -> None:
    conteudo = _bytes(_livro(("Dados", [["Nome", "Matrícula"], ["Rui", '="SMSU-"&1']])))
    with pytest.raises(
        ArquivoInvalido, match=re.escape("A célula B2 de f.xlsx tem uma fórmula sem valor calculado")
    ):
        ler_conteudo(conteudo, "f.xlsx")
    # The same file as Excel saves it: the formula with its cached value.
    entrada = zipfile.ZipFile(io.BytesIO(conteudo))
    saida = io.BytesIO()
    with zipfile.ZipFile(saida, "w") as z:
        for info in entrada.infolist():
            dados = entrada.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                dados = dados.replace(b'<c r="B2"><f>', b'<c r="B2" t="str"><f>').replace(
                    b"<v></v>", b"<v>SMSU-1</v>"
                )
            z.writestr(info, dados)
    planilha = ler_conteudo(saida.getvalue(), "f.xlsx")
    assert planilha.linhas == ((2, ("Rui", "SMSU-1")),)


def test_cabecalho_mesclado_recusado() -> None:
    livro = _livro(("Dados", [["Dados do veículo", None], ["IAB1C23", "00123456789"]]))
    livro["Dados"].merge_cells("A1:B1")
    with pytest.raises(
        ArquivoInvalido, match=re.escape("A coluna B de f.xlsx tem dados mas não tem título na linha 1")
    ):
        ler_conteudo(_bytes(livro), "f.xlsx")


def test_linhas_em_branco_no_meio_ignoradas_e_informadas_as_do_fim_nao() -> None:
    texto = "Nome;Matrícula\nA;1\n;\n\nB;2\n;\n\n"
    planilha = ler_conteudo(texto.encode(), "f.csv")
    assert [n for n, _v in planilha.linhas] == [2, 5]
    assert planilha.linhas_em_branco == (3, 4)


@pytest.mark.parametrize(
    ("texto", "mensagem"),
    [
        ("\n;;\n", "não tem nenhuma linha preenchida"),
        ("Nome;Matrícula\n", "só tem o cabeçalho"),
    ],
)
def test_planilha_sem_dados(texto: str, mensagem: str) -> None:
    with pytest.raises(ArquivoInvalido, match=mensagem):
        ler_conteudo(texto.encode(), "f.csv")


def test_limites_de_tamanho_e_de_linhas(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(leitura, "LIMITE_BYTES", 1024 * 1024)
    grande = tmp_path / "grande.csv"
    grande.write_bytes(b"Nome;CPF\n" + b"x;1\n" * 300_000)
    with pytest.raises(ArquivoInvalido, match="tem 1,1 MB; o limite é 1 MB"):
        ler_arquivo(grande)
    monkeypatch.setattr(leitura, "LIMITE_LINHAS", 100)
    with pytest.raises(ArquivoInvalido, match="mais de 100 linhas"):
        ler_conteudo(b"Nome;CPF\n" + b"x;1\n" * 101, "f.csv")
    with pytest.raises(ArquivoInvalido, match="mais de 100 linhas"):
        linhas: list[list[object]] = [["Nome"]]
        for _ in range(101):
            linhas.append(["x"])
        ler_conteudo(_bytes(_livro(("A", linhas))), "f.xlsx")


def test_arquivo_inexistente_e_pasta(tmp_path: Path) -> None:
    with pytest.raises(ArquivoInvalido, match="não existe"):
        ler_arquivo(tmp_path / "nada.xlsx")
    with pytest.raises(ArquivoInvalido, match="é uma pasta"):
        ler_arquivo(tmp_path)


def test_cabecalhos_por_caixa_acento_e_sinonimo() -> None:
    assert normalizar("  PLACA do Veículo ") == "placa veiculo"
    assert normalizar("Nº do CPF") == "cpf"
    mapa = mapear("veiculos", ["PLACA DO VEÍCULO", "renavam", "Número de frota", "CNPJ", "Cor"])
    assert mapa.colunas == {"placa": 0, "renavam": 1, "prefixo": 2, "operadora_cnpj": 3}
    assert mapa.nao_reconhecidas == ("Cor",) and not mapa.faltando
    empregados = mapear("empregados", ["CPF do motorista", "Nome", "Cnpj da Empresa"])
    assert empregados.colunas == {"cpf": 0, "nome": 1, "operadora_cnpj": 2}
    operadoras = mapear("operadoras", ["RAZÃO SOCIAL", "Cnpj", "Endereço"])
    assert operadoras.colunas == {"razao_social": 0, "cnpj": 1, "logradouro": 2}
