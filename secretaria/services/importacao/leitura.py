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
import re
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
    avisos: tuple[str, ...] = ()
    """What the reading did on its own: the sheet read, title rows and footers skipped, merged cells filled."""


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
        lido = _ler_xlsx(conteudo, nome, aba)
        return _montar(nome, sha, lido.aba, lido.linhas, None, lido.mescladas, lido.avisos)
    if aba is not None:
        raise ArquivoInvalido(f"{nome} é um arquivo CSV: ele não tem abas para escolher.")
    codificacao, linhas = _ler_csv(conteudo, nome)
    return _montar(nome, sha, None, linhas, codificacao)


def abas_do_arquivo(caminho: Path) -> list[str]:
    """The sheet names of an .xlsx (empty for a CSV), for the window's sheet chooser: visible ones first."""
    conteudo = caminho.read_bytes()
    _conferir_tamanho(caminho.name, len(conteudo))
    if _tipo(conteudo, caminho.name) != "xlsx":
        return []
    livro = _abrir_xlsx(conteudo, caminho.name, data_only=True)
    try:
        # The visible sheets first (the first one is what the import reads by default), hidden ones last.
        visiveis = [w.title for w in livro.worksheets if getattr(w, "sheet_state", "visible") == "visible"]
        return visiveis + [t for t in livro.sheetnames if t not in visiveis]
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


@dataclass(frozen=True)
class _Xlsx:
    aba: str
    linhas: list[list[Valor]]
    mescladas: tuple[tuple[int, int, int, int], ...]
    """Merged ranges as (first row, first column, last row, last column), 1-based."""
    avisos: tuple[str, ...]


def _ler_xlsx(conteudo: bytes, nome: str, aba: str | None) -> _Xlsx:
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
        mescladas = _mescladas(conteudo, getattr(planilha, "_worksheet_path", ""))
        return _Xlsx(str(planilha.title), linhas, mescladas, _aviso_da_aba(livro, planilha, aba))
    finally:
        livro.close()


def _aviso_da_aba(livro: Any, planilha: Any, aba: str | None) -> tuple[str, ...]:
    """Which sheet was read, when the file has several (and which others are hidden)."""
    if len(livro.sheetnames) < 2:
        return ()
    ocultas = {w.title for w in livro.worksheets if getattr(w, "sheet_state", "visible") != "visible"}
    texto = f"Lida a aba “{planilha.title}”"
    if aba is None:
        texto += ", a primeira visível" if ocultas else ", a primeira"
    outras = [f"{t} (oculta)" if t in ocultas else t for t in livro.sheetnames if t != planilha.title]
    return (f"{texto}; outras abas: {', '.join(outras)}.",)


_MESCLA = re.compile(rb"<(?:\w+:)?mergeCell\b[^>]*\bref=\"([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?\"")


def _mescladas(conteudo: bytes, caminho: str) -> tuple[tuple[int, int, int, int], ...]:
    """The sheet's merged ranges, from its XML (openpyxl's read-only mode, used for speed, has none)."""
    if not caminho:
        return ()
    try:
        with zipfile.ZipFile(io.BytesIO(conteudo)) as z:
            xml = z.read(caminho.lstrip("/"))
    except (KeyError, zipfile.BadZipFile):
        return ()
    if b"mergeCell" not in xml:
        return ()
    faixas = []
    for m in _MESCLA.finditer(xml):
        c1, l1 = _indice_coluna(m.group(1).decode()), int(m.group(2))
        c2 = _indice_coluna(m.group(3).decode()) if m.group(3) else c1
        l2 = int(m.group(4)) if m.group(4) else l1
        faixas.append((l1, c1, l2, c2))
    return tuple(faixas)


def _indice_coluna(letras: str) -> int:
    n = 0
    for letra in letras:
        n = n * 26 + ord(letra) - 64
    return n


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
        # A hidden sheet (a lookup list, an old copy) is not what the user sees on opening the file.
        visiveis = [w for w in livro.worksheets if getattr(w, "sheet_state", "visible") == "visible"]
        return (visiveis or livro.worksheets)[0]
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


_RODAPE = re.compile(
    r"^(total|subtotal|soma|fonte|obs|observa|emitid|gerad|impress|atualizad)", re.IGNORECASE
)


def _preenchidas(linha: Sequence[Valor]) -> int:
    return sum(1 for v in linha if not _vazio(v))


def _parece_dado(texto: str) -> bool:
    """ "IAB1C23", "11.222.333/0001-81", "05/03/2024": as many digits as letters, so not a column title."""
    digitos = sum(c.isdigit() for c in texto)
    return digitos > 0 and digitos >= sum(c.isalpha() for c in texto)


def _parece_cabecalho(linhas: Sequence[list[Valor]], i: int) -> bool:
    """A header is all text (no number, no date) and about as wide as the rows under it: a title row
    ("Relação das empresas — 2026") fills one cell over a table of several columns."""
    linha = linhas[i]
    cheias = [v for v in linha if not _vazio(v)]
    if not cheias or not all(isinstance(v, str) for v in cheias):
        return False
    # A title may hold a number ("Frota 2026"), but a row of plates and CNPJs is data.
    if sum(1 for v in cheias if isinstance(v, str) and _parece_dado(v)) > len(cheias) // 4:
        return False
    largura = max((_preenchidas(li) for li in linhas[i + 1 : i + 11]), default=0)
    if largura == 0:
        return False
    if len(cheias) >= 2:
        return len(cheias) >= largura / 2
    return largura <= 1


def _achar_cabecalho(linhas: Sequence[list[Valor]]) -> int | None:
    primeira = next((i for i, linha in enumerate(linhas) if _preenchidas(linha)), None)
    if primeira is None:
        return None
    for i in range(primeira, min(len(linhas), primeira + 30)):
        if _preenchidas(linhas[i]) and _parece_cabecalho(linhas, i):
            return i
    return primeira


def _rodape(valores: Sequence[Valor]) -> bool:
    cheias = [v for v in valores if not _vazio(v)]
    return 0 < len(cheias) <= 2 and isinstance(cheias[0], str) and bool(_RODAPE.match(cheias[0].strip()))


def _preencher_mescladas(
    linhas: list[list[Valor]], mescladas: Sequence[tuple[int, int, int, int]], cabecalho: int
) -> list[str]:
    """A value merged over a block of rows (a company's CNPJ beside its vehicles) belongs to every row of
    the block; ranges in or above the header are titles, left alone."""
    avisos = []
    for l1, c1, l2, c2 in mescladas:
        if l1 <= cabecalho + 1 or (l1 == l2 and c1 == c2):
            continue
        origem = linhas[l1 - 1][c1 - 1] if l1 - 1 < len(linhas) and c1 - 1 < len(linhas[l1 - 1]) else None
        for li in range(l1 - 1, min(l2, len(linhas))):
            linha = linhas[li]
            if len(linha) < c2:
                linha.extend([None] * (c2 - len(linha)))
            for cj in range(c1 - 1, c2):
                linha[cj] = origem
        if l2 > l1:
            avisos.append(f"{_letra(c1 - 1)}{l1}:{_letra(c2 - 1)}{l2}")
    return avisos


def _montar(
    nome: str,
    sha: str,
    aba: str | None,
    linhas: Sequence[list[Valor]],
    codificacao: str | None,
    mescladas: Sequence[tuple[int, int, int, int]] = (),
    avisos_aba: Sequence[str] = (),
) -> Planilha:
    inicio = _achar_cabecalho(linhas)
    if inicio is None:
        onde = f" (aba “{aba}”)" if aba else ""
        raise ArquivoInvalido(f"A planilha {nome}{onde} não tem nenhuma linha preenchida.")
    avisos = list(avisos_aba)
    if inicio > 0:
        avisos.append(f"Cabeçalho na linha {inicio + 1}: as linhas de título acima dele foram ignoradas.")
    linhas = [list(linha) for linha in linhas]
    preenchidas = _preencher_mescladas(linhas, mescladas, inicio)
    if preenchidas:
        faixas = ", ".join(preenchidas[:5]) + ("…" if len(preenchidas) > 5 else "")
        avisos.append(f"Células mescladas repetidas em cada linha que cobrem: {faixas}.")
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
    rodape: list[int] = []
    while dados and _rodape(dados[-1][1]):
        rodape.insert(0, dados.pop()[0])
    if rodape:
        avisos.append(f"Rodapé ignorado: {'linha' if len(rodape) == 1 else 'linhas'} "
                      f"{', '.join(str(n) for n in rodape)}.")  # fmt: skip
    # Trailing blank rows (a sheet's formatted but empty end) are not "in the middle".
    ultima = dados[-1][0] if dados else inicio + 1
    em_branco = [n for n in em_branco if n < ultima]
    while titulos and not titulos[-1] and all(_vazio(v[len(titulos) - 1]) for _n, v in dados):
        titulos.pop()
    for j, titulo in enumerate(titulos):
        if not titulo:
            raise ArquivoInvalido(
                f"A coluna {_letra(j)} de {nome} tem dados mas não tem título na linha {inicio + 1}, a linha "
                "lida como cabeçalho. Dê um título a essa coluna (se o título está numa célula mesclada com "
                "a vizinha, desfaça a mesclagem)."
            )
    if not dados:
        raise ArquivoInvalido(f"A planilha {nome} só tem o cabeçalho: nenhuma linha de dados.")
    cortadas = tuple((n, v[: len(titulos)]) for n, v in dados)
    return Planilha(nome, sha, aba, tuple(titulos), cortadas, tuple(em_branco), codificacao, tuple(avisos))


def _texto_titulo(valor: Valor) -> str:
    if valor is None:
        return ""
    if isinstance(valor, float) and valor.is_integer():
        valor = int(valor)
    return " ".join(str(valor).split())


def _letra(indice: int) -> str:
    """The sheet's name of the column at 0-based `indice` ("A", "AB")."""
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(indice + 1))
