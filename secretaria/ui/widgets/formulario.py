"""Forms: each field with a red message line under it, filled from the services' `ErroDominio.campo`, and
the dialog frame every editing dialog shares (`DialogoFormulario`: Escape on a changed form asks before
discarding, and a newer version of the record is reloaded keeping what the user typed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from secretaria.services.base import ConflitoEdicao, ErroDominio
from secretaria.ui.widgets.edicao import (
    FaixaAviso,
    ao_mudar,
    definir_campo,
    perguntar_descartar,
    texto_campo,
    valor_campo,
)
from secretaria.ui.widgets.janelas import tela_da_janela
from secretaria.ui.widgets.letras import dar_letras

T = TypeVar("T")

ESTILO_ERRO = "color: #b3261e;"
ESPACO_ENTRE_LINHAS = 2
"""Between a form's rows: each field's (empty) message line already separates it from the next."""


class RotuloErro(QLabel):
    """The red message line under a field. Its space is always there (one line when empty, so a message
    appearing moves no field), it grows to every line its wrapped text needs (a word-wrapped QLabel in a
    QFormLayout inside a QGroupBox otherwise gets one line's height: a top-level layout's minimum size
    ignores height-for-width), and it never shrinks back while the dialog is open (a fixed value clears
    its message without pulling the fields below up under the user's next click)."""

    def __init__(self, parent: QWidget | None = None, *, reservar: bool = True) -> None:
        super().__init__(parent)
        self._reservar = reservar
        if not reservar:
            self.setVisible(False)
        fonte = self.font()  # a size smaller than the fields: a form with a line under each field still fits
        fonte.setPointSizeF(max(8.0, fonte.pointSizeF() - 1))
        self.setFont(fonte)
        self.setStyleSheet(ESTILO_ERRO)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        politica = self.sizePolicy()
        politica.setHeightForWidth(False)  # the height is given as the minimum instead (see the class)
        self.setSizePolicy(politica)
        self._reserva = 0

    def hasHeightForWidth(self) -> bool:
        return False

    def altura_necessaria(self, largura: int | None = None) -> int:
        """The height the text needs at `largura` (the label's own width by default), one line at least."""
        largura = self.width() if largura is None else largura
        linha = self.fontMetrics().lineSpacing()
        if not self.text() or largura <= 0:
            return linha
        margens = self.contentsMargins()
        return max(linha, self.heightForWidth(largura) + margens.top() + margens.bottom())

    def _altura(self) -> int:
        return max(self.altura_necessaria(), self._reserva)

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._altura())

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self._altura())

    def setText(self, texto: str) -> None:
        super().setText(texto)
        if not self._reservar:
            self.setVisible(bool(texto))
        if texto and self.isVisible():  # the width is the laid-out one only once shown
            self._reserva = max(self._reserva, self.altura_necessaria())
        self._pedir_espaco()

    def _pedir_espaco(self) -> None:
        """Tell the layouts above, up to the window: a field's box caches its minimum until told."""
        widget: QWidget | None = self
        while widget is not None and not widget.isWindow():
            widget.updateGeometry()
            widget = widget.parentWidget()
        if widget is not None and self.isVisible():
            crescer_para_caber(widget)

    def clear(self) -> None:
        super().clear()
        if not self._reservar:
            self.setVisible(False)

    def resizeEvent(self, evento: QResizeEvent) -> None:
        super().resizeEvent(evento)
        if self.text() and self.height() < self._altura():
            self._pedir_espaco()


def crescer_para_caber(janela: QWidget) -> None:
    """Make the window as tall as its contents need at its present width (up to the screen): a top-level
    layout's minimum ignores the height wrapped labels need, so a second line of a message under a field
    ("…(maior que" / "zero).") was cut by the next field instead of pushing the window down."""
    layout = janela.layout()
    if layout is None:
        return
    layout.activate()
    necessaria = layout.totalMinimumSize().height()
    if layout.hasHeightForWidth():
        necessaria = max(necessaria, layout.totalHeightForWidth(janela.width()))
    tela_fisica = tela_da_janela(janela)
    tela = tela_fisica.availableGeometry().height() if tela_fisica is not None else necessaria
    if janela.height() < necessaria <= tela:
        janela.resize(janela.width(), necessaria)


_ALTURA_LINHA: list[int] = []


def _altura_de_uma_linha() -> int:
    """The height of a one-line field (a QLineEdit), measured once."""
    if not _ALTURA_LINHA:
        _ALTURA_LINHA.append(QLineEdit().sizeHint().height())
    return _ALTURA_LINHA[0]


def rotulo_erro(parent: QWidget | None = None, *, reservar: bool = True) -> RotuloErro:
    """The red message line used under a field (its space reserved; empty until there is something to
    say). `reservar=False`: hidden while empty (the form's general line, placed below the fields)."""
    return RotuloErro(parent, reservar=reservar)


def alvo_do_foco(widget: QWidget) -> QWidget:
    """The widget that really takes the focus for `widget`: a label's Alt mnemonic focuses its buddy only when
    the buddy itself accepts focus, so a container (a date field, a row of widgets) as buddy made Alt+letter
    do nothing and the next keys went to the field that still had the focus. Follows the focus proxies, then
    the first focusable child."""
    alvo = widget
    while alvo.focusPolicy() == Qt.FocusPolicy.NoFocus and (proxy := alvo.focusProxy()) is not None:
        alvo = proxy
    if alvo.focusPolicy() != Qt.FocusPolicy.NoFocus:
        return alvo
    for filho in alvo.findChildren(QWidget):
        if filho.focusPolicy() & Qt.FocusPolicy.TabFocus:
            return filho
    return alvo


class Formulario:
    """Lays out a `QFormLayout` whose fields each carry an error line, and shows a service's refusal beside
    the field it names.

        form = Formulario(layout_do_dialogo)            # or Formulario() and use form.layout
        form.adicionar("razao_social", "Razão social:", self.razao)
        form.adicionar("cnpj", "CNPJ:", self.cnpj)
        layout.addWidget(form.grupo("Endereço"))       # optional titled groups
        form.adicionar("logradouro", "Logradouro:", self.logradouro)
        ...
        id_ = form.tentar(lambda: cadastros.salvar_operadora(uow, ator, ...))
        if id_ is not None:
            dialogo.accept()

    `tentar` clears the old messages, runs the call and, on `ErroDominio`, writes the message in red under
    the field named by `erro.campo` and focuses that field (or, when the field is unknown, in the general
    line at the top of the form); it returns None then. Other exceptions propagate.

    Every message line keeps its space (`RotuloErro`), so showing or clearing one moves no field a user is
    about to click; a field's message goes as soon as its value changes, and the labels registered with
    `indicador` (a "Tempestiva" beside the date) are blanked while their field shows a refusal.
    """

    def __init__(self, destino: QVBoxLayout | None = None, parent: QWidget | None = None) -> None:
        self.layout = QFormLayout()
        self.layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.layout.setVerticalSpacing(ESPACO_ENTRE_LINHAS)
        self.erro_geral = rotulo_erro(parent, reservar=False)
        self._atual = self.layout
        self._campos: dict[str, tuple[QWidget, QLabel]] = {}
        self._vigiados: dict[str, QWidget] = {}
        self._nomes: dict[str, str] = {}
        self._valor_no_erro: dict[str, tuple[Any, ...]] = {}
        self._indicadores: dict[str, list[QLabel]] = {}
        self._rotulos: list[QLabel] = []
        self._apelidos: dict[str, str] = {}
        if destino is not None:  # the general line below the fields: when it shows, none of them moves
            destino.addLayout(self.layout)
            destino.addWidget(self.erro_geral)

    def adicionar(
        self, campo: str, rotulo: str, widget: QWidget | QLayout, *, foco: QWidget | None = None
    ) -> QLabel:
        """Add a row "rotulo: widget" with its (empty) error line under it; returns the error label.
        `foco` is the widget to focus on error when `widget` is a container or layout."""
        caixa = QWidget()
        vertical = QVBoxLayout(caixa)
        vertical.setContentsMargins(0, 0, 0, 0)
        vertical.setSpacing(0)
        if isinstance(widget, QLayout):
            vertical.addLayout(widget)
        else:
            vertical.addWidget(widget)
        erro = rotulo_erro(caixa)
        vertical.addWidget(erro)
        rotulo_widget = QLabel(rotulo)
        alvo = alvo_do_foco(foco or (widget if isinstance(widget, QWidget) else caixa))
        rotulo_widget.setBuddy(alvo)
        # At the top of the row, centred on the field's first line: beside the field, not its message.
        rotulo_widget.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        primeira_linha = min(alvo.sizeHint().height(), _altura_de_uma_linha())  # a text box: its 1st line
        topo = max(0, (primeira_linha - rotulo_widget.fontMetrics().height()) // 2)
        rotulo_widget.setContentsMargins(0, topo, 0, 0)
        self._rotulos.append(rotulo_widget)
        self._atual.addRow(rotulo_widget, caixa)
        self._campos[campo] = (alvo, erro)
        self._nomes[campo] = rotulo.replace("&", "").rstrip(": ")
        self._vigiar(campo, widget if isinstance(widget, QWidget) else caixa)
        return erro

    def _vigiar(self, campo: str, widget: QWidget) -> None:
        """The field's message goes as soon as its value changes (and the snapshot of dirty forms reads it)."""
        self._vigiados[campo] = widget
        ao_mudar(widget, lambda: self._mudou(campo))

    def _mudou(self, campo: str) -> None:
        _widget, rotulo = self._campos[campo]
        if not rotulo.text() or campo not in self._valor_no_erro:
            return
        if valor_campo(self._vigiados[campo]) != self._valor_no_erro[campo]:
            rotulo.clear()
            for nome, (_w, outro) in self._campos.items():
                if outro is rotulo:
                    self._valor_no_erro.pop(nome, None)

    def grupo(self, titulo: str) -> QGroupBox:
        """Start a titled group ("Endereço para intimações"): the next `adicionar` calls go into it. Place
        the returned QGroupBox in your layout; messages still find their fields across groups."""
        caixa = QGroupBox(titulo)
        layout = QFormLayout(caixa)
        layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        layout.setVerticalSpacing(ESPACO_ENTRE_LINHAS)
        self._atual = layout
        return caixa

    def alinhar_rotulos(self) -> None:
        """Give every label the width of the widest, so fields line up across groups."""
        largura = max((r.sizeHint().width() for r in self._rotulos), default=0)
        for r in self._rotulos:
            r.setMinimumWidth(largura)

    def registrar(self, campo: str, widget: QWidget, erro: QLabel, *, nome: str | None = None) -> None:
        """Use a field laid out elsewhere (a table, a panel) with its own error label."""
        self._campos[campo] = (widget, erro)
        self._nomes[campo] = nome or campo.replace("_", " ").capitalize()
        self._vigiar(campo, widget)

    def indicador(self, campo: str, rotulo: QLabel) -> None:
        """A label derived from `campo` ("Tempestiva: dentro do prazo"): blanked while the field shows a
        refusal, so the two never contradict each other; the dialog recomputes it when the field changes."""
        self._indicadores.setdefault(campo, []).append(rotulo)

    def rotulo_erro_de(self, campo: str) -> QLabel:
        """The error label of a field already added (to share it with a second widget on the same row)."""
        return self._campos[campo][1]

    def apelido(self, campo_servico: str, campo_formulario: str) -> None:
        """A service's field name that differs from the form's (e.g. "representante_cpf" → "cpf_rep")."""
        self._apelidos[campo_servico] = campo_formulario

    def limpar_erros(self) -> None:
        self.erro_geral.clear()
        self._valor_no_erro.clear()
        for _widget, erro in self._campos.values():
            erro.clear()

    def mostrar_erro(self, erro: ErroDominio) -> None:
        campo = self._apelidos.get(erro.campo or "", erro.campo or "")
        alvo = self._campos.get(campo)
        if alvo is None:
            self.erro_geral.setText(erro.mensagem)
            return
        widget, rotulo = alvo
        rotulo.setText(erro.mensagem)
        for nome, (_w, outro) in self._campos.items():
            if outro is rotulo:
                self._valor_no_erro[nome] = valor_campo(self._vigiados[nome])
        for indicador in self._indicadores.get(campo, []):
            indicador.setMinimumHeight(indicador.height())  # blank, not gone: nothing below moves
            indicador.clear()
        widget.setFocus(Qt.FocusReason.OtherFocusReason)

    def mensagem(self, campo: str) -> str:
        """The message shown under `campo` now ("" if none): what a user reads, and what tests check."""
        if campo == "":
            return self.erro_geral.text()
        alvo = self._campos.get(campo)
        return alvo[1].text() if alvo is not None else ""

    def tentar(self, acao: Callable[[], T]) -> T | None:
        self.limpar_erros()
        try:
            return acao()
        except ErroDominio as erro:
            self.mostrar_erro(erro)
            return None

    def gravar(
        self, parent: QWidget, acao: Callable[[], T], ao_gravar: Callable[[T], None], *, titulo: str
    ) -> None:
        """`tentar` for a save (`gravacao.gravar`): the wait shown, the window running, when the database
        is busy; `ao_gravar(resultado)` once saved, the refusal beside its field otherwise."""
        from secretaria.ui.widgets.gravacao import gravar

        self.limpar_erros()
        gravar(parent, acao, titulo=titulo, ao_concluir=ao_gravar, ao_recusar=self.mostrar_erro)

    @property
    def campos(self) -> dict[str, QWidget]:
        return {nome: w for nome, (w, _e) in self._campos.items()}

    @property
    def vigiados(self) -> dict[str, QWidget]:
        """Each field's whole widget (a row of two spin boxes, a date field with its button)."""
        return dict(self._vigiados)

    def nome_campo(self, campo: str) -> str:
        """The field's label as the user reads it ("Telefone")."""
        return self._nomes.get(campo, campo)


class DialogoFormulario(QDialog):
    """The frame of every editing dialog (registries, acts, auto, representação, users, admin tables).

    - The fields of its `Formulario`s are read when the dialog is first shown (or `marcar_como_carregado()`
      after a load); Escape, Cancelar and the window's close button on a form that differs from that ask
      "Descartar as alterações?" (Continuar editando is the default); an untouched form closes at once.
    - `avisar_alteracao_externa(mensagem)`: someone else saved the record being edited (a refused save's
      `ConflitoEdicao`, or a live notice from another PC). An untouched form reloads at once; a changed
      one shows the message with "Recarregar", which loads the stored version, keeps what the user typed
      in the fields they changed, and names those the other user changed too. A subclass that edits a
      versioned record implements `recarregar_registro()`.
    """

    _retrato: dict[str, tuple[Any, ...]] | None = None
    _descartando = False
    faixa: FaixaAviso | None = None

    # --- fields and their snapshot ---
    def formularios(self) -> list[Formulario]:
        return [v for v in vars(self).values() if isinstance(v, Formulario)]

    def _widgets(self) -> dict[str, QWidget]:
        campos: dict[str, QWidget] = {}
        for i, form in enumerate(self.formularios()):
            for nome, widget in form.vigiados.items():
                campos[f"{i}:{nome}"] = widget
        return campos

    def _nome(self, chave: str) -> str:
        indice, _, campo = chave.partition(":")
        return self.formularios()[int(indice)].nome_campo(campo)

    def retrato_campos(self) -> dict[str, tuple[Any, ...]]:
        return {chave: valor_campo(w) for chave, w in self._widgets().items()}

    def marcar_como_carregado(self) -> None:
        """What the fields hold now is "as loaded": leaving now asks nothing."""
        self._retrato = self.retrato_campos()

    def campos_alterados(self) -> list[str]:
        """The labels of the fields that differ from what was loaded."""
        if self._retrato is None:
            return []
        agora = self.retrato_campos()
        return [self._nome(k) for k, v in agora.items() if self._retrato.get(k, v) != v]

    def alterado(self) -> bool:
        return bool(self.campos_alterados())

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        dar_letras(self)  # every button reachable with Alt, whoever made it (the button box, a row added)
        if self._retrato is None:
            self.marcar_como_carregado()

    # --- leaving ---
    def reject(self) -> None:
        """Escape, Cancelar and the close button (QDialog's closeEvent calls this) on a changed form ask."""
        if self._descartando or not self.isVisible() or not self.alterado():
            super().reject()
            return
        perguntar_descartar(self, self.descartar)

    def descartar(self) -> None:
        """Close without asking, whatever was typed (the user chose Descartar, or the session ended)."""
        self._descartando = True
        super().reject()

    # --- someone else saved the record ---
    def recarregar_registro(self) -> None:
        """Fill the fields from the record's stored version and keep its `versao` (subclasses that edit a
        versioned record)."""
        raise NotImplementedError

    def pode_recarregar(self) -> bool:
        return type(self).recarregar_registro is not DialogoFormulario.recarregar_registro

    def _faixa(self) -> FaixaAviso:
        if self.faixa is None:
            self.faixa = FaixaAviso(self)
            self.faixa.botao.clicked.connect(self.recarregar_mantendo_alteracoes)
            layout = self.layout()
            botoes = getattr(self, "botoes", None)
            assert isinstance(layout, QVBoxLayout)
            indice = layout.indexOf(botoes) if isinstance(botoes, QWidget) else -1
            layout.insertWidget(indice if indice >= 0 else layout.count(), self.faixa)
        return self.faixa

    def avisar_alteracao_externa(self, mensagem: str, *, ao_salvar: bool = False) -> None:
        """The record on screen changed elsewhere: say so above the buttons, with "Recarregar"; an
        untouched form simply shows the new version (`ao_salvar`: the user's save was refused, so what
        was typed is never reloaded over, even when it equals what was loaded)."""
        if not self.pode_recarregar():
            self._faixa().mostrar(mensagem, recarregar=False)
            return
        if not ao_salvar and not self.alterado():
            self.recarregar_registro()
            self.marcar_como_carregado()
            self._faixa().mostrar(f"{mensagem}\nO formulário já mostra a versão atual.", recarregar=False)
            return
        self._faixa().mostrar(
            f"{mensagem}\nRecarregar mostra a versão atual e mantém o que você digitou nos campos que alterou.",
            recarregar=True,
        )

    def gravar_no_formulario(
        self, form: Formulario, acao: Callable[[], T], ao_gravar: Callable[[T], None]
    ) -> None:
        """Run the save `acao` (`gravacao.gravar`: the wait shown, the window running, when the database
        is busy) and then `ao_gravar(resultado)`; a refusal shows beside its field, nothing written, and a
        version conflict (someone else saved the record meanwhile) above the buttons with "Recarregar" when
        this dialog can reload its record."""
        from secretaria.ui.widgets.gravacao import gravar

        form.limpar_erros()
        gravar(
            self,
            acao,
            titulo=self.windowTitle() or "Salvar",
            ao_concluir=ao_gravar,
            ao_recusar=lambda erro: self.recusado_no_formulario(form, erro),
        )

    def recusado_no_formulario(self, form: Formulario, erro: ErroDominio) -> None:
        if isinstance(erro, ConflitoEdicao) and self.pode_recarregar():
            self.mostrar_conflito(erro)
        else:
            form.mostrar_erro(erro)

    def mostrar_conflito(self, conflito: ConflitoEdicao) -> None:
        """A save refused because the record changed since it was loaded (nothing was written)."""
        self.avisar_alteracao_externa(conflito.mensagem, ao_salvar=True)

    def recarregar_mantendo_alteracoes(self) -> None:
        carregado = self._retrato or {}
        digitado = self.retrato_campos()
        alterados = [k for k, v in digitado.items() if carregado.get(k, v) != v]
        self.recarregar_registro()
        gravado = self.retrato_campos()
        widgets = self._widgets()
        tambem = [
            f"{self._nome(k)} (agora {texto_campo(widgets[k])})"
            for k in alterados
            if gravado.get(k) != carregado.get(k) and gravado.get(k) != digitado[k]
        ]
        for chave in alterados:
            definir_campo(widgets[chave], digitado[chave])
        self._retrato = gravado
        for form in self.formularios():
            form.limpar_erros()
        texto = "Versão atual carregada; o que você digitou foi mantido nos campos que alterou."
        if tambem:
            texto += "\nO outro usuário também alterou: " + "; ".join(tambem) + "."
        texto += "\nRevise e salve de novo."
        self._faixa().mostrar(texto, recarregar=False)


def botoes_salvar_cancelar(dialogo: QDialog, *, texto_salvar: str = "Salvar") -> QDialogButtonBox:
    """OK/Cancel in Portuguese whatever the translations: Enter = save (default button), Escape = cancel.

    The Save button is wired to nothing: connect `botoes.accepted` to the dialog's save slot, which calls
    `accept()` only when the service succeeded (so nothing is written and the dialog stays open on error).
    """
    botoes = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
    salvar = botoes.button(QDialogButtonBox.StandardButton.Save)
    salvar.setText(texto_salvar)
    if texto_salvar.replace("&", "") != "Salvar":
        salvar.setIcon(QIcon())  # the style's floppy disk means "save", not "Entrar" or "Lavrar auto…"
    salvar.setDefault(True)
    salvar.setAutoDefault(True)
    cancelar = botoes.button(QDialogButtonBox.StandardButton.Cancel)
    cancelar.setText("Cancelar")
    cancelar.setAutoDefault(False)
    botoes.rejected.connect(dialogo.reject)
    return botoes


def traduzir_botoes(botoes: QDialogButtonBox) -> None:
    """Portuguese texts on a button box's standard buttons (in case Qt's translation is missing)."""
    for botao in botoes.buttons():
        papel = botoes.standardButton(botao)
        texto = TEXTOS_BOTOES.get(papel)
        if texto and isinstance(botao, QAbstractButton):
            botao.setText(texto)


TEXTOS_BOTOES = {
    QDialogButtonBox.StandardButton.Ok: "OK",
    QDialogButtonBox.StandardButton.Cancel: "Cancelar",
    QDialogButtonBox.StandardButton.Save: "Salvar",
    QDialogButtonBox.StandardButton.Close: "Fechar",
    QDialogButtonBox.StandardButton.Yes: "Sim",
    QDialogButtonBox.StandardButton.No: "Não",
    QDialogButtonBox.StandardButton.Apply: "Aplicar",
    QDialogButtonBox.StandardButton.Discard: "Descartar",
    QDialogButtonBox.StandardButton.Help: "Ajuda",
    QDialogButtonBox.StandardButton.Reset: "Restaurar",
    QDialogButtonBox.StandardButton.Open: "Abrir",
}
