"""Accounts: slow salted password hashes, lockout after repeated failures, and user administration."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho
from secretaria.models import Usuario, UsuarioPapel
from secretaria.services import auditoria
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    papeis_validos,
    texto_obrigatorio,
    verificar_versao,
)

FALHAS_PARA_BLOQUEIO = 5
DURACAO_BLOQUEIO = timedelta(minutes=15)
SENHA_MINIMA = 8
# scrypt cost: about 50 ms per check here, so a guessed password costs an attacker real time.
_N, _R, _P = 2**14, 8, 1


class FalhaLogin(ErroDominio):
    pass


def hash_senha(senha: str) -> str:
    sal = secrets.token_bytes(16)
    chave = hashlib.scrypt(senha.encode("utf-8"), salt=sal, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${sal.hex()}${chave.hex()}"


def senha_confere(senha: str, guardado: str) -> bool:
    try:
        esquema, n, r, p, sal, chave = guardado.split("$")
    except ValueError:
        return False
    if esquema != "scrypt":
        return False
    calculada = hashlib.scrypt(
        senha.encode("utf-8"), salt=bytes.fromhex(sal), n=int(n), r=int(r), p=int(p), dklen=len(chave) // 2
    )
    return hmac.compare_digest(calculada.hex(), chave)


@functools.cache
def _hash_ficticio() -> str:
    """A stored hash no password matches, computed once per process: refusals that have no account's hash
    to check (unknown, inactive or locked login) still run scrypt exactly once, like a wrong password."""
    return hash_senha(secrets.token_urlsafe(16))


def validar_senha(senha: str) -> None:
    """The minimum rule: 8 characters, with at least one letter and one digit."""
    if len(senha) < SENHA_MINIMA:
        raise ErroDominio(f"A senha deve ter pelo menos {SENHA_MINIMA} caracteres.", "senha")
    if not any(c.isalpha() for c in senha) or not any(c.isdigit() for c in senha):
        raise ErroDominio("A senha deve ter letras e números.", "senha")


def ator_de(usuario: Usuario) -> Ator:
    return Ator(usuario.login, usuario.nome, usuario.nomes_papeis)


def autenticar(uow: UnidadeDeTrabalho, login: str, senha: str) -> Ator:
    """Check a login; count failures and lock the account for 15 minutes after the fifth."""
    with uow:
        usuario = uow.session.scalar(sa.select(Usuario).where(Usuario.login == login.strip().lower()))
        agora_ = relogio.agora()
        if usuario is None or not usuario.ativo:
            # The same message and the same work (one scrypt run) as a wrong password: no user enumeration.
            senha_confere(senha, _hash_ficticio())
            raise FalhaLogin("Usuário ou senha incorretos.", "senha")
        if usuario.bloqueado_ate is not None and usuario.bloqueado_ate > agora_:
            senha_confere(senha, _hash_ficticio())  # as long as any other refusal
            raise FalhaLogin(
                f"Conta bloqueada por excesso de tentativas até {usuario.bloqueado_ate:%H:%M}. "
                "Tente novamente mais tarde ou peça ao administrador.",
                "senha",
            )
        if not senha_confere(senha, usuario.senha_hash):
            usuario.falhas_login += 1
            usuario.alterado_por = "sistema"
            if usuario.falhas_login >= FALHAS_PARA_BLOQUEIO:
                usuario.bloqueado_ate = agora_ + DURACAO_BLOQUEIO
                usuario.falhas_login = 0
                auditoria.registrar(
                    uow.session,
                    Ator(usuario.login, usuario.nome, frozenset()),
                    "bloqueio",
                    "usuario",
                    usuario.id,
                )
                uow.commit()
                raise FalhaLogin(
                    f"Senha incorreta pela {FALHAS_PARA_BLOQUEIO}ª vez: conta bloqueada por 15 minutos.",
                    "senha",
                )
            uow.commit()
            raise FalhaLogin("Usuário ou senha incorretos.", "senha")
        usuario.falhas_login = 0
        usuario.bloqueado_ate = None
        usuario.ultimo_acesso = agora_
        usuario.alterado_por = usuario.login
        ator = ator_de(usuario)
        uow.commit()
        return ator


def criar_usuario(
    uow: UnidadeDeTrabalho, ator: Ator, *, login: str, nome: str, senha: str, papeis: Iterable[str]
) -> int:
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
            login=login_limpo, nome=nome_limpo, senha_hash=hash_senha(senha), alterado_por=ator.login
        )
        usuario.papeis = [UsuarioPapel(papel=p) for p in sorted(conjunto)]
        uow.session.add(usuario)
        uow.session.flush()
        auditoria.registrar(uow.session, ator, "criar_usuario", "usuario", usuario.id, None, _imagem(usuario))
        uow.commit()
        return usuario.id


def existe_usuario(uow: UnidadeDeTrabalho) -> bool:
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


def redefinir_senha(uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int, *, nova_senha: str) -> None:
    """The administrator sets a new password for a user (who forgot it); this also lifts a lockout."""
    exigir_papel(ator, "administrador", acao="redefinir senhas")
    _senha_nova_valida(nova_senha)
    with uow:
        s = uow.session
        usuario = _usuario(s, usuario_id, travar=True)
        antes = _imagem(usuario)
        usuario.senha_hash = hash_senha(nova_senha)
        usuario.falhas_login = 0
        usuario.bloqueado_ate = None
        _registrar_alteracao(s, ator, usuario, "redefinir_senha", antes)
        uow.commit()


def definir_ativo(uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int, *, ativo: bool) -> None:
    """Activate or deactivate an account (a deactivated user cannot log in; their acts stay in the log)."""
    exigir_papel(ator, "administrador", acao="ativar ou desativar usuários")
    with uow:
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
        uow.commit()


def desbloquear_usuario(uow: UnidadeDeTrabalho, ator: Ator, usuario_id: int) -> None:
    """Lift the lockout after repeated wrong passwords before its 15 minutes are over."""
    exigir_papel(ator, "administrador", acao="desbloquear usuários")
    with uow:
        s = uow.session
        usuario = _usuario(s, usuario_id, travar=True)
        if usuario.bloqueado_ate is None and usuario.falhas_login == 0:
            return
        antes = _imagem(usuario)
        usuario.bloqueado_ate = None
        usuario.falhas_login = 0
        _registrar_alteracao(s, ator, usuario, "desbloquear_usuario", antes)
        uow.commit()


def alterar_propria_senha(uow: UnidadeDeTrabalho, ator: Ator, *, senha_atual: str, nova_senha: str) -> None:
    """Any user changes their own password, confirming the current one."""
    _senha_nova_valida(nova_senha)
    if nova_senha == senha_atual:
        raise ErroDominio("A nova senha deve ser diferente da atual.", "nova_senha")
    with uow:
        s = uow.session
        usuario = s.scalar(sa.select(Usuario).where(Usuario.login == ator.login).with_for_update())
        if usuario is None or not usuario.ativo:
            raise ErroDominio("Sua conta não está ativa; peça ao administrador.", "senha_atual")
        if not senha_confere(senha_atual, usuario.senha_hash):
            raise ErroDominio("A senha atual não confere.", "senha_atual")
        antes = _imagem(usuario)
        usuario.senha_hash = hash_senha(nova_senha)
        _registrar_alteracao(s, ator, usuario, "alterar_propria_senha", antes)
        uow.commit()


def _senha_nova_valida(senha: str) -> None:
    try:
        validar_senha(senha or "")
    except ErroDominio as exc:
        raise ErroDominio(exc.mensagem, "nova_senha") from None


def _usuario(s: so.Session, usuario_id: int, *, travar: bool = False) -> Usuario:
    consulta = sa.select(Usuario).where(Usuario.id == usuario_id)
    usuario = s.scalar(consulta.with_for_update() if travar else consulta)
    if usuario is None:
        raise NaoEncontrado(f"Usuário não encontrado (nº {usuario_id}).")
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
    """The audit image of an account: never the password hash (only a digest of it, see extras_usuario)."""
    return {
        "login": usuario.login,
        "nome": usuario.nome,
        "ativo": usuario.ativo,
        "bloqueado_ate": usuario.bloqueado_ate.isoformat() if usuario.bloqueado_ate else None,
        **auditoria.extras_usuario(usuario.nomes_papeis, usuario.senha_hash),
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
    )
