"""The main window: side navigation (Ctrl+1…9), one page per area created on first visit, the menus and the
status bar naming the database, the user and their roles.

Pages come from other modules by name and are imported when first shown, so a page being written by
someone else (or a broken import there) never stops the window from opening; see `PAGINAS`.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from secretaria.db import Banco
from secretaria.services.auditoria import ENTIDADE_ACESSO, sessao_encerrada
from secretaria.services.base import ROTULOS_PAPEIS, Ator, SessaoEncerrada
from secretaria.ui.contexto import Contexto
from secretaria.ui.login import DialogoLogin, DialogoMinhaSenha, titulo_janela
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.formulario import DialogoFormulario
from secretaria.ui.widgets.janelas import tamanho_na_tela

if TYPE_CHECKING:  # imported when the first user has logged in: the login window opens without the models
    from secretaria.ui.vigia import VigiaMudancas


@dataclass(frozen=True)
class DefinicaoPagina:
    """One entry of the side navigation: the page class `classe` of module `modulo`, built as
    `classe(contexto, parent)`; `papeis` (if any) = who sees the entry."""

    chave: str
    rotulo: str
    modulo: str
    classe: str
    papeis: tuple[str, ...] = ()


PAGINAS: tuple[DefinicaoPagina, ...] = (
    DefinicaoPagina("inicio", "Início", "secretaria.ui.inicio", "PaginaInicio"),
    DefinicaoPagina("operadoras", "Operadoras", "secretaria.ui.cadastros.operadoras", "PaginaOperadoras"),
    DefinicaoPagina("veiculos", "Veículos", "secretaria.ui.cadastros.veiculos", "PaginaVeiculos"),
    DefinicaoPagina(
        "empregados", "Empregados e agentes", "secretaria.ui.cadastros.empregados", "PaginaEmpregados"
    ),
    DefinicaoPagina("fiscais", "Fiscais", "secretaria.ui.cadastros.fiscais", "PaginaFiscais"),
    DefinicaoPagina("autos", "Autos de infração", "secretaria.ui.processo.paginas", "PaginaAutos"),
    DefinicaoPagina(
        "representacoes", "Representações", "secretaria.ui.processo.paginas", "PaginaRepresentacoes"
    ),
    DefinicaoPagina("relatorios", "Relatórios", "secretaria.ui.relatorios", "PaginaRelatorios"),
    DefinicaoPagina("painel", "Painel", "secretaria.ui.painel", "PaginaPainel"),
    DefinicaoPagina(
        "administracao", "Administração", "secretaria.ui.admin", "PaginaAdministracao", ("administrador",)
    ),
)


PAPEIS_PAINEL_INICIAL = ("secretario", "autoridade")
"""Who starts on the Painel rather than on Início's work queues."""


class PaginaIndisponivel(QLabel):
    """Stands in for a page whose module is not installed yet (never in a finished program)."""

    def __init__(self, rotulo: str, parent: QWidget | None = None) -> None:
        super().__init__(f"A tela “{rotulo}” ainda não está disponível nesta versão do programa.", parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setStyleSheet("color: #666; font-size: 12pt;")


FabricaPagina = Callable[[Contexto, QWidget], QWidget]


def focar_pagina(pagina: QWidget) -> None:
    """Put the focus where work on `pagina` starts (its focus proxy: a list's search box, the home page's
    queue list; else its first focusable widget), so Ctrl+F, Ctrl+N and Ctrl+E act at once after Ctrl+1…9
    instead of reaching the side navigation, which has none of them."""
    if pagina.focusProxy() is None and pagina.focusPolicy() == Qt.FocusPolicy.NoFocus:
        alvo: QWidget | None = pagina.nextInFocusChain()  # the Tab order, as a user would reach it
        while alvo is not None and alvo is not pagina:
            if (
                pagina.isAncestorOf(alvo)
                and alvo.focusPolicy() & Qt.FocusPolicy.TabFocus
                and alvo.isVisibleTo(pagina)
                and alvo.isEnabled()
            ):
                break
            alvo = alvo.nextInFocusChain()
        if alvo is None or alvo is pagina:
            return
        pagina = alvo
    pagina.setFocus(Qt.FocusReason.ShortcutFocusReason)


def carregar_classe(definicao: DefinicaoPagina) -> FabricaPagina | None:
    """The page class, or None when its module does not exist yet. An import error INSIDE an existing
    module is a bug and propagates."""
    try:
        modulo = importlib.import_module(definicao.modulo)
    except ModuleNotFoundError as exc:
        if exc.name and definicao.modulo.startswith(exc.name):
            return None
        raise
    classe = getattr(modulo, definicao.classe, None)
    return classe if isinstance(classe, type) and issubclass(classe, QWidget) else None


class JanelaPrincipal(QMainWindow):
    """The program's window for one logged-in user (`contexto`). "Trocar usuário" rebuilds the pages for
    the new user in place.

    When any act of the session is refused because the administrator changed the account (`SessaoEncerrada`,
    announced by the database's units of work wherever the refusal itself was shown), the window closes
    what is open, hides its pages and asks for a login again, with the reason.

        janela = JanelaPrincipal(contexto)
        janela.mostrar_pagina("operadoras")   # what Ctrl+2 does
        janela.pagina_atual()                 # the page widget shown
    """

    sessao_encerrada = Signal(object)
    """A SessaoEncerrada raised by an act (from any thread); handled queued, after the act's own message."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.dialogo_login: DialogoLogin | None = None
        self.dialogo_senha: DialogoMinhaSenha | None = None
        self.aviso_encerrada: QLabel | None = None
        self._saida_registrada = False
        self._sair_mesmo_assim = False
        self.sessao_encerrada.connect(self.encerrar_sessao, Qt.ConnectionType.QueuedConnection)
        self._bancos_ouvidos: list[Banco] = []
        self.vigia: VigiaMudancas | None = None
        """Other PCs' acts, forwarded to the page on screen and the windows open over this one."""
        self.navegacao = QListWidget()
        self.navegacao.setObjectName("navegacao")
        self.navegacao.setAccessibleName("Navegação")
        self.navegacao.setFixedWidth(210)
        self.navegacao.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.pilha = QStackedWidget()
        central = QWidget()
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.navegacao)
        conteudo = QVBoxLayout()
        conteudo.setContentsMargins(8, 8, 8, 4)
        self.aviso_relogio = QLabel()
        """The administrator's warning at login: acts recorded with the PC clock set back (SQLite)."""
        self.aviso_relogio.setObjectName("aviso_relogio")
        self.aviso_relogio.setWordWrap(True)
        self.aviso_relogio.setTextFormat(Qt.TextFormat.PlainText)
        self.aviso_relogio.setStyleSheet(
            "color: #7c2d12; background: #fff7ed; border: 1px solid #fdba74; padding: 6px;"
        )
        self.aviso_relogio.hide()
        conteudo.addWidget(self.aviso_relogio)
        conteudo.addWidget(self.pilha)
        layout.addLayout(conteudo, 1)
        self.setCentralWidget(central)
        self._paginas: dict[str, QWidget] = {}
        self._definicoes: list[DefinicaoPagina] = []
        self.rotulo_banco = QLabel()
        self.rotulo_usuario = QLabel()
        self.rotulo_papeis = QLabel()
        for rotulo in (self.rotulo_banco, self.rotulo_usuario, self.rotulo_papeis):
            self.statusBar().addPermanentWidget(rotulo)
        self._criar_menus()
        self._atalhos: list[QShortcut] = []
        for n in range(1, 11):  # Ctrl+1 … Ctrl+9, then Ctrl+0 for the tenth entry
            atalho = QShortcut(QKeySequence(f"Ctrl+{n % 10}"), self)
            atalho.activated.connect(lambda n=n: self._ir_para_posicao(n - 1))
            self._atalhos.append(atalho)
        self.navegacao.currentRowChanged.connect(self._navegar)
        tamanho_na_tela(self, 1280, 800)
        self.definir_contexto(contexto)

    # -- user -------------------------------------------------------------------------------------
    def definir_contexto(self, contexto: Contexto) -> None:
        """Show the window for `contexto`'s user: title, status bar, the entries their roles allow."""
        self.contexto = contexto
        self._saida_registrada = False
        self._ouvir(contexto)
        self._vigiar(contexto.banco)
        self._remover_paginas()
        if self.aviso_encerrada is not None:
            self.pilha.removeWidget(self.aviso_encerrada)
            self.aviso_encerrada.deleteLater()
            self.aviso_encerrada = None
        self.navegacao.blockSignals(True)
        self.navegacao.clear()
        self._definicoes = [d for d in PAGINAS if not d.papeis or contexto.pode(*d.papeis)]
        for i, d in enumerate(self._definicoes, start=1):
            item = QListWidgetItem(d.rotulo)
            item.setData(Qt.ItemDataRole.UserRole, d.chave)
            item.setToolTip(f"Ctrl+{i % 10}" if i <= 10 else d.rotulo)
            self.navegacao.addItem(item)
        self.navegacao.blockSignals(False)
        ator = contexto.ator
        self.setWindowTitle(titulo_janela(contexto.banco, demo=contexto.demo, ator=ator))
        self.rotulo_banco.setText(
            f"Banco: {contexto.banco.nome_curto}" + (" (demonstração)" if contexto.demo else "")
        )
        self.rotulo_banco.setToolTip(contexto.banco.url_exibicao)
        self.rotulo_usuario.setText(f"Usuário: {ator.nome} ({ator.login})")
        papeis = ", ".join(ROTULOS_PAPEIS.get(p, p) for p in sorted(ator.papeis))
        self.rotulo_papeis.setText(f"Papéis: {papeis}")
        self.acao_backup.setEnabled(contexto.pode("administrador"))
        self.acao_minha_senha.setEnabled(contexto.ator.usuario_id is not None)
        self._avisar_relogio(contexto)
        # The Secretary's and the head of transport's (the authority who proposes penalties) home is the Painel.
        chaves = self.chaves_visiveis
        inicial = (
            chaves.index("painel") if contexto.pode(*PAPEIS_PAINEL_INICIAL) and "painel" in chaves else 0
        )
        self.navegacao.setCurrentRow(inicial)
        self._navegar(inicial)

    def _avisar_relogio(self, contexto: Contexto) -> None:
        """Shown to an administrator who enters: audit rows written since their previous login with a
        moment earlier than a row before them (a PC clock set back dates acts falsely)."""
        from secretaria.services.verificacao import relogio_atrasado_na_entrada

        with contexto.banco.leitura() as sessao:
            atrasos = relogio_atrasado_na_entrada(sessao, contexto.ator)
        self.aviso_relogio.setVisible(bool(atrasos))
        if not atrasos:
            self.aviso_relogio.clear()
            return
        quantos = "1 registro" if len(atrasos) == 1 else f"{len(atrasos)} registros"
        linhas = "\n".join(f"• {a}" for a in atrasos[:3]) + ("\n• …" if len(atrasos) > 3 else "")
        self.aviso_relogio.setText(
            f"Relógio atrasado: desde a sua última entrada, {quantos} de auditoria foram gravados com um "
            f"momento anterior ao de um registro de antes. Confira a data e a hora deste computador e dos atos "
            f"desse período (Administração › Auditoria).\n{linhas}"
        )

    def trocar_usuario(self) -> None:
        self._pedir_login()

    def encerrar_sessao(self, erro: SessaoEncerrada) -> None:
        """An act found the account changed under the session: close the windows and messages open over
        this one, hide the pages, record the exit and show the login with the reason. Giving up closes
        the program."""
        ator = self.contexto.ator
        if erro.usuario_id != ator.usuario_id or self._saida_registrada:
            return  # an earlier user's late refusal, or the session is already over
        self._registrar_saida(ator)
        self._fechar_janelas_abertas()
        self.navegacao.blockSignals(True)
        self.navegacao.clear()
        self.navegacao.blockSignals(False)
        self._remover_paginas()
        self.aviso_encerrada = QLabel(
            f"A sessão de {ator.nome} ({ator.login}) foi encerrada.\n\n{erro.mensagem}"
        )
        self.aviso_encerrada.setWordWrap(True)
        # At the top: the login opens over the middle of the window, and hid the reason when centred.
        self.aviso_encerrada.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.aviso_encerrada.setStyleSheet("color: #555; font-size: 12pt; padding: 40px;")
        self.pilha.addWidget(self.aviso_encerrada)
        self.pilha.setCurrentWidget(self.aviso_encerrada)
        self.rotulo_usuario.setText("Sessão encerrada")
        self.rotulo_papeis.clear()
        self.acao_backup.setEnabled(False)
        self.acao_minha_senha.setEnabled(False)
        self.setWindowTitle(titulo_janela(self.contexto.banco, demo=self.contexto.demo))
        self._pedir_login(motivo=erro.mensagem, login=ator.login, ao_desistir=self.close)

    def _pedir_login(
        self, *, motivo: str | None = None, login: str = "", ao_desistir: Callable[[], object] | None = None
    ) -> None:
        # "Trocar usuário": the login records the exit of the session still open, through its own account,
        # before the new entry (on a server whose accounts are roles, the server names the exit's author)
        saindo = None if self._saida_registrada else self.contexto.ator
        dialogo = DialogoLogin(
            self.contexto.banco,
            demo=self.contexto.demo,
            parent=self,
            motivo=motivo,
            login=login,
            saindo=saindo,
        )
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def terminou(resultado: int) -> None:
            novo = dialogo.ator
            if resultado == QDialog.DialogCode.Accepted and novo is not None:
                if not self._saida_registrada:
                    self._registrar_saida(self.contexto.ator, gravar=False)
                self.definir_contexto(Contexto(self.contexto.banco, novo, self.contexto.demo))
                self.statusBar().showMessage(f"Agora é {novo.nome} quem está usando o programa.", 5000)
            elif ao_desistir is not None:
                ao_desistir()

        dialogo.finished.connect(terminou)
        dialogo.open()
        self.dialogo_login = dialogo

    def _registrar_saida(self, ator: Ator, *, gravar: bool = True) -> None:
        """The session's exit in the audit, once; never holds up the window (short wait). `gravar=False`:
        the login that replaced the session recorded it already ("Trocar usuário")."""
        from secretaria.services.contas import registrar_saida
        from secretaria.ui.certificado import esquecer

        self._saida_registrada = True
        esquecer(ator.login)  # the certificate's password (or token session) lasts one session only
        if not gravar:
            return
        try:
            registrar_saida(self.contexto.banco.uow(), ator)
        except Exception:  # recording the exit must never keep a user from leaving
            import logging

            logging.getLogger(__name__).warning("Saída de %s não registrada", ator.login, exc_info=True)

    def _ouvir(self, contexto: Contexto) -> None:
        """Listen to the acts of `contexto`'s database for a session the administrator ended."""
        if contexto.banco.ao_encerrar_sessao.count(self._avisar_encerramento) == 0:
            contexto.banco.ao_encerrar_sessao.append(self._avisar_encerramento)
            self._bancos_ouvidos.append(contexto.banco)

    def _vigiar(self, banco: Banco) -> None:
        """Watch `banco` for other users' acts (before the pages load, so none is missed in between)."""
        from secretaria.ui.vigia import vigiar

        if self.vigia is not None and self.vigia.banco is banco:
            return
        if self.vigia is not None:
            self.vigia.fechar()
        self.vigia = vigiar(banco, self)
        if self.vigia is not None:
            self.vigia.mudou.connect(self.repassar_mudancas)

    def repassar_mudancas(self, mudancas: frozenset[Any]) -> None:
        """Another user's acts: the page on screen refreshes itself keeping what the user was doing (pages
        not on screen refresh when shown, see `_navegar`); so do the case windows open over this one. A
        form open on a changed record is never overwritten: it is told who changed it and when."""
        if self._saida_registrada:
            return
        if self._conta_encerrada(mudancas):
            return
        # Entries, exits and lockouts change only the accounts list (last access, "Bloqueado").
        registros = frozenset(m for m in mudancas if m.entidade != ENTIDADE_ACESSO)
        for alvo in [self.pagina_atual(), *self._janelas_abertas()]:
            suas = mudancas if getattr(alvo, "ouve_acessos", False) else registros
            if not suas:
                continue
            ao_mudar: Callable[[frozenset[Any]], object] | None = getattr(alvo, "ao_mudar", None)
            if callable(ao_mudar):
                ao_mudar(suas)
            # An editing dialog's notice ("alterado por … às hh:mm" with Recarregar, `DialogoFormulario`).
            avisar: Callable[[str], object] | None = getattr(alvo, "avisar_alteracao_externa", None)
            if callable(avisar):
                aviso = aviso_de_alteracao(alvo, suas)
                if aviso is not None:
                    avisar(aviso)

    def _conta_encerrada(self, mudancas: frozenset[Any]) -> bool:
        """Another PC changed this user's account (deactivated, roles taken away, locked by wrong passwords
        typed for this login): when the session no longer holds, go back to the login now, as the user's
        next act would (`encerrar_sessao`), so the window stops showing records the user may no longer read."""
        ator = self.contexto.ator
        if ator.usuario_id is None or not any(
            (m.entidade == "usuario" and m.entidade_id == str(ator.usuario_id))
            or (m.entidade == ENTIDADE_ACESSO and m.login == ator.login)
            for m in mudancas
        ):
            return False
        try:
            with self.contexto.banco.leitura() as sessao:
                erro = sessao_encerrada(sessao, ator)
        except Exception:  # a failed read leaves the session alone: the next act is still checked
            logging.getLogger(__name__).warning("Conta de %s não conferida", ator.login, exc_info=True)
            return False
        if erro is None:
            return False
        self.encerrar_sessao(erro)
        return True

    def _janelas_abertas(self) -> list[QWidget]:
        return [
            janela
            for janela in QApplication.topLevelWidgets()
            if janela is not self and janela.isVisible() and self._e_minha(janela)
        ]

    def _deixar_de_ouvir(self) -> None:
        for banco in self._bancos_ouvidos:
            while self._avisar_encerramento in banco.ao_encerrar_sessao:
                banco.ao_encerrar_sessao.remove(self._avisar_encerramento)
        self._bancos_ouvidos.clear()

    def _avisar_encerramento(self, erro: SessaoEncerrada) -> None:
        with contextlib.suppress(RuntimeError):  # the window is already gone
            self.sessao_encerrada.emit(erro)

    def _fechar_janelas_abertas(self) -> None:
        """Every dialog, message box and case window opened over this window (and the program's open
        message boxes), so nothing of the ended session stays on the screen or can still act."""
        mensagens.fechar_todas()
        for janela in QApplication.topLevelWidgets():
            if janela is self or not janela.isVisible() or not self._e_minha(janela):
                continue
            if isinstance(janela, DialogoFormulario):
                janela.descartar()  # the session is over: nothing typed can be saved, so nothing to ask
            elif isinstance(janela, QDialog):
                janela.reject()
            elif janela.windowType() in (Qt.WindowType.Window, Qt.WindowType.Dialog):
                janela.close()

    def _e_minha(self, janela: QWidget) -> bool:
        pai = janela.parentWidget()
        while pai is not None:
            if pai is self:
                return True
            pai = pai.parentWidget()
        return False

    def _remover_paginas(self) -> None:
        for pagina in self._paginas.values():
            self.pilha.removeWidget(pagina)
            pagina.deleteLater()
        self._paginas.clear()

    # -- pages ------------------------------------------------------------------------------------
    @property
    def chaves_visiveis(self) -> list[str]:
        return [d.chave for d in self._definicoes]

    def mostrar_pagina(self, chave: str) -> QWidget | None:
        if chave not in self.chaves_visiveis:
            return None
        self.navegacao.setCurrentRow(self.chaves_visiveis.index(chave))
        return self.pagina_atual()

    def mostrar_da_operadora(self, lista: str, operadora_id: int) -> QWidget | None:
        """Switch to the list `lista` ("veiculos", "linhas", "empregados", "autos") showing only the rows of
        one operator (the links of an operator's record); None when this user has no such page."""
        chave = "operadoras" if lista == "linhas" else lista
        pagina = self.mostrar_pagina(chave)
        if pagina is None:
            return None
        if lista == "linhas":
            abas = getattr(pagina, "abas", None)
            pagina = getattr(pagina, "linhas", None)
            if abas is None or pagina is None:
                return None
            abas.setCurrentWidget(pagina)
        mostrar: Callable[[int], object] | None = getattr(pagina, "mostrar_somente_operadora", None)
        if not callable(mostrar):
            return None
        mostrar(operadora_id)
        pagina.setFocus(Qt.FocusReason.OtherFocusReason)
        return pagina

    def pagina_atual(self) -> QWidget | None:
        return self.pilha.currentWidget()

    def pagina(self, chave: str) -> QWidget | None:
        """The page already built for `chave` (None if never shown)."""
        return self._paginas.get(chave)

    def _ir_para_posicao(self, posicao: int) -> None:
        if 0 <= posicao < self.navegacao.count():
            self.navegacao.setCurrentRow(posicao)
            pagina = self.pagina_atual()
            if pagina is not None:
                focar_pagina(pagina)

    def _navegar(self, linha: int) -> None:
        if not 0 <= linha < len(self._definicoes):
            return
        definicao = self._definicoes[linha]
        pagina = self._paginas.get(definicao.chave)
        if pagina is None:
            pagina = self._criar_pagina(definicao)
            self._paginas[definicao.chave] = pagina
            self.pilha.addWidget(pagina)
        else:
            recarregar: Callable[[], object] | None = getattr(pagina, "recarregar", None)
            if callable(recarregar):
                recarregar()
        self.pilha.setCurrentWidget(pagina)

    def _criar_pagina(self, definicao: DefinicaoPagina) -> QWidget:
        classe = carregar_classe(definicao)
        if classe is None:
            return PaginaIndisponivel(definicao.rotulo)
        return classe(self.contexto, self)

    # -- menus ------------------------------------------------------------------------------------
    def _criar_menus(self) -> None:
        arquivo = self.menuBar().addMenu("&Arquivo")
        self.acao_trocar = QAction("&Trocar usuário…", self)
        self.acao_trocar.setShortcut(QKeySequence("Ctrl+Shift+U"))
        self.acao_trocar.triggered.connect(self.trocar_usuario)
        arquivo.addAction(self.acao_trocar)
        self.acao_minha_senha = QAction("&Alterar minha senha…", self)
        self.acao_minha_senha.triggered.connect(self.alterar_minha_senha)
        arquivo.addAction(self.acao_minha_senha)
        self.acao_backup = QAction("&Cópia de segurança…", self)
        self.acao_backup.triggered.connect(self.copia_de_seguranca)
        arquivo.addAction(self.acao_backup)
        arquivo.addSeparator()
        self.acao_sair = QAction("&Sair", self)
        self.acao_sair.setShortcut(QKeySequence("Ctrl+Q"))
        self.acao_sair.triggered.connect(self.close)
        arquivo.addAction(self.acao_sair)
        ajuda = self.menuBar().addMenu("A&juda")
        self._criar_menu_ajuda(ajuda)
        self.acao_sobre = QAction("&Sobre a Secretaria…", self)
        self.acao_sobre.triggered.connect(self.sobre)
        ajuda.addAction(self.acao_sobre)

    def alterar_minha_senha(self) -> DialogoMinhaSenha:
        """The logged-in user changes their own password (any role)."""
        dialogo = DialogoMinhaSenha(self.contexto.banco, self.contexto.ator, parent=self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.accepted.connect(lambda: self.statusBar().showMessage("Sua senha foi alterada.", 5000))
        dialogo.open()
        self.dialogo_senha = dialogo
        return dialogo

    def _criar_menu_ajuda(self, menu: QMenu) -> None:
        """Ajuda → Manual (F1 opens the section of the screen in use) and Primeiros passos."""
        from secretaria.services.manual import INICIO, PRIMEIROS_PASSOS
        from secretaria.ui.ajuda import abrir_ajuda
        from secretaria.ui.tecla_f1 import instalar_f1

        instalar_f1()
        # "\tF1" shows the key in the menu; F1 itself is ui.tecla_f1's filter (it opens the section in use).
        self.acao_manual = QAction("&Manual…\tF1", self)
        self.acao_manual.setToolTip("F1 abre o manual na seção da tela em uso")
        self.acao_manual.triggered.connect(lambda: abrir_ajuda(INICIO))
        menu.addAction(self.acao_manual)
        self.acao_primeiros_passos = QAction("&Primeiros passos…", self)
        self.acao_primeiros_passos.triggered.connect(lambda: abrir_ajuda(PRIMEIROS_PASSOS))
        menu.addAction(self.acao_primeiros_passos)
        menu.addSeparator()

    def copia_de_seguranca(self) -> None:
        fazer_copia_de_seguranca(self, self.contexto)

    def sobre(self) -> QMessageBox:
        from secretaria.distribuicao import INDICE_LICENCAS, pasta_licencas, versao

        licencas = pasta_licencas()
        if licencas is not None:
            onde = f"As licenças das bibliotecas incluídas estão em:\n{licencas / INDICE_LICENCAS}"
        else:
            onde = (
                "As licenças das bibliotecas usadas acompanham cada uma delas na instalação do Python; a "
                "versão instalada nos computadores do órgão (make dist) as reúne na pasta licencas, ao lado "
                "do programa."
            )
        return mensagens.informar(
            self,
            "Sobre a Secretaria",
            f"Secretaria {versao()}\n\n"
            "Fiscalização do transporte coletivo de Pelotas — Lei Municipal nº 2.413/1978.\n"
            "Secretaria Municipal de Serviços Urbanos (SMSU).\n\n"
            f"Banco de dados: {self.contexto.banco.descricao_local}\n\n{onde}",
        )

    def closeEvent(self, evento: QCloseEvent) -> None:
        from secretaria.ui.widgets.tarefas import trabalho_em_andamento

        em_andamento = trabalho_em_andamento()
        if em_andamento and not self._sair_mesmo_assim:
            evento.ignore()  # asked first; "Sair" closes again
            mensagens.confirmar(
                self,
                "Sair do programa",
                "Ainda está em andamento: " + "; ".join(em_andamento) + ".\n\nSe sair agora, o trabalho que "
                "pode ser cancelado será cancelado, sem nada dele gravado; o que não pode parar no meio (uma "
                "restauração) termina antes de o programa fechar.",
                self._sair_assim_mesmo,
                texto_sim="Sair",
                texto_nao="Continuar",
            )
            return
        if not self._saida_registrada:
            self._registrar_saida(self.contexto.ator)
        self._deixar_de_ouvir()
        if self.vigia is not None:
            self.vigia.fechar()
            self.vigia = None
        evento.accept()

    def _sair_assim_mesmo(self) -> None:
        self._sair_mesmo_assim = True
        self.close()


def aviso_de_alteracao(janela: object, mudancas: frozenset[Any]) -> str | None:
    """What a form open on a record says when another user changed that record ("Este registro foi
    alterado por maria às 10:42."), or None when none of `mudancas` is its record. The form names its
    record with `entidade` (the audit's entity) and `registro_id`."""
    entidade = getattr(janela, "entidade", None)
    registro_id = getattr(janela, "registro_id", None)
    if not entidade or registro_id is None:
        return None
    minhas = [m for m in mudancas if m.entidade == entidade and m.entidade_id == str(registro_id)]
    if not minhas:
        return None
    ultima = max(minhas, key=lambda m: (m.momento is not None, m.momento))
    quem = f" por {ultima.login}" if ultima.login else " por outro usuário"
    quando = f" às {ultima.momento:%H:%M}" if ultima.momento is not None else ""
    return f"Este registro foi alterado{quem}{quando}."


def fazer_copia_de_seguranca(parent: QWidget, contexto: Contexto) -> None:
    """SQLite: ask for the destination and copy (checked). PostgreSQL: show the pg_dump command to run."""
    from secretaria import relogio

    nome = f"secretaria-{relogio.agora():%Y-%m-%d-%H%M}"
    if not contexto.banco.eh_sqlite:
        from secretaria.services.backup import comando_pg_dump, destino_sugerido

        comando = comando_pg_dump(contexto.banco.url, Path(destino_sugerido(contexto.banco.url).name))
        mensagens.informar(
            parent,
            "Cópia de segurança",
            "O banco está num servidor PostgreSQL: a cópia é feita no servidor com o pg_dump.\n\n"
            f"Execute (o comando também pode ser copiado daqui):\n\n{comando}",
        )
        return
    while True:
        destino = arquivos.salvar_como(
            parent,
            "Cópia de segurança",
            f"{nome}.sqlite",
            "Banco de dados SQLite (*.sqlite)",
            substituir=False,
        )
        if destino is None:
            return
        if not destino.exists():
            break
        mensagens.avisar_erro(
            parent,
            "Cópia de segurança",
            f"Já existe um arquivo {destino.name} nessa pasta, e uma cópia de segurança nunca substitui outro "
            "arquivo. Escolha outro nome.",
        )
        nome = destino.stem + "-2"
    from secretaria.services.backup import fazer_backup
    from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

    url, arquivo = contexto.banco.url, destino

    def copiar(progresso: Progresso) -> str:
        return fazer_backup(url, arquivo, progresso)

    em_segundo_plano(
        parent,
        copiar,
        titulo="Cópia de segurança",
        texto="Copiando o banco de dados…",
        ao_concluir=lambda mensagem: _copia_feita(parent, str(mensagem)),
        chave=("copia_de_seguranca",),
    )


def _copia_feita(parent: QWidget, mensagem: str) -> None:
    mensagens.informar(parent, "Cópia de segurança", mensagem)
