"""Alt letters (mnemonics) for every button of a window, so a keyboard user reaches each one.

Labels, tabs and group boxes keep the letters their code gives them; a push button, check box or radio
button written without one ("Salvar", "Cancelar", a role's check box, a message box's "Importar") gets the
first letter of one of its words that no other control of the window uses, else any other free letter of
its text. Controls on different pages of a tab or stacked widget are never on screen together, and Qt
ignores a hidden control's letter: a letter needs to be unique only among the controls that can be seen
with the button (a case screen's tabs hold more buttons than the alphabet has letters). Called when a
window is shown, so buttons made anywhere in it (button boxes, rows added by a form) are covered:

    dar_letras(dialogo)            # in showEvent
    dar_letras(caixa, caixa.buttons())
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QPushButton,
    QRadioButton,
    QStackedWidget,
    QTabBar,
    QWidget,
)


def letra(texto: str) -> str | None:
    """The Alt letter of `texto` ("&Salvar" → "s"), lower case; None when it has none ("&&" is a literal &)."""
    achado = re.search(r"&([^&\s])", texto.replace("&&", ""))
    return achado.group(1).lower() if achado else None


def com_letra(texto: str, usadas: set[str]) -> str:
    """`texto` with an Alt letter not in `usadas` (a word's first letter first, then any ASCII letter), or
    unchanged when every letter of it is taken."""
    candidatos = [m.start() for m in re.finditer(r"\b\w", texto)]
    candidatos += list(range(len(texto)))
    for posicao in candidatos:
        caractere = texto[posicao]
        if caractere.isascii() and caractere.isalpha() and caractere.lower() not in usadas:
            return f"{texto[:posicao]}&{texto[posicao:]}"
    return texto


def _paginas(w: QWidget, janela: QWidget) -> dict[int, QWidget]:
    """For each stacked widget between `w` and `janela` (a tab widget's pages are one), the page `w` is on."""
    paginas: dict[int, QWidget] = {}
    filho, pai = w, w.parentWidget()
    while pai is not None and filho is not janela:
        if isinstance(pai, QStackedWidget):
            paginas[id(pai)] = filho
        filho, pai = pai, pai.parentWidget()
    return paginas


def _juntos(a: dict[int, QWidget], b: dict[int, QWidget]) -> bool:
    """Whether two controls with these pages can be on screen together (the same page of every stack both
    are in)."""
    return all(b.get(pilha, pagina) is pagina for pilha, pagina in a.items())


def _com_letra(janela: QWidget) -> list[tuple[QWidget, str]]:
    """The controls of `janela` that carry an Alt letter (labels with a field, buttons, group boxes, tabs),
    each with its text."""
    textos: list[tuple[QWidget, str]] = []
    for w in janela.findChildren(QWidget):
        if (isinstance(w, QLabel) and w.buddy() is not None) or isinstance(w, QAbstractButton):
            textos.append((w, w.text()))
        elif isinstance(w, QGroupBox):
            textos.append((w, w.title()))
        elif isinstance(w, QTabBar):
            textos += [(w, w.tabText(i)) for i in range(w.count())]
    return textos


def letras_usadas(janela: QWidget, junto_de: QWidget | None = None) -> set[str]:
    """The Alt letters the controls inside `janela` already use (labels with a field, buttons, group boxes,
    tabs); with `junto_de`, only those of the controls that can be on screen together with it."""
    textos = _com_letra(janela)
    if junto_de is not None:
        paginas = _paginas(junto_de, janela)
        textos = [(w, t) for w, t in textos if w is not junto_de and _juntos(paginas, _paginas(w, janela))]
    return {achada for _w, texto in textos if (achada := letra(texto)) is not None}


def _de_enter_ou_escape(botao: QAbstractButton) -> bool:
    caixa = botao.parentWidget()
    return isinstance(caixa, QDialogButtonBox) and caixa.buttonRole(botao) in (
        QDialogButtonBox.ButtonRole.AcceptRole,
        QDialogButtonBox.ButtonRole.RejectRole,
    )


def dar_letras(janela: QWidget, botoes: Iterable[QAbstractButton] | None = None) -> None:
    """Give each of `botoes` (default: every push button, check box and radio button inside `janela`)
    that has text but no Alt letter one that no other control of `janela` uses."""
    if botoes is None:
        botoes = [
            b
            for b in janela.findChildren(QAbstractButton)
            if isinstance(b, (QPushButton, QCheckBox, QRadioButton))
        ]
    # Salvar and Cancelar choose last: Enter and Escape already press them, so when a big form's fields
    # took every letter of their words, it is they that go without one, never "Remover arquivo".
    for botao in sorted(botoes, key=_de_enter_ou_escape):
        texto = botao.text()
        if letra(texto) is not None or not any(c.isalpha() for c in texto):
            continue
        novo = com_letra(texto, letras_usadas(janela, junto_de=botao))
        if novo == texto:
            _ceder_letra(janela, botao)
        else:
            botao.setText(novo)


def sem_letra(texto: str) -> str:
    """`texto` without its Alt letter's "&" ("Ci&dade" → "Cidade"); a literal "&&" stays."""
    return re.sub(r"(?<!&)&(?=[^&\s])", "", texto, count=1)


def _no_inicio_de_palavra(texto: str) -> bool:
    achado = re.search(r"(?<!&)&(?=[^&\s])", texto)
    return achado is not None and (achado.start() == 0 or not texto[achado.start() - 1].isalnum())


def _ceder_letra(janela: QWidget, botao: QAbstractButton) -> None:
    """Give `botao`, every letter of whose text other controls seen with it use, one of those letters: the
    one control holding it (a label or another button) moves to a free letter of its own text, at a word's
    start if any can. A big form's Cancelar thus gets its letter too; nothing changes when no control can
    move."""
    texto = botao.text()
    opcoes: list[tuple[bool, QLabel | QAbstractButton, str, str]] = []
    vizinhos = [
        (w, t)
        for w, t in _com_letra(janela)
        if w is not botao and _juntos(_paginas(botao, janela), _paginas(w, janela))
    ]
    for posicao in [m.start() for m in re.finditer(r"\b\w", texto)] + list(range(len(texto))):
        c = texto[posicao].lower()
        if not (c.isascii() and c.isalpha()):
            continue
        donos = [w for w, t in vizinhos if letra(t) == c]
        dono = donos[0] if len(donos) == 1 else None
        if not isinstance(dono, (QLabel, QAbstractButton)):
            continue
        livre = com_letra(sem_letra(dono.text()), letras_usadas(janela, junto_de=dono) | {c})
        if letra(livre) is not None:
            opcoes.append((_no_inicio_de_palavra(livre), dono, livre, c))
    if not opcoes:
        return
    _inicio, escolhido, livre, c = max(
        opcoes, key=lambda o: o[0]
    )  # the first at a word's start, else the first
    escolhido.setText(livre)
    posicao = next(i for i, ch in enumerate(texto) if ch.lower() == c)
    botao.setText(f"{texto[:posicao]}&{texto[posicao:]}")


__all__ = ["com_letra", "dar_letras", "letra", "letras_usadas", "sem_letra"]
