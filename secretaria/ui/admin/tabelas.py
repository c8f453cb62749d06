"""The dated tables the law's arithmetic reads: URM values and the days without office hours."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QSpinBox, QVBoxLayout, QWidget

from secretaria import relogio
from secretaria.lei.formato import formatar_data, formatar_decimal
from secretaria.services import calendario, urm
from secretaria.services.base import ErroDominio
from secretaria.ui.admin.comum import DialogoSimples, PainelTabela
from secretaria.ui.contexto import Contexto
from secretaria.ui.modelo_tabela import ColunaTabela, LinhaTabela
from secretaria.ui.widgets import CampoData, CampoDecimal, mensagens


def formatar_valor_urm(valor: Decimal) -> str:
    """A URM value as the act that fixed it reads: two decimals, more only where needed (164,74; 164,745),
    never the stored four ("164,7400")."""
    expoente = valor.normalize().as_tuple().exponent
    casas = -expoente if isinstance(expoente, int) else 2
    return formatar_decimal(valor, max(2, min(4, casas)))


COLUNAS_URM = (
    ColunaTabela("vigencia", "Vigente a partir de", largura=18),
    ColunaTabela("valor", "Valor (R$)", largura=14, alinhamento="direita", formatar=formatar_valor_urm),
    ColunaTabela("ato", "Ato que fixou o valor", largura=40),
    ColunaTabela("decisoes", "Decisões com este valor", largura=12, alinhamento="direita"),
)
COLUNAS_DIAS = (
    ColunaTabela("data", "Data", largura=12),
    ColunaTabela("dia", "Dia da semana", largura=14),
    ColunaTabela("descricao", "Descrição", largura=40),
    ColunaTabela("ato", "Ato", largura=30),
)
DIAS_SEMANA = (
    "segunda-feira",
    "terça-feira",
    "quarta-feira",
    "quinta-feira",
    "sexta-feira",
    "sábado",
    "domingo",
)


class DialogoValorUrm(DialogoSimples):
    """A URM value from a day on, with the act that fixed it. The service refuses a change that would
    alter the value in force on the day of a recorded decision."""

    def __init__(
        self, contexto: Contexto, linha: urm.LinhaUrm | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__("Novo valor da URM" if linha is None else "Valor da URM", parent)
        self.contexto = contexto
        self.linha = linha
        self.vigencia = CampoData(obrigatoria=True)
        self.valor = CampoDecimal(casas=4, obrigatorio=True)
        self.valor.setMaximumWidth(160)
        self.ato = QLineEdit()
        self.ato.setPlaceholderText("Decreto nº …/AAAA")
        self.form.adicionar("vigencia", "&Vigente a partir de:", self.vigencia)
        valor = QHBoxLayout()
        valor.addWidget(QLabel("R$"))
        valor.addWidget(self.valor)
        valor.addStretch(1)
        self.form.adicionar("valor", "V&alor de 1 URM:", valor, foco=self.valor)
        self.form.adicionar("ato", "A&to:", self.ato)
        if linha is not None:
            self.vigencia.definir_data(linha.vigencia)
            self.valor.setText(formatar_valor_urm(linha.valor))
            self.ato.setText(linha.ato)
        self.setMinimumWidth(480)
        self.finalizar()

    def gravar(self) -> Any:
        vigencia = self.vigencia.data_ou_erro("vigencia", "a data de início da vigência")
        valor = self.valor.valor_ou_erro("valor", "o valor da URM")
        assert vigencia is not None and valor is not None
        uow, ator = self.contexto.banco.uow(), self.contexto.ator
        if self.linha is None:
            return urm.adicionar_valor_urm(uow, ator, vigencia=vigencia, valor=valor, ato=self.ato.text())
        return urm.editar_valor_urm(
            uow,
            ator,
            self.linha.id,
            vigencia=vigencia,
            valor=valor,
            ato=self.ato.text(),
            versao=self.linha.versao,
        )


class PainelUrm(PainelTabela):
    """The URM value table (REGRAS § 2): fines are in URM and become reais at the value in force."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            "Tabela da URM",
            COLUNAS_URM,
            ajuda="Cada valor vale a partir da data indicada até o próximo. Um valor usado por decisões já "
            "registradas não pode mudar: cadastre o novo valor com a data em que passou a valer.",
            singular="valor",
            plural="valores",
            parent=parent,
        )
        self.contexto = contexto
        self._linhas: dict[int, urm.LinhaUrm] = {}
        self.botao_novo = self.adicionar_botao("Novo valor…", lambda: self.abrir(None))
        self.botao_alterar = self.adicionar_botao("Alterar…", lambda: self.abrir(self.id_selecionado()))
        self.botao_excluir = self.adicionar_botao("Excluir", self.excluir)
        self.abrirRegistro.connect(self.abrir)
        self.dialogo: DialogoValorUrm | None = None
        self.recarregar()

    def recarregar(self, selecionar: Any = None) -> None:
        with self.contexto.banco.leitura() as sessao:
            linhas = urm.tabela_urm(sessao)
        self._linhas = {lin.id: lin for lin in linhas}
        hoje = relogio.hoje()
        vigente = max((lin.vigencia for lin in linhas if lin.vigencia <= hoje), default=None)
        self.definir_linhas(
            [
                LinhaTabela(
                    lin.id,
                    (lin.vigencia, lin.valor, lin.ato, lin.decisoes),
                    dica="Em vigor hoje" if lin.vigencia == vigente else None,
                )
                for lin in sorted(linhas, key=lambda x: x.vigencia, reverse=True)
            ],
            selecionar,
        )

    def abrir(self, valor_id: Any) -> DialogoValorUrm | None:
        if valor_id is not None and valor_id not in self._linhas:
            return None
        dialogo = DialogoValorUrm(
            self.contexto, self._linhas.get(valor_id) if valor_id is not None else None, self
        )
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.salvo.connect(lambda id_: self.recarregar(id_))
        dialogo.open()
        self.dialogo = dialogo
        return dialogo

    def excluir(self) -> None:
        linha = self._linhas.get(self.id_selecionado())
        if linha is None:
            return
        try:  # every refusal before the question: the deletion cannot be undone
            with self.contexto.banco.leitura() as s:
                urm.conferir_exclusao_valor_urm(s, self.contexto.ator, linha.id)
        except ErroDominio as erro:
            mensagens.avisar_erro(self, "Tabela da URM", erro.mensagem)
            return

        def executar() -> None:
            try:
                urm.excluir_valor_urm(self.contexto.banco.uow(), self.contexto.ator, linha.id)
            except ErroDominio as erro:
                mensagens.avisar_erro(self, "Tabela da URM", erro.mensagem)
                return
            self.recarregar()

        mensagens.confirmar(
            self,
            "Excluir valor da URM",
            f"Excluir o valor de R$ {formatar_decimal(linha.valor, 4)} vigente a partir de "
            f"{formatar_data(linha.vigencia)}?",
            executar,
            texto_sim="Excluir",
            texto_nao="Cancelar",
        )


class DialogoDiaNaoUtil(DialogoSimples):
    """A municipal holiday or a decreed "ponto facultativo" (national and RS holidays are built in)."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__("Novo dia sem expediente", parent)
        self.contexto = contexto
        self.data = CampoData(obrigatoria=True)
        self.descricao = QLineEdit()
        self.descricao.setPlaceholderText("Ponto facultativo — Carnaval")
        self.ato = QLineEdit()
        self.ato.setPlaceholderText("Decreto nº …/AAAA")
        self.form.adicionar("data", "&Data:", self.data)
        self.form.adicionar("descricao", "D&escrição:", self.descricao)
        self.form.adicionar("ato", "A&to:", self.ato)
        self.setMinimumWidth(480)
        self.finalizar()

    def gravar(self) -> Any:
        dia = self.data.data_ou_erro("data", "a data")
        assert dia is not None
        return calendario.adicionar_dia_nao_util(
            self.contexto.banco.uow(),
            self.contexto.ator,
            data=dia,
            descricao=self.descricao.text(),
            ato=self.ato.text(),
        )


class PainelCalendario(QWidget):
    """Days without office hours of one year: municipal holidays and decreed "pontos facultativos". The
    deadlines of the law skip them (REGRAS § 4), besides weekends and national and state holidays."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.ano = QSpinBox()
        self.ano.setRange(1978, 2200)
        self.ano.setValue(relogio.hoje().year)
        self.ano.setAccessibleName("Ano")
        self.painel = PainelTabela(
            "Dias sem expediente",
            COLUNAS_DIAS,
            ajuda="Pontos facultativos decretados e outros dias sem expediente. Sábados, domingos e os feriados "
            "nacionais, estaduais e municipais (Navegantes, Sexta-feira Santa, Corpus Christi) já são "
            "considerados em todo ano; um dia incluído depois prorroga os prazos que venceriam nele, e "
            "remover um dia nunca encurta um prazo já contado.",
            singular="dia",
            plural="dias",
        )
        barra = QHBoxLayout()
        rotulo = QLabel("A&no:")
        rotulo.setBuddy(self.ano)
        barra.addWidget(rotulo)
        barra.addWidget(self.ano)
        barra.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(barra)
        layout.addWidget(self.painel, 1)
        self.botao_novo = self.painel.adicionar_botao("Novo dia…", self.novo)
        self.botao_remover = self.painel.adicionar_botao("Remover", self.remover)
        self.ano.valueChanged.connect(lambda _v: self.recarregar())
        self.dialogo: DialogoDiaNaoUtil | None = None
        self._dias: dict[int, calendario.DiaNaoUtilResumo] = {}
        self.recarregar()

    def recarregar(self, selecionar: Any = None) -> None:
        with self.contexto.banco.leitura() as sessao:
            dias = calendario.dias_nao_uteis(sessao, self.ano.value())
        self._dias = {d.id: d for d in dias}
        self.painel.definir_linhas(
            [LinhaTabela(d.id, (d.data, DIAS_SEMANA[d.data.weekday()], d.descricao, d.ato)) for d in dias],
            selecionar,
        )

    def novo(self) -> DialogoDiaNaoUtil:
        dialogo = DialogoDiaNaoUtil(self.contexto, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def salvo(id_: Any) -> None:
            with self.contexto.banco.leitura() as sessao:
                ano = next(
                    (d.data.year for d in calendario.dias_nao_uteis(sessao) if d.id == id_), self.ano.value()
                )
            self.ano.blockSignals(True)
            self.ano.setValue(ano)
            self.ano.blockSignals(False)
            self.recarregar(id_)

        dialogo.salvo.connect(salvo)
        dialogo.open()
        self.dialogo = dialogo
        return dialogo

    def remover(self) -> None:
        dia = self._dias.get(self.painel.id_selecionado())
        if dia is None:
            return

        def executar() -> None:
            try:
                calendario.remover_dia_nao_util(self.contexto.banco.uow(), self.contexto.ator, dia.id)
            except ErroDominio as erro:
                mensagens.avisar_erro(self, "Dias sem expediente", erro.mensagem)
                return
            self.recarregar()

        mensagens.confirmar(
            self,
            "Remover dia sem expediente",
            f"Remover {formatar_data(dia.data)} ({dia.descricao}) do calendário? Os prazos calculados a partir "
            "de agora contarão esse dia como útil.",
            executar,
            texto_sim="Remover",
            texto_nao="Cancelar",
        )
