"""What every act of the case shares: loading the auto for writing, dates, amounts, and audit images.

A save that loses an optimistic-lock race surfaces from the unit of work as ConflitoEdicao (db/unidade.py).
Every act of the case loads its auto through `auto_para_ato`: it takes the row lock on PostgreSQL (SQLite
writers are already serialized by BEGIN IMMEDIATE), so two users recording acts on one case at the same
moment are ordered, and the checks each act makes ("already decided?") see the other's result. The lock is
taken before any audit row, whose advisory lock comes last in every act: one order, so no deadlock.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import DESCRICOES_FASE
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.models import AutoInfracao, Base, Decisao, Intimacao, Pagamento, Recurso, Retificacao
from secretaria.services.auditoria import instantaneo
from secretaria.services.base import ErroDominio, NaoEncontrado, mensagem_nao_encontrado
from secretaria.services.rotulos import invalido

INICIO_LEI = date(1978, 5, 19)
"""Lei nº 2.413 was signed on 19/05/1978: no act of its procedure is dated before it."""
FUTURO_MAXIMO = timedelta(days=366)
"""How far ahead a date may be where a future date makes sense (the start of a suspension)."""
MAIOR_ID = 2**31 - 1
"""The largest key the database columns hold: a larger id is "not found", never an overflow."""

M = TypeVar("M", bound=Base)
D = TypeVar("D", Pagamento, Recurso)

ROTULOS_FASE = DESCRICOES_FASE
"""The phase as the case screen's header and the representação's linked auto say it."""


def obter(
    sessao: so.Session, modelo: type[M], ident: int | None, descricao: str, campo: str | None = None
) -> M:
    """The row `ident` of `modelo`, or a NaoEncontrado naming what was looked for."""
    registro = sessao.get(modelo, ident) if id_valido(ident) else None
    if registro is None:
        raise NaoEncontrado(mensagem_nao_encontrado(descricao, ident), campo)
    return registro


def id_valido(ident: object) -> bool:
    """A key the database can look up (a huge or non-integer id is simply "not found", never a crash)."""
    return isinstance(ident, int) and not isinstance(ident, bool) and 0 < ident <= MAIOR_ID


def auto_para_ato(sessao: so.Session, auto_id: int, acao: str, *, travar: bool = True) -> AutoInfracao:
    """The auto, locked for this act (`travar=False`: a check before asking, in a read session); refused
    when it does not exist or was cancelled."""
    auto = None
    if id_valido(auto_id):
        consulta = sa.select(AutoInfracao).where(AutoInfracao.id == auto_id)
        auto = sessao.scalar(consulta.with_for_update() if travar else consulta)
    if auto is None:
        raise NaoEncontrado(f"Auto de infração não encontrado (nº interno {auto_id}).", "auto_id")
    if auto.fase == "cancelado":
        quando = f" em {auto.cancelado_em:%d/%m/%Y}" if auto.cancelado_em else ""
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} foi cancelado{quando}: não é possível {acao}.", "auto_id"
        )
    return auto


def auto_com_relacoes(sessao: so.Session, auto_id: int) -> AutoInfracao:
    """The auto with what the case screen and the documents read of it: operator, vehicle, line, employee
    and inspector (joined) and the witnesses; refused when it does not exist."""
    auto = sessao.scalar(
        sa.select(AutoInfracao)
        .where(AutoInfracao.id == auto_id)
        .options(
            so.joinedload(AutoInfracao.operadora),
            so.joinedload(AutoInfracao.veiculo),
            so.joinedload(AutoInfracao.linha),
            so.joinedload(AutoInfracao.empregado),
            so.joinedload(AutoInfracao.fiscal),
            so.selectinload(AutoInfracao.testemunhas),
        )
    )
    if auto is None:
        raise NaoEncontrado(f"Auto de infração não encontrado (nº interno {auto_id}).", "auto_id")
    return auto


def com_decisao(sessao: so.Session, modelo: type[D], auto_id: int) -> tuple[D, Decisao] | None:
    """The auto's payment or appeal (`modelo`) with the decision it belongs to, in one joined select; None
    when the auto has none."""
    linha = (
        sessao.execute(
            sa.select(modelo, Decisao)
            .join(Decisao, Decisao.id == modelo.decisao_id)
            .where(Decisao.auto_id == auto_id)
        )
        .tuples()
        .first()
    )
    return None if linha is None else (linha[0], linha[1])


def data_valida(
    dia: date | None,
    campo: str,
    rotulo: str,
    *,
    minimo: date | None = None,
    rotulo_minimo: str = "",
    futuro: bool = False,
) -> date:
    """A date that is given, not in the future (unless `futuro`), not before the law nor before `minimo`."""
    if dia is None:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    if isinstance(dia, datetime):
        dia = dia.date()
    if not isinstance(dia, date):
        raise ErroDominio(f"{_maiuscula(rotulo)} é {_invalido(rotulo)}.", campo)
    if futuro and dia > relogio.hoje() + FUTURO_MAXIMO:
        raise ErroDominio(
            f"{_maiuscula(rotulo)} ({formatar_data(dia)}) está a mais de um ano no futuro: confira a data.",
            campo,
        )
    if not futuro and dia > relogio.hoje():
        raise ErroDominio(
            f"{_maiuscula(rotulo)} ({formatar_data(dia)}) está no futuro: hoje é {formatar_data(relogio.hoje())}.",
            campo,
        )
    if dia < INICIO_LEI:
        raise ErroDominio(
            f"{_maiuscula(rotulo)} ({formatar_data(dia)}) é anterior à Lei nº 2.413, de 19/05/1978.", campo
        )
    if minimo is not None and dia < minimo:
        raise ErroDominio(
            f"{_maiuscula(rotulo)} ({formatar_data(dia)}) não pode ser anterior {_preposicao_a(rotulo_minimo)} "
            f"({formatar_data(minimo)}).",
            campo,
        )
    return dia


def urm_valida(valor: Decimal | int | str | None, campo: str, rotulo: str) -> Decimal:
    """An amount in URM to the hundredth, non-negative and below 1.000 (the law's cap is 10,00)."""
    if valor is None:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    try:
        numero = Decimal(str(valor).replace(",", ".")) if not isinstance(valor, Decimal) else valor
        if not numero.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise ErroDominio(
            f"{_maiuscula(rotulo)} é {invalido(rotulo)}: use um número como 0,50.", campo
        ) from None
    if numero < 0 or numero >= 1000:
        raise ErroDominio(f"{_maiuscula(rotulo)} está fora dos limites ({formatar_decimal(numero)}).", campo)
    if numero != numero.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP):
        raise ErroDominio(f"{_maiuscula(rotulo)} deve ter no máximo duas casas decimais.", campo)
    return numero.quantize(Decimal("0.01"))


def reais_validos(valor: Decimal | int | str | None, campo: str, rotulo: str) -> Decimal:
    if valor is None:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    try:
        numero = Decimal(str(valor).replace(",", ".")) if not isinstance(valor, Decimal) else valor
        if not numero.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise ErroDominio(f"{_maiuscula(rotulo)} é inválido: use um valor como 82,37.", campo) from None
    if numero <= 0:
        raise ErroDominio(f"{_maiuscula(rotulo)} deve ser maior que zero.", campo)
    if numero >= Decimal("1e11"):
        raise ErroDominio(f"{_maiuscula(rotulo)} está fora dos limites ({formatar_decimal(numero)}).", campo)
    return numero.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def dias_validos(valor: int | None, campo: str, rotulo: str) -> int:
    if valor is None:
        return 0
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise ErroDominio(f"{_maiuscula(rotulo)} deve ser um número inteiro de dias.", campo)
    if valor < 0 or valor > 366:
        raise ErroDominio(f"{_maiuscula(rotulo)} está fora dos limites: {valor} dias.", campo)
    return valor


def escolha(valor: str | None, opcoes: Mapping[str, str], campo: str, rotulo: str) -> str:
    """One of `opcoes` (key → label), refused with the list of labels otherwise."""
    if isinstance(valor, str) and valor in opcoes:
        return str(valor)
    lista = ", ".join(f"“{r}”" for r in opcoes.values())
    raise ErroDominio(f"Escolha {rotulo}: {lista}.", campo)


def termos_sem_intimacao(
    sessao: so.Session, auto_id: int, *, so_substancia: bool = False
) -> list[Retificacao]:
    """The auto's termos de retificação that no successful intimação has delivered yet, oldest first."""
    entregue = (
        sa.select(Intimacao.id)
        .where(Intimacao.retificacao_id == Retificacao.id, Intimacao.sucesso.is_(True))
        .exists()
    )
    consulta = sa.select(Retificacao).where(Retificacao.auto_id == auto_id, ~entregue)
    if so_substancia:
        consulta = consulta.where(Retificacao.substancial.is_(True))
    return list(sessao.scalars(consulta.order_by(Retificacao.id)))


def inicio_prazo_retificado(sessao: so.Session, auto_id: int) -> date | None:
    """The day of the termo's intimação the running defence deadline counts from, when a correction of
    substance reopened it (None otherwise). A defence or a proposal made before it answered the auto as it
    read before the correction, so it does not count against the reopened deadline (REGRAS § 5)."""
    linha = sessao.execute(
        sa.select(Intimacao.data, Intimacao.retificacao_id)
        .where(Intimacao.auto_id == auto_id, Intimacao.objeto == "auto", Intimacao.prazo.is_not(None))
        .order_by(Intimacao.id.desc())
        .limit(1)
    ).first()
    return linha.data if linha is not None and linha.retificacao_id is not None else None


def imagem(registro: Any, **extras: Any) -> dict[str, Any]:
    """The audit image of a record, with `extras` (children such as witnesses) added."""
    dados = instantaneo(registro)
    dados.update(extras)
    return dados


def _preposicao_a(rotulo: str) -> str:
    """ "a decisão" → "à decisão", "o recebimento" → "ao recebimento" (the contraction Portuguese requires)."""
    if rotulo.startswith("a "):
        return "à " + rotulo[2:]
    if rotulo.startswith("o "):
        return "ao " + rotulo[2:]
    return "a " + rotulo


def _invalido(rotulo: str) -> str:
    """ "inválido" or "inválida", agreeing with the label's article ("o início…", "a data…")."""
    return "inválido" if rotulo.startswith("o ") else "inválida"


def _maiuscula(texto: str) -> str:
    return texto[:1].upper() + texto[1:]
