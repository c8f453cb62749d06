"""Cassação (art. 16): a separate procedure on an operator holding a permission — opened for a relevant,
proven reason, with full defence (notice, defence, evidence, opinion), then decided by the Secretary.

Three dialogs, one service call each (`secretaria.services.execucao`): `DialogoInstaurarCassacao`,
`DialogoAtoCassacao`, `DialogoDecidirCassacao`. The operator's screen (part A) opens them; deciding
"cassar" asks for confirmation (it sets the operator "cassada" from that day).
"""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from secretaria.services import relogio
from secretaria.services.base import ErroDominio
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.campos import CampoTexto
from secretaria.ui.widgets import CampoData, Formulario, botoes_salvar_cancelar, mensagens


class _DialogoCassacao(QDialog):
    titulo = "Cassação (art. 16)"
    texto_botao = "&Registrar"

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
        self.botoes = botoes_salvar_cancelar(self, texto_salvar=self.texto_botao)
        self.botoes.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        self.botoes.accepted.connect(self.registrar)
        self.layout_principal.addWidget(self.botoes)

    def montar(self) -> None:
        raise NotImplementedError

    def confirmacao(self) -> str | None:
        return None

    def executar(self) -> int | None:
        raise NotImplementedError

    def registrar(self) -> None:
        self.form.limpar_erros()
        try:
            self.data.data_ou_erro("data", "a data")
        except ErroDominio as erro:
            self.form.mostrar_erro(erro)
            return
        texto = self.confirmacao()
        if texto:
            mensagens.confirmar(
                self, self.titulo, texto, self._executar, texto_sim="Confirmar", texto_nao="Voltar"
            )
        else:
            self._executar()

    def _executar(self) -> None:
        try:
            self.resultado_id = self.executar()
        except ErroDominio as erro:
            self.form.mostrar_erro(erro)
            return
        self.accept()

    def _dia(self) -> date:
        dia = self.data.data_ou_erro("data", "a data")
        if dia is None:
            raise ErroDominio("Informe a data.", "data")
        return dia


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
        return f"Instaurar o procedimento de cassação da permissão de {self.operadora_nome}?"

    def executar(self) -> int:
        from secretaria.services.execucao import instaurar_cassacao

        return instaurar_cassacao(
            self.contexto.banco.uow(),
            self.contexto.ator,
            operadora_id=self.operadora_id,
            data=self._dia(),
            motivo=self.motivo.texto(),
        )


class DialogoAtoCassacao(_DialogoCassacao):
    titulo = "Registrar ato da cassação"

    def __init__(
        self, contexto: Contexto, cassacao_id: int, versao: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, parent)
        self.cassacao_id = cassacao_id
        self.versao = versao
        self.construir(
            "Cada ato do procedimento fica registrado: a notificação da permissionária para se defender, a "
            "defesa, as provas, os pareceres.",
        )

    def montar(self) -> None:
        from secretaria.services.execucao import TIPOS_ATO_CASSACAO

        self.tipo = QComboBox()
        for chave, rotulo in TIPOS_ATO_CASSACAO.items():
            self.tipo.addItem(rotulo[:1].upper() + rotulo[1:], chave)
        self.descricao = CampoTexto(linhas=4)
        self.form.adicionar("tipo", "&Ato:", self.tipo)
        self.form.adicionar("descricao", "D&escrição:", self.descricao)
        self.form.apelido("cassacao_id", "")

    def executar(self) -> int:
        from secretaria.services.execucao import registrar_ato_cassacao

        return registrar_ato_cassacao(
            self.contexto.banco.uow(),
            self.contexto.ator,
            cassacao_id=self.cassacao_id,
            data=self._dia(),
            tipo=self.tipo.currentData(),
            descricao=self.descricao.texto(),
            versao=self.versao,
        )


class DialogoDecidirCassacao(_DialogoCassacao):
    titulo = "Decidir a cassação (art. 16)"
    texto_botao = "De&cidir…"

    def __init__(
        self, contexto: Contexto, cassacao_id: int, versao: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, parent)
        self.cassacao_id = cassacao_id
        self.versao = versao
        self.construir(
            "A cassação só pode ser decidida depois da notificação da permissionária e da sua defesa (ou do fim "
            "do prazo de 15 dias para ela).",
        )

    def montar(self) -> None:
        from secretaria.services.execucao import RESULTADOS_CASSACAO

        self.resultado = QComboBox()
        for chave, rotulo in RESULTADOS_CASSACAO.items():
            self.resultado.addItem(rotulo[:1].upper() + rotulo[1:], chave)
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

    def executar(self) -> None:
        from secretaria.services.execucao import decidir_cassacao

        decidir_cassacao(
            self.contexto.banco.uow(),
            self.contexto.ator,
            cassacao_id=self.cassacao_id,
            data=self._dia(),
            resultado=self.resultado.currentData(),
            fundamentacao=self.fundamentacao.texto(),
            versao=self.versao,
        )
        return None


__all__ = ["DialogoAtoCassacao", "DialogoDecidirCassacao", "DialogoInstaurarCassacao"]
