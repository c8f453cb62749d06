"""Importing the registries from a spreadsheet: a preview that writes nothing, then one transaction.

Each row is turned into the registry form (`DadosOperadora`, `DadosVeiculo`, …) and checked by the form's
own rules (`services.cadastros.validar_*`), so a row is refused with the very message the form shows.
What the forms check against the database (a CNPJ, plate or RENAVAM already taken, an operator that does
not exist) is checked here against the file and the database at once, in memory: 6,000 rows cost a few
queries, not 6,000.

Idempotent: a row whose natural key (CNPJ; plate in either form or RENAVAM; the operator and CPF; the
line's code; the inspector's registration) matches a record updates it — only with the columns the file
has — and a row equal to its record changes nothing. Every record written has its audit row, with the
record's image and the file's name and SHA-256 (`_importacao`, a key the audit verification ignores).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio, vocabulario
from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.documentos import (
    DocumentoInvalido,
    chave_placa,
    formatar_cnpj,
    formatar_placa,
    validar_cnpj,
    validar_cpf,
    validar_placa,
    validar_renavam,
)
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.models import Empregado, Fiscal, Linha, Operadora, Veiculo, VeiculoHistorico
from secretaria.services import auditoria, cadastros
from secretaria.services.base import Ator, Conferencia, ErroDominio, erros_de, exigir_papel
from secretaria.services.importacao.colunas import (
    COLUNAS,
    Coluna,
    Mapeamento,
    mapear,
    normalizar,
    rotulo_campo,
)
from secretaria.services.importacao.leitura import Planilha, Valor
from secretaria.services.importacao.valores import ValorInvalido, ler_data, ler_decimal

__all__ = [
    "LinhaAvaliada",
    "Previa",
    "Progresso",
    "ResultadoImportacao",
    "importar_cadastro",
    "previa_cadastro",
]

Progresso = Callable[[int, int, str], None]
_LOTE = 500

_MODELOS: dict[str, Any] = {
    "operadoras": Operadora,
    "linhas": Linha,
    "veiculos": Veiculo,
    "empregados": Empregado,
    "fiscais": Fiscal,
}
_FORMULARIOS: dict[str, Any] = {
    "operadoras": cadastros.DadosOperadora,
    "linhas": cadastros.DadosLinha,
    "veiculos": cadastros.DadosVeiculo,
    "empregados": cadastros.DadosEmpregado,
    "fiscais": cadastros.DadosFiscal,
}
_VALIDAR: dict[str, Callable[[Any], dict[str, Any]]] = {
    "operadoras": cadastros.validar_operadora,
    "linhas": cadastros.validar_linha,
    "veiculos": cadastros.validar_veiculo,
    "empregados": cadastros.validar_empregado,
    "fiscais": cadastros.validar_fiscal,
}
_ENTIDADE = {
    "operadoras": "operadora",
    "linhas": "linha",
    "veiculos": "veiculo",
    "empregados": "empregado",
    "fiscais": "fiscal",
}


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


def lido_como(coluna: Coluna, lido: Any) -> str | None:
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


# -- what is already in the database -----------------------------------------------------------------


@dataclass
class _Indice:
    """The records of the kind and of the operators, by natural key; grows with the file's new rows."""

    operadoras: dict[str, int] = field(default_factory=dict)
    """CNPJ → id (id 0: an operator the same file creates)."""
    nomes_operadoras: dict[int, str] = field(default_factory=dict)
    nomes_busca: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """id → (company name, trade name): an operator named instead of identified."""
    linhas: dict[str, tuple[int, int]] = field(default_factory=dict)
    """code → (id, operator id)."""
    registros: dict[Any, Any] = field(default_factory=dict)
    """natural key → record (ORM object), for the kind imported."""
    extra: dict[Any, Any] = field(default_factory=dict)
    """Other unique values of the kind → record (vehicles: RENAVAM and prefix per operator)."""


def _indice(s: so.Session, tipo: str) -> _Indice:
    ind = _Indice()
    consulta = sa.select(Operadora.id, Operadora.cnpj, Operadora.razao_social, Operadora.nome_fantasia)
    for i, cnpj, nome, fantasia in s.execute(consulta):
        ind.operadoras[cnpj] = i
        ind.nomes_operadoras[i] = nome
        ind.nomes_busca[i] = (nome, fantasia or "")
    for i, codigo, op in s.execute(sa.select(Linha.id, Linha.codigo, Linha.operadora_id)):
        ind.linhas[codigo] = (i, op)
    modelo = _MODELOS[tipo]
    for r in s.scalars(sa.select(modelo)):
        if tipo == "operadoras":
            ind.registros[r.cnpj] = r
        elif tipo == "linhas":
            ind.registros[r.codigo] = r
        elif tipo == "veiculos":
            ind.registros[("placa", r.placa_chave)] = r
            ind.registros[("renavam", r.renavam)] = r
            ind.extra[(r.operadora_id, r.prefixo)] = r
        elif tipo == "empregados":
            ind.registros[(r.operadora_id, r.cpf)] = r
        else:
            ind.registros[r.matricula] = r
    return ind


# -- the evaluation of the whole file ----------------------------------------------------------------


@dataclass
class _Avaliada:
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
) -> tuple[_Avaliada, dict[str, Any]]:
    """The row's mapped cells read as their fields; the row as the preview shows it (each mapped cell as it
    was read: "05/03/2035" for "5/3/35") and every cell that could not be read, at once."""
    textos = [_texto(v) for v in celulas]
    av = _Avaliada(numero, (), [])
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
        mostrado = lido_como(coluna, lido)
        if mostrado is None and isinstance(lido, str) and lido != textos[indice]:
            mostrado = lido  # a document typed as a number, its leading zeros back
        if mostrado is not None:
            textos[indice] = mostrado
    av.valores = tuple(textos)
    return av, brutos


def _avaliar(
    s: so.Session,
    tipo: str,
    planilha: Planilha,
    mapa: Mapeamento,
    progresso: Progresso | None,
    limpar_vazias: bool = False,
) -> list[_Avaliada]:
    conferir_mapeamento(planilha, mapa, tipo)
    ind = _indice(s, tipo)
    colunas = {c.campo: c for c in COLUNAS[tipo]}
    vistos: dict[Any, int] = {}
    saida: list[_Avaliada] = []
    total = len(planilha.linhas)
    for k, (numero, celulas) in enumerate(planilha.linhas):
        if progresso is not None and k % _LOTE == 0:
            progresso(k, total, "Conferindo as linhas")
        avaliada, brutos = ler_celulas(planilha, mapa, colunas, numero, celulas)
        # The form's checks run even when a cell could not be read, so the row lists both problems.
        try:
            _avaliar_linha(
                tipo, brutos, ind, vistos, avaliada, validar=not avaliada.problemas, limpar=limpar_vazias
            )
        except ErroDominio as exc:
            for erro in erros_de(exc):
                avaliada.problemas.append(_com_coluna(erro, colunas, mapa, planilha, avaliada.valores))
        avaliada.limpas = [planilha.cabecalhos[mapa.colunas[c]] for c in avaliada.limpas if c in mapa.colunas]
        avaliada.mantidas = [
            planilha.cabecalhos[mapa.colunas[c]] for c in avaliada.mantidas if c in mapa.colunas
        ]
        saida.append(avaliada)
    return saida


def _com_coluna(
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


def _documento(validar: Callable[[str], str], texto: str, campo: str, rotulo: str) -> str:
    if not texto:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    try:
        return validar(texto)
    except DocumentoInvalido as exc:
        raise ErroDominio(str(exc), campo) from None


def _operadora(ind: _Indice, texto: str, nome: str = "") -> int:
    """The operator a row names: by CNPJ, or else by its name (company or trade name) when exactly one
    operator has it."""
    if not texto and nome:
        return _operadora_pelo_nome(ind, nome)
    cnpj = _documento(validar_cnpj, texto, "operadora_cnpj", "o CNPJ da operadora")
    if cnpj not in ind.operadoras:
        raise ErroDominio(
            f"Operadora de CNPJ {formatar_cnpj(cnpj)} não cadastrada: importe (ou cadastre) a operadora "
            "antes.",
            "operadora_cnpj",
        )
    return ind.operadoras[cnpj]


def _operadora_pelo_nome(ind: _Indice, nome: str) -> int:
    return unico_pelo_nome(
        nome, ind.nomes_busca, "operadora_nome", "Operadora", "importe (ou cadastre) a operadora antes"
    )


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


def _pela_chave(
    tipo: str, brutos: dict[str, Any], ind: _Indice, c: Conferencia
) -> tuple[Any, list[Any], str]:
    """The record the row's natural key names (None: a new one), the keys, and how a repeated row is told;
    each key's problem kept in `c` (the others still checked)."""
    registro: Any = None
    chaves: list[Any] = []
    descricao = ""
    if tipo == "operadoras":
        cnpj = c.tentar(lambda: _documento(validar_cnpj, brutos.get("cnpj", ""), "cnpj", "o CNPJ"), "")
        if cnpj:
            chaves = [("cnpj", cnpj)]
            registro = ind.registros.get(cnpj)
            descricao = f"o CNPJ {formatar_cnpj(cnpj)}"
    elif tipo == "linhas":
        codigo = str(brutos.get("codigo", "")).strip().upper()
        brutos["operadora_id"] = c.tentar(
            lambda: _operadora(ind, brutos.pop("operadora_cnpj", ""), brutos.pop("operadora_nome", "")), None
        )
        chaves = [("codigo", codigo)]
        registro = ind.registros.get(codigo)
        descricao = f"a linha {codigo}"
    elif tipo == "veiculos":
        placa = c.tentar(
            lambda: chave_placa(_documento(validar_placa, brutos.get("placa", ""), "placa", "a placa")), ""
        )
        renavam = c.tentar(
            lambda: _documento(validar_renavam, brutos.get("renavam", ""), "renavam", "o RENAVAM"), ""
        )
        brutos["operadora_id"] = c.tentar(
            lambda: _operadora(ind, brutos.pop("operadora_cnpj", ""), brutos.pop("operadora_nome", "")), None
        )
        pela_placa = ind.registros.get(("placa", placa)) if placa else None
        pelo_renavam = ind.registros.get(("renavam", renavam)) if renavam else None
        if pela_placa is not None and pelo_renavam is not None and pela_placa is not pelo_renavam:
            c.erros.append(
                ErroDominio(
                    f"A placa {formatar_placa(placa)} é do veículo de prefixo {pela_placa.prefixo} e o "
                    f"RENAVAM {renavam} é do veículo de prefixo {pelo_renavam.prefixo}: confira a linha.",
                    "placa",
                )
            )
        if placa and renavam:
            registro = pela_placa or pelo_renavam
            chaves = [("placa", placa), ("renavam", renavam)]
            descricao = f"a placa {formatar_placa(placa)} ou o RENAVAM {renavam}"
        if brutos["operadora_id"] is not None:
            c.tentar(lambda: _linha_do_veiculo(ind, brutos), None)
        else:
            brutos.pop("linha_codigo", None)
    elif tipo == "empregados":
        operadora_id = c.tentar(
            lambda: _operadora(ind, brutos.pop("operadora_cnpj", ""), brutos.pop("operadora_nome", "")), None
        )
        cpf = c.tentar(lambda: _documento(validar_cpf, brutos.get("cpf", ""), "cpf", "o CPF"), "")
        brutos["operadora_id"] = operadora_id
        if operadora_id is not None and cpf:
            chaves = [("cpf", operadora_id, cpf)]
            registro = ind.registros.get((operadora_id, cpf))
            descricao = f"o CPF {cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]} nesta operadora"
    else:
        matricula = str(brutos.get("matricula", "")).strip().upper()
        chaves = [("matricula", matricula)]
        registro = ind.registros.get(matricula)
        descricao = f"a matrícula {matricula}"
    return registro, chaves, descricao


def _avaliar_linha(
    tipo: str,
    brutos: dict[str, Any],
    ind: _Indice,
    vistos: dict[Any, int],
    av: _Avaliada,
    *,
    validar: bool,
    limpar: bool = False,
) -> None:
    """Find the record the row's natural key names, build the form over it, check it, classify the row.
    Every problem of the row at once (`ErrosDominio`): its keys (plate, RENAVAM, operator…) and each of the
    form's fields, a field already refused (its key, or a cell that could not be read) not twice."""
    c = Conferencia()
    registro, chaves, descricao = _pela_chave(tipo, brutos, ind, c)
    for chave in chaves:
        if chave in vistos:
            c.erros.append(
                ErroDominio(f"Linha repetida: a linha {vistos[chave]} da planilha já traz {descricao}.")
            )
            break
    # The fields already refused: by a key check, or by a cell that could not be read.
    recusados = {e.campo for e in c.erros} | set(av.ilegiveis)
    if c.recusou("operadora_cnpj", "operadora_nome"):
        recusados |= {"operadora_id", "linha_id"}
    formulario = _FORMULARIOS[tipo]
    base = (
        formulario(**{f.name: getattr(registro, f.name) for f in fields(formulario)})
        if registro is not None
        else None
    )
    nomes = {f.name for f in fields(formulario)}
    informados = {k: v for k, v in brutos.items() if k in nomes and v is not None and v != ""}
    if base is not None:
        # A blank cell over a value keeps it, unless the user asked blanks to clear (the preview says which).
        for k, v in brutos.items():
            atual = getattr(base, k, None) if k in nomes else None
            if (v is None or v == "") and atual not in (None, ""):
                if limpar:
                    informados[k] = "" if isinstance(atual, str) else None
                    av.limpas.append(k)
                else:
                    av.mantidas.append(k)
    dados = formulario(**_padroes(tipo, informados)) if base is None else replace(base, **informados)
    try:
        valores = _VALIDAR[tipo](dados)
    except ErroDominio as exc:
        c.erros.extend(e for e in erros_de(exc) if e.campo not in recusados)
        valores = None
    if valores is not None and tipo == "veiculos" and not c.erros:
        c.tentar(lambda: _conferir_veiculo(ind, valores, registro), None)
    c.concluir()
    if not validar or valores is None:
        return
    for chave in chaves:
        vistos[chave] = av.numero
    if registro is not None and all(getattr(registro, k) == v for k, v in valores.items()):
        av.acao, av.registro = "igual", registro
        return
    av.acao, av.registro, av.gravar = ("atualizada" if registro is not None else "nova"), registro, valores
    if registro is None and tipo == "veiculos":
        ind.extra[(valores["operadora_id"], valores["prefixo"])] = av


def _padroes(tipo: str, informados: dict[str, Any]) -> dict[str, Any]:
    """A new record's form: the file's values over the form's defaults (a required field the file lacks
    stays empty, so the form's own message names it)."""
    valores: dict[str, Any] = {}
    for f in fields(_FORMULARIOS[tipo]):
        if f.name in informados:
            valores[f.name] = informados[f.name]
        elif f.default is MISSING:
            valores[f.name] = ""
    return valores


def _linha_do_veiculo(ind: _Indice, brutos: dict[str, Any]) -> None:
    if "linha_codigo" not in brutos:
        return
    codigo = str(brutos.pop("linha_codigo") or "").strip().upper()
    if not codigo:
        brutos["linha_id"] = None
        return
    linha = ind.linhas.get(codigo)
    if linha is None:
        raise ErroDominio(f"A linha {codigo} não está cadastrada: importe as linhas antes.", "linha_id")
    if linha[1] != brutos["operadora_id"]:
        dona = ind.nomes_operadoras.get(linha[1], "")
        raise ErroDominio(
            f"A linha {codigo} é da operadora {dona}, não da operadora do veículo: escolha uma linha dela.",
            "linha_id",
        )
    brutos["linha_id"] = linha[0]


def _conferir_veiculo(ind: _Indice, valores: dict[str, Any], registro: Any) -> None:
    """The line (kept from the record when the file has no line column) is the operator's; the prefix is
    free in the operator's fleet."""
    if valores["linha_id"] is not None:
        dona = next((op for i, op in ind.linhas.values() if i == valores["linha_id"]), None)
        if dona is not None and dona != valores["operadora_id"]:
            raise ErroDominio(
                "A linha do veículo é de outra operadora: informe na coluna Linha uma linha da operadora "
                "do veículo (ou deixe-a em branco).",
                "linha_id",
            )
    outro = ind.extra.get((valores["operadora_id"], valores["prefixo"]))
    if outro is not None and outro is not registro:
        nome = ind.nomes_operadoras.get(valores["operadora_id"], "")
        onde = f"a linha {outro.numero} da planilha" if isinstance(outro, _Avaliada) else "o cadastro"
        raise ErroDominio(
            f"A operadora {nome} já tem um veículo com o prefixo {valores['prefixo']} ({onde}).", "prefixo"
        )


# -- preview and import ------------------------------------------------------------------------------


def _publica(av: _Avaliada) -> LinhaAvaliada:
    return LinhaAvaliada(
        av.numero,
        av.valores,
        tuple(av.problemas),
        av.acao if not av.problemas else "recusada",
        tuple(av.limpas),
        tuple(av.mantidas),
    )


def _avisos(planilha: Planilha, mapa: Mapeamento, tipo: str = "") -> tuple[str, ...]:
    avisos = list(planilha.avisos)
    if planilha.linhas_em_branco:
        numeros = ", ".join(str(n) for n in planilha.linhas_em_branco[:10])
        mais = "…" if len(planilha.linhas_em_branco) > 10 else ""
        avisos.append(f"Linhas em branco ignoradas: {numeros}{mais}.")
    for titulo, campo in mapa.parecidas:
        avisos.append(f"Coluna “{titulo}” lida como {rotulo_campo(tipo, campo) if tipo else campo}.")
    if mapa.nao_reconhecidas:
        avisos.append(f"Colunas não reconhecidas (ignoradas): {', '.join(mapa.nao_reconhecidas)}.")
    if mapa.repetidas:
        avisos.append(f"Colunas repetidas (vale a primeira): {', '.join(mapa.repetidas)}.")
    if planilha.codificacao and planilha.codificacao != "UTF-8":
        avisos.append(f"Arquivo CSV lido como {planilha.codificacao}.")
    return tuple(avisos)


def notas_vazias(avaliadas: Sequence[_Avaliada]) -> tuple[str, ...]:
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


def previa_cadastro(
    sessao: so.Session,
    tipo: str,
    planilha: Planilha,
    *,
    mapeamento: Mapping[str, str] | None = None,
    progresso: Progresso | None = None,
    limpar_vazias: bool = False,
) -> Previa:
    """Every row with its problems and what importing it would do; writes nothing."""
    mapa = mapear(tipo, planilha.cabecalhos, mapeamento)
    avaliadas = _avaliar(sessao, tipo, planilha, mapa, progresso, limpar_vazias)
    avisos = _avisos(planilha, mapa, tipo) + notas_vazias(avaliadas)
    return Previa(
        tipo,
        planilha.nome_arquivo,
        planilha.sha256,
        planilha.cabecalhos,
        mapa,
        tuple(_publica(a) for a in avaliadas),
        avisos,
    )


def importar_cadastro(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    tipo: str,
    planilha: Planilha,
    *,
    somente_validas: bool = False,
    mapeamento: Mapping[str, str] | None = None,
    progresso: Progresso | None = None,
    limpar_vazias: bool = False,
) -> ResultadoImportacao:
    """Import the file in one transaction: refused whole when a row is invalid, unless `somente_validas`.
    A `progresso` that raises (Cancelar) rolls everything back. A blank cell keeps the record's value
    unless `limpar_vazias`."""
    exigir_papel(ator, "administrador", acao="importar cadastros")
    mapa = mapear(tipo, planilha.cabecalhos, mapeamento)
    with uow:
        s = uow.session
        avaliadas = _avaliar(s, tipo, planilha, mapa, progresso, limpar_vazias)
        recusadas = tuple(_publica(a) for a in avaliadas if a.problemas)
        if recusadas and not somente_validas:
            n = len(recusadas)
            raise ErroDominio(
                f"{n} {'linha recusada' if n == 1 else 'linhas recusadas'} em {planilha.nome_arquivo}; "
                "nada foi gravado. Corrija-as ou importe somente as linhas válidas.",
                "linhas",
            )
        validas = [a for a in avaliadas if not a.problemas]
        _gravar(s, ator, tipo, planilha, validas, progresso)
        uow.commit()
    return ResultadoImportacao(
        novas=sum(1 for a in validas if a.acao == "nova"),
        atualizadas=sum(1 for a in validas if a.acao == "atualizada"),
        iguais=sum(1 for a in validas if a.acao == "igual"),
        recusadas=recusadas,
        arquivo=planilha.nome_arquivo,
        sha256=planilha.sha256,
    )


def _gravar(
    s: so.Session,
    ator: Ator,
    tipo: str,
    planilha: Planilha,
    validas: Sequence[_Avaliada],
    progresso: Progresso | None,
) -> None:
    modelo, entidade = _MODELOS[tipo], _ENTIDADE[tipo]
    hoje = relogio.hoje()
    novos: list[tuple[_Avaliada, Any]] = []
    antes: dict[int, dict[str, Any]] = {}
    total = len(validas)
    for k, av in enumerate(validas):
        if progresso is not None and k % _LOTE == 0:
            progresso(k, total, "Gravando")
        if av.gravar is None:
            continue
        if av.registro is None:
            registro = modelo(**av.gravar, alterado_por=ator.login)
            s.add(registro)
            novos.append((av, registro))
            continue
        registro = av.registro
        antes[id(registro)] = auditoria.instantaneo(registro)
        if tipo == "veiculos":
            _mudanca_de_servico(s, ator, registro, av.gravar, hoje)
        for chave, valor in av.gravar.items():
            setattr(registro, chave, valor)
        registro.alterado_por = ator.login
    s.flush()
    for _av, registro in novos:
        if tipo == "veiculos":
            s.add(
                VeiculoHistorico(
                    veiculo_id=registro.id,
                    operadora_id=registro.operadora_id,
                    linha_id=registro.linha_id,
                    inicio=hoje,
                    registrado_por=ator.login,
                )
            )
    s.flush()
    origem = {"arquivo": planilha.nome_arquivo, "sha256": planilha.sha256}
    atos: list[tuple[str, str, object, dict[str, Any] | None, dict[str, Any] | None]] = []
    for av in validas:
        if av.gravar is None:
            continue
        registro = av.registro if av.registro is not None else next(r for a, r in novos if a is av)
        imagem = {**auditoria.instantaneo(registro), "_importacao": {**origem, "linha": av.numero}}
        atos.append((f"importar_{entidade}", entidade, registro.id, antes.get(id(registro)), imagem))
    if progresso is not None:
        progresso(total, total, "Registrando na auditoria")
    auditoria.registrar_lote(s, ator, atos)


def _mudanca_de_servico(
    s: so.Session, ator: Ator, veiculo: Veiculo, valores: dict[str, Any], dia: date
) -> None:
    """A vehicle moved to another operator or line: close its current period and open one today, as the
    vehicle form does."""
    if (veiculo.operadora_id, veiculo.linha_id) == (valores["operadora_id"], valores["linha_id"]):
        return
    aberto = s.scalar(
        sa.select(VeiculoHistorico)
        .where(VeiculoHistorico.veiculo_id == veiculo.id, VeiculoHistorico.fim.is_(None))
        .order_by(VeiculoHistorico.inicio.desc())
        .limit(1)
    )
    if aberto is not None:
        aberto.fim = max(dia, aberto.inicio)
    s.add(
        VeiculoHistorico(
            veiculo_id=veiculo.id,
            operadora_id=valores["operadora_id"],
            linha_id=valores["linha_id"],
            inicio=dia,
            registrado_por=ator.login,
        )
    )
