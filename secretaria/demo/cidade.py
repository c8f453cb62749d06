"""A coherent synthetic Pelotas, written with bulk inserts from a fixed seed.

The same code makes the demo city (`ESCALA_DEMO`: 6 operators, 3,000 autos over three years) and the
benchmark's large city (`ESCALA_BENCH`: 20 operators, 200,000 autos over ten years); only the scale changes.

How the cases stay legal: autos are generated in the order they were drawn up, and each auto's whole life
(intimação attempts, defence, proposal, decision, decision notice, appeal, payment, suspension) is decided at
once, truncated at "today" (`relogio.hoje()`). Every later auto of the same operator and provision sees the
earlier ones as antecedents *as they stood on the day that matters* (a penalty annulled on appeal after a
decision did not exist for that decision). Each range comes from `lei.sancoes.calcular_sancao`, each
deadline from `lei.prazos`, each R$ amount from the URM in force on the decision day (`lei.urm`). Only
punished priors are handed to `calcular_sancao`, and of those only the ones that can still reach the chain
(REGRAS § 3, rule 3: a gap longer than the window ends it) plus any that carried a suspension (rule 6):
the range is the same as with the full history, and long histories stay fast.

Rows are plain dicts inserted with SQLAlchemy Core `insert()` in chunks, inside one transaction: a crash
leaves the database as it was. Each record gets its audit row ("demo"), with its image, so that
`secretaria auditoria verificar` finds the demo whole.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import Banco
from secretaria.demo import nomes
from secretaria.lei.catalogo import Dispositivo, Sujeito, dispositivos
from secretaria.lei.documentos import (
    chave_placa,
    digito_renavam,
    digitos_cnpj,
    digitos_cpf,
    formatar_cpf,
    formatar_placa,
    validar_cnpj,
    validar_cpf,
    validar_renavam,
)
from secretaria.lei.prazos import Calendario, domingo_de_pascoa
from secretaria.lei.sancoes import (
    JANELA_MESES,
    NIVEL_SUSPENSAO,
    Antecedente,
    Sancao,
    calcular_sancao,
    somar_meses,
)
from secretaria.lei.urm import ValorUrm, urm_para_reais, valor_em
from secretaria.models import Base
from secretaria.services import auditoria
from secretaria.services.base import Ator
from secretaria.services.contas import hash_senha
from secretaria.services.sancao import redigir_proxima_penalidade

Progresso = Callable[[int, int, str], None]

SEMENTE = 2413
ATOR_DEMO = Ator("demo", "Gerador da cidade de demonstração", frozenset())
CHAVE_CONFIGURACAO = "demo.cidade"
VERSAO_GERADOR = 3

_CINCO_CENTESIMOS = Decimal("0.05")
# The table the URM values grow from: R$ per URM on 1 January of the reference year, about 4,5 % a year.
_URM_REFERENCIA = (2026, Decimal("164.7400"))
_URM_CORRECAO = Decimal("1.045")


@dataclass(frozen=True)
class Escala:
    """How big the city is. The demo and the benchmark differ only here."""

    operadoras: int = 6
    linhas: int = 40
    veiculos: int = 400
    empregados: int = 1500
    fiscais: int = 8
    autos: int = 3000
    anos: int = 3
    # Scripted recidivism chains (operator, provision) that reach suspension; the first one leaves its
    # operator suspended today.
    cadeias: int = 3
    # A "força-tarefa" month with this many extra autos (the benchmark's busiest month); 0 = none.
    autos_mes_pico: int = 0
    semente: int = SEMENTE

    @property
    def rotulo(self) -> str:
        return (
            f"{self.operadoras} operadoras, {self.veiculos} veículos, {self.empregados} empregados, "
            f"{self.autos + self.autos_mes_pico} autos em {self.anos} anos"
        )


ESCALA_DEMO = Escala()
ESCALA_BENCH = Escala(
    operadoras=20,
    linhas=120,
    veiculos=1500,
    empregados=6000,
    fiscais=30,
    autos=191_600,
    anos=10,
    cadeias=20,
    autos_mes_pico=8_400,
)


@dataclass(frozen=True)
class ResumoCidade:
    """What was written: rows per table, and the dates the city spans."""

    linhas_por_tabela: dict[str, int]
    inicio: date
    hoje: date

    @property
    def autos(self) -> int:
        return self.linhas_por_tabela.get("auto_infracao", 0)


Usuarios = Sequence[tuple[str, str, Sequence[str]]]


def impressao_esquema() -> str:
    """A short fingerprint of the models' tables, columns and indexes: a cached city made under another
    schema (the benchmark keeps one) is recognised as stale."""
    partes = sorted(
        (
            t.name,
            tuple(sorted(f"{c.name}:{c.type}" for c in t.columns)),
            tuple(sorted(str(i.name) for i in t.indexes)),
        )
        for t in Base.metadata.tables.values()
    )
    return hashlib.sha256(repr(partes).encode()).hexdigest()[:16]


def gerar_cidade(
    banco: Banco,
    escala: Escala = ESCALA_DEMO,
    *,
    usuarios: Usuarios = (),
    senha: str = "",
    hoje: date | None = None,
    progresso: Progresso | None = None,
    lote: int = 4000,
) -> ResumoCidade:
    """Write the city into `banco` (expected empty of registries and cases) in one transaction.

    `usuarios` (login, name, roles) are created with `senha`; the acts are signed with the login holding
    each role. Returns the row counts.
    """
    dia = hoje or relogio.hoje()
    gerador = _Gerador(escala, dia, usuarios, progresso or (lambda _f, _t, _e: None))
    with banco.fabrica() as sessao:
        gravador = _Gravador(sessao, lote)
        gerador.gerar(gravador, senha)
        gravador.concluir()
        _registrar_auditoria(sessao, gravador.contagens, escala, dia)
        sessao.commit()
    return ResumoCidade(dict(gravador.contagens), gerador.inicio, dia)


# --------------------------------------------------------------------------------------------------------
# Writing: buffered Core inserts in foreign-key order
# --------------------------------------------------------------------------------------------------------

_ORDEM_TABELAS = (
    "usuario",
    "usuario_papel",
    "valor_urm",
    "dia_nao_util",
    "operadora",
    "linha",
    "veiculo",
    "veiculo_historico",
    "empregado",
    "fiscal",
    "representacao",
    "auto_infracao",
    "testemunha",
    "intimacao",
    "defesa",
    "proposta",
    "decisao",
    "recurso",
    "pagamento",
    "cumprimento",
    "suspensao",
    "cassacao",
    "cassacao_ato",
    "numeracao",
    "configuracao",
)


class _Gravador:
    """Buffers rows per table and inserts them in chunks, parents before children."""

    def __init__(self, sessao: so.Session, lote: int) -> None:
        self.sessao = sessao
        self.lote = lote
        self.tabelas = Base.metadata.tables
        self.buffers: dict[str, list[dict[str, Any]]] = {t: [] for t in _ORDEM_TABELAS}
        self.contagens: dict[str, int] = {t: 0 for t in _ORDEM_TABELAS}
        self._proximo_id: dict[str, int] = {}

    def novo_id(self, tabela: str) -> int:
        """Explicit primary keys, so children can point at parents before anything is inserted."""
        if tabela not in self._proximo_id:
            maior = self.sessao.scalar(sa.select(sa.func.max(self.tabelas[tabela].c.id)))
            self._proximo_id[tabela] = (maior or 0) + 1
        valor = self._proximo_id[tabela]
        self._proximo_id[tabela] = valor + 1
        return valor

    def add(self, tabela: str, linha: dict[str, Any]) -> None:
        self.buffers[tabela].append(linha)

    def talvez_gravar(self) -> None:
        if len(self.buffers["auto_infracao"]) >= self.lote:
            self.gravar()

    def gravar(self) -> None:
        for nome in _ORDEM_TABELAS:
            linhas = self.buffers[nome]
            if not linhas:
                continue
            self.sessao.execute(self.tabelas[nome].insert(), linhas)
            self.contagens[nome] += len(linhas)
            self.buffers[nome] = []

    def concluir(self) -> None:
        self.gravar()
        if self.sessao.get_bind().dialect.name == "postgresql":
            # Explicit ids do not move PostgreSQL's sequences: set them past the last id, so the next
            # row the program saves gets a fresh one.
            for nome, total in self.contagens.items():
                tabela = self.tabelas[nome]
                if total and "id" in tabela.c:
                    self.sessao.execute(
                        sa.text(
                            f"SELECT setval(pg_get_serial_sequence('{nome}', 'id'), "
                            f"(SELECT max(id) FROM {nome}))"
                        )
                    )


def _registrar_auditoria(sessao: so.Session, contagens: dict[str, int], escala: Escala, dia: date) -> None:
    """One audit row per record written, with the record's image read back (what `auditoria verificar`
    compares it with), chained in memory and inserted in bulk; plus one row saying which city this is."""
    from secretaria.services.verificacao import TABELAS, lotes_de_imagens

    escritas = {nome for nome, total in contagens.items() if total} | {"dados_orgao"}
    for spec in TABELAS:
        if spec.nome not in escritas:
            continue
        for linhas in lotes_de_imagens(sessao, spec.nome, lote=5000):
            atos = [("demo", spec.nome, chave, None, imagem) for chave, imagem in linhas]
            auditoria.registrar_lote(sessao, ATOR_DEMO, atos)
    configuracao = Base.metadata.tables["configuracao"]
    auditoria.registrar_lote(
        sessao,
        ATOR_DEMO,
        [
            ("demo", "configuracao", chave, None, {"valor": valor})
            for chave, valor in sessao.execute(sa.select(configuracao.c.chave, configuracao.c.valor))
        ],
    )
    resumo = {nome: total for nome, total in contagens.items() if total}
    auditoria.registrar(
        sessao,
        ATOR_DEMO,
        "demo",
        "cidade",
        None,
        None,
        {"linhas": resumo, "semente": escala.semente, "hoje": dia.isoformat()},
    )


# --------------------------------------------------------------------------------------------------------
# Identifiers with valid check digits
# --------------------------------------------------------------------------------------------------------


def _cpf(rng: random.Random) -> str:
    while True:
        base = [rng.randrange(10) for _ in range(9)]
        if len(set(base)) > 1:
            break
    raiz = "".join(map(str, base))
    return validar_cpf(raiz + digitos_cpf(raiz))


_ALFANUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _cnpj(rng: random.Random, alfanumerico: bool) -> str:
    if alfanumerico:
        raiz = "".join(rng.choice(_ALFANUM) for _ in range(8))
        if raiz.isdigit():
            raiz = raiz[:3] + "A" + raiz[4:]
    else:
        raiz = "".join(str(rng.randrange(10)) for _ in range(8))
    base = raiz + "0001"
    return validar_cnpj(base + digitos_cnpj(base))


def _renavam(rng: random.Random) -> str:
    base = "".join(str(rng.randrange(10)) for _ in range(10))
    return validar_renavam(base + digito_renavam(base))


def _placa(rng: random.Random, mercosul: bool) -> str:
    # Rio Grande do Sul plates run in the I… series.
    letras = "I" + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if mercosul:
        return f"{letras}{rng.randrange(10)}{rng.choice('ABCDEFGHIJ')}{rng.randrange(100):02d}"
    return f"{letras}{rng.randrange(10000):04d}"


# --------------------------------------------------------------------------------------------------------
# The history of one (operator, provision): what later autos see as antecedents
# --------------------------------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class _Historico:
    """One auto as an antecedent, with the dates on which its penalty changed."""

    infracao: date
    decisao: date | None = None  # day the penalty was applied (None: undecided, dismissed or cancelled)
    definitiva: date | None = None  # day the penalty became final (REGRAS § 3 rule 1), None if it never does
    multa: Decimal = Decimal(0)
    suspensao: int = 0
    cancelado: date | None = None
    julgado: date | None = None
    recurso: str | None = None
    multa_nova: Decimal | None = None
    suspensao_nova: int | None = None

    def punido(self, fato: date, em: date) -> Antecedente | None:
        """The antecedent, if it counts as "autuado e punido" before `fato` (§ 3º): its penalty final by then.

        A penalty final on or before `fato` (≤ `em`) can no longer change, so what is known on `em` does not
        matter: an appeal that could annul or reduce it was judged on the day it became final (rule 1).
        """
        if self.definitiva is None or self.definitiva > fato or self.infracao >= fato:
            return None
        if self.cancelado is not None and self.cancelado <= em:  # pragma: no cover - decided autos stay
            return None
        if self.recurso == "provido_parcialmente":
            assert self.multa_nova is not None and self.suspensao_nova is not None
            return Antecedente(self.infracao, self.definitiva, self.multa_nova, self.suspensao_nova)
        return Antecedente(self.infracao, self.definitiva, self.multa, self.suspensao)


@dataclass(slots=True)
class _Par:
    """Every auto of one operator for one provision, by infraction day."""

    tipo: str
    datas: list[date] = field(default_factory=list)
    itens: list[_Historico] = field(default_factory=list)
    com_suspensao: list[_Historico] = field(default_factory=list)

    def incluir(self, h: _Historico) -> None:
        pos = bisect.bisect_right(self.datas, h.infracao)
        self.datas.insert(pos, h.infracao)
        self.itens.insert(pos, h)

    def antecedentes(self, fato: date, em: date) -> tuple[Antecedente, ...]:
        """The punished priors that make up the recidivism chain of `fato`, plus those with a suspension.

        The chain of REGRAS § 3, rule 3, walked back from `fato`: each step takes the latest prior punished
        before the current fact, and the walk ends when that one lies beyond the window. Handing
        `calcular_sancao` these priors (a subset holding the whole chain, and every punished prior that
        carried a suspension, rule 6) gives the same level, range and suspension as the full history does,
        while the full history of a busy provision runs into thousands of autos. `calcular_sancao` stays the
        one that decides: this walk only chooses what to show it.
        """
        janela = JANELA_MESES[self.tipo]
        escolhidos: list[Antecedente] = []
        vistos: set[int] = set()
        atual = fato
        for i in range(bisect.bisect_left(self.datas, fato) - 1, -1, -1):
            h = self.itens[i]
            if somar_meses(h.infracao, janela) < atual:
                break  # this one and every earlier one lie beyond the window: the chain ends
            if h.infracao >= atual:
                continue
            a = h.punido(fato, em)
            if a is not None and a.data_decisao is not None and a.data_decisao <= atual:
                escolhidos.append(a)
                vistos.add(id(h))
                atual = h.infracao
        for h in self.com_suspensao:
            if id(h) not in vistos:
                a = h.punido(fato, em)
                if a is not None and a.suspensao_dias > 0:
                    escolhidos.append(a)
        return tuple(escolhidos)


# --------------------------------------------------------------------------------------------------------
# The city's registries
# --------------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Operadora:
    id: int
    razao_social: str
    representante: str
    representante_cpf: str
    endereco: str
    peso: int = 0
    permissionaria: bool = False
    veiculos: list[_Veiculo] = field(default_factory=list)
    linhas: list[int] = field(default_factory=list)
    empregados: list[_Empregado] = field(default_factory=list)
    motoristas: list[_Empregado] = field(default_factory=list)


@dataclass(slots=True)
class _Veiculo:
    id: int
    prefixo: str
    placa: str
    linha_id: int | None
    codigo_linha: str


@dataclass(slots=True)
class _Empregado:
    id: int
    nome: str
    funcao: str
    admissao: date
    demissao: date | None


@dataclass(frozen=True)
class _Roteiro:
    """The fixed course of a scripted auto (a recidivism chain): decided fast, penalty applied."""

    ultimo_da_cadeia_hoje: bool = False
    recurso: str | None = None


@dataclass(frozen=True)
class _Vaga:
    """A slot in the sequence of autos: when it is drawn up, and what is already fixed about it."""

    lavratura: datetime
    ordem: int
    operadora: int | None = None
    dispositivo: str | None = None
    infracao: date | None = None
    representacao_id: int | None = None
    roteiro: _Roteiro | None = None


class _Aleatorio(random.Random):
    """`random.Random` with a cheaper `randrange` and weighted draws over fixed weights: the large city
    draws millions of small numbers. Deterministic for a given seed, like its parent."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        return start + int(self.random() * (stop - start))

    def sortear(self, pesos: _Pesos[_T]) -> _T:
        return pesos.itens[bisect.bisect_right(pesos.acumulados, self.random() * pesos.acumulados[-1])]


_T = TypeVar("_T")


@dataclass(frozen=True)
class _Pesos(Generic[_T]):
    itens: tuple[_T, ...]
    acumulados: tuple[float, ...]

    @classmethod
    def de(cls, itens: Iterable[_T], pesos: Iterable[float]) -> _Pesos[_T]:
        return cls(tuple(itens), tuple(itertools.accumulate(pesos)))


_TESTEMUNHAS = _Pesos.de((0, 1, 2), (65, 25, 10))
_FALHAS_AUTO = _Pesos.de((0, 1, 2), (90, 8, 2))
_FALHAS_DECISAO = _Pesos.de((0, 1), (95, 5))
_MEIOS = _Pesos.de(("pessoal", "endereco", "postal_ar"), (40, 40, 20))
_CUMPRIMENTO = _Pesos.de(("cumprida", "nao_cumprida"), (80, 20))


def _momento(dia: date, rng: random.Random, inicio: int = 8, fim: int = 18) -> datetime:
    segundos = int(rng.random() * (fim - inicio) * 3600)
    return datetime.combine(dia, time(inicio)) + timedelta(seconds=segundos)


@dataclass(slots=True)
class _Caso:
    """One auto while its life is drawn, act by act: what each act decided, which the next one reads."""

    vaga: _Vaga
    hoje: date
    aid: int
    ano: int
    numero: int
    op: _Operadora
    codigo: str
    disp: Dispositivo
    tipo: str
    par: _Par
    hist: _Historico
    infracao: date
    dia_lav: date
    lavratura: datetime
    sancao_lav: Sancao
    veiculo: _Veiculo | None
    linha_id: int | None
    empregado: _Empregado | None
    local: str
    local_lavratura: str
    hora_infracao: time | None
    fatos: str
    fiscal_login: str
    protocolo: str
    ultimo_ato: datetime
    cancelado: date | None = None
    intimado: date | None = None
    prazo_defesa: date | None = None
    defesa_dia: date | None = None
    defesa_tempestiva: bool = True
    proposta_dia: date | None = None
    acao: str | None = None
    """The proposal's: "aplicar" or "arquivar"."""
    decisao_dia: date | None = None
    resultado: str | None = None
    multa: Decimal = Decimal(0)
    susp: int = 0
    sancao: Sancao | None = None
    decisao_id: int | None = None
    prazo_recurso: date | None = None
    intimado_decisao: date | None = None
    recurso_res: str | None = None
    julgado: date | None = None
    multa_nova: Decimal | None = None
    susp_nova: int | None = None
    final: date | None = None
    definitiva: date | None = None  # REGRAS § 3 rule 1: as stored, possibly still ahead of today
    tempestivo: bool = True

    @property
    def roteiro(self) -> _Roteiro | None:
        return self.vaga.roteiro

    @property
    def rapido(self) -> bool:
        """A scripted auto (a recidivism chain) goes through every act quickly."""
        return self.vaga.roteiro is not None

    @property
    def anulada(self) -> bool:
        return self.recurso_res == "provido"

    @property
    def multa_efetiva(self) -> Decimal:
        return self.multa_nova if self.multa_nova is not None else self.multa

    @property
    def susp_efetiva(self) -> int:
        return self.susp_nova if self.susp_nova is not None else self.susp

    def antes_do_fim(self, d: date) -> bool:
        return d <= self.hoje and (self.cancelado is None or d < self.cancelado)


class _Gerador:
    def __init__(self, escala: Escala, hoje: date, usuarios: Usuarios, progresso: Progresso) -> None:
        self.escala = escala
        self.hoje = hoje
        self.rng = _Aleatorio(escala.semente)
        self.progresso = progresso
        self.inicio = somar_meses(hoje, -12 * escala.anos) + timedelta(days=1)
        self.usuarios = usuarios
        self.login_papel: dict[str, str] = {}
        for login, _nome, papeis in usuarios:
            for p in papeis:
                self.login_papel.setdefault(p, login)
        self.catalogo = {d.codigo: d for d in dispositivos() if d.tipo is not None}
        codigos = sorted(self.catalogo)
        self.codigos = codigos
        self.pesos = _Pesos.de(
            codigos, (nomes.PESOS_DISPOSITIVO.get(c, nomes.PESO_PADRAO_DISPOSITIVO) for c in codigos)
        )
        self.operadoras: list[_Operadora] = []
        self.pesos_operadoras: _Pesos[int] = _Pesos.de((), ())
        self.fiscais: list[int] = []
        self.pares: dict[tuple[int, str], _Par] = {}
        self.reservados: set[tuple[int, str]] = set()
        self.numeros: dict[tuple[str, int], int] = {}
        self.urm: list[ValorUrm] = []
        self.feriados: dict[date, str] = {}
        self.calendario = Calendario()
        self._cpfs: set[str] = set()
        self._renavams: set[str] = set()
        self._placas: set[str] = set()

    @property
    def _secretario_nome(self) -> str:
        """The demo's Secretary: the name of its user with the secretario role."""
        return next((n for _l, n, p in self.usuarios if "secretario" in p), "")

    def login(self, papel: str) -> str:
        return self.login_papel.get(papel, ATOR_DEMO.login)

    # --- the whole city --------------------------------------------------------------------------------

    def gerar(self, g: _Gravador, senha: str) -> None:
        e = self.escala
        total = 6 + e.autos + e.autos_mes_pico
        self.progresso(0, total, "Cadastros")
        self._usuarios(g, senha)
        self._urm_e_feriados(g)
        self.progresso(1, total, "Cadastros")
        self._operadoras(g)
        self._linhas(g)
        self.progresso(2, total, "Cadastros")
        self._veiculos(g)
        self.progresso(3, total, "Cadastros")
        self._empregados(g)
        self._fiscais(g)
        self._orgao(g)
        self.progresso(4, total, "Cadastros")
        self.pesos_operadoras = _Pesos.de(
            range(len(self.operadoras)), (max(op.peso, 1) for op in self.operadoras)
        )
        vagas = self._vagas(g)
        g.gravar()
        self.progresso(6, total, "Autos de infração")
        for feito, vaga in enumerate(vagas, start=1):
            self._auto(g, vaga)
            if feito % 500 == 0:
                g.talvez_gravar()
                self.progresso(6 + feito, total, "Autos de infração")
        self._cassacao(g)
        self._numeracao(g)
        g.add(
            "configuracao",
            {
                "chave": CHAVE_CONFIGURACAO,
                "valor": json.dumps(
                    {
                        "versao": VERSAO_GERADOR,
                        "semente": e.semente,
                        "hoje": self.hoje.isoformat(),
                        "escala": e.rotulo,
                        "esquema": impressao_esquema(),
                    },
                    ensure_ascii=False,
                ),
            },
        )
        g.gravar()
        self.progresso(total, total, "Autos de infração")

    # --- administration ------------------------------------------------------------------------------

    def _usuarios(self, g: _Gravador, senha: str) -> None:
        criado = datetime.combine(self.inicio, time(8, 0))
        for login, nome, papeis in self.usuarios:
            uid = g.novo_id("usuario")
            g.add(
                "usuario",
                {
                    "id": uid,
                    "login": login,
                    "nome": nome,
                    "senha_hash": hash_senha(senha),
                    "ativo": True,
                    "falhas_login": 0,
                    "bloqueado_ate": None,
                    "ultimo_acesso": None,
                    **_versao(criado, ATOR_DEMO.login),
                },
            )
            for p in sorted(set(papeis)):
                g.add("usuario_papel", {"usuario_id": uid, "papel": p})
        self.usuario_fiscal = next(
            (i + 1 for i, (_l, _n, papeis) in enumerate(self.usuarios) if "fiscal" in papeis), None
        )

    def _urm_e_feriados(self, g: _Gravador) -> None:
        ano_ref, valor_ref = _URM_REFERENCIA
        for ano in range(self.inicio.year, self.hoje.year + 1):
            valor = (valor_ref * _URM_CORRECAO ** (ano - ano_ref)).quantize(Decimal("0.0001"))
            vigencia = date(ano, 1, 1)
            ato = f"Decreto nº {6100 + 37 * (ano - 2000)}/{ano - 1}"
            self.urm.append(ValorUrm(vigencia, valor, ato))
            g.add(
                "valor_urm",
                {
                    "id": g.novo_id("valor_urm"),
                    "vigencia": vigencia,
                    "valor": valor,
                    "ato": ato,
                    **_versao(datetime(ano - 1, 12, 20, 10), self.login("administrador")),
                },
            )
        # The municipal holidays are computed by `lei.prazos` for every year: the table holds only the decreed
        # pontos facultativos (REGRAS § 4).
        for ano in range(self.inicio.year, self.hoje.year + 2):
            dias: dict[date, tuple[str, str | None]] = {}
            pascoa = domingo_de_pascoa(ano)
            decreto = f"Decreto nº {6200 + 41 * (ano - 2000)}/{ano - 1} (pontos facultativos)"
            dias[pascoa - timedelta(days=48)] = ("Ponto facultativo — segunda-feira de Carnaval", decreto)
            dias[pascoa - timedelta(days=47)] = ("Ponto facultativo — terça-feira de Carnaval", decreto)
            dias[date(ano, 12, 24)] = ("Ponto facultativo — véspera de Natal", decreto)
            for d, (desc, ato_dia) in sorted(dias.items()):
                self.feriados[d] = desc
                g.add(
                    "dia_nao_util",
                    {
                        "id": g.novo_id("dia_nao_util"),
                        "data": d,
                        "descricao": desc,
                        "ato": ato_dia,
                        **_versao(datetime(ano - 1, 12, 15, 10), self.login("administrador")),
                    },
                )
        self.calendario = Calendario(self.feriados)

    def _orgao(self, g: _Gravador) -> None:
        secretario = self._secretario_nome
        g.sessao.execute(
            sa.text(
                "UPDATE dados_orgao SET secretario_nome = :nome, endereco = :endereco, telefone = :tel, "
                "email = :email, horario_expediente = :horario, pagamento_instrucoes = :pagamento, "
                "versao = versao + 1, alterado_por = :por WHERE id = 1"
            ),
            {
                "nome": secretario,
                "horario": "de segunda a sexta-feira, das 8h às 14h",
                "pagamento": (
                    "por guia de recolhimento emitida no protocolo da Secretaria, no endereço acima, "
                    "paga em qualquer agência bancária credenciada pelo Município"
                ),
                "endereco": "Rua Gonçalves Chaves, 457 — Centro — CEP 96015-560",
                "tel": "(53) 3284-7700",
                "email": "smsu@pelotas.rs.gov.br",
                "por": ATOR_DEMO.login,
            },
        )

    # --- registries ----------------------------------------------------------------------------------

    def _pessoa(self) -> str:
        rng = self.rng
        primeiro = rng.choice(nomes.NOMES_M if rng.random() < 0.6 else nomes.NOMES_F)
        s1, s2 = rng.sample(nomes.SOBRENOMES, 2)
        return f"{primeiro} {s1} {s2}" if rng.random() < 0.7 else f"{primeiro} {s2}"

    def _novo_cpf(self) -> str:
        while (cpf := _cpf(self.rng)) in self._cpfs:
            pass
        self._cpfs.add(cpf)
        return cpf

    def _endereco(self, bairro: str | None = None) -> tuple[str, str, str, str]:
        rng = self.rng
        return (
            rng.choice(nomes.RUAS),
            str(rng.randrange(20, 3200)),
            bairro or rng.choice(nomes.BAIRROS),
            f"960{rng.randrange(10, 99)}{rng.randrange(1000):03d}",
        )

    def _operadoras(self, g: _Gravador) -> None:
        rng = self.rng
        usados: set[str] = set()
        for i in range(self.escala.operadoras):
            while True:
                lugar = (
                    nomes.NOMES_EMPRESA[i % len(nomes.NOMES_EMPRESA)]
                    if i < 20
                    else rng.choice(nomes.NOMES_EMPRESA)
                )
                prefixo = nomes.PREFIXOS_EMPRESA[(i * 7 + i // 6) % len(nomes.PREFIXOS_EMPRESA)]
                razao = f"{prefixo} {lugar} {rng.choice(nomes.SUFIXOS_EMPRESA)}"
                if i >= 20:
                    razao = f"{prefixo} {lugar} {i} {nomes.SUFIXOS_EMPRESA[0]}"
                if razao not in usados:
                    usados.add(razao)
                    break
            # Every third operator registered with the new alphanumeric CNPJ form.
            cnpj = _cnpj(rng, alfanumerico=i % 3 == 2)
            rua, numero, bairro, cep = self._endereco(nomes.BAIRROS[i % len(nomes.BAIRROS)])
            representante = self._pessoa()
            cpf = self._novo_cpf()
            permissao = i % 4 == 3
            inicio_contrato = date(self.inicio.year - rng.randrange(1, 12), rng.randrange(1, 13), 1)
            oid = g.novo_id("operadora")
            slug = "".join(c for c in lugar.lower() if c.isalnum())[:14] or "empresa"
            g.add(
                "operadora",
                {
                    "id": oid,
                    "razao_social": razao,
                    "nome_fantasia": lugar,
                    "cnpj": cnpj,
                    "delegacao": "permissao" if permissao else "concessao",
                    "logradouro": rua,
                    "numero_endereco": numero,
                    "complemento": rng.choice(("", "", "Garagem", "Sala 2")),
                    "bairro": bairro,
                    "cidade": "Pelotas",
                    "uf": "RS",
                    "cep": cep,
                    "telefone": f"(53) 32{rng.randrange(20, 99)}-{rng.randrange(10000):04d}",
                    "email": f"contato@{slug}.com.br",
                    "representante_nome": representante,
                    "representante_cpf": cpf,
                    # The number alone: documents print "Contrato nº …" / "Termo de permissão nº …" themselves.
                    "contrato_numero": f"{rng.randrange(1, 60):03d}/{inicio_contrato.year}",
                    "contrato_inicio": inicio_contrato,
                    "contrato_fim": date(inicio_contrato.year + 20, inicio_contrato.month, 1),
                    "cassada_em": None,
                    **_versao(datetime.combine(self.inicio, time(9)), self.login("administrador")),
                },
            )
            self.operadoras.append(
                _Operadora(
                    oid,
                    razao,
                    representante,
                    cpf,
                    f"{rua}, {numero} — {bairro}",
                    peso=0,
                    permissionaria=permissao,
                )
            )

    def _linhas(self, g: _Gravador) -> None:
        rng = self.rng
        n = max(self.escala.linhas, self.escala.operadoras)
        for i in range(n):
            op = self.operadoras[i % len(self.operadoras)]
            destino = nomes.DESTINOS[i % len(nomes.DESTINOS)]
            via = rng.sample(nomes.RUAS, 3)
            codigo = f"{(i % 9) + 1}{i // 9 + 1:02d}" if n < 900 else f"L{i + 1:04d}"
            nome = f"Centro / {destino}" + (f" (via {via[0]})" if i >= len(nomes.DESTINOS) else "")
            lid = g.novo_id("linha")
            g.add(
                "linha",
                {
                    "id": lid,
                    "codigo": codigo,
                    "nome": nome,
                    "itinerario": " – ".join(["Terminal Centro (Praça Cel. Pedro Osório)", *via, destino]),
                    "operadora_id": op.id,
                    "ativa": rng.random() > 0.05,
                    **_versao(datetime.combine(self.inicio, time(9, 30)), self.login("administrador")),
                },
            )
            op.linhas.append(lid)
        self.codigo_linha: dict[int, str] = {}
        # codes are needed for the facts' text
        for linha in g.buffers["linha"]:
            self.codigo_linha[linha["id"]] = linha["codigo"]

    def _veiculos(self, g: _Gravador) -> None:
        rng = self.rng
        ops = self.operadoras
        for i in range(self.escala.veiculos):
            # Bigger operators first: operator k gets a share that falls with k.
            op = ops[min(int(len(ops) * rng.random() ** 1.4), len(ops) - 1)] if i >= len(ops) else ops[i]
            ano = rng.randrange(self.hoje.year - 16, self.hoje.year + 1)
            mercosul = ano >= 2019 or rng.random() < 0.3
            while True:
                placa = _placa(rng, mercosul)
                chave = chave_placa(placa)
                if chave not in self._placas:
                    self._placas.add(chave)
                    break
            while (renavam := _renavam(rng)) in self._renavams:
                pass
            self._renavams.add(renavam)
            linha_id = rng.choice(op.linhas) if op.linhas and rng.random() < 0.9 else None
            chassi, carroceria = rng.choice(nomes.CHASSIS)
            vencida = rng.random() < 0.06
            vistoria = self.hoje + timedelta(days=rng.randrange(-75, 0) if vencida else rng.randrange(5, 360))
            licenca_vencida = rng.random() < 0.04
            licenca = date(self.hoje.year + (0 if licenca_vencida else 1), rng.randrange(1, 13), 1)
            if licenca_vencida and licenca >= self.hoje:
                licenca = self.hoje - timedelta(days=rng.randrange(1, 60))
            situacao = "baixado" if rng.random() < 0.03 else ("reserva" if rng.random() < 0.08 else "ativo")
            vid = g.novo_id("veiculo")
            prefixo = f"{(ops.index(op) + 1) % 100:02d}{len(op.veiculos) + 1:03d}"
            entrada = max(date(ano, rng.randrange(1, 13), 1), self.inicio - timedelta(days=400))
            g.add(
                "veiculo",
                {
                    "id": vid,
                    "prefixo": prefixo,
                    "placa": placa,
                    "placa_chave": chave,
                    "renavam": renavam,
                    "operadora_id": op.id,
                    "linha_id": linha_id,
                    "marca_modelo": f"{chassi} / {carroceria}",
                    "ano_fabricacao": ano,
                    "lugares_sentados": rng.randrange(28, 44),
                    "lugares_em_pe": rng.randrange(25, 55),
                    "vistoria_validade": vistoria,
                    "licenca_validade": licenca,
                    "situacao": situacao,
                    **_versao(
                        datetime.combine(min(entrada, self.hoje), time(10)), self.login("administrador")
                    ),
                },
            )
            g.add(
                "veiculo_historico",
                {
                    "id": g.novo_id("veiculo_historico"),
                    "veiculo_id": vid,
                    "operadora_id": op.id,
                    "linha_id": linha_id,
                    "inicio": entrada,
                    "fim": None,
                    "registrado_por": self.login("administrador"),
                },
            )
            op.veiculos.append(
                _Veiculo(
                    vid, prefixo, formatar_placa(placa), linha_id, self.codigo_linha.get(linha_id or 0, "")
                )
            )
            op.peso += 1

    def _empregados(self, g: _Gravador) -> None:
        rng = self.rng
        ops = self.operadoras
        pesos = [max(op.peso, 1) for op in ops]
        for i in range(self.escala.empregados):
            op = ops[i] if i < len(ops) else rng.choices(ops, pesos)[0]
            funcao = rng.choices(("motorista", "cobrador", "fiscal_empresa", "outro"), (55, 30, 10, 5))[0]
            admissao = self.inicio - timedelta(days=rng.randrange(-self.escala.anos * 300, 4000))
            demissao = None
            if rng.random() < 0.12:
                demissao = admissao + timedelta(days=rng.randrange(60, 2500))
                if demissao >= self.hoje:
                    demissao = None
            nome = self._pessoa()
            eid = g.novo_id("empregado")
            g.add(
                "empregado",
                {
                    "id": eid,
                    "nome": nome,
                    "cpf": self._novo_cpf(),
                    "funcao": funcao,
                    "operadora_id": op.id,
                    "carteira_cadastro": f"SMSU-{rng.randrange(1000, 99999):05d}",
                    "admissao": admissao,
                    "demissao": demissao,
                    **_versao(
                        datetime.combine(min(max(admissao, self.inicio), self.hoje), time(11)),
                        self.login("administrador"),
                    ),
                },
            )
            emp = _Empregado(eid, nome, funcao, admissao, demissao)
            op.empregados.append(emp)
            if funcao == "motorista":
                op.motoristas.append(emp)

    def _fiscais(self, g: _Gravador) -> None:
        for i in range(self.escala.fiscais):
            fid = g.novo_id("fiscal")
            g.add(
                "fiscal",
                {
                    "id": fid,
                    "nome": self._pessoa(),
                    "matricula": f"{self.rng.randrange(10, 99)}.{self.rng.randrange(1000):03d}-{i % 10}",
                    "ativo": True,
                    "usuario_id": self.usuario_fiscal if i == 0 else None,
                    **_versao(datetime.combine(self.inicio, time(9)), self.login("administrador")),
                },
            )
            self.fiscais.append(fid)

    # --- the sequence of autos -----------------------------------------------------------------------

    def _dia_aleatorio(self, inicio: date, fim: date) -> date:
        """A day in [inicio, fim], inspections being rarer on weekends and holidays."""
        rng = self.rng
        span = (fim - inicio).days
        while True:
            d = inicio + timedelta(days=rng.randrange(span + 1))
            if self.calendario.eh_dia_util(d) or rng.random() < 0.3:
                return d

    def _vagas(self, g: _Gravador) -> list[_Vaga]:
        """Every auto's slot, sorted by when it is drawn up: random ones, representações, chains."""
        rng = self.rng
        e = self.escala
        vagas: list[_Vaga] = []
        ordem = 0

        def nova(**kw: Any) -> None:
            nonlocal ordem
            ordem += 1
            vagas.append(_Vaga(ordem=ordem, **kw))

        # Scripted recidivism chains.
        n_cadeias = min(e.cadeias, len(self.operadoras) * 2)
        planos_cadeia = self._cadeias(n_cadeias)
        n_cadeia = sum(len(p) for p in planos_cadeia)
        # Representações: about 3 % of the autos come from one; 1,5 % more are filed away or pending.
        n_rep_autos = max(1, e.autos * 3 // 100)
        n_rep_soltas = max(2, e.autos * 15 // 1000)
        reps = self._representacoes(g, n_rep_autos, n_rep_soltas)
        n_normais = max(0, e.autos - n_cadeia - sum(1 for r in reps if r[0] is not None))
        for plano in planos_cadeia:
            for dia, op, codigo, roteiro in plano:
                nova(
                    lavratura=_momento(dia, rng, 7, 20),
                    operadora=op,
                    dispositivo=codigo,
                    infracao=dia,
                    roteiro=roteiro,
                )
        for lavratura, op, codigo, infracao, rep_id in (r for r in reps if r[0] is not None):
            assert lavratura is not None
            nova(
                lavratura=lavratura,
                operadora=op,
                dispositivo=codigo,
                infracao=infracao,
                representacao_id=rep_id,
            )
        for _ in range(n_normais):
            nova(lavratura=_momento(self._dia_aleatorio(self.inicio, self.hoje), rng, 6, 23))
        if e.autos_mes_pico:
            # The benchmark's busiest month: a "força-tarefa" fourteen months ago.
            ref = somar_meses(self.hoje, -14)
            ini = ref.replace(day=1)
            fim = somar_meses(ini, 1) - timedelta(days=1)
            for _ in range(e.autos_mes_pico):
                nova(lavratura=_momento(self._dia_aleatorio(ini, fim), rng, 6, 23))
        vagas.sort(key=lambda v: (v.lavratura, v.ordem))
        return vagas

    def _cadeias(self, n: int) -> list[list[tuple[date, int, str, _Roteiro]]]:
        """Chains of one operator and one provision, each fact within the window of the previous one and
        final (REGRAS § 3 rule 1: appeal deadline passed) before the next, so the level climbs to suspension. Chain 0 ends with its operator
        suspended today; chain 2 has an appeal granted halfway, so the level drops after it."""
        rng = self.rng
        candidatos = ("1-III", "2-I", "2-VI", "1-XII", "1-XVII", "1-VIII", "1-XVI")
        planos: list[list[tuple[date, int, str, _Roteiro]]] = []
        for k in range(n):
            op = k % len(self.operadoras)
            codigo = candidatos[(k // len(self.operadoras) + k) % len(candidatos)]
            while (op, codigo) in self.reservados:
                codigo = candidatos[(candidatos.index(codigo) + 1) % len(candidatos)]
            self.reservados.add((op, codigo))
            tipo = self.catalogo[codigo].tipo
            assert tipo is not None
            # Intervals well inside the window (E: 8 months, D: 6) and longer than the ~2 months a
            # scripted case takes to be decided.
            intervalo = (75, 120) if tipo == "E" else (70, 100)
            fatos: list[date] = []
            if k == 0:
                dia = self.hoje - timedelta(days=70)
                while dia > self.inicio + timedelta(days=20):
                    fatos.append(dia)
                    dia -= timedelta(days=rng.randrange(*intervalo))
                fatos.reverse()
            else:
                dia = self.inicio + timedelta(days=rng.randrange(10, 200))
                quantos = rng.randrange(NIVEL_SUSPENSAO[tipo] + 2, NIVEL_SUSPENSAO[tipo] + 5)
                while len(fatos) < quantos and dia < self.hoje - timedelta(days=120):
                    fatos.append(dia)
                    dia += timedelta(days=rng.randrange(*intervalo))
            plano = []
            for j, dia in enumerate(fatos):
                roteiro = _Roteiro(
                    ultimo_da_cadeia_hoje=(k == 0 and j == len(fatos) - 1),
                    recurso="provido" if (k % 3 == 2 and j == 1) else None,
                )
                plano.append((dia, op, codigo, roteiro))
            planos.append(plano)
        return planos

    def _representacoes(
        self, g: _Gravador, n_autos: int, n_soltas: int
    ) -> list[tuple[datetime | None, int, str, date, int]]:
        """Write the representações; return, for those drawn up into an auto, the auto's slot data."""
        rng = self.rng
        planos = []
        for i in range(n_autos + n_soltas):
            recebida = self._dia_util_entre(self.inicio + timedelta(days=5), self.hoje)
            fato = recebida - timedelta(days=rng.randrange(0, 12))
            op_i = rng.randrange(len(self.operadoras))
            codigo = rng.sortear(self.pesos)
            while (op_i, codigo) in self.reservados:
                codigo = rng.sortear(self.pesos)
            planos.append((recebida, fato, op_i, codigo, i < n_autos))
        planos.sort(key=lambda p: p[0])
        saida: list[tuple[datetime | None, int, str, date, int]] = []
        for recebida, fato, op_i, codigo, autuar in planos:
            op = self.operadoras[op_i]
            rid = g.novo_id("representacao")
            ano = recebida.year
            numero = self.numeros[("REP", ano)] = self.numeros.get(("REP", ano), 0) + 1
            situacao, arquivada_em, motivo = "recebida", None, None
            lavratura = None
            if autuar:
                dia = self.calendario.proximo_dia_util(recebida + timedelta(days=rng.randrange(3, 25)))
                if dia <= self.hoje:
                    situacao = "autuada"
                    lavratura = _momento(dia, rng)
            elif (d := recebida + timedelta(days=rng.randrange(5, 45))) <= self.hoje and rng.random() < 0.75:
                situacao, arquivada_em = "arquivada", self.calendario.proximo_dia_util(d)
                if arquivada_em > self.hoje:
                    situacao, arquivada_em = "recebida", None
                else:
                    motivo = rng.choice(nomes.MOTIVOS_ARQUIVAMENTO_REP)
            rua, numero_end, bairro, _cep = self._endereco()
            veic = rng.choice(op.veiculos) if op.veiculos else None
            disp = self.catalogo[codigo]
            fatos = f"Relata que {_resumo_dispositivo(disp).lower()}"
            if veic is not None:
                fatos += (
                    f" O fato envolveu o ônibus prefixo {veic.prefixo}, da {op.razao_social.rstrip('.')}."
                )
            alterado = arquivada_em or (lavratura.date() if lavratura else recebida)
            g.add(
                "representacao",
                {
                    "id": rid,
                    "ano": ano,
                    "numero": numero,
                    "recebida_em": recebida,
                    "peticionario_nome": self._pessoa(),
                    "peticionario_profissao": rng.choice(nomes.PROFISSOES),
                    "peticionario_endereco": f"{rua}, {numero_end} — {bairro} — Pelotas/RS",
                    "peticionario_contato": f"(53) 9{rng.randrange(8100, 9999)}-{rng.randrange(10000):04d}",
                    "fatos": fatos,
                    "meios_prova": rng.choice(
                        ("Fotografias tiradas com o celular.", "Testemunhas: outros passageiros.", "")
                    ),
                    "operadora_id": op.id,
                    "dispositivo_codigo": codigo,
                    "data_fato": fato,
                    "local_fato": f"{rng.choice(nomes.RUAS)} — {rng.choice(nomes.BAIRROS)}",
                    "situacao": situacao,
                    "arquivada_em": arquivada_em,
                    "motivo_arquivamento": motivo,
                    "recebida_por": self.login("fiscal"),
                    "versao": 1 if situacao == "recebida" else 2,
                    "criado_em": _momento(recebida, rng),
                    "alterado_em": _momento(alterado, rng),
                    "alterado_por": self.login("fiscal")
                    if situacao != "arquivada"
                    else self.login("autoridade"),
                },
            )
            if autuar:
                saida.append((lavratura, op_i, codigo, fato, rid))
        return saida

    def _dia_util_entre(self, inicio: date, fim: date) -> date:
        return min(self.calendario.proximo_dia_util(self._dia_aleatorio(inicio, fim)), fim)

    # --- one auto and its whole life -----------------------------------------------------------------

    def _escolher(self, vaga: _Vaga) -> tuple[int, str, Sancao, tuple[Antecedente, ...]]:
        """Operator and provision for a random slot: an operator does not pile up the same infraction
        beyond a modest recidivism level (only the scripted chains go on to suspension)."""
        rng = self.rng
        dia = vaga.lavratura.date()
        pesos_op = self.pesos_operadoras
        ultimo: tuple[int, str, Sancao, tuple[Antecedente, ...]] | None = None
        for _ in range(30):
            op_i = rng.sortear(pesos_op)
            codigo = rng.sortear(self.pesos)
            if (op_i, codigo) in self.reservados:
                continue
            tipo = self.catalogo[codigo].tipo
            assert tipo is not None
            antecedentes = self._par(op_i, codigo).antecedentes(dia, dia)
            sancao = calcular_sancao(tipo, dia, antecedentes)
            ultimo = (op_i, codigo, sancao, antecedentes)
            if sancao.reincidencia <= _TETO_REINCIDENCIA[tipo]:
                return ultimo
        if ultimo is None:  # every draw hit a reserved pair: take any free one
            op_i = 0
            codigo = next(c for c in self.codigos if (op_i, c) not in self.reservados)
            tipo = self.catalogo[codigo].tipo
            assert tipo is not None
            antecedentes = self._par(op_i, codigo).antecedentes(dia, dia)
            ultimo = (op_i, codigo, calcular_sancao(tipo, dia, antecedentes), antecedentes)
        return ultimo

    def _par(self, op_i: int, codigo: str) -> _Par:
        par = self.pares.get((op_i, codigo))
        if par is None:
            tipo = self.catalogo[codigo].tipo
            assert tipo is not None
            par = self.pares[(op_i, codigo)] = _Par(tipo)
        return par

    def _auto(self, g: _Gravador, vaga: _Vaga) -> None:
        """One auto's whole life, act by act, truncated at today. The acts draw from one random sequence,
        in this order: the order is part of the generated data."""
        c = self._lavrar(g, vaga)
        self._cancelar(c)
        self._intimar(g, c)
        self._defender(g, c)
        self._datas_proposta_decisao(c)
        if c.decisao_dia is not None:
            c.cancelado = (
                None  # a decided auto can no longer be cancelled (autos.cancelar_auto): only appealed
            )
        if c.proposta_dia is not None:
            self._propor(g, c)
            if c.decisao_dia is not None:
                self._decidir(g, c)
                self._intimar_decisao(g, c)
        if c.resultado == "aplicada" and c.intimado_decisao and c.prazo_recurso and c.decisao_id is not None:
            self._recorrer(g, c)
        self._pagar(g, c)
        self._gravar_auto(g, c)

    def _lavrar(self, g: _Gravador, vaga: _Vaga) -> _Caso:
        """The auto itself: operator, provision, vehicle, employee, place and time, witnesses."""
        rng = self.rng
        lavratura = vaga.lavratura
        dia_lav = lavratura.date()
        if vaga.operadora is None or vaga.dispositivo is None:
            op_i, codigo, sancao_lav, _ = self._escolher(vaga)
            infracao = dia_lav
        else:
            op_i, codigo = vaga.operadora, vaga.dispositivo
            infracao = vaga.infracao or dia_lav
            tipo0 = self.catalogo[codigo].tipo
            assert tipo0 is not None
            sancao_lav = calcular_sancao(
                tipo0, infracao, self._par(op_i, codigo).antecedentes(infracao, dia_lav)
            )
        op = self.operadoras[op_i]
        disp = self.catalogo[codigo]
        tipo = disp.tipo
        assert tipo is not None
        par = self._par(op_i, codigo)
        hist = _Historico(infracao)
        par.incluir(hist)

        ano = dia_lav.year
        numero = self.numeros[("AI", ano)] = self.numeros.get(("AI", ano), 0) + 1
        aid = g.novo_id("auto_infracao")

        veiculo = rng.choice(op.veiculos) if op.veiculos and rng.random() < 0.92 else None
        linha_id = veiculo.linha_id if veiculo else (rng.choice(op.linhas) if op.linhas else None)
        empregado = None
        if disp.sujeito is not Sujeito.CONCESSIONARIA or rng.random() < 0.15:
            lista = op.motoristas if disp.sujeito is Sujeito.CONDUTOR else op.empregados
            for _ in range(8):
                cand = rng.choice(lista) if lista else None
                if cand and cand.admissao <= infracao and (cand.demissao is None or cand.demissao > infracao):
                    empregado = cand
                    break
        rua, numero_end, bairro, _ = self._endereco()
        local = f"{rua}, {numero_end} — {bairro}"
        hora = time(rng.randrange(6, 23), rng.randrange(60))
        hora_infracao: time | None = hora
        if vaga.representacao_id is not None:
            hora_infracao = None if rng.random() < 0.4 else hora
            local_lavratura = "Sede da SMSU — Rua Gonçalves Chaves, 457 — Centro"
        else:
            lavratura = datetime.combine(dia_lav, hora) + timedelta(minutes=rng.randrange(5, 40))
            if lavratura.date() != dia_lav:
                lavratura = datetime.combine(dia_lav, time(23, 59))
            local_lavratura = local
        texto_fato = nomes.FATOS.get(codigo) or _resumo_dispositivo(disp)
        fatos = texto_fato.format(
            veiculo=f"prefixo {veiculo.prefixo} (placa {veiculo.placa})" if veiculo else "da frota",
            linha=self.codigo_linha.get(linha_id or 0, "") or "em operação",
            pessoa=f"{_funcao(empregado.funcao if empregado else 'motorista')} {empregado.nome}"
            if empregado
            else "O condutor",
        )
        testemunhas = rng.sortear(_TESTEMUNHAS)
        for _ in range(testemunhas):
            t_rua, t_num, t_bairro, _ = self._endereco()
            g.add(
                "testemunha",
                {
                    "id": g.novo_id("testemunha"),
                    "auto_id": aid,
                    "nome": self._pessoa(),
                    "documento": f"RG {rng.randrange(10**9, 10**10)}",
                    "endereco": f"{t_rua}, {t_num} — {t_bairro} — Pelotas/RS",
                },
            )
        return _Caso(
            vaga=vaga,
            hoje=self.hoje,
            aid=aid,
            ano=ano,
            numero=numero,
            op=op,
            codigo=codigo,
            disp=disp,
            tipo=tipo,
            par=par,
            hist=hist,
            infracao=infracao,
            dia_lav=dia_lav,
            lavratura=lavratura,
            sancao_lav=sancao_lav,
            veiculo=veiculo,
            linha_id=linha_id,
            empregado=empregado,
            local=local,
            local_lavratura=local_lavratura,
            hora_infracao=hora_infracao,
            fatos=fatos,
            fiscal_login=self.login("fiscal"),
            protocolo=self.login("protocolo"),
            ultimo_ato=lavratura,
        )

    def _cancelar(self, c: _Caso) -> None:
        """A few autos are cancelled (the cancellation stands only while the auto is undecided)."""
        if c.roteiro is None and self.rng.random() < 0.02:
            d = self.calendario.proximo_dia_util(c.dia_lav + timedelta(days=self.rng.randrange(1, 30)))
            c.cancelado = d if d <= c.hoje else None

    def _intimar(self, g: _Gravador, c: _Caso) -> None:
        """Intimação of the auto (art. 11): failed attempts are kept; the first success starts the defence."""
        rng = self.rng
        cal = self.calendario
        d = cal.proximo_dia_util(
            c.dia_lav + timedelta(days=rng.randrange(1, 4) if c.rapido else rng.randrange(1, 11))
        )
        falhas = 0 if c.rapido else rng.sortear(_FALHAS_AUTO)
        # A few recent autos whose every delivery failed so far (older ones were delivered in the end).
        nunca = not c.rapido and rng.random() < 0.006 and (c.hoje - c.dia_lav).days < 200
        for tentativa in range(falhas + 1 + (3 if nunca else 0)):
            if not c.antes_do_fim(d):
                break
            sucesso = tentativa == falhas and not nunca
            self._intimacao(g, c.aid, "auto", d, c.op, sucesso, c.protocolo)
            c.ultimo_ato = max(c.ultimo_ato, _momento(d, rng))
            if sucesso:
                c.intimado = d
                break
            d = cal.proximo_dia_util(d + timedelta(days=rng.randrange(3, 11)))
        c.prazo_defesa = cal.vencimento(c.intimado, 15) if c.intimado else None
        if c.intimado and c.prazo_defesa:
            g.buffers["intimacao"][-1]["prazo"] = c.prazo_defesa

    def _defender(self, g: _Gravador, c: _Caso) -> None:
        """Defence (art. 14): timely or not."""
        rng = self.rng
        cal = self.calendario
        intimado, prazo_defesa = c.intimado, c.prazo_defesa
        if intimado and prazo_defesa and not c.rapido and rng.random() < 0.45:
            if rng.random() < 0.92:
                dd = intimado + timedelta(days=rng.randrange(1, (prazo_defesa - intimado).days + 1))
                dd = min(cal.proximo_dia_util(dd), prazo_defesa)
            else:
                dd = cal.proximo_dia_util(prazo_defesa + timedelta(days=rng.randrange(1, 12)))
                c.defesa_tempestiva = False
            if c.antes_do_fim(dd):
                c.defesa_dia = dd
                g.add(
                    "defesa",
                    {
                        "id": g.novo_id("defesa"),
                        "auto_id": c.aid,
                        "protocolada_em": dd,
                        "tempestiva": c.defesa_tempestiva,
                        "requerente": c.op.representante
                        if rng.random() < 0.5
                        else f"Dr(a). {self._pessoa()}, OAB/RS",
                        "texto": rng.choice(nomes.TEXTOS_DEFESA),
                        "recibo": f"Protocolo nº {rng.randrange(1000, 99999)}/{dd.year}",
                        "registrado_por": c.protocolo,
                        **_versao(_momento(dd, rng), c.protocolo),
                    },
                )
                c.ultimo_ato = max(c.ultimo_ato, _momento(dd, rng))

    def _datas_proposta_decisao(self, c: _Caso) -> None:
        """The days of the proposal (art. 13) and of the decision, when they have come."""
        rng = self.rng
        cal = self.calendario
        if c.intimado and c.prazo_defesa:
            base = max(c.prazo_defesa, c.defesa_dia or c.prazo_defesa)
            if c.rapido:
                atraso = rng.randrange(1, 5)
            else:
                atraso = rng.choices(
                    (rng.randrange(2, 25), rng.randrange(25, 70), rng.randrange(90, 260)), (80, 15, 5)
                )[0]
            p = cal.proximo_dia_util(base + timedelta(days=atraso))
            if c.antes_do_fim(p):
                c.proposta_dia = p
                dec = cal.proximo_dia_util(
                    p + timedelta(days=rng.randrange(1, 4) if c.rapido else rng.randrange(1, 13))
                )
                if c.antes_do_fim(dec):
                    c.decisao_dia = dec

    def _propor(self, g: _Gravador, c: _Caso) -> None:
        """The proposal (art. 13): dismiss, or apply a penalty within the law's range."""
        rng = self.rng
        proposta_dia = c.proposta_dia
        assert proposta_dia is not None
        em = c.decisao_dia or proposta_dia
        sancao = c.sancao = calcular_sancao(c.tipo, c.infracao, c.par.antecedentes(c.infracao, em))
        arquivar = False
        if c.roteiro is None:
            arquivar = rng.random() < (0.25 if c.defesa_dia and c.defesa_tempestiva else 0.08)
        if arquivar:
            acao = c.acao = "arquivar"
        else:
            acao = c.acao = "aplicar"
            c.multa = _multa(rng, sancao, minimo=c.roteiro is not None and rng.random() < 0.5)
            c.susp = _suspensao(rng, sancao, c.roteiro)
        autoridade = self.login("autoridade")
        g.add(
            "proposta",
            {
                "id": g.novo_id("proposta"),
                "auto_id": c.aid,
                "data": proposta_dia,
                "acao": acao,
                "multa_ur": c.multa,
                "suspensao_dias": c.susp,
                "fundamentacao": _fundamentacao_proposta(acao, c.multa, c.susp, sancao),
                "autoridade": autoridade,
                "registrada_em": _momento(proposta_dia, rng),
            },
        )
        c.ultimo_ato = max(c.ultimo_ato, _momento(proposta_dia, rng))

    def _decidir(self, g: _Gravador, c: _Caso) -> None:
        """The Secretary's decision, with the URM value in force on its day."""
        rng = self.rng
        decisao_dia, sancao = c.decisao_dia, c.sancao
        assert decisao_dia is not None and sancao is not None
        resultado = c.resultado = "aplicada" if c.acao == "aplicar" else "arquivado"
        multa, susp = c.multa, c.susp
        valor = valor_em(self.urm, decisao_dia)
        decisao_id = c.decisao_id = g.novo_id("decisao")
        secretario = self.login("secretario")
        g.add(
            "decisao",
            {
                "id": decisao_id,
                "auto_id": c.aid,
                "data": decisao_dia,
                "resultado": resultado,
                "multa_ur": multa,
                "valor_urm": valor if resultado == "aplicada" else None,
                "multa_reais": urm_para_reais(multa, valor) if resultado == "aplicada" else Decimal(0),
                "suspensao_dias": susp,
                # A dismissal records no range, as `tramitacao.decidir` does.
                "reincidencia": sancao.reincidencia if resultado == "aplicada" else 0,
                "faixa_min_ur": sancao.multa_min_ur if resultado == "aplicada" else None,
                "faixa_max_ur": sancao.multa_max_ur if resultado == "aplicada" else None,
                "fundamentacao": _fundamentacao_decisao(resultado, c.defesa_dia is not None),
                "fundamentos_legais": "\n".join(sancao.fundamentos) if resultado == "aplicada" else "",
                "secretario": secretario,
                # The letterhead's Secretary, as `tramitacao.decidir` records it.
                "secretario_nome": self._secretario_nome,
                "secretario_cargo": "Secretário Municipal de Serviços Urbanos",
                "defesa_intempestiva": c.defesa_dia is not None and not c.defesa_tempestiva,
                **_versao(_momento(decisao_dia, rng), secretario),
            },
        )
        c.ultimo_ato = max(c.ultimo_ato, _momento(decisao_dia, rng))
        if resultado == "aplicada":
            c.hist.decisao, c.hist.multa, c.hist.suspensao = decisao_dia, multa, susp
            if susp:
                c.par.com_suspensao.append(c.hist)

    def _intimar_decisao(self, g: _Gravador, c: _Caso) -> None:
        """Intimação of the decision: starts the appeal deadline (art. 15)."""
        rng = self.rng
        cal = self.calendario
        decisao_dia = c.decisao_dia
        assert decisao_dia is not None
        d = cal.proximo_dia_util(
            decisao_dia + timedelta(days=rng.randrange(1, 4) if c.rapido else rng.randrange(2, 12))
        )
        falhas = 0 if c.rapido else rng.sortear(_FALHAS_DECISAO)
        for tentativa in range(falhas + 1):
            if d > c.hoje:
                break
            sucesso = tentativa == falhas
            self._intimacao(g, c.aid, "decisao", d, c.op, sucesso, c.protocolo)
            c.ultimo_ato = max(c.ultimo_ato, _momento(d, rng))
            if sucesso:
                c.intimado_decisao = d
                c.prazo_recurso = cal.vencimento(d, 15)
                g.buffers["intimacao"][-1]["prazo"] = c.prazo_recurso
                break
            d = cal.proximo_dia_util(d + timedelta(days=rng.randrange(3, 10)))

    def _recorrer(self, g: _Gravador, c: _Caso) -> None:
        """Appeal to the Prefeito (art. 15), on applied penalties only; then the day the decision is final."""
        rng = self.rng
        cal = self.calendario
        hoje = c.hoje
        intimado_decisao, prazo_recurso, roteiro = c.intimado_decisao, c.prazo_recurso, c.roteiro
        assert intimado_decisao is not None and prazo_recurso is not None
        quer_recorrer = (roteiro is not None and roteiro.recurso is not None) or (
            roteiro is None and rng.random() < (0.45 if c.susp else 0.17)
        )
        if quer_recorrer:
            c.tempestivo = roteiro is not None or rng.random() < 0.94
            if c.tempestivo:
                pr = intimado_decisao + timedelta(
                    days=rng.randrange(1, (prazo_recurso - intimado_decisao).days + 1)
                )
                pr = min(cal.proximo_dia_util(pr), prazo_recurso)
            else:
                pr = cal.proximo_dia_util(prazo_recurso + timedelta(days=rng.randrange(1, 10)))
            if pr <= hoje:
                jul = cal.proximo_dia_util(
                    pr + timedelta(days=rng.randrange(5, 15) if c.rapido else rng.randrange(20, 110))
                )
                if jul <= hoje:
                    c.julgado = jul
                    if roteiro is not None and roteiro.recurso:
                        c.recurso_res = roteiro.recurso
                    elif not c.tempestivo:
                        c.recurso_res = "negado"  # not heard: filed after the deadline
                    else:
                        c.recurso_res = rng.choices(
                            ("negado", "provido", "provido_parcialmente"), (55, 20, 25)
                        )[0]
                    if c.recurso_res == "provido_parcialmente":
                        assert c.sancao is not None
                        c.multa_nova, c.susp_nova = _reduzir(rng, c.sancao, c.multa, c.susp)
                        if c.multa_nova == c.multa and c.susp_nova == c.susp:
                            c.recurso_res, c.multa_nova, c.susp_nova = "negado", None, None
                else:
                    c.recurso_res = "pendente"
                g.add(
                    "recurso",
                    {
                        "id": g.novo_id("recurso"),
                        "decisao_id": c.decisao_id,
                        "protocolado_em": pr,
                        "tempestivo": c.tempestivo,
                        "razoes": rng.choice(nomes.TEXTOS_RECURSO),
                        "registrado_por": c.protocolo,
                        "resultado": c.recurso_res,
                        "julgado_em": c.julgado,
                        "multa_ur_nova": c.multa_nova,
                        "suspensao_dias_nova": c.susp_nova,
                        "fundamentacao_julgamento": _fundamentacao_recurso(c.recurso_res),
                        "versao": 1 if c.julgado is None else 2,
                        "criado_em": _momento(pr, rng),
                        "alterado_em": _momento(c.julgado or pr, rng),
                        "alterado_por": c.protocolo,
                    },
                )
                c.ultimo_ato = max(c.ultimo_ato, _momento(c.julgado or pr, rng))
                c.hist.recurso, c.hist.julgado = c.recurso_res, c.julgado
                c.hist.multa_nova, c.hist.suspensao_nova = c.multa_nova, c.susp_nova
        # The decision is final once the appeal deadline passes unused, or the appeal is decided.
        if c.recurso_res is None or not c.tempestivo:
            if prazo_recurso < hoje:
                c.final = prazo_recurso + timedelta(days=1)
            c.definitiva = prazo_recurso + timedelta(days=1)
        elif c.recurso_res in ("negado", "provido_parcialmente"):
            c.final = c.definitiva = c.julgado
        c.hist.definitiva = c.definitiva

    def _pagar(self, g: _Gravador, c: _Caso) -> None:
        """Payment, the duty's follow-up and the suspension served, for an applied penalty; the
        cancellation's mark on the history."""
        if c.resultado == "aplicada" and c.decisao_id is not None:
            assert c.decisao_dia is not None
            self._pagamento_cumprimento_suspensao(
                g,
                c.aid,
                c.op,
                c.decisao_id,
                c.decisao_dia,
                c.final,
                c.anulada,
                c.multa_efetiva,
                c.susp_efetiva,
                c.roteiro,
            )
        if c.cancelado is not None:
            c.hist.cancelado = c.cancelado
            c.ultimo_ato = max(c.ultimo_ato, _momento(c.cancelado, self.rng))

    def _gravar_auto(self, g: _Gravador, c: _Caso) -> None:
        """The auto's row, with the phase and the penalty its acts left it in."""
        rng = self.rng
        if c.cancelado is not None:
            fase = "cancelado"
        elif c.intimado is None:
            fase = "lavrado"
        elif c.decisao_dia is None:
            fase = "intimado"
        elif c.recurso_res == "pendente":
            # An untimely appeal does not stop the decision (tramitacao.registrar_recurso).
            fase = "em_recurso" if c.tempestivo else "decidido"
        elif c.recurso_res is not None or c.resultado == "arquivado":
            fase = "encerrado"
        else:
            fase = "decidido"
        aplicada = c.resultado == "aplicada"
        ultimo_ato = min(c.ultimo_ato, datetime.combine(c.hoje, time(23, 59)))
        veiculo, empregado, cancelado = c.veiculo, c.empregado, c.cancelado
        g.add(
            "auto_infracao",
            {
                "id": c.aid,
                "ano": c.ano,
                "numero": c.numero,
                "operadora_id": c.op.id,
                "dispositivo_codigo": c.codigo,
                "tipo": c.tipo,
                "data_infracao": c.infracao,
                "hora_infracao": c.hora_infracao,
                "local": c.local,
                "data_lavratura": c.dia_lav,
                "hora_lavratura": c.lavratura.time().replace(microsecond=0),
                "local_lavratura": c.local_lavratura,
                "descricao_fatos": c.fatos,
                "circunstancias": rng.choice(
                    (
                        "",
                        "",
                        "",
                        "Fato presenciado pelo fiscal em operação de rotina.",
                        "Passageiros confirmaram.",
                    )
                ),
                "infrator_nome": c.op.razao_social,
                "veiculo_id": veiculo.id if veiculo else None,
                "linha_id": c.linha_id,
                "empregado_id": empregado.id if empregado else None,
                "fiscal_id": rng.choice(self.fiscais),
                "recusou_assinar": rng.random() < 0.08,
                "proxima_penalidade": _proxima_penalidade(c.sancao_lav, c.disp.rotulo, c.tipo, c.infracao),
                "representacao_id": c.vaga.representacao_id,
                "lavrado_por": c.fiscal_login,
                "fase": fase,
                "prazo_defesa": c.prazo_defesa,
                "prazo_recurso": c.prazo_recurso,
                "data_decisao": c.decisao_dia if aplicada else None,
                "data_definitiva": c.definitiva,
                "multa_ur": c.multa_efetiva if aplicada else Decimal(0),
                "suspensao_dias": c.susp_efetiva if aplicada else 0,
                "penalidade_anulada": c.anulada or cancelado is not None,
                "cancelado_em": _momento(cancelado, rng) if cancelado else None,
                "cancelado_por": self.login("autoridade") if cancelado else None,
                "motivo_cancelamento": rng.choice(nomes.MOTIVOS_CANCELAMENTO) if cancelado else None,
                "versao": 1,
                "criado_em": c.lavratura,
                "alterado_em": ultimo_ato,
                "alterado_por": c.fiscal_login,
            },
        )

    def _intimacao(
        self, g: _Gravador, aid: int, objeto: str, dia: date, op: _Operadora, sucesso: bool, por: str
    ) -> None:
        rng = self.rng
        meio = rng.sortear(_MEIOS)
        if sucesso:
            resultado = "entregue"
            if meio == "pessoal":
                recebedor, doc = op.representante, formatar_cpf(op.representante_cpf)
            else:
                recebedor, doc = self._pessoa(), f"RG {rng.randrange(10**9, 10**10)}"
            obs = ""
        else:
            resultado = rng.choice(("recusada", "nao_encontrado", "endereco_incorreto", "devolvida"))
            recebedor, doc = "", ""
            obs = {
                "recusada": "Funcionário da recepção recusou-se a receber a cópia.",
                "nao_encontrado": "Representante legal não encontrado no endereço.",
                "endereco_incorreto": "Número inexistente no logradouro cadastrado.",
                "devolvida": "AR devolvido pelos Correios: ausente três vezes.",
            }[resultado]
        g.add(
            "intimacao",
            {
                "id": g.novo_id("intimacao"),
                "auto_id": aid,
                "objeto": objeto,
                "data": dia,
                "meio": meio,
                "resultado": resultado,
                "sucesso": sucesso,
                "recebedor_nome": recebedor,
                "recebedor_documento": doc,
                "recibo": f"AR {''.join(rng.choices('ABCDEFGHJKLMNPQRSTUVWXYZ', k=2))}{rng.randrange(10**8, 10**9)}BR"
                if meio == "postal_ar"
                else (f"Recibo nº {rng.randrange(100, 9999)}" if sucesso else ""),
                "observacao": obs,
                "prazo": None,
                "registrado_por": por,
                "registrado_em": _momento(dia, rng),
            },
        )

    def _pagamento_cumprimento_suspensao(
        self,
        g: _Gravador,
        aid: int,
        op: _Operadora,
        decisao_id: int,
        decisao_dia: date,
        final: date | None,
        anulada: bool,
        multa: Decimal,
        susp: int,
        roteiro: _Roteiro | None,
    ) -> None:
        rng = self.rng
        cal = self.calendario
        hoje = self.hoje
        protocolo = self.login("protocolo")
        # Art. 8º follow-up of the duty itself, from the decision on.
        situacao_c, verificado = "pendente", None
        if final is not None and not anulada:
            v = cal.proximo_dia_util(final + timedelta(days=rng.randrange(5, 45)))
            if v <= hoje:
                situacao_c, verificado = rng.sortear(_CUMPRIMENTO), v
        g.add(
            "cumprimento",
            {
                "id": g.novo_id("cumprimento"),
                "auto_id": aid,
                "situacao": situacao_c,
                "verificado_em": verificado,
                "verificado_por": self.login("fiscal") if verificado else None,
                "observacao": "" if verificado is None else "Verificação em vistoria de rotina.",
                "versao": 1 if verificado is None else 2,
                "criado_em": _momento(decisao_dia, rng),
                "alterado_em": _momento(verificado or decisao_dia, rng),
                "alterado_por": self.login("fiscal") if verificado else self.login("secretario"),
            },
        )
        # The fine is billed at the decision (open); a reduction on appeal changes the amount, an annulment
        # cancels it; once final it is paid or, long unpaid, sent to the municipal debt roll.
        valor = urm_para_reais(multa, valor_em(self.urm, decisao_dia))
        situacao, pago_em, inscrito = ("cancelado" if anulada else "aberto"), None, None
        sorteio = rng.random()
        if final is not None and not anulada and (roteiro is not None or sorteio < 0.70):
            d = cal.proximo_dia_util(final + timedelta(days=rng.randrange(2, 60)))
            if d <= hoje:
                situacao, pago_em = "pago", d
        elif final is not None and not anulada and sorteio < 0.97:
            d = cal.proximo_dia_util(final + timedelta(days=rng.randrange(90, 150)))
            if d <= hoje:
                situacao, inscrito = "divida_ativa", d
        g.add(
            "pagamento",
            {
                "id": g.novo_id("pagamento"),
                "decisao_id": decisao_id,
                "situacao": situacao,
                "valor": valor,
                "pago_em": pago_em,
                "valor_pago": valor if pago_em else None,
                "guia": f"DAM {decisao_dia.year}/{rng.randrange(1, 999999):06d}",
                "inscrito_divida_em": inscrito,
                "versao": 1 if situacao == "aberto" else 2,
                "criado_em": _momento(decisao_dia, rng),
                "alterado_em": _momento(pago_em or inscrito or decisao_dia, rng),
                "alterado_por": protocolo,
            },
        )
        if susp <= 0 or final is None or anulada:
            return
        # A final suspension is served from a day the administration sets.
        if roteiro is not None and roteiro.ultimo_da_cadeia_hoje:
            inicio = hoje - timedelta(days=min(2, susp - 1))
        else:
            inicio = cal.proximo_dia_util(final + timedelta(days=rng.randrange(3, 15)))
        if inicio > hoje + timedelta(days=30):
            return
        g.add(
            "suspensao",
            {
                "id": g.novo_id("suspensao"),
                "operadora_id": op.id,
                "decisao_id": decisao_id,
                "inicio": inicio,
                "dias": susp,
                "fim": inicio + timedelta(days=susp - 1),
                "anulada": False,
                **_versao(_momento(min(final, inicio), rng), self.login("secretario")),
            },
        )

    # --- closing touches -----------------------------------------------------------------------------

    def _cassacao(self, g: _Gravador) -> None:
        """A cassação procedure (art. 16) in its defence phase, against the first permissionária (art. 16
        speaks of permissions; services.execucao refuses it for a concessionária)."""
        permissionarias = [op for op in self.operadoras if op.permissionaria]
        if not permissionarias or self.escala.cadeias < 1:
            return
        op = permissionarias[0]
        inicio = self.calendario.proximo_dia_util(self.hoje - timedelta(days=20))
        if inicio > self.hoje:
            return
        cid = g.novo_id("cassacao")
        g.add(
            "cassacao",
            {
                "id": cid,
                "operadora_id": op.id,
                "instaurada_em": inicio,
                "motivo": "Reincidência reiterada em infração do art. 1º, III (manutenção dos veículos), com "
                "suspensões sucessivas, apurada em processo próprio com ampla defesa (art. 16).",
                "situacao": "em_defesa",
                "resultado": None,
                "decidida_em": None,
                "fundamentacao": None,
                **_versao(_momento(inicio, self.rng), self.login("secretario")),
            },
        )
        # The instauração is the procedure row itself (as services.execucao.instaurar_cassacao records it).
        atos = (
            (
                self.calendario.proximo_dia_util(inicio + timedelta(days=2)),
                "notificacao",
                f"Permissionária notificada na pessoa de {op.representante} para apresentar defesa.",
            ),
        )
        for dia, tipo_ato, descricao in atos:
            if dia <= self.hoje:
                g.add(
                    "cassacao_ato",
                    {
                        "id": g.novo_id("cassacao_ato"),
                        "cassacao_id": cid,
                        "data": dia,
                        "tipo": tipo_ato,
                        "descricao": descricao,
                        "registrado_por": self.login("secretario"),
                    },
                )

    def _numeracao(self, g: _Gravador) -> None:
        """The per-year sequences end at the last number used, so real autos continue them."""
        existentes = {
            (s, a): u for s, a, u in g.sessao.execute(sa.text("SELECT serie, ano, ultimo FROM numeracao"))
        }
        for (serie, ano), ultimo in sorted(self.numeros.items()):
            if (serie, ano) in existentes:
                g.sessao.execute(
                    sa.text("UPDATE numeracao SET ultimo = :u WHERE serie = :s AND ano = :a"),
                    {"u": max(ultimo, existentes[(serie, ano)]), "s": serie, "a": ano},
                )
            else:
                g.add("numeracao", {"serie": serie, "ano": ano, "ultimo": ultimo})


# Random autos stop piling onto one (operator, provision) above these recidivism levels, one below the
# suspension level of § 5º: suspensions come only from the scripted chains, where they are meant.
_TETO_REINCIDENCIA = {t: n - 1 for t, n in NIVEL_SUSPENSAO.items()}


def _versao(momento: datetime, por: str) -> dict[str, Any]:
    return {"versao": 1, "criado_em": momento, "alterado_em": momento, "alterado_por": por}


def _multa(rng: random.Random, sancao: Sancao, *, minimo: bool = False) -> Decimal:
    """A fine inside the range, in steps of 0,05 URM; the Secretary leans to the minimum."""
    lo, hi = sancao.multa_min_ur, sancao.multa_max_ur
    passos = int((hi - lo) / _CINCO_CENTESIMOS)
    if minimo or passos == 0 or rng.random() < 0.45:
        return lo
    return lo + _CINCO_CENTESIMOS * rng.randrange(passos + 1)


def _suspensao(rng: random.Random, sancao: Sancao, roteiro: _Roteiro | None) -> int:
    if sancao.suspensao_min_dias is None or sancao.suspensao_max_dias is None:
        return 0
    if sancao.suspensao_min_dias == sancao.suspensao_max_dias:
        return sancao.suspensao_max_dias
    if roteiro is not None:
        return rng.randrange(max(sancao.suspensao_min_dias, 3), sancao.suspensao_max_dias + 1)
    return rng.randrange(sancao.suspensao_min_dias, sancao.suspensao_max_dias + 1)


def _reduzir(rng: random.Random, sancao: Sancao, multa: Decimal, susp: int) -> tuple[Decimal, int]:
    """Appeal granted in part: a lower fine (still inside the range) and/or a shorter suspension."""
    nova_multa = multa
    if multa > sancao.multa_min_ur:
        passos = int((multa - sancao.multa_min_ur) / _CINCO_CENTESIMOS)
        nova_multa = sancao.multa_min_ur + _CINCO_CENTESIMOS * rng.randrange(passos)
    nova_susp = susp
    if susp > 0:
        minimo = sancao.suspensao_min_dias or 0
        nova_susp = 0 if susp <= minimo else rng.randrange(minimo, susp)
    return nova_multa, nova_susp


@lru_cache(maxsize=8192)
def _descricao(sancao: Sancao) -> str:
    return sancao.descricao


@lru_cache(maxsize=8192)
def _proxima_penalidade(sancao: Sancao, rotulo: str, tipo: str, infracao: date) -> str:
    """Art. 10, V, in the very words the case services print (cached: many autos share a sanction)."""
    return redigir_proxima_penalidade(sancao, rotulo, tipo, infracao)


def _resumo_dispositivo(d: Dispositivo) -> str:
    texto = d.texto.split("(tipo")[0].split("( tipo")[0].strip().rstrip(";,.")
    return f"Descumprimento do {d.rotulo}: {texto[0].lower()}{texto[1:]}."


def _funcao(funcao: str) -> str:
    return {
        "motorista": "O motorista",
        "cobrador": "O cobrador",
        "fiscal_empresa": "O fiscal da empresa",
    }.get(funcao, "O empregado")


def _fmt(valor: Decimal) -> str:
    return f"{valor:.2f}".replace(".", ",")


def _fundamentacao_proposta(acao: str, multa: Decimal, susp: int, sancao: Sancao) -> str:
    if acao == "arquivar":
        return "Propõe-se o arquivamento: a defesa afastou a materialidade do fato."
    texto = f"Propõe-se multa de {_fmt(multa)} URM"
    if susp:
        texto += f" e suspensão de {susp} dia{'s' if susp > 1 else ''}"
    return texto + f", dentro da faixa cabível ({_descricao(sancao)})"


def _fundamentacao_decisao(resultado: str, com_defesa: bool) -> str:
    if resultado == "arquivado":
        return "Acolhida a defesa: não comprovada a infração. Arquive-se o auto."
    if com_defesa:
        return "A defesa não afasta o fato descrito no auto, confirmado pelo fiscal. Aplica-se a penalidade."
    return "Decorrido o prazo sem defesa, mantém-se o auto e aplica-se a penalidade proposta."


def _fundamentacao_recurso(resultado: str) -> str | None:
    return {
        "pendente": None,
        "negado": "Recurso conhecido e negado: mantida a decisão recorrida.",
        "provido": "Recurso provido: anulada a penalidade por vício na intimação.",
        "provido_parcialmente": "Recurso provido em parte: penalidade reduzida, dentro da faixa legal.",
    }[resultado]
