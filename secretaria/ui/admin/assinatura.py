"""Administração › Assinatura digital: the office's trust roots and revocation lists, the timestamp
server, and which kinds of document are signed by whoever issues them. The certificates themselves are never
here: each user chooses their own on their own PC (the case screen's "Meu certificado digital…")."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from secretaria.lei.formato import formatar_data
from secretaria.services import assinatura
from secretaria.services.base import ErroDominio
from secretaria.services.documentos import TIPOS_DOCUMENTO
from secretaria.ui.admin.comum import rotulo_ajuda
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import arquivos, mensagens

TITULO = "Assinatura digital"


class PainelAssinatura(QWidget):
    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

        grupo_raizes = QGroupBox("Raízes de confiança e listas de revogação")
        lr = QVBoxLayout(grupo_raizes)
        lr.addWidget(
            rotulo_ajuda(
                "A verificação dos documentos confere se o certificado de quem assinou se encadeia a uma destas "
                "raízes. Instale os arquivos públicos da ICP-Brasil (por exemplo a “Autoridade Certificadora "
                "Raiz Brasileira”, baixada do site do ITI) e, se quiser conferir revogações sem internet, as "
                "listas de certificados revogados (.crl) das autoridades. O programa não traz raízes próprias."
            )
        )
        self.lista_raizes = QListWidget()
        self.lista_raizes.setAccessibleName("Raízes de confiança instaladas")
        lr.addWidget(self.lista_raizes, 1)
        linha = QHBoxLayout()
        self.botao_instalar = QPushButton("Instalar raiz ou lista de revogação…")
        self.botao_instalar.clicked.connect(self.instalar)
        self.botao_remover = QPushButton("Remover a raiz selecionada")
        self.botao_remover.clicked.connect(self.remover)
        linha.addWidget(self.botao_instalar)
        linha.addWidget(self.botao_remover)
        linha.addStretch(1)
        lr.addLayout(linha)
        layout.addWidget(grupo_raizes, 1)

        grupo_config = QGroupBox("Carimbo do tempo e tipos assinados por quem emite")
        lc = QVBoxLayout(grupo_config)
        lc.addWidget(
            rotulo_ajuda(
                "A notificação de decisão é sempre assinada pelo Secretário quando ele a emite com o "
                "certificado. Marque abaixo os documentos que cada usuário assina com o próprio certificado ao "
                "emiti-los. Com um servidor de carimbo do tempo (RFC 3161), a assinatura leva a hora "
                "atestada por ele; sem servidor, a assinatura é PAdES básica (B-B)."
            )
        )
        linha_url = QHBoxLayout()
        self.carimbo_url = QLineEdit()
        self.carimbo_url.setPlaceholderText("https://… (vazio: sem carimbo do tempo)")
        self.carimbo_url.setAccessibleName("Servidor de carimbo do tempo")
        rotulo_url = QLabel("&Servidor de carimbo do tempo:")
        rotulo_url.setBuddy(self.carimbo_url)
        linha_url.addWidget(rotulo_url)
        linha_url.addWidget(self.carimbo_url, 1)
        lc.addLayout(linha_url)
        self.tipos: dict[str, QCheckBox] = {}
        for tipo, regra in assinatura.ASSINATURA_POR_TIPO.items():
            if regra != assinatura.QUEM_EMITE:
                continue
            caixa = QCheckBox(f"{TIPOS_DOCUMENTO.get(tipo, tipo)}: assinado por quem emite")
            self.tipos[tipo] = caixa
            lc.addWidget(caixa)
        linha_s = QHBoxLayout()
        linha_s.addStretch(1)
        self.botao_salvar = QPushButton("Salvar")
        self.botao_salvar.clicked.connect(self.salvar)
        linha_s.addWidget(self.botao_salvar)
        lc.addLayout(linha_s)
        layout.addWidget(grupo_config)
        self.recarregar()

    def recarregar(self) -> None:
        with self.contexto.banco.leitura() as sessao:
            config = assinatura.ler_config_assinatura(sessao)
        self.lista_raizes.clear()
        for raiz in config.raizes:
            item = QListWidgetItem(
                f"{raiz.nome} — válida até {formatar_data(raiz.valido_ate.date())} — SHA-256 {raiz.impressao[:16]}…"
            )
            item.setData(Qt.ItemDataRole.UserRole, raiz.impressao)
            self.lista_raizes.addItem(item)
        if not config.raizes:
            vazio = QListWidgetItem("Nenhuma raiz instalada: a confiança dos certificados não é conferida.")
            vazio.setFlags(Qt.ItemFlag.NoItemFlags)
            self.lista_raizes.addItem(vazio)
        if config.lcrs:
            plural = "lista de revogação instalada" if config.lcrs == 1 else "listas de revogação instaladas"
            info = QListWidgetItem(f"{config.lcrs} {plural}.")
            info.setFlags(Qt.ItemFlag.NoItemFlags)
            self.lista_raizes.addItem(info)
        self.carimbo_url.setText(config.carimbo_url or "")
        for tipo, caixa in self.tipos.items():
            caixa.setChecked(tipo in config.tipos_emissor)

    def _executar(self, acao: Any, mensagem: str | None = None) -> None:
        try:
            resultado = acao()
        except ErroDominio as erro:
            mensagens.avisar_erro(self, TITULO, erro.mensagem)
            return
        self.recarregar()
        mensagens.informar(self, TITULO, mensagem or str(resultado))

    def instalar(self) -> None:
        caminho = arquivos.abrir_arquivo(
            self, "Instalar raiz de confiança", "Certificados e listas (*.cer *.crt *.pem *.der *.crl)"
        )
        if caminho is None:
            return
        try:
            conteudo = caminho.read_bytes()
        except OSError as exc:
            mensagens.avisar_erro(self, TITULO, f"Não foi possível ler {caminho}: {exc.strerror or exc}.")
            return
        self._executar(
            lambda: assinatura.instalar_confianca(
                self.contexto.banco.uow(), self.contexto.ator, conteudo=conteudo, nome_arquivo=caminho.name
            )
        )

    def remover(self) -> None:
        item = self.lista_raizes.currentItem()
        impressao = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not impressao:
            mensagens.avisar_erro(self, TITULO, "Selecione a raiz a remover.")
            return
        mensagens.confirmar(
            self,
            TITULO,
            f"Remover a raiz “{item.text().split(' — ')[0]}”? Os documentos assinados por certificados dela "
            "deixam de ser reconhecidos como confiáveis na verificação.",
            lambda: self._executar(
                lambda: assinatura.remover_raiz(
                    self.contexto.banco.uow(), self.contexto.ator, impressao=impressao
                ),
                "Raiz removida.",
            ),
        )

    def salvar(self) -> None:
        tipos = [t for t, caixa in self.tipos.items() if caixa.isChecked()]
        self._executar(
            lambda: assinatura.salvar_config_assinatura(
                self.contexto.banco.uow(),
                self.contexto.ator,
                carimbo_url=self.carimbo_url.text(),
                tipos_emissor=tipos,
            ),
            "Configuração da assinatura digital gravada.",
        )
