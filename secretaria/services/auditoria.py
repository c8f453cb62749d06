"""The audit log: one row per act, in the act's own transaction, chained by SHA-256.

Each row carries the previous row's hash, so a row changed or removed behind the program's back breaks
the chain at that point (`verificar_cadeia`). Writers are serialized while they append: SQLite already is
(BEGIN IMMEDIATE). On PostgreSQL the database itself appends the row (`secretaria_auditar`, migration 0019:
numbered, chained and timed by the server under a transaction-scoped advisory lock), so no role a PC uses
needs, or has, the right to insert into the audit table.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.lei.formato import formatar_decimal
from secretaria.models import Auditoria, Base, Usuario, UsuarioPapel
from secretaria.services import notificacao as notificacao  # its listeners tell other PCs of these rows
from secretaria.services import papeis_servidor
from secretaria.services.base import ROTULOS_PAPEIS, Assinante, Ator, SessaoEncerrada
from secretaria.services.notificacao import anotar_auditado

HASH_INICIAL = "0" * 64
ENTIDADE_ACESSO = "acesso"
"""The entity of the login rows (entries, exits, refusals, lockouts): events of a session, never an image
of a record, so the verification's comparison of records with their audit leaves them alone."""
_CHAVE_CONFERIDO = "secretaria_ator_conferido"
_MAX_ENTRADAS_LEMBRADAS = 256
_entradas_registradas: dict[str, None] = {}
"""Tokens of delayed logins seen recorded (committed) in the audit, oldest first: their sessions stop
looking. Only the latest `_MAX_ENTRADAS_LEMBRADAS` (a process sees a few sessions a day): a session whose
token was forgotten looks its row up once more and finds it, never writes it twice."""
_trava_entradas = threading.Lock()


COLUNAS_FORA_DA_IMAGEM: dict[str, frozenset[str]] = {"usuario": frozenset({"senha_hash"})}
"""Columns no audit image ever holds: the password's scrypt hash (with its salt) would let whoever reads the
audit test password guesses offline. The image says only that the password changed (`marca_senha`)."""


def instantaneo(registro: Any, *, historico: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The record's column values as JSON-safe data (before/after images of the audit row). A vehicle's
    image carries its service history: `historico` when the caller read it already (`historicos_dos_veiculos`,
    for many vehicles in one query), else read here."""
    mapa = sa.inspect(registro).mapper
    tabela = mapa.local_table
    fora = (
        COLUNAS_FORA_DA_IMAGEM.get(tabela.name, frozenset()) if isinstance(tabela, sa.Table) else frozenset()
    )
    dados = {
        c.key: json_valor(getattr(registro, c.key))
        for c in mapa.column_attrs
        if not c.deferred and c.key not in fora
    }
    sessao = so.object_session(registro)
    if isinstance(tabela, sa.Table) and tabela.name == "veiculo" and sessao is not None:
        dados["historico"] = historico if historico is not None else historico_do_veiculo(sessao, registro.id)
    return dados


def historicos_dos_veiculos(
    sessao: so.Session, veiculo_ids: Sequence[int]
) -> dict[int, list[dict[str, Any]]]:
    """`historico_do_veiculo` of many vehicles in one query per thousand (an import's fleet)."""
    sessao.flush()
    h = Base.metadata.tables["veiculo_historico"]
    linhas: dict[int, list[Any]] = {i: [] for i in veiculo_ids}
    ids = list(linhas)
    for inicio in range(0, len(ids), 1000):
        consulta = (
            sa.select(h).where(h.c.veiculo_id.in_(ids[inicio : inicio + 1000])).order_by(h.c.inicio, h.c.id)
        )
        for periodo in sessao.execute(consulta).mappings():
            linhas[periodo["veiculo_id"]].append(periodo)
    return {i: imagem_historico(periodos) for i, periodos in linhas.items()}


def historico_do_veiculo(sessao: so.Session, veiculo_id: int | None) -> list[dict[str, Any]]:
    """The vehicle's service history as its image carries it (pending periods flushed first)."""
    if veiculo_id is None:
        return []
    sessao.flush()  # a Core select does not autoflush: the period just added must be in the image
    h = Base.metadata.tables["veiculo_historico"]
    periodos = sessao.execute(
        sa.select(h).where(h.c.veiculo_id == veiculo_id).order_by(h.c.inicio, h.c.id)
    ).mappings()
    return imagem_historico(periodos)


def json_valor(valor: Any) -> Any:
    """One column value as the audit image holds it (also what the verification compares against)."""
    if isinstance(valor, Decimal):
        return str(valor)
    if isinstance(valor, datetime | date | time):
        return valor.isoformat()
    if isinstance(valor, bytes):
        return hashlib.sha256(valor).hexdigest()
    return valor


def marca_senha(senha_versao: int) -> str:
    """What the audit image of an account keeps of its password: only that it was set, and how many times.
    Nothing derived from the hash (a digest of it would confirm a guess to whoever also has the salt)."""
    return f"alterada nº {senha_versao}"


def extras_usuario(papeis: Iterable[str], senha_versao: int) -> dict[str, Any]:
    """The parts of an account's image that are not its own columns: its roles and password marker."""
    return {"papeis": sorted(papeis), "senha": marca_senha(senha_versao)}


def imagem_testemunhas(testemunhas: Iterable[Any]) -> list[dict[str, Any]]:
    """An auto's witnesses as its image carries them: each one whole (name, document and address), in the
    order they were recorded, so a witness's document or address changed directly is compared too."""
    return [
        {"nome": t.nome, "documento": t.documento or "", "endereco": t.endereco or ""} for t in testemunhas
    ]


def imagem_historico(periodos: Iterable[Any]) -> list[dict[str, Any]]:
    """A vehicle's service history as its image carries it (every period, oldest first): written beside
    the vehicle by the registry acts, compared with the vehicle."""
    return [
        {
            "operadora_id": p["operadora_id"],
            "linha_id": p["linha_id"],
            "inicio": json_valor(p["inicio"]),
            "fim": json_valor(p["fim"]),
            "registrado_por": p["registrado_por"],
        }
        for p in periodos
    ]


def _calcular_hash(linha: dict[str, Any]) -> str:
    conteudo = json.dumps(linha, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # surrogatepass: a text no database can store reaches the row's INSERT, which refuses it as
    # `db.TextoInvalido`, instead of failing here as a raw UnicodeEncodeError (such a row is never stored).
    return hashlib.sha256(conteudo.encode("utf-8", "surrogatepass")).hexdigest()


def _campos(reg: Auditoria | sa.Row[Any]) -> dict[str, Any]:
    campos = _campos_sem_chave(reg)
    assinatura = getattr(reg, "assinatura", None)  # absent from copies older than revision 0018
    if assinatura is not None:
        # The signing key's number is part of what the hash covers: a signature removed (every row
        # "anterior à assinatura") or moved to another key breaks the row's hash, and so the chain.
        campos["chave"] = str(assinatura).partition(":")[0]
    return campos


def _campos_sem_chave(reg: Auditoria | sa.Row[Any]) -> dict[str, Any]:
    return {
        "id": reg.id,
        "momento": reg.momento.isoformat(),
        "usuario_login": reg.usuario_login,
        "acao": reg.acao,
        "entidade": reg.entidade,
        "entidade_id": reg.entidade_id,
        "antes": reg.antes,
        "depois": reg.depois,
        "hash_anterior": reg.hash_anterior,
    }


def conferir_ator(sessao: so.Session, ator: Ator, *, recusar: bool = True) -> None:
    """Re-read the account of a logged-in actor inside the act's transaction, once per transaction, and
    refuse (`SessaoEncerrada`) when it is inactive, locked, or lacks a role the actor claims.

    `registrar` calls this for every audited act, so a change the administrator makes takes effect at the
    user's next act, whatever the window still believes. The act's own role check ran against
    `ator.papeis`; requiring those roles to be a subset of the account's current ones makes that check
    hold against the current roles too (roles granted meanwhile wait for the next login). A service that
    changes the acting user's own account calls this first, so the check reads the account as it was.

    Actors without `usuario_id` (the system, the demo generator, tests' literal actors) are not accounts.
    With `recusar=False` (the session's exit, recorded whatever happened to the account) nothing is refused.
    """
    if ator.usuario_id is None:
        return
    transacao = sessao.get_transaction()
    conferido = sessao.info.get(_CHAVE_CONFERIDO)
    if transacao is not None and conferido == (transacao, ator.usuario_id):
        return
    linhas = _linhas_da_conta(sessao, ator.usuario_id)
    if recusar:
        motivo = _motivo_de_recusa(ator, linhas, _agora_do_bloqueio(sessao, linhas))
        if motivo is not None:
            raise SessaoEncerrada(motivo, login=ator.login, usuario_id=ator.usuario_id)
        sessao.info[_CHAVE_CONFERIDO] = (sessao.get_transaction(), ator.usuario_id)
    if ator.entrada_pendente is not None and ator.sessao is not None:
        _registrar_entrada_adiada(sessao, ator, ator.sessao, ator.entrada_pendente)


def sessao_encerrada(sessao: so.Session, ator: Ator) -> SessaoEncerrada | None:
    """The refusal the actor's next act would meet (account inactive, locked, a role taken away), or None
    while the session still holds. Only reads: the live refresh asks it when another PC changed this
    user's account, so the window goes back to the login at once instead of at the next act."""
    if ator.usuario_id is None:
        return None
    linhas = _linhas_da_conta(sessao, ator.usuario_id)
    motivo = _motivo_de_recusa(ator, linhas, _agora_do_bloqueio(sessao, linhas))
    if motivo is None:
        return None
    return SessaoEncerrada(motivo, login=ator.login, usuario_id=ator.usuario_id)


def _linhas_da_conta(sessao: so.Session, usuario_id: int) -> Sequence[sa.Row[Any]]:
    return sessao.execute(
        sa.select(Usuario.ativo, Usuario.bloqueado_ate, UsuarioPapel.papel)
        .outerjoin(UsuarioPapel, UsuarioPapel.usuario_id == Usuario.id)
        .where(Usuario.id == usuario_id)
    ).all()


def _agora_do_bloqueio(sessao: so.Session, linhas: Sequence[sa.Row[Any]]) -> datetime:
    """The clock a lockout is judged by: where the server counts failures and sets the lockout with its own
    clock (accounts as roles: `papeis_servidor`), the server's; else the program's (which set it). Asked
    only of a locked account."""
    if linhas and linhas[0].bloqueado_ate is not None and papeis_servidor.contas_no_servidor(sessao):
        agora_servidor = sessao.scalar(sa.select(sa.cast(sa.func.clock_timestamp(), sa.DateTime)))
        if isinstance(agora_servidor, datetime):
            return agora_servidor
    return relogio.agora()


def _motivo_de_recusa(ator: Ator, linhas: Sequence[sa.Row[Any]], agora: datetime) -> str | None:
    if not linhas or not linhas[0].ativo:
        return (
            "Seu acesso foi alterado pelo administrador: sua conta foi desativada. Nada foi gravado. "
            "Entre de novo com uma conta ativa."
        )
    bloqueado_ate = linhas[0].bloqueado_ate
    if bloqueado_ate is not None and bloqueado_ate > agora:
        return (
            f"Sua conta foi bloqueada até {bloqueado_ate:%H:%M} por excesso de tentativas de senha. "
            "Nada foi gravado. Entre de novo depois desse horário, ou peça ao administrador que a desbloqueie."
        )
    atuais = {linha.papel for linha in linhas if linha.papel is not None}
    retirados = sorted(ator.papeis - atuais)
    if retirados:
        nomes = ", ".join(ROTULOS_PAPEIS.get(p, p) for p in retirados)
        plural = "os papéis" if len(retirados) > 1 else "o papel"
        return (
            f"Seu acesso foi alterado pelo administrador: você não tem mais {plural} {nomes}. "
            "Nada foi gravado. Entre de novo."
        )
    return None


def _registrar_entrada_adiada(sessao: so.Session, ator: Ator, token: str, momento: datetime) -> None:
    """The login that could not be recorded when it happened (the database was busy): its row and the
    account's last access, written by the session's first audited act. Looked up by its token until seen
    committed, so a rolled-back act leaves it to the next one and it is never written twice."""
    if token in _entradas_registradas:
        return
    ja = sessao.scalar(
        sa.select(Auditoria.id)
        .where(
            Auditoria.entidade == ENTIDADE_ACESSO,
            Auditoria.entidade_id == token,
            Auditoria.acao == "entrada",
        )
        .limit(1)
    )
    if ja is not None:
        _lembrar_entrada(token)
        return
    assert ator.usuario_id is not None
    tabela = Base.metadata.tables["usuario"]
    sessao.execute(
        sa.update(tabela)
        .where(
            tabela.c.id == ator.usuario_id,
            sa.or_(tabela.c.ultimo_acesso.is_(None), tabela.c.ultimo_acesso < momento),
        )
        .values(ultimo_acesso=momento, alterado_em=tabela.c.alterado_em)
    )
    _anexar(
        sessao,
        ator.login,
        "entrada",
        ENTIDADE_ACESSO,
        token,
        None,
        {"usuario_id": ator.usuario_id, "entrada_em": momento.isoformat(), "registro": "adiado"},
        ator.chave,
    )


def _lembrar_entrada(token: str) -> None:
    with _trava_entradas:
        _entradas_registradas[token] = None
        while len(_entradas_registradas) > _MAX_ENTRADAS_LEMBRADAS:
            del _entradas_registradas[next(iter(_entradas_registradas))]


def registrar(
    sessao: so.Session,
    ator: Ator,
    acao: str,
    entidade: str,
    entidade_id: object,
    antes: dict[str, Any] | None = None,
    depois: dict[str, Any] | None = None,
    *,
    conferir: bool = True,
) -> Auditoria:
    """Append the audit row of an act to the current transaction (flushes pending changes first).

    A logged-in actor's account is re-read first (`conferir_ator`): the act is refused, and rolled back
    with its transaction, when the administrator deactivated the account or took a role away meanwhile.
    """
    sessao.flush()
    conferir_ator(sessao, ator, recusar=conferir)
    return _anexar(sessao, ator.login, acao, entidade, entidade_id, antes, depois, ator.chave)


_AUDITAR_PG = sa.text(
    "SELECT secretaria_auditar(CAST(:login AS text), CAST(:momento AS timestamp), CAST(:acao AS text), "
    "CAST(:entidade AS text), CAST(:entidade_id AS text), CAST(:antes AS text), CAST(:depois AS text))"
)


Ato = tuple[str, str, object, dict[str, Any] | None, dict[str, Any] | None]
"""One act's audit: (acao, entidade, entidade_id, antes, depois)."""


def _parametros_pg(login: str, momento: datetime, ato: Ato) -> dict[str, Any]:
    acao, entidade, entidade_id, antes, depois = ato
    return {
        "login": login,
        "momento": momento,
        "acao": acao,
        "entidade": entidade,
        "entidade_id": None if entidade_id is None else str(entidade_id),
        "antes": None if antes is None else json.dumps(antes, sort_keys=True, ensure_ascii=False),
        "depois": None if depois is None else json.dumps(depois, sort_keys=True, ensure_ascii=False),
    }


def _anexar(
    sessao: so.Session,
    login: str,
    acao: str,
    entidade: str,
    entidade_id: object,
    antes: dict[str, Any] | None,
    depois: dict[str, Any] | None,
    chave: Assinante | None = None,
) -> Auditoria:
    if sessao.get_bind().dialect.name == "postgresql":
        # The row is numbered, chained and inserted by the database (`secretaria_auditar`, migration 0019),
        # the only way a role a PC uses may add one; for those roles the server sets the moment (its own
        # clock) and, for a user's own role, the login. The owner's and a superuser's keep the program's.
        novo = sessao.scalar(
            _AUDITAR_PG, _parametros_pg(login, relogio.agora(), (acao, entidade, entidade_id, antes, depois))
        )
        gravado = sessao.get(Auditoria, novo)
        assert gravado is not None
        anotar_auditado(sessao, gravado.id, gravado.entidade, gravado.entidade_id, gravado.usuario_login)
        return gravado
    ultimo = sessao.execute(
        sa.select(Auditoria.id, Auditoria.hash).order_by(Auditoria.id.desc()).limit(1)
    ).first()
    reg = Auditoria(
        id=(ultimo.id + 1) if ultimo else 1,
        momento=relogio.agora(),
        usuario_login=login,
        acao=acao,
        entidade=entidade,
        entidade_id=None if entidade_id is None else str(entidade_id),
        antes=None if antes is None else json.dumps(antes, sort_keys=True, ensure_ascii=False),
        depois=None if depois is None else json.dumps(depois, sort_keys=True, ensure_ascii=False),
        hash_anterior=ultimo.hash if ultimo else HASH_INICIAL,
        hash="",
    )
    chave = chave if sessao.get_bind().dialect.name == "sqlite" else None
    campos = _campos_sem_chave(reg)
    if chave is not None:
        campos["chave"] = str(chave.chave_id)
    reg.hash = _calcular_hash(campos)
    reg.assinatura = None if chave is None else chave.assinar(reg.hash)
    sessao.add(reg)
    sessao.flush()
    return reg


def registrar_lote(
    sessao: so.Session,
    ator: Ator,
    atos: Sequence[Ato],
) -> int:
    """Append many audit rows at once (acao, entidade, entidade_id, antes, depois): the chain computed in
    memory, one bulk insert. For generators writing thousands of records in one transaction (the demo). On
    PostgreSQL the database appends each (`secretaria_auditar`, one batched call per row)."""
    if not atos:
        return 0
    sessao.flush()
    conferir_ator(sessao, ator)
    if sessao.get_bind().dialect.name == "postgresql":
        momento = relogio.agora()
        sessao.execute(_AUDITAR_PG, [_parametros_pg(ator.login, momento, ato) for ato in atos])
        return len(atos)
    ultimo = sessao.execute(
        sa.select(Auditoria.id, Auditoria.hash).order_by(Auditoria.id.desc()).limit(1)
    ).first()
    proximo, anterior = ((ultimo.id + 1), ultimo.hash) if ultimo else (1, HASH_INICIAL)
    momento = relogio.agora()
    # On SQLite each row is signed by the actor's key (`services.chaves`), its number hashed with the row.
    chave = ator.chave if sessao.get_bind().dialect.name == "sqlite" else None
    linhas = []
    for acao, entidade, entidade_id, antes, depois in atos:
        linha = {
            "id": proximo,
            "momento": momento.isoformat(),
            "usuario_login": ator.login,
            "acao": acao,
            "entidade": entidade,
            "entidade_id": None if entidade_id is None else str(entidade_id),
            "antes": None if antes is None else json.dumps(antes, sort_keys=True, ensure_ascii=False),
            "depois": None if depois is None else json.dumps(depois, sort_keys=True, ensure_ascii=False),
            "hash_anterior": anterior,
        }
        if chave is not None:
            linha["chave"] = str(chave.chave_id)
        anterior = _calcular_hash(linha)
        linha.pop("chave", None)
        linha["hash"] = anterior
        linha["assinatura"] = None if chave is None else chave.assinar(anterior)
        linha["momento"] = momento
        linhas.append(linha)
        proximo += 1
    sessao.execute(sa.insert(Auditoria), linhas)
    return len(linhas)


@dataclass(frozen=True)
class ResultadoVerificacao:
    linhas: int
    primeiro_erro_id: int | None
    mensagem: str
    # The last row's id and hash when the chain is whole: noted down outside the database (paper, e-mail),
    # they let a later check also notice rows removed from the end, which a chain alone cannot.
    ultimo_id: int | None = None
    ultimo_hash: str | None = None

    @property
    def integra(self) -> bool:
        return self.primeiro_erro_id is None


def verificar_cadeia(sessao: so.Session, lote: int = 5000) -> ResultadoVerificacao:
    """Walk the chain in id order and name the first row whose link or content does not match."""
    anterior_hash = HASH_INICIAL
    anterior_id = 0
    contadas = 0
    # The columns the file has: a copy older than revision 0018 (checked before a restore) has no signatures.
    presentes = {c["name"] for c in sa.inspect(sessao.connection()).get_columns("auditoria")}
    # The table's columns, not the ORM's attributes: rows come back as Core rows, without the ORM's
    # per-row loading; in the order `_hash_da_linha` reads them.
    t = Auditoria.__table__.c
    colunas: list[Any] = [
        t.id,
        t.momento,
        t.usuario_login,
        t.acao,
        t.entidade,
        t.entidade_id,
        t.antes,
        t.depois,
        t.hash_anterior,
        t.hash,
        t.assinatura if "assinatura" in presentes else sa.null().label("assinatura"),
    ]
    while True:
        try:
            regs = sessao.execute(
                sa.select(*colunas).where(t.id > anterior_id).order_by(t.id).limit(lote)
            ).all()
        except (ValueError, TypeError, sa.exc.StatementError):
            # A value no longer readable as what the program wrote (e.g. a date typed in by hand).
            return ResultadoVerificacao(
                contadas,
                anterior_id + 1,
                f"Registro de auditoria após o nº {anterior_id}: conteúdo ilegível, alterado fora do programa.",
            )
        if not regs:
            break
        for reg in regs:
            reg_id, hash_anterior, hash_ = reg[0], reg[8], reg[9]
            if reg_id != anterior_id + 1:
                return ResultadoVerificacao(
                    contadas, anterior_id + 1, f"Registro de auditoria nº {anterior_id + 1} está faltando."
                )
            if hash_anterior != anterior_hash:
                return ResultadoVerificacao(
                    contadas,
                    reg_id,
                    f"Registro de auditoria nº {reg_id}: elo com o registro anterior rompido.",
                )
            if _hash_da_linha(reg) != hash_:
                return ResultadoVerificacao(
                    contadas, reg_id, f"Registro de auditoria nº {reg_id}: conteúdo alterado após a gravação."
                )
            anterior_hash, anterior_id = hash_, reg_id
            contadas += 1
        sessao.expunge_all()
    return ResultadoVerificacao(
        contadas,
        None,
        f"Cadeia de auditoria íntegra: {formatar_decimal(contadas, 0)} registros verificados.",
        anterior_id or None,
        anterior_hash if contadas else None,
    )


_texto_json = json.encoder.encode_basestring
"""A text as `json.dumps(..., ensure_ascii=False)` writes it (the same function it calls)."""
_TEXTO_OU_NADA = frozenset({str, type(None)})


def _hash_da_linha(reg: sa.Row[Any]) -> str:
    """`_calcular_hash(_campos(reg))` of a row read by `verificar_cadeia`, the canonical JSON written
    directly: its keys in sorted order, texts by the encoder `json.dumps` itself uses, ints by `int.__repr__`.
    Byte for byte the same text; any value of another type (a row changed by hand: a number in a text
    column, a flag as the id) takes the general path, which is the definition."""
    id_, momento, login, acao, entidade, entidade_id, antes, depois, hash_anterior, _hash, assinatura = reg
    if (
        type(id_) is not int
        or type(acao) is not str
        or type(entidade) is not str
        or type(hash_anterior) is not str
        or type(login) not in _TEXTO_OU_NADA
        or type(entidade_id) not in _TEXTO_OU_NADA
        or type(antes) not in _TEXTO_OU_NADA
        or type(depois) not in _TEXTO_OU_NADA
        or type(momento) is not datetime
    ):
        return _calcular_hash(_campos(reg))
    texto = _texto_json
    chave = ""
    if assinatura is not None:
        chave = ',"chave":' + texto(str(assinatura).partition(":")[0])
    conteudo = (
        f'{{"acao":{texto(acao)},"antes":{"null" if antes is None else texto(antes)}{chave},'
        f'"depois":{"null" if depois is None else texto(depois)},"entidade":{texto(entidade)},'
        f'"entidade_id":{"null" if entidade_id is None else texto(entidade_id)},'
        f'"hash_anterior":{texto(hash_anterior)},"id":{int.__repr__(id_)},'
        f'"momento":{texto(momento.isoformat())},'
        f'"usuario_login":{"null" if login is None else texto(login)}}}'
    )
    return hashlib.sha256(conteudo.encode("utf-8", "surrogatepass")).hexdigest()
