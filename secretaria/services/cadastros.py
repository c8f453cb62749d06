"""Registries: operators, lines, vehicles (with where they served), employees and agents, SMSU inspectors.

Every write needs the administrador role, validates the whole form before touching the database (a refusal
is an `ErroDominio` whose `campo` is the form field, and nothing is written), audits, and commits. Forms
are frozen dataclasses whose field names are the `campo` names; editing takes the `versao` the form was
loaded with, so a stale save is refused naming who changed the record and when.

An auto against a wrongly identified operator or vehicle is void, so documents are checked here, at the
registry: CNPJ (numeric or the new alphanumeric form), CPF, plate (old or Mercosul: both forms of one
plate are the same vehicle, through `placa_chave`) and RENAVAM, with `secretaria.lei.documentos`.

The operator's status is never typed: it comes from its suspensions and cassação
(`services.execucao.situacao_operadora`), so there is no status field in `DadosOperadora`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import date, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.documentos import (
    DocumentoInvalido,
    chave_placa,
    validar_cnpj,
    validar_cpf,
    validar_placa,
    validar_renavam,
)
from secretaria.lei.formato import formatar_data
from secretaria.models import (
    FUNCOES_EMPREGADO,
    SITUACOES_VEICULO,
    Base,
    Empregado,
    Fiscal,
    Linha,
    Operadora,
    Usuario,
    Veiculo,
    VeiculoHistorico,
)
from secretaria.services import auditoria
from secretaria.services.base import (
    Ator,
    Conferencia,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    mensagem_nao_encontrado,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)
from secretaria.services.rotulos import (
    DELEGACOES,
    FUNCOES,
    formatar_cnpj,
    formatar_cpf,
    formatar_placa,
    invalido,
)
from secretaria.services.rotulos import SITUACOES_VEICULO as ROTULOS_SITUACAO_VEICULO

__all__ = [
    "DadosEmpregado",
    "DadosFiscal",
    "DadosLinha",
    "DadosOperadora",
    "DadosVeiculo",
    "EmpregadoDetalhe",
    "FiscalDetalhe",
    "LinhaDetalhe",
    "Opcao",
    "OperadoraDetalhe",
    "PeriodoVeiculo",
    "VeiculoDetalhe",
    "criar_empregado",
    "criar_fiscal",
    "criar_linha",
    "criar_operadora",
    "criar_veiculo",
    "editar_empregado",
    "editar_fiscal",
    "editar_linha",
    "editar_operadora",
    "editar_veiculo",
    "historico_veiculo",
    "obter_empregado",
    "obter_fiscal",
    "obter_linha",
    "obter_operadora",
    "obter_veiculo",
    "opcoes_empregados",
    "opcoes_fiscais",
    "opcoes_linhas",
    "opcoes_operadoras",
    "opcoes_veiculos",
]

UFS = frozenset(
    {
        "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
        "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "SC", "SE", "SP", "RO", "RR", "TO",
    }
)  # fmt: skip
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
ANO_MINIMO_FABRICACAO = 1950
LUGARES_MAXIMO = 300
M = TypeVar("M", bound=Base)


# -- forms ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DadosOperadora:
    razao_social: str
    cnpj: str
    nome_fantasia: str = ""
    delegacao: str = "concessao"
    """"concessao" (concessionária) or "permissao" (permissionária)."""
    logradouro: str = ""
    numero_endereco: str = ""
    complemento: str = ""
    bairro: str = ""
    cidade: str = "Pelotas"
    uf: str = "RS"
    cep: str = ""
    telefone: str = ""
    email: str = ""
    representante_nome: str = ""
    representante_cpf: str = ""
    contrato_numero: str = ""
    contrato_inicio: date | None = None
    contrato_fim: date | None = None


@dataclass(frozen=True)
class DadosLinha:
    codigo: str
    nome: str
    operadora_id: int
    itinerario: str = ""
    ativa: bool = True


@dataclass(frozen=True)
class DadosVeiculo:
    prefixo: str
    placa: str
    renavam: str
    operadora_id: int
    linha_id: int | None = None
    marca_modelo: str = ""
    ano_fabricacao: int | None = None
    lugares_sentados: int = 0
    lugares_em_pe: int = 0
    vistoria_validade: date | None = None
    licenca_validade: date | None = None
    situacao: str = "ativo"


@dataclass(frozen=True)
class DadosEmpregado:
    nome: str
    cpf: str
    operadora_id: int
    funcao: str = "motorista"
    carteira_cadastro: str = ""
    """Registration card number (art. 1º, XVIII)."""
    admissao: date | None = None
    demissao: date | None = None


@dataclass(frozen=True)
class DadosFiscal:
    nome: str
    matricula: str
    ativo: bool = True
    usuario_id: int | None = None
    """The program account of the inspector, when there is one."""


# -- what the edit forms load ---------------------------------------------------------------------


@dataclass(frozen=True)
class OperadoraDetalhe:
    id: int
    versao: int
    dados: DadosOperadora
    situacao: str
    """"ativa", "suspensa até dd/mm/aaaa" or "cassada" today (derived, read-only)."""
    alterado_em: datetime
    alterado_por: str | None


@dataclass(frozen=True)
class LinhaDetalhe:
    id: int
    versao: int
    dados: DadosLinha
    operadora_nome: str
    alterado_em: datetime
    alterado_por: str | None


@dataclass(frozen=True)
class PeriodoVeiculo:
    """A period [inicio, fim) in which the vehicle served an operator (and line); fim None = current."""

    inicio: date
    fim: date | None
    operadora_id: int
    operadora_nome: str
    linha_id: int | None
    linha_codigo: str | None
    registrado_por: str | None


@dataclass(frozen=True)
class VeiculoDetalhe:
    id: int
    versao: int
    dados: DadosVeiculo
    placa_formatada: str
    historico: tuple[PeriodoVeiculo, ...]
    alterado_em: datetime
    alterado_por: str | None


@dataclass(frozen=True)
class EmpregadoDetalhe:
    id: int
    versao: int
    dados: DadosEmpregado
    alterado_em: datetime
    alterado_por: str | None


@dataclass(frozen=True)
class FiscalDetalhe:
    id: int
    versao: int
    dados: DadosFiscal
    alterado_em: datetime
    alterado_por: str | None


@dataclass(frozen=True)
class Opcao:
    """One choice of a combo box: the id and the text shown."""

    id: int
    rotulo: str
    busca: str = ""
    """More words a search finds the choice by (an operator shown by its trade name: its razão social)."""


# -- operators ------------------------------------------------------------------------------------


def criar_operadora(uow: UnidadeDeTrabalho, ator: Ator, dados: DadosOperadora) -> int:
    exigir_papel(ator, "administrador", acao="cadastrar operadoras")
    valores = _validar_operadora(dados)
    with uow:
        s = uow.session
        _cnpj_livre(s, valores["cnpj"], None)
        operadora = Operadora(**valores, alterado_por=ator.login)
        s.add(operadora)
        _gravar(s, "A operadora")
        auditoria.registrar(s, ator, "criar_operadora", "operadora", operadora.id, None, _imagem(operadora))
        uow.commit()
        return operadora.id


def editar_operadora(
    uow: UnidadeDeTrabalho, ator: Ator, operadora_id: int, dados: DadosOperadora, *, versao: int
) -> int:
    exigir_papel(ator, "administrador", acao="alterar o cadastro de operadoras")
    valores = _validar_operadora(dados)
    with uow:
        s = uow.session
        operadora = _para_editar(s, Operadora, operadora_id, "Operadora")
        verificar_versao(operadora, versao, f"O cadastro da operadora {operadora.razao_social}")
        _cnpj_livre(s, valores["cnpj"], operadora.id)
        _aplicar(s, ator, operadora, valores, "editar_operadora", "operadora", "O cadastro da operadora")
        uow.commit()
        return operadora.id


def obter_operadora(sessao: so.Session, operadora_id: int) -> OperadoraDetalhe:
    from secretaria.services.execucao import situacao_operadora  # the case services own the status rule

    o = _obter(sessao, Operadora, operadora_id, "Operadora")
    return OperadoraDetalhe(
        id=o.id,
        versao=o.versao,
        dados=_dados(DadosOperadora, o),
        situacao=situacao_operadora(sessao, o.id, relogio.hoje()),
        alterado_em=o.alterado_em,
        alterado_por=o.alterado_por,
    )


def _validar_operadora(d: DadosOperadora) -> dict[str, Any]:
    """The form's fields checked; every refusal at once (`Conferencia`), the first beside its field."""
    c = Conferencia()
    v: dict[str, Any] = {
        "razao_social": c.tentar(lambda: texto_obrigatorio(d.razao_social, "razao_social", "a razão social", 200), ""),
        "nome_fantasia": c.tentar(lambda: texto_opcional(d.nome_fantasia, "nome_fantasia", "o nome fantasia", 200), ""),
        "cnpj": c.tentar(lambda: _documento(validar_cnpj, d.cnpj, "cnpj", "o CNPJ"), ""),
        "delegacao": c.tentar(lambda: _delegacao(d.delegacao), ""),
        "logradouro": c.tentar(lambda: texto_obrigatorio(d.logradouro, "logradouro",
                                                         "o endereço (logradouro) para intimações", 200), ""),
        "numero_endereco": c.tentar(lambda: texto_opcional(d.numero_endereco, "numero_endereco", "o número", 20), ""),
        "complemento": c.tentar(lambda: texto_opcional(d.complemento, "complemento", "o complemento", 100), ""),
        "bairro": c.tentar(lambda: texto_opcional(d.bairro, "bairro", "o bairro", 100), ""),
        "cidade": c.tentar(lambda: texto_obrigatorio(d.cidade, "cidade", "a cidade", 100), ""),
        "uf": c.tentar(lambda: _uf(d.uf), ""),
        "cep": c.tentar(lambda: _cep(d.cep), ""),
        "telefone": c.tentar(lambda: texto_opcional(d.telefone, "telefone", "o telefone", 60), ""),
        "email": c.tentar(lambda: _email(d.email), ""),
        "representante_nome": c.tentar(lambda: texto_opcional(
            d.representante_nome, "representante_nome", "o nome do representante legal", 200), ""),
        "representante_cpf": c.tentar(
            lambda: _documento(validar_cpf, d.representante_cpf, "representante_cpf", "o CPF do representante legal")
            if (d.representante_cpf or "").strip() else "", ""),
    }  # fmt: skip
    if v["representante_cpf"] and not v["representante_nome"] and not c.recusou("representante_nome"):
        c.erros.append(
            ErroDominio("Informe o nome do representante legal do CPF informado.", "representante_nome")
        )
    v["contrato_numero"] = c.tentar(
        lambda: texto_opcional(
            d.contrato_numero, "contrato_numero", "o número do contrato ou termo de permissão", 60
        ),
        "",
    )
    v["contrato_inicio"] = c.tentar(
        lambda: _data_opcional(d.contrato_inicio, "contrato_inicio", "O início do contrato"), None
    )
    v["contrato_fim"] = c.tentar(
        lambda: _data_opcional(d.contrato_fim, "contrato_fim", "O fim do contrato"), None
    )
    if v["contrato_inicio"] and v["contrato_fim"] and v["contrato_fim"] < v["contrato_inicio"]:
        c.erros.append(
            ErroDominio(
                f"O fim do contrato ({formatar_data(v['contrato_fim'])}) não pode ser anterior ao início "
                f"({formatar_data(v['contrato_inicio'])}).",
                "contrato_fim",
            )
        )
    c.concluir()
    return v


def _delegacao(delegacao: str) -> str:
    if delegacao not in DELEGACOES:
        raise ErroDominio("Escolha a forma de delegação: concessão ou permissão.", "delegacao")
    return delegacao


def _uf(texto: str) -> str:
    uf = texto_obrigatorio(texto, "uf", "a UF", 2).upper()
    if uf not in UFS:
        raise ErroDominio(f"UF “{texto}” inválida: use a sigla do estado, como RS.", "uf")
    return uf


def _cep(texto: str | None) -> str:
    cep = texto_opcional(texto, "cep", "o CEP", 10).replace("-", "").replace(".", "")
    if cep and (len(cep) != 8 or not cep.isdigit()):
        raise ErroDominio("O CEP deve ter 8 dígitos, como 96010-000.", "cep")
    return cep


def _email(texto: str | None) -> str:
    email = texto_opcional(texto, "email", "o e-mail", 200)
    if email and not _EMAIL.fullmatch(email):
        raise ErroDominio(f"E-mail “{email}” inválido.", "email")
    return email


def _cnpj_livre(s: so.Session, cnpj: str, proprio_id: int | None) -> None:
    outra = s.execute(
        sa.select(Operadora.id, Operadora.razao_social).where(
            Operadora.cnpj == cnpj, _outro(Operadora.id, proprio_id)
        )
    ).first()
    if outra is not None:
        raise ErroDominio(
            f"O CNPJ {formatar_cnpj(cnpj)} já está cadastrado para a operadora {outra.razao_social.rstrip('.')}.",
            "cnpj",
        )


# -- lines ----------------------------------------------------------------------------------------


def criar_linha(uow: UnidadeDeTrabalho, ator: Ator, dados: DadosLinha) -> int:
    exigir_papel(ator, "administrador", acao="cadastrar linhas")
    valores = _validar_linha(dados)
    with uow:
        s = uow.session
        _operadora_existe(s, valores["operadora_id"])
        _codigo_linha_livre(s, valores["codigo"], None)
        linha = Linha(**valores, alterado_por=ator.login)
        s.add(linha)
        _gravar(s, "A linha")
        auditoria.registrar(s, ator, "criar_linha", "linha", linha.id, None, _imagem(linha))
        uow.commit()
        return linha.id


def editar_linha(uow: UnidadeDeTrabalho, ator: Ator, linha_id: int, dados: DadosLinha, *, versao: int) -> int:
    exigir_papel(ator, "administrador", acao="alterar o cadastro de linhas")
    valores = _validar_linha(dados)
    with uow:
        s = uow.session
        linha = _para_editar(s, Linha, linha_id, "Linha")
        verificar_versao(linha, versao, f"O cadastro da linha {linha.codigo}")
        _operadora_existe(s, valores["operadora_id"])
        _codigo_linha_livre(s, valores["codigo"], linha.id)
        if valores["operadora_id"] != linha.operadora_id:
            n = s.scalar(
                sa.select(sa.func.count(Veiculo.id)).where(
                    Veiculo.linha_id == linha.id, Veiculo.operadora_id == linha.operadora_id
                )
            )
            if n:
                raise ErroDominio(
                    f"A linha {linha.codigo} tem {n} veículo(s) da operadora atual: transfira-os ou tire-os "
                    "da linha antes de passá-la a outra operadora.",
                    "operadora_id",
                )
        _aplicar(s, ator, linha, valores, "editar_linha", "linha", "O cadastro da linha")
        uow.commit()
        return linha.id


def obter_linha(sessao: so.Session, linha_id: int) -> LinhaDetalhe:
    li = _obter(sessao, Linha, linha_id, "Linha")
    return LinhaDetalhe(
        id=li.id,
        versao=li.versao,
        dados=_dados(DadosLinha, li),
        operadora_nome=li.operadora.razao_social,
        alterado_em=li.alterado_em,
        alterado_por=li.alterado_por,
    )


def _validar_linha(d: DadosLinha) -> dict[str, Any]:
    c = Conferencia()
    v = {
        "codigo": c.tentar(
            lambda: texto_obrigatorio(d.codigo, "codigo", "o código da linha", 20).upper(), ""
        ),
        "nome": c.tentar(lambda: texto_obrigatorio(d.nome, "nome", "o nome da linha", 200), ""),
        "itinerario": c.tentar(
            lambda: texto_opcional(d.itinerario, "itinerario", "o itinerário", 10_000), ""
        ),
        "operadora_id": c.tentar(
            lambda: _id_obrigatorio(d.operadora_id, "operadora_id", "Escolha a operadora da linha."), None
        ),
        "ativa": bool(d.ativa),
    }
    c.concluir()
    return v


def _codigo_linha_livre(s: so.Session, codigo: str, proprio_id: int | None) -> None:
    outra = s.execute(
        sa.select(Linha.id, Linha.nome).where(Linha.codigo == codigo, _outro(Linha.id, proprio_id))
    ).first()
    if outra is not None:
        raise ErroDominio(f"Já existe a linha {codigo} ({outra.nome}).", "codigo")


# -- vehicles -------------------------------------------------------------------------------------


def criar_veiculo(
    uow: UnidadeDeTrabalho, ator: Ator, dados: DadosVeiculo, *, em_servico_desde: date | None = None
) -> int:
    """Register a vehicle; its history starts with the operator (and line) on `em_servico_desde` (today)."""
    exigir_papel(ator, "administrador", acao="cadastrar veículos")
    valores = _validar_veiculo(dados)
    inicio = (
        _data_opcional(em_servico_desde, "em_servico_desde", "A data de início em serviço") or relogio.hoje()
    )
    with uow:
        s = uow.session
        _conferir_veiculo(s, valores, None)
        veiculo = Veiculo(**valores, alterado_por=ator.login)
        s.add(veiculo)
        _gravar(s, "O veículo")
        s.add(
            VeiculoHistorico(
                veiculo_id=veiculo.id,
                operadora_id=veiculo.operadora_id,
                linha_id=veiculo.linha_id,
                inicio=inicio,
                registrado_por=ator.login,
            )
        )
        auditoria.registrar(s, ator, "criar_veiculo", "veiculo", veiculo.id, None, _imagem(veiculo))
        uow.commit()
        return veiculo.id


def editar_veiculo(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    veiculo_id: int,
    dados: DadosVeiculo,
    *,
    versao: int,
    data_mudanca: date | None = None,
) -> int:
    """Save the vehicle; a change of operator or line closes the current period of its history on
    `data_mudanca` (today when not given) and opens the new one on the same day."""
    exigir_papel(ator, "administrador", acao="alterar o cadastro de veículos")
    valores = _validar_veiculo(dados)
    dia = _data_opcional(data_mudanca, "data_mudanca", "A data da mudança") or relogio.hoje()
    if dia > relogio.hoje():
        raise ErroDominio(
            f"A data da mudança ({formatar_data(dia)}) está no futuro: registre a mudança quando ela ocorrer.",
            "data_mudanca",
        )
    with uow:
        s = uow.session
        veiculo = _para_editar(s, Veiculo, veiculo_id, "Veículo")
        verificar_versao(veiculo, versao, f"O cadastro do veículo {veiculo.prefixo}")
        _conferir_veiculo(s, valores, veiculo.id)
        mudou = (veiculo.operadora_id, veiculo.linha_id) != (valores["operadora_id"], valores["linha_id"])
        if mudou:
            aberto = s.scalar(
                sa.select(VeiculoHistorico)
                .where(VeiculoHistorico.veiculo_id == veiculo.id, VeiculoHistorico.fim.is_(None))
                .order_by(VeiculoHistorico.inicio.desc())
                .limit(1)
            )
            if aberto is not None:
                if dia < aberto.inicio:
                    raise ErroDominio(
                        f"A data da mudança ({formatar_data(dia)}) não pode ser anterior ao início do período "
                        f"atual do veículo ({formatar_data(aberto.inicio)}).",
                        "data_mudanca",
                    )
                aberto.fim = dia
            s.add(
                VeiculoHistorico(
                    veiculo_id=veiculo.id,
                    operadora_id=valores["operadora_id"],
                    linha_id=valores["linha_id"],
                    inicio=dia,
                    registrado_por=ator.login,
                )
            )
        _aplicar(s, ator, veiculo, valores, "editar_veiculo", "veiculo", "O cadastro do veículo")
        uow.commit()
        return veiculo.id


def obter_veiculo(sessao: so.Session, veiculo_id: int) -> VeiculoDetalhe:
    v = _obter(sessao, Veiculo, veiculo_id, "Veículo")
    return VeiculoDetalhe(
        id=v.id,
        versao=v.versao,
        dados=_dados(DadosVeiculo, v),
        placa_formatada=formatar_placa(v.placa),
        historico=tuple(historico_veiculo(sessao, v.id)),
        alterado_em=v.alterado_em,
        alterado_por=v.alterado_por,
    )


def historico_veiculo(sessao: so.Session, veiculo_id: int) -> list[PeriodoVeiculo]:
    """Where the vehicle served, oldest first."""
    h, o, li = VeiculoHistorico, Operadora, Linha
    linhas = sessao.execute(
        sa.select(h.inicio, h.fim, h.operadora_id, o.razao_social, h.linha_id, li.codigo, h.registrado_por)
        .join(o, h.operadora_id == o.id)
        .outerjoin(li, h.linha_id == li.id)
        .where(h.veiculo_id == veiculo_id)
        .order_by(h.inicio, h.id)
    )
    return [PeriodoVeiculo(*r) for r in linhas]


def _validar_veiculo(d: DadosVeiculo) -> dict[str, Any]:
    c = Conferencia()
    placa = c.tentar(lambda: _documento(validar_placa, d.placa, "placa", "a placa"), "")
    v: dict[str, Any] = {
        "prefixo": c.tentar(
            lambda: texto_obrigatorio(d.prefixo, "prefixo", "o prefixo (número de frota)", 20).upper(), ""
        ),
        "placa": placa,
        "placa_chave": chave_placa(placa) if placa else "",
        "renavam": c.tentar(lambda: _documento(validar_renavam, d.renavam, "renavam", "o RENAVAM"), ""),
        "operadora_id": c.tentar(
            lambda: _id_obrigatorio(d.operadora_id, "operadora_id", "Escolha a operadora do veículo."), None
        ),
        "linha_id": c.tentar(lambda: _id_opcional(d.linha_id, "linha_id"), None),
        "marca_modelo": c.tentar(
            lambda: texto_opcional(d.marca_modelo, "marca_modelo", "a marca/modelo", 120), ""
        ),
        "ano_fabricacao": c.tentar(lambda: _ano_fabricacao(d.ano_fabricacao), None),
    }
    v["lugares_sentados"] = c.tentar(
        lambda: _lugares(d.lugares_sentados, "lugares_sentados", "Lugares sentados"), None
    )
    v["lugares_em_pe"] = c.tentar(lambda: _lugares(d.lugares_em_pe, "lugares_em_pe", "Lugares em pé"), None)
    if v["lugares_sentados"] == 0 and d.situacao != "baixado":
        # A bus in service (or in reserve) with no seat is a typing slip, not a fact (PRODUTO § 1: the
        # registry holds the seated capacity); only a withdrawn vehicle may be kept without it.
        c.erros.append(
            ErroDominio("Informe o número de lugares sentados (maior que zero).", "lugares_sentados")
        )
    v["vistoria_validade"] = c.tentar(
        lambda: _data_opcional(d.vistoria_validade, "vistoria_validade", "A validade da vistoria"), None
    )
    v["licenca_validade"] = c.tentar(
        lambda: _data_opcional(d.licenca_validade, "licenca_validade", "A validade da licença"), None
    )
    if d.situacao not in SITUACOES_VEICULO:
        opcoes = ", ".join(ROTULOS_SITUACAO_VEICULO.values())
        c.erros.append(ErroDominio(f"Escolha a situação do veículo: {opcoes}.", "situacao"))
    v["situacao"] = d.situacao
    c.concluir()
    return v


def _ano_fabricacao(ano: int | None) -> int | None:
    limite = relogio.hoje().year + 1
    if ano is not None and (
        isinstance(ano, bool) or not isinstance(ano, int) or not ANO_MINIMO_FABRICACAO <= ano <= limite
    ):
        raise ErroDominio(
            f"Ano de fabricação inválido: use um ano entre {ANO_MINIMO_FABRICACAO} e {limite}.",
            "ano_fabricacao",
        )
    return ano


def _lugares(n: Any, campo: str, rotulo: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= LUGARES_MAXIMO:
        raise ErroDominio(f"{rotulo}: informe um número inteiro de 0 a {LUGARES_MAXIMO}.", campo)
    return n


def _conferir_veiculo(s: so.Session, v: dict[str, Any], proprio_id: int | None) -> None:
    """Operator and line exist and match; prefix (per operator), plate (either form) and RENAVAM are free."""
    operadora = _operadora_existe(s, v["operadora_id"])
    if v["linha_id"] is not None:
        linha = s.get(Linha, v["linha_id"])
        if linha is None:
            raise ErroDominio("A linha escolhida não existe mais; escolha outra.", "linha_id")
        if linha.operadora_id != operadora.id:
            raise ErroDominio(
                f"A linha {linha.codigo} é da operadora {linha.operadora.razao_social}, não de "
                f"{operadora.razao_social}: escolha uma linha da operadora do veículo.",
                "linha_id",
            )
    ve = Veiculo
    mesmo_prefixo = s.scalar(
        sa.select(ve.id).where(
            ve.operadora_id == operadora.id, ve.prefixo == v["prefixo"], _outro(ve.id, proprio_id)
        )
    )
    if mesmo_prefixo is not None:
        raise ErroDominio(
            f"A operadora {operadora.razao_social} já tem um veículo com o prefixo {v['prefixo']}.", "prefixo"
        )
    outro = s.execute(
        sa.select(ve.prefixo, ve.placa, Operadora.razao_social)
        .join(Operadora, ve.operadora_id == Operadora.id)
        .where(ve.placa_chave == v["placa_chave"], _outro(ve.id, proprio_id))
    ).first()
    if outro is not None:
        forma = (
            "" if outro.placa == v["placa"] else f" (é a mesma placa, na forma {formatar_placa(outro.placa)})"
        )
        raise ErroDominio(
            f"A placa {formatar_placa(v['placa'])} já está cadastrada no veículo de prefixo {outro.prefixo} "
            f"da operadora {outro.razao_social}{forma}.",
            "placa",
        )
    mesmo_renavam = s.execute(
        sa.select(ve.prefixo, Operadora.razao_social)
        .join(Operadora, ve.operadora_id == Operadora.id)
        .where(ve.renavam == v["renavam"], _outro(ve.id, proprio_id))
    ).first()
    if mesmo_renavam is not None:
        raise ErroDominio(
            f"O RENAVAM {v['renavam']} já está cadastrado no veículo de prefixo {mesmo_renavam.prefixo} "
            f"da operadora {mesmo_renavam.razao_social.rstrip('.')}.",
            "renavam",
        )


# -- employees and agents -------------------------------------------------------------------------


def criar_empregado(uow: UnidadeDeTrabalho, ator: Ator, dados: DadosEmpregado) -> int:
    exigir_papel(ator, "administrador", acao="cadastrar empregados e agentes")
    valores = _validar_empregado(dados)
    with uow:
        s = uow.session
        _conferir_empregado(s, valores, None)
        empregado = Empregado(**valores, alterado_por=ator.login)
        s.add(empregado)
        _gravar(s, "O empregado")
        auditoria.registrar(s, ator, "criar_empregado", "empregado", empregado.id, None, _imagem(empregado))
        uow.commit()
        return empregado.id


def editar_empregado(
    uow: UnidadeDeTrabalho, ator: Ator, empregado_id: int, dados: DadosEmpregado, *, versao: int
) -> int:
    exigir_papel(ator, "administrador", acao="alterar o cadastro de empregados e agentes")
    valores = _validar_empregado(dados)
    with uow:
        s = uow.session
        empregado = _para_editar(s, Empregado, empregado_id, "Empregado")
        verificar_versao(empregado, versao, f"O cadastro de {empregado.nome}")
        _conferir_empregado(s, valores, empregado.id)
        _aplicar(s, ator, empregado, valores, "editar_empregado", "empregado", "O cadastro do empregado")
        uow.commit()
        return empregado.id


def obter_empregado(sessao: so.Session, empregado_id: int) -> EmpregadoDetalhe:
    e = _obter(sessao, Empregado, empregado_id, "Empregado")
    return EmpregadoDetalhe(e.id, e.versao, _dados(DadosEmpregado, e), e.alterado_em, e.alterado_por)


def _validar_empregado(d: DadosEmpregado) -> dict[str, Any]:
    c = Conferencia()
    v: dict[str, Any] = {
        "nome": c.tentar(lambda: texto_obrigatorio(d.nome, "nome", "o nome", 200), ""),
        "cpf": c.tentar(lambda: _documento(validar_cpf, d.cpf, "cpf", "o CPF"), ""),
        "operadora_id": c.tentar(
            lambda: _id_obrigatorio(d.operadora_id, "operadora_id", "Escolha a operadora do empregado."), None
        ),
    }
    if d.funcao not in FUNCOES_EMPREGADO:
        c.erros.append(ErroDominio(f"Escolha a função: {', '.join(FUNCOES.values())}.", "funcao"))
    v["funcao"] = d.funcao
    v["carteira_cadastro"] = c.tentar(
        lambda: texto_opcional(
            d.carteira_cadastro, "carteira_cadastro", "o número da carteira de cadastro", 30
        ),
        "",
    )
    v["admissao"] = c.tentar(lambda: _data_opcional(d.admissao, "admissao", "A data de admissão"), None)
    v["demissao"] = c.tentar(lambda: _data_opcional(d.demissao, "demissao", "A data de demissão"), None)
    if v["admissao"] and v["demissao"] and v["demissao"] < v["admissao"]:
        c.erros.append(
            ErroDominio(
                f"A demissão ({formatar_data(v['demissao'])}) não pode ser anterior à admissão "
                f"({formatar_data(v['admissao'])}).",
                "demissao",
            )
        )
    c.concluir()
    return v


def _conferir_empregado(s: so.Session, v: dict[str, Any], proprio_id: int | None) -> None:
    operadora = _operadora_existe(s, v["operadora_id"])
    outro = s.scalar(
        sa.select(Empregado.nome).where(
            Empregado.operadora_id == operadora.id,
            Empregado.cpf == v["cpf"],
            _outro(Empregado.id, proprio_id),
        )
    )
    if outro is not None:
        raise ErroDominio(
            f"O CPF {formatar_cpf(v['cpf'])} já está cadastrado para {outro} na operadora {operadora.razao_social.rstrip('.')}.",
            "cpf",
        )


# -- SMSU inspectors ------------------------------------------------------------------------------


def criar_fiscal(uow: UnidadeDeTrabalho, ator: Ator, dados: DadosFiscal) -> int:
    exigir_papel(ator, "administrador", acao="cadastrar fiscais da SMSU")
    valores = _validar_fiscal(dados)
    with uow:
        s = uow.session
        _conferir_fiscal(s, valores, None)
        fiscal = Fiscal(**valores, alterado_por=ator.login)
        s.add(fiscal)
        _gravar(s, "O fiscal")
        auditoria.registrar(s, ator, "criar_fiscal", "fiscal", fiscal.id, None, _imagem(fiscal))
        uow.commit()
        return fiscal.id


def editar_fiscal(
    uow: UnidadeDeTrabalho, ator: Ator, fiscal_id: int, dados: DadosFiscal, *, versao: int
) -> int:
    exigir_papel(ator, "administrador", acao="alterar o cadastro de fiscais da SMSU")
    valores = _validar_fiscal(dados)
    with uow:
        s = uow.session
        fiscal = _para_editar(s, Fiscal, fiscal_id, "Fiscal")
        verificar_versao(fiscal, versao, f"O cadastro do fiscal {fiscal.nome}")
        _conferir_fiscal(s, valores, fiscal.id)
        _aplicar(s, ator, fiscal, valores, "editar_fiscal", "fiscal", "O cadastro do fiscal")
        uow.commit()
        return fiscal.id


def obter_fiscal(sessao: so.Session, fiscal_id: int) -> FiscalDetalhe:
    f = _obter(sessao, Fiscal, fiscal_id, "Fiscal")
    return FiscalDetalhe(f.id, f.versao, _dados(DadosFiscal, f), f.alterado_em, f.alterado_por)


def _validar_fiscal(d: DadosFiscal) -> dict[str, Any]:
    c = Conferencia()
    v = {
        "nome": c.tentar(lambda: texto_obrigatorio(d.nome, "nome", "o nome do fiscal", 200), ""),
        "matricula": c.tentar(
            lambda: texto_obrigatorio(d.matricula, "matricula", "a matrícula", 30).upper(), ""
        ),
        "ativo": bool(d.ativo),
        "usuario_id": c.tentar(lambda: _id_opcional(d.usuario_id, "usuario_id"), None),
    }
    c.concluir()
    return v


def _conferir_fiscal(s: so.Session, v: dict[str, Any], proprio_id: int | None) -> None:
    outro = s.scalar(
        sa.select(Fiscal.nome).where(Fiscal.matricula == v["matricula"], _outro(Fiscal.id, proprio_id))
    )
    if outro is not None:
        raise ErroDominio(f"A matrícula {v['matricula']} já é do fiscal {outro}.", "matricula")
    if v["usuario_id"] is not None:
        if s.get(Usuario, v["usuario_id"]) is None:
            raise ErroDominio("O usuário escolhido não existe mais; escolha outro.", "usuario_id")
        outro = s.scalar(
            sa.select(Fiscal.nome).where(Fiscal.usuario_id == v["usuario_id"], _outro(Fiscal.id, proprio_id))
        )
        if outro is not None:
            raise ErroDominio(f"Esse usuário já está ligado ao fiscal {outro}.", "usuario_id")


# -- choices for the forms' combo boxes -----------------------------------------------------------


@dataclass(frozen=True)
class VinculosOperadora:
    """How many rows each list shows when filtered by the operator (the record's links say so)."""

    veiculos: int
    linhas: int
    empregados: int
    autos: int


def vinculos_operadora(sessao: so.Session, operadora_id: int) -> VinculosOperadora:
    """The operator's vehicles, lines, employees and autos, counted by the very lists its links open
    (`listas.contar` with the operator filter: one COUNT each)."""
    from secretaria.services import listas

    def contar(lista: str) -> int:
        return listas.contar(sessao, lista, listas.Filtro(operadora_id=operadora_id))

    return VinculosOperadora(contar("veiculos"), contar("linhas"), contar("empregados"), contar("autos"))


def opcoes_operadoras(sessao: so.Session) -> list[Opcao]:
    """Every operator by the name the office calls it (the trade name, else the razão social), found by
    either."""
    nome = sa.func.coalesce(sa.func.nullif(Operadora.nome_fantasia, ""), Operadora.razao_social)
    consulta = sa.select(Operadora.id, nome, Operadora.razao_social).order_by(nome, Operadora.id)
    return [Opcao(i, r, razao if razao != r else "") for i, r, razao in sessao.execute(consulta)]


def opcoes_linhas(
    sessao: so.Session, operadora_id: int | None, *, somente_ativas: bool = True
) -> list[Opcao]:
    """The operator's lines (every operator's, where `operadora_id` is None), "código — nome"."""
    consulta = sa.select(Linha.id, Linha.codigo, Linha.nome)
    if operadora_id is not None:
        consulta = consulta.where(Linha.operadora_id == operadora_id)
    if somente_ativas:
        consulta = consulta.where(Linha.ativa.is_(True))
    consulta = consulta.order_by(sa.func.length(Linha.codigo), Linha.codigo)
    return [Opcao(i, f"{c} — {n}") for i, c, n in sessao.execute(consulta)]


def opcoes_veiculos(sessao: so.Session, operadora_id: int) -> list[Opcao]:
    consulta = (
        sa.select(Veiculo.id, Veiculo.prefixo, Veiculo.placa)
        .where(Veiculo.operadora_id == operadora_id, Veiculo.situacao != "baixado")
        .order_by(sa.func.length(Veiculo.prefixo), Veiculo.prefixo)
    )
    return [Opcao(i, f"{p} — {formatar_placa(pl)}") for i, p, pl in sessao.execute(consulta)]


def linha_do_veiculo(sessao: so.Session, veiculo_id: int) -> int | None:
    """The line the vehicle serves now (None when it has none): what the auto form fills in beside it."""
    return sessao.scalar(sa.select(Veiculo.linha_id).where(Veiculo.id == veiculo_id))


def opcoes_empregados(sessao: so.Session, operadora_id: int, dia: date | None = None) -> list[Opcao]:
    """Employees of the operator who were employed on `dia` (today), by name."""
    hoje = dia or relogio.hoje()
    consulta = (
        sa.select(Empregado.id, Empregado.nome, Empregado.funcao)
        .where(
            Empregado.operadora_id == operadora_id,
            sa.or_(Empregado.demissao.is_(None), Empregado.demissao >= hoje),
            sa.or_(Empregado.admissao.is_(None), Empregado.admissao <= hoje),
        )
        .order_by(Empregado.nome, Empregado.id)
    )
    return [Opcao(i, f"{n} ({FUNCOES.get(f, f).lower()})") for i, n, f in sessao.execute(consulta)]


def opcoes_fiscais(sessao: so.Session, *, somente_ativos: bool = True) -> list[Opcao]:
    consulta = sa.select(Fiscal.id, Fiscal.nome, Fiscal.matricula)
    if somente_ativos:
        consulta = consulta.where(Fiscal.ativo.is_(True))
    return [Opcao(i, f"{n} (matr. {m})") for i, n, m in sessao.execute(consulta.order_by(Fiscal.nome))]


# -- shared ---------------------------------------------------------------------------------------


def _documento(validar: Callable[[str], str], valor: str | None, campo: str, rotulo: str) -> str:
    texto = (valor or "").strip()
    if not texto:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    try:
        return validar(texto)
    except DocumentoInvalido as exc:
        raise ErroDominio(str(exc), campo) from None


def _data_opcional(valor: date | None, campo: str, rotulo: str) -> date | None:
    if valor is None:
        return None
    if isinstance(valor, datetime) or not isinstance(valor, date):
        raise ErroDominio(f"{rotulo} é {invalido(rotulo)}: use dd/mm/aaaa.", campo)
    if valor.year < 1900:
        raise ErroDominio(f"{rotulo} ({formatar_data(valor)}) é {invalido(rotulo)}.", campo)
    return valor


def _id_obrigatorio(valor: int | None, campo: str, mensagem: str) -> int:
    if valor is None or isinstance(valor, bool) or not isinstance(valor, int):
        raise ErroDominio(mensagem, campo)
    return valor


def _id_opcional(valor: int | None, campo: str) -> int | None:
    if valor is None:
        return None
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise ErroDominio("Escolha uma opção da lista.", campo)
    return valor


def _outro(coluna: Any, proprio_id: int | None) -> sa.ColumnElement[bool]:
    return coluna != proprio_id if proprio_id is not None else sa.true()


def _operadora_existe(s: so.Session, operadora_id: int) -> Operadora:
    operadora = s.get(Operadora, operadora_id)
    if operadora is None:
        raise ErroDominio("A operadora escolhida não existe mais; escolha outra.", "operadora_id")
    return operadora


def _obter(sessao: so.Session, modelo: type[M], ident: int, descricao: str) -> M:
    registro = sessao.get(modelo, ident)
    if registro is None:
        raise NaoEncontrado(mensagem_nao_encontrado(descricao, ident))
    return registro


def _para_editar(s: so.Session, modelo: type[M], ident: int, descricao: str) -> M:
    """The row, locked until commit on PostgreSQL (SQLite writers are already serialized)."""
    registro = s.scalar(sa.select(modelo).where(modelo.id == ident).with_for_update())  # type: ignore[attr-defined]
    if registro is None:
        raise NaoEncontrado(mensagem_nao_encontrado(descricao, ident))
    return registro


def _dados(tipo: type[Any], registro: Any) -> Any:
    return tipo(**{f.name: getattr(registro, f.name) for f in fields(tipo)})


def _imagem(registro: Any) -> dict[str, Any]:
    return auditoria.instantaneo(registro)


def _aplicar(
    s: so.Session,
    ator: Ator,
    registro: Any,
    valores: dict[str, Any],
    acao: str,
    entidade: str,
    descricao: str,
) -> None:
    if all(getattr(registro, chave) == valor for chave, valor in valores.items()):
        return  # nothing changed: no new version, no audit row
    antes = _imagem(registro)
    for chave, valor in valores.items():
        setattr(registro, chave, valor)
    registro.alterado_por = ator.login
    _gravar(s, descricao)
    auditoria.registrar(s, ator, acao, entidade, registro.id, antes, _imagem(registro))


# Unique constraints → (message, field) when the pre-checks lost a race with another user's save.
_UNICOS = {
    "uq_operadora_cnpj": ("Este CNPJ acabou de ser cadastrado por outro usuário.", "cnpj"),
    "uq_linha_codigo": ("Este código de linha acabou de ser cadastrado por outro usuário.", "codigo"),
    "uq_veiculo_placa_chave": ("Esta placa acabou de ser cadastrada por outro usuário.", "placa"),
    "uq_veiculo_renavam": ("Este RENAVAM acabou de ser cadastrado por outro usuário.", "renavam"),
    "uq_veiculo_operadora_id": ("Este prefixo acabou de ser cadastrado por outro usuário.", "prefixo"),
    "uq_empregado_operadora_id": (
        "Este CPF acabou de ser cadastrado nesta operadora por outro usuário.",
        "cpf",
    ),
    "uq_fiscal_matricula": ("Esta matrícula acabou de ser cadastrada por outro usuário.", "matricula"),
}


def _gravar(s: so.Session, descricao: str) -> None:
    """Flush; a lost race on a unique value becomes a clear refusal, never a crash.

    A lost race on the version (StaleDataError) is left to the unit of work, which names who changed the
    record and when, like `verificar_versao`.
    """
    try:
        s.flush()
    except sa.exc.IntegrityError as exc:
        texto = str(exc.orig)
        for restricao, (mensagem, campo) in _UNICOS.items():
            if restricao in texto:
                raise ErroDominio(mensagem + " Nada foi gravado.", campo) from None
        # SQLite names the columns instead of the constraint ("UNIQUE constraint failed: veiculo.placa_chave").
        for restricao, (mensagem, campo) in _UNICOS.items():
            tabela, _, coluna = restricao.removeprefix("uq_").partition("_")
            if f"{tabela}.{coluna}" in texto:
                raise ErroDominio(mensagem + " Nada foi gravado.", campo) from None
        raise ErroDominio(f"{descricao} não pôde ser gravado: {texto.splitlines()[0]}") from None


# The forms' own checks, called row by row by the spreadsheet import (`services.importacao`): a row is
# refused with exactly the message the form would show.
validar_operadora = _validar_operadora
validar_linha = _validar_linha
validar_veiculo = _validar_veiculo
validar_empregado = _validar_empregado
validar_fiscal = _validar_fiscal
