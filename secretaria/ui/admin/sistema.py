"""Letterhead data, backups and settings."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from secretaria.services import backup, configuracoes, orgao
from secretaria.ui.admin.comum import rotulo_ajuda
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import Formulario, arquivos, mensagens
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, dialogo_progresso

TITULO_RESTAURAR = "Restaurar cópia de segurança"
FILTRO_COPIAS = "Cópias de segurança (*.sqlite);;Todos os arquivos (*)"


class PainelOrgao(QWidget):
    """The issuing authority's data printed on every document's letterhead."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.versao = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Dados do órgão (timbre dos documentos)</b>"))
        layout.addWidget(
            rotulo_ajuda("Estes dados aparecem no cabeçalho e na assinatura de autos, intimações e decisões.")
        )
        self.prefeitura = QLineEdit()
        self.secretaria = QLineEdit()
        self.secretario_nome = QLineEdit()
        self.secretario_cargo = QLineEdit()
        self.secretario_cargo.setPlaceholderText("Secretário(a) Municipal de Serviços Urbanos")
        self.secretario_cargo.setToolTip(
            "Como o cargo sai sob a assinatura e no texto das decisões: “Secretária Municipal de Serviços "
            "Urbanos” quando quem assina é uma mulher."
        )
        self.endereco = QLineEdit()
        self.cidade = QLineEdit()
        self.telefone = QLineEdit()
        self.email = QLineEdit()
        self.horario_expediente = QLineEdit()
        self.horario_expediente.setPlaceholderText("de segunda a sexta-feira, das 8h às 14h")
        self.horario_expediente.setToolTip(
            "Horário do protocolo onde a defesa é recebida; sai nas intimações."
        )
        self.pagamento_instrucoes = QLineEdit()
        self.pagamento_instrucoes.setPlaceholderText(
            "por guia de recolhimento retirada no protocolo, paga em…"
        )
        self.pagamento_instrucoes.setToolTip("Onde e como pagar a multa; sai nas notificações de decisão.")
        self.form = Formulario(layout, self)
        f = self.form
        f.adicionar("prefeitura", "&Prefeitura:", self.prefeitura)
        f.adicionar("secretaria", "&Secretaria:", self.secretaria)
        f.adicionar("secretario_nome", "Secretário(a) &titular:", self.secretario_nome)
        f.adicionar("secretario_cargo", "Cargo (so&b a assinatura):", self.secretario_cargo)
        f.adicionar("endereco", "E&ndereço:", self.endereco)
        f.adicionar("cidade", "Cidad&e:", self.cidade)
        f.adicionar("telefone", "Te&lefone:", self.telefone)
        f.adicionar("email", "E-&mail:", self.email)
        f.adicionar("horario_expediente", "&Horário do protocolo:", self.horario_expediente)
        f.adicionar("pagamento_instrucoes", "Onde e como pa&gar a multa:", self.pagamento_instrucoes)
        f.alinhar_rotulos()
        self.alteracao = QLabel()
        self.alteracao.setStyleSheet("color: #666;")
        layout.addWidget(self.alteracao)
        botoes = QHBoxLayout()
        botoes.addStretch(1)
        self.botao_salvar = QPushButton("S&alvar")
        # A page is no dialog: without autoDefault, Enter on the focused button did nothing (Space did).
        self.botao_salvar.setAutoDefault(True)
        self.botao_salvar.clicked.connect(self.salvar)
        botoes.addWidget(self.botao_salvar)
        layout.addLayout(botoes)
        layout.addStretch(1)
        for campo in (
            self.prefeitura,
            self.secretaria,
            self.secretario_nome,
            self.secretario_cargo,
            self.endereco,
            self.cidade,
            self.telefone,
            self.email,
            self.horario_expediente,
            self.pagamento_instrucoes,
        ):
            campo.returnPressed.connect(self.salvar)
        self.recarregar()

    def recarregar(self) -> None:
        with self.contexto.banco.leitura() as sessao:
            detalhe = orgao.obter_dados_orgao(sessao)
        d = detalhe.dados
        self.versao = detalhe.versao
        for nome in (
            "prefeitura",
            "secretaria",
            "secretario_nome",
            "secretario_cargo",
            "endereco",
            "cidade",
            "telefone",
            "email",
            "horario_expediente",
            "pagamento_instrucoes",
        ):
            campo = getattr(self, nome)
            assert isinstance(campo, QLineEdit)
            campo.setText(getattr(d, nome))
        quem = f" por {detalhe.alterado_por}" if detalhe.alterado_por else ""
        self.alteracao.setText(f"Última alteração{quem} em {detalhe.alterado_em:%d/%m/%Y às %H:%M}.")

    def salvar(self) -> None:
        dados = orgao.DadosDoOrgao(
            prefeitura=self.prefeitura.text(),
            secretaria=self.secretaria.text(),
            secretario_nome=self.secretario_nome.text(),
            secretario_cargo=self.secretario_cargo.text(),
            endereco=self.endereco.text(),
            cidade=self.cidade.text(),
            telefone=self.telefone.text(),
            email=self.email.text(),
            horario_expediente=self.horario_expediente.text(),
            pagamento_instrucoes=self.pagamento_instrucoes.text(),
        )

        def feito(_resultado: object) -> None:
            self.recarregar()
            mensagens.informar(self, "Dados do órgão", "Dados do órgão gravados.")

        self.form.gravar(
            self,
            lambda: orgao.salvar_dados_orgao(
                self.contexto.banco.uow(), self.contexto.ator, dados, versao=self.versao
            ),
            feito,
            titulo="Dados do órgão",
        )


class PainelSistema(QWidget):
    """Backups (SQLite: copy now to a chosen file, restore a copy, and how many daily copies to keep;
    PostgreSQL: the pg_dump command, and how to restore with pg_restore) and the work-queue setting for
    overdue decisions.

    Restoring: the copy is checked in the background (progress dialog), then a confirmation names what will
    be lost, then the restore runs in the background; afterwards the database connection is closed and the
    window with it (the program must be opened again on the restored database). `restaurado` is emitted
    with the service's message just before the window closes."""

    restaurado = Signal(str)

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.tarefa: Tarefa | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

        grupo_backup = QGroupBox("Cópias de segurança")
        lb = QVBoxLayout(grupo_backup)
        banco = contexto.banco
        if banco.eh_sqlite:
            texto = (
                f"Banco de dados: {banco.descricao_local}.\nUma cópia diária é feita automaticamente ao abrir o "
                "programa, na pasta “backups” ao lado do arquivo. Faça também cópias num disco externo."
            )
        else:
            texto = (
                f"Banco de dados: {banco.descricao_local}.\nAs cópias são feitas no servidor "
                "com o pg_dump (o comando aparece ao clicar no botão abaixo) e restauradas à mão com o "
                "pg_restore num banco novo (veja o README, “Restaurar”)."
            )
        lb.addWidget(rotulo_ajuda(texto))
        linha = QHBoxLayout()
        self.botao_backup = QPushButton("Fazer cópia de segurança agora…")
        self.botao_backup.clicked.connect(self.copia_agora)
        linha.addWidget(self.botao_backup)
        self.botao_restaurar = QPushButton("Restaurar uma cópia…")
        self.botao_restaurar.setToolTip(
            "Substitui o banco atual por uma cópia de segurança, depois de conferi-la; o banco atual é "
            "guardado com outro nome. Todos os outros computadores precisam estar com o programa fechado."
        )
        self.botao_restaurar.clicked.connect(self.restaurar_copia)
        self.botao_restaurar.setVisible(contexto.pode("administrador"))
        linha.addWidget(self.botao_restaurar)
        linha.addStretch(1)
        lb.addLayout(linha)
        layout.addWidget(grupo_backup)

        grupo_config = QGroupBox("Configurações")
        lc = QVBoxLayout(grupo_config)
        self.copias_backup = QSpinBox()
        self.copias_backup.setRange(1, 365)
        _sufixo_no_numero(self.copias_backup, "cópia", "cópias")
        self.dias_decisao_atrasada = QSpinBox()
        self.dias_decisao_atrasada.setRange(0, 365)
        _sufixo_no_numero(self.dias_decisao_atrasada, "dia", "dias")
        self.prazo_pagamento_dias = QSpinBox()
        self.prazo_pagamento_dias.setRange(1, 365)
        _sufixo_no_numero(self.prazo_pagamento_dias, "dia", "dias")
        self.prazo_pagamento_dias.setToolTip(
            "Prazo para pagar a multa, contado da data em que a penalidade se torna definitiva; "
            "sai nas notificações de decisão."
        )
        self.form = Formulario(lc, self)
        self.form.adicionar("copias_backup", "Cópias diárias mantidas:", self.copias_backup)
        self.form.adicionar(
            "dias_decisao_atrasada", "Decisão atrasada após o prazo de defesa:", self.dias_decisao_atrasada
        )
        self.form.adicionar(
            "prazo_pagamento_dias", "Prazo para pagar a multa (após definitiva):", self.prazo_pagamento_dias
        )
        linha_c = QHBoxLayout()
        linha_c.addStretch(1)
        self.botao_salvar = QPushButton("Salvar configurações")
        self.botao_salvar.clicked.connect(self.salvar)
        linha_c.addWidget(self.botao_salvar)
        lc.addLayout(linha_c)
        layout.addWidget(grupo_config)
        layout.addStretch(1)
        self.recarregar()

    def recarregar(self) -> None:
        with self.contexto.banco.leitura() as sessao:
            c = configuracoes.obter_configuracoes(sessao)
        self.copias_backup.setValue(c.copias_backup)
        self.dias_decisao_atrasada.setValue(c.dias_decisao_atrasada)
        self.prazo_pagamento_dias.setValue(c.prazo_pagamento_dias)

    def salvar(self) -> None:
        pedido = {
            "copias_backup": self.copias_backup.value(),
            "dias_decisao_atrasada": self.dias_decisao_atrasada.value(),
            "prazo_pagamento_dias": self.prazo_pagamento_dias.value(),
        }
        self.form.gravar(
            self,
            lambda: configuracoes.salvar_configuracoes(
                self.contexto.banco.uow(), self.contexto.ator, **pedido
            ),
            lambda _resultado: self._gravadas(),
            titulo="Configurações",
        )

    def _gravadas(self) -> None:
        mensagens.informar(self, "Configurações", "Configurações gravadas.")

    def copia_agora(self) -> None:
        from secretaria.ui.janela_principal import fazer_copia_de_seguranca

        fazer_copia_de_seguranca(self, self.contexto)

    # -- restore ----------------------------------------------------------------------------------
    def restaurar_copia(self) -> None:
        """Choose the copy, then check it in the background; the confirmation follows (`_confirmar`)."""
        banco = self.contexto.banco
        if not banco.eh_sqlite:
            mensagens.informar(
                self,
                TITULO_RESTAURAR,
                "O banco está num servidor PostgreSQL: a restauração é feita à mão, com o pg_restore, num "
                "banco novo:\n\npg_restore --no-owner --dbname=postgresql://usuario@servidor/banco_novo "
                "ARQUIVO.dump\n\nDepois abra o programa com --db apontando para o banco novo e confira a "
                "auditoria (secretaria auditoria verificar). Veja o README, seção “Restaurar”.",
            )
            return
        origem = arquivos.abrir_arquivo(self, TITULO_RESTAURAR, FILTRO_COPIAS)
        if origem is None:
            return
        ator, url = self.contexto.ator, banco.url

        banco.pausar_observadores()  # the live refresh's own connection too (`_reabilitar` resumes it)

        def preparar(progresso: Progresso) -> backup.Preparacao:
            banco.engine.dispose()  # this window's idle connections would count as "open elsewhere"
            return backup.preparar_restauracao(origem, url, ator=ator, progresso=progresso)

        self._em_segundo_plano(preparar, "Conferindo a cópia de segurança…", self._confirmar)

    def _confirmar(self, preparacao: object) -> None:
        assert isinstance(preparacao, backup.Preparacao)
        mensagens.confirmar(
            self,
            TITULO_RESTAURAR,
            f"{preparacao.descricao()}\n\nDepois da restauração o programa será fechado; abra-o de novo "
            "para continuar no banco restaurado.",
            lambda: self._restaurar(preparacao),
            texto_sim="Restaurar",
            texto_nao="Voltar",
        )

    def _restaurar(self, preparacao: backup.Preparacao) -> None:
        banco, ator = self.contexto.banco, self.contexto.ator
        origem = preparacao.copia.arquivo

        banco.pausar_observadores()

        def restaurar(progresso: Progresso) -> str:
            banco.engine.dispose()
            return backup.restaurar(
                origem, banco.url, ator=ator, verificada=preparacao.copia, progresso=progresso
            )

        self._em_segundo_plano(restaurar, "Restaurando a cópia de segurança…", self._restaurado)

    def _restaurado(self, mensagem: object) -> None:
        """The database under the window is not the one its screens were showing: close the connection and
        the window (nothing of the old state may be written into the restored database)."""
        self.contexto.banco.fechar()
        texto = f"{mensagem}\n\nO programa será fechado agora; abra-o de novo para continuar."
        mensagens.informar(self, TITULO_RESTAURAR, texto, ao_fechar=self._fechar_janela)
        self.restaurado.emit(str(mensagem))

    def _fechar_janela(self) -> None:
        self.window().close()

    def _em_segundo_plano(
        self, funcao: Callable[[Progresso], object], texto: str, ao_concluir: Callable[[object], None]
    ) -> None:
        self.botao_restaurar.setEnabled(False)
        tarefa = Tarefa(funcao, self)
        tarefa.concluida.connect(ao_concluir)
        tarefa.falhou.connect(self._recusado)
        # A method, not a lambda: Qt drops the connection once the panel is gone.
        tarefa.finished.connect(self._reabilitar)
        self.tarefa = tarefa
        tarefa.iniciar(dialogo_progresso(self, TITULO_RESTAURAR, texto))

    def _reabilitar(self) -> None:
        self.botao_restaurar.setEnabled(True)
        self.contexto.banco.retomar_observadores()  # nothing if the Banco was closed by a restore

    def _recusado(self, mensagem: str) -> None:
        mensagens.avisar_erro(self, TITULO_RESTAURAR, mensagem)


def _sufixo_no_numero(campo: QSpinBox, singular: str, plural: str) -> None:
    """ "1 dia", "30 dias": the unit agrees with the number as it changes (never "1 dias")."""

    def ajustar(valor: int) -> None:
        campo.setSuffix(f" {singular if valor == 1 else plural}")

    campo.valueChanged.connect(ajustar)
    ajustar(campo.value())
