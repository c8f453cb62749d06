"""The history of autos: the paper books brought in, so recidivism is right from the first day.

An imported auto is an `AutoInfracao` like any other — same number and year as in the book, the operator,
the provision, the day of the infraction — with what happened written where the program's own acts write
it: the decision (`Decisao`, and on the auto the decision day, fine, suspension), the day the penalty
became final (`data_definitiva`), the appeal (`Recurso`; granted in full annuls the penalty), the payment
(`Pagamento`). The sanction panel reads those same columns, so it answers for an imported history exactly
as for one drawn up in the program; its reasons add "importado de ARQUIVO" (`importado_de`).

Numbers are kept; the year's sequence moves past the highest imported number, so a new auto never reuses
one. A number drawn up in the program is never overwritten; an imported one is updated by a corrected file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.documentos import (
    DocumentoInvalido,
    chave_placa,
    formatar_cnpj,
    validar_cnpj,
    validar_placa,
)
from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data, formatar_reais, formatar_urm
from secretaria.lei.urm import urm_para_reais, vigente_em
from secretaria.models import (
    AutoInfracao,
    Decisao,
    Fiscal,
    Numeracao,
    Operadora,
    Pagamento,
    Recurso,
    Veiculo,
)
from secretaria.services import auditoria
from secretaria.services.base import Ator, ErroDominio, exigir_papel
from secretaria.services.importacao import comum
from secretaria.services.importacao.colunas import Mapeamento, mapear, normalizar
from secretaria.services.importacao.comum import Avaliada, Previa, Progresso, ResultadoImportacao
from secretaria.services.importacao.leitura import Planilha
from secretaria.services.lei_db import DispositivoCitavel, dispositivo_citavel, tabela_urm
from secretaria.services.processo_base import dias_validos, urm_valida

__all__ = ["PRESUNCAO_MINIMA", "importar_autos", "previa_autos"]

_T = TypeVar("_T")
PRESUNCAO_MINIMA = 30
"""REGRAS § 3 rule 1: 15 days for the intimação and 15 for the appeal."""

LOTE = 500
_NUMERO = re.compile(r"(?:AI\s*)?(?:N[º°O.]?\s*)?0*(\d{1,6})(?:\s*/\s*(\d{4}))?", re.IGNORECASE)
_DISPOSITIVO = re.compile(
    r"(?:art(?:igo)?\.?\s*)?(\d{1,2})\s*[º°o]?\s*[,;\-–]?\s*(?:inc(?:iso)?\.?\s*)?([IVXLC]+)", re.IGNORECASE
)


@dataclass
class _Historico:
    """A row read: the auto's columns and what happened after it."""

    ano: int
    numero: int
    auto: dict[str, Any]
    decisao: dict[str, Any] | None
    recurso: dict[str, Any] | None
    pagamento: dict[str, Any] | None
    sem_definitiva: bool = False
    """A penalty the book applied, with no appeal and no final day: out of recidivism unless presumed."""


def _numero(brutos: dict[str, Any]) -> tuple[int, int]:
    texto = str(brutos.get("numero") or "").strip()
    m = _NUMERO.fullmatch(texto)
    if not texto or m is None:
        raise ErroDominio(f"Número do auto “{texto}” inválido: use o número do livro, como 12 ou 0012/2024.")
    ano_texto = m.group(2) or str(brutos.get("ano") or "").strip()
    if not ano_texto.isdigit() or not 1978 <= int(ano_texto) <= relogio.hoje().year:
        raise ErroDominio(
            f"Informe o ano do auto nº {texto} (de 1978 a {relogio.hoje().year}), na coluna Ano ou como "
            "0012/2024."
        )
    numero = int(m.group(1))
    if numero < 1:
        raise ErroDominio("O número do auto deve ser maior que zero.")
    return int(ano_texto), numero


def _codigo_dispositivo(texto: str) -> str:
    m = _DISPOSITIVO.fullmatch(texto.strip())
    if m is not None:
        return f"{int(m.group(1))}-{m.group(2).upper()}"
    return texto.strip().upper()


def _ordem(antes: date | None, depois: date | None, rotulo_antes: str, rotulo_depois: str) -> None:
    if antes is not None and depois is not None and depois < antes:
        raise ErroDominio(
            f"{rotulo_depois} ({formatar_data(depois)}) não pode ser anterior a {rotulo_antes} "
            f"({formatar_data(antes)})."
        )


@dataclass
class _Cadastros:
    """What a book row names, read once per import: operators (by CNPJ and by name), inspectors (by
    registration and by name), vehicles per operator (by plate and by prefixo)."""

    operadoras: dict[str, tuple[int, str]]
    nomes_operadoras: dict[int, tuple[str, ...]]
    fiscais: dict[str, int]
    nomes_fiscais: dict[int, tuple[str, ...]]
    veiculos: dict[tuple[int, str], int]
    cnpjs: dict[str, str] = field(default_factory=dict)
    """The CNPJs as typed → checked: a book names its few operators thousands of times."""


def _cadastros(s: so.Session) -> _Cadastros:
    operadoras: dict[str, tuple[int, str]] = {}
    nomes_operadoras: dict[int, tuple[str, ...]] = {}
    for i, cnpj, razao, fantasia in s.execute(
        sa.select(Operadora.id, Operadora.cnpj, Operadora.razao_social, Operadora.nome_fantasia)
    ):
        operadoras[cnpj] = (i, razao)
        nomes_operadoras[i] = (razao, fantasia or "")
    fiscais: dict[str, int] = {}
    nomes_fiscais: dict[int, tuple[str, ...]] = {}
    for i, matricula, nome in s.execute(sa.select(Fiscal.id, Fiscal.matricula, Fiscal.nome)):
        fiscais[matricula.upper()] = i
        nomes_fiscais[i] = (nome,)
    veiculos: dict[tuple[int, str], int] = {}
    for i, op, chave, prefixo in s.execute(
        sa.select(Veiculo.id, Veiculo.operadora_id, Veiculo.placa_chave, Veiculo.prefixo)
    ):
        veiculos[(op, chave)] = i
        veiculos.setdefault((op, normalizar(prefixo)), i)
    return _Cadastros(operadoras, nomes_operadoras, fiscais, nomes_fiscais, veiculos)


def _operadora_do_auto(brutos: dict[str, Any], cad: _Cadastros) -> tuple[int, str]:
    texto = str(brutos.get("operadora_cnpj") or "")
    nome = str(brutos.get("operadora_nome") or "")
    if not texto and nome:
        i = comum.unico_pelo_nome(
            nome,
            cad.nomes_operadoras,
            "operadora_nome",
            "Operadora",
            "importe (ou cadastre) a operadora antes",
        )
        return i, cad.nomes_operadoras[i][0]
    cnpj = cad.cnpjs.get(texto)
    if cnpj is None:
        try:
            cnpj = cad.cnpjs[texto] = validar_cnpj(texto)
        except DocumentoInvalido as exc:
            raise ErroDominio(str(exc), "operadora_cnpj") from None
    if cnpj not in cad.operadoras:
        raise ErroDominio(
            f"Operadora de CNPJ {formatar_cnpj(cnpj)} não cadastrada: importe (ou cadastre) a operadora antes.",
            "operadora_cnpj",
        )
    return cad.operadoras[cnpj]


def _fiscal(brutos: dict[str, Any], cad: _Cadastros) -> int:
    matricula = str(brutos.get("fiscal_matricula") or "").strip().upper()
    nome = str(brutos.get("fiscal_nome") or "").strip()
    if not matricula and nome:
        return comum.unico_pelo_nome(
            nome, cad.nomes_fiscais, "fiscal_nome", "Fiscal",
            "importe os fiscais antes (os que já saíram, como inativos)",
        )  # fmt: skip
    if matricula not in cad.fiscais:
        raise ErroDominio(
            f"Fiscal de matrícula “{matricula}” não cadastrado: importe os fiscais antes (os que já saíram, "
            "como inativos)."
            if matricula
            else "Informe a matrícula (ou o nome) do fiscal que lavrou o auto.",
            "fiscal_matricula",
        )
    return cad.fiscais[matricula]


def _veiculo(brutos: dict[str, Any], cad: _Cadastros, operadora_id: int) -> int | None:
    """The operator's vehicle the book names by plate (either form) or by prefixo; None when blank."""
    texto = str(brutos.get("veiculo") or "").strip()
    if not texto:
        return None
    try:
        achado = cad.veiculos.get((operadora_id, chave_placa(validar_placa(texto))))
    except DocumentoInvalido:
        achado = None
    if achado is None:
        achado = cad.veiculos.get((operadora_id, normalizar(texto)))
    if achado is None:
        raise ErroDominio(
            f"Veículo “{texto}” não cadastrado nesta operadora (pela placa ou pelo prefixo): importe os "
            "veículos antes, ou deixe a célula em branco.",
            "veiculo",
        )
    return achado


@dataclass(frozen=True)
class _Desfecho:
    """What happened after the auto, as the book records it, checked for consistency."""

    resultado: str | None
    decisao_em: date | None
    multa: Decimal
    dias: int
    definitiva: date | None
    recurso: str | None
    julgado: date | None
    pago_em: date | None
    pago: bool | None = None
    encerramento: str | None = None

    @property
    def fase(self) -> str:
        if self.encerramento is not None and self.recurso != "pendente":
            return "encerrado"
        if self.resultado is None:
            return "lavrado"
        if self.resultado == "arquivado":
            return "encerrado"
        if self.recurso == "pendente":
            return "em_recurso"
        return "encerrado" if self.definitiva or self.recurso == "provido" else "decidido"


def _desfecho(brutos: dict[str, Any], infracao: date, lavratura: date) -> _Desfecho:
    d = _Desfecho(
        resultado=brutos.get("resultado"),
        decisao_em=brutos.get("data_decisao"),
        multa=urm_valida(brutos.get("multa_ur") or "0", "multa_ur", "a multa (URM)"),
        dias=dias_validos(brutos.get("suspensao_dias"), "suspensao_dias", "a suspensão"),
        definitiva=brutos.get("data_definitiva"),
        recurso=brutos.get("recurso"),
        julgado=brutos.get("recurso_julgado_em"),
        pago_em=brutos.get("pago_em"),
        pago=brutos.get("pago"),
        encerramento=brutos.get("encerramento"),
    )
    hoje = relogio.hoje()
    for dia, rotulo in ((infracao, "A infração"), (d.decisao_em, "A decisão"), (d.definitiva, "A data definitiva"),
                        (d.julgado, "O julgamento do recurso"), (d.pago_em, "O pagamento")):  # fmt: skip
        if dia is not None and dia > hoje:
            raise ErroDominio(f"{rotulo} ({formatar_data(dia)}) está no futuro.")
    penalidade = bool(d.multa or d.dias)
    depois = bool(penalidade or d.definitiva or d.recurso or d.pago_em or d.pago)
    if d.resultado is None and d.decisao_em is not None:
        d = replace(d, resultado="aplicada" if penalidade else "arquivado")
    if d.resultado is None and depois:
        raise ErroDominio("Informe a decisão e sua data: há penalidade, recurso ou pagamento sem decisão.")
    if d.resultado is not None and d.decisao_em is None:
        raise ErroDominio("Informe a data da decisão.", "data_decisao")
    _ordem(lavratura, d.decisao_em, "a lavratura", "A decisão")
    if d.resultado == "arquivado" and depois:
        raise ErroDominio(
            "Um auto arquivado não tem multa, suspensão, recurso, pagamento nem data definitiva."
        )
    if d.resultado == "aplicada" and not penalidade:
        raise ErroDominio("Penalidade aplicada sem multa nem suspensão: informe a multa (URM) ou os dias.")
    _ordem(d.decisao_em, d.definitiva, "a decisão", "A data definitiva")
    _ordem(d.decisao_em, d.julgado, "a decisão", "O julgamento do recurso")
    _conferir_recurso(d)
    return d


def _conferir_recurso(d: _Desfecho) -> None:
    if d.recurso == "pendente" and (d.definitiva or d.julgado):
        raise ErroDominio(
            "Com o recurso pendente, a penalidade não é definitiva: deixe em branco a data definitiva e o "
            "julgamento."
        )
    if d.recurso in ("negado", "provido_parcialmente") and d.julgado is None:
        raise ErroDominio("Informe o dia em que o recurso foi julgado.", "recurso_julgado_em")
    if d.recurso == "provido" and d.definitiva is not None:
        raise ErroDominio("Recurso provido anula a penalidade: deixe em branco a data definitiva.")
    if (d.pago_em is not None or d.pago) and not d.multa:
        raise ErroDominio("Pagamento informado sem multa.", "pago_em" if d.pago_em else "pago")
    if d.pago is False and d.pago_em is not None:
        raise ErroDominio(
            f"A coluna do pagamento diz “não pago”, mas há o dia do pagamento ({formatar_data(d.pago_em)}).",
            "pago",
        )
    if d.encerramento == "pago" and d.pago is False:
        raise ErroDominio(
            "O caso está encerrado como pago, mas a coluna do pagamento diz “não pago”.", "pago"
        )
    if d.encerramento in ("pago", "divida_ativa") and not d.multa:
        raise ErroDominio("Encerrado como pago ou em dívida ativa, mas sem multa.", "encerramento")


def _valor_urm(s: so.Session, dia: date) -> Decimal | None:
    """The URM value of `dia` from the table read once per import (the law's own `vigente_em`); None for
    an old year the table does not reach (the R$ amount then stays unknown, as the book may not say it)."""
    tabela = s.info.get("importacao_tabela_urm")
    if tabela is None:
        tabela = s.info["importacao_tabela_urm"] = tabela_urm(s)
    try:
        return vigente_em(tabela, dia).valor
    except ErroLei:
        return None


def _multa_em_reais(s: so.Session, brutos: dict[str, Any]) -> None:
    """A fine the book writes in reais, as the URM amount the program keeps (REGRAS § 2: fines are in URM;
    R$ = URM × the value in force on the decision day, to the cent): the one amount with two decimals whose
    R$ is the book's, else refused — never a fine the notices would print differently from the book."""
    reais: Decimal = brutos["multa_reais"]
    decisao_em = brutos.get("data_decisao")
    if decisao_em is None:
        raise ErroDominio(
            "Informe a data da decisão: a multa em reais é convertida em URM pelo valor da URM desse dia.",
            "multa_reais",
        )
    valor = _valor_urm(s, decisao_em)
    if valor is None:
        raise ErroDominio(
            f"Não há valor da URM em vigor em {formatar_data(decisao_em)} para converter a multa em URM: "
            "cadastre-o (Administração › Tabela da URM) ou informe a multa na coluna Multa (URM).",
            "multa_reais",
        )
    ur = (reais / valor).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if urm_para_reais(ur, valor) != reais:
        raise ErroDominio(
            f"{formatar_reais(reais)} não corresponde a uma multa em URM com duas casas: com a URM de "
            f"{formatar_data(decisao_em)} a {formatar_reais(valor)}, {formatar_urm(ur)} são "
            f"{formatar_reais(urm_para_reais(ur, valor))}. Confira o valor ou informe a multa em URM.",
            "multa_reais",
        )
    informada = brutos.get("multa_ur")
    if informada is not None and informada != "" and Decimal(str(informada)) != ur:
        raise ErroDominio(
            f"A multa em reais ({formatar_reais(reais)}) é {formatar_urm(ur)} com a URM de "
            f"{formatar_data(decisao_em)}, e a coluna da multa em URM diz {formatar_urm(Decimal(str(informada)))}: "
            "confira qual está certa.",
            "multa_reais",
        )
    brutos["multa_ur"] = ur


def _dispositivo(s: so.Session, texto: str) -> DispositivoCitavel:
    """`dispositivo_citavel` once per provision of the file (the catalogue does not change meanwhile)."""
    cache: dict[str, DispositivoCitavel | ErroDominio] = s.info.setdefault("importacao_dispositivos", {})
    codigo = _codigo_dispositivo(texto)
    if codigo not in cache:
        try:
            cache[codigo] = dispositivo_citavel(s, codigo, "dispositivo")
        except ErroDominio as exc:
            cache[codigo] = exc
    achado = cache[codigo]
    if isinstance(achado, ErroDominio):
        raise ErroDominio(achado.mensagem, "dispositivo")
    return achado


_LOCAL_SEM_REGISTRO = "local não registrado no livro"
_FATOS_SEM_REGISTRO = "Registro do livro de autos (importado)."
_PRESUMIDA = "_definitiva_presumida"
"""The key, in a stored auto's values, of a final day the import presumed (not the book's)."""


def _guardados(s: so.Session) -> dict[tuple[int, int], dict[str, Any]]:
    """The values an imported auto holds, field by field as a row would give them (one query): what a
    blank cell of a corrected file keeps, or clears when the user asks it (REGRAS § 3 rule 1's presumed
    final day apart: it is not the book's)."""
    a = AutoInfracao
    colunas = (a.ano, a.numero, a.data_infracao, a.data_lavratura, a.local, a.descricao_fatos, Veiculo.placa,
               Decisao.data, a.multa_ur, a.suspensao_dias, a.data_definitiva, a.definitiva_presumida,
               Recurso.resultado, Recurso.julgado_em, Pagamento.pago_em, Pagamento.valor_pago,
               a.encerrado_no_livro)  # fmt: skip
    consulta = (
        sa.select(*colunas)
        .outerjoin(Veiculo, Veiculo.id == AutoInfracao.veiculo_id)
        .outerjoin(Decisao, Decisao.auto_id == AutoInfracao.id)
        .outerjoin(Recurso, Recurso.decisao_id == Decisao.id)
        .outerjoin(Pagamento, Pagamento.decisao_id == Decisao.id)
        .where(AutoInfracao.importado_de.is_not(None))
    )
    guardados: dict[tuple[int, int], dict[str, Any]] = {}
    for (ano, numero, infracao, lavratura, local, fatos, placa, decisao, multa, dias, definitiva, presumida,
         recurso, julgado, pago_em, valor_pago, encerramento) in s.execute(consulta):  # fmt: skip
        valores = {
            "data_lavratura": lavratura if lavratura != infracao else None,
            "local": local if local != _LOCAL_SEM_REGISTRO else None,
            "descricao_fatos": fatos if fatos != _FATOS_SEM_REGISTRO else None,
            "veiculo": placa,
            "data_decisao": decisao,
            "multa_ur": multa or None,
            "suspensao_dias": dias or None,
            # A final day the book gave on an appeal is the judgment's: the appeal's column says it.
            "data_definitiva": definitiva if not presumida and definitiva != julgado else None,
            "recurso": recurso,
            "recurso_julgado_em": julgado,
            "pago_em": pago_em,
            "valor_pago": valor_pago,
            "encerramento": encerramento,
        }
        guardados[(ano, numero)] = {k: v for k, v in valores.items() if v is not None}
        if presumida and definitiva is not None:
            guardados[(ano, numero)][_PRESUMIDA] = definitiva
    return guardados


def _coluna_do_campo(campo: str, mapa: Mapeamento) -> str:
    """The file's field that says a stored value: the fine in URM is said by a fine in reais when the file
    has that column and not the URM one."""
    if campo == "multa_ur" and campo not in mapa.colunas and "multa_reais" in mapa.colunas:
        return "multa_reais"
    return campo


def _completar(
    brutos: dict[str, Any], guardado: dict[str, Any], av: Avaliada, mapa: Mapeamento, limpar: bool
) -> None:
    """A corrected file over an imported auto: a blank cell keeps the stored value (listed in `mantidas`),
    or clears it when the user asked (`limpas`: the preview says which); a column the file lacks keeps it."""
    for campo, valor in guardado.items():
        if campo == _PRESUMIDA:
            if limpar and "data_definitiva" in mapa.colunas and brutos.get("data_definitiva") is None:
                av.limpas.append("data_definitiva")
            elif brutos.get("data_definitiva") is None:
                brutos[_PRESUMIDA] = valor
            continue
        coluna = _coluna_do_campo(campo, mapa)
        if coluna in av.ilegiveis or brutos.get(coluna) not in (None, ""):
            continue  # the file says it (a fine in reais gives the URM amount by conversion)
        if coluna not in mapa.colunas:
            brutos[campo] = valor
        elif limpar:
            av.limpas.append(coluna)
        else:
            brutos[campo] = valor
            av.mantidas.append(coluna)
    av.limpas.sort(key=mapa.colunas.__getitem__)
    av.mantidas.sort(key=mapa.colunas.__getitem__)


class _Problemas(Exception):
    """Every problem of one row, each already naming its column."""

    def __init__(self, mensagens: list[str]) -> None:
        super().__init__(" ".join(mensagens))
        self.mensagens = mensagens


def _definitiva(d: _Desfecho, brutos: dict[str, Any], presumir: int | None) -> tuple[_Desfecho, bool, bool]:
    """The day the penalty became final (REGRAS § 3 rule 1) as the book says it, or presumed; whether the
    book leaves it out of recidivism, and whether the day is presumed."""
    resultado, decisao_em, definitiva, recurso = d.resultado, d.decisao_em, d.definitiva, d.recurso
    if definitiva is None and recurso in ("negado", "provido_parcialmente") and d.julgado is not None:
        # REGRAS § 3 rule 1: on an appeal, the penalty becomes final the day the Prefeito judges it; the
        # book saying that day says the final one (no presumption).
        definitiva = d.julgado
        d = replace(d, definitiva=definitiva)
    sem_definitiva = resultado == "aplicada" and definitiva is None and recurso is None
    presumida = False
    guardada = brutos.get(_PRESUMIDA)
    if sem_definitiva and presumir is None and guardada is not None:
        # Presumed at an earlier import, and the file still does not say it: kept as it was, presumed.
        definitiva, presumida = guardada, True
        d = replace(d, definitiva=guardada)
    elif sem_definitiva and presumir is not None and decisao_em is not None:
        # REGRAS § 3 rule 1: the one stated presumption, recorded with the auto. Not final yet by it (a
        # recent decision): left without a final day, as any decision still open to appeal.
        presumido = decisao_em + timedelta(days=presumir)
        if presumido <= relogio.hoje():
            definitiva, presumida = presumido, True
            d = replace(d, definitiva=presumido)
    return d, sem_definitiva, presumida


def _ler(
    s: so.Session,
    brutos: dict[str, Any],
    cad: _Cadastros,
    presumir: int | None,
    nomear: Callable[[ErroDominio], str],
) -> _Historico:
    """The row as an auto and what followed it; `_Problemas` with every independent problem at once (the
    number, the operator, the provision, the dates, the inspector, the outcome)."""
    problemas: list[str] = []

    def tentar(passo: Callable[[], _T]) -> _T | None:
        try:
            return passo()
        except ErroDominio as exc:
            problemas.append(nomear(exc))
            return None

    chave = tentar(lambda: _numero(brutos))
    operadora = tentar(lambda: _operadora_do_auto(brutos, cad))
    veiculo_id = tentar(lambda: _veiculo(brutos, cad, operadora[0])) if operadora is not None else None
    dispositivo = tentar(lambda: _dispositivo(s, str(brutos.get("dispositivo") or "")))
    infracao = brutos.get("data_infracao")
    if infracao is None and "data_infracao" in brutos:
        problemas.append(nomear(ErroDominio("Informe a data da infração.", "data_infracao")))
    lavratura = brutos.get("data_lavratura") or infracao
    fiscal_id = tentar(lambda: _fiscal(brutos, cad))
    if brutos.get("multa_reais"):
        tentar(lambda: _multa_em_reais(s, brutos))
    d = None
    if infracao is not None and lavratura is not None:
        tentar(lambda: _ordem(infracao, lavratura, "a infração", "A lavratura"))
        d = tentar(lambda: _desfecho(brutos, infracao, lavratura))
    if (
        problemas
        or chave is None
        or operadora is None
        or dispositivo is None
        or fiscal_id is None
        or d is None
    ):
        raise _Problemas(problemas or ["Linha incompleta."])
    assert infracao is not None and lavratura is not None
    ano, numero = chave
    operadora_id, razao = operadora
    resultado, decisao_em, multa, dias = d.resultado, d.decisao_em, d.multa, d.dias
    definitiva, recurso, pago_em = d.definitiva, d.recurso, d.pago_em
    d, sem_definitiva, presumida = _definitiva(d, brutos, presumir)
    definitiva = d.definitiva
    fase = d.fase
    valor_urm = None
    reais = Decimal(0)
    if resultado == "aplicada" and decisao_em is not None and multa:
        valor_urm = _valor_urm(s, decisao_em)
        if valor_urm is not None:
            reais = urm_para_reais(multa, valor_urm)
    local = str(brutos.get("local") or "") or _LOCAL_SEM_REGISTRO
    auto = {
        "ano": ano,
        "numero": numero,
        "operadora_id": operadora_id,
        "dispositivo_codigo": dispositivo.codigo,
        "tipo": dispositivo.tipo,
        "data_infracao": infracao,
        "hora_infracao": None,
        "local": local,
        "data_lavratura": lavratura,
        "hora_lavratura": time(0, 0),
        "local_lavratura": local,
        "descricao_fatos": str(brutos.get("descricao_fatos") or "") or _FATOS_SEM_REGISTRO,
        "infrator_nome": razao,
        "veiculo_id": veiculo_id,
        "fiscal_id": fiscal_id,
        "fase": fase,
        "data_decisao": decisao_em if resultado == "aplicada" else None,
        "data_definitiva": definitiva if resultado == "aplicada" and recurso != "provido" else None,
        "multa_ur": multa,
        "suspensao_dias": dias,
        "penalidade_anulada": recurso == "provido",
        "definitiva_presumida": presumida,
        "encerrado_no_livro": d.encerramento,
    }
    decisao = None
    if resultado is not None:
        decisao = {
            "data": decisao_em,
            "resultado": resultado,
            "multa_ur": multa,
            "valor_urm": valor_urm,
            "multa_reais": reais,
            "suspensao_dias": dias,
        }
    recurso_reg = None
    if recurso is not None:
        recurso_reg = {
            "protocolado_em": decisao_em,
            "tempestivo": True,
            "resultado": recurso,
            "julgado_em": d.julgado,
            "multa_ur_nova": multa if recurso == "provido_parcialmente" else None,
            "suspensao_dias_nova": dias if recurso == "provido_parcialmente" else None,
        }
    pagamento = None
    if resultado == "aplicada" and multa:
        pago = brutos.get("valor_pago")
        if recurso == "provido":
            situacao = "cancelado"
        elif pago_em or d.pago or d.encerramento == "pago":
            situacao = "pago"
        elif d.encerramento == "divida_ativa":
            situacao = "divida_ativa"
        else:
            situacao = "aberto"
        pagamento = {"situacao": situacao, "valor": reais, "pago_em": pago_em, "valor_pago": pago}
    return _Historico(ano, numero, auto, decisao, recurso_reg, pagamento, sem_definitiva and not presumida)


def _avaliar(
    s: so.Session,
    planilha: Planilha,
    mapeamento: Mapping[str, str] | None,
    progresso: Progresso | None,
    presumir: int | None = None,
    limpar: bool = False,
) -> tuple[Any, list[tuple[Avaliada, _Historico | None, AutoInfracao | None]]]:
    mapa = mapear("autos", planilha.cabecalhos, mapeamento)
    comum.conferir_mapeamento(planilha, mapa, "autos")
    if presumir is not None and presumir < PRESUNCAO_MINIMA:
        raise ErroDominio(
            f"A presunção da data definitiva é de no mínimo {PRESUNCAO_MINIMA} dias depois da decisão "
            "(15 para a intimação e 15 para o recurso).",
            "presumir",
        )
    cad = _cadastros(s)
    existentes = {(a.ano, a.numero): a for a in s.scalars(sa.select(AutoInfracao))}
    guardados = _guardados(s)
    vistos: dict[tuple[int, int], int] = {}

    def avaliar(
        av: Avaliada, brutos: dict[str, Any], nomear: Callable[[ErroDominio], str]
    ) -> tuple[_Historico, AutoInfracao | None] | None:
        if guardados:
            try:
                guardado = guardados.get(_numero(brutos))
            except ErroDominio:
                guardado = None  # `_ler` says what is wrong with the number
            if guardado is not None:
                _completar(brutos, guardado, av, mapa, limpar)
        try:
            historico = _ler(s, brutos, cad, presumir, nomear)
        except _Problemas as exc:
            av.problemas.extend(exc.mensagens)
            return None
        chave = (historico.ano, historico.numero)
        rotulo = f"AI nº {historico.numero:04d}/{historico.ano}"
        if chave in vistos:
            raise ErroDominio(f"Linha repetida: a linha {vistos[chave]} da planilha já traz o {rotulo}.")
        existente = existentes.get(chave)
        if existente is not None and existente.importado_de is None:
            raise ErroDominio(f"O {rotulo} foi lavrado no programa: um auto do programa não é substituído.")
        if av.problemas:
            return None
        vistos[chave] = av.numero
        _mostrar_urm(av, mapa, brutos, historico)
        if existente is None:
            av.acao = "nova"
        elif all(getattr(existente, c) == v for c, v in historico.auto.items()) and _filhos_iguais(
            s, existente, historico
        ):
            av.acao = "igual"
        else:
            av.acao = "atualizada"
        return historico, existente

    saida = []
    for av, avaliado in comum.avaliar_linhas(planilha, mapa, "autos", progresso, avaliar):
        historico, existente = avaliado if avaliado is not None else (None, None)
        saida.append((av, historico, existente))
    return mapa, saida


def _mostrar_urm(av: Avaliada, mapa: Mapeamento, brutos: dict[str, Any], h: _Historico) -> None:
    """The preview shows a fine in reais with the URM amount it was read as ("225,00 = 1,50 URM")."""
    indice = mapa.colunas.get("multa_reais")
    if indice is not None and brutos.get("multa_reais"):
        valores = list(av.valores)
        valores[indice] = f"{valores[indice]} = {formatar_urm(h.auto['multa_ur'])}"
        av.valores = tuple(valores)


def aviso_definitivas(
    avaliadas: Sequence[tuple[Avaliada, _Historico | None, Any]], presumir: int | None
) -> str:
    """REGRAS § 3 rule 1, imported priors: never left out silently. How many autos the book leaves out of
    recidivism (a penalty applied, no appeal, no final day), and the one presumption on offer."""
    fora = sum(1 for a, h, _e in avaliadas if h is not None and not a.problemas and h.sem_definitiva)
    presumidas = sum(
        1 for a, h, _e in avaliadas if h is not None and not a.problemas and h.auto["definitiva_presumida"]
    )
    partes = []
    if presumidas and presumir is None:
        partes.append(
            f"{presumidas} {'auto mantém' if presumidas == 1 else 'autos mantêm'} a data definitiva presumida "
            "na importação anterior (o livro ainda não a diz)."
        )
    elif presumidas:
        partes.append(
            f"{presumidas} {'auto terá' if presumidas == 1 else 'autos terão'} a data definitiva presumida: "
            f"{presumir} dias depois da decisão (registrado em cada auto; o painel da sanção diz "
            "“definitiva presumida”)."
        )
    if fora:
        um = fora == 1
        partes.append(
            f"{fora} {'auto com penalidade aplicada não tem' if um else 'autos com penalidade aplicada não têm'} "
            "a data em que a penalidade se tornou definitiva nem recurso registrado: "
            f"{'ele não conta' if um else 'eles não contam'} para a reincidência"
            + (
                ". Para contá-los, presuma a data definitiva: um número de dias depois da decisão (no mínimo "
                f"{PRESUNCAO_MINIMA})."
                if presumir is None
                else " (a data presumida ainda não chegou)."
            )
        )
    return " ".join(partes)


def _filhos_iguais(s: so.Session, auto: AutoInfracao, h: _Historico) -> bool:
    decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    if (decisao is None) != (h.decisao is None):
        return False
    if decisao is None or h.decisao is None:
        return True
    if any(getattr(decisao, c) != v for c, v in h.decisao.items()):
        return False
    for modelo, valores in ((Recurso, h.recurso), (Pagamento, h.pagamento)):
        registro = s.scalar(sa.select(modelo).where(modelo.decisao_id == decisao.id))
        if (registro is None) != (valores is None):
            return False
        if (
            registro is not None
            and valores is not None
            and any(getattr(registro, c) != v for c, v in valores.items())
        ):
            return False
    return True


def previa_autos(
    sessao: so.Session,
    planilha: Planilha,
    *,
    mapeamento: Mapping[str, str] | None = None,
    progresso: Progresso | None = None,
    presumir_definitiva: int | None = None,
    limpar_vazias: bool = False,
) -> Previa:
    """Every row with its problems and what importing it would do; writes nothing. The notes say how many
    autos the book leaves out of recidivism and offer the presumption (`presumir_definitiva` days), and
    what blank cells do to the autos a corrected book updates (kept, or cleared with `limpar_vazias`)."""
    mapa, avaliadas = _avaliar(sessao, planilha, mapeamento, progresso, presumir_definitiva, limpar_vazias)
    notas = comum.avisos(planilha, mapa, "autos") + comum.notas_vazias([a for a, _h, _e in avaliadas])
    nota = aviso_definitivas(avaliadas, presumir_definitiva)
    return Previa("autos", planilha.nome_arquivo, planilha.sha256, planilha.cabecalhos, mapa,
                  tuple(comum.publica(a) for a, _h, _e in avaliadas), (*notas, nota) if nota else notas)  # fmt: skip


def importar_autos(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    planilha: Planilha,
    *,
    somente_validas: bool = False,
    mapeamento: Mapping[str, str] | None = None,
    progresso: Progresso | None = None,
    presumir_definitiva: int | None = None,
    limpar_vazias: bool = False,
) -> ResultadoImportacao:
    """Import the history in one transaction (refused whole on an invalid row unless `somente_validas`).
    `presumir_definitiva`: the final day of a penalty the book does not date, N days after the decision.
    A blank cell keeps an imported auto's value unless `limpar_vazias`."""
    exigir_papel(ator, "administrador", acao="importar o histórico de autos")
    with uow:
        s = uow.session
        _mapa, avaliadas = _avaliar(s, planilha, mapeamento, progresso, presumir_definitiva, limpar_vazias)
        recusadas = tuple(comum.publica(a) for a, _h, _e in avaliadas if a.problemas)
        comum.recusar_se_houver(recusadas, somente_validas, planilha)
        validas = [(a, h, e) for a, h, e in avaliadas if not a.problemas and h is not None]
        _gravar(s, ator, planilha, validas, progresso)
        uow.commit()
    return comum.resultado([a for a, _h, _e in validas], recusadas, planilha)


def _gravar(
    s: so.Session,
    ator: Ator,
    planilha: Planilha,
    validas: Sequence[tuple[Avaliada, _Historico, AutoInfracao | None]],
    progresso: Progresso | None,
) -> None:
    origem = {"arquivo": planilha.nome_arquivo, "sha256": planilha.sha256}
    marca = {"importado_de": planilha.nome_arquivo, "importado_sha256": planilha.sha256}
    pendentes: list[tuple[Avaliada, _Historico, AutoInfracao, dict[str, Any] | None]] = []
    sem_proxima = f"Não registrada no livro de autos (auto importado de {planilha.nome_arquivo})."
    total = len(validas)
    for k, (av, h, existente) in enumerate(validas):
        if progresso is not None and k % LOTE == 0:
            progresso(k, total, "Gravando")
        if h is None or av.acao == "igual":
            continue
        if existente is None:
            auto = AutoInfracao(
                **h.auto,
                **marca,
                proxima_penalidade=sem_proxima,
                lavrado_por=ator.login,
                alterado_por=ator.login,
            )
            s.add(auto)
            pendentes.append((av, h, auto, None))
        else:
            antes = auditoria.instantaneo(existente)
            for chave, valor in {**h.auto, **marca}.items():
                setattr(existente, chave, valor)
            existente.alterado_por = ator.login
            pendentes.append((av, h, existente, antes))
    comum.reservar_ids(s, [auto for _a, _h, auto, antes in pendentes if antes is None])
    s.flush()
    escritos = []
    for av, h, auto, imagem_anterior in pendentes:
        novo = imagem_anterior is None
        filhos = _filhos_novos(s, ator, auto, h) if novo else _filhos(s, ator, auto, h)
        escritos.append((av, auto, imagem_anterior, filhos))
    comum.reservar_ids(s, [r for _a, _auto, antes, filhos in escritos if antes is None for r, _x in filhos])
    s.flush()
    atos: list[tuple[str, str, object, dict[str, Any] | None, dict[str, Any] | None]] = []
    for av, auto, imagem_anterior, filhos in escritos:
        extra = {"_importacao": {**origem, "linha": av.numero}}
        imagem = {**auditoria.instantaneo(auto), "testemunhas": [], **extra}
        atos.append(("importar_auto", "auto_infracao", auto.id, imagem_anterior, imagem))
        for registro, anterior in filhos:
            atos.append(
                ("importar_auto", registro.__tablename__, registro.id, anterior,
                 {**auditoria.instantaneo(registro), **extra})
            )  # fmt: skip
    _numeracao(s, [(h.ano, h.numero) for _a, h, _e in validas])
    if progresso is not None:
        progresso(total, total, "Registrando na auditoria")
    auditoria.registrar_lote(s, ator, atos)


def _valores_decisao(ator: Ator, auto: AutoInfracao, h: _Historico) -> dict[str, Any]:
    assert h.decisao is not None
    return {
        **h.decisao,
        "reincidencia": 0,
        "fundamentacao": f"Decisão registrada no livro de autos; importada de {auto.importado_de}.",
        "secretario": ator.login,
    }


def _filhos_novos(
    s: so.Session, ator: Ator, auto: AutoInfracao, h: _Historico
) -> list[tuple[Any, dict[str, Any] | None]]:
    """A new auto's decision, appeal and payment: no query, linked by relationship, flushed with the rest."""
    if h.decisao is None:
        return []
    decisao = Decisao(auto=auto, **_valores_decisao(ator, auto, h), alterado_por=ator.login)
    novos: list[Any] = [decisao]
    if h.recurso is not None:
        novos.append(
            Recurso(decisao=decisao, **h.recurso, registrado_por=ator.login, alterado_por=ator.login)
        )
    if h.pagamento is not None:
        novos.append(Pagamento(decisao=decisao, **h.pagamento, alterado_por=ator.login))
    s.add_all(novos)
    return [(registro, None) for registro in novos]


def _filhos(
    s: so.Session, ator: Ator, auto: AutoInfracao, h: _Historico
) -> list[tuple[Any, dict[str, Any] | None]]:
    """The decision, appeal and payment rows of the auto, created or brought in line with the file."""
    escritos: list[tuple[Any, dict[str, Any] | None]] = []
    decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
    if h.decisao is None:
        return escritos
    valores = _valores_decisao(ator, auto, h)
    decisao = _aplicar(s, ator, Decisao, decisao, {"auto_id": auto.id}, valores, escritos)
    s.flush()
    if h.recurso is not None:
        recurso = s.scalar(sa.select(Recurso).where(Recurso.decisao_id == decisao.id))
        _aplicar(
            s,
            ator,
            Recurso,
            recurso,
            {"decisao_id": decisao.id},
            {**h.recurso, "registrado_por": ator.login},
            escritos,
        )
    if h.pagamento is not None:
        pagamento = s.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id))
        _aplicar(s, ator, Pagamento, pagamento, {"decisao_id": decisao.id}, h.pagamento, escritos)
    return escritos


def _aplicar(
    s: so.Session,
    ator: Ator,
    modelo: Any,
    registro: Any,
    chave: dict[str, Any],
    valores: dict[str, Any],
    escritos: list[tuple[Any, dict[str, Any] | None]],
) -> Any:
    if registro is None:
        registro = modelo(**chave, **valores, alterado_por=ator.login)
        s.add(registro)
        escritos.append((registro, None))
        return registro
    if all(getattr(registro, c) == v for c, v in valores.items()):
        return registro
    antes = auditoria.instantaneo(registro)
    for c, v in valores.items():
        setattr(registro, c, v)
    registro.alterado_por = ator.login
    escritos.append((registro, antes))
    return registro


def _numeracao(s: so.Session, numeros: list[tuple[int, int]]) -> None:
    """Each year's sequence moves past its highest imported number (never back)."""
    maiores: dict[int, int] = {}
    for ano, numero in numeros:
        maiores[ano] = max(maiores.get(ano, 0), numero)
    dialeto = s.get_bind().dialect.name
    for ano, maior in maiores.items():
        valores = {"serie": "AI", "ano": ano, "ultimo": 0}
        insercao = (postgresql.insert if dialeto == "postgresql" else sqlite.insert)(Numeracao).values(
            **valores
        )
        s.execute(insercao.on_conflict_do_nothing())
        s.execute(
            sa.update(Numeracao)
            .where(Numeracao.serie == "AI", Numeracao.ano == ano, Numeracao.ultimo < maior)
            .values(ultimo=maior)
            .execution_options(synchronize_session=False)
        )
