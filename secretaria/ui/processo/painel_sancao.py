"""The sanction panel: what the law allows for the auto being typed, and why (REGRAS.md § 3).

It sits beside the auto form and is redrawn on every change of operator, provision or infraction date
(debounced, one `avaliar_sancao` call per change). The panel only renders: `ConteudoPainel` is the plain
data it shows, built from the service's evaluation by `conteudo_de`, so the drawing can be tested alone.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QTextBrowser, QVBoxLayout, QWidget

from secretaria.lei.catalogo import LEITURA_ART7_PARAGRAFO2, TEXTO_ART7_PARAGRAFO2
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.lei.sancoes import CITACAO_TIPO, NIVEL_SUSPENSAO, Sancao, citacoes
from secretaria.lei.urm import formatar_reais, urm_para_reais
from secretaria.services.fundamentos import legiveis

if TYPE_CHECKING:
    from secretaria.services.sancao import AvaliacaoSancao

ATRASO_MS = 150

COR_ALERTA = "#9a3412"
COR_BLOQUEIO = "#b00020"
COR_OK = "#166534"
COR_SECUNDARIA = "#4b5563"


@dataclass(frozen=True)
class AntecedenteExibido:
    """One earlier auto of the same operator and provision, as the panel lists it."""

    descricao: str  # "AI nº 0003/2026 — infração de 10/02/2026, decidida em 01/03/2026, definitiva em …"
    contado: bool
    motivo: str  # why it counts or not, in plain Portuguese
    data_infracao: date | None = None
    """Autos of one infraction day are one link of the recidivism chain (REGRAS § 3 rule 3)."""


@dataclass(frozen=True)
class ConteudoPainel:
    """What the panel shows. `bloqueio` replaces everything when no sanction can be computed."""

    dispositivo_rotulo: str = ""
    dispositivo_texto: str = ""
    dispositivo_nota: str = ""
    tipo: str | None = None
    data_infracao: date | None = None
    sancao: Sancao | None = None
    antecedentes: tuple[AntecedenteExibido, ...] = ()
    valor_urm: Decimal | None = None
    urm_desde: date | None = None
    """The day whose URM value is shown (today)."""
    aviso_urm: str = ""
    aviso_omitidos: str = ""
    """Older autos not listed because no recidivism window reaches them (they change nothing)."""
    bloqueio: str = ""


def _titulo_contam(contam: list[AntecedenteExibido]) -> str:
    """ "Autos anteriores que contam (3)"; when some share an infraction day, which the level counts once
    (rule 3: one link per day), the title says so, or 4 autos beside "3ª reincidência" read as a mistake."""
    dias = len({a.data_infracao for a in contam})
    if dias == len(contam):
        return f"Autos anteriores que contam ({len(contam)})"
    return (
        f"Autos anteriores que contam ({len(contam)} autos em {dias} {'dia' if dias == 1 else 'dias'} de "
        "infração: autos do mesmo dia são uma só reincidência)"
    )


def conteudo_de(avaliacao: AvaliacaoSancao) -> ConteudoPainel:
    """The panel's content from the service's evaluation (`secretaria.services.sancao.avaliar_sancao`)."""
    antecedentes = []
    for a in avaliacao.antecedentes:
        partes = [f"AI nº {a.numero} — infração de {formatar_data(a.data_infracao)}"]
        if a.data_decisao is not None:
            partes.append(f"decidida em {formatar_data(a.data_decisao)}")
            if a.definitiva_em is not None and a.definitiva_em <= avaliacao.data_infracao:
                presumida = " (definitiva presumida)" if a.definitiva_presumida else ""
                partes.append(f"definitiva em {formatar_data(a.definitiva_em)}{presumida}")
            if a.multa_ur:
                partes.append(f"multa de {formatar_decimal(a.multa_ur)} URM")
            if a.suspensao_dias:
                partes.append(f"suspensão de {_dias(a.suspensao_dias)}")
        # The service's reason reads "AI nº X — infração de dd/mm/aaaa: não conta — motivo"; keep the verdict.
        _, _, motivo = a.motivo.partition(": ")
        motivo = _maiuscula(motivo or a.motivo)
        if a.importado_de:
            # Where an antecedent of the office's past came from, and the presumption it carries.
            origem = (
                f"definitiva presumida: importado de {a.importado_de}"
                if a.definitiva_presumida
                else f"importado de {a.importado_de}"
            )
            motivo = f"{motivo} ({origem})"
        antecedentes.append(AntecedenteExibido(", ".join(partes), a.contado, motivo, a.data_infracao))
    return ConteudoPainel(
        dispositivo_rotulo=avaliacao.dispositivo_rotulo,
        dispositivo_texto=avaliacao.dispositivo_texto,
        dispositivo_nota=avaliacao.nota_dispositivo or "",
        tipo=avaliacao.tipo,
        data_infracao=avaliacao.data_infracao,
        sancao=avaliacao.sancao,
        antecedentes=tuple(antecedentes),
        valor_urm=avaliacao.valor_urm,
        urm_desde=avaliacao.data_valor,
        aviso_urm=avaliacao.aviso_urm or "",
        aviso_omitidos=avaliacao.aviso_omitidos or "",
    )


def _maiuscula(texto: str) -> str:
    return texto[:1].upper() + texto[1:]


def _e(texto: str) -> str:
    return html.escape(texto, quote=False)


def _nivel(n: int) -> str:
    return "infração primária (nível 0)" if n == 0 else f"{n}ª reincidência (nível {n})"


def _dias(n: int) -> str:
    return f"{n} {'dia' if n == 1 else 'dias'}"


def _intervalo_ur(minimo: Decimal, maximo: Decimal) -> str:
    if minimo == maximo:
        return f"{formatar_decimal(minimo)} URM"
    return f"{formatar_decimal(minimo)} a {formatar_decimal(maximo)} URM"


def texto_suspensao(tipo: str, sancao: Sancao) -> tuple[str, str]:
    """The suspension line and its legal basis (the citation comes from the law package)."""
    base = citacoes(tipo, sancao).suspensao
    minimo = NIVEL_SUSPENSAO[tipo]
    if not sancao.suspensao_cabivel or sancao.suspensao_max_dias is None:
        return f"Não cabível: no tipo {tipo} a suspensão só cabe a partir da {minimo}ª reincidência.", base
    smin, smax = sancao.suspensao_min_dias or 0, sancao.suspensao_max_dias
    if smin == smax:
        return f"Cabível: exatamente {_dias(smax)} (o dobro da última suspensão), além da multa.", base
    return f"Cabível: de {smin} a {_dias(smax)} (primeira suspensão), além da multa.", base


def montar_html(c: ConteudoPainel) -> str:
    """The panel's body as simple rich text (QTextBrowser's HTML subset)."""
    partes: list[str] = []

    def secao(titulo: str, corpo: str, base: str = "") -> None:
        fundamento = f' <span style="color:{COR_SECUNDARIA}">({_e(base)})</span>' if base else ""
        partes.append(f"<p style='margin-top:10px; margin-bottom:2px'><b>{_e(titulo)}</b>{fundamento}</p>")
        if corpo.startswith(("<ul", "<ol")):
            partes.append(corpo)
        else:
            partes.append(f"<p style='margin-top:0'>{corpo}</p>")

    if c.dispositivo_rotulo:
        tipo = f"tipo {c.tipo}" if c.tipo else "sem tipo definido"
        corpo = f"{_e(c.dispositivo_rotulo)} — <b>{_e(tipo)}</b>"
        if c.dispositivo_texto:
            corpo += f"<br><i>{_e(c.dispositivo_texto)}</i>"
        if c.dispositivo_nota:
            corpo += f"<br><span style='color:{COR_ALERTA}'>(sic) {_e(c.dispositivo_nota)}</span>"
        secao("Dispositivo infringido", corpo, CITACAO_TIPO if c.tipo else "")

    if c.bloqueio:
        partes.append(
            f"<p style='margin-top:8px; color:{COR_BLOQUEIO}'><b>Não é possível calcular a sanção.</b><br>"
            f"{_e(c.bloqueio)}</p>"
        )
        return "".join(partes)

    s = c.sancao
    if s is None or c.tipo is None:
        return "".join(partes)
    n = s.reincidencia
    base = citacoes(c.tipo, s)
    quando = f" em {formatar_data(c.data_infracao)}" if c.data_infracao else ""
    secao("Reincidência", f"<b>{_e(_nivel(n).capitalize())}</b> para o fato{quando}.", base.reincidencia)

    contam = [a for a in c.antecedentes if a.contado]
    nao_contam = [a for a in c.antecedentes if not a.contado]
    if not c.antecedentes:
        secao("Autos anteriores", "Nenhum auto anterior desta operadora por este dispositivo.")
    else:
        itens = "".join(f"<li>{_e(a.descricao)}<br><i>{_e(a.motivo)}</i></li>" for a in contam)
        secao(
            _titulo_contam(contam),
            f"<ul style='margin-top:0; margin-bottom:0; margin-left:-16px'>{itens}</ul>"
            if contam
            else "Nenhum.",
            base.antecedentes,
        )
        itens = "".join(f"<li>{_e(a.descricao)}<br><i>{_e(a.motivo)}</i></li>" for a in nao_contam)
        secao(
            f"Autos anteriores que não contam ({len(nao_contam)})",
            f"<ul style='margin-top:0; margin-bottom:0; margin-left:-16px'>{itens}</ul>"
            if nao_contam
            else "Nenhum.",
            base.reincidencia,
        )
    if c.aviso_omitidos:
        partes.append(f"<p style='color:{COR_SECUNDARIA}; margin-top:0'>{_e(c.aviso_omitidos)}</p>")

    multa = f"<b>{_e(_intervalo_ur(s.multa_min_ur, s.multa_max_ur))}</b>"
    if c.valor_urm is not None:
        rmin = formatar_reais(urm_para_reais(s.multa_min_ur, c.valor_urm))
        rmax = formatar_reais(urm_para_reais(s.multa_max_ur, c.valor_urm))
        reais = rmin if rmin == rmax else f"{rmin} a {rmax}"
        dia = f" ({formatar_data(c.urm_desde)})" if c.urm_desde else ""
        multa += (
            f" = <b>{_e(reais)}</b><br><span style='color:{COR_SECUNDARIA}'>Valor da URM hoje{_e(dia)}: "
            f"{_e(formatar_reais(c.valor_urm))}. A multa em reais será calculada com a URM em vigor na data "
            "da decisão.</span>"
        )
    elif c.aviso_urm:
        multa += f"<br><span style='color:{COR_ALERTA}'>{_e(c.aviso_urm)}</span>"
    secao("Multa cabível", multa, base.multa)

    texto, base_suspensao = texto_suspensao(c.tipo, s)
    cor = COR_ALERTA if s.suspensao_cabivel else COR_OK
    secao("Suspensão", f"<span style='color:{cor}'>{_e(texto)}</span>", base_suspensao)

    if n >= 1:
        secao(
            "Leitura do § 2º do art. 7º (texto com lacuna — sic)",
            f"<span style='color:{COR_SECUNDARIA}'>Texto impresso: “{_e(TEXTO_ART7_PARAGRAFO2)}”</span><br>"
            f"{_e(LEITURA_ART7_PARAGRAFO2)}",
        )

    itens = "".join(f"<li>{_e(f)}</li>" for f in legiveis(s.fundamentos))
    secao(
        "Fundamentos, passo a passo",
        f"<ol style='margin-top:0; margin-bottom:0; margin-left:-16px'>{itens}</ol>",
    )
    return "".join(partes)


class PainelSancao(QFrame):
    """The panel widget: a title and a scrollable, selectable body; `texto()` is what a user reads."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("painelSancao")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumWidth(380)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        self._titulo = QLabel("Sanção cabível (art. 7º)")
        fonte = self._titulo.font()
        fonte.setBold(True)
        fonte.setPointSizeF(fonte.pointSizeF() * 1.15)
        self._titulo.setFont(fonte)
        self._resumo = QLabel()
        self._resumo.setWordWrap(True)
        self._resumo.setTextFormat(Qt.TextFormat.RichText)
        self._corpo = QTextBrowser()
        self._corpo.setOpenLinks(False)
        self._corpo.setAccessibleName("Detalhes da sanção cabível")
        self._corpo.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        layout.addWidget(self._titulo)
        layout.addWidget(self._resumo)
        layout.addWidget(self._corpo, 1)
        self.limpar("Escolha a operadora, o dispositivo e a data da infração para ver a sanção cabível.")

    def limpar(self, mensagem: str) -> None:
        self._resumo.setText(f"<span style='color:{COR_SECUNDARIA}'>{_e(mensagem)}</span>")
        self._corpo.setHtml("")

    def mostrar(self, conteudo: ConteudoPainel) -> None:
        self._resumo.setText(self._montar_resumo(conteudo))
        self._corpo.setHtml(montar_html(conteudo))

    def mostrar_erro(self, mensagem: str) -> None:
        self._resumo.setText(f"<span style='color:{COR_BLOQUEIO}'><b>{_e(mensagem)}</b></span>")
        self._corpo.setHtml("")

    def texto(self) -> str:
        """Everything the panel shows, as plain text (what tests and screen readers read)."""
        return f"{self._titulo.text()}\n{_sem_html(self._resumo.text())}\n{self._corpo.toPlainText()}"

    @staticmethod
    def _montar_resumo(c: ConteudoPainel) -> str:
        if c.bloqueio:
            return f"<span style='color:{COR_BLOQUEIO}'><b>Este dispositivo não pode ser citado.</b></span>"
        s = c.sancao
        if s is None or c.tipo is None:
            return ""
        resumo = _e(
            f"Tipo {c.tipo} · {_nivel(s.reincidencia)} · multa {_intervalo_ur(s.multa_min_ur, s.multa_max_ur)}"
        )
        if s.suspensao_cabivel and s.suspensao_max_dias is not None:
            smin, smax = s.suspensao_min_dias or 0, s.suspensao_max_dias
            dias = _dias(smax) if smin == smax else f"{smin} a {_dias(smax)}"
            resumo += f" · <span style='color:{COR_ALERTA}'>suspensão de {_e(dias)}</span>"
        else:
            resumo += " · sem suspensão"
        return f"<b>{resumo}</b>"


def _sem_html(texto: str) -> str:
    from PySide6.QtGui import QTextDocumentFragment

    return QTextDocumentFragment.fromHtml(texto).toPlainText()


class Adiador(QObject):
    """Debounce: `agendar()` restarts a short single-shot timer; the callback runs once the typing stops."""

    def __init__(
        self, callback: Callable[[], None], parent: QObject | None = None, ms: int = ATRASO_MS
    ) -> None:
        super().__init__(parent)
        self._callback = callback
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(ms)
        self._timer.timeout.connect(self._callback)

    def agendar(self) -> None:
        self._timer.start()

    @property
    def pendente(self) -> bool:
        return self._timer.isActive()

    def executar_agora(self) -> None:
        """Run a pending call at once (before saving, so the form never saves against a stale panel)."""
        if self._timer.isActive():
            self._timer.stop()
            self._callback()
