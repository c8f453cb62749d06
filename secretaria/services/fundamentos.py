"""The sanction's legal grounds (`Sancao.fundamentos`, stored on a decision as `fundamentos_legais`) as the
Secretary and the operator read them: on the sanction panel, the case screen and the decision notice.

The law layer words one line per rule and names every older infraction it set aside, with its reason; an
operator with twenty-five old autos of one provision got the same reason twenty-five times ("a cadeia de
reincidência se interrompeu depois dela…"), and one decision notice ran to three pages. Here the
infractions that share a reason are named once, together (their days listed when few, their count and
span when many), and the doubling "× 2⁴" reads in plain digits — "× 16 (2 elevado a 4, reincidência de
nível 4)" — as REGRAS § 5 asks of a notice. Decisions already stored are read the same way, so a
re-rendered old decision is fixed too.

This is a reading of the law layer's sentences, kept out of `lei/sancoes.py` (its rules are another
piece of work); a sentence it does not recognise is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["MAXIMO_DATAS_LISTADAS", "legiveis", "sem_art_8"]

MAXIMO_DATAS_LISTADAS = 6
"""Up to this many infractions sharing a reason are listed by day; more are given as a count and a span."""

_EXPOENTES = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_DOBRA = re.compile(r"× 2([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_DATA = r"\d{2}/\d{2}/\d{4}"
# "infração de 03/01/2026 — <reason>", up to the next item of the same list ("; infração de …") or the
# sentence's end (". " or the end of the line); reasons hold no "; " nor ". ".
_ITEM = re.compile(rf"infração de ({_DATA}) — (.*?)(?=; infração de {_DATA} — |\.(?:\s|$))")
_SEPARADOR = "; "
# The § 3º list of punished priors: "infração de 03/01/2026 (decidida em 20/01/2026), infração de …".
_PUNIDA = re.compile(rf"infração de ({_DATA}) \(([^()]*)\)")
_VIRGULA = ", "


def _milhar(numero: int) -> str:
    return f"{numero:,}".replace(",", ".")


def _dobra(m: re.Match[str]) -> str:
    nivel = int(m.group(1).translate(_EXPOENTES))
    if nivel == 1:
        return "× 2 (em dobro, reincidência de nível 1)"
    return f"× {_milhar(2**nivel)} (2 elevado a {nivel}, reincidência de nível {nivel})"


def _plural(motivo: str) -> str:
    """The reason said of one infraction, said of several ("depois dela" → "depois delas")."""
    return re.sub(
        r"\b(dela|autuada|punida|decidida|posterior)\b",
        lambda m: m.group(1) + ("es" if m.group(1).endswith("r") else "s"),
        motivo,
    )


def _datas(datas: list[str]) -> str:
    if len(datas) <= MAXIMO_DATAS_LISTADAS:
        return "de " + ", ".join(datas[:-1]) + " e " + datas[-1]
    return f"de {datas[0]} a {datas[-1]}"


def _agrupar(itens: list[tuple[str, str]]) -> str:
    """One list of "infração de D — reason" items with the items of one reason merged, in first-seen order."""
    por_motivo: dict[str, list[str]] = {}
    for data, motivo in itens:
        por_motivo.setdefault(motivo, []).append(data)
    partes = []
    for motivo, datas in por_motivo.items():
        if len(datas) == 1:
            partes.append(f"infração de {datas[0]} — {motivo}")
        else:
            ordenadas = sorted(datas, key=_chave_data)
            partes.append(f"{len(datas)} infrações, {_datas(ordenadas)} — {_plural(motivo)}")
    return _SEPARADOR.join(partes)


def _chave_data(data: str) -> tuple[str, str, str]:
    return (data[6:], data[3:5], data[:2])


def _resumir(itens: list[re.Match[str]]) -> str:
    """A long list of punished priors: the older ones as a count and a span, the latest ones in full."""
    inteiros = MAXIMO_DATAS_LISTADAS - 1
    antigas = sorted((m.group(1) for m in itens[:-inteiros]), key=_chave_data)
    resumo = f"{len(antigas)} infrações de {antigas[0]} a {antigas[-1]}"
    return _VIRGULA.join([resumo, *(m.group(0) for m in itens[-inteiros:])])


def _corridas(linha: str, padrao: re.Pattern[str], separador: str, trocar: Any) -> str:
    """`linha` with each run of `padrao` matches joined by `separador` replaced by `trocar(run)`."""
    saida: list[str] = []
    posicao = 0
    corrida: list[re.Match[str]] = []

    def fechar() -> None:
        nonlocal posicao
        if corrida:
            saida.append(linha[posicao : corrida[0].start()])
            saida.append(trocar(list(corrida)))
            posicao = corrida[-1].end()
            corrida.clear()

    for m in padrao.finditer(linha):
        if corrida and linha[corrida[-1].end() : m.start()] != separador:
            fechar()
        corrida.append(m)
    fechar()
    saida.append(linha[posicao:])
    return "".join(saida)


def _linha(linha: str) -> str:
    linha = _DOBRA.sub(_dobra, linha)
    linha = _corridas(
        linha,
        _PUNIDA,
        _VIRGULA,
        lambda itens: (
            _resumir(itens)
            if len(itens) > MAXIMO_DATAS_LISTADAS
            else "".join(m.group(0) if not i else _VIRGULA + m.group(0) for i, m in enumerate(itens))
        ),
    )
    return _corridas(
        linha, _ITEM, _SEPARADOR, lambda itens: _agrupar([(m.group(1), m.group(2)) for m in itens])
    )


def legiveis(fundamentos: Iterable[str]) -> list[str]:
    """The grounds, line by line, with repeated reasons merged and powers of two in plain digits."""
    return [_linha(linha) for linha in fundamentos]


def sem_art_8(fundamentos: Iterable[str]) -> list[str]:
    """The grounds without the art. 8º line, for a notice that states art. 8º in its own words once."""
    return [linha for linha in fundamentos if not linha.lstrip().startswith("Art. 8º")]
