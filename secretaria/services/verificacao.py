"""The whole check behind `secretaria auditoria verificar`: the chain, and the records against the chain.

A hash chain alone proves only that the audit rows were not changed one by one: whoever holds the database
can re-chain everything, empty the audit, or leave it alone and edit the business tables instead. So the
check also
- compares every audited record with the last image its audit rows wrote (`depois`, merged over the
  record's rows so that a partial image adds to the earlier ones): a record edited, inserted or deleted
  behind the program's back is named with the field;
- requires an audit row for every record (an empty or shortened audit on a database with records fails);
- requires the append-only protection (the triggers of migrations 0002 and 0003) to be in place;
- requires the author of each act's audit row to have held, at that row, a role the act requires
  (`papeis_das_acoes`): a decision written by a fiscal's account is named with its row;
- checks every issued document's bytes against its SHA-256 (and that SHA-256 against the audit);
- checks anchors: a (number, hash) noted outside the computer (`--ancora N:HASH`) and every "termo de
  verificação" ever issued, which the program records in the audit itself. A rewritten and re-chained
  audit still has to match the hashes printed on the signed terms.

Everything is streamed in batches of keys, never a whole table in memory.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.codigos import ROTULOS_PAPEIS
from secretaria.db import Banco
from secretaria.lei.catalogo import dispositivos
from secretaria.models import Auditoria, Base, DadosOrgao, Usuario, UsuarioPapel
from secretaria.services import auditoria
from secretaria.services.anexos import verificar_anexos
from secretaria.services.assinatura_atos import conferir_assinaturas, impressoes_ativas
from secretaria.services.auditoria import ENTIDADE_ACESSO, ResultadoVerificacao, verificar_cadeia
from secretaria.services.base import Ator, ErroDominio, exigir_papel
from secretaria.services.chaves import usa_assinatura

Progresso = Callable[[int, int, str], None]

ACAO_TERMO = "termo_verificacao"
ENTIDADE_TERMO = "termo_auditoria"
# Findings listed one by one per kind; beyond that only counted (a wholesale tampering lists thousands).
LIMITE_POR_TIPO = 20


@dataclass(frozen=True)
class _Tabela:
    nome: str
    rotulo: str  # with its article: "a decisão", "o auto de infração"
    chave: str = "id"


# Every table whose records the acts audit one by one. Not here, and why:
# - usuario_papel and testemunha: part of their parent's image ("papeis" of usuario, "testemunhas" of
#   auto_infracao, each witness whole), compared there;
# - veiculo_historico: part of the vehicle's image ("historico"), compared there;
# - numeracao and configuracao: compared on their own (`_conferir_numeracao`: each counter against the
#   numbers its records hold; `_conferir_configuracao`: each setting against the audit's images by key);
#   alembic_version.
TABELAS: tuple[_Tabela, ...] = (
    _Tabela("usuario", "o usuário"),
    _Tabela("valor_urm", "o valor da URM"),
    _Tabela("dia_nao_util", "o dia não útil"),
    _Tabela("dispositivo", "o dispositivo", "codigo"),
    _Tabela("dados_orgao", "os dados do órgão"),
    _Tabela("operadora", "a operadora"),
    _Tabela("linha", "a linha"),
    _Tabela("veiculo", "o veículo"),
    _Tabela("empregado", "o empregado"),
    _Tabela("fiscal", "o fiscal"),
    _Tabela("representacao", "a representação"),
    _Tabela("auto_infracao", "o auto de infração"),
    _Tabela("anexo", "o anexo"),
    _Tabela("intimacao", "a intimação"),
    _Tabela("defesa", "a defesa"),
    _Tabela("proposta", "a proposta"),
    _Tabela("decisao", "a decisão"),
    _Tabela("recurso", "o recurso"),
    _Tabela("pagamento", "o pagamento"),
    _Tabela("cumprimento", "o cumprimento"),
    _Tabela("suspensao", "a suspensão"),
    _Tabela("cassacao", "a cassação"),
    _Tabela("cassacao_ato", "o ato da cassação"),
    _Tabela("documento_emitido", "o documento emitido"),
    _Tabela("retificacao", "o termo de retificação"),
    _Tabela("revisao_prazo", "a revisão de prazo"),
)

# Image keys never compared, per table, and why:
# - usuario.bloqueado_ate, falhas_login, ultimo_acesso: written by logins, which are not acts on the record
#   (a login must not wait for the record's version nor conflict with the administrator editing it); each
#   login leaves its own audit row instead (entity "acesso": entrada, falha_entrada, bloqueio), and these
#   columns grant nothing (the last access is shown, failures only lock the account).
# - documento_emitido.tamanho: the byte count beside the image; the SHA-256 of the bytes is checked instead.
_IGNORADAS: dict[str, frozenset[str]] = {
    "usuario": frozenset({"bloqueado_ate", "falhas_login", "ultimo_acesso"}),
    "documento_emitido": frozenset({"tamanho"}),
}


def imagem_da_linha(tabela: sa.Table, linha: sa.RowMapping) -> dict[str, Any]:
    """The audit image of a row read with Core: the same keys and values `auditoria.instantaneo` gives for
    the ORM object (binary content excluded: it is deferred in the models and checked by its SHA-256)."""
    converter = auditoria.json_valor
    return {nome: converter(linha[nome]) for nome in _colunas_da_imagem(tabela)}


_SIMPLES = frozenset({int, str, bool, float, type(None)})
"""Types `auditoria.json_valor` returns as they are."""
_DATAS = frozenset({datetime, date, time})
"""Types `auditoria.json_valor` writes in ISO format (what it does with a Decimal is written out too)."""


@dataclass(frozen=True)
class _Leitor:
    """How one table's rows, read as plain tuples of `_colunas_da_imagem`, become images: the same result as
    `imagem_da_linha`, with `auditoria.json_valor` applied only where a value can need it (a date, an
    amount) instead of to every value; a row holding anything else where a plain value belongs (a blob
    written by hand into a text column) takes `json_valor` on every value."""

    nomes: tuple[str, ...]
    convertidas: tuple[tuple[str, int], ...]
    simples: Callable[[Sequence[Any]], Any]

    def imagem(self, linha: Sequence[Any]) -> dict[str, Any]:
        if not _SIMPLES.issuperset(map(type, self.simples(linha))):
            converter = auditoria.json_valor
            return {nome: converter(valor) for nome, valor in zip(self.nomes, linha, strict=True)}
        imagem = dict(zip(self.nomes, linha, strict=True))
        for nome, i in self.convertidas:
            valor = linha[i]
            tipo = type(valor)
            if tipo in _DATAS:
                imagem[nome] = valor.isoformat()
            elif tipo is Decimal:
                imagem[nome] = str(valor)
            elif valor is not None:
                imagem[nome] = auditoria.json_valor(valor)
        return imagem


_TIPOS_CONVERTIDOS = (sa.Numeric, sa.Date, sa.DateTime, sa.Time, sa.Interval)


@functools.cache
def _leitor(tabela: sa.Table) -> _Leitor:
    nomes = _colunas_da_imagem(tabela)
    convertidas = tuple(
        (nome, i) for i, nome in enumerate(nomes) if isinstance(tabela.c[nome].type, _TIPOS_CONVERTIDOS)
    )
    indices = [i for i, nome in enumerate(nomes) if (nome, i) not in convertidas]
    # itemgetter of one index gives the value itself, not a tuple of one
    simples: Callable[[Sequence[Any]], Any] = (
        operator.itemgetter(*indices) if len(indices) > 1 else functools.partial(_valores, indices)
    )
    return _Leitor(nomes, convertidas, simples)


def _valores(indices: list[int], linha: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(linha[i] for i in indices)


@functools.cache
def _colunas_da_imagem(tabela: sa.Table) -> tuple[str, ...]:
    fora = auditoria.COLUNAS_FORA_DA_IMAGEM.get(tabela.name, frozenset())
    return tuple(
        c.name for c in tabela.columns if not isinstance(c.type, sa.LargeBinary) and c.name not in fora
    )


@dataclass
class RelatorioVerificacao:
    """Everything `verificar` found. `integro` only when the chain is whole and nothing else was found."""

    cadeia: ResultadoVerificacao
    achados: list[str] = field(default_factory=list)
    contagem_achados: dict[str, int] = field(default_factory=dict)
    registros: int = 0
    documentos: int = 0
    anexos: int = 0
    ancoras: int = 0
    protecao: str = ""
    assinaturas: str = ""
    """SQLite: how many rows their authors signed, how many precede the signing (`assinatura_atos`)."""

    @property
    def integro(self) -> bool:
        return self.cadeia.integra and not self.contagem_achados

    def apontar(self, tipo: str, mensagem: str) -> None:
        n = self.contagem_achados.get(tipo, 0) + 1
        self.contagem_achados[tipo] = n
        if n <= LIMITE_POR_TIPO:
            self.achados.append(mensagem)
        elif n == LIMITE_POR_TIPO + 1:
            self.achados.append(f"(mais problemas do tipo “{tipo}” são apenas contados)")

    @property
    def resumo_excedentes(self) -> list[str]:
        return [f"{tipo}: {n} no total" for tipo, n in self.contagem_achados.items() if n > LIMITE_POR_TIPO]


def verificar_tudo(
    sessao: so.Session,
    ancoras: Sequence[tuple[int, str]] = (),
    *,
    lote: int = 1000,
    progresso: Progresso | None = None,
) -> RelatorioVerificacao:
    """The chain, the protection, the anchors (given and recorded terms), the records and the documents;
    `progresso(feitas, total, etapa)` before each step (reads only: it may raise to stop)."""
    total = len(TABELAS) + 3

    def etapa(feitas: int, texto: str) -> None:
        if progresso is not None:
            progresso(feitas, total, texto)

    etapa(0, "Conferindo a cadeia de auditoria…")
    relatorio = RelatorioVerificacao(verificar_cadeia(sessao))
    sessao.expunge_all()
    _conferir_protecao(sessao, relatorio)
    _conferir_tempo(sessao, relatorio)
    _conferir_papeis(sessao, relatorio)
    resumo = conferir_assinaturas(sessao, relatorio.apontar)
    relatorio.assinaturas = "" if resumo is None else resumo.texto()
    _conferir_ancoras(sessao, relatorio, ancoras)
    for feitas, tabela in enumerate(TABELAS, start=1):
        etapa(feitas, f"Conferindo os registros ({feitas} de {len(TABELAS)} tabelas)…")
        _conferir_tabela(sessao, relatorio, tabela, lote)
        sessao.expunge_all()
    _conferir_configuracao(sessao, relatorio)
    _conferir_numeracao(sessao, relatorio)
    etapa(total - 2, "Conferindo os documentos emitidos…")
    _conferir_documentos(sessao, relatorio)
    sessao.expunge_all()
    etapa(total - 1, "Conferindo os anexos…")
    for anexo in verificar_anexos(sessao):
        relatorio.anexos += 1
        if not anexo.integro:
            relatorio.apontar(
                "anexo alterado",
                f"O anexo nº {anexo.anexo_id} ({anexo.nome_arquivo}) foi alterado depois de anexado: "
                f"{anexo.motivo}.",
            )
    return relatorio


@dataclass(frozen=True)
class TermoEmitido:
    numero: int
    ultimo_id: int
    ultimo_hash: str
    registros: int
    pdf: bytes


def emitir_termo(banco: Banco, ator: Ator, *, progresso: Progresso | None = None) -> TermoEmitido:
    """Verify everything, then record a "termo de verificação" in the audit and render its PDF
    (`progresso` is called during the verification only: raising there stops with nothing written).

    Refused unless the audit is whole: a term must never vouch for a tampered database. The anchor is the
    last row the verification read (rows appended meanwhile are covered by the next term).
    """
    from secretaria.reports.termo_auditoria import DadosTermoAuditoria, TermoAuditoriaPdf
    from secretaria.services.documentos import timbre

    exigir_papel(ator, "administrador", "secretario", acao="emitir o termo de verificação da auditoria")
    with banco.leitura() as sessao:
        relatorio = verificar_tudo(sessao, progresso=progresso)
    if not relatorio.integro or relatorio.cadeia.ultimo_id is None or relatorio.cadeia.ultimo_hash is None:
        motivo = (
            relatorio.cadeia.mensagem if not relatorio.cadeia.integra else "; ".join(relatorio.achados[:3])
        )
        raise ErroDominio(
            "O termo de verificação não pode ser emitido: a auditoria não está íntegra "
            f"({motivo or 'nenhum registro de auditoria'}). Nada foi gravado."
        )
    ultimo_id, ultimo_hash = relatorio.cadeia.ultimo_id, relatorio.cadeia.ultimo_hash
    with banco.uow() as uow:
        s = uow.session
        numero = len(termos_registrados(s)) + 1
        momento = relogio.agora()
        auditoria.registrar(
            s,
            ator,
            ACAO_TERMO,
            ENTIDADE_TERMO,
            numero,
            None,
            {
                "ultimo_id": ultimo_id,
                "ultimo_hash": ultimo_hash,
                "registros": relatorio.cadeia.linhas,
                "emitido_em": momento.isoformat(),
            },
        )
        dados = DadosTermoAuditoria(
            timbre=timbre(s),
            numero_termo=numero,
            emitido_em=momento,
            emitido_por=f"{ator.nome} ({ator.login})",
            registros=relatorio.cadeia.linhas,
            ultimo_id=ultimo_id,
            ultimo_hash=ultimo_hash,
            registros_conferidos=relatorio.registros,
            anexos=relatorio.anexos,
            documentos=relatorio.documentos,
            ancoras=relatorio.ancoras,
            chaves=tuple((i.login, i.nome, i.impressao, i.certificacao) for i in impressoes_ativas(s)),
        )
        uow.commit()
    return TermoEmitido(
        numero, ultimo_id, ultimo_hash, relatorio.cadeia.linhas, TermoAuditoriaPdf().render(dados)
    )


# --- protection ---------------------------------------------------------------------------------------------

_SO_INCLUSOES = (
    "A auditoria só aceita inclusões: registros de auditoria não podem ser alterados nem apagados."
)
_SEM_TRUNCATE = "A auditoria só aceita inclusões: a tabela de auditoria não pode ser esvaziada (TRUNCATE)."
_RECUSA_PG = "RAISE EXCEPTION '{}' USING ERRCODE = 'insufficient_privilege';"

# The protection as migrations 0002 and 0005 create it, in full: a trigger kept under its name with its body
# replaced (a no-op, a RAISE that never runs) protects nothing, so the definition is compared, not the name.
GATILHOS_SQLITE: dict[str, str] = {
    nome: f"CREATE TRIGGER {nome} BEFORE {evento} ON auditoria BEGIN SELECT RAISE(ABORT, '{_SO_INCLUSOES}'); END"
    for nome, evento in (("auditoria_sem_alteracao", "UPDATE"), ("auditoria_sem_exclusao", "DELETE"))
}
GATILHOS_PG: dict[str, tuple[str, str]] = {
    "auditoria_somente_insercao": (
        "CREATE TRIGGER auditoria_somente_insercao BEFORE DELETE OR UPDATE ON auditoria FOR EACH ROW "
        "EXECUTE FUNCTION auditoria_somente_insercao()",
        f"BEGIN {_RECUSA_PG.format(_SO_INCLUSOES)} END;",
    ),
    "auditoria_sem_truncate": (
        "CREATE TRIGGER auditoria_sem_truncate BEFORE TRUNCATE ON auditoria FOR EACH STATEMENT "
        "EXECUTE FUNCTION auditoria_sem_truncate()",
        f"BEGIN {_RECUSA_PG.format(_SEM_TRUNCATE)} END;",
    ),
}


def _normalizar(sql: str | None) -> str:
    """A definition compared word by word: spacing and the schema's name are not part of what it does."""
    return " ".join((sql or "").replace("public.", "").split())


def _gatilhos_atuais(sessao: so.Session) -> dict[str, tuple[str, bool]]:
    """Each trigger on the audit table: (its full definition, whether it is enabled). On PostgreSQL the
    definition is the trigger's and its function's body together, plus the function's language."""
    if sessao.get_bind().dialect.name == "sqlite":
        return {
            nome: (_normalizar(sql), True)
            for nome, sql in sessao.execute(
                sa.text(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'auditoria'"
                )
            )
        }
    linhas = sessao.execute(
        sa.text(
            "SELECT t.tgname, pg_get_triggerdef(t.oid), p.prosrc, l.lanname, p.prosecdef, t.tgenabled "
            "FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_language l ON l.oid = p.prolang "
            "WHERE t.tgrelid = 'auditoria'::regclass AND NOT t.tgisinternal"
        )
    ).all()
    return {
        nome: (
            f"{_normalizar(gatilho)} | {lingua} {'definer' if definer else ''} | {_normalizar(corpo)}",
            ativo != "D",
        )
        for nome, gatilho, corpo, lingua, definer, ativo in linhas
    }


def _gatilhos_esperados(sessao: so.Session) -> dict[str, str]:
    if sessao.get_bind().dialect.name == "sqlite":
        return {nome: _normalizar(sql) for nome, sql in GATILHOS_SQLITE.items()}
    return {nome: f"{_normalizar(g)} | plpgsql  | {_normalizar(c)}" for nome, (g, c) in GATILHOS_PG.items()}


def _conferir_protecao(sessao: so.Session, relatorio: RelatorioVerificacao) -> None:
    presentes = _gatilhos_atuais(sessao)
    problemas = 0
    for nome, esperado in _gatilhos_esperados(sessao).items():
        if nome not in presentes:
            relatorio.apontar(
                "proteção",
                f"A proteção da auditoria foi removida: o gatilho {nome}, que impede alterar ou apagar "
                "registros de auditoria, não existe no banco.",
            )
        elif presentes[nome][0] != esperado:
            relatorio.apontar(
                "proteção",
                f"A proteção da auditoria foi alterada: o gatilho {nome} existe, mas a sua definição não é a "
                f"que o programa criou (hoje: {_mostrar(presentes[nome][0])}).",
            )
        elif not presentes[nome][1]:
            relatorio.apontar(
                "proteção", f"A proteção da auditoria foi desligada: o gatilho {nome} está desativado."
            )
        else:
            continue
        problemas += 1
    if not problemas:
        relatorio.protecao = "gatilhos de somente inclusão presentes, ativos e com a definição original"


_AUD = Auditoria.__table__.c
"""The audit table's columns: the long reads below select them rather than the ORM's attributes, so their rows
come back as Core rows, without the ORM's per-row loading."""


# --- time ---------------------------------------------------------------------------------------------------

TOLERANCIA_RELOGIO = timedelta(minutes=5)
"""How far an audit moment may fall behind the latest before it: PCs whose clocks differ by seconds or a
few minutes (PostgreSQL, several writers) are normal; a clock set back further dates acts falsely."""


def _conferir_tempo(sessao: so.Session, relatorio: RelatorioVerificacao) -> None:
    for _reg_id, mensagem in atrasos_de_relogio(sessao):
        relatorio.apontar("relógio", mensagem)


def atrasos_de_relogio(sessao: so.Session, desde: int = 0) -> Iterator[tuple[int, str]]:
    """Audit moments come from the acting PC's clock: one set back makes acts (an auto, a decision) look
    older than they are. Rows are numbered in the order they were written, so a moment earlier than an
    earlier row's (beyond the tolerance) is such a clock: (the row's number, what to say of it), for the
    rows after number `desde` (the latest moment up to it read through the index)."""
    maior: tuple[int, datetime] | None = None
    if desde:
        linha = sessao.execute(
            sa.select(_AUD.id, _AUD.momento)
            .where(_AUD.id <= desde)
            .order_by(_AUD.momento.desc(), _AUD.id)
            .limit(1)
        ).first()
        if linha is not None and isinstance(linha.momento, datetime):
            maior = (int(linha.id), linha.momento)
    for reg_id, momento in sessao.execute(
        sa.select(_AUD.id, _AUD.momento)
        .where(_AUD.id > desde)
        .order_by(_AUD.id)
        .execution_options(yield_per=5000)
    ):
        if not isinstance(momento, datetime):
            continue
        if maior is not None and momento < maior[1] - TOLERANCIA_RELOGIO:
            yield (
                int(reg_id),
                f"Registro de auditoria nº {reg_id}: gravado com o momento {momento:%d/%m/%Y %H:%M}, anterior "
                f"ao do registro nº {maior[0]} ({maior[1]:%d/%m/%Y %H:%M}): o relógio do computador estava "
                "atrasado, e os atos desse momento podem estar com data errada.",
            )
        if maior is None or momento > maior[1]:
            maior = (int(reg_id), momento)


# --- roles ---------------------------------------------------------------------------------------------------

_ADMINISTRADOR = ("administrador",)
_OUTRAS_ACOES: dict[str, tuple[str, ...]] = {
    "lavrar_auto": ("fiscal",),
    "autuar_representacao": ("fiscal",),
    "manter_sancao": ("secretario",),
    "instaurar_cassacao": ("autoridade", "secretario"),
    "registrar_ato_cassacao": ("protocolo", "autoridade", "secretario"),
    "decidir_cassacao": ("secretario",),
    "receber_representacao": ("fiscal",),
    "arquivar_representacao": ("autoridade", "secretario"),
    "anexar_prova_representacao": ("fiscal",),
    "criar_usuario": _ADMINISTRADOR,
    "editar_usuario": _ADMINISTRADOR,
    "redefinir_senha": _ADMINISTRADOR,
    "ativar_usuario": _ADMINISTRADOR,
    "desativar_usuario": _ADMINISTRADOR,
    "desbloquear_usuario": _ADMINISTRADOR,
}
"""The acts outside the case screen's list (`caso.PAPEIS_DOS_ATOS`), by their audit action: the roles of
their services' `exigir_papel`."""


@functools.cache
def papeis_das_acoes() -> dict[str, tuple[str, ...]]:
    """Audit action → the roles one of which its author's account must hold: the case screen's acts (whose
    keys are the audit's action names, the intimations all one action, "registrar_intimacao") and the
    others. Actions an act writes on another's behalf (a review flagged, deadlines recomputed) are not
    here."""
    from secretaria.services.caso import PAPEIS_DOS_ATOS

    acoes = {
        ato: papeis for ato, papeis in PAPEIS_DOS_ATOS.items() if not ato.startswith("registrar_intimacao_")
    }
    acoes["registrar_intimacao"] = PAPEIS_DOS_ATOS["registrar_intimacao_auto"]
    return {**acoes, **_OUTRAS_ACOES}


def _conferir_papeis(sessao: so.Session, relatorio: RelatorioVerificacao) -> None:
    for _reg_id, mensagem in atos_sem_papel(sessao):
        relatorio.apontar("papel do autor", mensagem)


def atos_sem_papel(sessao: so.Session) -> Iterator[tuple[int, str]]:
    """(row, what to say) for each act's audit row whose author's account held none of the roles the act
    requires at that row. An account's roles at a row are those of the last image of the account the audit
    wrote before it (the account's creation or edit; for an account creating or editing itself, that row's
    image counts too, so the first administrator's creation passes); an account no image names yet has its
    current roles. Authors that are no account (the system, the demo generator) are not acts of a user:
    elsewhere the signatures (SQLite) or the server (PostgreSQL) say who wrote a row."""
    exigidos_por_acao = papeis_das_acoes()
    atuais: dict[str, set[str]] = {}
    for login, papel in sessao.execute(
        sa.select(Usuario.login, UsuarioPapel.papel).outerjoin(
            UsuarioPapel, UsuarioPapel.usuario_id == Usuario.id
        )
    ):
        atuais.setdefault(login, set())
        if papel is not None:
            atuais[login].add(papel)
    imagens: dict[str, set[str]] = {}
    consulta = (
        sa.select(
            _AUD.id,
            _AUD.acao,
            _AUD.entidade,
            _AUD.entidade_id,
            _AUD.usuario_login,
            sa.case((_AUD.entidade == "usuario", _AUD.depois), else_=None),
        )
        .where(sa.or_(_AUD.entidade == "usuario", _AUD.acao.in_(tuple(exigidos_por_acao))))
        .order_by(_AUD.id)
        .execution_options(yield_per=2000)
    )
    for reg_id, acao, entidade, entidade_id, login, depois in sessao.execute(consulta):
        proprio: set[str] = set()
        if entidade == "usuario":
            alvo, papeis = _papeis_da_imagem(depois)
            if alvo is not None:
                if alvo == login:
                    proprio = papeis
                antes = imagens.get(alvo)
                imagens[alvo] = papeis
                if alvo == login and antes is not None:
                    proprio = proprio | antes
        exigidos = exigidos_por_acao.get(acao)
        if exigidos is None or login is None or login not in atuais:
            continue
        tinha = proprio or imagens.get(login, atuais[login])
        if tinha.isdisjoint(exigidos):
            nomes = " ou ".join(ROTULOS_PAPEIS.get(p, p) for p in exigidos)
            papeis_tinha = ", ".join(sorted(ROTULOS_PAPEIS.get(p, p) for p in tinha)) or "nenhum"
            yield (
                int(reg_id),
                f"Registro de auditoria nº {reg_id}: “{acao}” ({entidade} nº {entidade_id}) gravado em nome de "
                f"{login}, que nesse momento não tinha o papel exigido ({nomes}; tinha: {papeis_tinha}). "
                "Um ato feito sem o papel não passou pelo programa.",
            )


def _papeis_da_imagem(depois: str | None) -> tuple[str | None, set[str]]:
    """(login, roles) of the account image a "usuario" audit row wrote (None when it carries no roles)."""
    try:
        imagem = json.loads(depois) if depois else None
    except ValueError:
        return None, set()
    if not isinstance(imagem, dict) or not isinstance(imagem.get("papeis"), list):
        return None, set()
    login = imagem.get("login")
    return (str(login) if login is not None else None), {str(p) for p in imagem["papeis"]}


def relogio_atrasado_na_entrada(sessao: so.Session, ator: Ator) -> list[str]:
    """The audit moments earlier than a row before them (a PC clock set back beyond TOLERANCIA_RELOGIO)
    among the rows written since the administrator's previous login — at a first login, since the account
    was created — as `auditoria verificar` words them. Empty for other roles, for a login without an account
    and on PostgreSQL (whose rows take the server's clock).

    Never the whole audit at login: on the 2,000,000-auto city a first login read its 15 million rows (minutes,
    the window frozen); the whole history is `auditoria verificar`'s."""
    if not ator.tem("administrador") or not usa_assinatura(sessao):
        return []
    entradas = sessao.scalars(
        sa.select(Auditoria.id)
        .where(
            Auditoria.entidade == ENTIDADE_ACESSO,
            Auditoria.acao == "entrada",
            Auditoria.usuario_login == ator.login,
        )
        # By the logins' index, then sorted: ordered by the key itself, SQLite walked the whole audit back
        # from its end looking for two logins of this user (15 million rows on the 2M city: minutes).
        .order_by((Auditoria.id + 0).desc())
        .limit(2)
    ).all()
    if len(entradas) > 1:
        desde = int(entradas[1])
    else:
        conta = sessao.scalar(sa.select(Usuario.id).where(Usuario.login == ator.login))
        if conta is None:
            return []
        criada = sessao.scalar(
            sa.select(sa.func.min(Auditoria.id)).where(
                Auditoria.entidade == "usuario", Auditoria.entidade_id == str(conta)
            )
        )
        desde = int(criada or 0)
    return [mensagem for _reg_id, mensagem in atrasos_de_relogio(sessao, desde)]


# --- anchors ------------------------------------------------------------------------------------------------


def termos_registrados(sessao: so.Session) -> list[tuple[int, int, str]]:
    """(audit row of the term, the number it anchors, its hash) of every term ever issued."""
    termos = []
    for reg_id, depois in sessao.execute(
        sa.select(Auditoria.id, Auditoria.depois)
        .where(Auditoria.entidade == ENTIDADE_TERMO, Auditoria.acao == ACAO_TERMO)
        .order_by(Auditoria.id)
    ):
        try:
            dados = json.loads(depois or "{}")
            termos.append((int(reg_id), int(dados["ultimo_id"]), str(dados["ultimo_hash"])))
        except (ValueError, KeyError, TypeError):
            termos.append((int(reg_id), 0, ""))
    return termos


def _conferir_ancoras(
    sessao: so.Session, relatorio: RelatorioVerificacao, ancoras: Sequence[tuple[int, str]]
) -> None:
    todas = [(f"a âncora informada nº {n}", n, h) for n, h in ancoras]
    todas += [
        (f"o termo de verificação registrado na auditoria nº {reg}", n, h)
        for reg, n, h in termos_registrados(sessao)
    ]
    for descricao, numero, esperado in todas:
        relatorio.ancoras += 1
        atual = sessao.scalar(sa.select(Auditoria.hash).where(Auditoria.id == numero)) if numero else None
        if atual is None:
            relatorio.apontar(
                "âncora",
                f"Registro de auditoria nº {numero} não existe mais, mas {descricao} o atesta: "
                "registros foram apagados.",
            )
        elif atual != esperado.strip().lower():
            relatorio.apontar(
                "âncora",
                f"Registro de auditoria nº {numero}: o hash no banco ({atual[:16]}…) difere do atestado por "
                f"{descricao} ({esperado[:16]}…): a auditoria foi reescrita até esse ponto.",
            )


# --- records ------------------------------------------------------------------------------------------------


def lotes_de_imagens(
    sessao: so.Session, nome: str, lote: int = 1000
) -> Iterator[list[tuple[Any, dict[str, Any]]]]:
    """The table's rows in key order, a batch at a time: (key, current image, children included). Read as
    plain tuples of the image's columns (binary content is not read: it is not part of the image)."""
    spec = next(t for t in TABELAS if t.nome == nome)
    tabela = Base.metadata.tables[nome]
    leitor = _leitor(tabela)
    coluna_chave = tabela.c[spec.chave]
    indice_chave = leitor.nomes.index(spec.chave)
    colunas = [tabela.c[n] for n in leitor.nomes]
    ultimo: Any = None
    while True:
        consulta = sa.select(*colunas).order_by(coluna_chave).limit(lote)
        if ultimo is not None:
            consulta = consulta.where(coluna_chave > ultimo)
        linhas = sessao.execute(consulta).tuples().all()
        if not linhas:
            return
        ultimo = linhas[-1][indice_chave]
        chaves = [linha[indice_chave] for linha in linhas]
        extras = _extras(sessao, nome, chaves)
        imagem = leitor.imagem
        if extras:
            lote_atual = []
            for chave, linha in zip(chaves, linhas, strict=True):
                atual = imagem(linha)
                atual.update(extras.get(chave, {}))
                lote_atual.append((chave, atual))
            yield lote_atual
        else:
            yield [(chave, imagem(linha)) for chave, linha in zip(chaves, linhas, strict=True)]


def _conferir_tabela(sessao: so.Session, relatorio: RelatorioVerificacao, spec: _Tabela, lote: int) -> None:
    tabela = Base.metadata.tables[spec.nome]
    ignoradas = _IGNORADAS.get(spec.nome, frozenset())
    base_lei = _base_dispositivos() if spec.nome == "dispositivo" else {}
    existentes: set[str] = set()
    for linhas in lotes_de_imagens(sessao, spec.nome, lote):
        chaves = [str(chave) for chave, _imagem in linhas]
        existentes.update(chaves)
        imagens = _imagens_auditadas(sessao, spec.nome, chaves)
        relatorio.registros += len(chaves)
        for (_chave, atual), chave in zip(linhas, chaves, strict=True):
            registrada = imagens.get(chave)
            esperada: dict[str, Any] | None = None
            origem = 0
            if spec.nome == "dispositivo" and atual["origem"] == "lei":
                esperada = dict(base_lei.get(chave, {}))
            elif spec.nome == "dados_orgao" and chave == "1":
                esperada = _dados_orgao_padrao()
            if registrada is not None:
                if esperada is None:
                    esperada, origem = registrada
                    # The usual case, every recorded value equal to the current one, in one step: the
                    # comparison below finds nothing where each recorded value is the current one.
                    if esperada.items() <= atual.items():
                        continue
                else:
                    esperada = {**esperada, **registrada[0]}
                    origem = registrada[1]
            if esperada is None:
                relatorio.apontar(
                    "registro sem auditoria",
                    f"{_nome(spec, atual)} não tem nenhum registro na auditoria: a inclusão foi feita "
                    "fora do programa (ou a auditoria foi apagada).",
                )
                continue
            for campo, valor in sorted(esperada.items()):
                if campo in ignoradas or campo not in atual or _marca_antiga(spec.nome, campo, valor):
                    continue
                if not _iguais(tabela, campo, _como_registrado(spec.nome, campo, atual[campo], valor), valor):
                    onde = f"registro de auditoria nº {origem}" if origem else "dados da lei"
                    relatorio.apontar(
                        "registro alterado",
                        f"{_nome(spec, atual)}: o campo {campo} é {_mostrar(atual[campo])} no banco, mas a "
                        f"auditoria registrou {_mostrar(valor)} ({onde}): alteração feita fora do programa.",
                    )
    _conferir_apagados(sessao, relatorio, spec, existentes)


def _como_registrado(tabela: str, campo: str, atual: Any, registrado: Any) -> Any:
    """The current value in the shape an older image recorded it: autos audited before whole witnesses
    were imaged kept their names only, compared as names until the auto's next audited act."""
    if (
        tabela == "auto_infracao"
        and campo == "testemunhas"
        and isinstance(registrado, list)
        and all(isinstance(t, str) for t in registrado)
        and isinstance(atual, list)
    ):
        return [t["nome"] if isinstance(t, dict) else t for t in atual]
    return atual


def _marca_antiga(tabela: str, campo: str, valor: Any) -> bool:
    """An account's password as images written before migration 0016 kept it: a SHA-256 of the stored hash
    (or, in the demo's images, the hash itself under "senha_hash", which the current image no longer has).
    Those rows stay as written (the audit is append-only); the password is compared again from the
    account's next audited act on, whose image carries the marker "alterada nº N"."""
    return tabela == "usuario" and campo == "senha" and not str(valor).startswith("alterada nº ")


_AUDITADAS = (
    sa.select(_AUD.id, _AUD.entidade_id, _AUD.antes.is_not(None), _AUD.depois)
    .where(
        _AUD.entidade == sa.bindparam("entidade"),
        _AUD.entidade_id.in_(sa.bindparam("chaves", expanding=True)),
    )
    .order_by(_AUD.id)
)
"""A batch's audit rows: the keys bound as one expanding list (not a literal each, coerced one by one)."""


def _imagens_auditadas(
    sessao: so.Session, entidade: str, chaves: list[str]
) -> dict[str, tuple[dict[str, Any], int]]:
    """Per key: the record's image merged over its audit rows in order (a deletion starts afresh), and the
    number of the last row that contributed. Keys whose last row is a deletion are absent."""
    imagens: dict[str, tuple[dict[str, Any], int]] = {}
    ler = json.loads
    for reg_id, chave, com_antes, depois in sessao.execute(
        _AUDITADAS, {"entidade": entidade, "chaves": chaves}
    ).all():
        if depois is None:
            if com_antes:  # a deletion: whatever comes after is a new record
                imagens.pop(chave, None)
            continue
        try:
            dados = ler(depois)
        except ValueError:
            continue
        if not isinstance(dados, dict):
            continue
        anterior = imagens.get(chave)
        imagens[chave] = (dados if anterior is None else {**anterior[0], **dados}, int(reg_id))
    return imagens


def _conferir_apagados(
    sessao: so.Session, relatorio: RelatorioVerificacao, spec: _Tabela, existentes: set[str]
) -> None:
    """Audited keys whose record is gone although no audit row deleted it."""
    ultimo_por_chave: dict[str, tuple[int, bool]] = {}
    for reg_id, chave, sem_antes, sem_depois in sessao.execute(
        sa.select(_AUD.id, _AUD.entidade_id, _AUD.antes.is_(None), _AUD.depois.is_(None))
        .where(_AUD.entidade == spec.nome, _AUD.entidade_id.is_not(None))
        .order_by(_AUD.id)
        .execution_options(yield_per=5000)
    ):
        if chave in existentes:
            continue
        if sem_depois and sem_antes:
            continue  # an event about the record (a lockout), not an image
        ultimo_por_chave[chave] = (int(reg_id), bool(sem_depois))
    for chave, (reg_id, excluido) in sorted(ultimo_por_chave.items()):
        if not excluido:
            relatorio.apontar(
                "registro apagado",
                f"{_maiuscula(spec.rotulo)} {chave} consta da auditoria (registro nº {reg_id}) mas não existe "
                "mais no banco, e a auditoria não registra sua exclusão: a exclusão foi feita fora do programa.",
            )


def _extras(sessao: so.Session, tabela: str, chaves: list[Any]) -> dict[Any, dict[str, Any]]:
    """The children a parent's image carries: an account's roles and password digest, an auto's witnesses."""
    if tabela == "usuario":
        papeis: dict[Any, list[str]] = {c: [] for c in chaves}
        t = Base.metadata.tables["usuario_papel"]
        for uid, papel in sessao.execute(
            sa.select(t.c.usuario_id, t.c.papel).where(t.c.usuario_id.in_(chaves))
        ):
            papeis[uid].append(papel)
        u = Base.metadata.tables["usuario"]
        versoes = {
            i: v for i, v in sessao.execute(sa.select(u.c.id, u.c.senha_versao).where(u.c.id.in_(chaves)))
        }
        return {c: auditoria.extras_usuario(papeis[c], versoes[c]) for c in chaves}
    if tabela == "auto_infracao":
        testemunhas: dict[Any, list[Any]] = {c: [] for c in chaves}
        t = Base.metadata.tables["testemunha"]
        for linha in sessao.execute(
            sa.select(t.c.auto_id, t.c.nome, t.c.documento, t.c.endereco)
            .where(t.c.auto_id.in_(chaves))
            .order_by(t.c.id)
        ):
            testemunhas[linha.auto_id].append(linha)
        return {c: {"testemunhas": auditoria.imagem_testemunhas(testemunhas[c])} for c in chaves}
    if tabela == "veiculo":
        historicos: dict[Any, list[Any]] = {c: [] for c in chaves}
        h = Base.metadata.tables["veiculo_historico"]
        for periodo in sessao.execute(
            sa.select(h).where(h.c.veiculo_id.in_(chaves)).order_by(h.c.veiculo_id, h.c.inicio, h.c.id)
        ).mappings():
            historicos[periodo["veiculo_id"]].append(periodo)
        return {c: {"historico": auditoria.imagem_historico(historicos[c])} for c in chaves}
    return {}


def _base_dispositivos() -> dict[str, dict[str, Any]]:
    """The law's provisions as the seed writes them (no audit row per provision: the law is their source)."""
    base = {}
    for d in dispositivos():
        base[d.codigo] = {
            "codigo": d.codigo,
            "origem": "lei",
            "artigo": d.artigo,
            "inciso": d.inciso,
            "rotulo": d.rotulo,
            "sujeito": str(d.sujeito),
            "natureza": str(d.natureza),
            "texto": d.texto,
            "nota": d.nota or None,
        }
        if d.tipo is not None:
            base[d.codigo]["tipo"] = d.tipo
    return base


def _dados_orgao_padrao() -> dict[str, Any]:
    """The letterhead row the seed creates (with the model's defaults) before any edit is audited."""
    padrao: dict[str, Any] = {}
    for coluna in DadosOrgao.__table__.columns:
        if coluna.default is not None and getattr(coluna.default, "is_scalar", False):
            padrao[coluna.name] = auditoria.json_valor(coluna.default.arg)
    padrao.pop("versao", None)
    return padrao


def _iguais(tabela: sa.Table, campo: str, atual: Any, registrado: Any) -> bool:
    if atual == registrado:
        return True
    coluna = tabela.c.get(campo)
    if (
        coluna is not None
        and isinstance(coluna.type, sa.Numeric)
        and atual is not None
        and registrado is not None
    ):
        # "5" written from memory, "5.00" read back from a NUMERIC(8,2): the same amount.
        try:
            return Decimal(str(atual)) == Decimal(str(registrado))
        except InvalidOperation:
            return False
    return False


def _nome(spec: _Tabela, linha: Mapping[str, Any]) -> str:
    if "numero" in linha and "ano" in linha and linha["numero"] is not None:
        return f"{_maiuscula(spec.rotulo)} {linha['numero']:04d}/{linha['ano']} (registro {linha['id']})"
    return f"{_maiuscula(spec.rotulo)} {linha[spec.chave]}"


def _maiuscula(texto: str) -> str:
    return texto[:1].upper() + texto[1:]


def _mostrar(valor: Any) -> str:
    if valor is None:
        return "vazio"
    texto = json.dumps(valor, ensure_ascii=False) if not isinstance(valor, str) else f"“{valor}”"
    return texto if len(texto) <= 80 else texto[:77] + "…”"


# --- settings and numbering -----------------------------------------------------------------------------------


def _configuracoes_auditadas(sessao: so.Session) -> dict[str, tuple[Any, int]]:
    """Per setting key: the value the audit last wrote and that row's number. Settings are imaged two ways:
    one key per row (entidade_id = the key, {"valor": …}) or several keys in one row ({key: value, …})."""
    valores: dict[str, tuple[Any, int]] = {}
    for reg_id, chave, depois in sessao.execute(
        sa.select(Auditoria.id, Auditoria.entidade_id, Auditoria.depois)
        .where(Auditoria.entidade == "configuracao")
        .order_by(Auditoria.id)
    ):
        try:
            dados = json.loads(depois or "null")
        except ValueError:
            continue
        if not isinstance(dados, dict):
            continue
        if chave is not None and "valor" in dados:
            valores[str(chave)] = (dados["valor"], int(reg_id))
        elif chave is None:
            valores.update({str(k): (v, int(reg_id)) for k, v in dados.items()})
    return valores


def _conferir_configuracao(sessao: so.Session, relatorio: RelatorioVerificacao) -> None:
    auditadas = _configuracoes_auditadas(sessao)
    tabela = Base.metadata.tables["configuracao"]
    atuais = {str(c): v for c, v in sessao.execute(sa.select(tabela.c.chave, tabela.c.valor))}
    for chave, valor in sorted(atuais.items()):
        relatorio.registros += 1
        if chave not in auditadas:
            relatorio.apontar(
                "registro sem auditoria",
                f"A configuração {chave} não tem nenhum registro na auditoria: foi gravada fora do programa.",
            )
        elif auditadas[chave][0] != valor:
            relatorio.apontar(
                "registro alterado",
                f"A configuração {chave} é {_mostrar(valor)} no banco, mas a auditoria registrou "
                f"{_mostrar(auditadas[chave][0])} (registro de auditoria nº {auditadas[chave][1]}): alteração "
                "feita fora do programa.",
            )
    for chave, (_valor, reg_id) in sorted(auditadas.items()):
        if chave not in atuais:
            relatorio.apontar(
                "registro apagado",
                f"A configuração {chave} consta da auditoria (registro nº {reg_id}) mas não existe mais no banco: "
                "a exclusão foi feita fora do programa.",
            )


_SERIES = {"AI": "auto_infracao", "REP": "representacao", "TR": "retificacao"}
"""Each numbering series and the table whose records carry its numbers (ano, numero)."""


def _conferir_numeracao(sessao: so.Session, relatorio: RelatorioVerificacao) -> None:
    """Each year's counter must stand at the highest number its records hold (numbers are taken by the act
    that saves the record, in its transaction, and imports raise the counter to their highest): a counter
    moved back would give an auto a number already used (or moved ahead, leave a gap in the sequence)."""
    numeracao = Base.metadata.tables["numeracao"]
    contadores = {
        (str(serie), int(ano)): int(ultimo) for serie, ano, ultimo in sessao.execute(sa.select(numeracao))
    }
    maiores: dict[tuple[str, int], int] = {}
    for serie, nome in _SERIES.items():
        t = Base.metadata.tables[nome]
        for ano, maior in sessao.execute(sa.select(t.c.ano, sa.func.max(t.c.numero)).group_by(t.c.ano)):
            maiores[(serie, int(ano))] = int(maior)
    for serie, ano in sorted(set(contadores) | set(maiores)):
        contador, maior = contadores.get((serie, ano), 0), maiores.get((serie, ano), 0)
        if serie in _SERIES and contador != maior:
            relatorio.apontar(
                "numeração alterada",
                f"A numeração {serie} de {ano} está em {contador} no banco, mas o maior número já dado nessa série "
                f"é {maior}: o contador foi alterado fora do programa.",
            )


# --- issued documents ---------------------------------------------------------------------------------------


def _conferir_documentos(sessao: so.Session, relatorio: RelatorioVerificacao) -> None:
    """Each issued PDF's bytes against its SHA-256 (the SHA-256 itself is compared with the audit above)."""
    tabela = Base.metadata.tables["documento_emitido"]
    for doc_id, sha, conteudo in _documentos(sessao, tabela):
        relatorio.documentos += 1
        calculado = hashlib.sha256(bytes(conteudo or b"")).hexdigest()
        if calculado != sha:
            relatorio.apontar(
                "documento alterado",
                f"O documento emitido nº {doc_id} foi alterado depois de emitido: o SHA-256 do conteúdo "
                f"({calculado[:16]}…) difere do registrado ({(sha or '')[:16]}…).",
            )


def _documentos(sessao: so.Session, tabela: sa.Table, lote: int = 20) -> Iterator[tuple[int, str, bytes]]:
    ultimo = 0
    while True:
        linhas = sessao.execute(
            sa.select(tabela.c.id, tabela.c.sha256, tabela.c.conteudo)
            .where(tabela.c.id > ultimo)
            .order_by(tabela.c.id)
            .limit(lote)
        ).all()
        if not linhas:
            return
        for doc_id, sha, conteudo in linhas:
            yield int(doc_id), str(sha), conteudo
        ultimo = linhas[-1][0]
