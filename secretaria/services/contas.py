"""Accounts: slow salted password hashes, lockout after repeated failures, and user administration."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from datetime import timedelta

import sqlalchemy as sa

from secretaria.db import UnidadeDeTrabalho
from secretaria.models import Usuario, UsuarioPapel
from secretaria.services import auditoria, relogio
from secretaria.services.base import Ator, ErroDominio, exigir_papel, papeis_validos, texto_obrigatorio

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
            # The same message and (about) the same time as a wrong password: no user enumeration.
            senha_confere(senha, hash_senha("x"))
            raise FalhaLogin("Usuário ou senha incorretos.", "senha")
        if usuario.bloqueado_ate is not None and usuario.bloqueado_ate > agora_:
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
        depois = {"login": login_limpo, "nome": nome_limpo, "papeis": sorted(conjunto)}
        auditoria.registrar(uow.session, ator, "criar_usuario", "usuario", usuario.id, None, depois)
        uow.commit()
        return usuario.id


def existe_usuario(uow: UnidadeDeTrabalho) -> bool:
    with uow:
        return (uow.session.scalar(sa.select(sa.func.count(Usuario.id))) or 0) > 0
