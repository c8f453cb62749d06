"""Hostile input: every service that takes (uow, ator, …) is called with random text, dates and numbers —
empty, huge, control characters, SQL fragments, spreadsheet formulas, dates in year 1 and 9999. Whatever
comes in: nothing crashes (success or ErroDominio only), a refusal writes nothing (row counts and record
versions of every table unchanged, audit included), a write is never silent (it adds audit rows), and every
message is Portuguese.

The services are discovered from `secretaria.services.*`, so a new service is covered as soon as it lands;
inputs are drawn from each parameter's type, starting from a valid baseline and spoiling a random subset
of its fields, so that both refusals and successful acts are exercised.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
import pkgutil
import re
import shutil
import types
import typing
from collections import abc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import secretaria.services as pacote
from secretaria import relogio
from secretaria.db import Banco, ValorRecusadoPeloBanco
from secretaria.models import Base
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.semente import abrir_e_semear
from tests.helpers import cidade_pequena

EXEMPLOS = int(os.environ.get("SECRETARIA_HOSTIL_EXEMPLOS", "12"))  # more for a deeper local hunt
HOJE = date(2026, 11, 30)

# ------------------------------------------------------------------------------------------ the inputs

HOSTIS = [
    "",
    " ",
    "\t\n \r",
    "\x00",
    "a\x00b",
    "\x1b[31mvermelho\x1b[0m",
    "\u202eoãçãrepo",
    "'; DROP TABLE usuario; --",
    "' OR '1'='1",
    'Robert"); DELETE FROM auditoria; --',
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://x")',
    "+SUM(1+1)",
    "-2+3",
    "@SUM(A1)",
    "%s%s%s%n",
    "{0}{1}",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "C:\\Windows\\system32",
    "São João — ação «crítica» 😀",
    "ＡＢＣ１２３",
    "null",
    "None",
    "NaN",
    "1e309",
    "-0",
    "00000000000",
    "11.222.333/0001-81",
    "529.982.247-25",
    "IAB1C23",
    "RS",
    "96010-000",
    "fulano@exemplo.com.br",
    "\ud800",  # lone surrogates: Python keeps them, UTF-8 and both databases cannot
    "Viação \udfff Sul",
    "\ud83d",
]
SURROGATOS = st.builds(
    lambda antes, solto, depois: antes + solto + depois,
    st.text(max_size=8),
    st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"]),
    st.text(max_size=8),
)
ENORMES = st.builds(
    lambda c, n: c * n, st.sampled_from(["a", "ã", "'", "\x00", " ", "9", "😀"]), st.integers(201, 20_000)
)
TEXTO = st.one_of(st.sampled_from(HOSTIS), st.text(max_size=30), ENORMES, SURROGATOS)
DATA = st.one_of(
    st.sampled_from([date(1, 1, 1), date(9999, 12, 31), date(1900, 1, 1), date(2000, 2, 29), HOJE]),
    st.dates(),
)
INTEIRO = st.one_of(
    st.sampled_from([0, -1, 1, 2**31, -(2**63), 2**63, 10**30]), st.integers(min_value=-1000, max_value=10**6)
)
DECIMAL = st.one_of(
    st.sampled_from(
        [Decimal("NaN"), Decimal("Infinity"), Decimal("-Infinity"), Decimal("-0"), Decimal("1E+100")]
    ),
    st.sampled_from([Decimal("0.0001"), Decimal("-5"), Decimal("10.005"), Decimal("12345678901234.5678")]),
    st.decimals(min_value=-(10**9), max_value=10**9, places=4),
)
BYTES = st.one_of(
    st.sampled_from([b"", b"MZ\x90\x00", b"%PDF-1.4\n%%EOF", b"\xff\xd8\xff\xe0\xff\xd9", b"<html></html>"]),
    st.binary(max_size=200),
)
HORA = st.one_of(st.sampled_from([time(0, 0), time(23, 59, 59)]), st.times())


def _estrategia(
    tipo: Any, campo: str, base: Any, ids: dict[str, int] | None = None
) -> st.SearchStrategy[Any] | None:
    """What to draw for a parameter of this type (None: a type these tests do not know)."""
    origem = typing.get_origin(tipo)
    if origem in (typing.Union, types.UnionType):
        partes = [_estrategia(t, campo, base) for t in typing.get_args(tipo) if t is not type(None)]
        conhecidas = [p for p in partes if p is not None]
        if not conhecidas:
            return None
        opcionais = [st.none()] if type(None) in typing.get_args(tipo) else []
        return st.one_of(*opcionais, *conhecidas)
    if origem in (Iterable, list, tuple, frozenset, set) or tipo in (Iterable,):
        args = typing.get_args(tipo)
        item = args[0] if args else str
        interno = _estrategia(item, campo, None)
        if interno is None:
            return None
        if item is str and campo == "papeis":
            interno = st.one_of(st.sampled_from(["fiscal", "administrador", "consulta"]), interno)
        return st.lists(interno, max_size=4)
    if tipo is bool:
        return st.booleans()
    if tipo is str:
        return TEXTO
    if tipo is int:
        return INTEIRO
    if tipo is Decimal:
        return DECIMAL
    if tipo is date:
        return DATA
    if tipo is datetime:
        return st.datetimes()
    if tipo is time:
        return HORA
    if tipo is bytes:
        return BYTES
    if dataclasses.is_dataclass(tipo) and isinstance(tipo, type):
        return _formulario(tipo, base, ids)
    if origem is abc.Mapping and campo == "alteracoes":  # retificar_auto: field → new value, any kind
        from secretaria.services.autos import DadosTestemunha
        from secretaria.services.retificacoes import CAMPOS_RETIFICAVEIS

        testemunha = st.builds(DadosTestemunha, TEXTO, TEXTO, TEXTO)
        valores = st.one_of(TEXTO, DATA, HORA, st.none(), INTEIRO, st.lists(testemunha, max_size=3))
        chaves = st.sampled_from([*CAMPOS_RETIFICAVEIS, "operadora_id", "veiculo_id", "x"])
        return st.dictionaries(chaves, valores, max_size=4)
    return None


def _ids(nome: str, ids: dict[str, int], *, opcional: bool) -> st.SearchStrategy[Any]:
    """Record ids come from the screens' pick lists, never typed: real ones, and a few that are gone."""
    reais = [v for k, v in ids.items() if nome.startswith(k)] or [1]
    return st.sampled_from(reais * 6 + [0, -1, 999_999] + ([None] if opcional else []))


def _formulario(classe: type, base: Any, ids: dict[str, int] | None = None) -> st.SearchStrategy[Any] | None:
    dicas = typing.get_type_hints(classe)
    campos = [f for f in dataclasses.fields(classe)]
    estrategias = {}
    for f in campos:
        valor_base = getattr(base, f.name) if base is not None else None
        if f.name.endswith("_id") and ids is not None:
            estrategias[f.name] = _ids(f.name, ids, opcional=type(None) in typing.get_args(dicas[f.name]))
            continue
        e = _estrategia(dicas[f.name], f.name, valor_base)
        if e is None:
            if base is None and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                return None
            continue
        estrategias[f.name] = e

    @st.composite
    def desenhar(draw: st.DrawFn) -> Any:
        if base is None:
            valores = {n: draw(e) for n, e in estrategias.items()}
            return classe(**valores)
        estragar = draw(st.sets(st.sampled_from(sorted(estrategias)), max_size=3)) if estrategias else set()
        return dataclasses.replace(base, **{n: draw(estrategias[n]) for n in estragar})

    return desenhar()


# ----------------------------------------------------------------------------------------- the services


def _servicos() -> list[Callable[..., Any]]:
    encontrados: list[Callable[..., Any]] = []
    for modulo in sorted(pkgutil.iter_modules(pacote.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"secretaria.services.{modulo.name}")
        for nome, funcao in inspect.getmembers(mod, inspect.isfunction):
            if funcao.__module__ != mod.__name__ or nome.startswith("_"):
                continue
            if list(inspect.signature(funcao).parameters)[:2] == ["uow", "ator"]:
                encontrados.append(funcao)
    return encontrados


SERVICOS = _servicos()
TODOS = Ator(
    "todos",
    "Todos os Papéis",
    frozenset({"administrador", "fiscal", "protocolo", "autoridade", "secretario"}),
)
CONSULTA = Ator("consulta", "Clara Consulta", frozenset({"consulta"}))


@dataclass
class Mundo:
    banco: Banco
    ids: dict[str, int]
    tentativas: dict[str, int]
    recusas: dict[str, int]
    sucessos: dict[str, int]


def _bases(mundo: Mundo) -> dict[str, Any]:
    """Valid values by parameter name, so that spoiling only some fields reaches the deeper checks."""
    i = mundo.ids
    return {
        "operadora_id": i["operadora"],
        "auto_id": i["auto"],
        "representacao_id": i["representacao"],
        "linha_id": i["linha"],
        "veiculo_id": i["veiculo"],
        "empregado_id": i["empregado"],
        "fiscal_id": i["fiscal"],
        "usuario_id": i["usuario"],
        "valor_id": i["valor_urm"],
        "data": date(2026, 11, 20),
        "protocolada_em": date(2026, 11, 20),
        "protocolado_em": date(2026, 11, 20),
        "recebida_em": date(2026, 11, 20),
        "vigencia": date(2027, 1, 1),
        "inicio": date(2026, 11, 25),
        "meio": "pessoal",
        "objeto": "auto",
        "login": "novo.usuario",
        "senha": "Senha1234",
        "nova_senha": "Nova12345",
        "senha_atual": "Senha1234",
        "papeis": ["fiscal"],
        "nome": "Fulana de Tal",
        "valor": Decimal("170.1234"),
        "ato": "Decreto nº 9/2027",
        "motivo": "Lavrado por engano.",
        "fundamentacao": "Conforme os autos.",
        "quantidade": 5,
        "copias_backup": 7,
        "dias_decisao_atrasada": 30,
        "ano": 2027,
        "codigo": "C-1",
        "tipo": "A",
        "origem": "contrato",
        "texto": "Cláusula de teste.",
        "descricao": "Feriado de teste",
    }


def _formularios(mundo: Mundo) -> dict[str, Any]:
    from secretaria.services.autos import NovoAuto
    from secretaria.services.cadastros import (
        DadosEmpregado,
        DadosFiscal,
        DadosLinha,
        DadosOperadora,
        DadosVeiculo,
    )

    i = mundo.ids
    formularios: dict[str, Any] = {
        "DadosOperadora": DadosOperadora(
            razao_social="Viação Teste Ltda.", cnpj="11444777000161", logradouro="Rua A"
        ),
        "DadosLinha": DadosLinha(codigo="L99", nome="Linha de teste", operadora_id=i["operadora"]),
        "DadosVeiculo": DadosVeiculo(
            prefixo="999",
            placa="ABC1D23",
            renavam="00000000019",
            operadora_id=i["operadora"],
            lugares_sentados=40,
        ),
        "DadosEmpregado": DadosEmpregado(
            nome="Pedro Cobrador", cpf="52998224725", operadora_id=i["operadora"]
        ),
        "DadosFiscal": DadosFiscal(nome="Fiscal Novo", matricula="SMSU-099"),
        "NovoAuto": NovoAuto(
            operadora_id=i["operadora"],
            dispositivo_codigo="1-VI",
            data_infracao=date(2026, 11, 2),
            local="Praça Coronel Pedro Osório",
            data_lavratura=date(2026, 11, 2),
            hora_lavratura=time(9, 0),
            local_lavratura="Terminal central",
            descricao_fatos="Veículo sem condições de higiene.",
            fiscal_id=i["fiscal"],
        ),
    }
    try:
        from secretaria.services.orgao import DadosDoOrgao

        formularios["DadosDoOrgao"] = DadosDoOrgao(
            prefeitura="Prefeitura Municipal de Pelotas",
            secretaria="Secretaria Municipal de Serviços Urbanos",
            secretario_nome="Sérgio Secretário",
            endereco="Praça Coronel Pedro Osório, 101",
        )
    except ImportError:  # pragma: no cover - admin services not there yet
        pass
    return formularios


def _parametros(funcao: Callable[..., Any], mundo: Mundo) -> dict[str, st.SearchStrategy[Any]] | None:
    from secretaria.services.assinatura import Certificado

    # Names a service imports for its annotations only (under TYPE_CHECKING, so loading it stays light).
    dicas = typing.get_type_hints(funcao, localns={"Certificado": Certificado})
    parametros = [
        (nome, dicas.get(nome), p.default)
        for nome, p in list(inspect.signature(funcao).parameters.items())[2:]
    ]
    if len(parametros) == 1 and parametros[0][0] == "pedido":
        # An act's request dataclass (PedidoDecisao, …): each field drawn as the act's keyword arguments were.
        classe = parametros[0][1]
        assert dataclasses.is_dataclass(classe) and isinstance(classe, type)
        dicas_campos = typing.get_type_hints(classe)
        campos = [
            (
                f.name,
                dicas_campos[f.name],
                inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default,
            )
            for f in dataclasses.fields(classe)
        ]
        por_campo = _estrategias(campos, mundo)
        return None if por_campo is None else {"pedido": st.builds(classe, **por_campo)}
    return _estrategias(parametros, mundo)


def _estrategias(
    parametros: list[tuple[str, Any, Any]], mundo: Mundo
) -> dict[str, st.SearchStrategy[Any]] | None:
    """What to draw for each (name, type, default) of a service's arguments (None: a type not known here)."""
    bases = _bases(mundo)
    formularios = _formularios(mundo)
    estrategias: dict[str, st.SearchStrategy[Any]] = {}
    for nome, tipo, padrao in parametros:
        base = formularios.get(getattr(tipo, "__name__", ""), bases.get(nome))
        if nome == "versao":
            estrategias[nome] = st.sampled_from([1, 2, 0, -1, 10**6] + ([None] if padrao is None else []))
            continue
        if nome.endswith("_id") or nome == "id":
            estrategias[nome] = _ids(nome, mundo.ids, opcional=padrao is None)
            continue
        e = _estrategia(tipo, nome, base, mundo.ids)
        if e is None:
            if padrao is inspect.Parameter.empty:
                return None
            continue
        if base is not None and not dataclasses.is_dataclass(base):
            e = st.one_of(st.just(base), e)  # often valid, so the other fields' checks are reached
        estrategias[nome] = e
    return estrategias


# ------------------------------------------------------------------------------------------- the checks

_PALAVRAS_INGLESAS = re.compile(
    r"\b(error|invalid|must|should|cannot|not found|failed|exception|traceback|required|null|none|"
    r"expected|unexpected|please|sqlite|psycopg|integrity|constraint|unique|violates|out of range|"
    r"object|attribute|keyerror|valueerror|typeerror)\b",
    re.IGNORECASE,
)
_PORTUGUES = re.compile(
    r"[áéíóúâêôãõçà]|\w+(ado|ada|ido|ida|ção|ções|ário|ória|mente|eiro|eira)\b|\b(de|do|da|dos|das|o|a|os|as|e|em|não|um|uma|para|com|é|ao|no|na|por|sem|ou|se|já|foi|fora|pode|informe|deve)\b",
    re.I,
)


def _sem_eco(mensagem: str, argumentos: dict[str, Any]) -> str:
    """The message without the user's own text echoed in it (it may be English or anything)."""
    limpo = mensagem
    textos: list[str] = []

    def juntar(v: Any, dentro: bool) -> None:
        if isinstance(v, str):
            textos.append(v)
        elif dataclasses.is_dataclass(v) and not dentro:
            for x in vars(v).values():  # an act's request: its fields are the arguments
                juntar(x, dataclasses.is_dataclass(x))
        elif isinstance(v, list):
            textos.extend(x for x in v if isinstance(x, str))
        elif isinstance(v, abc.Mapping):
            textos.extend(x for x in v.values() if isinstance(x, str))

    for v in argumentos.values():
        juntar(v, False)
    for t in sorted(textos, key=len, reverse=True):
        for variante in {
            t,
            t.strip(),
            t.strip().lower(),
            t.strip().upper(),
            "".join(c for c in t if c.isprintable()).strip(),
        }:
            if len(variante) >= 2:
                limpo = limpo.replace(variante, " ")
    return limpo


def _em_portugues(mensagem: str, argumentos: dict[str, Any]) -> None:
    assert mensagem.strip(), "mensagem vazia"
    texto = _sem_eco(mensagem, argumentos)
    ingles = _PALAVRAS_INGLESAS.search(texto)
    assert ingles is None, f"palavra em inglês {ingles.group(0)!r} na mensagem: {mensagem!r}"
    assert _PORTUGUES.search(texto), f"mensagem sem cara de português: {mensagem!r}"


def _impressao_digital(banco: Banco) -> tuple[int, ...]:
    """Rows of every table and the sum of record versions (an UPDATE bumps them), in one round trip."""
    partes = ["(SELECT count(*) FROM auditoria)"]
    for tabela in Base.metadata.sorted_tables:
        partes.append(f'(SELECT count(*) FROM "{tabela.name}")')
        if "versao" in tabela.c:
            partes.append(f'(SELECT coalesce(sum(versao), 0) FROM "{tabela.name}")')
    with banco.engine.connect() as conn:
        linha = conn.exec_driver_sql("SELECT " + ", ".join(partes)).one()
    return tuple(int(x) for x in linha)


# -------------------------------------------------------------------------------------------- the world


def _popular(banco: Banco) -> dict[str, int]:
    from secretaria.models import Cassacao, DiaNaoUtil, ValorURM
    from secretaria.services.autos import NovoAuto, lavrar_auto
    from secretaria.services.contas import criar_usuario
    from secretaria.services.representacoes import receber_representacao
    from secretaria.services.tramitacao import PedidoIntimacao, registrar_intimacao

    with banco.uow() as uow:
        s = uow.session
        cidade = cidade_pequena.inserir(s, delegacao="permissao")
        urm = ValorURM(
            vigencia=date(2000, 1, 1), valor=Decimal("150.0000"), ato="Decreto 1/2000", alterado_por="teste"
        )
        dia = DiaNaoUtil(data=date(2026, 12, 8), descricao="Feriado municipal", alterado_por="teste")
        s.add_all([urm, dia])
        s.flush()
        cassacao = Cassacao(
            operadora_id=cidade.operadora_id,
            instaurada_em=date(2026, 11, 1),
            motivo="Teste",
            alterado_por="teste",
        )
        s.add(cassacao)
        s.flush()
        ids = {
            "operadora": cidade.operadora_id, "linha": cidade.linha_id, "veiculo": cidade.veiculo_id,
            "empregado": cidade.empregado_id, "fiscal": cidade.fiscal_id, "valor_urm": urm.id, "dia": dia.id,
            "cassacao": cassacao.id,
        }  # fmt: skip
        uow.commit()
    fiscal_ator = Ator("fiscal", "Fábio Fiscal", frozenset({"fiscal"}))
    novo = NovoAuto(
        operadora_id=ids["operadora"], dispositivo_codigo="1-VI", data_infracao=date(2026, 11, 2),
        local="Praça", data_lavratura=date(2026, 11, 2), hora_lavratura=time(9, 0),
        local_lavratura="Terminal", descricao_fatos="Fatos.", fiscal_id=ids["fiscal"],
    )  # fmt: skip
    ids["auto"] = lavrar_auto(banco.uow(), fiscal_ator, novo).id
    registrar_intimacao(
        banco.uow(), TODOS, PedidoIntimacao(auto_id=ids["auto"], data=date(2026, 11, 5), meio="pessoal", resultado="entregue",
        recebedor_nome="Carlos Representante"),
    )  # fmt: skip
    ids["representacao"] = receber_representacao(
        banco.uow(), TODOS, recebida_em=date(2026, 11, 10), peticionario_nome="Maria Usuária",
        peticionario_profissao="Professora", peticionario_endereco="Rua B, 2", fatos="Ônibus sujo.",
        meios_prova="Fotos.",
    ).id  # fmt: skip
    ids["usuario"] = criar_usuario(
        banco.uow(), TODOS, login="ana", nome="Ana", senha="Senha1234", papeis=["fiscal"]
    )
    return ids


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def mundo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mundo]:
    """One populated database per kind for the whole module (a fresh one per test would cost more than
    the tests); each service's examples run on what the previous ones left, as a real office would."""
    if request.param == "sqlite":
        modelo: Path = request.getfixturevalue("sqlite_modelo")
        arquivo = tmp_path_factory.mktemp("hostil") / "secretaria.sqlite"
        shutil.copyfile(modelo, arquivo)
        url = f"sqlite:///{arquivo}"
    else:
        url = request.getfixturevalue("pg_url")
        engine = sa.create_engine(url)
        nomes = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
        with engine.begin() as conn:
            # The audit refuses TRUNCATE (migration 0003); a superuser's replica mode skips that trigger.
            conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
            conn.exec_driver_sql(f"TRUNCATE {nomes} RESTART IDENTITY CASCADE")
        engine.dispose()
    banco = abrir_e_semear(url)
    relogio_hoje, relogio_agora = relogio.hoje, relogio.agora
    relogio.hoje = lambda: HOJE
    relogio.agora = lambda: datetime.combine(HOJE, time(10, 0))
    from secretaria.services import contas

    custo = contas._N
    contas._N = 2**10  # cheap hashes: this file is about inputs, not about scrypt
    try:
        yield Mundo(banco, _popular(banco), {}, {}, {})
        with banco.leitura() as s:
            assert verificar_cadeia(s).integra
    finally:
        contas._N = custo
        relogio.hoje, relogio.agora = relogio_hoje, relogio_agora
        banco.fechar()


TOTAL: dict[str, int] = {"tentativas": 0, "recusas": 0, "sucessos": 0, "servicos": 0}
REDE_DE_SEGURANCA: set[str] = set()
"""Services whose bad input was stopped only by the database (ValorRecusadoPeloBanco): a missing check."""


@pytest.mark.parametrize("servico", SERVICOS, ids=lambda f: f"{f.__module__.rsplit('.', 1)[1]}.{f.__name__}")
def test_servico_sob_entrada_hostil(servico: Callable[..., Any], mundo: Mundo) -> None:
    estrategias = _parametros(servico, mundo)
    if estrategias is None:
        pytest.skip(f"{servico.__name__}: parâmetro de tipo desconhecido para estes testes")
    escreve_na_recusa = servico.__name__ == "autenticar"  # a failed login counts the failure, by design
    TOTAL["servicos"] += 1

    @settings(
        max_examples=EXEMPLOS,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(argumentos=st.fixed_dictionaries(estrategias), papel=st.sampled_from([TODOS] * 9 + [CONSULTA]))
    def rodar(argumentos: dict[str, Any], papel: Ator) -> None:
        TOTAL["tentativas"] += 1
        antes = _impressao_digital(mundo.banco)
        try:
            servico(mundo.banco.uow(), papel, **argumentos)
        except ErroDominio as recusa:
            TOTAL["recusas"] += 1
            if isinstance(recusa, ValorRecusadoPeloBanco):
                REDE_DE_SEGURANCA.add(f"{servico.__module__}.{servico.__name__}")
            _em_portugues(recusa.mensagem, argumentos)
            if not escreve_na_recusa:
                assert _impressao_digital(mundo.banco) == antes, f"recusa que gravou: {recusa.mensagem!r}"
            return
        TOTAL["sucessos"] += 1
        depois = _impressao_digital(mundo.banco)
        if depois != antes:
            assert depois[0] > antes[0], "gravou sem registro de auditoria"

    rodar()


def test_resumo_das_entradas_hostis(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(SERVICOS) >= 20
    with capsys.disabled():
        print(
            f"\n[hostil] {len(SERVICOS)} serviços ({TOTAL['servicos']} execuções nos 2 bancos); "
            f"{TOTAL['tentativas']} entradas hostis: "
            f"{TOTAL['recusas']} recusas em português sem gravar nada, {TOTAL['sucessos']} atos aceitos"
        )
        if REDE_DE_SEGURANCA:
            print(
                f"[hostil] barrados só pelo banco (falta validação no serviço): {sorted(REDE_DE_SEGURANCA)}"
            )


def test_valor_recusado_pelo_banco_vira_recusa_em_portugues(banco: Banco) -> None:
    """The safety net under the services: what only the database refuses still reaches the user as a
    Portuguese refusal with nothing written, never as a driver error."""
    from secretaria.models import Configuracao

    antes = _impressao_digital(banco)
    with pytest.raises(ValorRecusadoPeloBanco) as erro, banco.uow() as uow:
        uow.session.add(Configuracao(chave="x", valor="ok"))
        if banco.eh_sqlite:
            uow.session.execute(sa.text("UPDATE configuracao SET valor = 'y' WHERE chave = :c"), {"c": 2**70})
        else:
            uow.session.add(Configuracao(chave="y", valor="com\x00nulo"))
        uow.commit()
    _em_portugues(erro.value.mensagem, {})
    assert _impressao_digital(banco) == antes
