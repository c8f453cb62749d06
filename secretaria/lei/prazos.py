"""Prazos de defesa (art. 14) e de recurso (art. 15): contagem e dias úteis (REGRAS.md § 4).

A lei municipal só diz "15 dias, contados da intimação"; a forma de contar vem da Lei federal nº 9.784/1999,
art. 66, aplicada na falta de regra municipal: exclui-se o dia da intimação, inclui-se o último, contam-se
dias corridos e, se o último cair em dia sem expediente, o prazo vence no primeiro dia útil seguinte.

Dias sem expediente, em ``Calendario``: sábados, domingos, feriados nacionais e do Rio Grande do Sul (pacote
``holidays``, subdivisão RS), os três feriados municipais de Pelotas (2 de fevereiro, Sexta-feira Santa e
Corpus Christi, calculados para todo ano, como os nacionais: ninguém precisa cadastrá-los) e os dias que o
administrador cadastra (pontos facultativos decretados e outros dias sem expediente). ``vencimento`` sempre
considera os feriados nacionais, estaduais e municipais; o parâmetro ``feriados`` acrescenta os demais dias —
é a leitura segura de REGRAS.md, que chama de ``feriados`` "os dias não úteis além dos fins de semana": um
prazo que vencesse num feriado por esquecimento de quem chama prejudicaria a defesa.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from dateutil.easter import easter

from secretaria.lei.erros import ErroLei
from secretaria.lei.formato import formatar_data

__all__ = [
    "PRAZO_DEFESA_DIAS",
    "PRAZO_RECURSO_DIAS",
    "Calendario",
    "Prazo",
    "domingo_de_pascoa",
    "feriados_municipais_pelotas",
    "feriados_oficiais",
    "tempestivo",
    "vencimento",
]

PRAZO_DEFESA_DIAS = 15
"""Art. 14: defesa em 15 dias, contados da intimação do auto."""

PRAZO_RECURSO_DIAS = 15
"""Art. 15: recurso ao Prefeito em 15 dias, contados da intimação da decisão."""

_DIAS_DA_SEMANA = (
    "segunda-feira",
    "terça-feira",
    "quarta-feira",
    "quinta-feira",
    "sexta-feira",
    "sábado",
    "domingo",
)


@lru_cache(maxsize=64)
def feriados_oficiais(ano: int) -> Mapping[date, str]:
    """Feriados nacionais e do Rio Grande do Sul no ano, com o nome em português (pacote ``holidays``).

    Importa ``holidays`` só quando precisa, para não pesar na abertura do programa.
    """
    import holidays

    return dict(holidays.country_holidays("BR", subdiv="RS", years=ano, language="pt_BR"))


def domingo_de_pascoa(ano: int) -> date:
    """Domingo de Páscoa do calendário gregoriano (``dateutil.easter``), base da Sexta-feira Santa e de Corpus
    Christi."""
    return easter(ano)


@lru_cache(maxsize=64)
def feriados_municipais_pelotas(ano: int) -> Mapping[date, str]:
    """Os feriados municipais de Pelotas (REGRAS.md § 4), calculados para o ano como os nacionais.

    A Sexta-feira Santa também é feriado nacional no pacote ``holidays``, que a nomeia primeiro; repeti-la
    aqui não muda a contagem e deixa a lista municipal completa para quem a confere.
    """
    pascoa = domingo_de_pascoa(ano)
    return {
        date(ano, 2, 2): "Nossa Senhora dos Navegantes",
        pascoa - timedelta(days=2): "Sexta-feira Santa",
        pascoa + timedelta(days=60): "Corpus Christi",
    }


@dataclass(frozen=True)
class Prazo:
    """Um prazo contado, com as datas que a tela e a certidão de tempestividade mostram."""

    data_ciencia: date
    """Dia da intimação: não entra na contagem."""
    dias: int
    inicio: date
    """Primeiro dia contado (o dia seguinte à intimação)."""
    termo: date
    """Último dia contado, em dias corridos."""
    vencimento: date
    """O termo, ou o primeiro dia útil depois dele."""
    adiamentos: tuple[tuple[date, str], ...]
    """Cada dia sem expediente que empurrou o vencimento, com o motivo."""

    @property
    def explicacao(self) -> str:
        contados, terminam = ("dia contado", "termina") if self.dias == 1 else ("dias contados", "terminam")
        texto = (
            f"Intimação em {formatar_data(self.data_ciencia)}; {self.dias} {contados} a partir de "
            f"{formatar_data(self.inicio)} (Lei nº 9.784/1999, art. 66) {terminam} em "
            f"{formatar_data(self.termo)}"
        )
        if not self.adiamentos:
            return texto + "."
        motivos = "; ".join(f"{formatar_data(d)}, {motivo}" for d, motivo in self.adiamentos)
        return (
            f"{texto}, dia sem expediente ({motivos}); vence no primeiro dia útil seguinte, "
            f"{formatar_data(self.vencimento)}."
        )


class Calendario:
    """Dias úteis da Secretaria: fora sábados, domingos, feriados nacionais, estaduais (RS) e municipais
    (Pelotas) e ``extras``.

    ``extras`` são os dias que o administrador cadastra (pontos facultativos, outros fechamentos); se vier
    um ``Mapping`` de data para descrição, a descrição aparece como motivo do adiamento.
    """

    def __init__(self, extras: Container[date] = frozenset()) -> None:
        self._extras = extras

    def motivo_sem_expediente(self, dia: date) -> str | None:
        """Por que ``dia`` não é útil ("sábado", "feriado: Natal", ...), ou ``None`` se for útil."""
        if dia.weekday() >= 5:
            return _DIAS_DA_SEMANA[dia.weekday()]
        oficial = feriados_oficiais(dia.year).get(dia)
        if oficial is not None:
            return f"feriado: {oficial}"
        municipal = feriados_municipais_pelotas(dia.year).get(dia)
        if municipal is not None:
            return f"feriado municipal: {municipal}"
        if dia in self._extras:
            if isinstance(self._extras, Mapping):
                return f"sem expediente: {self._extras[dia]}"
            return "sem expediente (tabela da Secretaria)"
        return None

    def eh_dia_util(self, dia: date) -> bool:
        return self.motivo_sem_expediente(dia) is None

    def proximo_dia_util(self, dia: date) -> date:
        """``dia``, se for útil; senão o primeiro dia útil depois dele (é a prorrogação do art. 66, § 1º)."""
        while not self.eh_dia_util(dia):
            dia += timedelta(days=1)
        return dia

    def prazo(self, data_ciencia: date, dias: int = PRAZO_DEFESA_DIAS) -> Prazo:
        """Conta ``dias`` corridos desde o dia seguinte a ``data_ciencia`` e prorroga o vencimento."""
        if dias < 1:
            raise ErroLei(f"Um prazo precisa ter ao menos 1 dia (recebido: {dias}).")
        termo = data_ciencia + timedelta(days=dias)
        adiamentos: list[tuple[date, str]] = []
        dia = termo
        while (motivo := self.motivo_sem_expediente(dia)) is not None:
            adiamentos.append((dia, motivo))
            dia += timedelta(days=1)
        return Prazo(
            data_ciencia=data_ciencia,
            dias=dias,
            inicio=data_ciencia + timedelta(days=1),
            termo=termo,
            vencimento=dia,
            adiamentos=tuple(adiamentos),
        )

    def vencimento(self, data_ciencia: date, dias: int = PRAZO_DEFESA_DIAS) -> date:
        return self.prazo(data_ciencia, dias).vencimento


def vencimento(data_ciencia: date, dias: int = 15, feriados: Container[date] = frozenset()) -> date:
    """Último dia para protocolar a petição intimada em ``data_ciencia`` (REGRAS.md § 4).

    ``feriados`` são os dias sem expediente além dos fins de semana e dos feriados nacionais, do RS e de
    Pelotas, que são sempre considerados.
    """
    return Calendario(feriados).vencimento(data_ciencia, dias)


def tempestivo(data_protocolo: date, vencimento: date) -> bool:
    """A petição protocolada até o vencimento, inclusive, é tempestiva; depois dele, intempestiva."""
    return data_protocolo <= vencimento
