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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from datetime import date
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
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
from secretaria.models import Empregado, Fiscal, Linha, Operadora, Veiculo, VeiculoHistorico
from secretaria.services import auditoria, cadastros
from secretaria.services.base import Ator, Conferencia, ErroDominio, erros_de, exigir_papel
from secretaria.services.importacao.colunas import (
    Mapeamento,
    mapear,
)
from secretaria.services.importacao.comum import (
    Avaliada,
    Previa,
    Progresso,
    ResultadoImportacao,
    avaliar_linhas,
    avisos,
    conferir_mapeamento,
    notas_vazias,
    publica,
    recusar_se_houver,
    reservar_ids,
    resultado,
    unico_pelo_nome,
)
from secretaria.services.importacao.leitura import Planilha

__all__ = ["importar_cadastro", "previa_cadastro"]

LOTE = 500

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


# -- the reading of one row --------------------------------------------------------------------------


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


def _avaliar(
    s: so.Session,
    tipo: str,
    planilha: Planilha,
    mapa: Mapeamento,
    progresso: Progresso | None,
    limpar_vazias: bool = False,
) -> list[Avaliada]:
    conferir_mapeamento(planilha, mapa, tipo)
    ind = _indice(s, tipo)
    vistos: dict[Any, int] = {}

    def avaliar(av: Avaliada, brutos: dict[str, Any], _nomear: Callable[[ErroDominio], str]) -> None:
        # The form's checks run even when a cell could not be read, so the row lists both problems.
        _avaliar_linha(tipo, brutos, ind, vistos, av, validar=not av.problemas, limpar=limpar_vazias)

    return [av for av, _nada in avaliar_linhas(planilha, mapa, tipo, progresso, avaliar)]


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
    av: Avaliada,
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
        onde = f"a linha {outro.numero} da planilha" if isinstance(outro, Avaliada) else "o cadastro"
        raise ErroDominio(
            f"A operadora {nome} já tem um veículo com o prefixo {valores['prefixo']} ({onde}).", "prefixo"
        )


# -- preview and import ------------------------------------------------------------------------------


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
    notas = avisos(planilha, mapa, tipo) + notas_vazias(avaliadas)
    return Previa(
        tipo,
        planilha.nome_arquivo,
        planilha.sha256,
        planilha.cabecalhos,
        mapa,
        tuple(publica(a) for a in avaliadas),
        notas,
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
        recusadas = tuple(publica(a) for a in avaliadas if a.problemas)
        recusar_se_houver(recusadas, somente_validas, planilha)
        validas = [a for a in avaliadas if not a.problemas]
        _gravar(s, ator, tipo, planilha, validas, progresso)
        uow.commit()
    return resultado(validas, recusadas, planilha)


def _gravar(
    s: so.Session,
    ator: Ator,
    tipo: str,
    planilha: Planilha,
    validas: Sequence[Avaliada],
    progresso: Progresso | None,
) -> None:
    modelo, entidade = _MODELOS[tipo], _ENTIDADE[tipo]
    veiculos = tipo == "veiculos"
    hoje = relogio.hoje()
    escritas = [av for av in validas if av.gravar is not None]
    # A vehicle's image carries its service history: read for the whole file at once, not per vehicle.
    historicos = (
        auditoria.historicos_dos_veiculos(s, [av.registro.id for av in escritas if av.registro is not None])
        if veiculos
        else {}
    )
    novos: dict[int, Any] = {}
    """id(row) → its new record."""
    antes: dict[int, dict[str, Any]] = {}
    total = len(escritas)
    for k, av in enumerate(escritas):
        if progresso is not None and k % LOTE == 0:
            progresso(k, total, "Gravando")
        assert av.gravar is not None
        if av.registro is None:
            registro = modelo(**av.gravar, alterado_por=ator.login)
            s.add(registro)
            novos[id(av)] = registro
            continue
        registro = av.registro
        antes[id(registro)] = auditoria.instantaneo(registro, historico=historicos.get(registro.id))
        if veiculos:
            _mudanca_de_servico(s, ator, registro, av.gravar, hoje)
        for chave, valor in av.gravar.items():
            setattr(registro, chave, valor)
        registro.alterado_por = ator.login
    reservar_ids(s, list(novos.values()))
    s.flush()
    if veiculos:
        periodos = [
            VeiculoHistorico(veiculo_id=registro.id, operadora_id=registro.operadora_id,
                             linha_id=registro.linha_id, inicio=hoje, registrado_por=ator.login)
            for registro in novos.values()
        ]  # fmt: skip
        s.add_all(periodos)
        reservar_ids(s, periodos)
        s.flush()
    gravados = [av.registro if av.registro is not None else novos[id(av)] for av in escritas]
    if veiculos:
        historicos = auditoria.historicos_dos_veiculos(s, [registro.id for registro in gravados])
    origem = {"arquivo": planilha.nome_arquivo, "sha256": planilha.sha256}
    atos: list[tuple[str, str, object, dict[str, Any] | None, dict[str, Any] | None]] = []
    for av, registro in zip(escritas, gravados, strict=True):
        imagem = {
            **auditoria.instantaneo(registro, historico=historicos.get(registro.id)),
            "_importacao": {**origem, "linha": av.numero},
        }
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
