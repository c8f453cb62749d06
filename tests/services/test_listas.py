"""The list queries: counts, every column sorted both ways, search, status filters and paging windows.

About 300 rows per big list are inserted with Core bulk inserts (the services would be slower and are
tested elsewhere); every test runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import cache
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.lei.catalogo import dispositivos
from secretaria.lei.documentos import chave_placa, validar_cnpj, validar_cpf, validar_renavam
from secretaria.models import (
    Auditoria,
    AutoInfracao,
    Decisao,
    Empregado,
    Fiscal,
    Linha,
    Operadora,
    Representacao,
    Suspensao,
    Usuario,
    UsuarioPapel,
    Veiculo,
)
from secretaria.services import listas
from secretaria.services.base import ErroDominio
from secretaria.services.listas import Filtro
from secretaria.services.rotulos import FASES

HOJE = date(2026, 11, 30)
AGORA = datetime(2026, 11, 30, 10, 0)
N = 300


@pytest.fixture(autouse=True)
def _relogio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)
    monkeypatch.setattr(relogio, "agora", lambda: AGORA)


def _com_dv(base: str, validar: Callable[[str], str], digitos: int) -> str:
    for n in range(10**digitos):
        candidato = f"{base}{n:0{digitos}d}"
        try:
            return validar(candidato)
        except ValueError:
            continue
    raise AssertionError(base)


@cache
def cnpj(i: int) -> str:
    return _com_dv(f"{11222333 + i:08d}0001", validar_cnpj, 2)


@cache
def cpf(i: int) -> str:
    return _com_dv(f"{123456000 + i:09d}", validar_cpf, 2)


@cache
def renavam(i: int) -> str:
    return _com_dv(f"{5000000000 + i:010d}", validar_renavam, 1)


def sem_acento(texto: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", texto.lower()) if not unicodedata.combining(c))


NOMES = ["Ana", "Bruno", "Cíntia", "Débora", "Élcio", "Fábio", "Gisele", "Hélio", "Íris", "João", "Óscar"]
OPERADORAS = [
    ("Viação Alfa Ltda", "Alfa"),
    ("Transportes Bela Vista S.A.", "Bela Vista"),
    ("Empresa Cruzeiro do Sul Ltda", "Cruzeiro"),
    ("Auto Ônibus Santa Silvana Ltda", "Santa Silvana"),
]


def povoar(banco: Banco) -> dict[str, Any]:
    """Operators, lines, ~300 vehicles, employees, autos, representações, users and audit rows."""
    rnd = random.Random(2413)
    codigos = [d.codigo for d in dispositivos() if d.tipo is not None]
    tipo_de = {d.codigo: d.tipo for d in dispositivos()}
    base = {"versao": 1, "criado_em": AGORA, "alterado_em": AGORA, "alterado_por": "teste"}
    with banco.engine.begin() as c:
        c.execute(
            sa.insert(Operadora),
            [
                {
                    **base,
                    "id": i + 1,
                    "razao_social": razao,
                    "nome_fantasia": fantasia,
                    "cnpj": cnpj(i),
                    "delegacao": "concessao" if i < 3 else "permissao",
                    "contrato_numero": f"CT-{i + 1:02d}/2020",
                    "contrato_fim": None if i == 2 else date(2030, 1, 1 + i),
                    "cassada_em": date(2026, 1, 10) if i == 3 else None,
                }
                for i, (razao, fantasia) in enumerate(OPERADORAS)
            ],
        )
        c.execute(
            sa.insert(Linha),
            [
                {
                    **base,
                    "id": i + 1,
                    "codigo": str([5, 12, 101, 7, 40, 300][i]),
                    "nome": ["Centro", "Fragata", "Laranjal", "Três Vendas", "Areal", "Porto"][i],
                    "itinerario": "Av. Bento Gonçalves",
                    "operadora_id": i % 3 + 1,
                    "ativa": i != 5,
                }
                for i in range(6)
            ],
        )
        veiculos: list[dict[str, Any]] = []
        for i in range(N):
            antiga = i % 2 == 0
            placa = (
                f"IJ{chr(65 + i % 26)}{1000 + i}"
                if antiga
                else f"IK{chr(65 + i % 26)}{i % 10}{chr(65 + i % 10)}{i % 100:02d}"
            )
            veiculos.append(
                {
                    **base,
                    "id": i + 1,
                    "prefixo": str(rnd.randint(1, 3000)) if i else "9",
                    "placa": placa,
                    "placa_chave": chave_placa(placa),
                    "renavam": renavam(i),
                    "operadora_id": i % 3 + 1,
                    "linha_id": None if i % 7 == 0 else (i % 3) + 1,
                    "marca_modelo": rnd.choice(["Marcopolo Torino", "Caio Apache", "Neobus Mega"]),
                    "ano_fabricacao": None if i % 11 == 0 else 2010 + i % 15,
                    "lugares_sentados": 30 + i % 15,
                    "lugares_em_pe": 20 + i % 9,
                    "vistoria_validade": None
                    if i % 13 == 0
                    else HOJE + timedelta(days=rnd.randint(-200, 300)),
                    "licenca_validade": HOJE + timedelta(days=rnd.randint(-100, 400)),
                    "situacao": ["ativo", "ativo", "reserva", "baixado"][i % 4],
                }
            )
        # Prefixes are unique per operator: make them so.
        vistos: set[tuple[int, str]] = set()
        for v in veiculos:
            while (v["operadora_id"], v["prefixo"]) in vistos:
                v["prefixo"] = str(int(v["prefixo"]) + 1)
            vistos.add((v["operadora_id"], v["prefixo"]))
        c.execute(sa.insert(Veiculo), veiculos)
        c.execute(
            sa.insert(Empregado),
            [
                {
                    **base,
                    "id": i + 1,
                    "nome": f"{NOMES[i % len(NOMES)]} {NOMES[(i * 7) % len(NOMES)]} {i:03d}",
                    "cpf": cpf(i),
                    "funcao": ["motorista", "cobrador", "fiscal_empresa", "outro"][i % 4],
                    "operadora_id": i % 4 + 1,
                    "carteira_cadastro": f"{i:05d}",
                    "admissao": date(2015, 1, 1) + timedelta(days=i * 7),
                    "demissao": None if i % 5 else date(2020, 1, 1) + timedelta(days=i * 3),
                }
                for i in range(N)
            ],
        )
        c.execute(
            sa.insert(Usuario),
            [
                {
                    **base,
                    "id": i + 1,
                    "login": login,
                    "nome": nome,
                    "senha_hash": "x",
                    "ativo": i != 2,
                    "falhas_login": 0,
                    "bloqueado_ate": AGORA + timedelta(minutes=10) if i == 1 else None,
                    "ultimo_acesso": None if i == 3 else AGORA - timedelta(days=i),
                }
                for i, (login, nome) in enumerate(
                    [
                        ("ana", "Ana Admin"),
                        ("bruno", "Bruno Fiscal"),
                        ("carla", "Carla Antiga"),
                        ("davi", "Davi"),
                    ]
                )
            ],
        )
        c.execute(
            sa.insert(UsuarioPapel),
            [
                {"usuario_id": 1, "papel": "administrador"},
                {"usuario_id": 1, "papel": "secretario"},
                {"usuario_id": 2, "papel": "fiscal"},
                {"usuario_id": 3, "papel": "consulta"},
                {"usuario_id": 4, "papel": "protocolo"},
            ],
        )
        c.execute(
            sa.insert(Fiscal),
            [
                {**base, "id": i + 1, "nome": nome, "matricula": mat, "ativo": i != 1, "usuario_id": u}
                for i, (nome, mat, u) in enumerate(
                    [("Bruno Fiscal", "1020", 2), ("Élida Souza", "33", None), ("Caio Prado", "205", 4)]
                )
            ],
        )
        autos = []
        decisoes = []
        for i in range(N):
            codigo = codigos[i % len(codigos)]
            fase = list(FASES)[i % len(FASES)]
            decidido = fase in ("decidido", "em_recurso", "encerrado")
            multa = Decimal(i % 9 + 1) / 4 if decidido else Decimal(0)
            autos.append(
                {
                    **base,
                    "id": i + 1,
                    "ano": 2025 + i % 2,
                    "numero": i // 2 + 1,
                    "operadora_id": i % 4 + 1,
                    "dispositivo_codigo": codigo,
                    "tipo": tipo_de[codigo],
                    "data_infracao": date(2025, 1, 1) + timedelta(days=rnd.randint(0, 690)),
                    "local": "Praça Coronel Pedro Osório",
                    "data_lavratura": date(2025, 1, 1),
                    "hora_lavratura": time(10, 0),
                    "local_lavratura": "SMSU",
                    "descricao_fatos": "Fatos.",
                    "infrator_nome": "Conceição Ávila" if i == 17 else f"{NOMES[i % len(NOMES)]} Motorista",
                    "veiculo_id": None if i % 6 == 0 else i + 1,
                    "fiscal_id": 1,
                    "proxima_penalidade": "",
                    "lavrado_por": "bruno",
                    "fase": fase,
                    "data_decisao": date(2026, 3, 1) if decidido else None,
                    "multa_ur": multa,
                    "penalidade_anulada": i % 30 == 3,
                }
            )
            if decidido:
                decisoes.append(
                    {
                        **base,
                        "auto_id": i + 1,
                        "data": date(2026, 3, 1),
                        "resultado": "aplicada",
                        "multa_ur": multa,
                        "valor_urm": Decimal("164.7400") + i,
                        "multa_reais": Decimal(0),
                        "fundamentacao": "",
                        "secretario": "ana",
                    }
                )
        c.execute(sa.insert(AutoInfracao), autos)
        c.execute(sa.insert(Decisao), decisoes)
        c.execute(
            sa.insert(Suspensao),
            [
                {
                    **base,
                    "operadora_id": 2,
                    "decisao_id": 1,
                    "inicio": HOJE - timedelta(days=3),
                    "dias": 30,
                    "fim": HOJE + timedelta(days=26),
                    "anulada": False,
                },
                {
                    **base,
                    "operadora_id": 1,
                    "decisao_id": 2,
                    "inicio": HOJE - timedelta(days=3),
                    "dias": 30,
                    "fim": HOJE + timedelta(days=26),
                    "anulada": True,
                },
            ],
        )
        c.execute(
            sa.insert(Representacao),
            [
                {
                    **base,
                    "id": i + 1,
                    "ano": 2026,
                    "numero": i + 1,
                    "recebida_em": date(2026, 1, 1) + timedelta(days=i),
                    "peticionario_nome": f"{NOMES[i % len(NOMES)]} Cidadão",
                    "peticionario_profissao": "professor",
                    "peticionario_endereco": "Rua X",
                    "fatos": "Ônibus lotado" if i % 2 else "Atraso",
                    "operadora_id": None if i % 5 == 0 else i % 4 + 1,
                    "dispositivo_codigo": None if i % 3 == 0 else codigos[i % len(codigos)],
                    "situacao": ["recebida", "autuada", "arquivada"][i % 3],
                    "recebida_por": "bruno",
                }
                for i in range(40)
            ],
        )
        c.execute(
            sa.insert(Auditoria),
            [
                {
                    "id": i + 1,
                    "momento": datetime(2026, 11, 1, 8, 0) + timedelta(hours=i * 5),
                    "usuario_login": ["ana", "bruno", None][i % 3],
                    "acao": ["criar_operadora", "editar_veiculo", "lavrar_auto"][i % 3],
                    "entidade": ["operadora", "veiculo", "auto"][i % 3],
                    "entidade_id": str(i),
                    "antes": None,
                    "depois": '{"nome": "Viação Gaúcha"}' if i == 40 else "{}",
                    "hash_anterior": "0" * 64,
                    "hash": "0" * 64,
                }
                for i in range(120)
            ],
        )
    return {"veiculos": veiculos, "autos": autos}


CONTAGENS = {
    "operadoras": 4,
    "linhas": 6,
    "veiculos": N,
    "empregados": N,
    "fiscais": 3,
    "autos": N,
    "representacoes": 40,
    "usuarios": 4,
    "auditoria": 120,
}


def _todas(
    sessao: Any, lista: str, filtro: Filtro | None = None, ordem: listas.Ordem | None = None
) -> list[tuple[Any, ...]]:
    return listas.pagina(sessao, lista, filtro, ordem, 0, 10_000)


def test_contagens_e_colunas(banco: Banco) -> None:
    povoar(banco)
    with banco.leitura() as s:
        for nome, esperado in CONTAGENS.items():
            assert listas.contar(s, nome) == esperado, nome
            linhas = _todas(s, nome)
            assert len(linhas) == esperado
            assert len({r[0] for r in linhas}) == esperado
            assert all(len(r) == 1 + len(listas.definicao(nome).colunas) for r in linhas)
        # Display values: formatted documents, Portuguese labels, money from the URM of the decision.
        d = listas.definicao("operadoras")
        alfa = next(r for r in _todas(s, "operadoras") if r[d.indice("nome_fantasia")] == "Alfa")
        assert alfa[d.indice("cnpj")].count(".") == 2 and "/" in alfa[d.indice("cnpj")]
        assert alfa[d.indice("delegacao")] == "Concessão"
        assert alfa[d.indice("situacao")] == "Ativa"  # its suspension was annulled
        situacoes = {r[d.indice("nome_fantasia")]: r[d.indice("situacao")] for r in _todas(s, "operadoras")}
        assert situacoes["Bela Vista"] == f"Suspensa até {(HOJE + timedelta(days=26)):%d/%m/%Y}"
        assert situacoes["Santa Silvana"] == "Cassada"
        a = listas.definicao("autos")
        autos = {r[0]: r for r in _todas(s, "autos")}
        decidido = autos[3]  # i = 2: fase "decidido", multa 0,75 URM at R$ 166,74
        assert decidido[a.indice("numero")] == "0002/2025"
        assert decidido[a.indice("fase")] == "Decidido"
        assert decidido[a.indice("multa_urm")] == Decimal("0.75")
        assert decidido[a.indice("multa_reais")] == Decimal("125.06")
        assert autos[1][a.indice("multa_urm")] is None  # lavrado: no fine yet
        assert autos[1][a.indice("veiculo")] == ""
        assert autos[2][a.indice("veiculo")].endswith(" / IKB1B01")
        assert autos[1][a.indice("dispositivo")] == "Art. 1º, I"
        u = listas.definicao("usuarios")
        usuarios = {r[u.indice("login")]: r for r in _todas(s, "usuarios")}
        assert usuarios["ana"][u.indice("papeis")] == "Administrador, Secretário"
        assert usuarios["bruno"][u.indice("situacao")] == "Bloqueado até 10:10"
        assert usuarios["carla"][u.indice("situacao")] == "Inativo"


def _ordem_esperada(lista: str, chave: str) -> Callable[[Any], Any]:
    """How the user expects column `chave` of `lista` to be ordered (None = blank, always last)."""
    ordem_lei = {d.rotulo: i for i, d in enumerate(dispositivos())}
    especiais: dict[tuple[str, str], Callable[[Any], Any]] = {
        ("autos", "numero"): lambda v: (int(v[5:]), int(v[:4])),
        ("representacoes", "numero"): lambda v: (int(v[5:]), int(v[:4])),
        ("autos", "fase"): lambda v: list(FASES.values()).index(v),
        ("autos", "dispositivo"): lambda v: ordem_lei[v],
        ("representacoes", "dispositivo"): lambda v: ordem_lei[v],
        ("autos", "veiculo"): lambda v: (len(v.split(" / ")[0]), v.split(" / ")[0]),
        ("veiculos", "prefixo"): lambda v: (len(v), v),
        ("veiculos", "linha"): lambda v: (len(v), v),
        ("linhas", "codigo"): lambda v: (len(v), v),
        ("fiscais", "matricula"): lambda v: (len(v), v),
        ("veiculos", "situacao"): lambda v: ["Ativo", "Reserva", "Baixado"].index(v.split(" — ")[0]),
        ("operadoras", "situacao"): lambda v: ["Ativa", "Suspensa", "Cassada"].index(v.split()[0]),
        ("usuarios", "situacao"): lambda v: ["Ativo", "Bloqueado", "Inativo"].index(v.split()[0]),
        ("linhas", "situacao"): lambda v: ["Ativa", "Inativa"].index(v),
        ("fiscais", "situacao"): lambda v: ["Ativo", "Inativo"].index(v),
        ("empregados", "funcao"): lambda v: ["Motorista", "Cobrador", "Fiscal da empresa", "Outro"].index(v),
        ("representacoes", "situacao"): lambda v: ["Recebida", "Autuada", "Arquivada"].index(v),
        ("usuarios", "papeis"): lambda v: sem_acento(v),
        ("empregados", "cpf"): lambda v: v,
        ("operadoras", "cnpj"): lambda v: v,
        ("veiculos", "placa"): lambda v: v.replace("-", ""),
        ("auditoria", "acao"): lambda v: sem_acento(v).replace(" ", "_"),
        ("auditoria", "entidade_id"): lambda v: v,
    }
    if (lista, chave) in especiais:
        return especiais[(lista, chave)]
    return lambda v: sem_acento(v) if isinstance(v, str) else v


def test_ordenacao_por_cada_coluna_nos_dois_sentidos(banco: Banco) -> None:
    povoar(banco)
    with banco.leitura() as s:
        for lista in CONTAGENS:
            d = listas.definicao(lista)
            for coluna in d.colunas:
                chave = _ordem_esperada(lista, coluna.chave)
                for crescente in (True, False):
                    onde = f"{lista}.{coluna.chave} {'crescente' if crescente else 'decrescente'}"
                    linhas = _todas(s, lista, ordem=(coluna.chave, crescente))
                    assert len({r[0] for r in linhas}) == CONTAGENS[lista], onde
                    valores = [r[d.indice(coluna.chave)] for r in linhas]
                    presentes = [v for v in valores if v not in (None, "")]
                    # Blanks come last in both directions.
                    assert all(v in (None, "") for v in valores[len(presentes) :]), onde
                    chaves = [chave(v) for v in presentes]
                    assert chaves == sorted(chaves, reverse=not crescente), onde
                    assert len(set(map(str, chaves))) > 1, onde  # the data really tells the orders apart


def _ids(sessao: Any, lista: str, filtro: Filtro) -> set[int]:
    linhas = _todas(sessao, lista, filtro)
    assert listas.contar(sessao, lista, filtro) == len(linhas)
    return {r[0] for r in linhas}


def test_busca_sem_acento_por_numero_documento_e_placa(banco: Banco) -> None:
    dados = povoar(banco)
    with banco.leitura() as s:
        # Accent- and case-insensitive, every word must match somewhere.
        assert _ids(s, "operadoras", Filtro(texto="viacao")) == {1}
        assert _ids(s, "operadoras", Filtro(texto="ONIBUS silvana")) == {4}
        assert _ids(s, "operadoras", Filtro(texto="ônibus alfa")) == set()
        assert _ids(s, "operadoras", Filtro(texto=f"{cnpj(1)[:2]}.{cnpj(1)[2:5]}.{cnpj(1)[5:8]}")) == {2}
        cintias = _ids(s, "empregados", Filtro(texto="cintia"))
        assert cintias and cintias == {
            i + 1 for i in range(N) if "Cíntia" in f"{NOMES[i % 11]} {NOMES[i * 7 % 11]}"
        }
        assert _ids(
            s,
            "empregados",
            Filtro(texto=cpf(7)[:3] + "." + cpf(7)[3:6] + "." + cpf(7)[6:9] + "-" + cpf(7)[9:]),
        ) == {8}
        # Autos: by number of the year, by the driver's name, by the operator, by the plate in either form.
        assert _ids(s, "autos", Filtro(texto="0002/2025")) == {3}
        assert _ids(s, "autos", Filtro(texto="conceicao avila")) == {18}
        assert _ids(s, "autos", Filtro(texto="cruzeiro")) == {
            a["id"] for a in dados["autos"] if a["operadora_id"] == 3
        }
        mercosul = next(
            v for v in dados["veiculos"] if not v["placa"][4].isdigit() and ord(v["placa"][4]) - 65 < 10
        )
        antiga = f"{mercosul['placa'][:3]}-{mercosul['placa'][3]}{ord(mercosul['placa'][4]) - 65}{mercosul['placa'][5:]}"
        assert _ids(s, "veiculos", Filtro(texto=antiga)) == {mercosul["id"]}
        com_veiculo = {a["id"] for a in dados["autos"] if a["veiculo_id"] == mercosul["id"]}
        assert com_veiculo and _ids(s, "autos", Filtro(texto=antiga)) >= com_veiculo
        assert _ids(s, "autos", Filtro(texto="Art. 1º, I")) >= {1}
        # LIKE wildcards typed by the user are plain characters.
        assert _ids(s, "operadoras", Filtro(texto="%")) == set()
        assert _ids(s, "representacoes", Filtro(texto="onibus lotado")) == {i + 1 for i in range(40) if i % 2}
        assert _ids(s, "usuarios", Filtro(texto="ADMIN")) == {1}
        assert _ids(s, "auditoria", Filtro(texto="gaucha")) == {41}


def test_filtros_de_situacao_operadora_e_periodo(banco: Banco) -> None:
    dados = povoar(banco)
    autos, veiculos = dados["autos"], dados["veiculos"]
    with banco.leitura() as s:
        assert _ids(s, "operadoras", Filtro(situacoes=frozenset({"suspensa"}))) == {2}
        assert _ids(s, "operadoras", Filtro(situacoes=frozenset({"cassada"}))) == {4}
        assert _ids(s, "operadoras", Filtro(situacoes=frozenset({"ativa"}))) == {1, 3}
        # Same group: OR; different groups: AND.
        assert _ids(s, "operadoras", Filtro(situacoes=frozenset({"ativa", "cassada"}))) == {1, 3, 4}
        assert _ids(s, "operadoras", Filtro(situacoes=frozenset({"ativa", "cassada", "permissao"}))) == {4}
        vencidas = {
            v["id"] for v in veiculos if v["vistoria_validade"] is not None and v["vistoria_validade"] < HOJE
        }
        assert vencidas and _ids(s, "veiculos", Filtro(situacoes=frozenset({"vistoria_vencida"}))) == vencidas
        ativos_vencidos = {v["id"] for v in veiculos if v["id"] in vencidas and v["situacao"] == "ativo"}
        assert (
            _ids(s, "veiculos", Filtro(situacoes=frozenset({"vistoria_vencida", "ativo"}))) == ativos_vencidos
        )
        assert _ids(s, "veiculos", Filtro(operadora_id=2)) == {
            v["id"] for v in veiculos if v["operadora_id"] == 2
        }
        for fase in FASES:
            assert _ids(s, "autos", Filtro(situacoes=frozenset({fase}))) == {
                a["id"] for a in autos if a["fase"] == fase
            }
        assert _ids(s, "autos", Filtro(situacoes=frozenset({"E"}), operadora_id=1)) == {
            a["id"] for a in autos if a["tipo"] == "E" and a["operadora_id"] == 1
        }
        de, ate = date(2025, 6, 1), date(2025, 6, 30)
        junho = {a["id"] for a in autos if de <= a["data_infracao"] <= ate}
        assert junho and _ids(s, "autos", Filtro(desde=de, ate=ate)) == junho
        assert _ids(s, "empregados", Filtro(situacoes=frozenset({"desligado"}))) == {
            i + 1 for i in range(N) if i % 5 == 0
        }
        assert _ids(s, "usuarios", Filtro(situacoes=frozenset({"bloqueado"}))) == {2}
        assert _ids(s, "usuarios", Filtro(situacoes=frozenset({"ativo"}))) == {1, 4}
        assert _ids(s, "representacoes", Filtro(situacoes=frozenset({"arquivada"}), operadora_id=3)) == {
            i + 1 for i in range(40) if i % 3 == 2 and i % 5 and i % 4 + 1 == 3
        }
        # The audit log: by user, kind of record and day (the whole last day included).
        assert _ids(s, "auditoria", Filtro(usuario="bruno", entidade="veiculo")) == {
            i + 1 for i in range(120) if i % 3 == 1
        }
        dia = {
            i + 1
            for i in range(120)
            if (datetime(2026, 11, 1, 8) + timedelta(hours=i * 5)).date() == date(2026, 11, 3)
        }
        assert _ids(s, "auditoria", Filtro(desde=date(2026, 11, 3), ate=date(2026, 11, 3))) == dia
        with pytest.raises(ErroDominio):
            listas.contar(s, "autos", Filtro(situacoes=frozenset({"suspensa"})))
        with pytest.raises(ErroDominio):
            listas.pagina(s, "autos", Filtro(), ("placa", True))


def test_paginas_devolvem_a_janela_certa_e_a_exportacao_tudo(banco: Banco) -> None:
    povoar(banco)
    with banco.leitura() as s:
        for lista, ordem in (
            ("autos", None),
            ("autos", ("operadora", False)),
            ("veiculos", ("vistoria_validade", True)),
        ):
            tudo = _todas(s, lista, Filtro(), ordem)
            assert listas.pagina(s, lista, Filtro(), ordem, 100, 50) == tudo[100:150]
            assert listas.pagina(s, lista, Filtro(), ordem, N - 10, 50) == tudo[N - 10 :]
            assert listas.pagina(s, lista, Filtro(), ordem, N + 5, 50) == []
            blocos = [r for i in range(0, N, 64) for r in listas.pagina(s, lista, Filtro(), ordem, i, 64)]
            assert blocos == tudo
            assert list(listas.exportar_linhas(s, lista, Filtro(), ordem)) == tudo
        # The default order of the autos list: the newest number first.
        primeiros = listas.pagina(s, "autos", quantidade=3)
        assert [r[1] for r in primeiros] == ["0150/2026", "0149/2026", "0148/2026"]
        filtrado = list(listas.exportar_linhas(s, "autos", Filtro(texto="alfa")))
        assert len(filtrado) == listas.contar(s, "autos", Filtro(texto="alfa")) == N // 4


def test_destaque_das_linhas(banco: Banco) -> None:
    povoar(banco)
    with banco.leitura() as s:
        situacoes = {r[0]: listas.destaque("operadoras", r) for r in _todas(s, "operadoras")}
        assert situacoes == {1: None, 2: "alerta", 3: None, 4: "alerta"}
        for r in _todas(s, "veiculos"):
            d = listas.definicao("veiculos")
            datas = (r[d.indice("vistoria_validade")], r[d.indice("licenca_validade")])
            vencido = any(x is None or x < HOJE for x in datas)  # expired or missing: a problem (red)
            perto = any(x is not None and x <= HOJE + timedelta(days=30) for x in datas)  # amber
            esperado = (
                "apagado"
                if r[d.indice("situacao")] == "Baixado"
                else ("alerta" if vencido else ("aviso" if perto else None))
            )
            assert listas.destaque("veiculos", r) == esperado
        assert {r[0] for r in _todas(s, "autos") if listas.destaque("autos", r) == "apagado"} == {
            i + 1 for i in range(N) if list(FASES)[i % 6] == "cancelado"
        }


def test_cnpj_alfanumerico_por_parte_sem_digitos(banco: Banco) -> None:
    """A piece of an alphanumeric CNPJ finds it with or without its punctuation, letters alone included
    ("AB.UZO", "ABUZO"); in SQL (one LIKE on the stored compact column), on both databases."""
    from secretaria.lei.documentos import digitos_cnpj
    from secretaria.services import cadastros
    from tests.helpers.fabrica import ATORES

    base = "ABUZO1230001"
    alfanumerico = base + digitos_cnpj(base)
    numerico = "11222333000181"
    ids = {
        cnpj: cadastros.criar_operadora(
            banco.uow(),
            ATORES["administrador"],
            cadastros.DadosOperadora(razao_social=razao, cnpj=cnpj, logradouro="Rua A"),
        )
        for cnpj, razao in (
            (alfanumerico, "Expresso Laranjal Ltda."),
            (numerico, "Transportes Fragata Ltda."),
        )
    }
    with banco.leitura() as s:
        for texto in ("AB.UZO", "ABUZO", "abuzo", "b.uzo.12", "UZO.123/0001", alfanumerico[-6:]):
            assert _ids(s, "operadoras", Filtro(texto=texto)) == {ids[alfanumerico]}, texto
        assert _ids(s, "operadoras", Filtro(texto="11.222")) == {ids[numerico]}
        assert _ids(s, "operadoras", Filtro(texto="ZZ.QQQ")) == set()
        assert _ids(s, "operadoras", Filtro(texto="laranjal")) == {ids[alfanumerico]}
