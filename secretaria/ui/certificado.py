"""The user's signing certificate on this PC.

The A1 file (.pfx/.p12) is chosen once per user on their own PC: its path is kept in a small file in the
user's configuration folder (platformdirs), never in the database, which every PC shares. Its password is
asked at the first signature of the session and the loaded certificate kept in memory only, until the
program closes or the user leaves (`esquecer`).

`certificado_para_emitir` is what the document actions call before issuing: it answers the certificate when
this user signs this kind of document and has one on this PC, None when the document is issued unsigned,
and raises `ErroDominio` (nothing issued) for a wrong password or a cancelled question.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from secretaria.services.base import ErroDominio

if TYPE_CHECKING:
    from secretaria.services.assinatura import Certificado
    from secretaria.ui.contexto import Contexto

_SESSAO: dict[str, Certificado] = {}


def arquivo_preferencias() -> Path:
    """This PC's, this OS user's file of certificate paths (one per program login)."""
    from platformdirs import user_config_path

    return user_config_path("secretaria", appauthor=False) / "certificados.json"


def _preferencias() -> dict[str, str]:
    try:
        dados = json.loads(arquivo_preferencias().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in dados.items()} if isinstance(dados, dict) else {}


def caminho_certificado(login: str) -> Path | None:
    caminho = _preferencias().get(login)
    return Path(caminho) if caminho else None


def guardar_caminho(login: str, caminho: Path | None) -> None:
    """Remember (or forget, with None) the user's A1 file on this PC; the session's copy is dropped."""
    dados = _preferencias()
    if caminho is None:
        dados.pop(login, None)
    else:
        dados[login] = str(caminho)
    arquivo = arquivo_preferencias()
    arquivo.parent.mkdir(parents=True, exist_ok=True)
    arquivo.write_text(json.dumps(dados, ensure_ascii=False, indent=1), encoding="utf-8")
    esquecer(login)


def esquecer(login: str) -> None:
    """Drop the certificate loaded for this session (the user left, or chose another file)."""
    certificado = _SESSAO.pop(login, None)
    if certificado is not None:
        certificado.fechar()


class DialogoSenhaCertificado(QDialog):
    def __init__(self, caminho: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Senha do certificado digital")
        layout = QVBoxLayout(self)
        from secretaria.services.assinatura import MODULOS_PKCS11

        token = caminho.suffix.lower() in MODULOS_PKCS11
        texto = QLabel(
            (
                "Para assinar, conecte o token ou cartão A3 e digite o PIN."
                if token
                else f"Para assinar, digite a senha do certificado digital “{caminho.name}”."
            )
            + "\nEla fica guardada só na memória, até você sair do programa."
        )
        texto.setWordWrap(True)
        layout.addWidget(texto)
        self.senha = QLineEdit()
        self.senha.setEchoMode(QLineEdit.EchoMode.Password)
        self.senha.setAccessibleName("Senha do certificado")
        rotulo = QLabel("&PIN:" if token else "&Senha:")
        rotulo.setBuddy(self.senha)
        layout.addWidget(rotulo)
        layout.addWidget(self.senha)
        botoes = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        botoes.button(QDialogButtonBox.StandardButton.Ok).setText("&Assinar")
        botoes.button(QDialogButtonBox.StandardButton.Cancel).setText("&Cancelar")
        botoes.accepted.connect(self.accept)
        botoes.rejected.connect(self.reject)
        layout.addWidget(botoes)
        self.resize(440, self.sizeHint().height())


def pedir_senha(parent: QWidget | None, caminho: Path) -> str | None:
    """The certificate's password, or None when the user cancels (tests patch this)."""
    dialogo = DialogoSenhaCertificado(caminho, parent)
    if dialogo.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialogo.senha.text()


def certificado_da_sessao(parent: QWidget | None, contexto: Contexto) -> Certificado | None:
    """The user's certificate loaded for this session (its password or PIN asked once); None: none here."""
    from secretaria.services.assinatura import carregar_certificado

    login = contexto.ator.login
    if login in _SESSAO:
        return _SESSAO[login]
    caminho = caminho_certificado(login)
    if caminho is None:
        return None
    if not caminho.exists():
        raise ErroDominio(
            f"O certificado digital {caminho} não foi encontrado neste computador. Escolha-o de novo em “Meu "
            "certificado digital…”. Nada foi emitido.",
            "certificado",
        )
    senha = pedir_senha(parent, caminho)
    if senha is None:
        raise ErroDominio("Assinatura cancelada: nada foi emitido.", "senha")
    certificado = carregar_certificado(caminho, senha)
    _SESSAO[login] = certificado
    return certificado


def certificado_para_emitir(parent: QWidget | None, contexto: Contexto, tipo: str) -> Certificado | None:
    """The certificate to sign this kind of document with, when this user signs it and has one here."""
    if caminho_certificado(contexto.ator.login) is None and contexto.ator.login not in _SESSAO:
        return None  # no certificate on this PC: issued unsigned (pyHanko is not even loaded)
    from secretaria.codigos import Papel
    from secretaria.services.assinatura import SECRETARIO, ler_config_assinatura, quem_assina

    with contexto.banco.leitura() as sessao:
        config = ler_config_assinatura(sessao)
    regra = quem_assina(tipo, config.tipos_emissor)
    if regra is None or (regra == SECRETARIO and not contexto.pode(Papel.SECRETARIO)):
        return None
    return certificado_da_sessao(parent, contexto)


# --- the case screen's actions --------------------------------------------------------------------------


def escolher_certificado(parent: QWidget | None, contexto: Contexto) -> Path | None:
    """ "Meu certificado digital…": choose this user's A1 file on this PC (kept here, never in the database)."""
    from secretaria.ui.widgets import arquivos, mensagens

    atual = caminho_certificado(contexto.ator.login)
    caminho = arquivos.abrir_arquivo(parent, "Meu certificado digital (A1)", "Certificados A1 (*.pfx *.p12)")
    if caminho is None:
        return atual
    guardar_caminho(contexto.ator.login, caminho)
    mensagens.informar(
        parent,
        "Meu certificado digital",
        f"Certificado escolhido neste computador: {caminho}.\nA senha será pedida na primeira assinatura; os "
        "documentos que você assina passam a sair assinados digitalmente.",
    )
    return caminho


def assinar_guardado(
    parent: QWidget | None, contexto: Contexto, documento_id: int, ao_concluir: Callable[[object], None]
) -> None:
    """Sign an issued, unsigned document as a new version (the first is kept), off the GUI thread."""
    from secretaria.services.documentos import assinar_documento
    from secretaria.ui.widgets import mensagens
    from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

    titulo = "Assinar digitalmente"
    try:
        certificado = certificado_da_sessao(parent, contexto)
    except ErroDominio as erro:
        mensagens.avisar_erro(parent, titulo, erro.mensagem)
        return
    if certificado is None:
        mensagens.avisar_erro(
            parent,
            titulo,
            "Nenhum certificado digital escolhido neste computador: use “Meu certificado digital…” primeiro.",
        )
        return
    banco, ator = contexto.banco, contexto.ator

    def assinar(_progresso: Progresso) -> object:
        return assinar_documento(banco.uow(), ator, documento_id=documento_id, certificado=certificado)

    em_segundo_plano(
        parent,
        assinar,
        titulo=titulo,
        texto="Assinando o documento…",
        ao_concluir=ao_concluir,
        chave=("assinar_documento", documento_id),
    )


def verificar_arquivo(parent: QWidget | None, contexto: Contexto) -> None:
    """ "Verificar um PDF…": any PDF (issued here or handed back) checked against this office's documents."""
    from secretaria.services.verificacao_pdf import RelatorioPdf, verificar_pdf
    from secretaria.ui.widgets import arquivos, mensagens
    from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

    titulo = "Verificar um PDF"
    caminho = arquivos.abrir_arquivo(parent, titulo, "Documentos PDF (*.pdf)")
    if caminho is None:
        return
    try:
        conteudo = caminho.read_bytes()
    except OSError as exc:
        mensagens.avisar_erro(parent, titulo, f"Não foi possível ler {caminho}: {exc.strerror or exc}.")
        return
    banco = contexto.banco

    def verificar(_progresso: Progresso) -> RelatorioPdf:  # pyHanko's validation: off the GUI thread
        with banco.leitura() as sessao:
            return verificar_pdf(sessao, conteudo)

    def mostrar(resultado: object) -> None:
        assert isinstance(resultado, RelatorioPdf)
        texto = f"{caminho.name}\n\n" + "\n".join(resultado.linhas)
        if resultado.valido:
            mensagens.informar(parent, titulo, texto)
        else:
            mensagens.avisar_erro(parent, titulo, texto)

    em_segundo_plano(parent, verificar, titulo=titulo, texto="Conferindo o PDF…", ao_concluir=mostrar)
