"""“Importar planilha…”: the office's spreadsheets brought in, from each registry page and from
Administração (the history of autos).

One dialog, in steps on one screen: choose the file (through `widgets.arquivos`, never a file dialog in the
program's own process) and its sheet; every column of the file with the field it was read as, each one
changeable (a combo per column, as `--coluna` on the command line: a recognised column may be wrong, and a
column the program could not decide about must be settled here); the options (blank cells clear values; the
presumed final day of the book's penalties, REGRAS § 3 rule 1); the preview, every row with its problems in red, checked in the background; then “Importar” —
after a confirmation, in the background with a progress bar and Cancelar (nothing written on cancel). A
file with refused rows is imported only with “Importar somente as linhas válidas”, and the refused rows
can then be saved as an .xlsx with the reason in the last column. “Baixar modelo…” writes the template.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from secretaria.lei.formato import formatar_decimal
from secretaria.services.base import ErroDominio
from secretaria.services.importacao import arquivos as planilhas
from secretaria.services.importacao.autos import PRESUNCAO_MINIMA
from secretaria.services.importacao.colunas import COLUNAS, ROTULOS_TIPOS, TIPOS, Mapeamento, mapear
from secretaria.services.importacao.comum import LinhaAvaliada, Previa, ResultadoImportacao
from secretaria.services.importacao.leitura import Planilha, abas_do_arquivo, ler_arquivo
from secretaria.services.importacao.servico import importar, previa
from secretaria.ui.contexto import Contexto
from secretaria.ui.modelo_tabela import ColunaTabela, FiltroTabela, LinhaTabela, ModeloTabela, Ordem
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, dialogo_progresso

__all__ = ["DialogoImportacao", "abrir_importacao"]

TITULO = "Importar planilha"
FILTRO = "Planilhas (*.xlsx *.csv);;Todos os arquivos (*)"
FILTRO_XLSX = "Planilhas do Excel (*.xlsx)"
_ACOES = {"nova": "Nova", "atualizada": "Atualizada", "igual": "Sem alteração", "recusada": "Recusada"}
_IGNORAR = "(ignorar esta coluna)"


class FontePrevia:
    """The preview's rows for `ModeloTabela`: a Python list already in memory (the file's rows), sliced —
    the row number, what importing does, the problems, then the file's own columns."""

    def __init__(self, previa_: Previa) -> None:
        self.previa = previa_
        self._colunas = (
            ColunaTabela("numero", "Linha", 60, alinhamento="direita", ordenavel=False),
            ColunaTabela("acao", "Resultado", 110, ordenavel=False),
            ColunaTabela("problemas", "Problemas", 420, ordenavel=False, dica_do_texto=True),
            ColunaTabela("limpas", "Apaga", 110, ordenavel=False, dica_do_texto=True),
            *(
                ColunaTabela(f"c{i}", titulo, 130, ordenavel=False, dica_do_texto=True)
                for i, titulo in enumerate(previa_.cabecalhos)
            ),
        )

    @property
    def colunas(self) -> Sequence[ColunaTabela]:
        return self._colunas

    def _linhas(self, filtro: FiltroTabela) -> Sequence[LinhaAvaliada]:
        if filtro.situacao == "recusada":
            return self.previa.recusadas
        return self.previa.linhas

    def contar(self, filtro: FiltroTabela) -> int:
        return len(self._linhas(filtro))

    def buscar(
        self, filtro: FiltroTabela, ordem: Ordem, inicio: int, quantidade: int
    ) -> Sequence[LinhaTabela]:
        del ordem
        return [
            LinhaTabela(
                linha.numero,
                (
                    linha.numero,
                    _ACOES[linha.acao],
                    " • ".join(linha.problemas),
                    ", ".join(linha.limpas),
                    *linha.valores,
                ),
                "alerta" if linha.acao == "recusada" else None,
            )
            for linha in self._linhas(filtro)[inicio : inicio + quantidade]
        ]


class DialogoImportacao(QDialog):
    """The import dialog of one kind (`tipo`), which the user may change (Administração offers them all)."""

    def __init__(
        self,
        contexto: Contexto,
        tipo: str,
        parent: QWidget | None = None,
        *,
        ao_importar: Callable[[ResultadoImportacao], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.ao_importar = ao_importar
        self.setWindowTitle(TITULO)
        self.caminho: Path | None = None
        self.planilha: Planilha | None = None
        self.previa: Previa | None = None
        self.resultado: ResultadoImportacao | None = None
        self.tarefa: Tarefa | None = None
        self.mapeamento: dict[str, str] = {}
        self._combos_mapa: dict[str, QComboBox] = {}

        layout = QVBoxLayout(self)
        topo = QFormLayout()
        self.tipo = QComboBox()
        for chave in TIPOS:
            self.tipo.addItem(ROTULOS_TIPOS[chave], chave)
        self.tipo.setCurrentIndex(TIPOS.index(tipo))
        rotulo_tipo = QLabel("&O que importar:")
        rotulo_tipo.setBuddy(self.tipo)
        linha_tipo = QHBoxLayout()
        linha_tipo.addWidget(self.tipo, 1)
        self.botao_modelo = QPushButton("Baixar &modelo…")
        self.botao_modelo.setToolTip("Grava uma planilha .xlsx com os títulos, um exemplo, listas e notas.")
        linha_tipo.addWidget(self.botao_modelo)
        topo.addRow(rotulo_tipo, linha_tipo)

        self.arquivo = QLineEdit()
        self.arquivo.setReadOnly(True)
        self.arquivo.setPlaceholderText("Escolha uma planilha .xlsx ou .csv")
        self.botao_arquivo = QPushButton("&Escolher arquivo…")
        linha_arquivo = QHBoxLayout()
        linha_arquivo.addWidget(self.arquivo, 1)
        linha_arquivo.addWidget(self.botao_arquivo)
        rotulo_arquivo = QLabel("Arqui&vo:")
        rotulo_arquivo.setBuddy(self.botao_arquivo)
        topo.addRow(rotulo_arquivo, linha_arquivo)
        self.aba = QComboBox()
        self.aba.setEnabled(False)
        rotulo_aba = QLabel("A&ba:")
        rotulo_aba.setBuddy(self.aba)
        topo.addRow(rotulo_aba, self.aba)
        layout.addLayout(topo)

        self.grupo_mapa = QGroupBox("Colunas da planilha: confira o campo de cada uma (pode trocar)")
        caixa_mapa = QVBoxLayout(self.grupo_mapa)
        self.tabela_mapa = QTableWidget(0, 3)
        self.tabela_mapa.setHorizontalHeaderLabels(
            ["Coluna da planilha", "Campo do programa", "Como foi lida"]
        )
        self.tabela_mapa.verticalHeader().setVisible(False)
        self.tabela_mapa.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tabela_mapa.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        cabecalho_mapa = self.tabela_mapa.horizontalHeader()
        cabecalho_mapa.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        cabecalho_mapa.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.tabela_mapa.setColumnWidth(0, 260)
        self.tabela_mapa.setColumnWidth(1, 300)
        self.tabela_mapa.setMaximumHeight(170)
        caixa_mapa.addWidget(self.tabela_mapa)
        self.grupo_mapa.setVisible(False)
        layout.addWidget(self.grupo_mapa)

        opcoes = QHBoxLayout()
        self.limpar_vazias = QCheckBox("Células em branco apa&gam os valores cadastrados")
        self.limpar_vazias.setToolTip(
            "Sem esta opção, uma célula em branco deixa o valor cadastrado como está. A prévia mostra, na "
            "coluna “Apaga”, o que seria apagado."
        )
        self.presumir = QCheckBox("&Presumir a data definitiva das penalidades do livro:")
        self.presumir.setToolTip(
            "Os livros não registram o dia em que a penalidade se tornou definitiva; sem ele, o auto não conta "
            "para a reincidência. Com esta opção, ela se torna definitiva este número de dias depois da decisão "
            "(salvo recurso registrado), e cada auto guarda a presunção."
        )
        self.dias_presuncao = QSpinBox()
        self.dias_presuncao.setRange(PRESUNCAO_MINIMA, 3650)
        self.dias_presuncao.setValue(PRESUNCAO_MINIMA)
        self.dias_presuncao.setSuffix(" dias depois da decisão")
        self.dias_presuncao.setEnabled(False)
        opcoes.addWidget(self.limpar_vazias)
        opcoes.addWidget(self.presumir)
        opcoes.addWidget(self.dias_presuncao)
        opcoes.addStretch(1)
        layout.addLayout(opcoes)

        self.resumo = QLabel("Nenhum arquivo conferido ainda.")
        self.resumo.setWordWrap(True)
        self.resumo.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.resumo)
        self.tabela = QTableView()
        self.tabela.setAlternatingRowColors(True)
        self.tabela.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.tabela.verticalHeader().setVisible(False)
        self.tabela.setWordWrap(False)
        self.tabela.horizontalHeader().setStretchLastSection(True)
        self.modelo: ModeloTabela | None = None
        layout.addWidget(self.tabela, 1)
        # The current row's problems one per line (the table's cell shows them in one line, cut).
        self.detalhe = QLabel()
        self.detalhe.setWordWrap(True)
        self.detalhe.setTextFormat(Qt.TextFormat.PlainText)
        self.detalhe.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detalhe.setVisible(False)
        layout.addWidget(self.detalhe)

        baixo = QHBoxLayout()
        self.so_recusadas = QCheckBox("Mostrar só as linhas &recusadas")
        self.so_validas = QCheckBox("Importar &somente as linhas válidas")
        self.so_validas.setToolTip(
            "As linhas recusadas ficam de fora; depois da importação, elas podem ser gravadas numa planilha, "
            "com o motivo na última coluna, para corrigir e importar de novo."
        )
        baixo.addWidget(self.so_recusadas)
        baixo.addWidget(self.so_validas)
        baixo.addStretch(1)
        self.botao_conferir = QPushButton("&Conferir de novo")
        self.botao_importar = QPushButton("&Importar")
        self.botao_recusadas = QPushButton("Salvar linhas recus&adas…")
        self.botao_fechar = QPushButton("&Fechar")
        for botao in (self.botao_conferir, self.botao_importar, self.botao_recusadas, self.botao_fechar):
            baixo.addWidget(botao)
            botao.setAutoDefault(False)
        layout.addLayout(baixo)

        self.botao_modelo.clicked.connect(self.baixar_modelo)
        self.botao_arquivo.clicked.connect(self.escolher_arquivo)
        self.aba.activated.connect(lambda _i: self.conferir())
        self.tipo.activated.connect(lambda _i: self._trocar_tipo())
        self.botao_conferir.clicked.connect(self.conferir)
        self.botao_importar.clicked.connect(self.pedir_importacao)
        self.botao_recusadas.clicked.connect(self.salvar_recusadas)
        self.botao_fechar.clicked.connect(self.reject)
        self.so_validas.toggled.connect(lambda _v: self._atualizar_botoes())
        self.so_recusadas.toggled.connect(lambda _v: self._filtrar())
        self.limpar_vazias.toggled.connect(lambda _v: self.conferir())
        self.presumir.toggled.connect(self._trocar_presuncao)
        self.dias_presuncao.editingFinished.connect(self.conferir)
        self._mostrar_opcoes()
        self._atualizar_botoes()
        self.resize(1100, 640)

    # -- choices -----------------------------------------------------------------------------------

    @property
    def tipo_atual(self) -> str:
        return str(self.tipo.currentData())

    def _trocar_tipo(self) -> None:
        self.mapeamento.clear()
        self._mostrar_opcoes()
        if self.caminho is not None:
            self.conferir()

    def _mostrar_opcoes(self) -> None:
        autos = self.tipo_atual == "autos"
        self.presumir.setVisible(autos)
        self.dias_presuncao.setVisible(autos)

    def _trocar_presuncao(self, marcado: bool) -> None:
        self.dias_presuncao.setEnabled(marcado)
        self.conferir()

    @property
    def presumir_definitiva(self) -> int | None:
        """The days of REGRAS § 3 rule 1's presumption, when the user chose it (autos only)."""
        if self.tipo_atual != "autos" or not self.presumir.isChecked():
            return None
        return int(self.dias_presuncao.value())

    @property
    def limpar(self) -> bool:
        return self.limpar_vazias.isChecked()

    def baixar_modelo(self) -> None:
        tipo = self.tipo_atual
        destino = arquivos.salvar_como(self, "Baixar modelo", f"modelo-{tipo}.xlsx", FILTRO_XLSX)
        if destino is None:
            return
        try:
            destino.write_bytes(planilhas.modelo(tipo))
        except OSError as exc:
            mensagens.avisar_erro(self, TITULO, arquivos.texto_falha_gravacao(destino, exc))
            return
        mensagens.informar(self, TITULO, f"Modelo de {_minuscula(ROTULOS_TIPOS[tipo])} gravado em {destino}.")

    def escolher_arquivo(self) -> None:
        caminho = arquivos.abrir_arquivo(self, "Escolher a planilha a importar", FILTRO)
        if caminho is None:
            return
        self.abrir(caminho)

    def abrir(self, caminho: Path) -> None:
        """Show `caminho`, list its sheets and check it (what choosing the file does)."""
        self.caminho = caminho
        self.arquivo.setText(str(caminho))
        self.mapeamento.clear()
        self.aba.clear()
        try:
            abas = abas_do_arquivo(caminho)
        except (ErroDominio, OSError):
            abas = []  # the check below says what is wrong with the file
        for nome in abas:
            self.aba.addItem(nome)
        self.aba.setEnabled(len(abas) > 1)
        self.conferir()

    # -- preview ---------------------------------------------------------------------------------------

    def conferir(self) -> None:
        """Read the file and check every row in the background; nothing is written."""
        if self.caminho is None:
            return
        caminho, tipo, mapa = self.caminho, self.tipo_atual, dict(self.mapeamento)
        aba = self.aba.currentText() or None
        banco = self.contexto.banco
        presumir, limpar = self.presumir_definitiva, self.limpar

        def trabalho(progresso: Progresso) -> tuple[Planilha, Previa]:
            planilha = ler_arquivo(caminho, aba)
            with banco.leitura() as s:
                return planilha, previa(
                    s,
                    tipo,
                    planilha,
                    mapeamento=mapa,
                    progresso=progresso,
                    presumir_definitiva=presumir,
                    limpar_vazias=limpar,
                )

        self.previa = None
        self.resultado = None
        self.detalhe.setVisible(False)
        self._atualizar_botoes()
        self.resumo.setText("Conferindo…")
        self._em_segundo_plano(
            trabalho, "Conferindo as linhas da planilha…", self._conferido, cancelavel=False
        )

    def _conferido(self, retorno: object) -> None:
        assert isinstance(retorno, tuple)
        self.planilha, self.previa = retorno
        assert self.previa is not None
        self._montar_mapa(self.previa.cabecalhos, self.previa.mapeamento)
        self.modelo = ModeloTabela(FontePrevia(self.previa), cores={"alerta": "#b00020"})
        self.tabela.setModel(self.modelo)
        self.tabela.selectionModel().currentRowChanged.connect(
            lambda atual, _antes: self._detalhar(atual.row())
        )
        self._filtrar()
        self.tabela.setColumnWidth(0, 60)
        self.tabela.setColumnWidth(1, 110)
        # The problems as wide as the rows on screen need (up to 720 px; the tooltip has the rest) and each
        # of the file's columns at least as wide as its header: "Nome do Fisca" was cut at 130 px.
        self.tabela.setColumnWidth(2, min(720, max(420, self.tabela.sizeHintForColumn(2))))
        self.tabela.setColumnWidth(3, 110 if self.limpar else 60)
        cabecalho = self.tabela.horizontalHeader()
        for coluna in range(4, self.modelo.columnCount()):
            self.tabela.setColumnWidth(coluna, max(130, cabecalho.sectionSizeFromContents(coluna).width()))
        p = self.previa
        n = len(p.linhas)
        texto = f"{p.arquivo}: {formatar_decimal(n, 0)} {'linha' if n == 1 else 'linhas'} — {p.resumo}."
        if p.recusadas:
            texto += " Com linhas recusadas, nada é importado, salvo marcando “Importar somente as linhas válidas”."
        if p.avisos:
            texto += "\n" + "\n".join(p.avisos)
        self.resumo.setText(texto)
        primeira = next((i for i, linha in enumerate(p.linhas) if linha.problemas or linha.limpas), -1)
        if primeira >= 0:
            self.tabela.setCurrentIndex(self.modelo.index(primeira, 0))
        self._detalhar(self.tabela.currentIndex().row())
        self._atualizar_botoes()

    def _detalhar(self, row: int) -> None:
        """Under the table: the current row's problems, one per line, and the values its blanks clear."""
        linha = self._linha_avaliada(row)
        partes = []
        if linha is not None and linha.problemas:
            partes.append(f"Linha {linha.numero}, recusada:")
            partes += [f"• {problema}" for problema in linha.problemas]
        if linha is not None and linha.limpas:
            partes.append(f"Linha {linha.numero}: as células em branco apagam {', '.join(linha.limpas)}.")
        self.detalhe.setText("\n".join(partes))
        self.detalhe.setVisible(bool(partes))

    def _linha_avaliada(self, row: int) -> LinhaAvaliada | None:
        if self.modelo is None or self.previa is None or row < 0:
            return None
        numero = self.modelo.id_da_linha(row)
        return next((linha for linha in self.previa.linhas if linha.numero == numero), None)

    def _recusado(self, mensagem: str) -> None:
        self.resumo.setText(mensagem)
        self._mostrar_faltando()
        self._atualizar_botoes()
        mensagens.avisar_erro(self, TITULO, mensagem)

    def _filtrar(self) -> None:
        if self.modelo is not None:
            self.modelo.definir_filtro(
                FiltroTabela(situacao="recusada" if self.so_recusadas.isChecked() else None)
            )

    # -- column mapping ----------------------------------------------------------------------------------

    def _opcoes_campos(self) -> list[tuple[str, str]]:
        return [(c.titulo + (" *" if c.obrigatoria else ""), c.campo) for c in COLUNAS[self.tipo_atual]]

    def _mostrar_faltando(self) -> None:
        """The check was refused (a required column missing, a column that could be two fields): still show
        every column with what it was read as, so the user can settle it here."""
        if self.caminho is None:
            return
        try:
            planilha = ler_arquivo(self.caminho, self.aba.currentText() or None)
            mapa = mapear(self.tipo_atual, planilha.cabecalhos, self.mapeamento)
        except ErroDominio:
            return
        self._montar_mapa(planilha.cabecalhos, mapa)

    def _como_lida(self, titulo: str, campo: str, mapa: Mapeamento) -> str:
        duvida = dict(mapa.duvidosas).get(titulo)
        if duvida:
            rotulos = {c.campo: c.titulo for c in COLUNAS[self.tipo_atual]}
            return "Escolha: pode ser " + " ou ".join(rotulos.get(c, c) for c in duvida)
        if titulo in self.mapeamento:
            return "Escolhida por você" if campo else "Ignorada, como você escolheu"
        if titulo in dict(mapa.parecidas):
            return "Pelo título parecido: confira"
        if titulo in mapa.repetidas:
            return "Ignorada: outra coluna já traz este campo"
        if titulo in mapa.nao_reconhecidas:
            return "Não reconhecida: ignorada, salvo se escolher o campo"
        return "Pelo título"

    def _montar_mapa(self, cabecalhos: Sequence[str], mapa: Mapeamento) -> None:
        self._combos_mapa.clear()
        self.tabela_mapa.setRowCount(0)  # the old rows' widgets go with them
        self.tabela_mapa.setRowCount(len(cabecalhos))
        primeira_duvida = -1
        opcoes = self._opcoes_campos()
        for i, titulo in enumerate(cabecalhos):
            campo = mapa.campo_da_coluna(i)
            self.tabela_mapa.setItem(i, 0, QTableWidgetItem(titulo))
            combo = QComboBox()
            combo.addItem(_IGNORAR, "")
            for texto, chave in opcoes:
                combo.addItem(texto, chave)
            combo.setCurrentIndex(max(0, combo.findData(campo)))
            combo.setAccessibleName(f"Campo da coluna {titulo}")
            combo.activated.connect(lambda _i, t=titulo, c=combo: self._escolher_campo(t, c))
            self._combos_mapa[titulo] = combo
            self.tabela_mapa.setCellWidget(i, 1, combo)
            como = QTableWidgetItem(self._como_lida(titulo, campo, mapa))
            if titulo in dict(mapa.duvidosas):
                como.setForeground(QBrush(QColor("#b00020")))  # the column the user must settle
                primeira_duvida = primeira_duvida if primeira_duvida >= 0 else i
            self.tabela_mapa.setItem(i, 2, como)
        altura = max(combo.sizeHint().height() for combo in self._combos_mapa.values()) if cabecalhos else 0
        for i in range(len(cabecalhos)):
            self.tabela_mapa.setRowHeight(i, altura + 2)
        if primeira_duvida >= 0:
            item = self.tabela_mapa.item(primeira_duvida, 0)
            if item is not None:
                self.tabela_mapa.scrollToItem(item, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.grupo_mapa.setVisible(bool(cabecalhos))

    def _escolher_campo(self, titulo: str, combo: QComboBox) -> None:
        """The user's word for one column (a field, or "" to ignore it), kept across re-checks."""
        self.mapeamento[titulo] = str(combo.currentData() or "")
        self.conferir()

    # -- import --------------------------------------------------------------------------------------

    def _atualizar_botoes(self) -> None:
        p = self.previa
        pode = (
            p is not None
            and self.resultado is None
            and self.contexto.pode("administrador")
            and any(linha.acao in ("nova", "atualizada") for linha in p.linhas)
            and (not p.recusadas or self.so_validas.isChecked())
        )
        self.botao_importar.setEnabled(pode)
        self.botao_conferir.setEnabled(self.caminho is not None)
        self.so_validas.setEnabled(p is not None and bool(p.recusadas) and self.resultado is None)
        self.botao_recusadas.setEnabled(p is not None and bool(p.recusadas))

    def pedir_importacao(self) -> None:
        p = self.previa
        if p is None:
            return
        texto = f"Importar {p.arquivo} ({_minuscula(ROTULOS_TIPOS[p.tipo])})? {p.resumo}."
        if p.recusadas:
            texto += " As linhas recusadas ficam de fora."
        mensagens.confirmar(
            self, TITULO, texto, self.importar_agora, texto_sim="Importar", texto_nao="Cancelar"
        )

    def importar_agora(self) -> None:
        assert self.planilha is not None and self.previa is not None
        planilha, tipo, mapa = self.planilha, self.previa.tipo, dict(self.mapeamento)
        so_validas = self.so_validas.isChecked()
        banco, ator = self.contexto.banco, self.contexto.ator
        presumir, limpar = self.presumir_definitiva, self.limpar

        def trabalho(progresso: Progresso) -> ResultadoImportacao:
            return importar(
                banco.uow(),
                ator,
                tipo,
                planilha,
                somente_validas=so_validas,
                mapeamento=mapa,
                progresso=progresso,
                presumir_definitiva=presumir,
                limpar_vazias=limpar,
            )

        self._em_segundo_plano(
            trabalho, f"Importando {planilha.nome_arquivo}…", self._importado, cancelavel=True
        )

    def _importado(self, retorno: object) -> None:
        assert isinstance(retorno, ResultadoImportacao)
        self.resultado = retorno
        self._atualizar_botoes()
        self.resumo.setText(f"Importado: {retorno.mensagem}")
        if self.ao_importar is not None:
            self.ao_importar(retorno)
        if retorno.recusadas:
            mensagens.confirmar(
                self,
                TITULO,
                f"{retorno.mensagem}\nSalvar as linhas recusadas numa planilha, com o motivo na última coluna, "
                "para corrigir e importar de novo?",
                self.salvar_recusadas,
                texto_sim="Salvar…",
                texto_nao="Agora não",
            )
        else:
            mensagens.informar(self, TITULO, retorno.mensagem)

    def salvar_recusadas(self) -> None:
        p = self.previa
        if p is None or not p.recusadas:
            return
        recusadas = self.resultado.recusadas if self.resultado is not None else p.recusadas
        nome = f"{Path(p.arquivo).stem}-recusadas.xlsx"
        destino = arquivos.salvar_como(self, "Salvar linhas recusadas", nome, FILTRO_XLSX)
        if destino is None:
            return
        try:
            destino.write_bytes(planilhas.recusadas(p.cabecalhos, recusadas))
        except OSError as exc:
            mensagens.avisar_erro(self, TITULO, arquivos.texto_falha_gravacao(destino, exc))
            return
        mensagens.informar(
            self, TITULO, f"{formatar_decimal(len(recusadas), 0)} linhas recusadas gravadas em {destino}."
        )

    # -- background ------------------------------------------------------------------------------------

    def _em_segundo_plano(
        self,
        funcao: Callable[[Progresso], Any],
        texto: str,
        ao_concluir: Callable[[object], None],
        *,
        cancelavel: bool,
    ) -> None:
        self.botao_importar.setEnabled(False)
        self.botao_conferir.setEnabled(False)
        tarefa = Tarefa(funcao, self)
        tarefa.concluida.connect(ao_concluir)
        tarefa.falhou.connect(self._recusado)
        tarefa.cancelada.connect(self._cancelado)
        self.tarefa = tarefa
        tarefa.iniciar(dialogo_progresso(self, TITULO, texto, cancelavel=cancelavel))

    def _cancelado(self, mensagem: str) -> None:
        self.resumo.setText(mensagem or "Importação cancelada: nada foi gravado.")
        self._atualizar_botoes()


def abrir_importacao(
    contexto: Contexto,
    tipo: str,
    parent: QWidget,
    *,
    ao_importar: Callable[[ResultadoImportacao], None] | None = None,
) -> DialogoImportacao:
    """Open the dialog (non-blocking) and return it."""
    dialogo = DialogoImportacao(contexto, tipo, parent, ao_importar=ao_importar)
    dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialogo.open()
    return dialogo


def _minuscula(rotulo: str) -> str:
    """ "Fiscais da SMSU" → "fiscais da SMSU": only the first letter (an acronym stays, never "smsu")."""
    return rotulo[:1].lower() + rotulo[1:]
