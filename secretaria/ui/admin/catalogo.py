"""The catalogue of provisions: the law's 55 (read-only, except setting Art. 1º, X's lost tipo once) and
the contractual ones (added with their tipo; deactivated, or deleted while no case cites them)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QWidget

from secretaria.lei.catalogo import TIPOS
from secretaria.lei.formato import formatar_decimal
from secretaria.services import catalogo
from secretaria.services.base import ErroDominio
from secretaria.ui.admin.comum import DialogoSimples, PainelTabela, rotulo_ajuda
from secretaria.ui.contexto import Contexto
from secretaria.ui.modelo_tabela import ColunaTabela, LinhaTabela
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.letras import dar_letras

ORIGENS = {"lei": "Lei nº 2.413/1978", "contrato": "Contrato", "ato": "Ato normativo"}
SUJEITOS = {
    "concessionaria": "Concessionária/permissionária",
    "empregado": "Empregado",
    "condutor": "Condutor",
}
NATUREZAS = {"dever": "Dever", "proibicao": "Proibição"}
COLUNAS = (
    ColunaTabela("codigo", "Código", largura=10),
    ColunaTabela("rotulo", "Dispositivo", largura=26),
    ColunaTabela("tipo", "Tipo", largura=6, alinhamento="centro"),
    ColunaTabela("origem", "Origem", largura=18),
    ColunaTabela("situacao", "Situação", largura=10),
    ColunaTabela("citacoes", "Citações", largura=9, alinhamento="direita"),
)


def _combo_tipos() -> QComboBox:
    combo = QComboBox()
    combo.addItem("(escolha)", None)
    for t in TIPOS:
        combo.addItem(f"Tipo {t}", t)
    return combo


class DialogoTipo1X(DialogoSimples):
    """Set the tipo of Art. 1º, X — lost in the copy of the law — once, with the act that decided it."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__("Tipo do art. 1º, X", parent, texto_salvar="Definir tipo")
        self.contexto = contexto
        self.layout_principal.insertWidget(
            0,
            rotulo_ajuda(
                "O tipo de infração do art. 1º, X não aparece na cópia da lei. Ele só pode ser definido uma vez, "
                "com o ato que o decidiu, e não poderá ser alterado depois: autos poderão aplicá-lo."
            ),
        )
        self.tipo = _combo_tipos()
        self.ato = QLineEdit()
        self.ato.setPlaceholderText("Portaria SMSU nº …/AAAA")
        self.form.adicionar("tipo", "&Tipo:", self.tipo)
        self.form.adicionar("ato", "&Ato que decidiu:", self.ato)
        self.setMinimumWidth(520)
        self.finalizar()

    def gravar(self) -> Any:
        catalogo.definir_tipo_1x(
            self.contexto.banco.uow(),
            self.contexto.ator,
            tipo=self.tipo.currentData() or "",
            ato=self.ato.text(),
        )
        return catalogo.CODIGO_1X


class DialogoDispositivoContratual(DialogoSimples):
    """A provision of the concession contract or of another act (art. 7º caput), e.g. "CT-01", with tipo."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__("Novo dispositivo contratual", parent)
        self.contexto = contexto
        self.origem = QComboBox()
        for chave in ("contrato", "ato"):
            self.origem.addItem(ORIGENS[chave], chave)
        self.codigo = QLineEdit()
        self.codigo.setPlaceholderText("CT-01")
        self.codigo.setMaximumWidth(160)
        self.rotulo = QLineEdit()
        self.rotulo.setPlaceholderText("(opcional) Contrato nº 014/2016, cláusula 5ª")
        self.texto = QPlainTextEdit()
        self.texto.setTabChangesFocus(True)
        self.texto.setFixedHeight(self.texto.fontMetrics().lineSpacing() * 5 + 14)
        self.tipo = _combo_tipos()
        self.sujeito = QComboBox()
        for chave, rotulo in SUJEITOS.items():
            self.sujeito.addItem(rotulo, chave)
        self.natureza = QComboBox()
        for chave, rotulo in NATUREZAS.items():
            self.natureza.addItem(rotulo, chave)
        self.ato = QLineEdit()
        self.ato.setPlaceholderText("Contrato de concessão nº 014/2016")
        f = self.form
        f.adicionar("origem", "&Origem:", self.origem)
        f.adicionar("codigo", "&Código:", self.codigo)
        f.adicionar("rotulo", "&Rótulo:", self.rotulo)
        f.adicionar("texto", "Te&xto:", self.texto)
        f.adicionar("tipo", "&Tipo:", self.tipo)
        f.adicionar("sujeito", "&Quem deve cumprir:", self.sujeito)
        f.adicionar("natureza", "&Natureza:", self.natureza)
        f.adicionar("ato", "Contrato ou &ato:", self.ato)
        self.setMinimumWidth(620)
        self.finalizar()

    def gravar(self) -> Any:
        return catalogo.adicionar_dispositivo_contratual(
            self.contexto.banco.uow(),
            self.contexto.ator,
            origem=self.origem.currentData(),
            codigo=self.codigo.text(),
            texto=self.texto.toPlainText(),
            tipo=self.tipo.currentData() or "",
            ato=self.ato.text(),
            rotulo=self.rotulo.text(),
            sujeito=self.sujeito.currentData(),
            natureza=self.natureza.currentData(),
        )


class PainelCatalogo(PainelTabela):
    """The catalogue with the selected provision's text beside the table."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            "Catálogo de dispositivos",
            COLUNAS,
            ajuda="Os 55 dispositivos da Lei nº 2.413/1978 não se alteram (só o tipo do art. 1º, X, que falta na "
            "cópia da lei, é definido uma vez). Dispositivos de contratos e atos são cadastrados com seu tipo.",
            singular="dispositivo",
            plural="dispositivos",
            parent=parent,
        )
        self.contexto = contexto
        self.detalhe = QPlainTextEdit()
        self.detalhe.setReadOnly(True)
        self.detalhe.setPlaceholderText("Escolha um dispositivo para ver o texto.")
        self.corpo.addWidget(self.detalhe, 2)
        self.botao_1x = self.adicionar_botao("Definir tipo do art. 1º, X…", self.definir_1x)
        self.botao_novo = self.adicionar_botao("Novo dispositivo contratual…", self.novo)
        self.botao_ativo = self.adicionar_botao("Desativar", self.alternar_ativo)
        self.botao_excluir = self.adicionar_botao("Excluir", self.excluir)
        self.selecaoMudou.connect(self._mostrar)
        self.dialogo: DialogoSimples | None = None
        self._itens: dict[str, catalogo.DispositivoResumo] = {}
        self.recarregar()

    def recarregar(self, selecionar: Any = None) -> None:
        with self.contexto.banco.leitura() as sessao:
            itens = catalogo.listar_dispositivos(sessao)
        self._itens = {d.codigo: d for d in itens}
        self.definir_linhas(
            [
                LinhaTabela(
                    d.codigo,
                    (
                        d.codigo,
                        d.rotulo,
                        d.tipo or "—",
                        ORIGENS.get(d.origem, d.origem),
                        "Ativo" if d.ativo else "Desativado",
                        d.citacoes,
                    ),
                    destaque=None if d.ativo else "apagado",
                    dica="Tipo ainda não definido: não pode ser citado em autos." if d.tipo is None else None,
                )
                for d in itens
            ],
            selecionar,
        )
        um_x = self._itens.get(catalogo.CODIGO_1X)
        self.botao_1x.setEnabled(um_x is not None and um_x.tipo is None)
        self._mostrar(self.id_selecionado())

    def _mostrar(self, codigo: Any) -> None:
        d = self._itens.get(codigo) if codigo is not None else None
        contratual = d is not None and not d.da_lei
        self.botao_ativo.setEnabled(contratual)
        self.botao_excluir.setEnabled(contratual and d is not None and d.citacoes == 0)
        if d is None:
            self.detalhe.clear()
            return
        self.botao_ativo.setText("Desativar" if d.ativo else "Reativar")
        dar_letras(self, [self.botao_ativo])  # the choice changes after the window was shown
        partes = [f"{d.rotulo} — {ORIGENS.get(d.origem, d.origem)}", "", d.texto]
        if d.tipo:
            partes += ["", f"Tipo de infração: {d.tipo}" + (f" ({d.ato_tipo})" if d.ato_tipo else "")]
        else:
            partes += ["", "Tipo de infração: não definido."]
        if d.nota:
            partes += ["", f"Nota: {d.nota}"]
        citacoes = (
            "Ainda não citado em autos ou representações."
            if d.citacoes == 0
            else "Citado em 1 auto ou representação."
            if d.citacoes == 1
            else f"Citado em {formatar_decimal(d.citacoes, 0)} autos ou representações."
        )
        partes += ["", citacoes]
        self.detalhe.setPlainText("\n".join(partes))

    def _abrir(self, dialogo: DialogoSimples) -> DialogoSimples:
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.salvo.connect(lambda codigo: self.recarregar(codigo))
        dialogo.open()
        self.dialogo = dialogo
        return dialogo

    def definir_1x(self) -> DialogoSimples:
        return self._abrir(DialogoTipo1X(self.contexto, self))

    def novo(self) -> DialogoSimples:
        return self._abrir(DialogoDispositivoContratual(self.contexto, self))

    def _agir(self, acao: Any, codigo: str) -> None:
        try:
            acao()
        except ErroDominio as erro:
            mensagens.avisar_erro(self, "Catálogo de dispositivos", erro.mensagem)
            return
        self.recarregar(codigo if codigo in self._itens else None)

    def alternar_ativo(self) -> None:
        d = self._itens.get(self.id_selecionado())
        if d is None or d.da_lei:
            return
        uow, ator = self.contexto.banco.uow(), self.contexto.ator
        if not d.ativo:
            self._agir(lambda: catalogo.reativar_dispositivo(uow, ator, d.codigo), d.codigo)
            return
        mensagens.confirmar(
            self,
            "Desativar dispositivo",
            f"Desativar {d.rotulo}? Ele continua nos casos em que foi citado, mas não poderá ser citado em "
            "novos autos.",
            lambda: self._agir(lambda: catalogo.desativar_dispositivo(uow, ator, d.codigo), d.codigo),
            texto_sim="Desativar",
            texto_nao="Cancelar",
        )

    def excluir(self) -> None:
        d = self._itens.get(self.id_selecionado())
        if d is None or d.da_lei:
            return
        uow, ator = self.contexto.banco.uow(), self.contexto.ator
        try:  # every refusal before the question: the deletion cannot be undone
            with self.contexto.banco.leitura() as s:
                catalogo.conferir_exclusao_dispositivo(s, ator, d.codigo)
        except ErroDominio as erro:
            mensagens.avisar_erro(self, "Catálogo de dispositivos", erro.mensagem)
            return
        mensagens.confirmar(
            self,
            "Excluir dispositivo",
            f"Excluir {d.rotulo} do catálogo? Use isto só para um cadastro feito por engano.",
            lambda: self._agir(lambda: catalogo.excluir_dispositivo(uow, ator, d.codigo), ""),
            texto_sim="Excluir",
            texto_nao="Cancelar",
        )
