"""One dialog per act of the case (PRODUTO paths 4–8): intimação, defesa, proposta, decisão, recurso and its
judgement, suspensão, pagamento, cumprimento (art. 8º), cancelamento, retificação (termo de retificação).

Every dialog works the same way (`DialogoRegistro`, whose flow the cassação dialogs of `cassacao.py` share
too): Enter records, Escape cancels; what can be computed at once is shown at
once (the deadline an intimação starts, whether a defence is timely, the allowed range and the R$ amount
beside the fine); irreversible acts (decisão, julgamento, cancelamento, cassação) ask for confirmation;
a refusal from the service appears beside its field and nothing is written. Each dialog calls exactly one
service function with one unit of work.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QButtonGroup,
    QComboBox,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.codigos import REGISTROS_CUMPRIMENTO, REGISTROS_PAGAMENTO, itens
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.lei.prazos import PRAZO_DEFESA_DIAS, PRAZO_RECURSO_DIAS, tempestivo
from secretaria.lei.sancoes import NIVEL_SUSPENSAO
from secretaria.lei.urm import formatar_reais, urm_para_reais
from secretaria.services.base import ConflitoEdicao, ErroDominio
from secretaria.services.caso import Caso, RetificacaoCaso
from secretaria.services.rotulos import MEIOS_INTIMACAO, RESULTADOS_INTIMACAO
from secretaria.services.sancao import AvaliacaoSancao
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.campos import (
    CampoTexto,
    combo_pesquisavel,
    preencher_combo,
    rotulo_dica,
    selecionar_dado,
)
from secretaria.ui.processo.painel_sancao import COR_ALERTA, COR_BLOQUEIO, COR_OK, Adiador
from secretaria.ui.widgets import CampoData, CampoDecimal, Formulario, botoes_salvar_cancelar, mensagens
from secretaria.ui.widgets.formulario import DialogoFormulario
from secretaria.ui.widgets.gravacao import gravar
from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

if TYPE_CHECKING:
    from secretaria.services.autos import PedidoCancelamento
    from secretaria.services.execucao import PedidoPagamento, PedidoSuspensao
    from secretaria.services.retificacoes import PedidoRetificacao
    from secretaria.services.revisao_sancao import PedidoManutencao, PedidoRevisao
    from secretaria.services.tramitacao import PedidoDecisao, PedidoIntimacao, PedidoJulgamento, PedidoRecurso

COR_DESTAQUE = "#1d4ed8"
ESTILO_NORMAL = "color: palette(window-text);"
"""Back to the normal colour (an empty style sheet would keep the last colour painted, a Qt quirk)."""


def _dias(n: int) -> str:
    return f"{n} {'dia' if n == 1 else 'dias'}"


def _faixa(minimo: Decimal, maximo: Decimal) -> str:
    if minimo == maximo:
        return f"{formatar_decimal(minimo)} URM"
    return f"{formatar_decimal(minimo)} a {formatar_decimal(maximo)} URM"


def _colorir(rotulo: QLabel, texto: str, cor: str, negrito: bool = False) -> None:
    peso = "font-weight: bold;" if negrito else ""
    rotulo.setStyleSheet(f"color: {cor}; {peso}")
    rotulo.setText(texto)


class DialogoRegistro(DialogoFormulario):
    """The flow every act dialog shares, the case's (`DialogoAto`) and the cassação's: "Registrar" reads the
    fields (`validar`), asks first when the act is irreversible (`confirmacao`), makes the one service call
    (`executar`) and either shows the service's refusal beside its field, nothing written, or keeps what
    the service returned (`concluir`) and closes accepted.

    A subclass lays out `layout_principal` and `form`, then calls `adicionar_botoes()`.
    """

    titulo = "Registrar ato"
    texto_botao = "&Registrar"
    texto_voltar = "Cancelar"
    contexto: Contexto
    layout_principal: QVBoxLayout
    form: Formulario

    # --- for subclasses ---
    def validar(self) -> None:
        """Read the fields (raising ErroDominio beside the field) before anything is asked or written."""

    def confirmacao(self) -> str | None:
        return None

    def conferir(self, sessao: Any) -> None:
        """Run the service's own checks (its `conferir_*`, in a read session, writing nothing) so that a
        refusal shows beside its field before the irreversible act is confirmed, never after."""

    def executar(self) -> Any:
        raise NotImplementedError

    def concluir(self, resultado: Any) -> None:
        """Keep what `executar` returned, just before the dialog closes accepted."""

    def adicionar_botoes(self) -> None:
        self.botoes = botoes_salvar_cancelar(self, texto_salvar=self.texto_botao)
        self.botoes.accepted.connect(self.registrar)
        self.botoes.button(QDialogButtonBox.StandardButton.Cancel).setText(self.texto_voltar)
        self.layout_principal.addWidget(self.botoes)

    @property
    def uow(self) -> Any:
        return self.contexto.banco.uow()

    @property
    def ator(self) -> Any:
        return self.contexto.ator

    def data_obrigatoria(self, campo: CampoData, nome: str, rotulo: str) -> date:
        valor = campo.data_ou_erro(nome, rotulo)
        if valor is None:
            raise ErroDominio(f"Informe {rotulo}.", nome)
        return valor

    # --- the flow ---
    def registrar(self) -> None:
        self.form.limpar_erros()
        try:
            self.validar()
        except ErroDominio as erro:
            self.form.mostrar_erro(erro)
            return
        texto = self.confirmacao()
        if texto:
            try:
                with self.contexto.banco.leitura() as sessao:
                    self.conferir(sessao)
            except ErroDominio as erro:
                self._recusado(erro)
                return
            mensagens.confirmar(
                self, self.titulo, texto, self._executar, texto_sim="Confirmar", texto_nao="Voltar"
            )
        else:
            self._executar()

    def _executar(self) -> None:
        # `gravar`: when the database is busy, the wait is shown (with Cancelar) and the window keeps running
        gravar(
            self, self.executar, titulo=self.titulo, ao_concluir=self._executado, ao_recusar=self._recusado
        )

    def _executado(self, resultado: Any) -> None:
        self.concluir(resultado)
        self.accept()

    def _recusado(self, erro: ErroDominio) -> None:
        if isinstance(erro, ConflitoEdicao) and self.pode_recarregar():
            self.mostrar_conflito(erro)
            return
        self.form.mostrar_erro(erro)


class DialogoAto(DialogoRegistro):
    """The case act's frame: a heading naming the case, a form, and Registrar/Cancelar.

    Subclasses add fields in `montar()`, may return a confirmation text from `confirmacao()` (irreversible
    acts), and do the one service call in `executar()`, returning the message the case screen shows after.
    """

    def __init__(self, contexto: Contexto, caso: Caso, parent: QWidget | None = None, **opcoes: Any) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.caso = caso
        self.opcoes = opcoes
        self.mensagem_final = ""
        self.setWindowTitle(f"{self.titulo} — AI nº {caso.numero_formatado}")
        self.layout_principal = QVBoxLayout(self)
        cabecalho = QLabel(
            f"<b>Auto de infração nº {caso.numero_formatado}</b> — {caso.operadora_nome}<br>"
            f"{caso.dispositivo_rotulo} (tipo {caso.tipo}), infração de {formatar_data(caso.data_infracao)}"
        )
        cabecalho.setWordWrap(True)
        self.layout_principal.addWidget(cabecalho)
        self.setMinimumWidth(640)
        self.form = Formulario(self.layout_principal, self)
        self.montar()
        self.layout_principal.addStretch(1)
        self.adicionar_botoes()

    def montar(self) -> None:
        raise NotImplementedError

    def executar(self) -> str:
        raise NotImplementedError

    def concluir(self, resultado: Any) -> None:
        self.mensagem_final = str(resultado)

    def recarregar_registro(self) -> None:
        """The case as it stands now (another act was recorded meanwhile): the act being typed is a new
        record, so every field keeps its value; the service checks it against the new state on saving."""
        from secretaria.services.caso import obter_caso

        with self.contexto.banco.leitura() as sessao:
            self.caso = obter_caso(sessao, self.caso.id)


# --- intimação (art. 11) ---------------------------------------------------------------------------------


class DialogoIntimacao(DialogoAto):
    """One delivery attempt of the auto, the decision, the appeal's judgment or the latest termo de revisão:
    how, when, to whom, and whether it reached."""

    titulo = "Registrar intimação"

    def __init__(
        self,
        contexto: Contexto,
        caso: Caso,
        parent: QWidget | None = None,
        *,
        objeto: str = "auto",
        termo: RetificacaoCaso | None = None,
    ) -> None:
        super().__init__(contexto, caso, parent, objeto=objeto, termo=termo)

    def montar(self) -> None:
        self.objeto = self.opcoes.get("objeto", "auto")
        self.termo: RetificacaoCaso | None = self.opcoes.get("termo")
        titulo = {
            "decisao": "Registrar intimação da decisão",
            "julgamento": "Registrar intimação do julgamento do recurso",
        }.get(self.objeto, "Registrar intimação do auto")
        revista = self.caso.termos_revisao[-1] if self.caso.termos_revisao else None
        if self.objeto == "revisao" and revista is not None:  # the latest termo is the one delivered
            titulo = f"Registrar intimação do termo de revisão nº {revista.numero_formatado}"
            aviso = QLabel(
                f"Entrega do termo de revisão nº {revista.numero_formatado}, de {formatar_data(revista.data)}, "
                "que reduziu a penalidade decidida (Lei federal nº 9.784/1999, art. 65)."
            )
            aviso.setWordWrap(True)
            self.layout_principal.insertWidget(1, aviso)
        if self.termo is not None:
            titulo = f"Registrar intimação do termo de retificação nº {self.termo.numero_formatado}"
            aviso = QLabel(
                f"Entrega do termo de retificação nº {self.termo.numero_formatado}, de "
                f"{formatar_data(self.termo.data)} ({'de substância' if self.termo.substancial else 'formal'}), "
                "com a cópia do auto retificado."
            )
            aviso.setWordWrap(True)
            self.layout_principal.insertWidget(1, aviso)
        self.setWindowTitle(f"{titulo} — AI nº {self.caso.numero_formatado}")
        self._montar_campos()

    def _termo_nao_abre_prazo(self) -> str | None:
        """Why delivering this termo starts no deadline (formal, or another termo of substance still awaits)."""
        if self.termo is None:
            return None
        if not self.termo.substancial:
            return "Termo de retificação formal: a entrega não inicia nem reabre o prazo de defesa."
        outros = [
            r
            for r in self.caso.retificacoes
            if r.substancial and r.intimado_em is None and r.id != self.termo.id
        ]
        if outros:
            return (
                f"O prazo de defesa só recomeça com a intimação do termo nº {outros[-1].numero_formatado}, que "
                "também altera a substância do auto."
            )
        return None

    def _montar_campos(self) -> None:
        self.prazo_previsto: tuple[str, date] | None = None
        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.meio = QComboBox()
        for chave, rotulo in MEIOS_INTIMACAO.items():
            self.meio.addItem(rotulo, chave)
        self.resultado = QComboBox()
        for chave, rotulo in RESULTADOS_INTIMACAO.items():
            self.resultado.addItem(rotulo, chave)
        self.recebedor_nome = QLineEdit()
        self.recebedor_nome.setPlaceholderText(
            "Quem recebeu (art. 11: o representante legal ou alguém no endereço)"
        )
        if self.caso.operadora_representante:
            self.recebedor_nome.setText(self.caso.operadora_representante)
        self.recebedor_documento = QLineEdit()
        self.recibo = QLineEdit()
        self.recibo.setPlaceholderText("Número do recibo ou do AR")
        self.observacao = CampoTexto(linhas=2)
        self.previsao = rotulo_dica()
        f = self.form
        f.adicionar("data", "&Data:", self.data)
        f.adicionar("meio", "&Meio:", self.meio)
        f.adicionar("resultado", "R&esultado:", self.resultado)
        f.adicionar("recebedor_nome", "Recebida &por:", self.recebedor_nome)
        f.adicionar("recebedor_documento", "D&ocumento de quem recebeu:", self.recebedor_documento)
        f.adicionar("recibo", "Re&cibo / AR:", self.recibo)
        f.adicionar("observacao", "O&bservação:", self.observacao)
        self.previsao.setStyleSheet(f"color: {COR_DESTAQUE}; font-weight: bold")
        self.layout_principal.addWidget(self.previsao)
        f.indicador("data", self.previsao)  # no deadline announced beside a refused date
        endereco = QLabel(f"Endereço da operadora: {self.caso.operadora_endereco or '(não cadastrado)'}")
        endereco.setWordWrap(True)
        self.layout_principal.addWidget(endereco)
        self.data.dataAlterada.connect(lambda _d: self.atualizar_previsao())
        self.resultado.currentIndexChanged.connect(lambda _i: self.atualizar_previsao())
        self.atualizar_previsao()

    def atualizar_previsao(self) -> None:
        """The deadline this attempt would start, shown before saving (REGRAS § 4)."""
        from secretaria.services.lei_db import calendario

        sucesso = self.resultado.currentData() == "entregue"
        try:
            dia = self.data.data()
        except ValueError:
            dia = None
        ja_corre = self.caso.prazo_defesa if self.objeto == "auto" else self.caso.prazo_recurso
        self.prazo_previsto = None
        nao_abre = self._termo_nao_abre_prazo()
        if self.objeto == "julgamento":  # last instance: the delivery starts no deadline
            nao_abre = "O julgamento do recurso é de última instância: a entrega não inicia prazo."
        if self.objeto == "revisao":  # a revision only lowers a decided penalty: nothing new to appeal
            nao_abre = (
                "A revisão só reduz a penalidade já decidida: a entrega não inicia prazo; o da multa conta do "
                "dia em que a penalidade se tornou definitiva."
            )
        if sucesso and nao_abre:
            self.previsao.setText(nao_abre)
            return
        if not sucesso:
            self.previsao.setText(
                "Tentativa sem êxito: fica registrada, e nenhum prazo começa a correr. "
                "Registre depois uma nova tentativa."
            )
            return
        if ja_corre is not None:
            self.previsao.setText(
                f"O prazo já está correndo desde a primeira intimação: vence em {formatar_data(ja_corre)}."
            )
            return
        if dia is None:
            self.previsao.setText("")
            return
        dias, nome = (
            (PRAZO_DEFESA_DIAS, "Prazo de defesa (art. 14)")
            if self.objeto == "auto"
            else (PRAZO_RECURSO_DIAS, "Prazo de recurso ao Prefeito (art. 15)")
        )
        if self.termo is not None:
            nome = "Prazo de defesa reaberto (art. 14)"
        with self.contexto.banco.leitura() as sessao:
            prazo = calendario(sessao).prazo(dia, dias)
        self.prazo_previsto = (nome, prazo.vencimento)
        self.previsao.setText(f"{nome}: vencerá em {formatar_data(prazo.vencimento)}. {prazo.explicacao}")

    def validar(self) -> None:
        self.data_obrigatoria(self.data, "data", "a data da intimação")
        self.atualizar_previsao()

    def confirmacao(self) -> str | None:
        """A delivered notice starts the deadline, and its date cannot be corrected afterwards: ask first."""
        ja_corre = self.caso.prazo_defesa if self.objeto == "auto" else self.caso.prazo_recurso
        if self.resultado.currentData() != "entregue" or ja_corre is not None or self.prazo_previsto is None:
            return None
        nome, vencimento = self.prazo_previsto
        dia = self.data_obrigatoria(self.data, "data", "a data da intimação")
        quem = self.recebedor_nome.text().strip()
        objeto = "da decisão" if self.objeto == "decisao" else "do auto"
        if self.termo is not None:
            objeto = f"do termo de retificação nº {self.termo.numero_formatado}"
        return (
            f"Registrar a intimação {objeto} entregue em {formatar_data(dia)}"
            + (f" a {quem}" if quem else "")
            + f"?\n\n{nome} vencerá em {formatar_data(vencimento)}. Depois de registrada, a data da intimação "
            "não pode ser corrigida pelo programa."
        )

    def pedido(self) -> PedidoIntimacao:
        """The request of `registrar_intimacao` (and of its check) from the fields."""
        from secretaria.services.tramitacao import PedidoIntimacao

        return PedidoIntimacao(
            auto_id=self.caso.id,
            data=self.data_obrigatoria(self.data, "data", "a data da intimação"),
            meio=self.meio.currentData(),
            resultado=self.resultado.currentData(),
            objeto=self.objeto,
            recebedor_nome=self.recebedor_nome.text(),
            recebedor_documento=self.recebedor_documento.text(),
            recibo=self.recibo.text(),
            observacao=self.observacao.texto(),
            versao=self.caso.versao,
            retificacao_id=self.termo.id if self.termo is not None else None,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.tramitacao import conferir_intimacao

        conferir_intimacao(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.tramitacao import registrar_intimacao

        resumo = registrar_intimacao(self.uow, self.ator, self.pedido())
        if not resumo.sucesso:
            return "Tentativa de intimação sem êxito registrada. Nenhum prazo começou a correr."
        if resumo.prazo is not None or self.termo is not None or self.objeto in ("julgamento", "revisao"):
            return f"Intimação registrada. {resumo.explicacao_prazo or ''}".strip()
        return "Intimação registrada."


# --- defesa (art. 14) --------------------------------------------------------------------------------------


class RotuloReservado(QLabel):
    """A word-wrapped line whose height is that of the tallest text it may show, whatever it shows now: the
    fields below it never move while the user types above (a click aimed at the next field landed between
    fields, and the text typed next was lost)."""

    def __init__(self, possiveis: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.possiveis = possiveis
        self._medida = QLabel()
        self._medida.setWordWrap(True)
        self._medida.setStyleSheet("font-weight: bold;")

    def heightForWidth(self, largura: int) -> int:
        altura = super().heightForWidth(largura)
        for texto in self.possiveis:
            self._medida.setText(texto)
            altura = max(altura, self._medida.heightForWidth(largura))
        return altura

    def minimumSizeHint(self) -> QSize:
        dica = super().minimumSizeHint()
        return QSize(dica.width(), max(dica.height(), self.heightForWidth(max(self.width(), 1))))


class DialogoDefesa(DialogoAto):
    titulo = "Registrar defesa"

    def montar(self) -> None:
        self.protocolada_em = CampoData(obrigatoria=True)
        self.protocolada_em.definir_data(relogio.hoje())
        self.requerente = QLineEdit()
        self.requerente.setPlaceholderText("Quem assina a petição")
        self.recibo = QLineEdit()
        self.texto = CampoTexto(linhas=5)
        self.texto.setPlaceholderText("Resumo ou texto da defesa")
        prazo = formatar_data(self.caso.prazo_defesa) if self.caso.prazo_defesa else ""
        self.situacao = RotuloReservado([self._texto_tempestiva(prazo), self._texto_intempestiva(prazo)])
        f = self.form
        f.adicionar("protocolada_em", "&Protocolada em:", self.protocolada_em)
        f.layout.addRow(self.situacao)
        f.indicador("protocolada_em", self.situacao)
        f.adicionar("requerente", "Re&querente:", self.requerente)
        f.adicionar("recibo", "Re&cibo:", self.recibo)
        f.adicionar("texto", "&Texto:", self.texto)
        self.protocolada_em.dataAlterada.connect(lambda _d: self.atualizar_situacao())
        self.atualizar_situacao()

    def atualizar_situacao(self) -> None:
        prazo = self.caso.prazo_defesa
        try:
            dia = self.protocolada_em.data()
        except ValueError:
            dia = None
        if prazo is None:
            _colorir(
                self.situacao,
                "O auto ainda não foi intimado: registre antes a intimação.",
                COR_BLOQUEIO,
                True,
            )
        elif dia is None:
            self.situacao.setText(f"Prazo de defesa: até {formatar_data(prazo)}.")
        elif tempestivo(dia, prazo):
            _colorir(self.situacao, self._texto_tempestiva(formatar_data(prazo)), COR_OK, True)
        else:
            _colorir(self.situacao, self._texto_intempestiva(formatar_data(prazo)), COR_ALERTA, True)

    @staticmethod
    def _texto_tempestiva(prazo: str) -> str:
        return f"Tempestiva: dentro do prazo, que vai até {prazo}."

    @staticmethod
    def _texto_intempestiva(prazo: str) -> str:
        return (
            f"INTEMPESTIVA: o prazo venceu em {prazo}. A defesa será registrada e marcada como intempestiva; "
            "a decisão mostrará isso."
        )

    def executar(self) -> str:
        from secretaria.services.tramitacao import registrar_defesa

        resumo = registrar_defesa(
            self.uow,
            self.ator,
            auto_id=self.caso.id,
            protocolada_em=self.data_obrigatoria(
                self.protocolada_em, "protocolada_em", "a data do protocolo"
            ),
            requerente=self.requerente.text(),
            texto=self.texto.texto(),
            recibo=self.recibo.text(),
            versao=self.caso.versao,
        )
        situacao = "tempestiva" if resumo.tempestiva else "INTEMPESTIVA"
        return f"Defesa registrada: {situacao} (prazo até {formatar_data(resumo.prazo)})."


# --- the penalty fields shared by proposta, decisão and julgamento -------------------------------------------

MAXIMO_DIGITADO_DIAS = 99
"""What the days field takes: any two digits. The law's cap (art. 7º, II: 30 days) and the case's range
are shown beside it, and the service refuses a value outside them with the reason."""


class CampoDias(QSpinBox):
    """Days of suspension: "sem suspensão", "1 dia", "15 dias". Any two-digit number may be typed, even outside
    the range of the case: a spin box clamped to the range dropped the second digit of "15" silently (it read
    1), where the range shown beside it and the service's refusal say what is wrong. The arrows step only
    through the values the case allows (`permitir`)."""

    _TEXTO = re.compile(r"^\s*(\d{0,2})\s*(d|di|dia|dias)?\s*$", re.IGNORECASE)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, MAXIMO_DIGITADO_DIAS)
        self.setSpecialValueText("sem suspensão")
        self.permitidos: tuple[int, ...] = (0,)

    def permitir(self, minimo: int, maximo: int) -> None:
        self.permitidos = (0, *range(max(minimo, 1), maximo + 1))

    def textFromValue(self, valor: int) -> str:
        return _dias(valor)

    def valueFromText(self, texto: str) -> int:
        achado = self._TEXTO.match(texto)
        return int(achado.group(1)) if achado and achado.group(1) else 0

    def validate(self, texto: str, posicao: int) -> tuple[QValidator.State, str, int]:
        return self._estado(texto), texto, posicao

    def _estado(self, texto: str) -> QValidator.State:
        if texto == self.specialValueText():
            return QValidator.State.Acceptable
        achado = self._TEXTO.match(texto)
        if achado is None:
            return QValidator.State.Invalid
        if not achado.group(1):
            return QValidator.State.Intermediate
        if int(achado.group(1)) > self.maximum():
            return QValidator.State.Invalid
        return QValidator.State.Acceptable

    def stepBy(self, passos: int) -> None:
        atual = self.value()
        if passos > 0:
            seguintes = [v for v in self.permitidos if v > atual]
            alvo = seguintes[min(passos, len(seguintes)) - 1] if seguintes else atual
        else:
            anteriores = [v for v in self.permitidos if v < atual]
            alvo = anteriores[-min(-passos, len(anteriores))] if anteriores else atual
        self.setValue(alvo)
        self.selectAll()

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:
        if not self.isEnabled():
            return QAbstractSpinBox.StepEnabledFlag.StepNone
        atual = self.value()
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if any(v > atual for v in self.permitidos):
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if any(v < atual for v in self.permitidos):
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags


class CamposPenalidade(QWidget):
    """Fine (URM) with the allowed range beside it and the R$ amount computed live; suspension (days) enabled
    only where the law allows it. The range comes from `avaliar_sancao` as of `dia` (the act's date)."""

    def __init__(self, contexto: Contexto, caso: Caso, parent: QWidget | None = None, **opcoes: Any) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.caso = caso
        self.opcoes = opcoes
        self.avaliacao: AvaliacaoSancao | None = None
        self.multa = CampoDecimal(casas=2)
        self.multa.setMaximumWidth(120)
        self.multa.setAccessibleName("Multa em URM")
        self.faixa = QLabel()
        self.reais = QLabel()
        self.reais.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.suspensao = CampoDias()
        self.suspensao.setMaximumWidth(140)
        self.suspensao.setAccessibleName("Suspensão em dias")
        self.faixa_suspensao = QLabel()
        self.faixa_suspensao.setWordWrap(True)
        # The unit beside the fine, then a gap before the range ("URMFaixa cabível" read as one word).
        self.linha_multa = QHBoxLayout()
        self.linha_multa.setSpacing(6)
        self.linha_multa.addWidget(self.multa)
        self.linha_multa.addWidget(QLabel("URM"))
        self.linha_multa.addSpacing(12)
        self.linha_multa.addWidget(self.faixa, 1)
        self.linha_suspensao = QHBoxLayout()
        self.linha_suspensao.setSpacing(6)
        self.linha_suspensao.addWidget(self.suspensao)
        self.linha_suspensao.addSpacing(12)
        self.linha_suspensao.addWidget(self.faixa_suspensao, 1)
        self.multa.valorAlterado.connect(lambda _v: self.atualizar_reais())
        self._texto_suspensao = ""
        self.suspensao.valueChanged.connect(lambda _v: self.atualizar_suspensao())

    def avaliar(self, dia: date | None, data_valor: date | None = None) -> None:
        """The range as of `dia` (the act's date); R$ at the URM of `data_valor` (default: `dia`)."""
        from secretaria.services.sancao import avaliar_sancao

        dia = dia or relogio.hoje()
        try:
            with self.contexto.banco.leitura() as sessao:
                self.avaliacao = avaliar_sancao(
                    sessao,
                    operadora_id=self.caso.operadora_id,
                    dispositivo_codigo=self.caso.dispositivo_codigo,
                    data_infracao=self.caso.data_infracao,
                    excluir_auto_id=self.caso.id,
                    data_valor=data_valor or dia,
                    tipo=self.caso.tipo,  # a provision deactivated since stays on the cases that cite it
                )
        except ErroDominio as erro:
            self.avaliacao = None
            _colorir(self.faixa, erro.mensagem, COR_BLOQUEIO)
            return
        s = self.avaliacao.sancao
        nivel = "infração primária" if s.reincidencia == 0 else f"{s.reincidencia}ª reincidência"
        self.faixa.setText(
            f"Faixa cabível: <b>{_faixa(s.multa_min_ur, s.multa_max_ur)}</b> ({nivel}; art. 7º)"
        )
        if s.suspensao_cabivel and s.suspensao_max_dias is not None:
            smin, smax = s.suspensao_min_dias or 0, s.suspensao_max_dias
            self.suspensao.setEnabled(True)
            self.suspensao.permitir(smin, smax)  # exact length: the arrows give 0 or it
            if smin == smax:
                texto = f"Cabível: exatamente {_dias(smax)} (art. 7º, § 7º), cumulativa com a multa (§ 8º)."
            else:
                texto = f"Cabível: de {smin} a {_dias(smax)} (art. 7º, § 6º), cumulativa com a multa (§ 8º)."
            self._texto_suspensao = texto
            self.atualizar_suspensao()
        else:
            self._texto_suspensao = ""
            self.suspensao.permitir(0, 0)
            self.suspensao.setValue(0)
            self.suspensao.setEnabled(False)
            _colorir(
                self.faixa_suspensao,
                f"Não cabível: no tipo {self.caso.tipo} a suspensão só cabe a partir da "
                f"{NIVEL_SUSPENSAO[self.caso.tipo]}ª reincidência (art. 7º, § 5º); este caso está no nível "
                f"{s.reincidencia} ({nivel}).",
                COR_OK,
            )
        self.atualizar_reais()

    def atualizar_suspensao(self) -> None:
        """The allowed days beside the field; red when the days typed are outside them."""
        if not self._texto_suspensao:
            return
        if self.suspensao.value() in self.suspensao.permitidos:
            _colorir(self.faixa_suspensao, self._texto_suspensao, COR_ALERTA)
        else:
            _colorir(self.faixa_suspensao, f"Fora da faixa cabível. {self._texto_suspensao}", COR_BLOQUEIO)

    def atualizar_reais(self) -> None:
        try:
            multa = self.multa.valor()
        except ValueError:
            multa = None
        a = self.avaliacao
        if multa is None:
            if a is not None and a.multa_min_reais is not None and a.multa_max_reais is not None:
                self.reais.setStyleSheet(ESTILO_NORMAL)
                faixa = formatar_reais(a.multa_min_reais)
                if a.multa_max_reais != a.multa_min_reais:
                    faixa += f" a {formatar_reais(a.multa_max_reais)}"
                self.reais.setText(f"Faixa em reais: {faixa} (URM de {formatar_data(a.data_valor)})")
            else:
                self.reais.setText("")
            return
        if a is None or a.valor_urm is None:
            _colorir(
                self.reais,
                (a.aviso_urm if a else None) or "Sem valor da URM para converter em reais.",
                COR_ALERTA,
            )
            return
        reais = urm_para_reais(multa, a.valor_urm)
        texto = (
            f"{formatar_decimal(multa)} URM × {formatar_reais(a.valor_urm)} (URM de {formatar_data(a.data_valor)}) "
            f"= <b>{formatar_reais(reais)}</b>"
        )
        s = a.sancao
        if not s.multa_min_ur <= multa <= s.multa_max_ur:
            self.reais.setStyleSheet(f"color: {COR_BLOQUEIO}")
            texto += " — fora da faixa cabível"
        else:
            self.reais.setStyleSheet(ESTILO_NORMAL)
        self.reais.setText(texto)

    def valores(self) -> tuple[Decimal, int]:
        multa = self.multa.valor_ou_erro("multa_ur", "a multa (URM)")
        if multa is None:
            raise ErroDominio("Informe a multa, em URM.", "multa_ur")
        return multa, self.suspensao.value()

    def definir(self, multa: Decimal | None, dias: int = 0) -> None:
        self.multa.definir_valor(multa)
        self.suspensao.setValue(dias)


class _DialogoPenalidade(DialogoAto):
    """Proposta and decisão: apply (fine in range, suspension where allowed) or dismiss, with reasons."""

    rotulo_aplicar = "Aplicar a penalidade"
    rotulo_arquivar = "Arquivar o auto"

    def montar(self) -> None:
        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.aplicar = QRadioButton(self.rotulo_aplicar)
        self.arquivar = QRadioButton(self.rotulo_arquivar)
        self.grupo = QButtonGroup(self)
        self.grupo.addButton(self.aplicar)
        self.grupo.addButton(self.arquivar)
        self.aplicar.setChecked(True)
        escolha = QHBoxLayout()
        escolha.addWidget(self.aplicar)
        escolha.addWidget(self.arquivar)
        escolha.addStretch(1)
        self.penalidade = CamposPenalidade(self.contexto, self.caso, self)
        self.fundamentacao = CampoTexto(linhas=4)
        self.fundamentacao.setPlaceholderText("Os motivos de fato e de direito")
        self.situacao_defesa = QLabel()
        self.situacao_defesa.setWordWrap(True)
        f = self.form
        f.adicionar("data", "&Data:", self.data)
        f.adicionar("resultado", "", escolha, foco=self.aplicar)
        f.apelido("acao", "resultado")
        f.adicionar("multa_ur", "&Multa:", self.penalidade.linha_multa, foco=self.penalidade.multa)
        f.layout.addRow("Em reais:", self.penalidade.reais)
        f.adicionar(
            "suspensao_dias", "&Suspensão:", self.penalidade.linha_suspensao, foco=self.penalidade.suspensao
        )
        f.adicionar("fundamentacao", "&Fundamentação:", self.fundamentacao)
        self.layout_principal.insertWidget(1, self.situacao_defesa)
        self._descrever_defesa()
        self.adiador = Adiador(lambda: self.penalidade.avaliar(self._data_ou_none()), self)
        self.data.dataAlterada.connect(lambda _d: self.adiador.agendar())
        self.aplicar.toggled.connect(self._modo)
        self.penalidade.avaliar(self._data_ou_none())
        self._modo()
        self.setMinimumWidth(760)

    def _data_ou_none(self) -> date | None:
        try:
            return self.data.data()
        except ValueError:
            return None

    def _descrever_defesa(self) -> None:
        c = self.caso
        if c.defesas:
            d = c.defesas[0]
            if d.tempestiva:
                texto, cor = f"Defesa tempestiva protocolada em {formatar_data(d.protocolada_em)}.", COR_OK
            else:
                texto = (
                    f"Defesa INTEMPESTIVA: protocolada em {formatar_data(d.protocolada_em)}, após o prazo "
                    f"({formatar_data(c.prazo_defesa) if c.prazo_defesa else '—'})."
                )
                cor = COR_ALERTA
        elif c.prazo_defesa is not None:
            if relogio.hoje() > c.prazo_defesa:
                texto, cor = f"Sem defesa: o prazo venceu em {formatar_data(c.prazo_defesa)}.", COR_ALERTA
            else:
                texto = (
                    f"Prazo de defesa aberto até {formatar_data(c.prazo_defesa)}, sem defesa registrada: "
                    "a penalidade só pode ser aplicada depois do prazo (art. 14)."
                )
                cor = COR_BLOQUEIO
        else:
            texto, cor = "O auto ainda não foi intimado (art. 11).", COR_BLOQUEIO
        _colorir(self.situacao_defesa, texto, cor, True)

    def _modo(self) -> None:
        aplicar = self.aplicar.isChecked()
        self.penalidade.multa.setEnabled(aplicar)
        self.penalidade.suspensao.setEnabled(
            aplicar
            and self.penalidade.avaliacao is not None
            and self.penalidade.avaliacao.sancao.suspensao_cabivel
        )

    def validar(self) -> None:
        self.adiador.executar_agora()
        self.data_obrigatoria(self.data, "data", "a data")
        if self.aplicar.isChecked():
            self.penalidade.valores()


class DialogoProposta(_DialogoPenalidade):
    titulo = "Propor penalidade (art. 13)"
    texto_botao = "&Registrar proposta"
    rotulo_aplicar = "Propor a penalidade"
    rotulo_arquivar = "Propor o arquivamento"

    def executar(self) -> str:
        from secretaria.services.tramitacao import registrar_proposta

        dia = self.data_obrigatoria(self.data, "data", "a data da proposta")
        if self.aplicar.isChecked():
            multa, dias = self.penalidade.valores()
            registrar_proposta(
                self.uow,
                self.ator,
                auto_id=self.caso.id,
                data=dia,
                acao="aplicar",
                fundamentacao=self.fundamentacao.texto(),
                multa_ur=multa,
                suspensao_dias=dias,
            )
            return "Proposta de penalidade registrada; o auto aguarda a decisão do Secretário."
        registrar_proposta(
            self.uow,
            self.ator,
            auto_id=self.caso.id,
            data=dia,
            acao="arquivar",
            fundamentacao=self.fundamentacao.texto(),
        )
        return "Proposta de arquivamento registrada; o auto aguarda a decisão do Secretário."


class DialogoDecisao(_DialogoPenalidade):
    titulo = "Decidir (art. 13)"
    texto_botao = "De&cidir…"

    def montar(self) -> None:
        super().montar()
        if self.caso.propostas:
            p = self.caso.propostas[-1]
            if p.acao == "aplicar":
                texto = f"multa de {formatar_decimal(p.multa_ur)} URM" + (
                    f" e suspensão de {_dias(p.suspensao_dias)}" if p.suspensao_dias else ""
                )
                self.penalidade.definir(p.multa_ur, p.suspensao_dias)
            else:
                texto = "arquivamento"
                self.arquivar.setChecked(True)
            rotulo = rotulo_dica(
                f"Proposta da autoridade ({formatar_data(p.data)}, {p.autoridade}): {texto}."
            )
            self.layout_principal.insertWidget(1, rotulo)

    def confirmacao(self) -> str:
        if self.arquivar.isChecked():
            return (
                f"Arquivar o auto nº {self.caso.numero_formatado}, sem penalidade?\n\n"
                "A decisão é definitiva e não poderá ser desfeita pelo programa."
            )
        multa, dias = self.penalidade.valores()
        a = self.penalidade.avaliacao
        reais = ""
        if a is not None and a.valor_urm is not None:
            reais = f" = {formatar_reais(urm_para_reais(multa, a.valor_urm))}"
        suspensao = f" e suspensão de {_dias(dias)}" if dias else ""
        return (
            f"Aplicar ao auto nº {self.caso.numero_formatado} a multa de {formatar_decimal(multa)} URM{reais}"
            f"{suspensao}?\n\nA decisão só poderá ser alterada por recurso ao Prefeito (art. 15)."
        )

    def pedido(self) -> PedidoDecisao:
        """The request of `decidir` (and of its check) from the fields."""
        from secretaria.services.tramitacao import PedidoDecisao

        pedido = PedidoDecisao(
            auto_id=self.caso.id,
            data=self.data_obrigatoria(self.data, "data", "a data da decisão"),
            fundamentacao=self.fundamentacao.texto(),
            versao=self.caso.versao,
            resultado="arquivado",
        )
        if self.aplicar.isChecked():
            multa, dias = self.penalidade.valores()
            pedido = replace(pedido, resultado="aplicada", multa_ur=multa, suspensao_dias=dias)
        return pedido

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.tramitacao import conferir_decisao

        conferir_decisao(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.tramitacao import decidir

        r = decidir(self.uow, self.ator, self.pedido())
        if r.resultado != "aplicada":
            return f"Auto nº {self.caso.numero_formatado} arquivado."
        texto = f"Penalidade aplicada: multa de {formatar_decimal(r.multa_ur)} URM = {formatar_reais(r.multa_reais)}"
        if r.suspensao_dias:
            texto += f" e suspensão de {_dias(r.suspensao_dias)}"
        if self.contexto.pode("protocolo"):
            return texto + ". Registre agora a intimação da decisão (ela abre o prazo de recurso)."
        return texto + ". O Protocolo registra a intimação da decisão, que abre o prazo de recurso."


# --- recurso (art. 15) -------------------------------------------------------------------------------------


class DialogoRecurso(DialogoAto):
    titulo = "Registrar recurso ao Prefeito"

    def montar(self) -> None:
        self.protocolado_em = CampoData(obrigatoria=True)
        self.protocolado_em.definir_data(relogio.hoje())
        self.razoes = CampoTexto(linhas=5)
        self.situacao = QLabel()
        self.situacao.setWordWrap(True)
        self.form.adicionar("protocolado_em", "&Protocolado em:", self.protocolado_em)
        self.form.layout.addRow(self.situacao)
        self.form.indicador("protocolado_em", self.situacao)
        self.form.adicionar("razoes", "Ra&zões:", self.razoes)
        self.protocolado_em.dataAlterada.connect(lambda _d: self.atualizar_situacao())
        self.atualizar_situacao()

    def atualizar_situacao(self) -> None:
        prazo = self.caso.prazo_recurso
        try:
            dia = self.protocolado_em.data()
        except ValueError:
            dia = None
        if prazo is None:
            _colorir(
                self.situacao,
                "A decisão ainda não foi intimada: o prazo de recurso não começou, e o recurso é tempestivo.",
                COR_OK,
                True,
            )
        elif dia is None:
            self.situacao.setText(f"Prazo de recurso: até {formatar_data(prazo)}.")
        elif tempestivo(dia, prazo):
            _colorir(self.situacao, f"Tempestivo: o prazo vai até {formatar_data(prazo)}.", COR_OK, True)
        else:
            _colorir(
                self.situacao,
                f"INTEMPESTIVO: o prazo venceu em {formatar_data(prazo)}. O recurso será registrado, mas não "
                "impede que a decisão se torne definitiva.",
                COR_ALERTA,
                True,
            )

    def validar(self) -> None:
        self.data_obrigatoria(self.protocolado_em, "protocolado_em", "a data do protocolo")

    def confirmacao(self) -> str:
        dia = self.data_obrigatoria(self.protocolado_em, "protocolado_em", "a data do protocolo")
        prazo = self.caso.prazo_recurso
        situacao = "tempestivo" if prazo is None or tempestivo(dia, prazo) else "INTEMPESTIVO"
        return (
            f"Registrar o recurso ao Prefeito protocolado em {formatar_data(dia)} ({situacao})?\n\n"
            "O recurso não pode ser apagado depois; o julgamento do Prefeito é registrado quando chegar."
        )

    def pedido(self) -> PedidoRecurso:
        """The request of `registrar_recurso` (and of its check) from the fields."""
        from secretaria.services.tramitacao import PedidoRecurso

        return PedidoRecurso(
            auto_id=self.caso.id,
            protocolado_em=self.data_obrigatoria(
                self.protocolado_em, "protocolado_em", "a data do protocolo"
            ),
            razoes=self.razoes.texto(),
            versao=self.caso.versao,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.tramitacao import conferir_recurso

        conferir_recurso(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.tramitacao import registrar_recurso

        r = registrar_recurso(self.uow, self.ator, self.pedido())
        return f"Recurso registrado: {'tempestivo' if r.tempestivo else 'INTEMPESTIVO'}."


class DialogoJulgamento(DialogoAto):
    titulo = "Registrar julgamento do recurso"
    texto_botao = "&Registrar julgamento…"

    def montar(self) -> None:
        from secretaria.services.tramitacao import RESULTADOS_JULGAMENTO

        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.resultado = QComboBox()
        for chave, rotulo in RESULTADOS_JULGAMENTO.items():
            self.resultado.addItem(rotulo[:1].upper() + rotulo[1:], chave)
        self.penalidade = CamposPenalidade(self.contexto, self.caso, self)
        self.penalidade.definir(self.caso.multa_ur, self.caso.suspensao_dias)
        self.fundamentacao = CampoTexto(linhas=4)
        atual = QLabel(
            f"Penalidade decidida: multa de {formatar_decimal(self.caso.multa_ur)} URM"
            + (f" e suspensão de {_dias(self.caso.suspensao_dias)}" if self.caso.suspensao_dias else "")
            + "."
        )
        self.layout_principal.insertWidget(1, atual)
        f = self.form
        f.adicionar("data", "&Data do julgamento:", self.data)
        f.adicionar("resultado", "R&esultado:", self.resultado)
        f.adicionar("multa_ur", "&Multa reduzida:", self.penalidade.linha_multa, foco=self.penalidade.multa)
        f.layout.addRow("Em reais:", self.penalidade.reais)
        f.adicionar(
            "suspensao_dias",
            "&Suspensão reduzida:",
            self.penalidade.linha_suspensao,
            foco=self.penalidade.suspensao,
        )
        f.adicionar("fundamentacao", "&Fundamentação:", self.fundamentacao)
        self.efeito = QLabel()
        self.efeito.setWordWrap(True)
        self.layout_principal.addWidget(self.efeito)
        self.resultado.currentIndexChanged.connect(lambda _i: self._modo())
        # The reduced fine in R$ keeps the URM of the decision day (REGRAS § 2).
        decisao = self.caso.decisao
        self.penalidade.avaliar(relogio.hoje(), decisao.data if decisao else None)
        self._modo()
        self.setMinimumWidth(760)

    def _modo(self) -> None:
        parcial = self.resultado.currentData() == "provido_parcialmente"
        self.penalidade.multa.setEnabled(parcial)
        a = self.penalidade.avaliacao
        self.penalidade.suspensao.setEnabled(parcial and self.caso.suspensao_dias > 0 and a is not None)
        efeitos = {
            "negado": ("A penalidade fica mantida; a decisão se torna definitiva.", COR_ALERTA),
            "provido": (
                "A penalidade será ANULADA: a multa não paga é cancelada, a suspensão é anulada, e este auto "
                "deixa de contar como antecedente na reincidência dos casos seguintes.",
                COR_BLOQUEIO,
            ),
            "provido_parcialmente": (
                "A penalidade será reduzida aos valores informados, ainda dentro da faixa cabível.",
                COR_ALERTA,
            ),
        }
        texto, cor = efeitos[self.resultado.currentData()]
        _colorir(self.efeito, texto, cor, True)

    def confirmacao(self) -> str:
        return f"Registrar o julgamento do recurso: {self.resultado.currentText().lower()}?\n\n{self.efeito.text()}"

    def validar(self) -> None:
        self.data_obrigatoria(self.data, "data", "a data do julgamento")
        if self.resultado.currentData() == "provido_parcialmente":
            self.penalidade.valores()

    def pedido(self) -> PedidoJulgamento:
        """The request of `julgar_recurso` (and of its check) from the fields."""
        from secretaria.services.tramitacao import PedidoJulgamento

        resultado = self.resultado.currentData()
        multa: Decimal | None = None
        dias: int | None = None
        if resultado == "provido_parcialmente":
            multa, dias = self.penalidade.valores()
        return PedidoJulgamento(
            auto_id=self.caso.id,
            data=self.data_obrigatoria(self.data, "data", "a data do julgamento"),
            resultado=resultado,
            fundamentacao=self.fundamentacao.texto(),
            multa_ur_nova=multa,
            suspensao_dias_nova=dias,
            versao=self.caso.versao,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.tramitacao import conferir_julgamento

        conferir_julgamento(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.tramitacao import julgar_recurso

        resultado = self.resultado.currentData()
        julgar_recurso(self.uow, self.ator, self.pedido())
        return {
            "negado": "Recurso negado: penalidade mantida.",
            "provido": "Recurso provido: penalidade anulada.",
            "provido_parcialmente": "Recurso provido em parte: penalidade reduzida.",
        }[resultado]


# --- execução: suspensão, pagamento, cumprimento -------------------------------------------------------------


class DialogoSuspensao(DialogoAto):
    titulo = "Iniciar suspensão"
    texto_botao = "Iniciar &suspensão…"

    def montar(self) -> None:
        self.inicio = CampoData(obrigatoria=True)
        # The first free day: after the operator's other started suspensions (REGRAS § 5).
        self.inicio.definir_data(self.caso.inicio_suspensao_proposto or relogio.hoje())
        self.fim = rotulo_dica()
        self.form.adicionar("inicio", "&Início:", self.inicio)
        self.form.layout.addRow(self.fim)
        self.inicio.dataAlterada.connect(lambda _d: self._fim())
        self._fim()

    def _fim(self) -> None:
        dias = self.caso.suspensao_dias
        try:
            dia = self.inicio.data()
        except ValueError:
            dia = None
        if dia is None:
            self.fim.setText(f"Suspensão de {_dias(dias)}.")
            return
        fim = dia + timedelta(days=dias - 1)
        self.fim.setText(
            f"Suspensão de {_dias(dias)}: a operadora ficará suspensa de {formatar_data(dia)} até "
            f"{formatar_data(fim)}, inclusive."
        )

    def confirmacao(self) -> str:
        # The question ends the sentence, not the name ("… de Viação Alfa Ltda.?").
        return f"Confirmar o início da suspensão?\n\n{self.caso.operadora_nome} — {self.fim.text()}"

    def pedido(self) -> PedidoSuspensao:
        """The request of `iniciar_suspensao` (and of its check) from the fields."""
        from secretaria.services.execucao import PedidoSuspensao

        return PedidoSuspensao(
            auto_id=self.caso.id,
            inicio=self.data_obrigatoria(self.inicio, "inicio", "o início da suspensão"),
            versao=self.caso.versao,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.execucao import conferir_suspensao

        conferir_suspensao(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.execucao import iniciar_suspensao

        r = iniciar_suspensao(self.uow, self.ator, self.pedido())
        return f"Suspensão registrada: de {formatar_data(r.inicio)} até {formatar_data(r.fim)} ({_dias(r.dias)})."


class DialogoPagamento(DialogoAto):
    titulo = "Registrar pagamento da multa"

    def montar(self) -> None:
        pagamento = self.caso.pagamento
        self.situacao = QComboBox()
        for rotulo, codigo in itens(REGISTROS_PAGAMENTO):
            self.situacao.addItem(rotulo, codigo)
        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.valor_pago = CampoDecimal(casas=2)
        self.valor_pago.setMaximumWidth(160)
        if pagamento is not None:
            self.valor_pago.definir_valor(pagamento.valor)
        self.guia = QLineEdit()
        self.guia.setPlaceholderText("Número da guia ou da certidão")
        valor = QHBoxLayout()
        valor.addWidget(QLabel("R$"))
        valor.addWidget(self.valor_pago)
        valor.addStretch(1)
        devido = formatar_reais(pagamento.valor) if pagamento is not None else "—"
        self.layout_principal.insertWidget(1, QLabel(f"Valor da multa: {devido}"))
        self.prazo = rotulo_dica()
        if (prazo := self.caso.prazo_pagamento) is not None:
            self.prazo.setText(
                f"Prazo de pagamento até {formatar_data(prazo)}: a multa só pode ser inscrita em dívida ativa "
                f"a partir de {formatar_data(prazo + timedelta(days=1))}."
            )
            self.layout_principal.insertWidget(2, self.prazo)
        f = self.form
        f.adicionar("situacao", "&Situação:", self.situacao)
        f.adicionar("data", "&Data:", self.data)
        f.adicionar("valor_pago", "&Valor pago:", valor, foco=self.valor_pago)
        f.adicionar("guia", "&Guia:", self.guia)
        self.situacao.currentIndexChanged.connect(
            lambda _i: self.valor_pago.setEnabled(self.situacao.currentData() == "pago")
        )

    def validar(self) -> None:
        self.data_obrigatoria(self.data, "data", "a data")
        if self.situacao.currentData() == "pago":
            self.valor_pago.valor_ou_erro("valor_pago", "o valor pago")

    def confirmacao(self) -> str:
        dia = formatar_data(self.data_obrigatoria(self.data, "data", "a data"))
        if self.situacao.currentData() == "pago":
            valor = self.valor_pago.valor_ou_erro("valor_pago", "o valor pago")
            pago = f", valor de {formatar_reais(valor)}" if valor is not None else ""
            return (
                f"Registrar a multa do auto nº {self.caso.numero_formatado} como paga em {dia}{pago}?\n\n"
                "Depois de registrado, o pagamento não pode ser alterado pelo programa."
            )
        return (
            f"Inscrever a multa do auto nº {self.caso.numero_formatado} em dívida ativa em {dia}?\n\n"
            "A inscrição não pode ser desfeita pelo programa (a multa ainda poderá ser registrada como paga)."
        )

    def pedido(self) -> PedidoPagamento:
        """The request of `registrar_pagamento` (and of its check) from the fields."""
        from secretaria.services.execucao import PedidoPagamento

        situacao = self.situacao.currentData()
        valor = self.valor_pago.valor_ou_erro("valor_pago", "o valor pago") if situacao == "pago" else None
        return PedidoPagamento(
            auto_id=self.caso.id,
            situacao=situacao,
            data=self.data_obrigatoria(self.data, "data", "a data"),
            valor_pago=valor,
            guia=self.guia.text(),
            versao=self.caso.pagamento.versao if self.caso.pagamento else None,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.execucao import conferir_pagamento

        conferir_pagamento(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.execucao import registrar_pagamento

        situacao = self.situacao.currentData()
        registrar_pagamento(self.uow, self.ator, self.pedido())
        if situacao == "pago":
            return "Pagamento registrado. A exigência do art. 8º continua em acompanhamento."
        return "Multa inscrita em dívida ativa."


class DialogoCumprimento(DialogoAto):
    titulo = "Registrar cumprimento da exigência (art. 8º)"

    def montar(self) -> None:
        self.situacao = QComboBox()
        for rotulo, codigo in itens(REGISTROS_CUMPRIMENTO):
            self.situacao.addItem(rotulo, codigo)
        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.observacao = CampoTexto(linhas=3)
        explicacao = rotulo_dica(
            "Art. 8º: o pagamento da multa não desobriga a operadora de cumprir a exigência que a "
            "determinou. Registre aqui a verificação feita."
        )
        self.layout_principal.insertWidget(1, explicacao)
        f = self.form
        f.adicionar("situacao", "R&esultado:", self.situacao)
        f.adicionar("data", "&Verificado em:", self.data)
        f.adicionar("observacao", "&Observação:", self.observacao)

    def executar(self) -> str:
        from secretaria.services.execucao import registrar_cumprimento

        registrar_cumprimento(
            self.uow,
            self.ator,
            auto_id=self.caso.id,
            situacao=self.situacao.currentData(),
            data=self.data_obrigatoria(self.data, "data", "a data da verificação"),
            observacao=self.observacao.texto(),
            versao=self.caso.cumprimento.versao if self.caso.cumprimento else None,
        )
        return f"Verificação registrada: {self.situacao.currentText().lower()}."


class DialogoCancelar(DialogoAto):
    titulo = "Cancelar auto de infração"
    texto_botao = "Cancelar o &auto…"
    texto_voltar = "&Voltar"

    def montar(self) -> None:
        aviso = QLabel(
            "Um auto lavrado não é apagado: fica cancelado, com o motivo, e deixa de contar para a "
            "reincidência. O número não é reaproveitado."
        )
        aviso.setWordWrap(True)
        self.layout_principal.insertWidget(1, aviso)
        self.motivo = CampoTexto(linhas=4)
        self.form.adicionar("motivo", "&Motivo:", self.motivo)

    def validar(self) -> None:
        if not self.motivo.texto().strip():
            raise ErroDominio("Informe o motivo do cancelamento.", "motivo")

    def confirmacao(self) -> str:
        return f"Cancelar o auto nº {self.caso.numero_formatado}? Esta ação não pode ser desfeita."

    def pedido(self) -> PedidoCancelamento:
        """The request of `cancelar_auto` (and of its check) from the fields."""
        from secretaria.services.autos import PedidoCancelamento

        return PedidoCancelamento(auto_id=self.caso.id, motivo=self.motivo.texto(), versao=self.caso.versao)

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.autos import conferir_cancelamento

        conferir_cancelamento(sessao, self.ator, self.pedido())

    def executar(self) -> str:
        from secretaria.services.autos import cancelar_auto

        cancelar_auto(self.uow, self.ator, self.pedido())
        return f"Auto nº {self.caso.numero_formatado} cancelado."


class DialogoConferirRevisao(DialogoAto):
    """The Secretary reviews a decided case whose defence or appeal changed class when a non-business day
    registered later moved its deadline (REGRAS § 4): the case leaves the home screen's review queue."""

    titulo = "Conferir prazo revisto"
    texto_botao = "&Conferir…"

    def montar(self) -> None:
        revisoes = self.caso.revisoes_a_conferir
        aviso = QLabel(
            "Um dia sem expediente registrado depois da decisão prorrogou um prazo deste caso, e uma petição "
            "mudou de classificação. Reveja a decisão à luz do novo prazo antes de conferir:"
        )
        aviso.setWordWrap(True)
        self.layout_principal.insertWidget(1, aviso)
        for n, revisao in enumerate(revisoes, start=2):
            texto = QLabel(f"• {revisao.titulo}: {revisao.descricao}")
            texto.setWordWrap(True)
            self.layout_principal.insertWidget(n, texto)

    def confirmacao(self) -> str:
        return (
            f"Confirmar que o caso do auto nº {self.caso.numero_formatado} foi revisto com o novo prazo? "
            "Ele sai da lista de casos a conferir da tela inicial."
        )

    def executar(self) -> str:
        from secretaria.services.revisao_prazos import conferir_revisoes_do_auto

        n = conferir_revisoes_do_auto(self.uow, self.ator, auto_id=self.caso.id)
        return "Revisão de prazo conferida." if n == 1 else f"{n} revisões de prazo conferidas."


# --- retificação (REGRAS § 5) ------------------------------------------------------------------------------


def prazo_que_fica_sem_efeito(prazo: date | None, hoje: date) -> str:
    """The confirmation's words on the defence deadline a substance correction voids, in the right tense:
    never "que vence em" a day already gone."""
    if prazo is None:
        return ""
    if prazo < hoje:
        return f"O prazo de defesa, que venceu em {formatar_data(prazo)}, fica sem efeito; "
    if prazo == hoje:
        return f"O prazo de defesa, que vence hoje ({formatar_data(prazo)}), fica sem efeito; "
    return f"O prazo de defesa que vence em {formatar_data(prazo)} fica sem efeito; "


class DialogoRetificacao(DialogoAto):
    """Retificar auto: the fields a termo can correct, pre-filled with the auto as it reads; which changes
    reopen the defence is said before anything is written, and again in the confirmation. The service
    classifies the correction and numbers the termo; the dialog then issues the termo's PDF, which the
    Documentos tab prints and saves like the others."""

    titulo = "Retificar auto de infração"
    texto_botao = "&Lavrar termo de retificação…"
    texto_voltar = "&Voltar"

    def montar(self) -> None:
        from secretaria.ui.processo.form_auto import CampoHora, TabelaTestemunhas
        from secretaria.ui.processo.opcoes import dispositivos_citaveis

        c = self.caso
        nota = QLabel(
            "O auto não é alterado: a retificação lavra um <b>termo de retificação numerado</b>, que fica no "
            "processo com cada item de → para, e é intimado à operadora como o auto. "
            "<b>Os itens à esquerda reabrem o prazo de defesa</b> (15 dias contados da intimação do termo) e a "
            "sanção é avaliada de novo; os da direita são correções formais. A operadora não se retifica: para "
            "autuar outra, cancele este auto e lavre um novo."
        )
        nota.setWordWrap(True)
        self.layout_principal.insertWidget(1, nota)
        self.dispositivo = combo_pesquisavel()
        opcoes = [(o.rotulo, o.id) for o in dispositivos_citaveis(self.contexto)]
        if not any(codigo == c.dispositivo_codigo for _r, codigo in opcoes):
            opcoes.insert(0, (f"{c.dispositivo_rotulo} (tipo {c.tipo})", c.dispositivo_codigo))
        preencher_combo(self.dispositivo, opcoes)
        selecionar_dado(self.dispositivo, c.dispositivo_codigo)
        self.data_infracao = CampoData(obrigatoria=True)
        self.data_infracao.definir_data(c.data_infracao)
        self.hora_infracao = CampoHora()
        self.hora_infracao.definir_hora(c.hora_infracao)
        self.descricao_fatos = CampoTexto(linhas=3)
        self.descricao_fatos.setPlainText(c.descricao_fatos)
        self.circunstancias = CampoTexto(linhas=2)
        self.circunstancias.setPlainText(c.circunstancias)
        self.infrator_nome = QLineEdit(c.infrator_nome)
        self.local = QLineEdit(c.local)
        self.local_lavratura = QLineEdit(c.local_lavratura)
        self.testemunhas = TabelaTestemunhas()
        for t in c.testemunhas:
            self.testemunhas.adicionar(t.nome, t.documento, t.endereco)
        self.testemunhas.setMinimumHeight(self.testemunhas.minimumSizeHint().height())
        self.motivo = CampoTexto(linhas=2)
        self.motivo.setPlaceholderText("Por que o auto é retificado (sai no termo)")
        f = self.form
        f.adicionar("motivo", "&Motivo:", self.motivo)
        # Two columns, as the law splits them: what reopens the defence, and what is only formal.
        colunas = QHBoxLayout()
        colunas.addWidget(f.grupo("Reabrem o prazo de defesa (substância)"), 1)
        hora = QHBoxLayout()
        hora.addWidget(self.data_infracao)
        hora.addSpacing(12)
        rotulo_hora = QLabel("&Hora:")
        rotulo_hora.setBuddy(self.hora_infracao)
        hora.addWidget(rotulo_hora)
        hora.addWidget(self.hora_infracao)
        hora.addStretch(1)
        f.adicionar("dispositivo_codigo", "D&ispositivo:", self.dispositivo)
        f.adicionar("data_infracao", "&Data da infração:", hora, foco=self.data_infracao.editor)
        f.registrar("hora_infracao", self.hora_infracao, f.rotulo_erro_de("data_infracao"))
        f.adicionar("descricao_fatos", "&Fatos:", self.descricao_fatos)
        f.adicionar("circunstancias", "&Circunstâncias:", self.circunstancias)
        colunas.addWidget(f.grupo("Correções formais (não reabrem o prazo)"), 1)
        f.adicionar("infrator_nome", "&Nome do infrator:", self.infrator_nome)
        f.adicionar("local", "L&ocal da infração:", self.local)
        f.adicionar("local_lavratura", "Local da lav&ratura:", self.local_lavratura)
        f.adicionar("testemunhas", "&Testemunhas:", self.testemunhas)
        self.layout_principal.addLayout(colunas)
        self.natureza = rotulo_dica()
        self.natureza.setObjectName("natureza_retificacao")
        self.layout_principal.addWidget(self.natureza)
        self.dispositivo.currentIndexChanged.connect(lambda _i: self.atualizar_natureza())
        self.data_infracao.dataAlterada.connect(lambda _d: self.atualizar_natureza())
        for campo in (self.hora_infracao, self.infrator_nome, self.local, self.local_lavratura):
            campo.textChanged.connect(lambda _t: self.atualizar_natureza())
        for texto in (self.descricao_fatos, self.circunstancias):
            texto.textChanged.connect(self.atualizar_natureza)
        self.testemunhas.tabela.itemChanged.connect(lambda _i: self.atualizar_natureza())
        self.testemunhas.tabela.model().rowsRemoved.connect(lambda *_a: self.atualizar_natureza())
        self.setMinimumWidth(960)
        self.atualizar_natureza()

    def _alteracoes(self, *, estrito: bool) -> dict[str, Any]:
        """Every correctable field as typed (the service keeps those that differ from the auto)."""
        from secretaria.services.autos import DadosTestemunha

        dia: date | None
        if estrito:
            dia = self.data_obrigatoria(self.data_infracao, "data_infracao", "a data da infração")
            hora = self.hora_infracao.hora_ou_erro("hora_infracao", "a hora da infração")
        else:
            try:
                dia, hora = self.data_infracao.data(), self.hora_infracao.hora()
            except ValueError:
                dia, hora = self.caso.data_infracao, self.caso.hora_infracao
        return {
            "dispositivo_codigo": self.dispositivo.currentData() or self.caso.dispositivo_codigo,
            "data_infracao": dia,
            "hora_infracao": hora,
            "descricao_fatos": self.descricao_fatos.texto(),
            "circunstancias": self.circunstancias.texto(),
            "infrator_nome": self.infrator_nome.text(),
            "local": self.local.text(),
            "local_lavratura": self.local_lavratura.text(),
            "testemunhas": [DadosTestemunha(*t) for t in self.testemunhas.valores()],
        }

    def mudancas(self) -> tuple[list[str], bool]:
        """(names of the items changed, whether any is of substance): the preview of what the service decides."""
        from secretaria.services.retificacoes import CAMPOS_RETIFICAVEIS, CAMPOS_SUBSTANCIA

        c = self.caso
        atuais: dict[str, Any] = {
            "dispositivo_codigo": c.dispositivo_codigo,
            "data_infracao": c.data_infracao,
            "hora_infracao": c.hora_infracao,
            "descricao_fatos": c.descricao_fatos.strip(),
            "circunstancias": c.circunstancias.strip(),
            "infrator_nome": c.infrator_nome.strip(),
            "local": c.local.strip(),
            "local_lavratura": c.local_lavratura.strip(),
            "testemunhas": [(t.nome, t.documento, t.endereco) for t in c.testemunhas],
        }
        novos = self._alteracoes(estrito=False)
        novos["testemunhas"] = [(t.nome, t.documento, t.endereco) for t in novos["testemunhas"]]
        for chave in ("descricao_fatos", "circunstancias", "infrator_nome", "local", "local_lavratura"):
            novos[chave] = str(novos[chave]).strip()
        mudados = [campo for campo in CAMPOS_RETIFICAVEIS if novos[campo] != atuais[campo]]
        return [CAMPOS_RETIFICAVEIS[m] for m in mudados], any(m in CAMPOS_SUBSTANCIA for m in mudados)

    def atualizar_natureza(self) -> None:
        from secretaria.services.retificacoes import explicar_natureza

        rotulos, substancial = self.mudancas()
        if not rotulos:
            _colorir(
                self.natureza,
                "Nenhum item alterado ainda: corrija o que estiver errado no auto.",
                COR_DESTAQUE,
            )
            return
        cor = COR_ALERTA if substancial else COR_OK
        _colorir(self.natureza, explicar_natureza(substancial, rotulos), cor, negrito=substancial)

    def validar(self) -> None:
        self._alteracoes(estrito=True)
        if not self.mudancas()[0]:
            raise ErroDominio(
                "Nenhum item do auto foi alterado: não há o que retificar.", "dispositivo_codigo"
            )
        if not self.motivo.texto().strip():
            raise ErroDominio("Informe o motivo da retificação.", "motivo")

    def confirmacao(self) -> str:
        rotulos, substancial = self.mudancas()
        texto = (
            f"Lavrar o termo de retificação do auto nº {self.caso.numero_formatado}? Ele recebe o próximo "
            "número do ano e não pode ser desfeito.\n\n"
        )
        if substancial:
            prazo = prazo_que_fica_sem_efeito(self.caso.prazo_defesa, relogio.hoje())
            return texto + (
                f"É uma retificação de substância ({', '.join(r.lower() for r in rotulos)}): {prazo}o caso volta "
                "a aguardar a intimação do termo, da qual correm 15 dias para a defesa, e a sanção é avaliada "
                "de novo para o dispositivo e o dia corrigidos."
            )
        return texto + (
            f"É uma retificação formal ({', '.join(r.lower() for r in rotulos)}): o prazo de defesa não é "
            "reaberto."
        )

    def pedido(self) -> PedidoRetificacao:
        """The request of `retificar_auto` (and of its check) from the fields."""
        from secretaria.services.retificacoes import PedidoRetificacao

        return PedidoRetificacao(
            auto_id=self.caso.id,
            alteracoes=self._alteracoes(estrito=True),
            motivo=self.motivo.texto(),
            versao=self.caso.versao,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.retificacoes import conferir_retificacao

        conferir_retificacao(sessao, self.ator, self.pedido())

    def executar(self) -> Any:
        from secretaria.services.retificacoes import retificar_auto

        return retificar_auto(self.uow, self.ator, self.pedido())

    def _executado(self, resumo: Any) -> None:
        """The termo stands: its PDF is issued off the GUI thread (this dialog blocked meanwhile), then the
        dialog closes saying what became of it."""
        from secretaria.services.documentos import emitir_documento

        contexto = self.contexto

        def emitir(_progresso: Progresso) -> str:
            # What the papers need was checked before the confirmation (`conferir_retificacao`); a
            # failure here is the rare data changed meanwhile: the termo stands, its papers can be issued
            # again from the Documentos tab.
            try:
                emitir_documento(
                    contexto.banco.uow(), contexto.ator, tipo="retificacao", retificacao_id=resumo.id
                )
                if resumo.substancial:  # what is delivered: the termo's intimação, with the corrected copy
                    emitir_documento(
                        contexto.banco.uow(), contexto.ator, tipo="intimacao_termo", retificacao_id=resumo.id
                    )
            except ErroDominio as erro:
                return f"O PDF do termo não foi emitido: {erro.mensagem}"
            if resumo.substancial:
                return (
                    "O termo e a sua intimação, com a cópia do auto retificado, estão na aba Documentos, para "
                    "imprimir e entregar à operadora."
                )
            return "O PDF do termo está na aba Documentos, para imprimir e entregar à operadora."

        def fim(pdf: str) -> None:
            super(DialogoRetificacao, self)._executado(
                f"Termo de retificação nº {resumo.numero_formatado} lavrado. {resumo.explicacao} {pdf}"
            )

        em_segundo_plano(
            self,
            emitir,
            titulo=self.titulo,
            texto="Emitindo o PDF do termo de retificação…",
            ao_concluir=fim,
            ao_falhar=lambda mensagem: fim(f"O PDF do termo não foi emitido: {mensagem}"),
            cancelavel=False,
            modal=True,
        )


# --- revisão da sanção (Lei 9.784/1999, art. 65) -------------------------------------------------------------


class DialogoRevisaoSancao(DialogoAto):
    """The Secretary reviews a decided sanction whose counted prior was annulled or reduced: revise it into
    today's range by a numbered termo de revisão (never raising it), or keep it with reasons. Either way
    the case leaves the home screen's review list; a revision's termo is issued at once (its needs were
    checked before the confirmation)."""

    titulo = "Revisar sanção (art. 65)"
    texto_botao = "&Registrar revisão…"

    def montar(self) -> None:
        revisao = self.caso.revisoes_sancao[0]
        self.revisao_id = revisao.id
        faixa = (
            f"{formatar_decimal(revisao.faixa_min_ur)} a {formatar_decimal(revisao.faixa_max_ur)} URM"
            if revisao.faixa_min_ur != revisao.faixa_max_ur
            else f"{formatar_decimal(revisao.faixa_min_ur)} URM"
        )
        nivel = {0: "infração primária"}.get(
            revisao.reincidencia_atual, f"{revisao.reincidencia_atual}ª reincidência"
        )
        antes = {0: "infração primária"}.get(
            revisao.reincidencia_anterior, f"{revisao.reincidencia_anterior}ª reincidência"
        )
        aviso = QLabel(
            f"{revisao.origem}<br>Decidido como <b>{antes}</b>; hoje o caso é <b>{nivel}</b>, com multa de "
            f"<b>{faixa}</b>. Penalidade em vigor: {formatar_decimal(self.caso.multa_ur)} URM"
            + (f" e suspensão de {_dias(self.caso.suspensao_dias)}" if self.caso.suspensao_dias else "")
            + ". A revisão nunca agrava a penalidade (art. 65, parágrafo único)."
        )
        aviso.setWordWrap(True)
        self.layout_principal.insertWidget(1, aviso)
        self.escolha = QComboBox()
        self.escolha.addItem("Revisar a penalidade (termo de revisão numerado)", "revisar")
        self.escolha.addItem("Manter a penalidade, com fundamentação", "manter")
        self.penalidade = CamposPenalidade(self.contexto, self.caso, self)
        self.penalidade.definir(
            min(revisao.faixa_max_ur, self.caso.multa_ur),
            min(self.caso.suspensao_dias, revisao.suspensao_max_dias or 0),
        )
        self.fundamentacao = CampoTexto(linhas=4)
        f = self.form
        f.adicionar("escolha", "&Decisão:", self.escolha)
        f.adicionar("multa_ur", "&Multa revista:", self.penalidade.linha_multa, foco=self.penalidade.multa)
        f.layout.addRow("Em reais:", self.penalidade.reais)
        f.adicionar(
            "suspensao_dias",
            "&Suspensão revista:",
            self.penalidade.linha_suspensao,
            foco=self.penalidade.suspensao,
        )
        f.adicionar("fundamentacao", "&Fundamentação:", self.fundamentacao)
        decisao = self.caso.decisao
        self.penalidade.avaliar(relogio.hoje(), decisao.data if decisao else None)
        self.escolha.currentIndexChanged.connect(lambda _i: self._modo())
        self._modo()
        self.setMinimumWidth(760)

    def _modo(self) -> None:
        revisar = self.escolha.currentData() == "revisar"
        self.penalidade.multa.setEnabled(revisar)
        self.penalidade.suspensao.setEnabled(revisar and self.caso.suspensao_dias > 0)

    def validar(self) -> None:
        if self.escolha.currentData() == "revisar":
            self.penalidade.valores()
        if not self.fundamentacao.texto().strip():
            raise ErroDominio("Informe a fundamentação da revisão.", "fundamentacao")

    def confirmacao(self) -> str:
        if self.escolha.currentData() == "manter":
            return (
                f"Manter a penalidade do auto nº {self.caso.numero_formatado}? O caso sai da lista de sanções a "
                "revisar."
            )
        multa, dias = self.penalidade.valores()
        return (
            f"Lavrar o termo de revisão do auto nº {self.caso.numero_formatado}, revendo a multa para "
            f"{formatar_decimal(multa)} URM" + (f" e a suspensão para {_dias(dias)}" if dias else "") + "? "
            "Ele recebe o próximo número do ano, não pode ser desfeito e é notificado à operadora."
        )

    def pedido(self) -> PedidoRevisao | PedidoManutencao:
        """The request of `revisar_sancao`, or of `manter_sancao` (and of their checks), from the fields."""
        from secretaria.services.revisao_sancao import PedidoManutencao, PedidoRevisao

        if self.escolha.currentData() == "manter":
            return PedidoManutencao(revisao_id=self.revisao_id, fundamentacao=self.fundamentacao.texto())
        multa, dias = self.penalidade.valores()
        return PedidoRevisao(
            revisao_id=self.revisao_id,
            multa_ur=multa,
            suspensao_dias=dias,
            fundamentacao=self.fundamentacao.texto(),
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.revisao_sancao import (
            PedidoManutencao,
            conferir_manutencao,
            conferir_revisao_sancao,
        )

        pedido = self.pedido()
        if isinstance(pedido, PedidoManutencao):
            conferir_manutencao(sessao, self.ator, pedido)
        else:
            conferir_revisao_sancao(sessao, self.ator, pedido)

    def executar(self) -> str:
        from secretaria.services.documentos import emitir_documento
        from secretaria.services.revisao_sancao import PedidoManutencao, manter_sancao, revisar_sancao

        pedido = self.pedido()
        if isinstance(pedido, PedidoManutencao):
            return manter_sancao(self.uow, self.ator, pedido).mensagem
        resumo = revisar_sancao(self.uow, self.ator, pedido)
        try:  # its needs were checked before the confirmation; only data changed meanwhile fails here
            emitir_documento(self.uow, self.ator, tipo="revisao", revisao_id=resumo.id)
        except ErroDominio as erro:
            return f"{resumo.mensagem} O PDF do termo não foi emitido: {erro.mensagem}"
        return f"{resumo.mensagem} O termo está na aba Documentos, para imprimir e notificar à operadora."


DIALOGOS_ATOS: dict[str, Any] = {
    "registrar_intimacao_auto": lambda c, caso, p: DialogoIntimacao(c, caso, p, objeto="auto"),
    "registrar_intimacao_decisao": lambda c, caso, p: DialogoIntimacao(c, caso, p, objeto="decisao"),
    "registrar_intimacao_julgamento": lambda c, caso, p: DialogoIntimacao(c, caso, p, objeto="julgamento"),
    "registrar_intimacao_revisao": lambda c, caso, p: DialogoIntimacao(c, caso, p, objeto="revisao"),
    "registrar_defesa": DialogoDefesa,
    "registrar_proposta": DialogoProposta,
    "decidir": DialogoDecisao,
    "registrar_recurso": DialogoRecurso,
    "julgar_recurso": DialogoJulgamento,
    "iniciar_suspensao": DialogoSuspensao,
    "registrar_pagamento": DialogoPagamento,
    "registrar_cumprimento": DialogoCumprimento,
    "cancelar_auto": DialogoCancelar,
    "conferir_revisao_prazo": DialogoConferirRevisao,
    "retificar_auto": DialogoRetificacao,
    "revisar_sancao": DialogoRevisaoSancao,
    "registrar_intimacao_retificacao": lambda c, caso, p: DialogoIntimacao(
        c, caso, p, objeto="auto", termo=next(r for r in caso.retificacoes if r.intimado_em is None)
    ),
}
"""Case act key (`secretaria.services.caso.PAPEIS_DOS_ATOS`) → factory(contexto, caso, parent) of its dialog."""
