"""Accounts: slow salted password hashes, lockout after repeated failures, logins in the audit, and user
administration.

A login never waits for another writer nor conflicts with one: the password is checked in a read
transaction, and the outcome (the failure counter, the last access, the audit row) is recorded in a short
write transaction that waits at most `ESPERA_LOGIN` for the database's locks, with single UPDATE statements
and no version check (the administrator editing the account meanwhile is not disturbed either). When that
write cannot be made in time, a correct password still logs in and the session's first audited act records
the entry (`Ator.entrada_pendente`); any refusal says the database is busy, so no failure goes uncounted.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NoReturn, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import (
    BancoOcupado,
    TextoInvalido,
    UnidadeDeTrabalho,
    conectar_como,
    credenciais_do_servidor,
    texto_invalido,
)
from secretaria.models import Base, Usuario, UsuarioPapel
from secretaria.services import auditoria, chaves, papeis_servidor
from secretaria.services.auditoria import ENTIDADE_ACESSO
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    limpar_texto,
    mensagem_nao_encontrado,
    papeis_validos,
    texto_obrigatorio,
    verificar_versao,
)

FALHAS_PARA_BLOQUEIO = 5
DURACAO_BLOQUEIO = timedelta(minutes=15)
SENHA_MINIMA = 8
ESPERA_LOGIN = 1.5
"""Seconds a login waits for the database's locks to record its outcome (the default wait is 15 s)."""
TAMANHO_LOGIN = 60  # the column usuario.login, and the audit's usuario_login
MENSAGEM_INCORRETA = "Usuário ou senha incorretos."
MENSAGEM_OCUPADO = (
    "O banco de dados está ocupado por outro usuário neste momento e a tentativa de entrada não pôde ser "
    "registrada. Tente de novo em alguns segundos."
)
MENSAGEM_CHAVE_ALHEIA = (
    "Sua senha está correta, mas a sua chave de assinatura não abre com ela: a chave foi trocada fora do "
    "programa. Nada foi gravado. Peça ao administrador que redefina a sua senha (isso cria uma chave nova, "
    "certificada por ele) e que confira a auditoria."
)
_MENSAGEM_QUINTA_FALHA = f"Senha incorreta pela {FALHAS_PARA_BLOQUEIO}ª vez: conta bloqueada por 15 minutos."
T = TypeVar("T")
# scrypt cost: about 50 ms per check here, so a guessed password costs an attacker real time.
_N, _R, _P = 2**14, 8, 1


class FalhaLogin(ErroDominio):
    pass


def hash_senha(senha: str) -> str:
    sal = secrets.token_bytes(16)
    chave = hashlib.scrypt(_bytes(senha), salt=sal, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${sal.hex()}${chave.hex()}"


def _bytes(senha: str) -> bytes:
    """A password's bytes; a lone surrogate typed in a login is then only a wrong password (new passwords
    refuse it in `validar_senha`, the rule every stored text meets)."""
    return senha.encode("utf-8", "surrogatepass")


def _chave_scrypt(senha: str, parametros: str) -> str:
    """The scrypt key of `senha` with the parameters and salt of a stored hash ("scrypt$N$r$p$sal$…")."""
    try:
        esquema, n, r, p, sal = parametros.split("$")[:5]
        if esquema != "scrypt":
            return ""
        return hashlib.scrypt(
            _bytes(senha), salt=bytes.fromhex(sal), n=int(n), r=int(r), p=int(p), dklen=32
        ).hex()
    except ValueError:
        return ""


def senha_confere(senha: str, guardado: str) -> bool:
    try:
        esquema, n, r, p, sal, chave = guardado.split("$")
    except ValueError:
        return False
    if esquema != "scrypt":
        return False
    calculada = hashlib.scrypt(
        _bytes(senha), salt=bytes.fromhex(sal), n=int(n), r=int(r), p=int(p), dklen=len(chave) // 2
    )
    return hmac.compare_digest(calculada.hex(), chave)


@functools.cache
def _hash_ficticio() -> str:
    """A stored hash no password matches, computed once per process: refusals that have no account's hash
    to check (unknown, inactive or locked login) still run scrypt exactly once, like a wrong password."""
    return hash_senha(secrets.token_urlsafe(16))


def validar_senha(senha: str) -> None:
    """The minimum rule: 8 characters, with at least one letter and one digit."""
    if texto_invalido(senha):
        raise TextoInvalido("senha")
    if len(senha) < SENHA_MINIMA:
        raise ErroDominio(f"A senha deve ter pelo menos {SENHA_MINIMA} caracteres.", "senha")
    if not any(c.isalpha() for c in senha) or not any(c.isdigit() for c in senha):
        raise ErroDominio("A senha deve ter letras e números.", "senha")


@dataclass(frozen=True)
class _Conta:
    """What a login reads of an account, in its read transaction."""

    id: int
    login: str
    nome: str
    ativo: bool
    bloqueado_ate: datetime | None
    senha_hash: str
    papeis: frozenset[str]
    assina: bool = False
    """SQLite: the login unseals (or, the first time, makes) the account's signing key (`services.chaves`)."""
    chave: chaves.ChaveLida | None = None


def autenticar(uow: UnidadeDeTrabalho, login: str, senha: str, *, saindo: Ator | None = None) -> Ator:
    """Check a login and record its outcome in the audit; count failures and lock the account for 15
    minutes after the fifth. Waits for no other writer (see the module's docstring).

    `saindo`: "Trocar usuário" — the session still open, whose exit ("troca_usuario", `registrar_saida`) is
    recorded once the new password is accepted, before the new entry, by that session's own account (on a
    server whose accounts are roles, through its role: the server names the exit's author). A refused login
    records no exit: the session goes on."""
    # A lone surrogate cannot be in any stored login: the attempt is an unknown login, recorded with the
    # character replaced (the audit, like every stored text, refuses one: `db.TextoInvalido`).
    tentado = limpar_texto(login or "").encode("utf-8", "replace").decode("utf-8")[:TAMANHO_LOGIN]
    motor = _motor(uow)
    anteriores = credenciais_do_servidor(motor)
    try:
        entrada = _entrada_no_servidor(uow, motor, tentado)
        if entrada is not None:
            return _autenticar_no_servidor(uow, tentado, senha, entrada, saindo, anteriores)
    except FalhaLogin:
        if anteriores:  # "Trocar usuário" refused: the session still open keeps its own role
            conectar_como(motor, anteriores["user"], anteriores["password"])
        raise
    with uow.variante(leitura=True, espera=ESPERA_LOGIN) as leitura:
        conta = _ler_conta(leitura.session, tentado.lower())
    agora_ = relogio.agora()
    if conta is None or not conta.ativo:
        # The same message and the same work (one scrypt run, one audit row) as a wrong password.
        senha_confere(senha, _hash_ficticio())
        _registrar_recusa(uow, tentado, conta, "conta inexistente" if conta is None else "conta inativa")
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    if conta.bloqueado_ate is not None and conta.bloqueado_ate > agora_:
        senha_confere(senha, _hash_ficticio())  # as long as any other refusal
        _registrar_recusa(uow, tentado, conta, "conta bloqueada")
        raise FalhaLogin(_mensagem_bloqueada(conta.bloqueado_ate), "senha")
    if not _senha_da_conta_confere(uow, conta, senha):
        bloqueada_ate = _contar_falha(uow, conta, agora_)
        if bloqueada_ate is not None:
            raise FalhaLogin(_MENSAGEM_QUINTA_FALHA, "senha")
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    aberta, nova = _chave_da_entrada(uow, tentado, conta, senha)
    if saindo is not None:
        registrar_saida(uow, saindo, para=_ator_da_tentativa(conta.login))
    token = secrets.token_hex(16)
    try:
        entrou, aberta = _gravar_curto(
            uow, lambda s: _registrar_entrada(s, conta, token, agora_, aberta, nova, senha)
        )
    except BancoOcupado:
        # The password is right: the user enters, and the first act of the session records the entry
        # (signed when the key already existed; a key made now could not be stored, so none this session).
        return Ator(
            conta.login,
            conta.nome,
            conta.papeis,
            usuario_id=conta.id,
            sessao=token,
            entrada_pendente=agora_,
            chave=aberta,
        )
    if not entrou:  # deactivated or locked between the check and the record
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    return Ator(conta.login, conta.nome, conta.papeis, usuario_id=conta.id, sessao=token, chave=aberta)


def _chave_da_entrada(
    uow: UnidadeDeTrabalho, tentado: str, conta: _Conta, senha: str
) -> tuple[chaves.ChaveAberta | None, chaves.ChaveNova | None]:
    """The account's signing key opened by the correct password, or a new one to store with the entry
    (its first login since the upgrade); both outside any transaction (scrypt). A key the password does
    not open was put in the file from outside: the login is refused and recorded."""
    if not conta.assina:
        return None, None
    if conta.chave is None:
        return None, chaves.preparar(senha)
    aberta = chaves.abrir(conta.chave, conta.id, senha)
    if aberta is None:
        _registrar_recusa(uow, tentado, conta, "chave de assinatura alheia")
        raise FalhaLogin(MENSAGEM_CHAVE_ALHEIA, "senha")
    return aberta, None


def _motor(uow: UnidadeDeTrabalho) -> sa.Engine:
    with uow.variante(leitura=True) as leitura:
        motor = leitura.session.get_bind()
    assert isinstance(motor, sa.Engine)
    return motor


def _entrada_no_servidor(
    uow: UnidadeDeTrabalho, motor: sa.Engine, tentado: str
) -> papeis_servidor.Entrada | None:
    """PostgreSQL whose accounts are server roles (`papeis_servidor`): what the server lets this login do,
    asked as the pre-login role (a previous user's session gives its connections back first). None
    elsewhere: the program checks the password itself."""
    if motor.dialect.name != "postgresql":
        return None
    if credenciais_do_servidor(motor):
        conectar_como(motor, None)
    try:
        return _gravar_curto(uow, lambda s: papeis_servidor.consultar_entrada(s, tentado))
    except BancoOcupado:
        raise FalhaLogin(MENSAGEM_OCUPADO, "senha") from None


def _autenticar_no_servidor(
    uow: UnidadeDeTrabalho,
    tentado: str,
    senha: str,
    entrada: papeis_servidor.Entrada,
    saindo: Ator | None = None,
    anteriores: dict[str, str] | None = None,
) -> Ator:
    """The login on a server that keeps the passwords: the program connects as the account's own role with
    the typed password, and the server accepts or refuses it. Refusals of unknown, inactive and locked
    accounts were recorded by the server already; a wrong password is counted by it (`contar_falha`)."""
    if entrada.situacao in ("recusada", "bloqueada"):
        senha_confere(senha, _hash_ficticio())  # as long as any other refusal
        if entrada.situacao == "bloqueada" and entrada.bloqueado_ate is not None:
            raise FalhaLogin(_mensagem_bloqueada(entrada.bloqueado_ate), "senha")
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    papel = entrada.papel
    if entrada.situacao == "migrar":
        # Upgraded from before the server kept passwords: the old hash checks this first login once, by the
        # server (it compares the key derived here with the one only it can read).
        chave = _chave_scrypt(senha, entrada.hash_antigo or "")
        papel = _gravar_curto(uow, lambda s: papeis_servidor.migrar_conta(s, tentado, chave, senha))
        if papel is None or papel == papeis_servidor.BLOQUEADA:  # counted by the server already
            if papel is not None:
                raise FalhaLogin(_MENSAGEM_QUINTA_FALHA, "senha")
            raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    motor = _motor(uow)
    if papel is None or not conectar_como(motor, papel, senha):
        _falha_no_servidor(uow, tentado)
    if saindo is not None:
        _saida_antes_da_troca(uow, motor, saindo, anteriores or {}, tentado, papel, senha)
    # Every connection is now the user's own role: the entry is recorded as it always was.
    with uow.variante(leitura=True, espera=ESPERA_LOGIN) as leitura:
        conta = _ler_conta(leitura.session, tentado.lower())
    agora_ = relogio.agora()
    if conta is None:  # pragma: no cover - the server just let this account's role in
        conectar_como(motor, None)
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    token = secrets.token_hex(16)
    try:
        # the lockout was the server's to judge, by its clock: it just let the role in
        entrou, _ = _gravar_curto(
            uow, lambda s: _registrar_entrada(s, conta, token, agora_, None, None, senha, bloqueio=False)
        )
    except BancoOcupado:
        return Ator(
            conta.login, conta.nome, conta.papeis, usuario_id=conta.id, sessao=token, entrada_pendente=agora_
        )
    if not entrou:
        conectar_como(motor, None)
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")
    return Ator(conta.login, conta.nome, conta.papeis, usuario_id=conta.id, sessao=token)


def _saida_antes_da_troca(
    uow: UnidadeDeTrabalho,
    motor: sa.Engine,
    saindo: Ator,
    anteriores: dict[str, str],
    tentado: str,
    papel: str,
    senha: str,
) -> None:
    """ "Trocar usuário" on a server whose accounts are roles: the new password was accepted; the previous
    session's exit is written through the previous account's own role (the server names the author of
    each row by the role that writes it), then the connections become the new account's. When the
    previous role can no longer log in (deactivated meanwhile) the exit goes unrecorded, as a busy database
    leaves it."""
    if not anteriores.get("user") or not conectar_como(motor, anteriores["user"], anteriores.get("password")):
        return  # (a refused `conectar_como` leaves the connections the new account's)
    try:
        registrar_saida(uow, saindo, para=_ator_da_tentativa(tentado.lower()))
    finally:
        de_volta = conectar_como(motor, papel, senha)
    if not de_volta:  # pragma: no cover - locked or deactivated within this very login
        raise FalhaLogin(MENSAGEM_INCORRETA, "senha")


def _falha_no_servidor(uow: UnidadeDeTrabalho, tentado: str) -> NoReturn:
    try:
        bloqueada_ate = _gravar_curto(uow, lambda s: papeis_servidor.contar_falha(s, tentado))
    except BancoOcupado:
        raise FalhaLogin(MENSAGEM_OCUPADO, "senha") from None
    if bloqueada_ate is not None:
        raise FalhaLogin(_MENSAGEM_QUINTA_FALHA, "senha")
    raise FalhaLogin(MENSAGEM_INCORRETA, "senha")


def _senha_da_conta_confere(uow: UnidadeDeTrabalho, conta: _Conta, senha: str) -> bool:
    """The password checked against the account's scrypt hash or, where the server keeps it (the program
    opened with the owner's address on such a server), by the server itself."""
    if conta.senha_hash != papeis_servidor.MARCA_SERVIDOR:
        return senha_confere(senha, conta.senha_hash)
    with uow.variante(leitura=True) as leitura:
        return papeis_servidor.senha_confere_no_servidor(leitura.session, senha, conta.id)


def _senha_guardada(s: so.Session, senha: str) -> str:
    """What `usuario.senha_hash` keeps of a new password: its scrypt hash, or only a marker where the server
    keeps the password (`papeis_servidor`: the role gets it)."""
    return papeis_servidor.MARCA_SERVIDOR if papeis_servidor.contas_no_servidor(s) else hash_senha(senha)


def _ler_conta(s: so.Session, login: str) -> _Conta | None:
    usuario = s.scalar(sa.select(Usuario).where(Usuario.login == login))
    if usuario is None:
        return None
    assina = chaves.usa_assinatura(s)
    return _Conta(
        usuario.id,
        usuario.login,
        usuario.nome,
        usuario.ativo,
        usuario.bloqueado_ate,
        usuario.senha_hash,
        usuario.nomes_papeis,
        assina,
        chaves.ler_ativa(s, usuario.id) if assina else None,
    )


def _mensagem_bloqueada(ate: datetime) -> str:
    return (
        f"Conta bloqueada por excesso de tentativas até {ate:%H:%M}. "
        "Tente novamente mais tarde ou peça ao administrador."
    )


def _gravar_curto(uow: UnidadeDeTrabalho, escrever: Callable[[so.Session], T]) -> T:
    """Run `escrever` in a write transaction that waits at most ESPERA_LOGIN for locks; BancoOcupado when
    it could not (nothing of it was kept)."""
    with uow.variante(espera=ESPERA_LOGIN) as escrita:
        resultado = escrever(escrita.session)
        escrita.commit()
        return resultado


def _ator_da_tentativa(login: str) -> Ator:
    """Who the audit names for a login's own rows: the login as typed (not an account: nothing re-read)."""
    return Ator(login, login, frozenset())


def _registrar_recusa(uow: UnidadeDeTrabalho, tentado: str, conta: _Conta | None, motivo: str) -> None:
    """A refusal that changes no account (unknown, inactive or locked login): its audit row. If even that
    cannot be written, the refusal says the database is busy, as a wrong password would."""

    def escrever(s: so.Session) -> None:
        auditoria.registrar(
            s,
            _ator_da_tentativa(tentado),
            "recusa_entrada",
            ENTIDADE_ACESSO,
            None,
            None,
            {"motivo": motivo, "usuario_id": conta.id if conta else None},
        )

    try:
        _gravar_curto(uow, escrever)
    except BancoOcupado:
        raise FalhaLogin(MENSAGEM_OCUPADO, "senha") from None


def _contar_falha(uow: UnidadeDeTrabalho, conta: _Conta, agora_: datetime) -> datetime | None:
    """Count a wrong password (one atomic increment: simultaneous failures all count) and lock the account
    at the fifth; returns the end of the lockout this failure started, if it did. A failure that cannot be
    counted in time is refused as "busy", never let through uncounted."""
    tabela = Base.metadata.tables["usuario"]

    def escrever(s: so.Session) -> datetime | None:
        linha = s.execute(
            sa.update(tabela)
            .where(tabela.c.id == conta.id)
            .values(falhas_login=tabela.c.falhas_login + 1, alterado_em=tabela.c.alterado_em)
            .returning(tabela.c.falhas_login, tabela.c.bloqueado_ate)
        ).first()
        ator = _ator_da_tentativa(conta.login)
        if linha is None:
            return None
        falhas, bloqueado_ate = linha
        auditoria.registrar(
            s, ator, "falha_entrada", ENTIDADE_ACESSO, None, None, {"usuario_id": conta.id, "falhas": falhas}
        )
        ja_bloqueada = bloqueado_ate is not None and bloqueado_ate > agora_
        if falhas < FALHAS_PARA_BLOQUEIO or ja_bloqueada:
            return None
        ate = agora_ + DURACAO_BLOQUEIO
        s.execute(
            sa.update(tabela)
            .where(tabela.c.id == conta.id)
            .values(bloqueado_ate=ate, falhas_login=0, alterado_em=tabela.c.alterado_em)
        )
        auditoria.registrar(
            s,
            ator,
            "bloqueio",
            ENTIDADE_ACESSO,
            None,
            None,
            {"usuario_id": conta.id, "bloqueado_ate": ate.isoformat()},
        )
        return ate

    try:
        return _gravar_curto(uow, escrever)
    except BancoOcupado:
        raise FalhaLogin(MENSAGEM_OCUPADO, "senha") from None


def _registrar_entrada(
    s: so.Session,
    conta: _Conta,
    token: str,
    agora_: datetime,
    aberta: chaves.ChaveAberta | None,
    nova: chaves.ChaveNova | None,
    senha: str,
    *,
    bloqueio: bool = True,
) -> tuple[bool, chaves.ChaveAberta | None]:
    """A correct password: failures cleared, last access, the key made at the first login since the
    upgrade (self-certified: `chaves.AUTOCERTIFICADAS`) and the entry's audit row, signed with the key;
    False (nothing kept) when the account was deactivated or (with `bloqueio`) locked after the password was
    checked."""
    tabela = Base.metadata.tables["usuario"]
    livre = (
        sa.or_(tabela.c.bloqueado_ate.is_(None), tabela.c.bloqueado_ate <= agora_) if bloqueio else sa.true()
    )
    feito = s.execute(
        sa.update(tabela)
        .where(tabela.c.id == conta.id, tabela.c.ativo.is_(True), livre)
        .values(falhas_login=0, bloqueado_ate=None, ultimo_acesso=agora_, alterado_em=tabela.c.alterado_em)
        .returning(tabela.c.id)
    ).first()
    if feito is None:
        return False, None
    if nova is not None:
        outra = chaves.ler_ativa(s, conta.id)  # another PC's login of the same account got here first
        if outra is not None:
            aberta = chaves.abrir(outra, conta.id, senha)
        else:
            aberta = chaves.gravar(s, conta.id, conta.login, nova, chaves.MOTIVO_PRIMEIRA_ENTRADA, None)
    ator = dataclasses.replace(_ator_da_tentativa(conta.login), chave=aberta)
    auditoria.registrar(
        s,
        ator,
        "entrada",
        ENTIDADE_ACESSO,
        token,
        None,
        {"usuario_id": conta.id, "papeis": sorted(conta.papeis)},
    )
    return True, aberta


def registrar_saida(uow: UnidadeDeTrabalho, ator: Ator, *, para: Ator | None = None) -> bool:
    """The end of a session in the audit: closing the program, or "Trocar usuário" (`para` = who entered
    instead). Recorded whatever happened to the account meanwhile, with the login's short wait; False
    when the database stayed busy (the exit then goes unrecorded: closing the window must not hang)."""
    if ator.usuario_id is None:
        return False
    depois: dict[str, object] = {"usuario_id": ator.usuario_id}
    if para is not None:
        depois["para"] = para.login
    acao = "troca_usuario" if para is not None else "saida"

    def escrever(s: so.Session) -> None:
        auditoria.registrar(s, ator, acao, ENTIDADE_ACESSO, ator.sessao, None, depois, conferir=False)

    try:
        _gravar_curto(uow, escrever)
    except BancoOcupado:
        return False
    return True


def existe_administrador_ativo(uow: UnidadeDeTrabalho) -> bool:
    """Whether some active account holds the administrator's role (then creating users needs one)."""
    with uow:
        return (
            uow.session.scalar(
                sa.select(Usuario.id)
                .join(UsuarioPapel, UsuarioPapel.usuario_id == Usuario.id)
                .where(UsuarioPapel.papel == "administrador", Usuario.ativo.is_(True))
                .limit(1)
            )
            is not None
        )


def criar_usuario(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    login: str,
    nome: str,
    senha: str,
    papeis: Iterable[str],
    temporaria: bool = False,
) -> int:
    """A new account. `temporaria`: the password was chosen by the administrator, not by the user, who
    must change it at the first login (`precisa_trocar_senha`), as after a reset; the administrator's
    window and command always ask for it, the first account of an empty database (its owner's own
    password) does not."""
    exigir_papel(ator, "administrador", acao="criar usuários")
    login_limpo = texto_obrigatorio(login, "login", "o login", 60).lower()
    if not login_limpo.replace(".", "").replace("_", "").replace("-", "").isalnum():
        raise ErroDominio("O login deve ter apenas letras, números, ponto, hífen ou sublinhado.", "login")
    nome_limpo = texto_obrigatorio(nome, "nome", "o nome", 200)
    validar_senha(senha)
    conjunto = papeis_validos(papeis)
    with uow:
        if uow.session.scalar(sa.select(Usuario.id).where(Usuario.login == login_limpo)) is not None:
            raise ErroDominio(f"Já existe um usuário com o login {login_limpo}.", "login")
        usuario = Usuario(
            login=login_limpo,
            nome=nome_limpo,
            senha_hash=_senha_guardada(uow.session, senha),
            trocar_senha=temporaria,
            senha_versao=1,
            alterado_por=ator.login,
        )
        usuario.papeis = [UsuarioPapel(papel=p) for p in sorted(conjunto)]
        uow.session.add(usuario)
        uow.session.flush()
        chaves.nova_certificada(
            uow.session, usuario.id, login_limpo, senha, chaves.MOTIVO_CRIACAO, ator.chave
        )
        papeis_servidor.sincronizar(uow.session, usuario.id, senha)
        auditoria.registrar(uow.session, ator, "criar_usuario", "usuario", usuario.id, None, _imagem(usuario))
        uow.commit()
        return usuario.id


_CHAVE_PRIMEIRO_ACESSO = 2_413_0001
"""PostgreSQL advisory lock of the first administrator's creation: two PCs on the "Primeiro acesso" screen of
one empty database check "no user yet" one after the other, never both before either has written."""


def criar_primeiro_administrador(
    uow: UnidadeDeTrabalho, *, login: str, nome: str, senha: str, papeis: Iterable[str] = ("administrador",)
) -> int:
    """The database's first account, with the administrator's role, needing no login: allowed only while the
    database has no account at all, checked in the very transaction that creates it (SQLite's write lock,
    PostgreSQL's advisory lock), so a second PC on the same screen is refused. Audited in the new
    administrator's own name: nobody else acted."""
    login_limpo = texto_obrigatorio(login, "login", "o login", 60).lower()
    if not login_limpo.replace(".", "").replace("_", "").replace("-", "").isalnum():
        raise ErroDominio("O login deve ter apenas letras, números, ponto, hífen ou sublinhado.", "login")
    nome_limpo = texto_obrigatorio(nome, "nome", "o nome", 200)
    validar_senha(senha)
    conjunto = papeis_validos(papeis)
    if "administrador" not in conjunto:
        raise ErroDominio(
            "O primeiro usuário do banco precisa do papel Administrador: só ele pode criar os demais.",
            "papeis",
        )
    with uow:
        s = uow.session
        if papeis_servidor.sessao_de_entrada(s):
            raise ErroDominio(
                "Neste servidor o primeiro administrador é criado pelo responsável pelo servidor: "
                "secretaria usuario criar --db (endereço do dono do banco). Nada foi gravado.",
                "login",
            )
        if s.get_bind().dialect.name == "postgresql":
            s.execute(sa.select(sa.func.pg_advisory_xact_lock(_CHAVE_PRIMEIRO_ACESSO)))
        if s.scalar(sa.select(Usuario.id).limit(1)) is not None:
            raise ErroDominio(
                "Este banco já tem usuários (o administrador acabou de ser criado em outro computador?). "
                "Nada foi gravado: entre com o login e a senha de um usuário cadastrado.",
                "login",
            )
        usuario = Usuario(
            login=login_limpo,
            nome=nome_limpo,
            senha_hash=_senha_guardada(s, senha),
            senha_versao=1,
            alterado_por=login_limpo,
        )
        usuario.papeis = [UsuarioPapel(papel=p) for p in sorted(conjunto)]
        s.add(usuario)
        s.flush()
        chave = None
        if chaves.usa_assinatura(s):  # the root of the certificates: nobody else exists to certify it
            nova = chaves.preparar(senha)
            chave = chaves.gravar(
                s, usuario.id, login_limpo, nova, chaves.MOTIVO_PRIMEIRO_ADMINISTRADOR, None
            )
        papeis_servidor.sincronizar(s, usuario.id, senha)
        ele = Ator(login_limpo, nome_limpo, frozenset(conjunto), usuario_id=usuario.id, chave=chave)
        auditoria.registrar(s, ele, "criar_usuario", "usuario", usuario.id, None, _imagem(usuario))
        uow.commit()
        return usuario.id


def existe_usuario(uow: UnidadeDeTrabalho) -> bool:
    """Whether the database has any account (the login asks `primeiro_acesso`, which needs no models)."""
    with uow:
        return (uow.session.scalar(sa.select(sa.func.count(Usuario.id))) or 0) > 0


# -- user administration (administrador), and changing one's own password (anyone) ------------------


@dataclass(frozen=True)
class UsuarioResumo:
    id: int
    login: str
    nome: str
    papeis: frozenset[str]
    ativo: bool
    bloqueado_ate: datetime | None
    ultimo_acesso: datetime | None
    versao: int
    alterado_em: datetime
    alterado_por: str | None
    trocar_senha: bool = False
    """The password is temporary: the user must change it at the next login."""

    def bloqueado(self, agora: datetime | None = None) -> bool:
        return self.bloqueado_ate is not None and self.bloqueado_ate > (agora or relogio.agora())


def listar_usuarios(sessao: so.Session) -> list[UsuarioResumo]:
    return [_resumo(u) for u in sessao.scalars(sa.select(Usuario).order_by(Usuario.login))]


def obter_usuario(sessao: so.Session, usuario_id: int) -> UsuarioResumo:
    return _resumo(_usuario(sessao, usuario_id))


def editar_usuario(
    uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int, *, nome: str, papeis: Iterable[str], versao: int
) -> None:
    """Change a user's name and roles; the last active administrator keeps the role."""
    exigir_papel(ator, "administrador", acao="alterar usuários")
    nome_limpo = texto_obrigatorio(nome, "nome", "o nome", 200)
    conjunto = papeis_validos(papeis)
    with uow:
        auditoria.conferir_ator(uow.session, ator)  # the account as it was, before this act changes it
        s = uow.session
        usuario = _usuario(s, usuario_id, travar=True)
        verificar_versao(usuario, versao, f"O usuário {usuario.login}")
        if "administrador" not in conjunto:
            _manter_um_administrador(s, usuario, "retirar o papel de Administrador de")
        antes = _imagem(usuario)
        usuario.nome = nome_limpo
        atuais = {p.papel: p for p in usuario.papeis}
        usuario.papeis = [atuais.get(p) or UsuarioPapel(papel=p) for p in sorted(conjunto)]
        _registrar_alteracao(s, ator, usuario, "editar_usuario", antes)
        uow.commit()


def redefinir_senha(
    uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int, *, nova_senha: str, temporaria: bool = False
) -> None:
    """The administrator sets a new password for a user (who forgot it); this also lifts a lockout.
    `temporaria`: the user must change it at the next login (`precisa_trocar_senha`) — the administrator
    then knows no password the user keeps."""
    exigir_papel(ator, "administrador", acao="redefinir senhas")
    _senha_nova_valida(nova_senha)
    with uow:
        auditoria.conferir_ator(uow.session, ator)  # the account as it was, before this act changes it
        s = uow.session
        usuario = _usuario(s, usuario_id, travar=True)
        antes = _imagem(usuario)
        usuario.senha_hash = _senha_guardada(s, nova_senha)
        usuario.senha_versao += 1
        usuario.falhas_login = 0
        usuario.bloqueado_ate = None
        usuario.trocar_senha = bool(temporaria)
        # A new key the new password opens, certified by this administrator; the old one stays, inactive.
        chaves.nova_certificada(
            s, usuario.id, usuario.login, nova_senha, chaves.MOTIVO_REDEFINICAO, ator.chave
        )
        _registrar_alteracao(s, ator, usuario, "redefinir_senha", antes)
        papeis_servidor.sincronizar(s, usuario.id, nova_senha)
        uow.commit()


def definir_ativo(uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int, *, ativo: bool) -> None:
    """Activate or deactivate an account (a deactivated user cannot log in; their acts stay in the log)."""
    exigir_papel(ator, "administrador", acao="ativar ou desativar usuários")
    with uow:
        auditoria.conferir_ator(uow.session, ator)  # the account as it was, before this act changes it
        s = uow.session
        usuario = _usuario(s, usuario_id, travar=True)
        if usuario.ativo == bool(ativo):
            return
        if not ativo:
            if usuario.login == ator.login:
                raise ErroDominio("Você não pode desativar a própria conta.", "ativo")
            _manter_um_administrador(s, usuario, "desativar")
        antes = _imagem(usuario)
        usuario.ativo = bool(ativo)
        _registrar_alteracao(s, ator, usuario, "ativar_usuario" if ativo else "desativar_usuario", antes)
        papeis_servidor.sincronizar(s, usuario.id)
        uow.commit()


def desbloquear_usuario(uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int) -> None:
    """Lift the lockout after repeated wrong passwords before its 15 minutes are over."""
    exigir_papel(ator, "administrador", acao="desbloquear usuários")
    with uow:
        auditoria.conferir_ator(uow.session, ator)  # the account as it was, before this act changes it
        s = uow.session
        usuario = _usuario(s, usuario_id, travar=True)
        if usuario.bloqueado_ate is None and usuario.falhas_login == 0:
            return
        antes = _imagem(usuario)
        usuario.bloqueado_ate = None
        usuario.falhas_login = 0
        _registrar_alteracao(s, ator, usuario, "desbloquear_usuario", antes)
        papeis_servidor.sincronizar(s, usuario.id)
        uow.commit()


def alterar_propria_senha(uow: UnidadeDeTrabalho, ator: Ator, *, senha_atual: str, nova_senha: str) -> None:
    """Any user changes their own password, confirming the current one."""
    _senha_nova_valida(nova_senha)
    if nova_senha == senha_atual:
        raise ErroDominio("A nova senha deve ser diferente da atual.", "nova_senha")
    with uow:
        auditoria.conferir_ator(uow.session, ator)  # the account as it was, before this act changes it
        s = uow.session
        usuario = s.scalar(sa.select(Usuario).where(Usuario.login == ator.login).with_for_update())
        if usuario is None or not usuario.ativo:
            raise ErroDominio("Sua conta não está ativa; peça ao administrador.", "senha_atual")
        if usuario.senha_hash == papeis_servidor.MARCA_SERVIDOR:
            confere = papeis_servidor.senha_confere_no_servidor(s, senha_atual)
        else:
            confere = senha_confere(senha_atual, usuario.senha_hash)
        if not confere:
            raise ErroDominio("A senha atual não confere.", "senha_atual")
        antes = _imagem(usuario)
        usuario.senha_hash = _senha_guardada(s, nova_senha)
        usuario.senha_versao += 1
        usuario.trocar_senha = False
        chaves.reselar(s, usuario.id, senha_atual, nova_senha)  # the same key, under the new password
        _registrar_alteracao(s, ator, usuario, "alterar_propria_senha", antes)
        papeis_servidor.sincronizar(s, usuario.id, nova_senha)
        uow.commit()


def precisa_trocar_senha(sessao: so.Session, ator: Ator) -> bool:
    """Whether the logged-in user's password is a temporary one the administrator set (the login then
    asks for a new one before anything else)."""
    if ator.usuario_id is None:
        return False
    return bool(sessao.scalar(sa.select(Usuario.trocar_senha).where(Usuario.id == ator.usuario_id)))


def _senha_nova_valida(senha: str) -> None:
    try:
        validar_senha(senha or "")
    except ErroDominio as exc:
        raise ErroDominio(exc.mensagem, "nova_senha") from None


def _usuario(s: so.Session, usuario_id: int, *, travar: bool = False) -> Usuario:
    consulta = sa.select(Usuario).where(Usuario.id == usuario_id)
    usuario = s.scalar(consulta.with_for_update() if travar else consulta)
    if usuario is None:
        raise NaoEncontrado(mensagem_nao_encontrado("Usuário", usuario_id))
    return usuario


def _manter_um_administrador(s: so.Session, usuario: Usuario, acao: str) -> None:
    """Refuse an act that would leave no active administrator (nobody could manage users any more)."""
    if "administrador" not in usuario.nomes_papeis or not usuario.ativo:
        return
    outros = s.scalars(
        sa.select(Usuario.id)
        .join(UsuarioPapel, UsuarioPapel.usuario_id == Usuario.id)
        .where(UsuarioPapel.papel == "administrador", Usuario.ativo.is_(True), Usuario.id != usuario.id)
        .with_for_update(of=Usuario)
    ).all()
    if not outros:
        raise ErroDominio(
            f"Não é possível {acao} {usuario.login}: é o único administrador ativo. "
            "Dê o papel de Administrador a outro usuário antes.",
            "papeis",
        )


def _imagem(usuario: Usuario) -> dict[str, object]:
    """The audit image of an account: every column but the password hash (`COLUNAS_FORA_DA_IMAGEM`), its
    roles, and a marker saying how many times the password was set (`auditoria.marca_senha`)."""
    return {
        **auditoria.instantaneo(usuario),
        **auditoria.extras_usuario(usuario.nomes_papeis, usuario.senha_versao),
    }


def _registrar_alteracao(
    s: so.Session, ator: Ator, usuario: Usuario, acao: str, antes: dict[str, object]
) -> None:
    usuario.alterado_por = ator.login
    so.attributes.flag_modified(usuario, "alterado_por")  # new version even when only the roles changed
    s.flush()
    auditoria.registrar(s, ator, acao, "usuario", usuario.id, antes, _imagem(usuario))


def _resumo(u: Usuario) -> UsuarioResumo:
    return UsuarioResumo(
        id=u.id,
        login=u.login,
        nome=u.nome,
        papeis=u.nomes_papeis,
        ativo=u.ativo,
        bloqueado_ate=u.bloqueado_ate,
        ultimo_acesso=u.ultimo_acesso,
        versao=u.versao,
        alterado_em=u.alterado_em,
        alterado_por=u.alterado_por,
        trocar_senha=bool(u.trocar_senha),
    )
