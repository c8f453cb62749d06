"""Cassação (art. 16): a separate procedure on an operator holding a permission — opened for a relevant,
proven reason, with full defence (notice, defence, evidence, opinion), then decided by the Secretary.

Three dialogs, one service call each (`secretaria.services.execucao`): `DialogoInstaurarCassacao`,
`DialogoAtoCassacao`, `DialogoDecidirCassacao`; instaurar and deciding ask for confirmation (deciding
"cassar" sets the operator "cassada" from that day). `PainelCassacao` is the operator screen's tab: the
procedures (`obter_cassacoes`), the selected one's timeline and what it waits for, and the buttons for the
acts the user's roles allow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.codigos import ResultadoCassacao
from secretaria.lei.formato import formatar_data
from secretaria.services.execucao import (
    CassacaoDetalhe,
    EventoCassacao,
    PedidoDecisaoCassacao,
    PedidoInstauracao,
)
from secretaria.ui.contexto import Contexto
from secretaria.ui.modelo_tabela import ColunaTabela, FonteEmMemoria, LinhaTabela, ModeloTabela
from secretaria.ui.processo.atos import DialogoRegistro
from secretaria.ui.processo.campos import CampoTexto, item_vazio, tabela_de_eventos
from secretaria.ui.processo.painel_sancao import COR_ALERTA, COR_BLOQUEIO, COR_SECUNDARIA
from secretaria.ui.widgets import CampoData, Formulario


class _DialogoCassacao(DialogoRegistro):
    """A cassação act: a heading, the act's date and its fields; the flow is `DialogoRegistro`'s, and what
    the service returned (the procedure's id) is kept in `resultado_id`."""

    titulo = "Cassação (art. 16)"

    def __init__(self, contexto: Contexto, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.contexto = contexto

    def construir(self, cabecalho: str) -> None:
        """Lay out the dialog; subclasses call it at the end of their __init__ (after their own attributes:
        a Qt object must be initialised before Python attributes are set on it)."""
        self.resultado_id: int | None = None
        self.setWindowTitle(self.titulo)
        self.setMinimumWidth(620)
        self.layout_principal = QVBoxLayout(self)
        rotulo = QLabel(cabecalho)
        rotulo.setWordWrap(True)
        self.layout_principal.addWidget(rotulo)
        self.form = Formulario(self.layout_principal, self)
        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.form.adicionar("data", "&Data:", self.data)
        self.montar()
        self.adicionar_botoes()

    def montar(self) -> None:
        raise NotImplementedError

    def validar(self) -> None:
        self.data.data_ou_erro("data", "a data")

    def executar(self) -> int | None:
        raise NotImplementedError

    def concluir(self, resultado: Any) -> None:
        self.resultado_id = resultado

    def _dia(self) -> date:
        return self.data_obrigatoria(self.data, "data", "a data")


class DialogoInstaurarCassacao(_DialogoCassacao):
    titulo = "Instaurar procedimento de cassação (art. 16)"
    texto_botao = "&Instaurar…"

    def __init__(
        self, contexto: Contexto, operadora_id: int, operadora_nome: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, parent)
        self.operadora_id = operadora_id
        self.operadora_nome = operadora_nome
        self.construir(
            f"<b>{operadora_nome}</b><br>O art. 16 permite cassar a permissão por motivo relevante e comprovado, "
            "assegurada ampla defesa. Descreva o motivo.",
        )

    def montar(self) -> None:
        self.motivo = CampoTexto(linhas=4)
        self.form.adicionar("motivo", "&Motivo:", self.motivo)
        self.form.apelido("operadora_id", "motivo")

    def confirmacao(self) -> str:
        # The question mark never follows the name ("… Ltda.?").
        return f"Instaurar o procedimento de cassação da permissão?\n\nPermissionária: {self.operadora_nome}"

    def pedido(self) -> PedidoInstauracao:
        """The request of `instaurar_cassacao` (and of its check) from the fields."""
        return PedidoInstauracao(operadora_id=self.operadora_id, data=self._dia(), motivo=self.motivo.texto())

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.execucao import conferir_instauracao

        conferir_instauracao(sessao, self.ator, self.pedido())

    def executar(self) -> int:
        from secretaria.services.execucao import instaurar_cassacao

        return instaurar_cassacao(self.uow, self.ator, self.pedido())


class _DialogoDoProcedimento(_DialogoCassacao):
    """An act on a procedure already open: which one, and the version the user saw (the service refuses the
    act if someone changed the procedure meanwhile)."""

    cabecalho = ""

    def __init__(
        self, contexto: Contexto, cassacao_id: int, versao: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, parent)
        self.cassacao_id = cassacao_id
        self.versao = versao
        self.construir(self.cabecalho)


def _combo(rotulos: Mapping[str, str]) -> QComboBox:
    """A combo of code → label, each label with a capital first letter."""
    combo = QComboBox()
    for chave, rotulo in rotulos.items():
        combo.addItem(rotulo[:1].upper() + rotulo[1:], chave)
    return combo


class DialogoAtoCassacao(_DialogoDoProcedimento):
    titulo = "Registrar ato da cassação"
    cabecalho = (
        "Cada ato do procedimento fica registrado: a notificação da permissionária para se defender, a "
        "defesa, as provas, os pareceres."
    )

    def montar(self) -> None:
        from secretaria.services.execucao import TIPOS_ATO_CASSACAO

        self.tipo = _combo(TIPOS_ATO_CASSACAO)
        self.descricao = CampoTexto(linhas=4)
        self.form.adicionar("tipo", "&Ato:", self.tipo)
        self.form.adicionar("descricao", "D&escrição:", self.descricao)
        self.form.apelido("cassacao_id", "")

    def executar(self) -> int:
        from secretaria.services.execucao import registrar_ato_cassacao

        return registrar_ato_cassacao(
            self.uow,
            self.ator,
            cassacao_id=self.cassacao_id,
            data=self._dia(),
            tipo=self.tipo.currentData(),
            descricao=self.descricao.texto(),
            versao=self.versao,
        )


class DialogoDecidirCassacao(_DialogoDoProcedimento):
    titulo = "Decidir a cassação (art. 16)"
    texto_botao = "De&cidir…"
    cabecalho = (
        "A cassação só pode ser decidida depois da notificação da permissionária e da sua defesa (ou do fim "
        "do prazo de 15 dias para ela)."
    )

    def montar(self) -> None:
        from secretaria.services.execucao import RESULTADOS_CASSACAO

        self.resultado = _combo(RESULTADOS_CASSACAO)
        self.fundamentacao = CampoTexto(linhas=4)
        self.form.adicionar("resultado", "Deci&são:", self.resultado)
        self.form.adicionar("fundamentacao", "&Fundamentação:", self.fundamentacao)

    def confirmacao(self) -> str:
        if self.resultado.currentData() == "cassada":
            return (
                "Cassar a permissão? A operadora passa a constar como cassada a partir da data da decisão, e "
                "o programa não poderá desfazer esta decisão."
            )
        return "Arquivar o procedimento de cassação?"

    def pedido(self) -> PedidoDecisaoCassacao:
        """The request of `decidir_cassacao` (and of its check) from the fields."""
        return PedidoDecisaoCassacao(
            cassacao_id=self.cassacao_id,
            data=self._dia(),
            resultado=self.resultado.currentData(),
            fundamentacao=self.fundamentacao.texto(),
            versao=self.versao,
        )

    def conferir(self, sessao: Any) -> None:
        from secretaria.services.execucao import conferir_decisao_cassacao

        conferir_decisao_cassacao(sessao, self.ator, self.pedido())

    def executar(self) -> None:
        from secretaria.services.execucao import decidir_cassacao

        decidir_cassacao(self.uow, self.ator, self.pedido())
        return None


# --- the operator screen's tab -------------------------------------------------------------------------------

PAPEIS_INSTAURAR = ("autoridade", "secretario")
PAPEIS_ATO = ("protocolo", "autoridade", "secretario")
PAPEIS_DECIDIR = ("secretario",)


COLUNAS_EVENTOS_CASSACAO = (
    ColunaTabela("data", "Data", alinhamento="centro", dica_do_texto=True),
    ColunaTabela("ato", "Ato", dica_do_texto=True),
    ColunaTabela("descricao", "Descrição", dica_do_texto=True),
    ColunaTabela("por", "Por", dica_do_texto=True),
)
CORES_EVENTOS_CASSACAO = {"cassada": COR_BLOQUEIO}


def linhas_dos_eventos(eventos: Sequence[EventoCassacao]) -> list[LinhaTabela]:
    """The procedure's timeline as rows of its table: Data | Ato | Descrição | Por; the decision that
    cassou the permission in red."""
    return [
        LinhaTabela(
            None,
            (e.data, e.titulo, e.descricao, e.por),
            "cassada" if e.resultado == ResultadoCassacao.CASSADA else None,
        )
        for e in eventos
    ]


class PainelCassacao(QWidget):
    """The operator's cassação procedures (art. 16): the list, the selected one's motive, what it waits for
    and its timeline; "Instaurar procedimento…", "Registrar ato…", "Decidir…" for the roles that may.

    `alterado(resultado)` after each recorded act ("instaurada", "ato", "cassada" or "arquivada"), so the
    operator screen can show the new status."""

    alterado = Signal(str)

    def __init__(self, contexto: Contexto, operadora_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.operadora_id = operadora_id
        self.operadora_nome = ""
        self.delegacao = ""
        self.cassada = False
        self.cassacoes: list[CassacaoDetalhe] = []
        self.dialogo: QDialog | None = None

        explicacao = QLabel(
            "Art. 16: a permissão pode ser cassada por motivo relevante e comprovado, em procedimento próprio, "
            "assegurada ampla defesa — a permissionária é notificada, pode se defender em 15 dias e produzir "
            "provas; depois decide o(a) Secretário(a)."
        )
        explicacao.setWordWrap(True)
        explicacao.setStyleSheet(f"color: {COR_SECUNDARIA};")
        self.aviso = QLabel()
        self.aviso.setWordWrap(True)
        self.lista = QListWidget()
        self.lista.setAccessibleName("Procedimentos de cassação")
        self.lista.setMaximumHeight(self.fontMetrics().height() * 3 + 16)
        self.cabecalho = QLabel()
        self.cabecalho.setWordWrap(True)
        self.cabecalho.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pendencia = QLabel()
        self.pendencia.setWordWrap(True)
        self.fonte_eventos = FonteEmMemoria(COLUNAS_EVENTOS_CASSACAO)
        self.modelo = ModeloTabela(
            self.fonte_eventos, cores=CORES_EVENTOS_CASSACAO, alinhar_titulos=False, parent=self
        )
        self.tabela = tabela_de_eventos(self.modelo, "Linha do tempo do procedimento")
        cab = self.tabela.horizontalHeader()
        cab.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        cab.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)

        self.botao_instaurar = QPushButton("&Instaurar procedimento…")
        self.botao_ato = QPushButton("Registrar &ato…")
        self.botao_decidir = QPushButton("De&cidir…")
        self.papeis = QLabel()
        self.papeis.setWordWrap(True)
        self.papeis.setStyleSheet(f"color: {COR_SECUNDARIA};")
        for botao, papeis in (
            (self.botao_instaurar, PAPEIS_INSTAURAR),
            (self.botao_ato, PAPEIS_ATO),
            (self.botao_decidir, PAPEIS_DECIDIR),
        ):
            botao.setAutoDefault(False)
            botao.setVisible(contexto.pode(*papeis))
        self.botao_instaurar.clicked.connect(self.instaurar)
        self.botao_ato.clicked.connect(self.registrar_ato)
        self.botao_decidir.clicked.connect(self.decidir)
        botoes = QHBoxLayout()
        botoes.addWidget(self.botao_instaurar)
        botoes.addWidget(self.botao_ato)
        botoes.addWidget(self.botao_decidir)
        botoes.addStretch(1)

        layout = QVBoxLayout(self)
        layout.addWidget(explicacao)
        layout.addWidget(self.aviso)
        rotulo_lista = QLabel("&Procedimentos:")
        rotulo_lista.setBuddy(self.lista)
        layout.addWidget(rotulo_lista)
        layout.addWidget(self.lista)
        layout.addWidget(self.cabecalho)
        layout.addWidget(self.pendencia)
        layout.addWidget(self.tabela, 1)
        layout.addStretch(0)  # takes the room only while the table is hidden (no procedure yet)
        layout.addLayout(botoes)
        layout.addWidget(self.papeis)
        self.lista.currentRowChanged.connect(lambda _l: self._mostrar_selecionada())
        self.recarregar()

    # --- reading ---
    def recarregar(self, selecionar: int | None = None) -> None:
        from secretaria.services.cadastros import obter_operadora
        from secretaria.services.execucao import obter_cassacoes

        atual = self.selecionada()
        with self.contexto.banco.leitura() as sessao:
            operadora = obter_operadora(sessao, self.operadora_id)
            self.cassacoes = obter_cassacoes(sessao, self.operadora_id)
        self.operadora_nome = operadora.dados.razao_social
        self.delegacao = operadora.dados.delegacao
        self.cassada = operadora.situacao == "cassada" or any(
            c.resultado == "cassada" for c in self.cassacoes
        )
        alvo = selecionar if selecionar is not None else (atual.id if atual is not None else None)
        self.lista.blockSignals(True)
        self.lista.clear()
        for c in self.cassacoes:
            item = QListWidgetItem(f"Instaurado em {formatar_data(c.instaurada_em)} — {c.rotulo}")
            item.setData(Qt.ItemDataRole.UserRole, c.id)
            if c.em_andamento:
                item.setForeground(QBrush(QColor(COR_ALERTA)))
            elif c.resultado == "cassada":
                item.setForeground(QBrush(QColor(COR_BLOQUEIO)))
            self.lista.addItem(item)
        if not self.cassacoes:
            item_vazio(self.lista, "Nenhum procedimento de cassação contra esta operadora.")
        linha = next((i for i, c in enumerate(self.cassacoes) if c.id == alvo), 0 if self.cassacoes else -1)
        self.lista.setCurrentRow(linha)
        self.lista.blockSignals(False)
        self._mostrar_selecionada()

    def selecionada(self) -> CassacaoDetalhe | None:
        linha = self.lista.currentRow() if hasattr(self, "lista") else -1
        return self.cassacoes[linha] if 0 <= linha < len(self.cassacoes) else None

    def _mostrar_selecionada(self) -> None:
        c = self.selecionada()
        aberta = next((x for x in self.cassacoes if x.em_andamento), None)
        if self.delegacao != "permissao":
            self._aviso(
                "Esta operadora é concessionária: o art. 16 prevê a cassação de permissão ou autorização, não "
                "de concessão.",
                COR_SECUNDARIA,
            )
        elif self.cassada:
            self._aviso("A permissão desta operadora foi cassada.", COR_BLOQUEIO)
        elif aberta is not None:
            self._aviso(
                f"Há um procedimento em andamento, instaurado em {formatar_data(aberta.instaurada_em)}.",
                COR_ALERTA,
            )
        else:
            self._aviso("", COR_SECUNDARIA)
        self.cabecalho.setVisible(c is not None)
        self.tabela.setVisible(c is not None)
        if c is None:
            self.cabecalho.setText("")
            self.pendencia.setText("")
            self.pendencia.setVisible(False)
            self._mostrar_eventos(())
        else:
            decisao = ""
            if c.decidida_em is not None:
                decisao = f"<br><b>{_e(c.rotulo)}</b>: {_e(c.fundamentacao or '')}"
            self.cabecalho.setText(
                f"<b>Procedimento instaurado em {formatar_data(c.instaurada_em)}</b> — motivo: {_e(c.motivo)}"
                + decisao
            )
            pendencia = c.pendencia(relogio.hoje())
            self.pendencia.setText(pendencia)
            self.pendencia.setStyleSheet(f"color: {COR_ALERTA};")
            self.pendencia.setVisible(bool(pendencia))
            self._mostrar_eventos(c.linha_do_tempo)
        pode_instaurar = self.delegacao == "permissao" and not self.cassada and aberta is None
        self.botao_instaurar.setEnabled(pode_instaurar)
        self.botao_ato.setEnabled(c is not None and c.em_andamento)
        self.botao_decidir.setEnabled(c is not None and c.em_andamento)
        faltam = [
            texto
            for texto, papeis in (
                ("instaurar: Autoridade ou Secretário(a)", PAPEIS_INSTAURAR),
                ("registrar atos: Protocolo, Autoridade ou Secretário(a)", PAPEIS_ATO),
                ("decidir: Secretário(a)", PAPEIS_DECIDIR),
            )
            if not self.contexto.pode(*papeis)
        ]
        self.papeis.setText(("Cabe a outros usuários — " + "; ".join(faltam) + ".") if faltam else "")
        self.papeis.setVisible(bool(faltam))

    def _mostrar_eventos(self, eventos: Sequence[EventoCassacao]) -> None:
        self.fonte_eventos.trocar(linhas_dos_eventos(eventos))
        self.modelo.recarregar()

    def _aviso(self, texto: str, cor: str) -> None:
        self.aviso.setText(texto)
        self.aviso.setStyleSheet(f"color: {cor}; font-weight: bold;")
        self.aviso.setVisible(bool(texto))

    # --- acts ---
    def _abrir(self, dialogo: _DialogoCassacao, resultado: Callable[[], str]) -> _DialogoCassacao:
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.setWindowModality(Qt.WindowModality.WindowModal)

        def terminou(codigo: int) -> None:
            if codigo == QDialog.DialogCode.Accepted:
                texto = resultado()
                self.recarregar(selecionar=getattr(dialogo, "cassacao_id", None) or dialogo.resultado_id)
                self.alterado.emit(texto)

        dialogo.finished.connect(terminou)
        dialogo.open()
        self.dialogo = dialogo
        return dialogo

    def instaurar(self) -> _DialogoCassacao:
        return self._abrir(
            DialogoInstaurarCassacao(self.contexto, self.operadora_id, self.operadora_nome, self),
            lambda: "instaurada",
        )

    def registrar_ato(self) -> _DialogoCassacao | None:
        c = self.selecionada()
        if c is None:
            return None
        return self._abrir(DialogoAtoCassacao(self.contexto, c.id, c.versao, self), lambda: "ato")

    def decidir(self) -> _DialogoCassacao | None:
        c = self.selecionada()
        if c is None:
            return None
        dialogo = DialogoDecidirCassacao(self.contexto, c.id, c.versao, self)
        return self._abrir(dialogo, lambda: str(dialogo.resultado.currentData()))

    def texto(self) -> str:
        """What the tab shows, as plain text (tests)."""
        linhas = [self.aviso.text(), self.cabecalho.text(), self.pendencia.text()]
        linhas += [self.lista.item(i).text() for i in range(self.lista.count())]
        for r in range(self.modelo.rowCount()):
            linhas.append(" | ".join(str(self.modelo.index(r, col).data()) for col in range(4)))
        return "\n".join(linhas)


def _e(texto: str) -> str:
    import html

    return html.escape(texto, quote=False)


__all__ = [
    "COLUNAS_EVENTOS_CASSACAO",
    "CORES_EVENTOS_CASSACAO",
    "DialogoAtoCassacao",
    "DialogoDecidirCassacao",
    "DialogoInstaurarCassacao",
    "PainelCassacao",
    "linhas_dos_eventos",
]
