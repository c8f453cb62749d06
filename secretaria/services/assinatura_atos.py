"""What `auditoria verificar` checks of the acts' signatures on SQLite, and the keys' fingerprints the
termo de verificação prints.

The rules, in the order they apply to each audit row:
- a signed row must carry a valid signature of its hash by a key of the account it names (`usuario_login`),
  and that key must be certified (`_conferir_chaves`);
- an unsigned row is accepted only
  - before the first signed row ("anteriores à assinatura": written before the upgrade to revision 0018,
    or by the demo generator before anyone logged in). An attacker cannot add one there: every later row
    chains onto it, so its signature would stop matching;
  - or when nobody who could sign was there (`SEM_ASSINATURA_POR_NATUREZA`): a wrong password, a refused
    or locked login (typed by whoever was at the keyboard), the law's catalogue the program writes at
    start-up, a restore's own row (written into the copy, whose keys are other). None of these carries
    an image the records are compared with, except the catalogue's, which follows the law's text;
- any other unsigned row is named: an act nobody signed, added to the file from outside.

Only on SQLite: on PostgreSQL the server writes the audit rows under each user's own database role.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.formato import formatar_decimal
from secretaria.models import Auditoria, ChaveAssinatura, Usuario
from secretaria.services import chaves
from secretaria.services.auditoria import ENTIDADE_ACESSO

Apontar = Callable[[str, str], None]

SEM_ASSINATURA_POR_NATUREZA: dict[tuple[str, str], str | None] = {
    (ENTIDADE_ACESSO, "falha_entrada"): None,
    (ENTIDADE_ACESSO, "recusa_entrada"): None,
    (ENTIDADE_ACESSO, "bloqueio"): None,
    ("dispositivo", "semear_catalogo_lei"): "sistema",
    ("dispositivo", "atualizar_dispositivo_lei"): "sistema",
    ("banco", "restaurar_banco"): None,
}
"""(entity, act) → the only author such an unsigned row may name (None: any, e.g. the login as typed)."""

TIPO_NAO_ASSINADO = "ato não assinado"
TIPO_ASSINATURA = "assinatura inválida"
TIPO_CHAVE = "chave de assinatura"


@dataclass
class _Chave:
    id: int
    usuario_id: int
    login: str
    publica: str
    motivo: str
    certificada_por: int | None
    valida: bool = False


@dataclass(frozen=True)
class ResumoAssinaturas:
    assinados: int
    anteriores: int
    por_natureza: int
    chaves: int

    def texto(self) -> str:
        partes = [
            _quantos(self.assinados, "registro assinado", "registros assinados") + " pelos seus autores"
        ]
        if self.anteriores:
            partes.append(_quantos(self.anteriores, "anterior", "anteriores") + " à assinatura")
        if self.por_natureza:
            partes.append(
                _quantos(self.por_natureza, "registro", "registros")
                + " sem assinatura por natureza (tentativas de entrada, catálogo da lei, restauração)"
            )
        partes.append(
            _quantos(self.chaves, "chave de assinatura certificada", "chaves de assinatura certificadas")
        )
        return "; ".join(partes)


def _quantos(n: int, singular: str, plural: str) -> str:
    return f"{formatar_decimal(n, 0)} {singular if n == 1 else plural}"


def conferir_assinaturas(sessao: so.Session, apontar: Apontar, lote: int = 5000) -> ResumoAssinaturas | None:
    """Check every key's certificate and every audit row's signature; `apontar(tipo, mensagem)` names each
    row nobody signed or whose signature fails. None on PostgreSQL (nothing is signed there)."""
    if not chaves.usa_assinatura(sessao):
        return None
    conhecidas = _conferir_chaves(sessao, apontar)
    assinados = anteriores = por_natureza = 0
    inicio: int | None = None
    a = Auditoria.__table__.c  # Core rows: no ORM loading per row
    consulta = (
        sa.select(a.id, a.momento, a.usuario_login, a.acao, a.entidade, a.entidade_id, a.hash, a.assinatura)
        .order_by(a.id)
        .execution_options(yield_per=lote)
    )
    for linha in sessao.execute(consulta):
        if linha.assinatura is None:
            if inicio is None:
                anteriores += 1
            elif _sem_assinatura_aceita(linha.entidade, linha.acao, linha.usuario_login):
                por_natureza += 1
            else:
                apontar(
                    TIPO_NAO_ASSINADO,
                    f"{_registro(linha)}: não tem a assinatura de nenhum usuário, e todo ato gravado pelo "
                    "programa depois da assinatura começar é assinado pelo seu autor: foi incluído fora do "
                    "programa.",
                )
            continue
        if inicio is None:
            inicio = int(linha.id)
        problema = _problema_da_assinatura(linha.assinatura, linha.hash, linha.usuario_login, conhecidas)
        if problema is None:
            assinados += 1
        else:
            apontar(
                TIPO_ASSINATURA, f"{_registro(linha)}: {problema}: incluído ou alterado fora do programa."
            )
    return ResumoAssinaturas(assinados, anteriores, por_natureza, sum(c.valida for c in conhecidas.values()))


def _sem_assinatura_aceita(entidade: str, acao: str, login: str | None) -> bool:
    if (entidade, acao) not in SEM_ASSINATURA_POR_NATUREZA:
        return False
    autor = SEM_ASSINATURA_POR_NATUREZA[(entidade, acao)]
    return autor is None or login == autor


def _problema_da_assinatura(
    assinatura: str, hash_linha: str, login: str | None, conhecidas: dict[int, _Chave]
) -> str | None:
    numero, _, valor = assinatura.partition(":")
    chave = conhecidas.get(int(numero)) if numero.isdigit() else None
    if chave is None:
        return "está assinado com uma chave que não existe no banco"
    if chave.login != login:
        return f"está assinado com a chave de outro usuário ({chave.login}, chave nº {chave.id})"
    if not chave.valida:
        return f"está assinado com a chave nº {chave.id}, que não tem certificação válida"
    if not chaves.publica_valida(chave.publica, valor, chaves.mensagem_da_linha(hash_linha)):
        return f"a assinatura não confere com a chave nº {chave.id} de {login}"
    return None


def _registro(linha: sa.Row[Any]) -> str:
    momento = linha.momento
    quando = f", {momento:%d/%m/%Y %H:%M}" if isinstance(momento, datetime) else ""
    alvo = linha.entidade if linha.entidade_id is None else f"{linha.entidade} {linha.entidade_id}"
    return (
        f"Registro de auditoria nº {linha.id} (“{linha.acao}” em {alvo}, em nome de "
        f"{linha.usuario_login or 'ninguém'}{quando})"
    )


def _conferir_chaves(sessao: so.Session, apontar: Apontar) -> dict[int, _Chave]:
    """Every key with its certificate checked, in number order (a certifier's key is always older): by
    an administrator's valid key, or by itself for the `chaves.AUTOCERTIFICADAS` reasons only — the first
    administrator's (the account with the lowest number), and an account's first key when its creation was
    not signed (made before the upgrade)."""
    logins = dict(sessao.execute(sa.select(Usuario.id, Usuario.login)).tuples().all())
    primeiro_usuario = min(logins, default=None)
    criadas_assinadas = {
        str(e)
        for (e,) in sessao.execute(
            sa.select(Auditoria.entidade_id).where(
                Auditoria.entidade == "usuario",
                Auditoria.acao == "criar_usuario",
                Auditoria.assinatura.is_not(None),
            )
        )
    }
    conhecidas: dict[int, _Chave] = {}
    com_chave: set[int] = set()
    for reg in sessao.scalars(sa.select(ChaveAssinatura).order_by(ChaveAssinatura.id)):
        login = logins.get(reg.usuario_id, f"(usuário {reg.usuario_id} inexistente)")
        chave = _Chave(reg.id, reg.usuario_id, login, reg.publica, reg.motivo, reg.certificada_por)
        conhecidas[reg.id] = chave
        primeira_da_conta = reg.usuario_id not in com_chave
        com_chave.add(reg.usuario_id)
        problema: str | None = None
        if reg.certificada_por is None:
            assinante = reg.publica
            if reg.motivo == chaves.MOTIVO_PRIMEIRO_ADMINISTRADOR and reg.usuario_id != primeiro_usuario:
                problema = "diz ser do primeiro administrador, mas a conta não é a primeira do banco"
            elif reg.motivo == chaves.MOTIVO_PRIMEIRA_ENTRADA and (
                not primeira_da_conta or str(reg.usuario_id) in criadas_assinadas
            ):
                problema = "certifica a si mesma, mas a conta já tinha chave ou foi criada com assinatura"
            elif reg.motivo not in chaves.AUTOCERTIFICADAS:
                problema = "não foi certificada por nenhum administrador"
        else:
            certificadora = conhecidas.get(reg.certificada_por)
            if certificadora is None or certificadora.id >= reg.id or not certificadora.valida:
                problema = f"foi certificada pela chave nº {reg.certificada_por}, que não é válida"
            assinante = certificadora.publica if certificadora is not None else ""
        if problema is None:
            texto = chaves.texto_certificado(
                reg.id, reg.usuario_id, login, reg.publica, reg.motivo, reg.criada_em
            )
            if not chaves.publica_valida(assinante, reg.certificado, texto):
                problema = "o seu certificado não confere"
        if problema is None:
            chave.valida = True
        else:
            apontar(
                TIPO_CHAVE,
                f"A chave de assinatura nº {reg.id} de {login} {problema}: foi incluída ou alterada fora do "
                "programa; os atos assinados com ela não valem.",
            )
    return conhecidas


# --- the termo's fingerprints ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImpressaoChave:
    login: str
    nome: str
    impressao: str
    """The fingerprint of the account's active key ("" when it has none yet)."""
    certificacao: str


def impressoes_ativas(sessao: so.Session) -> list[ImpressaoChave]:
    """Each active account's current key, as the termo de verificação prints it (SQLite; [] otherwise)."""
    if not chaves.usa_assinatura(sessao):
        return []
    logins = dict(sessao.execute(sa.select(ChaveAssinatura.id, Usuario.login).join(Usuario)).tuples().all())
    ativas = {
        c.usuario_id: c
        for c in sessao.scalars(
            sa.select(ChaveAssinatura).where(ChaveAssinatura.ativa.is_(True)).order_by(ChaveAssinatura.id)
        )
    }
    resultado = []
    for usuario in sessao.scalars(sa.select(Usuario).where(Usuario.ativo.is_(True)).order_by(Usuario.login)):
        chave = ativas.get(usuario.id)
        if chave is None:
            resultado.append(
                ImpressaoChave(usuario.login, usuario.nome, "", "recebe a chave na próxima entrada")
            )
            continue
        certificador = logins.get(chave.certificada_por or 0, "?")
        rotulo = chaves.ROTULOS_MOTIVO.get(chave.motivo, chave.motivo).format(certificador=certificador)
        resultado.append(
            ImpressaoChave(
                usuario.login,
                usuario.nome,
                chaves.impressao(chave.publica),
                f"{rotulo}, {chave.criada_em:%d/%m/%Y}",
            )
        )
    return resultado
