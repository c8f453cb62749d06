"""Who is at the keyboard: the login dialog (with the demo logins shown on the demo database) and the
first-run dialog that creates the administrator of an empty real database."""

from __future__ import annotations

from PySide6.QtCore import Qt
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
from secretaria.services.base import ROTULOS_PAPEIS, SISTEMA, Ator, ErroDominio
from secretaria.ui.widgets.formulario import Formulario, botoes_salvar_cancelar

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
    the administrator ended) is shown above the fields, and `login` fills the user field.

    `ator` holds the authenticated user after `accepted`."""

    def __init__(
        self,
        banco: Banco,
        *,
        demo: bool,
        parent: QWidget | None = None,
        motivo: str | None = None,
        login: str = "",
    ) -> None:
        super().__init__(parent)
        self.banco = banco
        self.ator: Ator | None = None
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
        banco_rotulo = QLabel(f"Banco de dados: {banco.url_exibicao}")
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
        layout.addWidget(self.botoes)
        self.usuario.setText(login)
        (self.senha if login else self.usuario).setFocus()
        self.setMinimumWidth(460)

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
        ator = self.form.tentar(lambda: autenticar(self.banco.uow(), login, self.senha.text()))
        if ator is None:
            self.senha.selectAll()
            return
        self.ator = ator
        self.accept()


class DialogoPrimeiroAcesso(QDialog):
    """First run on an empty real database: name, login and password of the administrator, who is created
    (as the system) and logged in. `ator` holds the new administrator after `accepted`."""

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
        from secretaria.services.contas import autenticar, criar_usuario

        def executar() -> Ator:
            if self.senha.text() != self.repetir.text():
                raise ErroDominio("As senhas não conferem.", "repetir")
            criar_usuario(
                self.banco.uow(),
                SISTEMA,
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
    from secretaria.services.contas import existe_usuario

    return not existe_usuario(banco.uow(somente_leitura=True))
