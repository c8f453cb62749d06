"""Reincidência, faixa de multa e suspensão do art. 7º da Lei nº 2.413/1978 (REGRAS.md § 3).

Cada regra de REGRAS.md § 3 é um passo nomeado deste módulo, na mesma ordem, e cada passo deixa em
``Sancao.fundamentos`` uma frase que cita o artigo e o parágrafo aplicados: a Secretaria precisa poder
defender a faixa diante do advogado da operadora, e o jurista precisa poder conferir o código com a lei.

O cálculo é puro e rápido (o painel de sanção o chama a cada alteração do formulário). A "recursão" da
regra 3 é uma cadeia simples — o nível de um fato só depende do nível de um único fato anterior — e por
isso é percorrida num laço; o resultado fica em cache pela combinação (tipo, dia, antecedentes ordenados).
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

from secretaria.lei.catalogo import TIPOS
from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data, formatar_decimal

__all__ = [
    "CITACAO_TIPO",
    "FAIXA_PRIMEIRA_PENALIDADE",
    "JANELA_MESES",
    "NIVEL_SUSPENSAO",
    "SUSPENSAO_MAXIMA_DIAS",
    "SUSPENSAO_PRIMEIRA_DIAS",
    "TETO_MULTA_UR",
    "Antecedente",
    "Citacoes",
    "Classificacao",
    "Sancao",
    "Situacao",
    "TipoInvalido",
    "calcular_sancao",
    "citacoes",
    "classificar_antecedentes",
    "conferir_penalidade",
    "faixa_multa",
    "limite_reincidencia",
    "somar_meses",
]

JANELA_MESES: dict[str, int] = {"A": 1, "B": 2, "C": 4, "D": 6, "E": 8}
"""Art. 7º, § 4º: depois de quantos meses a infração anterior deixa de gerar reincidência."""

FAIXA_PRIMEIRA_PENALIDADE: dict[str, tuple[Decimal, Decimal]] = {
    "A": (Decimal("0.10"), Decimal("0.50")),
    "B": (Decimal("0.50"), Decimal("1.00")),
    "C": (Decimal("1.00"), Decimal("2.00")),
    "D": (Decimal("2.00"), Decimal("3.00")),
    "E": (Decimal("3.00"), Decimal("5.00")),
}
"""Art. 7º, § 1º: multa da primeira penalidade, em URM (mínimo, máximo)."""

TETO_MULTA_UR = Decimal("10.00")
"""Art. 7º, I: a multa vai até 10 vezes a unidade de referência."""

_MAIOR_FAIXA_ESCRITA = Decimal(1000)
"""Acima disto a faixa dobrada (§ 2º) não é escrita por extenso nos fundamentos: só se diz que passa do teto."""

NIVEL_SUSPENSAO: dict[str, int] = {"A": 6, "B": 5, "C": 4, "D": 3, "E": 2}
"""Art. 7º, § 5º: nível de reincidência a partir do qual a suspensão pode ser aplicada."""

SUSPENSAO_PRIMEIRA_DIAS: tuple[int, int] = (1, 10)
"""Art. 7º, § 6º: a primeira suspensão vai de 1 a 10 dias."""

SUSPENSAO_MAXIMA_DIAS = 30
"""Art. 7º, II: a suspensão vai de 1 a 30 dias; o § 7º (em dobro) respeita esse máximo."""


class TipoInvalido(ErroLei):
    """Tipo de infração fora de A–E (inclusive o ``None`` do Art. 1º, X ainda sem tipo definido)."""


@dataclass(frozen=True)
class Antecedente:
    """Infração anterior da mesma operadora ao mesmo dispositivo, com o que foi decidido sobre ela.

    ``data_decisao`` é o dia em que a penalidade se tornou definitiva (REGRAS.md § 3, regra 1: o art. 7º,
    caput, só a aplica "após ... decisão em última instância"), ``None`` enquanto não o é — o nome fica o da
    API pública.
    """

    data_infracao: date
    data_decisao: date | None
    multa_ur: Decimal = Decimal(0)
    suspensao_dias: int = 0
    anulada: bool = False


@dataclass(frozen=True)
class Sancao:
    """A penalidade cabível para o novo fato: faixa de multa, suspensão e os fundamentos de cada passo."""

    reincidencia: int
    multa_min_ur: Decimal
    multa_max_ur: Decimal
    suspensao_cabivel: bool
    suspensao_min_dias: int | None
    suspensao_max_dias: int | None
    fundamentos: tuple[str, ...]
    suspensao_anterior_dias: int | None = None
    """§ 7º: os dias da suspensão anterior que a nova dobra (None fora do § 7º); o dobro acima de 30 dias é
    limitado pelo art. 7º, II, e o auto diz as duas coisas (REGRAS § 5)."""

    @property
    def descricao(self) -> str:
        """Uma frase para o auto ("próxima penalidade a ser aplicada", art. 10, V) e para os avisos."""
        texto = f"Multa de {_intervalo(self.multa_min_ur, self.multa_max_ur)} URM"
        if self.suspensao_min_dias is not None and self.suspensao_max_dias is not None:
            if self.suspensao_min_dias == self.suspensao_max_dias:
                texto += f" e suspensão de {_dias(self.suspensao_max_dias)}"
            else:
                texto += f" e suspensão de {self.suspensao_min_dias} a {_dias(self.suspensao_max_dias)}"
        nivel = f"{self.reincidencia}ª reincidência" if self.reincidencia else "infração primária"
        return f"{texto} ({nivel})."


class Situacao(StrEnum):
    """Por que um antecedente conta, ou não, para a reincidência."""

    CONTADO = "contado"
    """Integra a cadeia de reincidência (§§ 3º e 4º)."""
    ANULADO = "anulado"
    """A penalidade foi anulada (recurso provido ou auto cancelado): não houve punição."""
    POSTERIOR = "posterior"
    """A infração não é anterior ao novo fato."""
    SEM_DECISAO = "sem_decisao"
    """Sem penalidade definitiva: autuado, mas não punido (§ 3º)."""
    DECIDIDO_DEPOIS = "decidido_depois"
    """Penalidade definitiva só depois do novo fato, ou depois da infração seguinte da cadeia (§ 3º)."""
    FORA_DO_PRAZO = "fora_do_prazo"
    """Punido, mas a infração seguinte veio depois do prazo de reincidência (§ 4º)."""


@dataclass(frozen=True)
class Classificacao:
    """O que o cálculo fez com um antecedente, para a tela listar cada um com o motivo."""

    antecedente: Antecedente
    situacao: Situacao
    punido: bool
    """Regra 1 (§ 3º) em relação ao novo fato: definitivo até o dia do fato, não anulado, infração anterior."""
    explicacao: str

    @property
    def contado(self) -> bool:
        return self.situacao is Situacao.CONTADO


def somar_meses(dia: date, meses: int) -> date:
    """Soma meses de calendário, de data a data; se o mês de destino não tem o dia, usa o último dia dele.

    31/01 + 1 mês = 28/02 (29/02 em ano bissexto), como manda REGRAS.md § 3, regra 2.
    """
    indice = dia.year * 12 + (dia.month - 1) + meses
    ano, mes = divmod(indice, 12)
    mes += 1
    return date(ano, mes, min(dia.day, calendar.monthrange(ano, mes)[1]))


def _validar_tipo(tipo: str) -> None:
    if tipo not in TIPOS:
        raise TipoInvalido(
            f"Tipo de infração inválido: “{tipo}”. O art. 7º, § 1º, prevê os tipos A, B, C, D e E."
        )


def limite_reincidencia(tipo: str, data_infracao: date) -> date:
    """Último dia em que um novo fato ainda é reincidência de uma infração punida em ``data_infracao``."""
    _validar_tipo(tipo)
    return somar_meses(data_infracao, JANELA_MESES[tipo])


def faixa_multa(tipo: str, nivel: int) -> tuple[Decimal, Decimal]:
    """Faixa da multa em URM no nível de reincidência dado: § 1º × 2ⁿ (§ 2º), cada extremo até 10 URM (I)."""
    _validar_tipo(tipo)
    if nivel < 0:
        raise ErroLei(f"Nível de reincidência inválido: {nivel}.")
    minimo, maximo = FAIXA_PRIMEIRA_PENALIDADE[tipo]
    fator = 2**nivel
    return min(minimo * fator, TETO_MULTA_UR), min(maximo * fator, TETO_MULTA_UR)


def calcular_sancao(tipo: str, data_infracao: date, antecedentes: Iterable[Antecedente]) -> Sancao:
    """A penalidade cabível para uma infração do ``tipo`` ocorrida em ``data_infracao``.

    ``antecedentes`` são as infrações anteriores da mesma operadora ao mesmo dispositivo, em qualquer ordem.
    """
    _validar_tipo(tipo)
    return _calcular(tipo, data_infracao, _ordenar(antecedentes))[0]


def classificar_antecedentes(
    tipo: str, data_infracao: date, antecedentes: Iterable[Antecedente]
) -> tuple[Classificacao, ...]:
    """Cada antecedente, na ordem recebida, com a situação e o motivo, como o cálculo da sanção os viu."""
    _validar_tipo(tipo)
    lista = tuple(antecedentes)
    ordenados = _ordenar(lista)
    por_antecedente = dict(zip(ordenados, _calcular(tipo, data_infracao, ordenados)[1], strict=True))
    return tuple(replace(por_antecedente[a], antecedente=a) for a in lista)


CITACAO_TIPO = "art. 7º, § 1º"
"""Onde a lei fixa a classe (tipo) de cada infração e a multa da primeira penalidade."""


@dataclass(frozen=True)
class Citacoes:
    """Os dispositivos do art. 7º em que se apoia cada parte de uma sanção, como o painel e os avisos os citam."""

    dispositivo: str
    """A classe (tipo) da infração: § 1º."""
    antecedentes: str
    """Quais infrações anteriores contam (autuadas e punidas antes do fato): § 3º."""
    reincidencia: str
    """O nível de reincidência: §§ 3º e 4º (punidas, e dentro do prazo do tipo)."""
    multa: str
    suspensao: str


def citacoes(tipo: str, sancao: Sancao) -> Citacoes:
    """Os fundamentos legais de ``sancao`` (calculada para uma infração do ``tipo``), parte por parte."""
    _validar_tipo(tipo)
    alinea = tipo.lower()
    if sancao.reincidencia == 0:
        multa = f"art. 7º, § 1º, alínea {alinea}"
    else:
        teto = " e inciso I (teto de 10,00 URM)" if sancao.multa_max_ur >= TETO_MULTA_UR else ""
        multa = f"art. 7º, § 1º, alínea {alinea}, e § 2º (em dobro a cada reincidência){teto}"
    if not sancao.suspensao_cabivel:
        suspensao = f"art. 7º, § 5º, alínea {alinea}"
    elif sancao.suspensao_min_dias == sancao.suspensao_max_dias:
        suspensao = "art. 7º, §§ 5º, 7º e 8º; inciso II (até 30 dias)"
    else:
        suspensao = "art. 7º, §§ 5º, 6º e 8º"
    return Citacoes(
        dispositivo=CITACAO_TIPO,
        antecedentes="art. 7º, § 3º",
        reincidencia="art. 7º, §§ 3º e 4º",
        multa=multa,
        suspensao=suspensao,
    )


def conferir_penalidade(sancao: Sancao, multa_ur: Decimal, suspensao_dias: int = 0) -> None:
    """Recusa, com o motivo, a penalidade proposta fora do que ``sancao`` admite (REGRAS.md § 5, art. 13)."""
    faixa = f"{_intervalo(sancao.multa_min_ur, sancao.multa_max_ur)} URM"
    if not sancao.multa_min_ur <= multa_ur <= sancao.multa_max_ur:
        raise ErroLei(
            f"A multa de {formatar_decimal(multa_ur)} URM está fora da faixa cabível ({faixa}, art. 7º)."
        )
    if suspensao_dias == 0:
        return
    if sancao.suspensao_min_dias is None or sancao.suspensao_max_dias is None:
        raise ErroLei(
            "Suspensão não cabível: o art. 7º, § 5º, só a admite a partir de certo nível de reincidência, "
            f"e este caso está no nível {sancao.reincidencia}."
        )
    if not sancao.suspensao_min_dias <= suspensao_dias <= sancao.suspensao_max_dias:
        cabivel = (
            _dias(sancao.suspensao_max_dias)
            if sancao.suspensao_min_dias == sancao.suspensao_max_dias
            else f"de {sancao.suspensao_min_dias} a {_dias(sancao.suspensao_max_dias)}"
        )
        raise ErroLei(
            f"A suspensão de {_dias(suspensao_dias)} está fora do cabível ({cabivel}, art. 7º, §§ 6º e 7º)."
        )


# --- o cálculo --------------------------------------------------------------------------------------------


def _chave(a: Antecedente) -> tuple[date, date, Decimal, int, bool]:
    return (a.data_infracao, a.data_decisao or date.min, a.multa_ur, a.suspensao_dias, a.anulada)


def _ordenar(antecedentes: Iterable[Antecedente]) -> tuple[Antecedente, ...]:
    """Ordem canônica: o resultado, inclusive o texto dos fundamentos, não depende da ordem recebida."""
    return tuple(sorted(antecedentes, key=_chave))


@dataclass(frozen=True)
class _Punido:
    """Antecedente que passou pela regra 1 em relação ao novo fato (tem, portanto, dia em que ficou definitivo)."""

    antecedente: Antecedente
    infracao: date
    decisao: date


def _cadeia(dia: date, punidos: Sequence[_Punido], janela: int) -> tuple[date, ...]:
    """Regra 3: dias das infrações punidas da cadeia de reincidência, da mais recente à mais antiga.

    O nível do novo fato é o tamanho da cadeia. A cada passo, L é o antecedente com a infração mais recente
    entre os punidos *em relação ao fato atual* (regra 1 aplicada ao dia de L): definitivo até esse dia e com
    infração anterior a ele. A cadeia termina quando não há L ou quando o fato atual passa de L + janela.
    """
    cadeia: list[date] = []
    atual = dia
    while True:
        anteriores = [p.infracao for p in punidos if p.infracao < atual and p.decisao <= atual]
        if not anteriores or atual > somar_meses(max(anteriores), janela):
            return tuple(cadeia)
        atual = max(anteriores)
        cadeia.append(atual)


@lru_cache(maxsize=4096)
def _calcular(
    tipo: str, dia: date, antecedentes: tuple[Antecedente, ...]
) -> tuple[Sancao, tuple[Classificacao, ...]]:
    janela = JANELA_MESES[tipo]
    alinea = tipo.lower()

    # Regra 1 (§ 3º): autuado e punido antes do novo fato.
    punidos: list[_Punido] = []
    nao_punidos: list[tuple[Antecedente, Situacao, str]] = []
    for a in antecedentes:
        if a.anulada:
            nao_punidos.append((a, Situacao.ANULADO, "penalidade anulada"))
        elif a.data_infracao >= dia:
            nao_punidos.append((a, Situacao.POSTERIOR, "infração não anterior ao novo fato"))
        elif a.data_decisao is None:
            nao_punidos.append(
                (a, Situacao.SEM_DECISAO, "sem penalidade definitiva: autuada, mas não punida")
            )
        elif a.data_decisao > dia:
            motivo = f"penalidade definitiva só em {formatar_data(a.data_decisao)}, após o novo fato"
            nao_punidos.append((a, Situacao.DECIDIDO_DEPOIS, motivo))
        else:
            punidos.append(_Punido(a, a.data_infracao, a.data_decisao))

    # Regras 2 e 3 (§ 4º e recursão): a cadeia de reincidência.
    cadeia = _cadeia(dia, punidos, janela)
    nivel = len(cadeia)
    fatos = (dia, *cadeia)

    classificados: dict[Antecedente, Classificacao] = {
        a: Classificacao(a, situacao, False, f"{_infracao(a)}: não conta — {motivo}")
        for a, situacao, motivo in nao_punidos
    }
    # Cada punido fora da cadeia, com o motivo: o do § 3º (definitivo só depois do elo seguinte da cadeia, que
    # por isso não foi reincidência dele) ou o do § 4º (a cadeia se interrompeu pelo prazo).
    punidos_tarde: list[str] = []
    fora_do_prazo: list[str] = []
    for p in punidos:
        seguinte = min(f for f in fatos if f > p.infracao)
        if p.infracao in cadeia and p.decisao <= seguinte:
            situacao, texto = Situacao.CONTADO, "conta — integra a cadeia de reincidência"
        elif p.decisao > seguinte:
            # ``seguinte`` é aqui sempre um elo da cadeia: o punido ficou definitivo até o dia do novo fato.
            situacao = Situacao.DECIDIDO_DEPOIS
            texto = (
                f"não conta — penalidade definitiva só em {formatar_data(p.decisao)}, depois da infração seguinte na "
                f"cadeia, de {formatar_data(seguinte)}, que por isso não foi reincidência dela"
            )
            punidos_tarde.append(f"{_infracao(p.antecedente)} — {texto.removeprefix('não conta — ')}")
        else:
            situacao = Situacao.FORA_DO_PRAZO
            texto = "não conta — " + _motivo_fora_do_prazo(p, seguinte, dia, punidos, janela)
            fora_do_prazo.append(f"{_infracao(p.antecedente)} — {texto.removeprefix('não conta — ')}")
        classificados[p.antecedente] = Classificacao(
            p.antecedente, situacao, True, f"{_infracao(p.antecedente)}: {texto}"
        )

    fundamentos = [
        _fundamento_punidos(dia, punidos, nao_punidos, punidos_tarde),
        _fundamento_prazo(tipo, janela, fora_do_prazo),
        _fundamento_nivel(dia, nivel, cadeia, punidos, janela),
    ]

    # Regra 4 (§§ 1º e 2º, art. 7º, I): a faixa da multa.
    base_min, base_max = FAIXA_PRIMEIRA_PENALIDADE[tipo]
    multa_min, multa_max = faixa_multa(tipo, nivel)
    if nivel == 0:
        fundamentos.append(
            f"Art. 7º, § 1º, {alinea}): primeira penalidade do tipo {tipo} — multa de "
            f"{_intervalo(multa_min, multa_max)} URM."
        )
    else:
        sem_teto_min, sem_teto_max = base_min * 2**nivel, base_max * 2**nivel
        dobrada = (
            f"= {_intervalo(sem_teto_min, sem_teto_max)} URM"
            if sem_teto_max <= _MAIOR_FAIXA_ESCRITA
            else f"— acima de {formatar_decimal(TETO_MULTA_UR)} URM nos dois extremos"
        )
        fundamentos.append(
            "Art. 7º, § 2º (texto lacunoso, lido como “multa em dobro a cada reincidência, respeitados os "
            f"limites máximos”): faixa do § 1º, {alinea}) ({_intervalo(base_min, base_max)} URM) "
            f"× 2{_expoente(nivel)} {dobrada}."
        )
        if sem_teto_max > TETO_MULTA_UR:
            fundamentos.append(
                f"Art. 7º, I: a multa não passa de {formatar_decimal(TETO_MULTA_UR)} URM — "
                "faixa aplicável de "
                f"{_intervalo(multa_min, multa_max, compacto=False)} URM."
            )

    # Regra 5 (§ 5º): a suspensão é cabível?
    minimo_suspensao = NIVEL_SUSPENSAO[tipo]
    cabivel = nivel >= minimo_suspensao
    fundamentos.append(
        f"Art. 7º, § 5º, {alinea}): a pena de suspensão só pode ser aplicada após a {minimo_suspensao}ª "
        f"reincidência (entendido como: a partir da própria {minimo_suspensao}ª reincidência) — "
        f"{'cabível' if cabivel else 'não cabível'} (nível {nivel})."
    )

    # Regras 6 e 7 (§§ 6º, 7º e 8º): duração da suspensão e cumulação com a multa.
    suspensao_min: int | None = None
    suspensao_max: int | None = None
    anterior: int | None = None
    if cabivel:
        com_suspensao = [p for p in punidos if p.antecedente.suspensao_dias > 0]
        if com_suspensao:
            # Regra 6: a mais recente pelo dia da infração; em empate, a que ficou definitiva por último e,
            # persistindo o empate, a menor suspensão (a leitura mais favorável ao infrator).
            ultima = max(com_suspensao, key=lambda p: (p.infracao, p.decisao, -p.antecedente.suspensao_dias))
            anterior = ultima.antecedente.suspensao_dias
            dobro = 2 * anterior
            suspensao_min = suspensao_max = min(dobro, SUSPENSAO_MAXIMA_DIAS)
            texto = (
                "Art. 7º, § 7º: reincidência em infração já penalizada com suspensão "
                f"({_infracao(ultima.antecedente)}, "
                f"{_dias(anterior)}) — suspensão em dobro: {_dias(dobro)}"
            )
            if dobro > SUSPENSAO_MAXIMA_DIAS:
                texto += f", limitada a {_dias(SUSPENSAO_MAXIMA_DIAS)} (art. 7º, caput, II)"
            fundamentos.append(texto + ".")
        else:
            suspensao_min, suspensao_max = SUSPENSAO_PRIMEIRA_DIAS
            fundamentos.append(
                f"Art. 7º, § 6º: primeira suspensão — de {suspensao_min} a {_dias(suspensao_max)}."
            )
        fundamentos.append("Art. 7º, § 8º: a suspensão é aplicada cumulativamente à multa.")

    # Regra 8 (art. 8º).
    fundamentos.append(
        "Art. 8º: aplicada a penalidade, o infrator não fica desobrigado de cumprir a exigência que a "
        "determinou."
    )

    sancao = Sancao(
        reincidencia=nivel,
        multa_min_ur=multa_min,
        multa_max_ur=multa_max,
        suspensao_cabivel=cabivel,
        suspensao_min_dias=suspensao_min,
        suspensao_max_dias=suspensao_max,
        fundamentos=tuple(fundamentos),
        suspensao_anterior_dias=anterior,
    )
    return sancao, tuple(classificados[a] for a in antecedentes)


# --- os textos ---------------------------------------------------------------------------------------------


def _fundamento_punidos(
    dia: date,
    punidos: Sequence[_Punido],
    nao_punidos: Sequence[tuple[Antecedente, Situacao, str]],
    punidos_tarde: Sequence[str],
) -> str:
    if not punidos and not nao_punidos:
        return (
            "Art. 7º, § 3º: não há antecedentes do mesmo dispositivo; só é reincidência a infração a "
            "preceito pelo qual a operadora já tenha sido autuada e punida."
        )
    lista = ", ".join(
        f"{_infracao(p.antecedente)} (definitiva em {formatar_data(p.decisao)})" for p in punidos
    )
    texto = (
        f"Art. 7º, § 3º: infrações anteriores ao novo fato, de {formatar_data(dia)}, já autuadas e punidas "
        f"(penalidade definitiva até esse dia, art. 7º, caput): {lista or 'nenhuma'}."
    )
    if nao_punidos:
        texto += (
            " Não contam: " + "; ".join(f"{_infracao(a)} — {motivo}" for a, _, motivo in nao_punidos) + "."
        )
    if punidos_tarde:
        texto += (
            " Punidas em definitivo só depois da infração seguinte, não entram na cadeia de reincidência: "
            + "; ".join(punidos_tarde)
            + "."
        )
    return texto


def _fundamento_prazo(tipo: str, janela: int, fora_do_prazo: Sequence[str]) -> str:
    texto = (
        f"Art. 7º, § 4º, {tipo.lower()}): no tipo {tipo} não há reincidência se a infração anterior "
        f"ocorreu há mais de {_meses(janela)} (prazo contado de data a data)."
    )
    if fora_do_prazo:
        texto += " Fora da cadeia de reincidência pelo prazo: " + "; ".join(fora_do_prazo) + "."
    return texto


def _motivo_fora_do_prazo(
    p: _Punido, seguinte: date, dia: date, punidos: Sequence[_Punido], janela: int
) -> str:
    """Por que um punido ficou fora da cadeia pelo prazo do § 4º, nomeando onde a cadeia se interrompeu.

    A cadeia parou em ``seguinte`` (o novo fato ou um elo dela) porque o punido mais recente até ali, L, ficou
    a mais de ``janela`` meses; se L não é o próprio ``p``, ``p`` é anterior à interrupção.
    """
    fato = "o novo fato" if seguinte == dia else "a infração seguinte na cadeia"
    ultimo = max(q.infracao for q in punidos if q.infracao < seguinte and q.decisao <= seguinte)
    if ultimo == p.infracao:
        return (
            f"fora do prazo de reincidência: {fato}, de {formatar_data(seguinte)}, ocorreu depois de "
            f"{formatar_data(somar_meses(p.infracao, janela))}"
        )
    seguinte_texto = "o novo fato" if seguinte == dia else "a seguinte na cadeia"
    return (
        "a cadeia de reincidência se interrompeu depois dela: entre a infração de "
        f"{formatar_data(ultimo)} e {seguinte_texto}, de {formatar_data(seguinte)}, "
        f"{'passou' if janela == 1 else 'passaram'} mais de {_meses(janela)}"
    )


def _fundamento_nivel(
    dia: date, nivel: int, cadeia: Sequence[date], punidos: Sequence[_Punido], janela: int
) -> str:
    if nivel == 0:
        if not punidos:
            motivo = "nenhum antecedente punido antes do fato"
        else:
            ultimo = max(p.infracao for p in punidos)
            motivo = (
                f"o antecedente punido mais recente, de {formatar_data(ultimo)}, só geraria reincidência até "
                f"{formatar_data(somar_meses(ultimo, janela))}"
            )
        return f"Art. 7º, §§ 3º e 4º: infração primária (nível 0) — {motivo}."
    sequencia = " → ".join(formatar_data(d) for d in reversed(cadeia))
    return (
        f"Art. 7º, §§ 3º e 4º: {nivel}ª reincidência (nível {nivel}) — infrações punidas, cada uma em "
        f"definitivo até o dia da seguinte e ocorrida no máximo {_meses(janela)} antes dela: {sequencia} → "
        f"{formatar_data(dia)} (novo fato)."
    )


def _infracao(a: Antecedente) -> str:
    return f"infração de {formatar_data(a.data_infracao)}"


def _intervalo(minimo: Decimal, maximo: Decimal, *, compacto: bool = True) -> str:
    if compacto and minimo == maximo:
        return formatar_decimal(minimo)
    return f"{formatar_decimal(minimo)} a {formatar_decimal(maximo)}"


def _meses(quantidade: int) -> str:
    return f"{quantidade} {'mês' if quantidade == 1 else 'meses'}"


def _dias(quantidade: int) -> str:
    return f"{quantidade} {'dia' if quantidade == 1 else 'dias'}"


def _expoente(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
