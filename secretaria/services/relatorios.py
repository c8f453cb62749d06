"""The monthly spreadsheet's data (PRODUTO § 10), read in six joined queries (five on SQLite) whatever the
month's size.

A month of ten thousand autos is one query for the autos (operator, provision, vehicle, employee, decision and
appeal joined in), one for the decisions, one for the suspensions started, two for the deadlines running at
the month's end (one on SQLite) and one for the payments: never a query per row. The rows are read as plain
tuples (`_linhas`) and go to `secretaria.reports.planilha_mensal`, which streams them into the workbook.

"Open at month end" is read as of the month's last day, from the dates stored with each act, so the file for
a past month says what was open then, not what is open today.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, BinaryIO

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import ROTULOS_CURTOS_PAGAMENTO, SituacaoPagamento
from secretaria.db import Banco
from secretaria.lei.formato import formatar_data
from secretaria.models import (
    AutoInfracao,
    Decisao,
    Defesa,
    DispositivoCatalogo,
    Empregado,
    Intimacao,
    Operadora,
    Pagamento,
    Recurso,
    Suspensao,
    Veiculo,
)
from secretaria.reports.dados import (
    DadosMensais,
    LinhaAutoMensal,
    LinhaPagamentoMensal,
    LinhaPenalidadeMensal,
    LinhaPrazoMensal,
    LinhaSuspensaoMensal,
)
from secretaria.services import cifras
from secretaria.services.base import ErroDominio
from secretaria.services.documentos import numero_auto, situacao_caso
from secretaria.services.rotulos import formatar_placa

__all__ = [
    "ResumoRelatorio",
    "consultas_prazos",
    "dados_mensais",
    "gerar_relatorio_mensal",
    "ler_mes",
    "nome_arquivo_mensal",
    "periodo_do_mes",
]

Progresso = Callable[[int, int], None]

_MES = re.compile(r"^\s*(\d{4})\s*[-/]\s*(\d{1,2})\s*$")
_MES_BR = re.compile(r"^\s*(\d{1,2})\s*/\s*(\d{4})\s*$")
_PRIMEIRO_ANO = 1978  # Lei nº 2.413/1978

PRAZO_DEFESA = "Defesa (art. 14)"
PRAZO_RECURSO = "Recurso (art. 15)"
SUSPENSAO_CUMPRIDA = "Cumprida"
SUSPENSAO_EM_CURSO = "Em curso no fim do mês"
SUSPENSAO_ANULADA = "Anulada"


@dataclass(frozen=True)
class ResumoRelatorio:
    """What was written, for the message after the file is saved."""

    ano: int
    mes: int
    destino: str
    autos: int
    penalidades: int
    prazos: int
    pagamentos: int

    @property
    def mensagem(self) -> str:
        return (
            f"Planilha de {self.mes:02d}/{self.ano} gravada em {self.destino}: "
            f"{_quantos(self.autos, 'auto lavrado', 'autos lavrados')}, "
            f"{_quantos(self.penalidades, 'decisão', 'decisões')}, "
            f"{_quantos(self.prazos, 'prazo em aberto', 'prazos em aberto')} no fim do mês e "
            f"{_quantos(self.pagamentos, 'pagamento', 'pagamentos')}."
        )


def _quantos(n: int, singular: str, plural: str) -> str:
    """Real plurals instead of "decisão(ões)": "1 decisão", "2.345 decisões", "0 decisões"."""
    return f"{n:,}".replace(",", ".") + " " + (singular if n == 1 else plural)


def periodo_do_mes(ano: int, mes: int) -> tuple[date, date]:
    """The month's first and last day."""
    primeiro = date(ano, mes, 1)
    seguinte = date(ano + mes // 12, mes % 12 + 1, 1)
    return primeiro, seguinte - timedelta(days=1)


def conferir_mes(ano: int, mes: int) -> None:
    """Refuse a month that cannot have data: outside 1–12, before the law, or not begun yet."""
    if not 1 <= mes <= 12:
        raise ErroDominio(f"Mês inválido: {mes}. Use um mês de 1 a 12.", "mes")
    hoje = relogio.hoje()
    if ano < _PRIMEIRO_ANO:
        raise ErroDominio(f"O ano {ano} é anterior à Lei nº 2.413/1978.", "ano")
    if (ano, mes) > (hoje.year, hoje.month):
        raise ErroDominio(f"O mês {mes:02d}/{ano} ainda não começou (hoje é {formatar_data(hoje)}).", "mes")


def ler_mes(texto: str) -> tuple[int, int]:
    """ "2026-11" (or "11/2026") → (2026, 11); refused, with the expected form, when badly written."""
    m = _MES.match(texto or "")
    if m is not None:
        ano, mes = int(m.group(1)), int(m.group(2))
    else:
        m = _MES_BR.match(texto or "")
        if m is None:
            raise ErroDominio(
                f"Mês inválido: “{texto}”. Escreva o mês como AAAA-MM, por exemplo 2026-11.", "mes"
            )
        mes, ano = int(m.group(1)), int(m.group(2))
    conferir_mes(ano, mes)
    return ano, mes


def nome_arquivo_mensal(ano: int, mes: int) -> str:
    return f"relatorio-mensal-{ano}-{mes:02d}.xlsx"


# --- the five queries ---------------------------------------------------------------------------------------


def _linhas(sessao: so.Session, consulta: sa.Select[Any], campos: str) -> Iterator[tuple[Any, ...]]:
    """The rows of `consulta` as plain tuples of the columns named in `campos` (two or more), in that order.

    Read on the session's connection as Core rows, and by position: the ORM's row processing and a row's
    attribute lookups (about a microsecond each, 18 per auto) took four fifths of reading the fullest month's
    10,118 autos, whose query itself runs in a tenth of a second."""
    resultado = sessao.connection().execute(consulta)
    chaves = list(resultado.keys())
    pegar = operator.itemgetter(*(chaves.index(c) for c in campos.split()))
    return map(pegar, resultado)


def _autos(sessao: so.Session, inicio: date, fim: date) -> list[LinhaAutoMensal]:
    a = AutoInfracao
    consulta = (
        cifras.consulta_casos(
            a.data_lavratura,
            a.data_infracao,
            Operadora.razao_social,
            Veiculo.prefixo,
            Veiculo.placa,
            Empregado.nome.label("empregado"),
            por_auto=sessao.get_bind().dialect.name == "postgresql",
        )
        .join(Operadora, Operadora.id == a.operadora_id)
        .outerjoin(Veiculo, Veiculo.id == a.veiculo_id)
        .outerjoin(Empregado, Empregado.id == a.empregado_id)
        .where(a.data_lavratura >= inicio, a.data_lavratura <= fim)
        .order_by(a.data_lavratura, a.ano, a.numero)
    )
    linhas = []
    veiculos: dict[tuple[str, str], str] = {}
    for (
        ano,
        numero,
        tipo,
        fase,
        multa_ur,
        anulada,
        rotulo,
        resultado,
        valor_urm,
        multa_decidida,
        multa_reais,
        recurso,
        lavratura,
        infracao,
        operadora,
        prefixo,
        placa,
        empregado,
    ) in _linhas(
        sessao,
        consulta,
        "ano numero tipo fase multa_ur penalidade_anulada rotulo resultado valor_urm multa_decidida multa_reais "
        "recurso data_lavratura data_infracao razao_social prefixo placa empregado",
    ):
        multa = cifras.multa_vigente(
            resultado=resultado,
            anulada=anulada,
            fase=fase,
            multa_ur_auto=multa_ur,
            multa_ur_decisao=multa_decidida,
            multa_reais_decisao=multa_reais,
            valor_urm=valor_urm,
        )
        veiculo = None
        if prefixo is not None:
            veiculo = veiculos.get((prefixo, placa))
            if veiculo is None:
                veiculo = veiculos[prefixo, placa] = f"{prefixo} – {formatar_placa(placa)}"
        linhas.append(
            LinhaAutoMensal(
                numero=numero_auto(numero, ano),
                data_lavratura=lavratura,
                data_infracao=infracao,
                operadora=operadora,
                dispositivo=rotulo,
                tipo=tipo,
                situacao=situacao_caso(fase, resultado, anulada, recurso),
                veiculo=veiculo,
                empregado=empregado,
                multa_urm=multa.urm if multa else None,
                multa_reais=multa.reais if multa else None,
            )
        )
    return linhas


def _resultado_decisao(resultado: str, recurso: str | None) -> str:
    if resultado != "aplicada":
        return "Arquivado"
    return {
        "pendente": "Penalidade aplicada (em recurso)",
        "negado": "Penalidade aplicada (recurso negado)",
        "provido": "Penalidade anulada em recurso",
        "provido_parcialmente": "Penalidade reduzida em recurso",
    }.get(recurso or "", "Penalidade aplicada")


def _penalidades(sessao: so.Session, inicio: date, fim: date) -> list[LinhaPenalidadeMensal]:
    a = AutoInfracao
    consulta = (
        cifras.consulta_casos(Decisao.data, Operadora.razao_social, decididos=True, suspensao=True)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(Decisao.data >= inicio, Decisao.data <= fim)
        .order_by(Decisao.data, a.ano, a.numero)
    )
    linhas = []
    for (
        ano,
        numero,
        tipo,
        fase,
        multa_ur,
        anulada,
        rotulo,
        resultado,
        valor_urm,
        multa_decidida,
        multa_reais,
        recurso,
        suspensao_auto,
        inicio_suspensao,
        fim_suspensao,
        dias_suspensao,
        suspensao_anulada,
        data,
        operadora,
    ) in _linhas(
        sessao,
        consulta,
        "ano numero tipo fase multa_ur penalidade_anulada rotulo resultado valor_urm multa_decidida multa_reais "
        "recurso suspensao_auto inicio fim dias anulada data razao_social",
    ):
        aplicada = resultado == "aplicada"
        # The fine as every report counts it (services.cifras): none when annulled on appeal, the final
        # value when reduced; the row's result says which.
        multa = cifras.multa_vigente(
            resultado=resultado,
            anulada=anulada,
            fase=fase,
            multa_ur_auto=multa_ur,
            multa_ur_decisao=multa_decidida,
            multa_reais_decisao=multa_reais,
            valor_urm=valor_urm,
        )
        vale = aplicada and not anulada and fase != "cancelado"
        dias = suspensao_auto if vale and suspensao_auto else None
        periodo = (
            dias is not None
            and inicio_suspensao is not None
            and not suspensao_anulada
            and dias_suspensao == dias
        )
        linhas.append(
            LinhaPenalidadeMensal(
                numero_auto=numero_auto(numero, ano),
                data_decisao=data,
                operadora=operadora,
                dispositivo=rotulo,
                tipo=tipo,
                resultado=_resultado_decisao(resultado, recurso),
                multa_urm=multa.urm if multa else None,
                valor_urm=valor_urm if multa else None,
                multa_reais=multa.reais if multa else None,
                suspensao_dias=dias,
                suspensao_inicio=inicio_suspensao if periodo else None,
                suspensao_fim=fim_suspensao if periodo else None,
            )
        )
    return linhas


def _suspensoes(sessao: so.Session, inicio: date, fim: date) -> list[LinhaSuspensaoMensal]:
    """Suspensions whose serving started in the month, whatever month their decision was taken in."""
    a = AutoInfracao
    s = Suspensao
    consulta = (
        sa.select(
            a.ano,
            a.numero,
            Operadora.razao_social,
            DispositivoCatalogo.rotulo,
            s.inicio,
            s.fim,
            s.dias,
            s.anulada,
        )
        .join(Decisao, Decisao.id == s.decisao_id)
        .join(a, a.id == Decisao.auto_id)
        .join(Operadora, Operadora.id == s.operadora_id)
        .join(DispositivoCatalogo, DispositivoCatalogo.codigo == a.dispositivo_codigo)
        .where(s.inicio >= inicio, s.inicio <= fim)
        .order_by(s.inicio, a.ano, a.numero)
    )
    return [
        LinhaSuspensaoMensal(
            numero_auto=numero_auto(r.numero, r.ano),
            operadora=r.razao_social,
            dispositivo=r.rotulo,
            inicio=r.inicio,
            fim=r.fim,
            dias=r.dias,
            situacao=SUSPENSAO_ANULADA
            if r.anulada
            else SUSPENSAO_CUMPRIDA
            if r.fim <= fim
            else SUSPENSAO_EM_CURSO,
        )
        for r in sessao.execute(consulta)
    ]


def _prazos(sessao: so.Session, fim: date) -> list[LinhaPrazoMensal]:
    """The deadlines that really ran on the month's last day, from the deadline stored with each intimação.

    Defence (art. 14): the auto was intimated, and by the month's end neither a defence was filed nor the
    case decided. Appeal (art. 15): only a penalty can be appealed, so only a decision that applied one, whose
    intimação was delivered, with no appeal filed by the month's end. A dismissed auto has no appeal deadline.
    """
    postgres = sessao.get_bind().dialect.name == "postgresql"
    linhas = []
    for consulta in consultas_prazos(fim, postgres=postgres, numa_so=not postgres):
        for ano, numero, operadora, objeto, data, prazo in _linhas(
            sessao, consulta, "ano numero razao_social objeto data prazo"
        ):
            linhas.append(
                LinhaPrazoMensal(
                    numero_auto=numero_auto(numero, ano),
                    operadora=operadora,
                    prazo=PRAZO_DEFESA if objeto == "auto" else PRAZO_RECURSO,
                    data_intimacao=data,
                    vencimento=prazo,
                )
            )
    linhas.sort(key=lambda p: (p.vencimento, p.numero_auto))
    return linhas


def consultas_prazos(fim: date, *, postgres: bool, numa_so: bool) -> tuple[sa.Select[Any], ...]:
    """`_prazos`'s select: the defence deadlines and the appeal deadlines running at `fim`, apart or
    (`numa_so`) in one select whose rows are both.

    SQLite reads the intimações due after the month's end by `ix_intimacao_prazo` and looks each one up in its
    table to keep those delivered by then (57,000 read for 6,000 kept in the bench's fullest month): in one
    select it does so once for both kinds instead of once per kind (0.13 → 0.08 s of CPU). PostgreSQL keeps
    the two selects its plans were measured with."""
    a = AutoInfracao
    i = Intimacao
    depois_do_mes = datetime.combine(fim + timedelta(days=1), time(0, 0))
    # SQLite cannot tell which range is narrower and read every intimação delivered before the month's end
    # by `ix_intimacao_data` (87 % of them for a month a year back: 0.4 s of CPU on 425,000); a unary "+"
    # keeps it off that index, so it reads by `ix_intimacao_prazo` only those running at the month's end.
    # PostgreSQL, told "delivered by the end" and "due after it" apart, multiplies their shares and expects four
    # times the few thousand intimações running then: it scanned every auto in parallel and hashed every
    # decision (140 ms of three processes). Said as one period containing the day, it expects few and
    # looks each one's auto, defence and decision up by index (65 ms of one).
    entregue: sa.ColumnElement[bool]
    if postgres:
        entregue = sa.func.daterange(i.data, i.prazo, "[]").op("@>")(sa.literal(fim, sa.Date))
    else:
        entregue = sa.literal_column(f"+{Intimacao.__tablename__}.data", sa.Date) <= fim
    comum = (
        i.sucesso.is_(True),
        i.prazo.is_not(None),
        entregue,
        i.prazo >= fim,
        sa.or_(a.cancelado_em.is_(None), a.cancelado_em >= depois_do_mes),
    )
    sem_defesa = ~sa.exists().where(Defesa.auto_id == a.id, Defesa.protocolada_em <= fim)
    sem_decisao = ~sa.exists().where(Decisao.auto_id == a.id, Decisao.data <= fim)
    com_penalidade = sa.exists().where(
        Decisao.auto_id == a.id, Decisao.resultado == "aplicada", Decisao.data <= i.data
    )
    sem_recurso = ~sa.exists().where(
        Decisao.auto_id == a.id, Recurso.decisao_id == Decisao.id, Recurso.protocolado_em <= fim
    )
    colunas = (a.ano, a.numero, Operadora.razao_social, i.objeto, i.data, i.prazo)
    base = sa.select(*colunas).join(a, a.id == i.auto_id).join(Operadora, Operadora.id == a.operadora_id)
    if numa_so:
        defesa = sa.and_(i.objeto == "auto", sem_defesa, sem_decisao)
        recurso = sa.and_(i.objeto == "decisao", com_penalidade, sem_recurso)
        return (base.where(*comum, sa.or_(defesa, recurso)),)
    defesas = base.where(i.objeto == "auto", *comum, sem_defesa, sem_decisao)
    recursos = base.where(i.objeto == "decisao", *comum, com_penalidade, sem_recurso)
    return defesas, recursos


def _pagamentos(sessao: so.Session, inicio: date, fim: date) -> list[LinhaPagamentoMensal]:
    """Fines paid in the month, and fines sent to the municipal debt roll in the month."""
    a = AutoInfracao
    p = Pagamento
    consulta = (
        sa.select(
            a.ano,
            a.numero,
            Operadora.razao_social,
            p.valor,
            p.pago_em,
            p.valor_pago,
            p.guia,
            p.inscrito_divida_em,
        )
        .join(Decisao, Decisao.id == p.decisao_id)
        .join(a, a.id == Decisao.auto_id)
        .join(Operadora, Operadora.id == a.operadora_id)
        .where(
            sa.or_(
                sa.and_(p.pago_em >= inicio, p.pago_em <= fim),
                sa.and_(p.inscrito_divida_em >= inicio, p.inscrito_divida_em <= fim),
            )
        )
    )
    eventos: list[tuple[date, LinhaPagamentoMensal]] = []
    for ano, sequencial, operadora, valor, pago_em, valor_pago, numero_guia, inscrito_em in _linhas(
        sessao, consulta, "ano numero razao_social valor pago_em valor_pago guia inscrito_divida_em"
    ):
        numero = numero_auto(sequencial, ano)
        guia = f"Guia nº {numero_guia}" if numero_guia else ""
        if pago_em is not None and inicio <= pago_em <= fim:
            eventos.append(
                (
                    pago_em,
                    LinhaPagamentoMensal(
                        numero_auto=numero,
                        operadora=operadora,
                        valor_multa=valor,
                        situacao=ROTULOS_CURTOS_PAGAMENTO[SituacaoPagamento.PAGO],
                        data_pagamento=pago_em,
                        valor_pago=valor_pago if valor_pago is not None else valor,
                        observacao=guia,
                    ),
                )
            )
        if inscrito_em is not None and inicio <= inscrito_em <= fim:
            nota = f"Inscrita em dívida ativa em {formatar_data(inscrito_em)}"
            eventos.append(
                (
                    inscrito_em,
                    LinhaPagamentoMensal(
                        numero_auto=numero,
                        operadora=operadora,
                        valor_multa=valor,
                        situacao=ROTULOS_CURTOS_PAGAMENTO[SituacaoPagamento.DIVIDA_ATIVA],
                        observacao=f"{nota}; {guia}" if guia else nota,
                    ),
                )
            )
    eventos.sort(key=lambda e: (e[0], e[1].numero_auto))
    return [linha for _dia, linha in eventos]


def dados_mensais(sessao: so.Session, ano: int, mes: int) -> DadosMensais:
    """Everything the monthly spreadsheet shows for `mes`/`ano` (autos drawn up, decisions, suspensions
    started, deadlines running at the month's end, payments)."""
    conferir_mes(ano, mes)
    inicio, fim = periodo_do_mes(ano, mes)
    return DadosMensais(
        ano=ano,
        mes=mes,
        autos=_autos(sessao, inicio, fim),
        penalidades=_penalidades(sessao, inicio, fim),
        prazos=_prazos(sessao, fim),
        pagamentos=_pagamentos(sessao, inicio, fim),
        suspensoes=_suspensoes(sessao, inicio, fim),
    )


def gerar_relatorio_mensal(
    banco_ou_sessao: Banco | so.Session,
    ano: int,
    mes: int,
    destino: str | Path | BinaryIO,
    progresso: Progresso | None = None,
) -> ResumoRelatorio:
    """Read the month and write its workbook to `destino`; `progresso(feitas, total)` as rows are written.

    A path is written through a temporary file beside it and renamed at the end, so an interrupted run never
    leaves a half-written spreadsheet under the chosen name.
    """
    from secretaria.reports.planilha_mensal import gerar_planilha_mensal

    if isinstance(banco_ou_sessao, Banco):
        with banco_ou_sessao.leitura() as sessao:
            dados = dados_mensais(sessao, ano, mes)
    else:
        dados = dados_mensais(banco_ou_sessao, ano, mes)
    if isinstance(destino, str | Path):
        caminho = Path(destino)
        temporario = caminho.with_name(f".{caminho.name}.parcial")
        try:
            gerar_planilha_mensal(dados, temporario, progresso)
            temporario.replace(caminho)
        finally:
            temporario.unlink(missing_ok=True)
        nome = str(caminho)
    else:
        gerar_planilha_mensal(dados, destino, progresso)
        nome = getattr(destino, "name", "arquivo")
    return ResumoRelatorio(
        ano=ano,
        mes=mes,
        destino=str(nome),
        autos=len(dados.autos),
        penalidades=len(dados.penalidades),
        prazos=len(dados.prazos),
        pagamentos=len(dados.pagamentos),
    )
