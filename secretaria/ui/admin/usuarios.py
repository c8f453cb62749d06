"""Users and roles: the list of accounts and the account dialog (roles, password reset, unlock, activate)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from secretaria.services import contas
from secretaria.services.base import ROTULOS_PAPEIS, ErroDominio
from secretaria.ui.admin.comum import DialogoSimples, rotulo_ajuda
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.letras import dar_letras

DESCRICOES_PAPEIS = {
    "administrador": "cadastros, usuários, URM, calendário, catálogo, cópias",
    "fiscal": "lavra autos, recebe representações",
    "protocolo": "intimações, defesas, recursos, pagamentos",
    "autoridade": "propõe a penalidade (art. 13)",
    "secretario": "decide: aplica ou arquiva",
    "consulta": "apenas consulta e imprime",
}

LETRAS_PAPEIS = {
    "administrador": "a",
    "fiscal": "f",
    "protocolo": "t",
    "autoridade": "d",
    "secretario": "e",
    "consulta": "u",
}
"""Each role's Alt letter in the account dialog, chosen so that Login, Nome, Papéis, Senha, Repita, the
account's buttons and Salvar and Cancelar keep theirs."""


def _com_letra_do_papel(papel: str, rotulo: str) -> str:
    letra = LETRAS_PAPEIS.get(papel)
    posicao = rotulo.lower().find(letra) if letra else -1
    return rotulo if posicao < 0 else f"{rotulo[:posicao]}&{rotulo[posicao:]}"


class CaixaPapeis(QWidget):
    """One check box per role, with what each role may do."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grade = QGridLayout(self)
        grade.setContentsMargins(0, 0, 0, 0)
        self.caixas: dict[str, QCheckBox] = {}
        for i, (papel, rotulo) in enumerate(ROTULOS_PAPEIS.items()):
            caixa = QCheckBox(_com_letra_do_papel(papel, rotulo))
            caixa.setToolTip(DESCRICOES_PAPEIS.get(papel, ""))
            descricao = QLabel(DESCRICOES_PAPEIS.get(papel, ""))
            descricao.setStyleSheet("color: #666;")
            grade.addWidget(caixa, i, 0)
            grade.addWidget(descricao, i, 1)
            self.caixas[papel] = caixa
        self.setFocusProxy(next(iter(self.caixas.values())))

    def papeis(self) -> list[str]:
        return [p for p, c in self.caixas.items() if c.isChecked()]

    def definir(self, papeis: frozenset[str]) -> None:
        for papel, caixa in self.caixas.items():
            caixa.setChecked(papel in papeis)


class DialogoUsuario(DialogoSimples):
    """New account (login, name, roles, initial password) or an existing one (name and roles; reset the
    password, unlock, deactivate/reactivate — each acting at once, with confirmation where it matters)."""

    def __init__(
        self, contexto: Contexto, usuario_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__("Novo usuário" if usuario_id is None else "Usuário", parent)
        self.contexto = contexto
        self.usuario_id = usuario_id
        self.versao = 0
        self.login = QLineEdit()
        self.nome = QLineEdit()
        self.papeis = CaixaPapeis()
        self.senha = QLineEdit()
        self.senha.setEchoMode(QLineEdit.EchoMode.Password)
        self.repetir = QLineEdit()
        self.repetir.setEchoMode(QLineEdit.EchoMode.Password)
        self.situacao = QLabel()
        f = self.form
        f.adicionar("login", "&Login:", self.login)
        f.adicionar("nome", "&Nome completo:", self.nome)
        f.adicionar("papeis", "&Papéis:", self.papeis, foco=self.papeis)
        self.botao_senha: QPushButton | None = None
        self.botao_desbloquear: QPushButton | None = None
        self.botao_ativo: QPushButton | None = None
        if usuario_id is None:
            f.adicionar("senha", "&Senha inicial:", self.senha)
            f.adicionar("repetir", "&Repita a senha:", self.repetir)
            self.layout_principal.addWidget(
                rotulo_ajuda(
                    "A senha deve ter pelo menos 8 caracteres, com letras e números. Informe-a ao usuário "
                    "pessoalmente: no primeiro acesso ele escolhe uma senha sua antes de qualquer outra coisa, "
                    "e esta deixa de valer."
                )
            )
        else:
            f.adicionar("ativo", "Situação:", self.situacao)
            acoes = QHBoxLayout()
            self.botao_senha = QPushButton("Redefinir senha…")
            self.botao_desbloquear = QPushButton("Desbloquear")
            self.botao_ativo = QPushButton("Desativar conta")
            for b in (self.botao_senha, self.botao_desbloquear, self.botao_ativo):
                b.setAutoDefault(False)
                acoes.addWidget(b)
            acoes.addStretch(1)
            self.layout_principal.addLayout(acoes)
            self.botao_senha.clicked.connect(self.redefinir_senha)
            self.botao_desbloquear.clicked.connect(self.desbloquear)
            self.botao_ativo.clicked.connect(self.alternar_ativo)
            self.login.setReadOnly(True)
            self.carregar()
        self.setMinimumWidth(720)
        self.finalizar()
        if usuario_id is not None:
            self.nome.setFocus()

    def carregar(self) -> None:
        with self.contexto.banco.leitura() as sessao:
            u = contas.obter_usuario(sessao, self.usuario_id or 0)
        self.setWindowTitle(f"Usuário {u.login} — {u.nome}")
        self.versao = u.versao
        self.login.setText(u.login)
        self.nome.setText(u.nome)
        self.papeis.definir(u.papeis)
        bloqueado = u.bloqueado()
        if not u.ativo:
            texto, cor = "Desativado (não consegue entrar)", "#b3261e"
        elif bloqueado and u.bloqueado_ate is not None:
            texto, cor = f"Bloqueado até {u.bloqueado_ate:%H:%M} por senhas erradas", "#b3261e"
        else:
            texto, cor = "Ativo", "#1b6e20"
        if u.ultimo_acesso is not None:
            texto += f" — último acesso em {u.ultimo_acesso:%d/%m/%Y às %H:%M}"
        if u.trocar_senha and u.ativo:
            # Its own line: on one line with the last access it was cut at the dialog's edge.
            texto += "\nSenha provisória: troca exigida no próximo acesso"
        self.situacao.setText(texto)
        self.situacao.setStyleSheet(f"color: {cor};")
        if self.botao_desbloquear is not None and self.botao_ativo is not None:
            self.botao_desbloquear.setEnabled(bloqueado)
            self.botao_ativo.setText("Desativar conta" if u.ativo else "Reativar conta")
            dar_letras(self, [self.botao_ativo])  # a reload after the dialog was shown keeps its Alt letter
        self._ativo = u.ativo

    def recarregar_registro(self) -> None:
        self.carregar()

    def pode_recarregar(self) -> bool:
        return self.usuario_id is not None

    def gravar(self) -> Any:
        ator = self.contexto.ator
        if self.usuario_id is None:
            if self.senha.text() != self.repetir.text():
                raise ErroDominio("As senhas não conferem.", "repetir")
            return contas.criar_usuario(
                self.contexto.banco.uow(),
                ator,
                login=self.login.text(),
                nome=self.nome.text(),
                senha=self.senha.text(),
                papeis=self.papeis.papeis(),
                temporaria=True,  # the user's own password replaces it at the first login
            )
        contas.editar_usuario(
            self.contexto.banco.uow(),
            ator,
            self.usuario_id,
            nome=self.nome.text(),
            papeis=self.papeis.papeis(),
            versao=self.versao,
        )
        return self.usuario_id

    # -- immediate acts on an existing account ----------------------------------------------------
    def _agir(self, acao: Any, mensagem: str) -> None:
        def feito(_resultado: object) -> None:
            self.carregar()
            self.marcar_como_carregado()
            self.salvo.emit(self.usuario_id)
            mensagens.informar(self, "Usuário", mensagem)

        self.form.gravar(self, acao, feito, titulo="Usuário")

    def redefinir_senha(self) -> None:
        dialogo = DialogoNovaSenha(self.contexto, self.usuario_id or 0, self.login.text(), self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.salvo.connect(lambda _r: self.carregar())
        dialogo.open()
        self.dialogo_senha = dialogo

    def desbloquear(self) -> None:
        self._agir(
            lambda: contas.desbloquear_usuario(
                self.contexto.banco.uow(), self.contexto.ator, self.usuario_id or 0
            ),
            f"A conta {self.login.text()} foi desbloqueada.",
        )

    def alternar_ativo(self) -> None:
        ativar = not self._ativo
        login = self.login.text()

        def executar() -> None:
            self._agir(
                lambda: contas.definir_ativo(
                    self.contexto.banco.uow(), self.contexto.ator, self.usuario_id or 0, ativo=ativar
                ),
                f"A conta {login} foi {'reativada' if ativar else 'desativada'}.",
            )

        if ativar:
            executar()
            return
        mensagens.confirmar(
            self,
            "Desativar conta",
            f"Desativar a conta {login}? O usuário não conseguirá mais entrar; o que ele fez continua "
            "registrado e a conta pode ser reativada depois.",
            executar,
            texto_sim="Desativar",
            texto_nao="Cancelar",
        )


class DialogoNovaSenha(DialogoSimples):
    """The administrator sets a new password for a user who forgot theirs (also lifts a lockout)."""

    def __init__(
        self, contexto: Contexto, usuario_id: int, login: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(f"Redefinir a senha de {login}", parent, texto_salvar="Redefinir")
        self.contexto = contexto
        self.usuario_id = usuario_id
        self.senha = QLineEdit()
        self.senha.setEchoMode(QLineEdit.EchoMode.Password)
        self.repetir = QLineEdit()
        self.repetir.setEchoMode(QLineEdit.EchoMode.Password)
        self.form.adicionar("nova_senha", "&Nova senha:", self.senha)
        self.form.apelido("senha", "nova_senha")
        self.form.adicionar("repetir", "&Repita a senha:", self.repetir)
        self.temporaria = QCheckBox("&Exigir troca no próximo acesso")
        self.temporaria.setChecked(True)
        self.form.adicionar("temporaria", "", self.temporaria)
        self.layout_principal.addWidget(
            rotulo_ajuda(
                "Informe a nova senha ao usuário pessoalmente. Com a troca exigida, ao entrar ele escolhe uma "
                "senha sua antes de qualquer outra coisa, e a senha que você definiu deixa de valer."
            )
        )
        self.setMinimumWidth(480)
        self.finalizar()

    def gravar(self) -> Any:
        if self.senha.text() != self.repetir.text():
            raise ErroDominio("As senhas não conferem.", "repetir")
        contas.redefinir_senha(
            self.contexto.banco.uow(),
            self.contexto.ator,
            self.usuario_id,
            nova_senha=self.senha.text(),
            temporaria=self.temporaria.isChecked(),
        )
        return self.usuario_id


class PaginaUsuarios(PaginaListaServico):
    """The accounts list (red: locked; grey: deactivated); "Novo usuário" and double click open the dialog."""

    ouve_acessos = True
    """Other PCs' logins and lockouts refresh it (last access, "Bloqueado"), not only changes of accounts."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            contexto,
            "usuarios",
            texto_novo="Novo usuário",
            pode_criar=contexto.pode("administrador"),
            texto_busca="Login ou nome",
            singular="usuário",
            plural="usuários",
            parent=parent,
        )
        self.dialogo: DialogoUsuario | None = None
        self.abrirRegistro.connect(self.abrir)
        self.novoRegistro.connect(lambda: self.abrir(None))

    def abrir(self, usuario_id: int | None) -> DialogoUsuario:
        dialogo = DialogoUsuario(self.contexto, usuario_id, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.salvo.connect(lambda id_: self.recarregar(selecionar=id_))
        dialogo.open()
        self.dialogo = dialogo
        return dialogo
