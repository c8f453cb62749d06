"""The audit log: who changed what and when, filtered by user, kind of record, period and text, with the
selected entry's "before → after" beside the list."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from secretaria import relogio
from secretaria.lei.formato import formatar_decimal
from secretaria.services import consulta_auditoria, contas, verificacao
from secretaria.services.base import ErroDominio
from secretaria.services.rotulos import rotulo_acao, rotulo_entidade
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.modelo_tabela import formatar_celula
from secretaria.ui.widgets import arquivos
from secretaria.ui.widgets.mensagens import avisar_erro, informar
from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

_DATA_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?$")


def _valor(v: Any) -> str:
    if v is None or v == "":
        return "(vazio)"
    if isinstance(v, list | dict):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, str) and (data := _DATA_ISO.match(v)):  # the log keeps dates as ISO text
        ano, mes, dia, hora, minuto = data.groups()
        return f"{dia}/{mes}/{ano}" + (f" {hora}:{minuto}" if hora else "")
    return formatar_celula(v)


def descrever(registro: consulta_auditoria.RegistroAuditoria) -> str:
    """The entry as a person reads it: header, then one line per field that changed."""
    quem = registro.usuario or "sistema"
    entidade = rotulo_entidade(registro.entidade)
    linhas = [
        f"{rotulo_acao(registro.acao)} — {entidade}"
        + (f" nº {registro.entidade_id}" if registro.entidade_id else ""),
        f"Por {quem} em {registro.momento:%d/%m/%Y às %H:%M:%S} (registro nº {registro.id})",
        "",
    ]
    alteracoes = registro.alteracoes
    if not alteracoes:
        linhas.append("Sem alteração de campos registrada.")
    for campo, antes, depois in alteracoes:
        if registro.antes is None:
            linhas.append(f"{campo}: {_valor(depois)}")
        elif registro.depois is None:
            linhas.append(f"{campo}: {_valor(antes)} (removido)")
        else:
            linhas.append(f"{campo}: {_valor(antes)} → {_valor(depois)}")
    return "\n".join(linhas)


class PaginaAuditoria(QWidget):
    """The audit log list (newest first) with user and record-kind filters and the entry's details."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.lista = PaginaListaServico(
            contexto,
            "auditoria",
            texto_busca="Texto em qualquer campo",
            singular="registro",
            plural="registros",
            formatos={"entidade": lambda v: rotulo_entidade(str(v or ""))},
        )
        self.lista.botao_abrir.setVisible(False)
        self.botao_termo = self.lista.adicionar_botao(
            "Emitir termo de verificação…",
            self.emitir_termo,
            dica="Verifica toda a auditoria e grava o termo em PDF, para assinar e guardar fora do computador",
        )
        self.botao_termo.setEnabled(contexto.pode("administrador", "secretario"))
        self.combo_usuario = QComboBox()
        self.combo_usuario.setAccessibleName("Usuário")
        self.combo_entidade = QComboBox()
        self.combo_entidade.setAccessibleName("Registro")
        self._preencher_combos()
        self.lista.adicionar_filtro(self.combo_usuario, "Usuário:", linha=2)
        self.lista.adicionar_filtro(self.combo_entidade, "Registro:", linha=2)
        self.combo_usuario.currentIndexChanged.connect(
            lambda _i: self.lista.definir_extra("usuario", self.combo_usuario.currentData())
        )
        self.combo_entidade.currentIndexChanged.connect(
            lambda _i: self.lista.definir_extra("entidade", self.combo_entidade.currentData())
        )
        self.detalhe = QPlainTextEdit()
        self.detalhe.setReadOnly(True)
        self.detalhe.setPlaceholderText("Escolha um registro para ver o que mudou (antes → depois).")
        divisor = QSplitter(Qt.Orientation.Vertical)
        divisor.addWidget(self.lista)
        divisor.addWidget(self.detalhe)
        divisor.setStretchFactor(0, 3)
        divisor.setStretchFactor(1, 1)
        divisor.setSizes([520, 180])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(divisor)
        self.lista.tabela.selectionModel().currentRowChanged.connect(
            lambda atual, _a: self._mostrar(atual.row())
        )
        self.lista.modelo.modelReset.connect(self._reconectar)
        self.lista.abrirRegistro.connect(lambda _id: self.detalhe.setFocus())
        self.setFocusProxy(self.lista)

    def _reconectar(self) -> None:
        self.detalhe.clear()

    def _preencher_combos(self) -> None:
        with self.contexto.banco.leitura() as sessao:
            usuarios = contas.listar_usuarios(sessao)
            entidades = consulta_auditoria.entidades_auditadas(sessao)
        for combo, itens in (
            (
                self.combo_usuario,
                [(f"{u.login} — {u.nome}", u.login) for u in usuarios] + [("sistema", "sistema")],
            ),
            (self.combo_entidade, [(rotulo_entidade(e), e) for e in entidades]),
        ):
            atual = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem("Todos", None)
            for texto, dado in itens:
                combo.addItem(texto, dado)
            combo.setCurrentIndex(max(0, combo.findData(atual)))
            combo.blockSignals(False)

    def recarregar(self) -> None:
        self._preencher_combos()
        self.lista.recarregar()

    def registro(self, linha: int) -> consulta_auditoria.RegistroAuditoria | None:
        """The full entry (with before/after) of a row of the list, read by its id."""
        dados = self.lista.modelo.linha(linha)
        if dados is None:
            return None
        try:
            with self.contexto.banco.leitura() as sessao:
                return consulta_auditoria.registro_auditoria(sessao, int(dados.id))
        except ErroDominio:
            return None

    def emitir_termo(self) -> None:
        """Verify everything; when whole, record the term and save its PDF where the user chooses."""
        destino = arquivos.salvar_como(
            self,
            "Salvar termo de verificação da auditoria",
            f"termo-auditoria-{relogio.hoje():%Y-%m-%d}.pdf",
            "Documentos PDF (*.pdf)",
        )
        if destino is None:
            return
        contexto = self.contexto

        def emitir(progresso: Progresso) -> tuple[verificacao.TermoEmitido, str]:
            termo = verificacao.emitir_termo(contexto.banco, contexto.ator, progresso=progresso)
            try:
                destino.write_bytes(termo.pdf)
            except OSError as exc:  # the term is recorded: say where its paper failed
                return termo, f"{exc.strerror or exc}"
            return termo, ""

        em_segundo_plano(
            self,
            emitir,
            titulo="Termo de verificação",
            texto="Conferindo a auditoria…",
            ao_concluir=lambda resultado: self._termo_emitido(resultado, destino),
            chave=("termo_auditoria",),
        )

    def _termo_emitido(self, resultado: tuple[verificacao.TermoEmitido, str], destino: Path) -> None:
        termo, falha = resultado
        if falha:
            avisar_erro(
                self,
                "Termo de verificação",
                f"O termo nº {termo.numero} foi registrado, mas não pôde ser gravado em {destino}: "
                f"{falha}. Emita-o de novo em outra pasta.",
            )
            return
        self.recarregar()
        informar(
            self,
            "Termo de verificação",
            f"Auditoria íntegra. Termo nº {termo.numero} gravado em {destino}: {formatar_decimal(termo.registros, 0)} registros, "
            f"último nº {termo.ultimo_id}, hash {termo.ultimo_hash}.\n\n"
            "Imprima-o, assine-o com uma testemunha e guarde-o fora do computador.",
        )

    def _mostrar(self, linha: int) -> None:
        registro = self.registro(linha) if linha >= 0 else None
        self.detalhe.setPlainText(descrever(registro) if registro is not None else "")
