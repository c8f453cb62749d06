"""Administration (administrators only): users and roles, URM table, days without office hours, catalogue
of provisions, letterhead data, backups and settings, audit log. Every act is checked again by the services."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from secretaria.ui.contexto import Contexto


class PaginaAdministracao(QWidget):
    """The "Administração" area: one tab per subject, each built on first visit."""

    ABAS = (
        ("usuarios", "&Usuários"),
        ("urm", "Tabela da U&RM"),
        ("calendario", "&Dias sem expediente"),
        ("catalogo", "&Catálogo"),
        ("orgao", "Dados do ór&gão"),
        ("sistema", "Cópias e c&onfigurações"),
        ("assinatura", "Assina&tura digital"),
        ("importacao", "Im&portação"),
        ("auditoria", "Aud&itoria"),
    )

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.abas = QTabWidget()
        self._paginas: dict[str, QWidget] = {}
        for _chave, rotulo in self.ABAS:
            espaco = QWidget()
            QVBoxLayout(espaco).setContentsMargins(6, 6, 6, 6)
            self.abas.addTab(espaco, rotulo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.abas)
        self.abas.currentChanged.connect(self._mostrar)
        self._mostrar(0)

    def aba(self, chave: str) -> QWidget:
        """Show the tab `chave` and return its panel (built if needed)."""
        indice = [c for c, _r in self.ABAS].index(chave)
        self.abas.setCurrentIndex(indice)
        self._mostrar(indice)
        return self._paginas[chave]

    def _mostrar(self, indice: int) -> None:
        chave = self.ABAS[indice][0]
        if chave in self._paginas:
            return
        pagina = self._criar(chave)
        self._paginas[chave] = pagina
        espaco = self.abas.widget(indice)
        layout = espaco.layout() if espaco is not None else None
        assert layout is not None
        layout.addWidget(pagina)

    def _criar(self, chave: str) -> QWidget:
        from secretaria.ui.admin import (
            assinatura,
            auditoria,
            catalogo,
            importacao,
            sistema,
            tabelas,
            usuarios,
        )

        fabricas = {
            "usuarios": usuarios.PaginaUsuarios,
            "urm": tabelas.PainelUrm,
            "calendario": tabelas.PainelCalendario,
            "catalogo": catalogo.PainelCatalogo,
            "orgao": sistema.PainelOrgao,
            "sistema": sistema.PainelSistema,
            "assinatura": assinatura.PainelAssinatura,
            "importacao": importacao.PainelImportacao,
            "auditoria": auditoria.PaginaAuditoria,
        }
        return fabricas[chave](self.contexto)

    def recarregar(self) -> None:
        pagina = self._paginas.get(self.ABAS[self.abas.currentIndex()][0])
        recarregar = getattr(pagina, "recarregar", None)
        if callable(recarregar):
            recarregar()

    @property
    def ouve_acessos(self) -> bool:
        """Whether the tab on screen listens to logins and lockouts too (the users' list)."""
        pagina = self._paginas.get(self.ABAS[self.abas.currentIndex()][0])
        return bool(getattr(pagina, "ouve_acessos", False))

    def ao_mudar(self, mudancas: frozenset[Any]) -> None:
        """Other users' acts (forwarded by the main window): the tab on screen refreshes if it knows how (the
        users' list keeps its selection and search)."""
        pagina = self._paginas.get(self.ABAS[self.abas.currentIndex()][0])
        ao_mudar = getattr(pagina, "ao_mudar", None)
        if callable(ao_mudar):
            ao_mudar(mudancas)
