"""Administração → Importação: the office's past brought in — the history of autos from the paper
books and the registries, each through the import dialog (preview before anything is written)."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QGroupBox, QPushButton, QVBoxLayout, QWidget

from secretaria.ui.admin.comum import rotulo_ajuda
from secretaria.ui.contexto import Contexto
from secretaria.ui.importacao import DialogoImportacao, abrir_importacao

_BOTOES = (
    ("autos", "Histórico de &autos…"),
    ("operadoras", "&Operadoras…"),
    ("linhas", "&Linhas…"),
    ("veiculos", "&Veículos…"),
    ("empregados", "&Empregados e agentes…"),
    ("fiscais", "&Fiscais da SMSU…"),
)


class PainelImportacao(QWidget):
    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.dialogo: DialogoImportacao | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        grupo = QGroupBox("Importar planilhas")
        lg = QVBoxLayout(grupo)
        lg.addWidget(
            rotulo_ajuda(
                "Traga os cadastros das planilhas das operadoras e o histórico dos livros de autos, para que a "
                "reincidência esteja certa desde o primeiro dia. Importe nesta ordem: fiscais e operadoras, "
                "depois linhas, veículos e empregados, e por fim o histórico de autos. Cada arquivo é conferido "
                "linha por linha e nada é gravado antes da sua confirmação; importar de novo o mesmo arquivo não "
                "duplica nada. “Baixar modelo…”, dentro de cada importação, grava a planilha-modelo."
            )
        )
        grade = QGridLayout()
        self.botoes: dict[str, QPushButton] = {}
        for i, (tipo, rotulo) in enumerate(_BOTOES):
            botao = QPushButton(rotulo)
            botao.clicked.connect(lambda _c=False, t=tipo: self.abrir(t))
            botao.setEnabled(contexto.pode("administrador"))
            grade.addWidget(botao, i // 3, i % 3)
            self.botoes[tipo] = botao
        lg.addLayout(grade)
        layout.addWidget(grupo)
        layout.addStretch(1)

    def abrir(self, tipo: str) -> DialogoImportacao:
        self.dialogo = abrir_importacao(self.contexto, tipo, self)
        return self.dialogo
