"""Who is at the keyboard: the login dialog (with the demo logins shown on the demo database) and the
first-run dialog that creates the administrator of an empty real database."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from secretaria.db import Banco
from secretaria.services.base import ROTULOS_PAPEIS, Ator, ErroDominio
from secretaria.ui.widgets.formulario import DialogoFormulario, Formulario, botoes_salvar_cancelar
from secretaria.ui.widgets.janelas import crescer_para_caber
from secretaria.ui.widgets.letras import dar_letras

TITULO_PROGRAMA = "Secretaria"


def titulo_janela(banco: Banco, *, demo: bool, ator: Ator | None = None, tela: str | None = None) -> str:
    """ "Secretaria — demo.sqlite — Ana Administradora (admin) — DEMONSTRAÇÃO"."""
    partes = [TITULO_PROGRAMA, banco.nome_curto]
    if ator is not None:
        partes.append(f"{ator.nome} ({ator.login})")
    if tela:
        partes.append(tela)
    if demo:
        partes.append("DEMONSTRAÇÃO")
    return " — ".join(partes)


class DialogoLogin(QDialog):
    """User and password; a refusal (wrong password, locked account) appears in red under the password.
    On the demo database a list shows the demo logins: clicking one fills both fields. `motivo` (a session
    the administrator ended) is shown above the fields, and `login` fills the user field. `saindo`: "Trocar
    usuário" — the session still open, whose exit the login records before the new entry (`autenticar`).

    `ator` holds the authenticated user after `accepted`."""

    def __init__(
        self,
        banco: Banco,
        *,
        demo: bool,
        parent: QWidget | None = None,
        motivo: str | None = None,
        login: str = "",
        saindo: Ator | None = None,
    ) -> None:
        super().__init__(parent)
        self.banco = banco
        self.saindo = saindo
        self.ator: Ator | None = None
        self.dialogo_senha: DialogoMinhaSenha | None = None
        self.setWindowTitle(titulo_janela(banco, demo=demo, tela="Entrar"))
        self.setModal(True)
        layout = QVBoxLayout(self)
        cabecalho = QLabel(
            "<b>Secretaria Municipal de Serviços Urbanos</b><br>Fiscalização do transporte coletivo de Pelotas"
        )
        cabecalho.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(cabecalho)
        self.rotulo_motivo: QLabel | None = None
        if motivo:
            self.rotulo_motivo = QLabel(motivo)
            self.rotulo_motivo.setObjectName("motivo")
            self.rotulo_motivo.setTextFormat(Qt.TextFormat.PlainText)
            self.rotulo_motivo.setWordWrap(True)
            self.rotulo_motivo.setStyleSheet(
                "color: #8a1f11; background: #fdecea; border: 1px solid #e6b0aa; padding: 6px;"
            )
            layout.addWidget(self.rotulo_motivo)
        banco_rotulo = QLabel(f"Banco de dados: {banco.descricao_local}")
        banco_rotulo.setWordWrap(True)
        banco_rotulo.setStyleSheet("color: #555;")
        layout.addWidget(banco_rotulo)

        self.usuario = QLineEdit()
        self.usuario.setAccessibleName("Usuário")
        self.senha = QLineEdit()
        self.senha.setEchoMode(QLineEdit.EchoMode.Password)
        self.senha.setAccessibleName("Senha")
        self.form = Formulario(layout, self)
        self.form.adicionar("login", "&Usuário:", self.usuario)
        self.form.adicionar("senha", "&Senha:", self.senha)

        self.lista_demo: QListWidget | None = None
        if demo:
            self._mostrar_usuarios_demo(layout)

        self.botoes = botoes_salvar_cancelar(self, texto_salvar="Entrar")
        self.botoes.accepted.connect(self.entrar)
        layout.addStretch(1)  # spare height goes here: a message growing moves nothing above it
        layout.addWidget(self.botoes)
        self.usuario.setText(login)
        (self.senha if login else self.usuario).setFocus()
        self.setMinimumWidth(460)

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        dar_letras(self)  # every button reachable with Alt (the button box's Salvar, Cancelar)

    def _mostrar_usuarios_demo(self, layout: QVBoxLayout) -> None:
        from secretaria.demo.popular import SENHA_DEMO, USUARIOS_DEMO

        aviso = QLabel(
            f"<b>Banco de demonstração.</b> Usuários de exemplo, todos com a senha <b>{SENHA_DEMO}</b> "
            "(clique num deles para preencher):"
        )
        aviso.setWordWrap(True)
        layout.addWidget(aviso)
        lista = QListWidget()
        lista.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for login, nome, papeis in USUARIOS_DEMO:
            rotulos = ", ".join(ROTULOS_PAPEIS[p] for p in papeis)
            item = QListWidgetItem(f"{login} — {nome} ({rotulos})")
            item.setData(Qt.ItemDataRole.UserRole, login)
            lista.addItem(item)
        altura = lista.sizeHintForRow(0) * len(USUARIOS_DEMO) + 2 * lista.frameWidth() + 4
        lista.setFixedHeight(altura)
        lista.itemClicked.connect(
            lambda item: self.preencher(item.data(Qt.ItemDataRole.UserRole), SENHA_DEMO)
        )
        layout.addWidget(lista)
        self.lista_demo = lista

    def preencher(self, login: str, senha: str) -> None:
        self.usuario.setText(login)
        self.senha.setText(senha)
        self.senha.setFocus()

    def entrar(self) -> None:
        from secretaria.services.contas import autenticar

        login = self.usuario.text().strip()
        if not login:
            self.form.limpar_erros()
            self.form.mostrar_erro(ErroDominio("Informe o usuário.", "login"))
            return
        ator = self.form.tentar(
            lambda: autenticar(self.banco.uow(), login, self.senha.text(), saindo=self.saindo)
        )
        if ator is None:
            self.senha.selectAll()
            return
        if self._senha_provisoria(ator):
            self._exigir_troca(ator)
            return
        self.ator = ator
        self.accept()

    def _senha_provisoria(self, ator: Ator) -> bool:
        from secretaria.services.contas import precisa_trocar_senha

        with self.banco.leitura() as sessao:
            return precisa_trocar_senha(sessao, ator)

    def _exigir_troca(self, ator: Ator) -> None:
        """A temporary password (set by the administrator) lets in only as far as choosing one's own:
        saving enters, Cancelar ends the session just opened (its exit is recorded) and the login stays."""
        dialogo = DialogoMinhaSenha(
            self.banco, ator, obrigatoria=True, senha_atual=self.senha.text(), parent=self
        )
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def terminou(resultado: int) -> None:
            self.dialogo_senha = None
            if resultado == QDialog.DialogCode.Accepted:
                self.ator = ator
                self.accept()
                return
            from secretaria.services.contas import registrar_saida

            registrar_saida(self.banco.uow(), ator)
            self.senha.clear()
            self.form.limpar_erros()
            self.form.mostrar_erro(
                ErroDominio("Para entrar com a senha provisória é preciso escolher uma senha sua.", "senha")
            )

        dialogo.finished.connect(terminou)
        dialogo.open()
        self.dialogo_senha = dialogo


class DialogoMinhaSenha(QDialog):
    """ "Alterar minha senha": the current password, the new one twice; the service's rules and refusals
    beside the fields. Enter saves, Escape cancels. `obrigatoria` (a temporary password at login) says why
    it is asked and that Cancelar ends the session."""

    def __init__(
        self,
        banco: Banco,
        ator: Ator,
        *,
        obrigatoria: bool = False,
        senha_atual: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.banco = banco
        self.ator = ator
        self.setWindowTitle(f"Alterar a senha de {ator.login}")
        self.setModal(True)
        layout = QVBoxLayout(self)
        if obrigatoria:
            aviso = QLabel(
                f"<b>{ator.nome}</b>, o administrador definiu uma senha provisória para você. Escolha agora "
                "uma senha sua para entrar; <b>Cancelar</b> encerra a sessão."
            )
            aviso.setObjectName("aviso_provisoria")
            aviso.setTextFormat(Qt.TextFormat.RichText)
            aviso.setWordWrap(True)
            aviso.setStyleSheet(
                "color: #7c2d12; background: #fff7ed; border: 1px solid #fdba74; padding: 6px;"
            )
            layout.addWidget(aviso)
        self.senha_atual = QLineEdit(senha_atual)
        self.nova_senha = QLineEdit()
        self.repetir = QLineEdit()
        for campo, nome in (
            (self.senha_atual, "Senha atual"),
            (self.nova_senha, "Nova senha"),
            (self.repetir, "Repita a nova senha"),
        ):
            campo.setEchoMode(QLineEdit.EchoMode.Password)
            campo.setAccessibleName(nome)
        self.form = Formulario(layout, self)
        self.form.adicionar("senha_atual", "Senha &atual:", self.senha_atual)
        self.form.adicionar("nova_senha", "&Nova senha:", self.nova_senha)
        self.form.adicionar("repetir", "&Repita a nova senha:", self.repetir)
        self.form.alinhar_rotulos()
        from secretaria.services.contas import SENHA_MINIMA

        dica = QLabel(
            f"A nova senha deve ter pelo menos {SENHA_MINIMA} caracteres, com letras e números, e ser diferente "
            "da atual."
        )
        dica.setWordWrap(True)
        dica.setStyleSheet("color: #555;")
        layout.addWidget(dica)
        self.botoes = botoes_salvar_cancelar(self, texto_salvar="Alterar senha")
        self.botoes.accepted.connect(self.salvar)
        layout.addWidget(self.botoes)
        (self.nova_senha if senha_atual else self.senha_atual).setFocus()
        self.setMinimumWidth(480)

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        dar_letras(self)  # every button reachable with Alt (the button box's Salvar, Cancelar)

    def salvar(self) -> None:
        from secretaria.services.contas import alterar_propria_senha

        def executar() -> bool:
            if self.nova_senha.text() != self.repetir.text():
                raise ErroDominio("As senhas não conferem: digite a mesma nova senha duas vezes.", "repetir")
            alterar_propria_senha(
                self.banco.uow(),
                self.ator,
                senha_atual=self.senha_atual.text(),
                nova_senha=self.nova_senha.text(),
            )
            return True

        if self.form.tentar(executar):
            self.accept()
        else:
            crescer_para_caber(self)

    def erro(self, campo: str) -> str:
        return self.form.mensagem(campo)


class DialogoPrimeiroAcesso(DialogoFormulario):
    """First run on an empty real database: name, login and password of the administrator, who is created
    (as the system) and logged in. `ator` holds the new administrator after `accepted`. Leaving it with
    something typed asks "Descartar as alterações?" like every form (giving up closes the program)."""

    def __init__(self, banco: Banco, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.banco = banco
        self.ator: Ator | None = None
        self.setWindowTitle(titulo_janela(banco, demo=False, tela="Primeiro acesso"))
        layout = QVBoxLayout(self)
        texto = QLabel(
            "<b>Bem-vindo à Secretaria.</b><br>Este banco de dados ainda não tem usuários. "
            "Cadastre o administrador: ele poderá criar os demais usuários em Administração."
        )
        texto.setWordWrap(True)
        layout.addWidget(texto)
        self.nome = QLineEdit()
        self.login = QLineEdit()
        self.senha = QLineEdit()
        self.senha.setEchoMode(QLineEdit.EchoMode.Password)
        self.repetir = QLineEdit()
        self.repetir.setEchoMode(QLineEdit.EchoMode.Password)
        self.form = Formulario(layout, self)
        self.form.adicionar("nome", "&Nome completo:", self.nome)
        self.form.adicionar("login", "&Login:", self.login)
        self.form.adicionar("senha", "&Senha:", self.senha)
        self.form.adicionar("repetir", "&Repita a senha:", self.repetir)
        dica = QLabel("A senha deve ter pelo menos 8 caracteres, com letras e números.")
        dica.setStyleSheet("color: #555;")
        layout.addWidget(dica)
        self.botoes = botoes_salvar_cancelar(self, texto_salvar="Criar e entrar")
        self.botoes.accepted.connect(self.criar)
        layout.addWidget(self.botoes)
        self.setMinimumWidth(480)

    def criar(self) -> None:
        from secretaria.services.contas import autenticar, criar_primeiro_administrador

        def executar() -> Ator:
            if self.senha.text() != self.repetir.text():
                raise ErroDominio("As senhas não conferem.", "repetir")
            criar_primeiro_administrador(
                self.banco.uow(),
                login=self.login.text(),
                nome=self.nome.text(),
                senha=self.senha.text(),
                papeis=["administrador"],
            )
            return autenticar(self.banco.uow(), self.login.text(), self.senha.text())

        ator = self.form.tentar(executar)
        if ator is not None:
            self.ator = ator
            self.accept()


def precisa_primeiro_acesso(banco: Banco) -> bool:
    from secretaria.services.primeiro_acesso import existe_usuario

    return not existe_usuario(banco)
