"""The case screen: one auto from drawing-up to follow-up (PRODUTO paths 4–8).

Top: the auto's number, phase, operator, provision and the penalty as it stands. Then the deadlines, each
with its state in colour AND words; red only for what the office is late with ("Decisão (art. 13):
ATRASADA …"), never for an operator's deadline that simply passed unused. Then a column of buttons for the next acts the
user's roles allow (the service decides which acts the phase allows: `Caso.atos_permitidos`); acts waiting
for someone else's role are named, so a clerk knows who is next. Below, tabs: the timeline of acts (a table
model), the auto's details, the sanction as the law allows it now, attached files and issued documents.

The screen reloads the case (`obter_caso`, one read session) after every act.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.codigos import PrazoRevisado
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.lei.urm import formatar_reais
from secretaria.services.base import ROTULOS_PAPEIS, ErroDominio
from secretaria.services.caso import (
    PAPEIS_DOS_ATOS,
    ROTULOS_ATOS,
    Caso,
    EventoCaso,
    PrazoCaso,
    RecursoCaso,
    obter_caso,
)
from secretaria.services.filas import prazo_defesa_atrasa_antes_de, primeiro_dia_de_atraso
from secretaria.services.fundamentos import legiveis
from secretaria.services.rotulos import (
    SITUACOES_CUMPRIMENTO,
    SITUACOES_PAGAMENTO,
    formatar_cnpj,
    formatar_data_hora,
)
from secretaria.ui import certificado
from secretaria.ui.contexto import Contexto
from secretaria.ui.modelo_tabela import ColunaTabela, FonteEmMemoria, LinhaTabela, ModeloTabela
from secretaria.ui.processo.anexos import preencher_lista_anexos, salvar_copia_do_anexo_selecionado
from secretaria.ui.processo.atos import DIALOGOS_ATOS
from secretaria.ui.processo.campos import item_vazio, tabela_de_eventos
from secretaria.ui.processo.painel_sancao import (
    COR_ALERTA,
    COR_BLOQUEIO,
    COR_OK,
    COR_SECUNDARIA,
    PainelSancao,
)
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.janelas import tamanho_na_tela
from secretaria.ui.widgets.letras import dar_letras, letras_usadas

ROTULOS_EVENTO = {
    "representacao": "Representação",
    "infracao": "Infração",
    "lavratura": "Lavratura",
    "intimacao": "Intimação",
    "defesa": "Defesa",
    "proposta": "Proposta",
    "decisao": "Decisão",
    "recurso": "Recurso",
    "julgamento_recurso": "Julgamento",
    "suspensao": "Suspensão",
    "pagamento": "Pagamento",
    "divida_ativa": "Dívida ativa",
    "cumprimento": "Cumprimento",
    "cancelamento": "Cancelamento",
    "retificacao": "Retificação",
    "revisao_sancao": "Revisão",
}

CORES_FASE = {
    "lavrado": "#1d4ed8",
    "intimado": "#1d4ed8",
    "decidido": "#9a3412",
    "em_recurso": "#9a3412",
    "encerrado": "#166534",
    "cancelado": "#6b7280",
}


COLUNAS_LINHA_DO_TEMPO = (
    ColunaTabela("data", "Data", alinhamento="centro", dica_do_texto=True),
    ColunaTabela("ato", "Ato", dica_do_texto=True),
    ColunaTabela("descricao", "Descrição", dica_do_texto=True),
)
CORES_LINHA_DO_TEMPO = {"cancelamento": COR_BLOQUEIO, "ressalva": COR_ALERTA, "infracao": COR_SECUNDARIA}
"""Failed intimações and cancellations stand out; the infraction itself (not an act) is grey."""


def linhas_da_linha_do_tempo(eventos: Sequence[EventoCaso]) -> list[LinhaTabela]:
    """The case's acts in date order, as rows of the timeline table (Data | Ato | Descrição); each row's
    id is the act's code."""
    return [LinhaTabela(e.ato, (e.data, e.titulo, e.descricao), _destaque(e)) for e in eventos]


def _destaque(e: EventoCaso) -> str | None:
    if e.ato == "cancelamento":
        return "cancelamento"
    if e.ressalva:  # worth a look, not an alarm
        return "ressalva"
    if e.ato == "infracao":
        return "infracao"
    return None


COR_CURSO = "#1d4ed8"
"""A deadline of the operator's still running: nothing for the office to do yet."""

RESULTADOS_RECURSO_TEXTO = {
    "negado": "negado",
    "provido": "provido (penalidade anulada)",
    "provido_parcialmente": "provido em parte (penalidade reduzida)",
}


@dataclass(frozen=True)
class LinhaPrazo:
    texto: str
    cor: str
    estado: str
    """ "atrasado" (the office is late: red), "pendente" (the office's turn), "aberto" (the operator's
    deadline running), "cumprido", "encerrado" (passed unused: the case moved on)."""


def _linha_prazo(p: PrazoCaso, hoje: date, recurso: RecursoCaso | None) -> LinhaPrazo:
    """One of the operator's deadlines (defence, appeal): blue while running, green when met or when an
    unused appeal deadline made the decision final, grey when it closed without the petition (or the petition
    came late). An unused deadline is never red: it is not the office's fault."""
    vencimento = formatar_data(p.vencimento)
    recurso_prazo = p.prazo == PrazoRevisado.RECURSO
    if p.estado == "aberto":
        faltam = (p.vencimento - hoje).days
        quando = (
            f"vence HOJE, {vencimento}" if faltam == 0 else f"vence em {vencimento} ({_dias_faltam(faltam)})"
        )
        return LinhaPrazo(f"{p.nome}: em curso — {quando}", COR_CURSO, "aberto")
    if p.estado == "vencido":
        if recurso_prazo:
            return LinhaPrazo(
                f"{p.nome}: prazo encerrado em {vencimento} sem recurso — decisão definitiva",
                COR_OK,
                "encerrado",
            )
        return LinhaPrazo(
            f"{p.nome}: prazo encerrado em {vencimento} sem defesa", COR_SECUNDARIA, "encerrado"
        )
    if p.estado == "encerrado":
        peticao = "recurso" if recurso_prazo else "defesa"
        return LinhaPrazo(
            f"{p.nome}: prazo encerrado em {vencimento} sem {peticao}", COR_SECUNDARIA, "encerrado"
        )
    # "cumprido": the petition was filed (maybe late: recorded anyway, marked intempestiva)
    texto = p.texto.removeprefix("cumprido: ")
    fora = not p.tempestivo
    if fora:
        texto = texto.replace(" (intempestiva)", "").replace(" (intempestivo)", "")
        texto += f", fora do prazo (vencia em {vencimento}) — intempestiv{'o' if recurso_prazo else 'a'}"
    else:
        texto += " — no prazo"
    if recurso_prazo and recurso is not None:
        if recurso.resultado == "pendente":
            return LinhaPrazo(
                f"{p.nome}: {texto}; aguardando o julgamento do Prefeito", COR_ALERTA, "pendente"
            )
        julgado = f" em {formatar_data(recurso.julgado_em)}" if recurso.julgado_em else ""
        resultado = RESULTADOS_RECURSO_TEXTO.get(recurso.resultado, recurso.resultado)
        texto += f"; julgado{julgado}: {resultado}"
    return LinhaPrazo(f"{p.nome}: {texto}", COR_SECUNDARIA if fora else COR_OK, "cumprido")


def linhas_prazos(c: Caso, hoje: date, dias_para_decidir: int) -> list[LinhaPrazo]:
    """Every deadline of the case with its state, plus what the office itself must do next: intimar the
    auto or the decision (amber), decide after the defence deadline (amber; red and in words once later than
    the `dias_para_decidir` setting — the "Decisões atrasadas" queue)."""
    linhas: list[LinhaPrazo] = []
    if c.fase == "lavrado":
        linhas.append(
            LinhaPrazo(
                "Intimação do auto (art. 11): pendente — o prazo de defesa começa com a primeira intimação "
                "entregue.",
                COR_ALERTA,
                "pendente",
            )
        )
    for p in c.prazos:
        linhas.append(_linha_prazo(p, hoje, c.recurso))
    if c.fase == "intimado" and c.decisao is None and c.prazo_defesa is not None and hoje > c.prazo_defesa:
        atraso = (hoje - c.prazo_defesa).days
        if c.prazo_defesa < prazo_defesa_atrasa_antes_de(hoje, dias_para_decidir):
            linhas.append(
                LinhaPrazo(
                    f"Decisão (art. 13): ATRASADA — o prazo de defesa terminou em {formatar_data(c.prazo_defesa)}, "
                    f"há {atraso} dias (atrasada depois de {dias_para_decidir} dias).",
                    COR_BLOQUEIO,
                    "atrasado",
                )
            )
        else:
            linhas.append(
                LinhaPrazo(
                    f"Decisão (art. 13): aguardando proposta e decisão — atrasada a partir de "
                    f"{formatar_data(primeiro_dia_de_atraso(c.prazo_defesa, dias_para_decidir))}.",
                    COR_ALERTA,
                    "pendente",
                )
            )
    decidida = c.decisao is not None and c.decisao.resultado == "aplicada"
    if (
        decidida
        and c.prazo_recurso is None
        and c.recurso is None
        and c.fase not in ("cancelado", "encerrado")
    ):
        linhas.append(
            LinhaPrazo(
                "Intimação da decisão (art. 15): pendente — o prazo de recurso só começa com ela.",
                COR_ALERTA,
                "pendente",
            )
        )
    return linhas


def com_atalho(texto: str, usados: set[str]) -> str:
    """`texto` with an Alt+letter on its first letter not in `usados` (which it joins), so every act
    button is reachable from the keyboard, on the word that names the act when it can:
    "Registrar pagamento…" → "Registrar &pagamento…"."""
    import re

    iniciais = [m.start() for m in re.finditer(r"\b\w", texto)]
    # The word that says which act ("pagamento", "recurso") before "Registrar", which they all begin with.
    ordem = [i for i in iniciais if not texto.startswith(("Registrar", "do ", "da ", "de "), i)]
    ordem += iniciais + list(range(len(texto)))
    for i in ordem:
        letra = texto[i]
        if letra.isalpha() and letra.isascii() and letra.lower() not in usados:
            usados.add(letra.lower())
            return f"{texto[:i]}&{texto[i:]}"
    return texto


def _dias_faltam(n: int) -> str:
    return "falta 1 dia" if n == 1 else f"faltam {n} dias"


class TelaCaso(QDialog):
    """The case window (non-modal: several cases may be open side by side). `casoAlterado(auto_id)` is
    emitted after each act so lists and the home queues can refresh."""

    casoAlterado = Signal(int)

    def __init__(self, contexto: Contexto, auto_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.auto_id = auto_id
        self.caso: Caso | None = None
        self.dias_para_decidir = 30
        self.setWindowFlag(Qt.WindowType.WindowMaximizeButtonHint, True)
        tamanho_na_tela(self, 1180, 820)

        self.titulo = QLabel()
        fonte = self.titulo.font()
        fonte.setPointSizeF(fonte.pointSizeF() * 1.4)
        fonte.setBold(True)
        self.titulo.setFont(fonte)
        self.fase = QLabel()
        self.fase.setTextFormat(Qt.TextFormat.RichText)
        self.resumo = QLabel()
        self.resumo.setWordWrap(True)
        self.resumo.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.penalidade = QLabel()
        self.penalidade.setWordWrap(True)

        self.caixa_prazos = QFrame()
        self.caixa_prazos.setFrameShape(QFrame.Shape.StyledPanel)
        self.layout_prazos = QVBoxLayout(self.caixa_prazos)
        self.caixa_atos = QFrame()
        self.caixa_atos.setFrameShape(QFrame.Shape.StyledPanel)
        self.layout_atos = QVBoxLayout(self.caixa_atos)
        self.botoes_atos: dict[str, QPushButton] = {}
        self.rotulos_prazos: list[QLabel] = []
        self.rotulo_aguardando: QLabel | None = None

        self.fonte_linha_do_tempo = FonteEmMemoria(COLUNAS_LINHA_DO_TEMPO)
        self.modelo = ModeloTabela(
            self.fonte_linha_do_tempo, cores=CORES_LINHA_DO_TEMPO, alinhar_titulos=False, parent=self
        )
        self.linha_do_tempo = tabela_de_eventos(self.modelo, "Linha do tempo do caso")
        self.linha_do_tempo.horizontalHeader().setStretchLastSection(True)

        self.detalhes = QTextBrowser()
        self.detalhes.setOpenLinks(False)
        self.painel = PainelSancao()
        self.abas = QTabWidget()
        self.abas.addTab(self.linha_do_tempo, "&Linha do tempo")
        self.abas.addTab(self.detalhes, "Dados do &auto")
        self.abas.addTab(self.painel, "Sanção ca&bível")  # its S went to "Assinar digitalmente…"
        self.abas.addTab(self._aba_documentos(), "&Documentos")
        self.abas.addTab(self._aba_anexos(), "A&nexos")

        topo = QGridLayout()
        topo.addWidget(self.titulo, 0, 0)
        topo.addWidget(self.fase, 0, 1, Qt.AlignmentFlag.AlignRight)
        topo.addWidget(self.resumo, 1, 0, 1, 2)
        topo.addWidget(self.penalidade, 2, 0, 1, 2)
        meio = QHBoxLayout()
        meio.addWidget(self.caixa_prazos, 3)
        meio.addWidget(self.caixa_atos, 2)
        fechar = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        fechar.button(QDialogButtonBox.StandardButton.Close).setText("Fechar")
        fechar.rejected.connect(self.reject)
        self.botao_atualizar = fechar.addButton("Atualizar (F5)", QDialogButtonBox.ButtonRole.ActionRole)
        self.botao_atualizar.clicked.connect(self.recarregar)
        for b in fechar.buttons():
            if isinstance(b, QPushButton):
                b.setAutoDefault(False)
        layout = QVBoxLayout(self)
        layout.addLayout(topo)
        layout.addLayout(meio)
        layout.addWidget(self.abas, 1)
        layout.addWidget(fechar)
        atalho = QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self)
        atalho.activated.connect(self.recarregar)
        self.recarregar()
        primeiro = next(iter(self.botoes_atos.values()), None)
        (primeiro or self.linha_do_tempo).setFocus()  # the next act is one key away

    # --- loading ---

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        dar_letras(self)  # every button reachable with Alt (the button box's Salvar, Cancelar)

    def recarregar(self) -> None:
        from secretaria.services.filas import dias_para_decidir

        try:
            with self.contexto.banco.leitura() as sessao:
                self.caso = obter_caso(sessao, self.auto_id, relogio.hoje())
                self.dias_para_decidir = dias_para_decidir(sessao)
        except ErroDominio as erro:
            self.titulo.setText("Caso não encontrado")
            self.resumo.setText(erro.mensagem)
            return
        self._mostrar(self.caso)

    def ao_mudar(self, mudancas: frozenset[Any]) -> None:
        """Another user's acts (forwarded by the main window): the case is read again and, when it changed,
        shown again where the user was — the same tab, the same timeline row and scroll, the focus on the
        same act's button. An act's dialog open over the case is left alone."""
        from secretaria.services.filas import dias_para_decidir

        if not mudancas:
            return
        try:
            with self.contexto.banco.leitura() as sessao:
                caso = obter_caso(sessao, self.auto_id, relogio.hoje())
                self.dias_para_decidir = dias_para_decidir(sessao)
        except ErroDominio:
            self.recarregar()  # gone: says so
            return
        if caso == self.caso:
            return
        self.caso = caso
        aba = self.abas.currentIndex()
        linha = self.linha_do_tempo.currentIndex()
        rolagem = self.linha_do_tempo.verticalScrollBar().value()
        foco = next((ato for ato, b in self.botoes_atos.items() if b.hasFocus()), None)
        self._mostrar(caso)
        self.abas.setCurrentIndex(aba)
        if linha.isValid() and linha.row() < self.modelo.rowCount():
            self.linha_do_tempo.setCurrentIndex(self.modelo.index(linha.row(), linha.column()))
        self.linha_do_tempo.verticalScrollBar().setValue(rolagem)
        if foco is not None and foco in self.botoes_atos:
            self.botoes_atos[foco].setFocus()

    def _mostrar(self, c: Caso) -> None:
        self.setWindowTitle(f"Auto de infração nº {c.numero_formatado} — {c.operadora_nome}")
        self.titulo.setText(f"Auto de infração nº {c.numero_formatado}")
        cor = CORES_FASE.get(c.fase, COR_SECUNDARIA)
        self.fase.setText(
            f"<span style='color:{cor}; font-size:large'><b>{c.fase_rotulo}</b></span>"
            + (f"<br><span style='color:{COR_OK}'>Decisão definitiva desde {formatar_data(c.final_em)}</span>"
               if c.final_em else "")
        )  # fmt: skip
        veiculo = f" · Veículo {c.veiculo_descricao}" if c.veiculo_descricao else ""
        self.resumo.setText(
            f"<b>{c.operadora_nome}</b> (CNPJ {formatar_cnpj(c.operadora_cnpj)})<br>"
            f"{c.dispositivo_rotulo} — tipo {c.tipo} · Infração em {formatar_data(c.data_infracao)}"
            f"{' às ' + format(c.hora_infracao, '%H:%M') if c.hora_infracao else ''}, {c.local}{veiculo}"
        )
        self.penalidade.setText(self._texto_penalidade(c))
        self._mostrar_prazos(c)
        self._mostrar_atos(c)
        self.fonte_linha_do_tempo.trocar(linhas_da_linha_do_tempo(c.linha_do_tempo))
        self.modelo.recarregar()
        self.detalhes.setHtml(self._html_detalhes(c))
        self._mostrar_sancao(c)
        self._mostrar_arquivos(c)

    @classmethod
    def _texto_penalidade(cls, c: Caso) -> str:
        texto = cls._texto_da_penalidade(c)
        if c.importado_de is None:
            return texto
        quando = formatar_data(c.importado_em) if c.importado_em else ""
        return f"<i>Importado de {escape(c.importado_de)} em {quando} (histórico anterior ao programa).</i><br>{texto}"

    @staticmethod
    def _texto_da_penalidade(c: Caso) -> str:
        if c.fase == "cancelado":
            quando = formatar_data(c.cancelado_em.date()) if c.cancelado_em else ""
            return (
                f"<span style='color:{COR_BLOQUEIO}'><b>Auto CANCELADO em {quando}</b> por {c.cancelado_por}: "
                f"{c.motivo_cancelamento or ''}</span>"
            )
        d = c.decisao
        if d is None:
            return f"Próxima penalidade (art. 10, V): {c.proxima_penalidade}"
        if d.resultado == "arquivado":
            return f"<b>Auto arquivado</b> pela decisão de {formatar_data(d.data)}."
        if c.penalidade_anulada:
            return f"<span style='color:{COR_OK}'><b>Penalidade anulada</b> pelo recurso ao Prefeito.</span>"
        texto = f"<b>Penalidade:</b> multa de {formatar_decimal(c.multa_ur)} URM"
        if d.valor_urm is not None:
            from secretaria.lei.urm import urm_para_reais

            texto += f" = {formatar_reais(urm_para_reais(c.multa_ur, d.valor_urm))}"
        if c.suspensao_dias:
            texto += f" e suspensão de {c.suspensao_dias} {'dia' if c.suspensao_dias == 1 else 'dias'}"
        texto += f" (decisão de {formatar_data(d.data)}"
        if d.defesa_intempestiva:
            texto += "; defesa intempestiva"
        texto += ")."
        if c.pagamento is not None:
            situacao = SITUACOES_PAGAMENTO.get(c.pagamento.situacao, c.pagamento.situacao)
            if c.pagamento.situacao == "cancelado":
                situacao = "Cancelada (recurso provido)"
            extra = f" em {formatar_data(c.pagamento.pago_em)}" if c.pagamento.pago_em else ""
            texto += f" Multa: <b>{situacao}{extra}</b>."
        if c.cumprimento is not None:
            situacao = SITUACOES_CUMPRIMENTO.get(c.cumprimento.situacao, c.cumprimento.situacao)
            texto += f" Exigência (art. 8º): <b>{situacao}</b>"
            if c.cumprimento.verificado_em:
                texto += f", verificada em {formatar_data(c.cumprimento.verificado_em)}"
            texto += "."
        return texto

    def _limpar(self, layout: QVBoxLayout) -> None:
        while layout.count():
            item = layout.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()
                w.setParent(None)
                w.deleteLater()

    def _mostrar_prazos(self, c: Caso) -> None:
        self._limpar(self.layout_prazos)
        cabecalho = QLabel("<b>Prazos</b>")
        self.layout_prazos.addWidget(cabecalho)
        self.rotulos_prazos = []
        linhas = linhas_prazos(c, relogio.hoje(), self.dias_para_decidir)
        if not linhas:
            rotulo_vazio = QLabel("Nenhum prazo em curso.")
            self.layout_prazos.addWidget(rotulo_vazio)
            self.rotulos_prazos.append(rotulo_vazio)
        for linha in linhas:
            rotulo = QLabel(linha.texto)
            rotulo.setWordWrap(True)
            negrito = "font-weight: bold;" if linha.estado == "atrasado" else ""
            rotulo.setStyleSheet(f"color: {linha.cor}; {negrito}")
            rotulo.setObjectName(f"prazo_{linha.estado}")
            self.layout_prazos.addWidget(rotulo)
            self.rotulos_prazos.append(rotulo)
        self.layout_prazos.addStretch(1)

    def _mostrar_atos(self, c: Caso) -> None:
        self._limpar(self.layout_atos)
        self.botoes_atos = {}
        self.rotulo_aguardando = None
        self.layout_atos.addWidget(QLabel("<b>Próximos atos</b>"))
        permitidos = c.atos_permitidos(self.contexto.ator)
        usados = letras_usadas(self)  # the tabs' and the other buttons' (Fechar, Atualizar, documents)
        for ato in permitidos:
            botao = QPushButton(com_atalho(ROTULOS_ATOS.get(ato, ato) + "…", usados))
            botao.setAutoDefault(False)
            botao.clicked.connect(lambda _c=False, a=ato: self.abrir_ato(a))
            self.layout_atos.addWidget(botao)
            self.botoes_atos[ato] = botao
        outros = [a for a in c.proximos_atos if a not in permitidos and a != "anexar_evidencia"]
        if outros:
            linhas = []
            for a in outros:
                papeis = " ou ".join(ROTULOS_PAPEIS[p] for p in PAPEIS_DOS_ATOS[a])
                linhas.append(f"{ROTULOS_ATOS.get(a, a)} — papel {papeis}")
            aguardando = QLabel("Aguardando outros usuários:<br>" + "<br>".join(linhas))
            self.rotulo_aguardando = aguardando
            aguardando.setWordWrap(True)
            aguardando.setStyleSheet(f"color: {COR_SECUNDARIA}")
            self.layout_atos.addWidget(aguardando)
        if not permitidos and not outros:
            fim = "Caso encerrado: não há atos pendentes." if c.fase in ("encerrado", "cancelado") else ""
            if fim:
                self.layout_atos.addWidget(QLabel(fim))
        self.layout_atos.addStretch(1)
        # Tab reads the screen top to bottom: the next acts first, then the tabs, then Atualizar/Fechar.
        cadeia: list[QWidget] = [*self.botoes_atos.values(), self.abas]
        for antes, depois in itertools.pairwise(cadeia):
            QWidget.setTabOrder(antes, depois)

    def _html_detalhes(self, c: Caso) -> str:
        def linha(rotulo: str, valor: str | None) -> str:
            if not valor:
                return ""
            return f"<tr><td style='padding-right:12px; color:{COR_SECUNDARIA}'>{rotulo}</td><td>{_e(valor)}</td></tr>"

        def linha_html(rotulo: str, html: str) -> str:
            return (
                f"<tr><td style='padding-right:12px; color:{COR_SECUNDARIA}' valign='top'>{rotulo}</td>"
                f"<td>{html}</td></tr>"
            )

        testemunhas = (
            "; ".join(t.nome + (f" ({t.documento})" if t.documento else "") for t in c.testemunhas)
            or "nenhuma"
        )
        hora_inf = f" às {c.hora_infracao:%H:%M}" if c.hora_infracao else ""
        linhas = [
            linha("Operadora", f"{c.operadora_nome} — CNPJ {formatar_cnpj(c.operadora_cnpj)}"),
            linha("Endereço para intimação", c.operadora_endereco),
            linha("Representante legal", c.operadora_representante),
            linha("Infrator", c.infrator_nome),
            linha("Dispositivo", f"{c.dispositivo_rotulo} (tipo {c.tipo}) — {c.dispositivo_texto}"),
            linha("Nota sobre o texto (sic)", c.dispositivo_nota),
            linha("Infração", f"{formatar_data(c.data_infracao)}{hora_inf}, {c.local}"),
            linha("Veículo", c.veiculo_descricao),
            linha("Linha", c.linha_descricao),
            linha("Empregado ou condutor", c.empregado_nome),
            linha("Fatos", c.descricao_fatos),
            linha("Circunstâncias", c.circunstancias),
            linha(
                "Lavratura",
                # an imported auto's hour is the import's midnight, not the book's: not shown
                f"{formatar_data(c.data_lavratura)}"
                f"{'' if c.importado_de else f' às {c.hora_lavratura:%H:%M}'}, {c.local_lavratura}",
            ),
            linha("Fiscal autuante", f"{c.fiscal_nome} (matrícula {c.fiscal_matricula})"),
            linha("Testemunhas", testemunhas),
            linha(
                "Recusa de assinatura", "A pessoa presente recusou-se a assinar." if c.recusou_assinar else ""
            ),
            linha("Próxima penalidade (art. 10, V)", c.proxima_penalidade),
            linha(
                "Representação de origem",
                f"REP nº {c.representacao_numero}" if c.representacao_numero else "",
            ),
        ]
        for termo in c.retificacoes:
            itens = "".join(f"<br>• {_e(i.rotulo)}: “{_e(i.de)}” → “{_e(i.para)}”" for i in termo.itens)
            natureza = "de substância: reabriu o prazo de defesa" if termo.substancial else "formal"
            intimado = (
                f"intimado em {formatar_data(termo.intimado_em)}"
                if termo.intimado_em
                else "<b>aguardando intimação</b>"
            )
            linhas.append(
                linha_html(
                    f"Termo de retificação nº {termo.numero_formatado}",
                    f"{formatar_data(termo.data)}, {natureza}; {intimado}. Motivo: {_e(termo.motivo)}{itens}",
                )
            )
        for defesa in c.defesas:
            linhas.append(
                linha(
                    f"Defesa de {formatar_data(defesa.protocolada_em)}",
                    ("tempestiva" if defesa.tempestiva else "INTEMPESTIVA")
                    + (f" — {defesa.texto}" if defesa.texto else ""),
                )
            )
        for p in c.propostas:
            texto = (
                f"multa de {formatar_decimal(p.multa_ur)} URM"
                + (
                    f" e suspensão de {p.suspensao_dias} {'dia' if p.suspensao_dias == 1 else 'dias'}"
                    if p.suspensao_dias
                    else ""
                )
                if p.acao == "aplicar"
                else "arquivamento"
            )
            linhas.append(linha(f"Proposta de {formatar_data(p.data)}", f"{texto} — {p.fundamentacao}"))
        if c.decisao is not None:
            d = c.decisao
            linhas.append(linha(f"Decisão de {formatar_data(d.data)}", d.fundamentacao))
            if d.fundamentos_legais:
                linhas.append(
                    linha_html("Fundamentos legais", _lista_html(legiveis(d.fundamentos_legais.splitlines())))
                )
        if c.recurso is not None:
            r = c.recurso
            linhas.append(linha(f"Recurso de {formatar_data(r.protocolado_em)}", r.razoes))
            if r.fundamentacao_julgamento:
                linhas.append(linha("Fundamentação do julgamento", r.fundamentacao_julgamento))
        for revista in c.termos_revisao:
            entregue = (
                f"entregue em {formatar_data(revista.intimado_em)}"
                if revista.intimado_em
                else "<b>aguardando intimação</b>"
            )
            linhas.append(
                linha_html(
                    f"Termo de revisão nº {revista.numero_formatado}",
                    f"{formatar_data(revista.data)}; {entregue}.",
                )
            )
        return f"<table cellspacing='4'>{''.join(linhas)}</table>"

    def _mostrar_sancao(self, c: Caso) -> None:
        from secretaria.services.sancao import avaliar_sancao
        from secretaria.ui.processo.painel_sancao import conteudo_de

        try:
            with self.contexto.banco.leitura() as sessao:
                avaliacao = avaliar_sancao(
                    sessao,
                    operadora_id=c.operadora_id,
                    dispositivo_codigo=c.dispositivo_codigo,
                    data_infracao=c.data_infracao,
                    excluir_auto_id=c.id,
                    tipo=c.tipo,  # a provision deactivated since stays on the cases that cite it
                )
        except ErroDominio as erro:
            self.painel.mostrar_erro(erro.mensagem)
            return
        self.painel.mostrar(conteudo_de(avaliacao))

    def _aba_documentos(self) -> QWidget:
        from secretaria.ui.impressao import BotoesDocumentosCaso

        aba = QWidget()
        layout = QVBoxLayout(aba)
        self.botoes_documentos = BotoesDocumentosCaso(self.contexto, self.auto_id, aba)
        self.botoes_documentos.documentoEmitido.connect(lambda _id: self.recarregar())
        emitir = QHBoxLayout()
        emitir.addWidget(QLabel("Emitir:"))
        emitir.addWidget(self.botoes_documentos, 1)
        layout.addLayout(emitir)
        layout.addWidget(QLabel("Documentos emitidos (guardados com o SHA-256; a reimpressão é idêntica):"))
        self.lista_documentos = QListWidget()
        self.lista_documentos.setAccessibleName("Documentos emitidos")
        self.lista_documentos.itemActivated.connect(lambda _i: self._documento("imprimir"))
        layout.addWidget(self.lista_documentos, 1)
        botoes = QHBoxLayout()
        self.botao_reimprimir = QPushButton("Imprimir o arquivo guardado…")
        self.botao_copia_documento = QPushButton("Salvar cópia do PDF…")
        self.botao_reimprimir.clicked.connect(lambda: self._documento("imprimir"))
        self.botao_copia_documento.clicked.connect(lambda: self._documento("salvar"))
        # Digital signatures: sign an unsigned copy later (a new version), check any PDF, choose one's own A1 file.
        self.botao_assinar = QPushButton("A&ssinar digitalmente…")
        self.botao_assinar.setToolTip(
            "Assina o documento selecionado, emitido sem assinatura, como nova versão."
        )
        self.botao_assinar.clicked.connect(self._assinar_documento)
        self.botao_verificar_pdf = QPushButton("Verificar um PDF…")
        self.botao_verificar_pdf.setToolTip(
            "Diz se um PDF é documento desta Secretaria, de qual processo, quem assinou e se está íntegro."
        )
        self.botao_verificar_pdf.clicked.connect(lambda: certificado.verificar_arquivo(self, self.contexto))
        self.botao_meu_certificado = QPushButton("Meu certificado digital…")
        self.botao_meu_certificado.clicked.connect(
            lambda: certificado.escolher_certificado(self, self.contexto)
        )
        self.lista_documentos.currentItemChanged.connect(lambda _a, _b: self._habilitar_assinar())
        for b in (
            self.botao_reimprimir,
            self.botao_copia_documento,
            self.botao_assinar,
            self.botao_verificar_pdf,
            self.botao_meu_certificado,
        ):
            b.setAutoDefault(False)
            botoes.addWidget(b)
        botoes.addStretch(1)
        layout.addLayout(botoes)
        return aba

    def _aba_anexos(self) -> QWidget:
        aba = QWidget()
        layout = QVBoxLayout(aba)
        layout.addWidget(QLabel("Fotos e documentos anexados (o SHA-256 é conferido ao abrir):"))
        self.lista_anexos = QListWidget()
        self.lista_anexos.setAccessibleName("Arquivos anexados")
        self.lista_anexos.itemActivated.connect(lambda _i: self._salvar_anexo())
        layout.addWidget(self.lista_anexos, 1)
        botoes = QHBoxLayout()
        self.botao_salvar_anexo = QPushButton("Salvar cópia do anexo…")
        self.botao_salvar_anexo.clicked.connect(self._salvar_anexo)
        self.botao_anexar = QPushButton("Anexar arquivo…")
        self.botao_anexar.clicked.connect(self._anexar)
        for b in (self.botao_salvar_anexo, self.botao_anexar):
            b.setAutoDefault(False)
            botoes.addWidget(b)
        botoes.addStretch(1)
        layout.addLayout(botoes)
        return aba

    def _mostrar_arquivos(self, c: Caso) -> None:
        preencher_lista_anexos(self.lista_anexos, c.anexos)
        self.botao_salvar_anexo.setEnabled(bool(c.anexos))
        self.botao_anexar.setVisible("anexar_evidencia" in c.atos_permitidos(self.contexto.ator))
        self.lista_documentos.clear()
        self._assinaveis = {
            d.id
            for d in c.documentos
            if d.assinado_por is None and not any(v.versao_de_id == d.id for v in c.documentos)
        }
        for d in reversed(c.documentos):
            assinatura = (
                f"assinado digitalmente por {d.assinado_por}" if d.assinado_por else "sem assinatura digital"
            )
            item = QListWidgetItem(
                f"{_rotulo_documento(d.tipo, d.referencia)} — emitido em {formatar_data_hora(d.emitido_em)} "
                f"por {d.emitido_por} — {assinatura}"
                + (f" (versão assinada do documento nº {d.versao_de_id})" if d.versao_de_id else "")
            )
            item.setToolTip(f"{d.nome_arquivo}\nDocumento nº {d.id}\nSHA-256 {d.sha256}")
            item.setData(Qt.ItemDataRole.UserRole, d.id)
            self.lista_documentos.addItem(item)
        if c.documentos:
            self.lista_documentos.setCurrentRow(0)
        else:
            item_vazio(self.lista_documentos, "Nenhum documento emitido ainda.")
        self.botao_reimprimir.setEnabled(bool(c.documentos))
        self.botao_copia_documento.setEnabled(bool(c.documentos))
        self._habilitar_assinar()
        self.botoes_documentos.mostrar(
            fase=c.fase,
            decidido=c.decisao is not None,
            retificado=any(t.substancial for t in c.retificacoes),
            julgado=c.recurso is not None and c.recurso.julgado_em is not None,
        )

    def _documento_selecionado(self) -> int | None:
        item = self.lista_documentos.currentItem()
        valor = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return int(valor) if valor is not None else None

    def _habilitar_assinar(self) -> None:
        self.botao_assinar.setEnabled(self._documento_selecionado() in getattr(self, "_assinaveis", set()))

    def _assinar_documento(self) -> None:
        documento_id = self._documento_selecionado()
        if documento_id is not None:
            certificado.assinar_guardado(self, self.contexto, documento_id, lambda _info: self.recarregar())

    def _documento(self, acao: str) -> None:
        """Print again, or save, an issued document: its stored bytes, checked against their SHA-256."""
        from secretaria.ui import impressao

        item = self.lista_documentos.currentItem()
        documento_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if documento_id is not None:
            impressao.documento_guardado(self, self.contexto, documento_id, acao)

    # --- acts ---
    def abrir_ato(self, ato: str, ao_terminar: Callable[[QDialog], None] | None = None) -> QDialog | None:
        """Open the act's dialog (window-modal, non-blocking); on success reload and say what happened."""
        if self.caso is None:
            return None
        if ato == "anexar_evidencia":
            self._anexar()
            return None
        fabrica = DIALOGOS_ATOS.get(ato)
        if fabrica is None:
            return None
        dialogo: QDialog = fabrica(self.contexto, self.caso, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def terminou(resultado: int) -> None:
            if resultado == QDialog.DialogCode.Accepted:
                self.recarregar()
                self.casoAlterado.emit(self.auto_id)
                mensagem = getattr(dialogo, "mensagem_final", "")
                if mensagem:
                    mensagens.informar(self, ROTULOS_ATOS.get(ato, "Ato registrado"), mensagem)
            if ao_terminar is not None:
                ao_terminar(dialogo)

        dialogo.finished.connect(terminou)
        dialogo.setWindowModality(Qt.WindowModality.WindowModal)
        dialogo.open()
        return dialogo

    def _anexar(self) -> None:
        from secretaria.services.autos import anexar_evidencia

        assert self.caso is not None
        caminhos = arquivos.abrir_arquivos(
            self, "Anexar arquivos ao auto", "Fotos e documentos (*.jpg *.jpeg *.png *.pdf)"
        )
        falhas = []
        for caminho in caminhos:
            try:
                anexar_evidencia(
                    self.contexto.banco.uow(),
                    self.contexto.ator,
                    auto_id=self.caso.id,
                    nome_arquivo=caminho.name,
                    conteudo=caminho.read_bytes(),
                )
            except (ErroDominio, OSError) as erro:
                falhas.append(f"{caminho.name}: {getattr(erro, 'mensagem', erro)}")
        if caminhos:
            self.recarregar()
            self.casoAlterado.emit(self.auto_id)
        if falhas:
            mensagens.avisar_erro(self, "Arquivos não anexados", "\n".join(falhas))

    def _salvar_anexo(self) -> None:
        """Save a copy of an attached file, only if its bytes still match the SHA-256 stored when attached."""
        if self.caso is None or not self.caso.anexos:
            return
        salvar_copia_do_anexo_selecionado(self, self.contexto, self.lista_anexos, nome="anexo")

    # --- for tests and the keyboard ---
    def texto_prazos(self) -> str:
        """The deadline lines as the user reads them."""
        return "\n".join(r.text() for r in self.rotulos_prazos)


def _rotulo_documento(tipo: str, referencia: str) -> str:
    from secretaria.services.documentos import descricao_documento

    return descricao_documento(tipo, referencia)


def _e(texto: str) -> str:
    import html

    return html.escape(texto, quote=False)


def _lista_html(itens: Sequence[str]) -> str:
    """One line per item (the decision's legal grounds, one rule each), instead of a run-on paragraph."""
    return "<br>".join(f"• {_e(i.strip())}" for i in itens if i.strip())


def abrir_caso(contexto: Contexto, auto_id: int, parent: QWidget | None = None) -> TelaCaso:
    """Show the case window (non-modal) and return it."""
    tela = TelaCaso(contexto, auto_id, parent)
    tela.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    tela.show()
    tela.raise_()
    tela.activateWindow()
    return tela


__all__ = [
    "COLUNAS_LINHA_DO_TEMPO",
    "CORES_LINHA_DO_TEMPO",
    "LinhaPrazo",
    "TelaCaso",
    "abrir_caso",
    "linhas_da_linha_do_tempo",
    "linhas_prazos",
]
