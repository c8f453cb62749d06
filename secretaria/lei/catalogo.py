"""O catálogo dos 55 dispositivos dos arts. 1º a 6º e as notas sobre os trechos truncados da lei.

Os dados (texto impresso, tipo, sujeito, natureza) ficam em ``secretaria/resources/catalogo.csv``, e não no
código, para que o jurista confira linha a linha com a lei; este módulo só os lê uma vez e os entrega como
objetos imutáveis. As constantes de nota registram as leituras que o programa aplica onde a cópia da lei
está corrompida (REGRAS.md § 1 e § 5), para que a tela possa mostrar o texto original ao lado da leitura.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from importlib.resources import files

from secretaria.lei.erros import ErroLei

__all__ = [
    "LEITURA_ART7_PARAGRAFO2",
    "NOTA_ART3_PARAGRAFO_UNICO",
    "NOTA_ART10_NUMERACAO",
    "NOTA_ART12_PARAGRAFO2",
    "ROTULO_NATUREZA",
    "ROTULO_SUJEITO",
    "TEXTO_ART7_PARAGRAFO2",
    "TIPOS",
    "Dispositivo",
    "DispositivoInexistente",
    "Natureza",
    "Sujeito",
    "TipoIndefinido",
    "dispositivo",
    "dispositivos",
    "rotulo",
    "rotulo_do_codigo",
]

TIPOS: tuple[str, ...] = ("A", "B", "C", "D", "E")
"""As classes de infração do art. 7º, § 1º, da mais leve à mais grave."""

NOTA_ART3_PARAGRAFO_UNICO = (
    "Art. 3º, § único: a aplicação de penalidade com base no inciso VI do art. 3º não exclui a penalização "
    "pela infração correspondente."
)

TEXTO_ART7_PARAGRAFO2 = (
    "§ 2º - Nas reincidências a multa será aplicada... (sic) peitados os limites máximos de que trata este "
    "artigo...(sic)."
)
"""O § 2º do art. 7º como está impresso na cópia da lei, com as lacunas."""

LEITURA_ART7_PARAGRAFO2 = (
    "Leitura aplicada ao art. 7º, § 2º: “Nas reincidências a multa será aplicada [em dobro, res]peitados os "
    "limites máximos de que trata este artigo”. A cada nível de reincidência os dois extremos da faixa da "
    "primeira penalidade (§ 1º) dobram (nível n: × 2ⁿ), e cada extremo fica limitado a 10,00 URM "
    "(art. 7º, I). Com essa leitura a multa de cada tipo chega ao teto perto do nível em que o § 5º passa a "
    "admitir a suspensão, razão pela qual foi adotada."
)

NOTA_ART10_NUMERACAO = (
    "A cópia da lei numera dois artigos como “Art 9º”; o segundo, que trata do conteúdo do auto de infração, "
    "é lido como art. 10, a numeração que os arts. 11 a 18 pressupõem."
)

NOTA_ART12_PARAGRAFO2 = (
    "O art. 12, § 2º, manda autuar a representação observando “os incisos IV, V e VI do art. 10º”, mas o "
    "art. 10 (impresso como o segundo “Art 9º”) tem só os incisos I a V; o programa aplica os incisos IV "
    "(indicação do dispositivo legal violado) e V (próxima penalidade a ser aplicada)."
)


class Sujeito(StrEnum):
    """Quem deve cumprir o dispositivo (REGRAS.md § 1); a multa recai sempre sobre a operadora (art. 7º)."""

    CONCESSIONARIA = "concessionaria"
    EMPREGADO = "empregado"
    CONDUTOR = "condutor"

    @property
    def rotulo(self) -> str:
        return ROTULO_SUJEITO[self]


class Natureza(StrEnum):
    """Se o dispositivo impõe um dever ou uma proibição."""

    DEVER = "dever"
    PROIBICAO = "proibicao"

    @property
    def rotulo(self) -> str:
        return ROTULO_NATUREZA[self]


ROTULO_SUJEITO: dict[str, str] = {
    Sujeito.CONCESSIONARIA: "Concessionária/permissionária",
    Sujeito.EMPREGADO: "Empregado ou preposto",
    Sujeito.CONDUTOR: "Condutor",
}

ROTULO_NATUREZA: dict[str, str] = {
    Natureza.DEVER: "Dever",
    Natureza.PROIBICAO: "Proibição",
}


class DispositivoInexistente(ErroLei, KeyError):
    """Código que não está entre os 55 dispositivos da lei.

    É também ``KeyError`` porque a consulta é por chave, como num dicionário.
    """

    def __str__(self) -> str:
        # KeyError mostraria a mensagem entre aspas, como se fosse a própria chave.
        return str(self.args[0])


class TipoIndefinido(ErroLei):
    """O dispositivo não tem tipo legível na lei (Art. 1º, X) e o administrador ainda não o definiu."""


def rotulo(artigo: int, inciso: str) -> str:
    """``(3, "VI")`` → ``"Art. 3º, VI"``, a forma de citar usada nos autos e nas telas."""
    return f"Art. {artigo}º, {inciso}"


def rotulo_do_codigo(codigo: str) -> str:
    """``"3-VI"`` → ``"Art. 3º, VI"``, sem consultar o catálogo (serve também a dispositivos contratuais)."""
    artigo, separador, inciso = codigo.strip().partition("-")
    if not separador or not artigo.isdigit() or not inciso:
        raise ErroLei(f"Código de dispositivo “{codigo}” malformado: use artigo-inciso, como “1-XVI”.")
    return rotulo(int(artigo), inciso.upper())


@dataclass(frozen=True)
class Dispositivo:
    """Um inciso dos arts. 1º a 6º, com o texto tal como impresso na lei.

    ``tipo`` é ``None`` só no Art. 1º, X, cujo tipo a cópia da lei perdeu; ``nota`` explica cada "(sic)".
    """

    codigo: str
    artigo: int
    inciso: str
    texto: str
    tipo: str | None
    sujeito: Sujeito
    natureza: Natureza
    nota: str = ""

    @property
    def rotulo(self) -> str:
        return rotulo(self.artigo, self.inciso)

    def tipo_exigido(self) -> str:
        """O tipo para calcular a sanção; recusa citar em auto um dispositivo sem tipo (REGRAS.md § 1)."""
        if self.tipo is None:
            raise TipoIndefinido(
                f"O {self.rotulo} não tem tipo legível no texto da lei (o trecho foi cortado por “(sic)”). "
                "O administrador deve definir o tipo, registrando o ato que o decidiu, antes que um auto "
                "possa citar este dispositivo."
            )
        return self.tipo

    def com_tipo(self, tipo: str) -> Dispositivo:
        """O mesmo dispositivo com o tipo que o administrador definiu.

        Só vale para quem não tem tipo na lei: os tipos impressos não podem ser alterados pelo programa.
        """
        if self.tipo is not None:
            raise ErroLei(
                f"O tipo do {self.rotulo} é fixado pela lei (tipo {self.tipo}) e não pode ser alterado."
            )
        if tipo not in TIPOS:
            raise ErroLei(f"Tipo de infração “{tipo}” inválido: use A, B, C, D ou E.")
        return replace(self, tipo=tipo)


def _ler_catalogo() -> str:
    return files("secretaria.resources").joinpath("catalogo.csv").read_text(encoding="utf-8")


@cache
def dispositivos() -> tuple[Dispositivo, ...]:
    """Os 55 dispositivos, na ordem da lei; lidos do arquivo de recursos uma única vez por execução."""
    return tuple(
        Dispositivo(
            codigo=linha["codigo"],
            artigo=int(linha["artigo"]),
            inciso=linha["inciso"],
            texto=linha["texto"],
            tipo=linha["tipo"] or None,
            sujeito=Sujeito(linha["sujeito"]),
            natureza=Natureza(linha["natureza"]),
            nota=linha["nota"],
        )
        for linha in csv.DictReader(io.StringIO(_ler_catalogo()))
    )


@cache
def _por_codigo() -> dict[str, Dispositivo]:
    return {d.codigo: d for d in dispositivos()}


def dispositivo(codigo: str) -> Dispositivo:
    """O dispositivo de código ``"1-XVI"`` (aceita espaços e minúsculas); recusa códigos fora da lei."""
    chave = codigo.strip().upper()
    try:
        return _por_codigo()[chave]
    except KeyError:
        raise DispositivoInexistente(
            f"O dispositivo “{codigo}” não existe nos arts. 1º a 6º da Lei nº 2.413/1978."
        ) from None
