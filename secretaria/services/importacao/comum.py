"""What importing any kind of spreadsheet shares: the preview's and the result's types, the reading of a
row's cells as their fields, the evaluation loop over the rows (every problem of a row named by the file's
column title and value), the notes above the preview and the one-transaction rule (refused whole unless
only the valid rows are asked for). `cadastros` and `autos` bring what each kind checks."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import vocabulario
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.services.base import ErroDominio, erros_de
from secretaria.services.importacao.colunas import COLUNAS, Coluna, Mapeamento, normalizar, rotulo_campo
from secretaria.services.importacao.leitura import Planilha, Valor
from secretaria.services.importacao.valores import ValorInvalido, ler_data, ler_decimal

__all__ = [
    "LOTE",
    "Avaliada",
    "LinhaAvaliada",
    "Previa",
    "Progresso",
    "ResultadoImportacao",
    "avaliar_linhas",
    "avisos",
    "com_coluna",
    "conferir_mapeamento",
    "ler_celulas",
    "notas_vazias",
    "publica",
    "recusar_se_houver",
    "reservar_ids",
    "resultado",
    "unico_pelo_nome",
]

_T = TypeVar("_T")
Progresso = Callable[[int, int, str], None]
LOTE = 500
"""Rows between two reports of progress."""


# -- the preview and the result ---------------------------------------------------------------------


@dataclass(frozen=True)
class LinhaAvaliada:
    numero: int
    """The row's number in the file (the header is row 1 in a plain sheet)."""
    valores: tuple[str, ...]
    """The cells as text, in the file's column order (what the preview shows)."""
    problemas: tuple[str, ...]
    acao: str
    """"nova", "atualizada", "igual" or "recusada"."""
    limpas: tuple[str, ...] = ()
    """Columns whose blank cell clears the record's value (only when the user asked blanks to clear)."""
    mantidas: tuple[str, ...] = ()
    """Columns whose blank cell leaves the record's value as it is."""


@dataclass(frozen=True)
class Previa:
    tipo: str
    arquivo: str
    sha256: str
    cabecalhos: tuple[str, ...]
    mapeamento: Mapeamento
    linhas: tuple[LinhaAvaliada, ...]
    avisos: tuple[str, ...] = ()

    def contar(self, acao: str) -> int:
        return sum(1 for linha in self.linhas if linha.acao == acao)

    @property
    def recusadas(self) -> tuple[LinhaAvaliada, ...]:
        return tuple(linha for linha in self.linhas if linha.acao == "recusada")

    @property
    def resumo(self) -> str:
        return _resumo(
            self.contar("nova"), self.contar("atualizada"), self.contar("igual"), len(self.recusadas)
        )


@dataclass(frozen=True)
class ResultadoImportacao:
    novas: int
    atualizadas: int
    iguais: int
    recusadas: tuple[LinhaAvaliada, ...]
    arquivo: str
    sha256: str

    @property
    def mensagem(self) -> str:
        return f"{self.arquivo}: {_resumo(self.novas, self.atualizadas, self.iguais, len(self.recusadas))}."


def _resumo(novas: int, atualizadas: int, iguais: int, recusadas: int) -> str:
    def plural(n: int, um: str, varios: str) -> str:
        return f"{n} {um if n == 1 else varios}"

    return ", ".join(
        (
            plural(novas, "nova", "novas"),
            plural(atualizadas, "atualizada", "atualizadas"),
            f"{iguais} sem alteração",
            plural(recusadas, "recusada", "recusadas"),
        )
    )


# -- the reading of one row --------------------------------------------------------------------------


def _texto(valor: Valor) -> str:
    if valor is None:
        return ""
    if isinstance(valor, bool):
        return "Sim" if valor else "Não"
    if isinstance(valor, float) and valor.is_integer():
        return str(int(valor))
    if isinstance(valor, datetime):
        return (
            formatar_data(valor.date())
            if valor.time() == datetime.min.time()
            else valor.strftime("%d/%m/%Y %H:%M")
        )
    if isinstance(valor, date):
        return formatar_data(valor)
    return str(valor).strip()


class _Recusa(Exception):
    pass


def _converter(coluna: Coluna, valor: Valor, titulo: str) -> Any:
    """The cell as the form's field expects it; `_Recusa` with the message (naming the column by the file's
    own header, `titulo`, and the value) when it cannot be."""
    try:
        if coluna.tipo == "data":
            return ler_data(valor, prazo=coluna.prazo)
        if coluna.tipo == "decimal":
            return ler_decimal(valor)
    except ValorInvalido as exc:
        raise _Recusa(f"Coluna “{titulo}”: “{_texto(valor)}” {exc}.") from None
    texto = _texto(valor)
    if coluna.tipo == "documento":
        if isinstance(valor, int | float) and not isinstance(valor, bool) and coluna.digitos:
            texto = texto.zfill(coluna.digitos)
        return texto
    if coluna.tipo == "inteiro":
        if not texto:
            return None
        try:
            return int(texto.replace(".", "")) if re.fullmatch(r"\d{1,3}(\.\d{3})+", texto) else int(texto)
        except ValueError:
            raise _Recusa(f"Coluna “{titulo}”: “{texto}” não é um número inteiro.") from None
    if coluna.tipo == "booleano":
        if not texto:
            return None  # blank: the form's default (Sim) for a new record, the record's value for an old one
        lido = vocabulario.ler_booleano(texto)
        if lido is None:
            raise _Recusa(f"Coluna “{titulo}”: “{texto}” — use Sim ou Não.")
        return lido
    if coluna.tipo == "opcao":
        assert coluna.opcoes is not None
        if not texto:
            return None
        codigo = vocabulario.ler_codigo(coluna.lista, coluna.opcoes, texto)
        if codigo is not None:
            return codigo
        lista = list(coluna.opcoes.values())
        opcoes = ", ".join(lista[:-1]) + f" ou {lista[-1]}"
        raise _Recusa(f"Coluna “{titulo}”: “{texto}” não é uma opção; use {opcoes}.")
    return texto


def _lido_como(coluna: Coluna, lido: Any) -> str | None:
    """What the preview shows for a cell once read (the four-digit year, the amount in pt-BR); None when
    the cell's own text says it already."""
    if lido is None:
        return None
    if isinstance(lido, date):
        return _data_curta(lido)
    if isinstance(lido, Decimal):
        return _decimal_curto(lido)
    if coluna.tipo == "opcao" and coluna.opcoes is not None:
        return str(coluna.opcoes.get(lido, lido))
    if isinstance(lido, bool):
        return "Sim" if lido else "Não"
    return None


@functools.lru_cache(maxsize=8192)
def _data_curta(dia: date) -> str:
    # A book repeats its days: 10,000 rows hold a few thousand dates (the preview's cost, not the import's).
    return formatar_data(dia)


@functools.lru_cache(maxsize=1024)
def _decimal_curto(valor: Decimal) -> str:
    return formatar_decimal(valor, max(2, -int(valor.as_tuple().exponent)) if valor % 1 else 2)


@dataclass
class Avaliada:
    numero: int
    valores: tuple[str, ...]
    problemas: list[str]
    acao: str = "recusada"
    registro: Any = None
    gravar: dict[str, Any] | None = None
    limpas: list[str] = field(default_factory=list)
    mantidas: list[str] = field(default_factory=list)
    ilegiveis: list[str] = field(default_factory=list)
    """The fields whose cell could not be read (their problem already listed)."""


def conferir_mapeamento(planilha: Planilha, mapa: Mapeamento, tipo: str) -> None:
    """Refuse (naming the columns) a file that lacks a required column or has one that could be either of
    two fields: the user says which (`--coluna`, or the window's column list)."""
    if mapa.duvidosas:
        partes = [
            f"“{titulo}” pode ser {' ou '.join(rotulo_campo(tipo, c) for c in campos)}"
            for titulo, campos in mapa.duvidosas
        ]
        raise ErroDominio(
            f"Indique o campo de cada coluna de {planilha.nome_arquivo} que não ficou claro: "
            f"{'; '.join(partes)}.",
            "colunas",
        )
    if mapa.faltando:
        raise ErroDominio(
            f"A planilha {planilha.nome_arquivo} não tem a coluna obrigatória: {', '.join(mapa.faltando)}. "
            "Indique qual coluna a contém ou acrescente-a."
            if len(mapa.faltando) == 1
            else f"A planilha {planilha.nome_arquivo} não tem as colunas obrigatórias: "
            f"{', '.join(mapa.faltando)}. Indique quais colunas as contêm ou acrescente-as.",
            "colunas",
        )


def ler_celulas(
    planilha: Planilha, mapa: Mapeamento, colunas: Mapping[str, Coluna], numero: int, celulas: Sequence[Valor]
) -> tuple[Avaliada, dict[str, Any]]:
    """The row's mapped cells read as their fields; the row as the preview shows it (each mapped cell as it
    was read: "05/03/2035" for "5/3/35") and every cell that could not be read, at once."""
    textos = [_texto(v) for v in celulas]
    av = Avaliada(numero, (), [])
    brutos: dict[str, Any] = {}
    for campo, indice in mapa.colunas.items():
        coluna = colunas[campo]
        try:
            lido = _converter(coluna, celulas[indice], planilha.cabecalhos[indice])
        except _Recusa as exc:
            av.problemas.append(str(exc))
            av.ilegiveis.append(campo)
            continue
        brutos[campo] = lido
        mostrado = _lido_como(coluna, lido)
        if mostrado is None and isinstance(lido, str) and lido != textos[indice]:
            mostrado = lido  # a document typed as a number, its leading zeros back
        if mostrado is not None:
            textos[indice] = mostrado
    av.valores = tuple(textos)
    return av, brutos


def com_coluna(
    exc: ErroDominio,
    colunas: Mapping[str, Coluna],
    mapa: Mapeamento | None = None,
    planilha: Planilha | None = None,
    valores: Sequence[str] = (),
) -> str:
    """The form's message, prefixed by the file's column it belongs to, by the file's own title, and the
    cell's value (the user finds the cell by them)."""
    campo = getattr(exc, "campo", None) or ""
    coluna = colunas.get(campo)
    texto = str(exc)
    if coluna is None or texto.startswith("Coluna “"):
        return texto
    titulo, valor = coluna.titulo, ""
    if mapa is not None and planilha is not None and campo in mapa.colunas:
        indice = mapa.colunas[campo]
        titulo = planilha.cabecalhos[indice]
        valor = valores[indice] if indice < len(valores) else ""
    if valor and valor not in texto:
        return f"Coluna “{titulo}”, “{valor}”: {texto}"
    return f"Coluna “{titulo}”: {texto}"


def unico_pelo_nome(
    nome: str, registros: Mapping[int, tuple[str, ...]], campo: str, rotulo: str, dica: str
) -> int:
    """The one record whose name is `nome` (no case, accents or punctuation); a refusal listing the
    candidates when several are, naming the gap when none is."""
    chave = normalizar(nome)
    achados = [i for i, nomes in registros.items() if any(normalizar(n) == chave for n in nomes if n)]
    if len(achados) == 1:
        return achados[0]
    if not achados:
        raise ErroDominio(f"{rotulo} “{nome}” não cadastrada: {dica}." if rotulo == "Operadora"
                          else f"{rotulo} “{nome}” não cadastrado: {dica}.", campo)  # fmt: skip
    nomes = "; ".join(" / ".join(n for n in registros[i] if n) for i in achados)
    raise ErroDominio(
        f"{rotulo} “{nome}” é ambíguo: há {len(achados)} cadastros com esse nome ({nomes}); use a "
        "coluna do documento.",
        campo,
    )


# -- the rows of a file ------------------------------------------------------------------------------


def avaliar_linhas(
    planilha: Planilha,
    mapa: Mapeamento,
    tipo: str,
    progresso: Progresso | None,
    avaliar: Callable[[Avaliada, dict[str, Any], Callable[[ErroDominio], str]], _T],
) -> list[tuple[Avaliada, _T | None]]:
    """Each row of the file read (`ler_celulas`) and handed to `avaliar` with the row, its cells read as
    their fields and the namer of a refusal (by the file's column title and the value). What `avaliar`
    refuses (one `ErroDominio`, or several at once) joins the row's problems; its return value, or None
    when it refused, goes beside the row. The columns a blank cell keeps or clears are given by title."""
    colunas = {c.campo: c for c in COLUNAS[tipo]}
    saida: list[tuple[Avaliada, _T | None]] = []
    total = len(planilha.linhas)
    for k, (numero, celulas) in enumerate(planilha.linhas):
        if progresso is not None and k % LOTE == 0:
            progresso(k, total, "Conferindo as linhas")
        av, brutos = ler_celulas(planilha, mapa, colunas, numero, celulas)

        def nomear(exc: ErroDominio, valores: tuple[str, ...] = av.valores) -> str:
            return com_coluna(exc, colunas, mapa, planilha, valores)

        avaliado: _T | None = None
        try:
            avaliado = avaliar(av, brutos, nomear)
        except ErroDominio as exc:
            av.problemas.extend(nomear(erro) for erro in erros_de(exc))
        av.limpas = [planilha.cabecalhos[mapa.colunas[c]] for c in av.limpas if c in mapa.colunas]
        av.mantidas = [planilha.cabecalhos[mapa.colunas[c]] for c in av.mantidas if c in mapa.colunas]
        saida.append((av, avaliado))
    return saida


def recusar_se_houver(recusadas: Sequence[LinhaAvaliada], somente_validas: bool, planilha: Planilha) -> None:
    """One transaction: a file with refused rows is refused whole, unless only the valid rows are asked for."""
    if recusadas and not somente_validas:
        n = len(recusadas)
        raise ErroDominio(
            f"{n} {'linha recusada' if n == 1 else 'linhas recusadas'} em {planilha.nome_arquivo}; "
            "nada foi gravado. Corrija-as ou importe somente as linhas válidas.",
            "linhas",
        )


def resultado(
    validas: Sequence[Avaliada], recusadas: tuple[LinhaAvaliada, ...], planilha: Planilha
) -> ResultadoImportacao:
    """What an import did: the valid rows by what each did, the refused rows."""
    return ResultadoImportacao(
        novas=sum(1 for a in validas if a.acao == "nova"),
        atualizadas=sum(1 for a in validas if a.acao == "atualizada"),
        iguais=sum(1 for a in validas if a.acao == "igual"),
        recusadas=recusadas,
        arquivo=planilha.nome_arquivo,
        sha256=planilha.sha256,
    )


def publica(av: Avaliada) -> LinhaAvaliada:
    return LinhaAvaliada(
        av.numero,
        av.valores,
        tuple(av.problemas),
        av.acao if not av.problemas else "recusada",
        tuple(av.limpas),
        tuple(av.mantidas),
    )


def avisos(planilha: Planilha, mapa: Mapeamento, tipo: str = "") -> tuple[str, ...]:
    notas = list(planilha.avisos)
    if planilha.linhas_em_branco:
        numeros = ", ".join(str(n) for n in planilha.linhas_em_branco[:10])
        mais = "…" if len(planilha.linhas_em_branco) > 10 else ""
        notas.append(f"Linhas em branco ignoradas: {numeros}{mais}.")
    for titulo, campo in mapa.parecidas:
        notas.append(f"Coluna “{titulo}” lida como {rotulo_campo(tipo, campo) if tipo else campo}.")
    if mapa.nao_reconhecidas:
        notas.append(f"Colunas não reconhecidas (ignoradas): {', '.join(mapa.nao_reconhecidas)}.")
    if mapa.repetidas:
        notas.append(f"Colunas repetidas (vale a primeira): {', '.join(mapa.repetidas)}.")
    if planilha.codificacao and planilha.codificacao != "UTF-8":
        notas.append(f"Arquivo CSV lido como {planilha.codificacao}.")
    return tuple(notas)


def notas_vazias(avaliadas: Sequence[Avaliada]) -> tuple[str, ...]:
    """What the blank cells of a file do to the records it updates: clear (the user asked) or keep."""
    limpas = sum(1 for a in avaliadas if a.limpas and not a.problemas)
    mantidas = sum(1 for a in avaliadas if a.mantidas and not a.problemas)
    notas = []
    if limpas:
        notas.append(f"Em {limpas} {'linha' if limpas == 1 else 'linhas'}, células em branco apagarão valores "
                     "cadastrados (veja a coluna “Apaga”).")  # fmt: skip
    if mantidas:
        notas.append(f"Em {mantidas} {'linha' if mantidas == 1 else 'linhas'}, células em branco deixam os "
                     "valores cadastrados como estão; para apagá-los, peça que células em branco apaguem.")  # fmt: skip
    return tuple(notas)


def reservar_ids(s: so.Session, novos: Sequence[Any]) -> None:
    """The new records' ids given before the flush, one query per table. With the ids known the ORM writes a
    table's rows as one executemany of a short statement; without them it sends pages of INSERT … VALUES
    (…), (…) … RETURNING id, and on PostgreSQL psycopg's client-side parsing of their hundreds of thousands
    of placeholders was most of a 10,000-auto import's time. PostgreSQL: drawn from the table's sequence.
    SQLite: the ones it would give (after the highest), safe because the import's transaction holds the
    write lock from its BEGIN IMMEDIATE (`UnidadeDeTrabalho`)."""
    if not novos:
        return
    por_tabela: dict[str, list[Any]] = {}
    for registro in novos:
        por_tabela.setdefault(registro.__tablename__, []).append(registro)
    postgresql = s.get_bind().dialect.name == "postgresql"
    for tabela, registros in por_tabela.items():
        if postgresql:
            ids: Sequence[int] = s.scalars(
                sa.text("SELECT nextval(pg_get_serial_sequence(:tabela, 'id')) FROM generate_series(1, :n)"),
                {"tabela": tabela, "n": len(registros)},
            ).all()
        else:
            coluna = sa.table(tabela, sa.column("id")).c.id
            maior = s.scalar(sa.select(sa.func.coalesce(sa.func.max(coluna), 0))) or 0
            ids = range(maior + 1, maior + 1 + len(registros))
        for registro, ident in zip(registros, ids, strict=True):
            registro.id = ident
