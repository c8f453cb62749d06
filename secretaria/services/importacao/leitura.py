"""Reading the office's spreadsheets: `.xlsx` (any sheet, by name) and `.csv` (";" or ",", UTF-8 or the
Windows Latin-1 that Excel in Portuguese writes). No database here: the rows come back as plain values.

Formulas are never evaluated: openpyxl reads the value Excel cached when it last saved the file
(`data_only=True`); a formula cell without a cached value (a file written by a program that does not
calculate) is refused, naming the cell, instead of being read as empty. Blank rows are skipped and
reported; a header cell left empty over a column that has data (a merged header) is refused.
"""

from __future__ import annotations

import csv
import hashlib
import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from secretaria.erros import ErroDominio

__all__ = [
    "LIMITE_BYTES",
    "LIMITE_LINHAS",
    "ArquivoInvalido",
    "Planilha",
    "abas_do_arquivo",
    "ler_arquivo",
    "ler_conteudo",
]

LIMITE_BYTES = 30 * 1024 * 1024
"""Files beyond 30 MB are refused (a registry of 10,000 rows is well under 5 MB)."""
LIMITE_LINHAS = 100_000

Valor = str | int | float | date | datetime | time | bool | None


class ArquivoInvalido(ErroDominio):
    """The file cannot be read as a spreadsheet (or breaks a limit): nothing was written."""


@dataclass(frozen=True)
class Planilha:
    """The rows of one sheet: the header and, per data row, its row number in the file and its cells."""

    nome_arquivo: str
    sha256: str
    aba: str | None
    cabecalhos: tuple[str, ...]
    linhas: tuple[tuple[int, tuple[Valor, ...]], ...]
    linhas_em_branco: tuple[int, ...] = field(default=())
    """Row numbers skipped because every cell was empty."""
    codificacao: str | None = None
    """For a CSV: "UTF-8" or "Windows-1252 (Latin-1)"."""


def ler_arquivo(caminho: Path, aba: str | None = None) -> Planilha:
    """Read `caminho`; refusals (`ArquivoInvalido`) say what is wrong in Portuguese."""
    if caminho.is_dir():
        raise ArquivoInvalido(f"{caminho} é uma pasta: escolha um arquivo .xlsx ou .csv.")
    try:
        _conferir_tamanho(caminho.name, caminho.stat().st_size)
        conteudo = caminho.read_bytes()
    except FileNotFoundError:
        raise ArquivoInvalido(f"O arquivo {caminho} não existe.") from None
    except PermissionError:
        raise ArquivoInvalido(f"Sem permissão para ler o arquivo {caminho}.") from None
    except OSError as exc:
        raise ArquivoInvalido(f"Não foi possível ler o arquivo {caminho} (erro {exc.errno}).") from None
    return ler_conteudo(conteudo, caminho.name, aba)


def _conferir_tamanho(nome: str, tamanho: int) -> None:
    if tamanho == 0:
        raise ArquivoInvalido(f"O arquivo {nome} está vazio.")
    if tamanho > LIMITE_BYTES:
        mb = LIMITE_BYTES // (1024 * 1024)
        tem = f"{tamanho / 1024 / 1024:.1f}".replace(".", ",")
        raise ArquivoInvalido(
            f"O arquivo {nome} tem {tem} MB; o limite é {mb} MB. Divida a planilha em partes menores."
        )


def _tipo(conteudo: bytes, nome: str) -> str:
    if conteudo.startswith(b"PK\x03\x04"):
        return "xlsx"
    if conteudo.startswith(b"\xd0\xcf\x11\xe0"):
        raise ArquivoInvalido(
            f"{nome} é uma planilha do Excel antigo (.xls): abra-a no Excel e salve como "
            "“Pasta de Trabalho do Excel (.xlsx)” ou como CSV."
        )
    if b"\x00" in conteudo[:4096] and not conteudo.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ArquivoInvalido(f"{nome} não é uma planilha: use um arquivo .xlsx ou .csv.")
    return "csv"


def ler_conteudo(conteudo: bytes, nome: str, aba: str | None = None) -> Planilha:
    _conferir_tamanho(nome, len(conteudo))
    sha = hashlib.sha256(conteudo).hexdigest()
    if _tipo(conteudo, nome) == "xlsx":
        aba_lida, linhas = _ler_xlsx(conteudo, nome, aba)
        codificacao = None
    else:
        if aba is not None:
            raise ArquivoInvalido(f"{nome} é um arquivo CSV: ele não tem abas para escolher.")
        codificacao, linhas = _ler_csv(conteudo, nome)
        aba_lida = None
    return _montar(nome, sha, aba_lida, linhas, codificacao)


def abas_do_arquivo(caminho: Path) -> list[str]:
    """The sheet names of an .xlsx (empty for a CSV), for the window's sheet chooser."""
    conteudo = caminho.read_bytes()
    _conferir_tamanho(caminho.name, len(conteudo))
    if _tipo(conteudo, caminho.name) != "xlsx":
        return []
    livro = _abrir_xlsx(conteudo, caminho.name, data_only=True)
    try:
        return list(livro.sheetnames)
    finally:
        livro.close()


def _abrir_xlsx(conteudo: bytes, nome: str, *, data_only: bool) -> Any:
    import openpyxl

    try:
        return openpyxl.load_workbook(io.BytesIO(conteudo), read_only=True, data_only=data_only)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ArquivoInvalido(
            f"{nome} não pôde ser lido como planilha .xlsx ({exc.__class__.__name__}): o arquivo está "
            "danificado ou não é uma planilha do Excel."
        ) from None


def _ler_xlsx(conteudo: bytes, nome: str, aba: str | None) -> tuple[str, list[list[Valor]]]:
    formulas = _celulas_com_formula(conteudo, nome, aba)
    livro = _abrir_xlsx(conteudo, nome, data_only=True)
    try:
        planilha = _escolher_aba(livro, nome, aba)
        linhas: list[list[Valor]] = []
        for i, linha in enumerate(planilha.iter_rows(values_only=True), start=1):
            if i > LIMITE_LINHAS + 1:
                raise ArquivoInvalido(_mensagem_linhas(nome))
            valores = list(linha)
            for coluna in formulas.get(i, ()):
                if coluna < len(valores) and valores[coluna] is None:
                    raise ArquivoInvalido(
                        f"A célula {_letra(coluna)}{i} de {nome} tem uma fórmula sem valor calculado. "
                        "Abra a planilha no Excel e salve-a de novo (ou cole os valores no lugar das "
                        "fórmulas); o programa não calcula fórmulas."
                    )
            linhas.append(valores)
        return str(planilha.title), linhas
    finally:
        livro.close()


def _celulas_com_formula(conteudo: bytes, nome: str, aba: str | None) -> dict[int, list[int]]:
    """Row → column indexes of formula cells; a second pass only when the sheet holds any formula."""
    if not _xml_tem_formula(conteudo):
        return {}
    livro = _abrir_xlsx(conteudo, nome, data_only=False)
    try:
        planilha = _escolher_aba(livro, nome, aba)
        achadas: dict[int, list[int]] = {}
        for i, linha in enumerate(planilha.iter_rows(), start=1):
            for j, celula in enumerate(linha):
                if getattr(celula, "data_type", None) == "f":
                    achadas.setdefault(i, []).append(j)
        return achadas
    finally:
        livro.close()


def _xml_tem_formula(conteudo: bytes) -> bool:
    """Whether any worksheet of the (zipped) workbook contains a formula element."""
    try:
        with zipfile.ZipFile(io.BytesIO(conteudo)) as z:
            for info in z.infolist():
                if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                    xml = z.read(info)
                    if b"<f>" in xml or b"<f " in xml or b":f>" in xml or b":f " in xml:
                        return True
    except zipfile.BadZipFile:
        return False
    return False


def _escolher_aba(livro: Any, nome: str, aba: str | None) -> Any:
    if aba is None:
        return livro.worksheets[0]
    for titulo in livro.sheetnames:
        if titulo.strip().casefold() == aba.strip().casefold():
            return livro[titulo]
    raise ArquivoInvalido(f"{nome} não tem a aba “{aba}”. Abas do arquivo: {', '.join(livro.sheetnames)}.")


def _ler_csv(conteudo: bytes, nome: str) -> tuple[str, list[list[Valor]]]:
    if conteudo.startswith(b"\xef\xbb\xbf"):
        texto, codificacao = conteudo[3:].decode("utf-8", errors="strict"), "UTF-8"
    else:
        try:
            texto, codificacao = conteudo.decode("utf-8"), "UTF-8"
        except UnicodeDecodeError:
            # Excel in Portuguese saves "CSV (separado por vírgulas)" in Windows-1252.
            texto, codificacao = conteudo.decode("cp1252", errors="replace"), "Windows-1252 (Latin-1)"
    primeira = next((linha for linha in texto.splitlines() if linha.strip()), "")
    separador = ";" if primeira.count(";") >= primeira.count(",") and ";" in primeira else ","
    if "\t" in primeira and primeira.count("\t") > max(primeira.count(";"), primeira.count(",")):
        separador = "\t"
    leitor = csv.reader(io.StringIO(texto, newline=""), delimiter=separador)
    linhas: list[list[Valor]] = []
    try:
        for i, linha in enumerate(leitor, start=1):
            if i > LIMITE_LINHAS + 1:
                raise ArquivoInvalido(_mensagem_linhas(nome))
            linhas.append(list(linha))
    except csv.Error as exc:
        raise ArquivoInvalido(f"{nome} não pôde ser lido como CSV: {exc}.") from None
    return codificacao, linhas


def _mensagem_linhas(nome: str) -> str:
    limite = f"{LIMITE_LINHAS:,}".replace(",", ".")
    return f"{nome} tem mais de {limite} linhas, o limite de uma importação: divida a planilha em partes."


def _vazio(valor: Valor) -> bool:
    return valor is None or (isinstance(valor, str) and not valor.strip())


def _montar(
    nome: str, sha: str, aba: str | None, linhas: Sequence[list[Valor]], codificacao: str | None
) -> Planilha:
    inicio = next((i for i, linha in enumerate(linhas) if not all(_vazio(v) for v in linha)), None)
    if inicio is None:
        onde = f" (aba “{aba}”)" if aba else ""
        raise ArquivoInvalido(f"A planilha {nome}{onde} não tem nenhuma linha preenchida.")
    cabecalho = linhas[inicio]
    largura = max(len(linha) for linha in linhas[inicio:])
    titulos = [_texto_titulo(v) for v in cabecalho] + [""] * (largura - len(cabecalho))
    dados: list[tuple[int, tuple[Valor, ...]]] = []
    em_branco: list[int] = []
    for i in range(inicio + 1, len(linhas)):
        valores = tuple(linhas[i]) + (None,) * (largura - len(linhas[i]))
        if all(_vazio(v) for v in valores):
            em_branco.append(i + 1)
            continue
        dados.append((i + 1, valores))
    # Trailing blank rows (a sheet's formatted but empty end) are not "in the middle".
    ultima = dados[-1][0] if dados else inicio + 1
    em_branco = [n for n in em_branco if n < ultima]
    while titulos and not titulos[-1] and all(_vazio(v[len(titulos) - 1]) for _n, v in dados):
        titulos.pop()
    for j, titulo in enumerate(titulos):
        if not titulo:
            raise ArquivoInvalido(
                f"A coluna {_letra(j)} de {nome} tem dados mas não tem título na linha {inicio + 1} "
                "(células mescladas no cabeçalho?). Desfaça a mesclagem e dê um título a cada coluna."
            )
    if not dados:
        raise ArquivoInvalido(f"A planilha {nome} só tem o cabeçalho: nenhuma linha de dados.")
    cortadas = tuple((n, v[: len(titulos)]) for n, v in dados)
    return Planilha(nome, sha, aba, tuple(titulos), cortadas, tuple(em_branco), codificacao)


def _texto_titulo(valor: Valor) -> str:
    if valor is None:
        return ""
    if isinstance(valor, float) and valor.is_integer():
        valor = int(valor)
    return " ".join(str(valor).split())


def _letra(indice: int) -> str:
    n, texto = indice + 1, ""
    while n:
        n, resto = divmod(n - 1, 26)
        texto = chr(65 + resto) + texto
    return texto
