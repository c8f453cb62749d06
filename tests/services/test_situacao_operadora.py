"""The operator's status has three readers — `situacao_operadora` (one operator, with the suspension's last
day), `situacoes_operadoras` (every operator, for a screen) and `situacao_operadora_sql` (the operators list,
which filters and sorts on it in SQL). Seeded random histories pin all three to one rule, on both databases."""

from __future__ import annotations

import itertools
import random
from datetime import date, time, timedelta
from decimal import Decimal

import sqlalchemy as sa

from secretaria.codigos import SituacaoOperadora
from secretaria.db import Banco
from secretaria.lei.formato import formatar_data
from secretaria.models import AutoInfracao, Decisao, DispositivoCatalogo, Operadora, Suspensao
from secretaria.services.execucao import situacao_operadora, situacoes_operadoras
from secretaria.services.listas import situacao_operadora_sql

INICIO = date(2026, 1, 1)
OPERADORAS = 24
DIAS = 60


def _historia(rng: random.Random) -> tuple[date | None, list[tuple[date, int, bool]]]:
    """A cassação day (or none) and suspensions (start, days, annulled), overlapping now and then."""
    cassada = INICIO + timedelta(days=rng.randrange(DIAS)) if rng.random() < 0.3 else None
    suspensoes = [
        (INICIO + timedelta(days=rng.randrange(DIAS)), rng.randint(1, 20), rng.random() < 0.25)
        for _ in range(rng.choice((0, 0, 1, 2, 3)))
    ]
    return cassada, suspensoes


def _esperado(cassada: date | None, suspensoes: list[tuple[date, int, bool]], dia: date) -> str:
    """The rule, read straight from the history: cassada from the decision's day on; else suspended on the
    days of a suspension not annulled, until the last day of the suspensions served back to back from
    there (REGRAS § 5: one starts the day after another ends; old overlapping ones merge); else active."""
    if cassada is not None and cassada <= dia:
        return "cassada"
    periodos = [(i, i + timedelta(days=d - 1)) for i, d, anulada in suspensoes if not anulada]
    fins = [f for i, f in periodos if i <= dia <= f]
    if not fins:
        return "ativa"
    fim = max(fins)
    while seguintes := [f for i, f in periodos if i <= fim + timedelta(days=1) and f > fim]:
        fim = max(seguintes)
    return f"suspensa até {formatar_data(fim)}"


def _gravar(banco: Banco, historias: list[tuple[date | None, list[tuple[date, int, bool]]]]) -> list[int]:
    with banco.uow() as uow:
        s = uow.session
        dispositivo = s.scalars(
            sa.select(DispositivoCatalogo).order_by(DispositivoCatalogo.codigo).limit(1)
        ).one()
        ids: list[int] = []
        numeros = itertools.count(1)
        for n, (cassada, suspensoes) in enumerate(historias):
            op = Operadora(
                razao_social=f"Operadora {n:02d} Ltda.",
                cnpj=f"{n:014d}",
                delegacao="permissao",
                logradouro="Rua A",
                numero_endereco="1",
                representante_nome="R",
                cassada_em=cassada,
                alterado_por="teste",
            )
            s.add(op)
            s.flush()
            ids.append(op.id)
            for inicio, dias, anulada in suspensoes:
                auto = AutoInfracao(
                    ano=2026,
                    numero=next(numeros),
                    operadora_id=op.id,
                    dispositivo_codigo=dispositivo.codigo,
                    tipo=dispositivo.tipo or "A",
                    data_infracao=inicio,
                    local="x",
                    data_lavratura=inicio,
                    hora_lavratura=time(9),
                    local_lavratura="x",
                    descricao_fatos="x",
                    infrator_nome=op.razao_social,
                    fiscal_id=_fiscal(s),
                    proxima_penalidade="x",
                    lavrado_por="teste",
                    fase="encerrado",
                    alterado_por="teste",
                )
                s.add(auto)
                s.flush()
                decisao = Decisao(
                    auto_id=auto.id,
                    data=inicio,
                    resultado="aplicada",
                    multa_ur=Decimal(0),
                    suspensao_dias=dias,
                    fundamentacao="x",
                    secretario="teste",
                    alterado_por="teste",
                )
                s.add(decisao)
                s.flush()
                s.add(
                    Suspensao(
                        operadora_id=op.id,
                        decisao_id=decisao.id,
                        inicio=inicio,
                        dias=dias,
                        fim=inicio + timedelta(days=dias - 1),
                        anulada=anulada,
                        alterado_por="teste",
                    )
                )
        uow.commit()
    return ids


def _fiscal(s: sa.orm.Session) -> int:
    from secretaria.models import Fiscal

    fiscal = s.scalars(sa.select(Fiscal).limit(1)).first()
    if fiscal is None:
        fiscal = Fiscal(nome="Fiscal", matricula="F-1", alterado_por="teste")
        s.add(fiscal)
        s.flush()
    return fiscal.id


def test_as_tres_leituras_da_situacao_concordam_com_a_regra(banco: Banco) -> None:
    rng = random.Random(2413)
    historias = [_historia(rng) for _ in range(OPERADORAS)]
    ids = _gravar(banco, historias)
    vistos: set[str] = set()
    with banco.leitura() as s:
        for dia in (INICIO + timedelta(days=d) for d in range(-1, DIAS + 25, 3)):
            em_sql = dict(
                s.execute(sa.select(Operadora.id, situacao_operadora_sql(dia)).where(Operadora.id.in_(ids)))
                .tuples()
                .all()
            )
            todas = situacoes_operadoras(s, dia)
            for op_id, (cassada, suspensoes) in zip(ids, historias, strict=True):
                esperado = _esperado(cassada, suspensoes, dia)
                codigo = SituacaoOperadora(esperado.split()[0])
                vistos.add(codigo)
                assert situacao_operadora(s, op_id, dia) == esperado, (op_id, dia)
                assert todas.get(op_id, "ativa") == esperado, (op_id, dia)
                assert em_sql[op_id] == codigo, (op_id, dia)
    assert vistos == set(SituacaoOperadora)  # the histories reached every status
