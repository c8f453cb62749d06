"""The case: representação, auto de infração and every act that follows it (arts. 9º–16)."""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.codigos import (
    AcaoProposta,
    FaseAuto,
    MeioIntimacao,
    ObjetoIntimacao,
    PrazoRevisado,
    ResultadoCassacao,
    ResultadoDecisao,
    ResultadoIntimacao,
    ResultadoRecurso,
    SituacaoCassacao,
    SituacaoCumprimento,
    SituacaoPagamento,
    SituacaoRepresentacao,
    check_em,
)
from secretaria.models.base import REAIS, URM_QTD, VALOR_URM, Base, Versionado, agora
from secretaria.models.cadastros import Empregado, Fiscal, Linha, Operadora, Veiculo

# The code lists are `secretaria.codigos`' enums; these tuples stay for the callers that iterate codes.
FASES_AUTO = tuple(FaseAuto)
MEIOS_INTIMACAO = tuple(MeioIntimacao)
RESULTADOS_INTIMACAO = tuple(ResultadoIntimacao)
RESULTADOS_RECURSO = tuple(ResultadoRecurso)
SITUACOES_PAGAMENTO = tuple(SituacaoPagamento)
SITUACOES_CUMPRIMENTO = tuple(SituacaoCumprimento)


class Representacao(Versionado, Base):
    """Art. 12: a petition by any person; drawn up into an auto or filed away with reasons."""

    __tablename__ = "representacao"
    __table_args__ = (
        sa.UniqueConstraint("ano", "numero"),
        sa.CheckConstraint(check_em("situacao", SituacaoRepresentacao), name="situacao_valida"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    ano: so.Mapped[int]
    numero: so.Mapped[int]
    recebida_em: so.Mapped[date] = so.mapped_column(sa.Date, index=True)
    peticionario_nome: so.Mapped[str] = so.mapped_column(sa.String(200))
    peticionario_profissao: so.Mapped[str] = so.mapped_column(sa.String(120))
    peticionario_endereco: so.Mapped[str] = so.mapped_column(sa.String(300))
    peticionario_contato: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    fatos: so.Mapped[str] = so.mapped_column(sa.Text)
    meios_prova: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    operadora_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("operadora.id"), index=True)
    dispositivo_codigo: so.Mapped[str | None] = so.mapped_column(sa.ForeignKey("dispositivo.codigo"))
    data_fato: so.Mapped[date | None] = so.mapped_column(sa.Date)
    local_fato: so.Mapped[str] = so.mapped_column(sa.String(300), default="")
    situacao: so.Mapped[str] = so.mapped_column(sa.String(10), default="recebida", index=True)
    arquivada_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    motivo_arquivamento: so.Mapped[str | None] = so.mapped_column(sa.Text)
    recebida_por: so.Mapped[str] = so.mapped_column(sa.String(60))

    operadora: so.Mapped[Operadora | None] = so.relationship()

    @property
    def numero_formatado(self) -> str:
        return f"{self.numero:04d}/{self.ano}"


class AutoInfracao(Versionado, Base):
    """Art. 10 (the second "art. 9º"): the auto and the penalty state that later cases' recidivism reads."""

    __tablename__ = "auto_infracao"
    __table_args__ = (
        sa.UniqueConstraint("ano", "numero"),
        sa.CheckConstraint(check_em("fase", FaseAuto), name="fase_valida"),
        # The sanction panel's query: this operator's autos of this provision, newest first (id breaks ties
        # between pages); with `fase`, its count of the older autos reads no row.
        sa.Index("ix_auto_recidiva", "operadora_id", "dispositivo_codigo", "data_infracao", "id", "fase"),
        sa.Index("ix_auto_fase_prazo", "fase", "prazo_defesa"),
        sa.Index("ix_auto_fase_prazo_recurso", "fase", "prazo_recurso"),
        sa.Index("ix_auto_lavratura", "data_lavratura"),
        # The queue of final suspensions not yet started: the few autos with a suspension, by final day.
        sa.Index("ix_auto_suspensao_definitiva", "suspensao_dias", "data_definitiva"),
        # The autos list sorted by date of the infraction (id breaks ties, so pages never overlap).
        sa.Index("ix_auto_data_infracao", "data_infracao", "id"),
        # The autos list's text search: one index per alternative, their ids united (services/listas).
        sa.Index("ix_auto_dispositivo", "dispositivo_codigo", "id"),
        sa.Index("ix_auto_infrator", "infrator_nome", "id"),
        # The Painel's prescription warning: the undecided autos by phase and day (migration 0011).
        sa.Index("ix_auto_fase_infracao", "fase", "data_infracao", "operadora_id", "linha_id"),
        # The Painel's counts over a period (month, operator, line, tipo, provision, phase, deadlines) read
        # this index alone, never the wide auto rows (migration 0008).
        sa.Index(
            "ix_auto_painel",
            "data_infracao",
            "fase",
            "operadora_id",
            "tipo",
            "dispositivo_codigo",
            "linha_id",
            "prazo_defesa",
            "prazo_recurso",
            "id",
        ),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    ano: so.Mapped[int]
    numero: so.Mapped[int]
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"))
    dispositivo_codigo: so.Mapped[str] = so.mapped_column(sa.ForeignKey("dispositivo.codigo"))
    tipo: so.Mapped[str] = so.mapped_column(sa.String(1))
    data_infracao: so.Mapped[date] = so.mapped_column(sa.Date)
    hora_infracao: so.Mapped[time | None] = so.mapped_column(sa.Time)
    local: so.Mapped[str] = so.mapped_column(sa.String(300))
    data_lavratura: so.Mapped[date] = so.mapped_column(sa.Date)
    hora_lavratura: so.Mapped[time] = so.mapped_column(sa.Time)
    local_lavratura: so.Mapped[str] = so.mapped_column(sa.String(300))
    descricao_fatos: so.Mapped[str] = so.mapped_column(sa.Text)
    circunstancias: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    infrator_nome: so.Mapped[str] = so.mapped_column(sa.String(300))
    veiculo_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("veiculo.id"), index=True)
    linha_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("linha.id"))
    empregado_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("empregado.id"), index=True)
    fiscal_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("fiscal.id"))
    recusou_assinar: so.Mapped[bool] = so.mapped_column(default=False)
    proxima_penalidade: so.Mapped[str] = so.mapped_column(sa.Text)
    representacao_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("representacao.id"))
    lavrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))

    fase: so.Mapped[str] = so.mapped_column(sa.String(12), default="lavrado")
    prazo_defesa: so.Mapped[date | None] = so.mapped_column(sa.Date)
    prazo_recurso: so.Mapped[date | None] = so.mapped_column(sa.Date)
    # Penalty as it stands after decision and appeal: the antecedent that later autos see (REGRAS § 3).
    data_decisao: so.Mapped[date | None] = so.mapped_column(sa.Date)
    # The day the applied penalty became (or, with no timely appeal, will become) final — REGRAS § 3 rule 1;
    # None while a timely appeal is pending, when the decision was never notified, or when annulled. Kept up
    # to date by `services.definitividade.atualizar` from every act that changes it.
    data_definitiva: so.Mapped[date | None] = so.mapped_column(sa.Date)
    multa_ur: so.Mapped[Decimal] = so.mapped_column(URM_QTD, default=Decimal(0))
    suspensao_dias: so.Mapped[int] = so.mapped_column(default=0)
    penalidade_anulada: so.Mapped[bool] = so.mapped_column(default=False)

    cancelado_em: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime)
    cancelado_por: so.Mapped[str | None] = so.mapped_column(sa.String(60))
    motivo_cancelamento: so.Mapped[str | None] = so.mapped_column(sa.Text)
    # A case of the office's past brought in from a spreadsheet (services.importacao.autos): the file's
    # name and SHA-256. None for an auto drawn up in the program.
    importado_de: so.Mapped[str | None] = so.mapped_column(sa.String(255))
    importado_sha256: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    # REGRAS § 3 rule 1, imported priors: the book did not say when the penalty became final and the import
    # presumed it (`data_definitiva` = decision + N days, N chosen at the import); the panel says so.
    definitiva_presumida: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())
    # A book case closed in the book (paid, sent to dívida ativa, filed): no home queue asks for an act.
    encerrado_no_livro: so.Mapped[str | None] = so.mapped_column(sa.String(20))

    operadora: so.Mapped[Operadora] = so.relationship()
    veiculo: so.Mapped[Veiculo | None] = so.relationship()
    linha: so.Mapped[Linha | None] = so.relationship()
    empregado: so.Mapped[Empregado | None] = so.relationship()
    fiscal: so.Mapped[Fiscal] = so.relationship()
    testemunhas: so.Mapped[list[Testemunha]] = so.relationship(
        back_populates="auto", cascade="all, delete-orphan", order_by="Testemunha.id"
    )
    intimacoes: so.Mapped[list[Intimacao]] = so.relationship(
        back_populates="auto", order_by="Intimacao.id", viewonly=True
    )

    @property
    def numero_formatado(self) -> str:
        return f"{self.numero:04d}/{self.ano}"


class Testemunha(Base):
    __tablename__ = "testemunha"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    nome: so.Mapped[str] = so.mapped_column(sa.String(200))
    documento: so.Mapped[str] = so.mapped_column(sa.String(60), default="")
    endereco: so.Mapped[str] = so.mapped_column(sa.String(300), default="")

    auto: so.Mapped[AutoInfracao] = so.relationship(back_populates="testemunhas")


class Anexo(Base):
    """Evidence or petition file, stored with its SHA-256 so any later alteration is detected."""

    __tablename__ = "anexo"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    representacao_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("representacao.id"), index=True)
    defesa_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("defesa.id"))
    recurso_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("recurso.id"))
    nome_arquivo: so.Mapped[str] = so.mapped_column(sa.String(255))
    tipo_mime: so.Mapped[str] = so.mapped_column(sa.String(100))
    tamanho: so.Mapped[int]
    sha256: so.Mapped[str] = so.mapped_column(sa.String(64))
    conteudo: so.Mapped[bytes] = so.mapped_column(sa.LargeBinary, deferred=True)
    anexado_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora)
    anexado_por: so.Mapped[str] = so.mapped_column(sa.String(60))


class Intimacao(Base):
    """Art. 11: one delivery attempt, of the auto, the decision, the appeal's judgment or the latest termo de
    revisão (`objeto`); failures are kept too."""

    __tablename__ = "intimacao"
    __table_args__ = (
        sa.CheckConstraint(check_em("objeto", ObjetoIntimacao), name="objeto_valido"),
        # The Painel's first delivered intimação of each auto, from the index alone (migration 0008).
        sa.Index("ix_intimacao_entregue", "auto_id", "objeto", "sucesso", "data"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    objeto: so.Mapped[str] = so.mapped_column(sa.String(10), default="auto")
    data: so.Mapped[date] = so.mapped_column(sa.Date, index=True)
    meio: so.Mapped[str] = so.mapped_column(sa.String(10))
    resultado: so.Mapped[str] = so.mapped_column(sa.String(20))
    sucesso: so.Mapped[bool]
    recebedor_nome: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    recebedor_documento: so.Mapped[str] = so.mapped_column(sa.String(60), default="")
    recibo: so.Mapped[str] = so.mapped_column(sa.String(120), default="")
    observacao: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    prazo: so.Mapped[date | None] = so.mapped_column(sa.Date, index=True)  # the monthly running deadlines
    registrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))
    registrado_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora)
    retificacao_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("retificacao.id"), index=True)
    """Set when what was delivered is a termo de retificação of the auto (objeto "auto"), not the auto."""

    auto: so.Mapped[AutoInfracao] = so.relationship(back_populates="intimacoes")


class Retificacao(Base):
    """REGRAS § 5: a numbered "termo de retificação" of an issued auto ("TR nº 0001/2026"), never overwriting.

    The auto's columns hold the corrected values; the termo keeps each item changed as it read before and
    after (display text, as printed) and whether the correction is of substance (the provision, the facts,
    the day or hour of the infraction: the defence deadline reopens from the termo's intimação) or formal.
    The program decides that from the fields changed; nobody chooses it. Immutable once drawn up.
    """

    __tablename__ = "retificacao"
    __table_args__ = (sa.UniqueConstraint("ano", "numero"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    ano: so.Mapped[int]
    numero: so.Mapped[int]
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    data: so.Mapped[date] = so.mapped_column(sa.Date)
    substancial: so.Mapped[bool]
    itens: so.Mapped[str] = so.mapped_column(sa.Text)
    """JSON list of {"campo", "rotulo", "de", "para"}: the items changed, old → new, as the termo prints them."""
    motivo: so.Mapped[str] = so.mapped_column(sa.Text)
    dispositivo_codigo: so.Mapped[str] = so.mapped_column(sa.ForeignKey("dispositivo.codigo"))
    tipo: so.Mapped[str] = so.mapped_column(sa.String(1))
    """The provision and tipo the auto cites once corrected by this termo (printed on it)."""
    proxima_penalidade: so.Mapped[str | None] = so.mapped_column(sa.Text)
    """Art. 10, V restated for the corrected provision and day (a correction of substance only)."""
    proxima_penalidade_anterior: so.Mapped[str | None] = so.mapped_column(sa.Text)
    """Art. 10, V as the auto printed it before this termo (a correction of substance only)."""
    prazo_defesa_anterior: so.Mapped[date | None] = so.mapped_column(sa.Date)
    """The defence deadline that was running when a correction of substance set it aside."""
    lavrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))
    lavrado_por_nome: so.Mapped[str] = so.mapped_column(sa.String(200))
    lavrado_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora)

    auto: so.Mapped[AutoInfracao] = so.relationship()

    @property
    def numero_formatado(self) -> str:
        return f"{self.numero:04d}/{self.ano}"


class RevisaoSancao(Base):
    """Lei 9.784/1999, art. 65 (REGRAS § 5): a decided case whose counted prior was later annulled or
    reduced waits for the Secretary's review, with the level and range it would have today. The Secretary
    revises the penalty into that range by a numbered "termo de revisão" ("TRV nº 0001/2026"; never
    raising it) or keeps it with reasons; either takes it off the list. A fine already paid beyond the
    revised amount is recorded as to be refunded (`valor_restituir`)."""

    __tablename__ = "revisao_sancao"
    __table_args__ = (
        sa.UniqueConstraint("ano", "numero"),
        sa.Index("ix_revisao_sancao_situacao", "situacao", "auto_id"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    antecedente_auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"))
    origem: so.Mapped[str] = so.mapped_column(sa.Text)
    """Why the case is under review, in words: the prior and what annulled or reduced it."""
    registrada_em: so.Mapped[date] = so.mapped_column(sa.Date)
    reincidencia_anterior: so.Mapped[int]
    reincidencia_atual: so.Mapped[int]
    faixa_min_ur: so.Mapped[Decimal] = so.mapped_column(URM_QTD)
    faixa_max_ur: so.Mapped[Decimal] = so.mapped_column(URM_QTD)
    suspensao_max_dias: so.Mapped[int | None]
    """The longest suspension the case would allow today (None: none allowed)."""
    situacao: so.Mapped[str] = so.mapped_column(sa.String(10), default="pendente")
    """"pendente", "revisada" (termo de revisão) or "mantida" (kept, with reasons)."""
    decidida_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    decidida_por: so.Mapped[str | None] = so.mapped_column(sa.String(60))
    decidida_por_nome: so.Mapped[str | None] = so.mapped_column(sa.String(200))
    fundamentacao: so.Mapped[str | None] = so.mapped_column(sa.Text)
    multa_ur_anterior: so.Mapped[Decimal | None] = so.mapped_column(URM_QTD)
    multa_ur_nova: so.Mapped[Decimal | None] = so.mapped_column(URM_QTD)
    suspensao_dias_anterior: so.Mapped[int | None]
    suspensao_dias_nova: so.Mapped[int | None]
    valor_restituir: so.Mapped[Decimal | None] = so.mapped_column(REAIS)
    ano: so.Mapped[int | None]
    numero: so.Mapped[int | None]

    @property
    def numero_formatado(self) -> str:
        return f"{self.numero or 0:04d}/{self.ano or 0}"


class Defesa(Versionado, Base):
    """Art. 14: the defence petition, timely or not (an untimely one is still recorded, and marked)."""

    __tablename__ = "defesa"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    protocolada_em: so.Mapped[date] = so.mapped_column(sa.Date)
    tempestiva: so.Mapped[bool]
    requerente: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    texto: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    recibo: so.Mapped[str] = so.mapped_column(sa.String(120), default="")
    registrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))


class RevisaoPrazo(Base):
    """A deadline moved later by a non-business day registered after it was counted (REGRAS § 4).

    One row per deadline moved: the case's timeline shows it with why, and a decided case whose petition
    changed class waits on the home screen until the Secretary has reviewed it (`conferida_em`).
    """

    __tablename__ = "revisao_prazo"
    __table_args__ = (
        sa.CheckConstraint(check_em("prazo", PrazoRevisado), name="prazo_valido"),
        sa.Index("ix_revisao_prazo_conferir", "reclassificou", "decidido", "conferida_em"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    data: so.Mapped[date] = so.mapped_column(sa.Date)
    prazo: so.Mapped[str] = so.mapped_column(sa.String(10))
    anterior: so.Mapped[date] = so.mapped_column(sa.Date)
    novo: so.Mapped[date] = so.mapped_column(sa.Date)
    motivo: so.Mapped[str] = so.mapped_column(sa.Text)
    reclassificacao: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    reclassificou: so.Mapped[bool] = so.mapped_column(default=False)
    decidido: so.Mapped[bool] = so.mapped_column(default=False)
    registrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))
    registrado_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora)
    conferida_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    conferida_por: so.Mapped[str | None] = so.mapped_column(sa.String(60))


class Proposta(Base):
    """Art. 13: the competent authority proposes the penalty (or dismissal)."""

    __tablename__ = "proposta"
    __table_args__ = (sa.CheckConstraint(check_em("acao", AcaoProposta), name="acao_valida"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    data: so.Mapped[date] = so.mapped_column(sa.Date)
    acao: so.Mapped[str] = so.mapped_column(sa.String(10))
    multa_ur: so.Mapped[Decimal] = so.mapped_column(URM_QTD, default=Decimal(0))
    suspensao_dias: so.Mapped[int] = so.mapped_column(default=0)
    fundamentacao: so.Mapped[str] = so.mapped_column(sa.Text)
    autoridade: so.Mapped[str] = so.mapped_column(sa.String(60))
    registrada_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora)


class Decisao(Versionado, Base):
    """Art. 13: the Secretary applies the penalty inside the § 3 range, or dismisses the auto."""

    __tablename__ = "decisao"
    __table_args__ = (
        sa.CheckConstraint(check_em("resultado", ResultadoDecisao), name="resultado_valido"),
        # By day, with what the Painel's fines decided and decisions within the limit read (migration 0011):
        # the wide decision rows (their reasoning) are not read for a count or a sum.
        sa.Index("ix_decisao_painel", "data", "resultado", "multa_reais", "auto_id"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), unique=True)
    data: so.Mapped[date] = so.mapped_column(sa.Date)
    resultado: so.Mapped[str] = so.mapped_column(sa.String(10))
    multa_ur: so.Mapped[Decimal] = so.mapped_column(URM_QTD, default=Decimal(0))
    valor_urm: so.Mapped[Decimal | None] = so.mapped_column(VALOR_URM)
    multa_reais: so.Mapped[Decimal] = so.mapped_column(REAIS, default=Decimal(0))
    suspensao_dias: so.Mapped[int] = so.mapped_column(default=0)
    reincidencia: so.Mapped[int] = so.mapped_column(default=0)
    faixa_min_ur: so.Mapped[Decimal | None] = so.mapped_column(URM_QTD)
    faixa_max_ur: so.Mapped[Decimal | None] = so.mapped_column(URM_QTD)
    fundamentacao: so.Mapped[str] = so.mapped_column(sa.Text)
    fundamentos_legais: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    secretario: so.Mapped[str] = so.mapped_column(sa.String(60))
    """The login of the user who decided."""
    secretario_nome: so.Mapped[str | None] = so.mapped_column(sa.String(200))
    """The Secretary who decided, as the notice signs it (the letterhead's name then); None before 0003."""
    secretario_cargo: so.Mapped[str | None] = so.mapped_column(sa.String(200))
    defesa_intempestiva: so.Mapped[bool] = so.mapped_column(default=False)

    auto: so.Mapped[AutoInfracao] = so.relationship()


class Recurso(Versionado, Base):
    """Art. 15: the appeal to the Prefeito and its outcome (one per decision)."""

    __tablename__ = "recurso"
    __table_args__ = (
        sa.CheckConstraint(check_em("resultado", ResultadoRecurso), name="resultado_valido"),
        # The Painel's appeals per month of filing, timely or late (migration 0011).
        sa.Index("ix_recurso_protocolado", "protocolado_em", "tempestivo", "decisao_id"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    decisao_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("decisao.id"), unique=True)
    protocolado_em: so.Mapped[date] = so.mapped_column(sa.Date)
    tempestivo: so.Mapped[bool]
    razoes: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    registrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))
    resultado: so.Mapped[str] = so.mapped_column(sa.String(25), default="pendente", index=True)
    julgado_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    multa_ur_nova: so.Mapped[Decimal | None] = so.mapped_column(URM_QTD)
    suspensao_dias_nova: so.Mapped[int | None]
    fundamentacao_julgamento: so.Mapped[str | None] = so.mapped_column(sa.Text)

    decisao: so.Mapped[Decisao] = so.relationship()


class Pagamento(Versionado, Base):
    """The fine's payment status: open, paid on a day, or sent to the municipal debt roll; "cancelado" when
    an appeal annulled the penalty before it was paid."""

    __tablename__ = "pagamento"
    __table_args__ = (
        sa.CheckConstraint(check_em("situacao", SituacaoPagamento), name="situacao_valida"),
        # The queue of unpaid final fines reads the open ones' decision and amount from the index alone.
        sa.Index("ix_pagamento_situacao", "situacao", "decisao_id", "valor"),
        # The Painel's amounts paid and inscribed per month: partial (migration 0011), so that the queue's
        # `situacao = 'aberto'` can never be read through them.
        sa.Index(
            "ix_pagamento_pago",
            "pago_em",
            "valor_pago",
            "valor",
            sqlite_where=sa.text("situacao = 'pago'"),
            postgresql_where=sa.text("situacao = 'pago'"),
        ),
        sa.Index(
            "ix_pagamento_divida_ativa",
            "inscrito_divida_em",
            "valor",
            sqlite_where=sa.text("situacao = 'divida_ativa'"),
            postgresql_where=sa.text("situacao = 'divida_ativa'"),
        ),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    decisao_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("decisao.id"), unique=True)
    situacao: so.Mapped[str] = so.mapped_column(sa.String(15), default="aberto")
    valor: so.Mapped[Decimal] = so.mapped_column(REAIS)
    pago_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    valor_pago: so.Mapped[Decimal | None] = so.mapped_column(REAIS)
    guia: so.Mapped[str] = so.mapped_column(sa.String(60), default="")
    inscrito_divida_em: so.Mapped[date | None] = so.mapped_column(sa.Date)

    decisao: so.Mapped[Decisao] = so.relationship()


class Cumprimento(Versionado, Base):
    """Art. 8º: paying does not free the operator from the duty; who checked that it complied, and when."""

    __tablename__ = "cumprimento"
    __table_args__ = (sa.CheckConstraint(check_em("situacao", SituacaoCumprimento), name="situacao_valida"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    auto_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), unique=True)
    situacao: so.Mapped[str] = so.mapped_column(sa.String(15), default="pendente")
    verificado_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    verificado_por: so.Mapped[str | None] = so.mapped_column(sa.String(60))
    observacao: so.Mapped[str] = so.mapped_column(sa.Text, default="")


class Suspensao(Versionado, Base):
    """A final suspension being served: the operator is "suspensa" from `inicio` to `fim` (inclusive)."""

    __tablename__ = "suspensao"
    # "Suspended on a day": inicio <= day <= fim. Led by `fim`, the index reaches only the suspensions not yet
    # over (few), where one led by `inicio` would read the whole history.
    __table_args__ = (sa.Index("ix_suspensao_periodo", "fim", "inicio"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"), index=True)
    decisao_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("decisao.id"), unique=True)
    inicio: so.Mapped[date] = so.mapped_column(sa.Date)
    dias: so.Mapped[int]
    fim: so.Mapped[date] = so.mapped_column(sa.Date)
    anulada: so.Mapped[bool] = so.mapped_column(default=False)

    operadora: so.Mapped[Operadora] = so.relationship()


class Cassacao(Versionado, Base):
    """Art. 16: revocation of a permission for a relevant, proven reason, with full defence."""

    __tablename__ = "cassacao"
    __table_args__ = (
        sa.CheckConstraint(check_em("situacao", SituacaoCassacao), name="situacao_valida"),
        sa.CheckConstraint(check_em("resultado", ResultadoCassacao, nulo=True), name="resultado_valido"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"), index=True)
    instaurada_em: so.Mapped[date] = so.mapped_column(sa.Date)
    motivo: so.Mapped[str] = so.mapped_column(sa.Text)
    situacao: so.Mapped[str] = so.mapped_column(sa.String(12), default="instaurada")
    resultado: so.Mapped[str | None] = so.mapped_column(sa.String(10))
    decidida_em: so.Mapped[date | None] = so.mapped_column(sa.Date)
    fundamentacao: so.Mapped[str | None] = so.mapped_column(sa.Text)

    operadora: so.Mapped[Operadora] = so.relationship()
    atos: so.Mapped[list[CassacaoAto]] = so.relationship(
        order_by="CassacaoAto.id", cascade="all, delete-orphan"
    )


class CassacaoAto(Base):
    __tablename__ = "cassacao_ato"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    cassacao_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("cassacao.id"), index=True)
    data: so.Mapped[date] = so.mapped_column(sa.Date)
    tipo: so.Mapped[str] = so.mapped_column(sa.String(30))
    descricao: so.Mapped[str] = so.mapped_column(sa.Text)
    registrado_por: so.Mapped[str] = so.mapped_column(sa.String(60))


class DocumentoEmitido(Base):
    """An issued PDF, kept byte for byte with its SHA-256: re-printing gives the same bytes."""

    __tablename__ = "documento_emitido"
    __table_args__ = (sa.Index("ix_documento_referencia", "tipo", "referencia"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    tipo: so.Mapped[str] = so.mapped_column(sa.String(20))
    referencia: so.Mapped[str] = so.mapped_column(sa.String(60))
    auto_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("auto_infracao.id"), index=True)
    operadora_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("operadora.id"))
    nome_arquivo: so.Mapped[str] = so.mapped_column(sa.String(200))
    sha256: so.Mapped[str] = so.mapped_column(sa.String(64))
    conteudo: so.Mapped[bytes] = so.mapped_column(sa.LargeBinary, deferred=True)
    emitido_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora)
    emitido_por: so.Mapped[str] = so.mapped_column(sa.String(60))
    sha256_original: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    """A signed document: the SHA-256 of its unsigned rendering (a signature is never the same bytes twice,
    so issuing the document again finds its signed copy by this)."""
    assinado_por: so.Mapped[str | None] = so.mapped_column(sa.String(200))
    """The signer's name as on the certificate; None for a document issued without a digital signature."""
    certificado: so.Mapped[str | None] = so.mapped_column(sa.String(300))
    """The signing certificate: serial number and issuer."""
    versao_de_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("documento_emitido.id"))
    """The unsigned copy this signed version was made from (that copy is kept, never replaced)."""


__all__ = [
    "FASES_AUTO",
    "MEIOS_INTIMACAO",
    "RESULTADOS_INTIMACAO",
    "RESULTADOS_RECURSO",
    "SITUACOES_CUMPRIMENTO",
    "SITUACOES_PAGAMENTO",
    "Anexo",
    "AutoInfracao",
    "Cassacao",
    "CassacaoAto",
    "Cumprimento",
    "Decisao",
    "Defesa",
    "DocumentoEmitido",
    "Intimacao",
    "Pagamento",
    "Proposta",
    "Recurso",
    "Representacao",
    "Retificacao",
    "RevisaoPrazo",
    "RevisaoSancao",
    "Suspensao",
    "Testemunha",
]
