"""The auto de infração (art. 10): drawing it up, its evidence files, cancelling it, and the case read model."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, time

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.formato import formatar_data
from secretaria.models import (
    Anexo,
    AutoInfracao,
    Decisao,
    Empregado,
    Fiscal,
    Linha,
    Operadora,
    Representacao,
    Testemunha,
    Veiculo,
    VeiculoHistorico,
)
from secretaria.services import auditoria
from secretaria.services.anexos import LIMITE_BYTES, tipo_do_conteudo, validar_conteudo, verificar_anexo
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)
from secretaria.services.caso import Caso, obter_caso
from secretaria.services.lei_db import DispositivoCitavel, dispositivo_citavel
from secretaria.services.numeracao import proximo_numero
from secretaria.services.processo_base import auto_para_ato, data_valida, imagem, obter
from secretaria.services.sancao import avaliar_sancao, texto_proxima_penalidade

__all__ = [
    "LIMITE_ANEXO_BYTES",
    "ArquivoAnexo",
    "Caso",
    "DadosTestemunha",
    "NovoAuto",
    "PedidoCancelamento",
    "ResumoAnexo",
    "ResumoAuto",
    "abrir_anexo",
    "anexar_evidencia",
    "cancelar_auto",
    "lavrar_auto",
    "obter_caso",
    "tipo_do_conteudo",
]

LIMITE_ANEXO_BYTES = LIMITE_BYTES
MAXIMO_TESTEMUNHAS = 10


@dataclass(frozen=True)
class DadosTestemunha:
    nome: str
    documento: str = ""
    endereco: str = ""


@dataclass(frozen=True)
class NovoAuto:
    """Everything art. 10 asks (I: place, day, hour of the lavratura; II: offender and witnesses; III: facts
    and circumstances; IV: the provision) plus who and what was involved. Item V, the next penalty, is
    computed by `lavrar_auto`, not typed."""

    operadora_id: int
    dispositivo_codigo: str
    data_infracao: date
    local: str
    data_lavratura: date
    hora_lavratura: time
    local_lavratura: str
    descricao_fatos: str
    fiscal_id: int
    hora_infracao: time | None = None
    circunstancias: str = ""
    infrator_nome: str = ""
    """Defaults to the operator's razão social: penalties fall on it (art. 7º caput)."""
    veiculo_id: int | None = None
    linha_id: int | None = None
    empregado_id: int | None = None
    testemunhas: tuple[DadosTestemunha, ...] = field(default_factory=tuple)
    recusou_assinar: bool = False
    representacao_id: int | None = None


@dataclass(frozen=True)
class ResumoAuto:
    id: int
    ano: int
    numero: int
    numero_formatado: str
    """"0001/2026"."""
    proxima_penalidade: str
    versao: int
    provas_juntadas: tuple[str, ...] = ()
    """The representação's evidence files joined to the auto (their names)."""
    provas_nao_juntadas: tuple[str, ...] = ()
    """"foto.jpg: o conteúdo não confere…": a representação's file altered since attached, left out."""


@dataclass(frozen=True)
class CamposAuto:
    """The auto's typed fields as `validar_campos` cleaned them."""

    local: str
    local_lavratura: str
    fatos: str
    circunstancias: str
    infrator: str
    data_lavratura: date
    data_infracao: date
    testemunhas: tuple[DadosTestemunha, ...]


def validar_campos(dados: NovoAuto) -> CamposAuto:
    """The checks of the auto form that need no database (drawing up, and correcting by a termo)."""
    local = texto_obrigatorio(dados.local, "local", "o local da infração", 300)
    local_lavratura = texto_obrigatorio(dados.local_lavratura, "local_lavratura", "o local da lavratura", 300)
    fatos = texto_obrigatorio(dados.descricao_fatos, "descricao_fatos", "a descrição dos fatos")
    circunstancias = texto_opcional(dados.circunstancias, "circunstancias", "as circunstâncias")
    infrator = texto_opcional(dados.infrator_nome, "infrator_nome", "o nome do infrator", 300)
    data_lavratura = data_valida(dados.data_lavratura, "data_lavratura", "a data da lavratura")
    data_infracao = data_valida(dados.data_infracao, "data_infracao", "a data da infração")
    if data_infracao > data_lavratura:
        raise ErroDominio(
            f"A data da infração ({formatar_data(data_infracao)}) não pode ser posterior à da lavratura "
            f"({formatar_data(data_lavratura)}).",
            "data_infracao",
        )
    if not isinstance(dados.hora_lavratura, time):
        raise ErroDominio("Informe a hora da lavratura.", "hora_lavratura")
    if dados.hora_infracao is not None and not isinstance(dados.hora_infracao, time):
        raise ErroDominio("A hora da infração é inválida.", "hora_infracao")
    if (
        data_infracao == data_lavratura
        and dados.hora_infracao is not None
        and dados.hora_infracao > dados.hora_lavratura
    ):
        raise ErroDominio(
            f"A hora da infração ({dados.hora_infracao:%H:%M}) é posterior à da lavratura "
            f"({dados.hora_lavratura:%H:%M}), no mesmo dia.",
            "hora_infracao",
        )
    if len(dados.testemunhas) > MAXIMO_TESTEMUNHAS:
        raise ErroDominio(f"Informe no máximo {MAXIMO_TESTEMUNHAS} testemunhas.", "testemunhas")
    testemunhas = tuple(
        DadosTestemunha(
            nome=texto_obrigatorio(t.nome, "testemunhas", f"o nome da {i}ª testemunha", 200),
            documento=texto_opcional(t.documento, "testemunhas", "o documento da testemunha", 60),
            endereco=texto_opcional(t.endereco, "testemunhas", "o endereço da testemunha", 300),
        )
        for i, t in enumerate(dados.testemunhas, start=1)
    )
    return CamposAuto(
        local, local_lavratura, fatos, circunstancias, infrator, data_lavratura, data_infracao, testemunhas
    )


@dataclass(frozen=True)
class _LavraturaConferida:
    campos: CamposAuto
    dispositivo: DispositivoCitavel
    operadora: Operadora
    fiscal: Fiscal
    representacao: Representacao | None


def _conferir_lavratura(s: so.Session, ator: Ator, dados: NovoAuto, *, travar: bool) -> _LavraturaConferida:
    """Every check of `lavrar_auto`, in its order, writing nothing."""
    exigir_papel(ator, "fiscal", acao="lavrar autos de infração")
    c = validar_campos(dados)
    dispositivo = dispositivo_citavel(s, dados.dispositivo_codigo)
    operadora = obter(s, Operadora, dados.operadora_id, "Operadora", "operadora_id")
    conferir_fato(s, dados, operadora, c.data_infracao)
    fiscal = obter(s, Fiscal, dados.fiscal_id, "Fiscal", "fiscal_id")
    if not fiscal.ativo:
        raise ErroDominio(f"O fiscal {fiscal.nome} está inativo e não pode lavrar autos.", "fiscal_id")
    representacao = None
    if dados.representacao_id is not None:
        consulta = sa.select(Representacao).where(Representacao.id == dados.representacao_id)
        representacao = s.scalar(consulta.with_for_update() if travar else consulta)
        if representacao is None:
            raise NaoEncontrado("Representação não encontrada.", "representacao_id")
        if representacao.situacao != "recebida":
            raise ErroDominio(
                f"A representação nº {representacao.numero_formatado} já foi "
                f"{'autuada' if representacao.situacao == 'autuada' else 'arquivada'}.",
                "representacao_id",
            )
        if c.data_lavratura < representacao.recebida_em:
            raise ErroDominio(
                f"A data da lavratura ({formatar_data(c.data_lavratura)}) não pode ser anterior ao recebimento "
                f"da representação nº {representacao.numero_formatado} "
                f"({formatar_data(representacao.recebida_em)}).",
                "data_lavratura",
            )
    return _LavraturaConferida(c, dispositivo, operadora, fiscal, representacao)


def conferir_lavratura(sessao: so.Session, ator: Ator, dados: NovoAuto) -> None:
    """The refusals `lavrar_auto` would raise for `dados` (a future infraction date, an operator cassada
    before the fact, an inactive inspector, …), from a read session and writing nothing: what the form
    runs before asking to confirm, since an auto once numbered cannot be taken back."""
    _conferir_lavratura(sessao, ator, dados, travar=False)


@retentavel
def lavrar_auto(uow: UnidadeDeTrabalho, ator: Ator, dados: NovoAuto) -> ResumoAuto:
    """Draw up an auto: validate everything (`conferir_lavratura`'s checks, inside this unit of work),
    compute the next penalty as of its day, number it, audit."""
    with uow:
        s = uow.session
        conferida = _conferir_lavratura(s, ator, dados, travar=True)
        c = conferida.campos
        local, local_lavratura, fatos, circunstancias = c.local, c.local_lavratura, c.fatos, c.circunstancias
        infrator, data_lavratura, data_infracao = c.infrator, c.data_lavratura, c.data_infracao
        testemunhas = [
            Testemunha(nome=t.nome, documento=t.documento, endereco=t.endereco) for t in c.testemunhas
        ]
        dispositivo, operadora, fiscal = conferida.dispositivo, conferida.operadora, conferida.fiscal
        representacao = conferida.representacao
        antes_rep = imagem(representacao) if representacao is not None else None
        avaliacao = avaliar_sancao(
            s,
            operadora_id=operadora.id,
            dispositivo_codigo=dispositivo.codigo,
            data_infracao=data_infracao,
            data_valor=data_lavratura,
        )
        numero = proximo_numero(s, "AI", data_lavratura.year)
        auto = AutoInfracao(
            ano=data_lavratura.year,
            numero=numero,
            operadora_id=operadora.id,
            dispositivo_codigo=dispositivo.codigo,
            tipo=dispositivo.tipo,
            data_infracao=data_infracao,
            hora_infracao=dados.hora_infracao,
            local=local,
            data_lavratura=data_lavratura,
            hora_lavratura=dados.hora_lavratura,
            local_lavratura=local_lavratura,
            descricao_fatos=fatos,
            circunstancias=circunstancias,
            infrator_nome=infrator or operadora.razao_social,
            veiculo_id=dados.veiculo_id,
            linha_id=dados.linha_id,
            empregado_id=dados.empregado_id,
            fiscal_id=fiscal.id,
            recusou_assinar=bool(dados.recusou_assinar),
            proxima_penalidade=texto_proxima_penalidade(avaliacao),
            representacao_id=dados.representacao_id,
            lavrado_por=ator.login,
            fase="lavrado",
            alterado_por=ator.login,
        )
        auto.testemunhas = testemunhas
        s.add(auto)
        if representacao is not None:
            representacao.situacao = "autuada"
            representacao.alterado_por = ator.login
        s.flush()
        depois = imagem(auto, testemunhas=auditoria.imagem_testemunhas(testemunhas))
        auditoria.registrar(s, ator, "lavrar_auto", "auto_infracao", auto.id, None, depois)
        juntadas: tuple[str, ...] = ()
        nao_juntadas: tuple[str, ...] = ()
        if representacao is not None:
            auditoria.registrar(
                s,
                ator,
                "autuar_representacao",
                "representacao",
                representacao.id,
                antes_rep,
                imagem(representacao),
            )
            juntadas, nao_juntadas = _juntar_provas(s, ator, representacao, auto.id)
        uow.commit()
        return ResumoAuto(
            id=auto.id,
            ano=auto.ano,
            numero=auto.numero,
            numero_formatado=auto.numero_formatado,
            proxima_penalidade=auto.proxima_penalidade,
            versao=auto.versao,
            provas_juntadas=juntadas,
            provas_nao_juntadas=nao_juntadas,
        )


def _juntar_provas(
    s: so.Session, ator: Ator, representacao: Representacao, auto_id: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The representação's evidence files become the auto's too, by reference: the same stored bytes and
    SHA-256 (a 20 MB file is not copied), listed by both. Each is checked first (a file altered since it was
    attached is left out and named) and gets its audit row saying which representação it came from."""
    juntadas: list[str] = []
    nao_juntadas: list[str] = []
    anexos = s.scalars(
        sa.select(Anexo)
        .where(Anexo.representacao_id == representacao.id, Anexo.auto_id.is_(None))
        .order_by(Anexo.id)
    ).all()
    for anexo in anexos:
        conferido = verificar_anexo(s, anexo.id)
        if not conferido.integro:
            nao_juntadas.append(f"{anexo.nome_arquivo}: {conferido.motivo}")
            continue
        antes = imagem(anexo)
        anexo.auto_id = auto_id
        s.flush()
        depois = imagem(anexo, origem=f"representação nº {representacao.numero_formatado}")
        auditoria.registrar(s, ator, "juntar_prova_da_representacao", "anexo", anexo.id, antes, depois)
        juntadas.append(anexo.nome_arquivo)
    return tuple(juntadas), tuple(nao_juntadas)


def conferir_fato(s: so.Session, dados: NovoAuto, operadora: Operadora, dia: date) -> None:
    """The operator could be cited for a fact of `dia` (not cassada before it), and the vehicle, line and
    employee named are its own."""
    if operadora.cassada_em is not None and operadora.cassada_em < dia:
        raise ErroDominio(
            f"A operadora {operadora.razao_social} teve a permissão cassada em "
            f"{formatar_data(operadora.cassada_em)}, antes do fato: não pode ser autuada por ele.",
            "operadora_id",
        )
    _conferir_vinculos(s, dados, operadora, dia)


def _conferir_vinculos(s: so.Session, dados: NovoAuto, operadora: Operadora, dia: date) -> None:
    """The vehicle, line and employee named must be the operator's (the vehicle: on the day of the fact)."""
    if dados.veiculo_id is not None:
        veiculo = obter(s, Veiculo, dados.veiculo_id, "Veículo", "veiculo_id")
        if veiculo.operadora_id != operadora.id:
            serviu = s.scalar(
                sa.select(VeiculoHistorico.id).where(
                    VeiculoHistorico.veiculo_id == veiculo.id,
                    VeiculoHistorico.operadora_id == operadora.id,
                    VeiculoHistorico.inicio <= dia,
                    sa.or_(VeiculoHistorico.fim.is_(None), VeiculoHistorico.fim >= dia),
                )
            )
            if serviu is None:
                raise ErroDominio(
                    f"O veículo {veiculo.prefixo} (placa {veiculo.placa}) não pertencia à operadora "
                    f"{operadora.razao_social} em {formatar_data(dia)}.",
                    "veiculo_id",
                )
    if dados.linha_id is not None:
        linha = obter(s, Linha, dados.linha_id, "Linha", "linha_id")
        if linha.operadora_id != operadora.id:
            raise ErroDominio(
                f"A linha {linha.codigo} não é operada por {operadora.razao_social.rstrip('.')}.", "linha_id"
            )
    if dados.empregado_id is not None:
        empregado = obter(s, Empregado, dados.empregado_id, "Empregado", "empregado_id")
        if empregado.operadora_id != operadora.id:
            raise ErroDominio(
                f"{empregado.nome} não é empregado(a) de {operadora.razao_social.rstrip('.')}.",
                "empregado_id",
            )


# --- evidence files ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResumoAnexo:
    id: int
    nome_arquivo: str
    tipo_mime: str
    tamanho: int
    sha256: str


def novo_anexo(ator: Ator, nome: str, tipo: str, conteudo: bytes, **destino: int) -> Anexo:
    dados = bytes(conteudo)
    return Anexo(
        nome_arquivo=nome,
        tipo_mime=tipo,
        tamanho=len(dados),
        sha256=hashlib.sha256(dados).hexdigest(),
        conteudo=dados,
        anexado_em=relogio.agora(),
        anexado_por=ator.login,
        **destino,
    )


@retentavel
def anexar_evidencia(
    uow: UnidadeDeTrabalho, ator: Ator, *, auto_id: int, nome_arquivo: str, conteudo: bytes
) -> ResumoAnexo:
    """Attach a photo or scan to the auto, stored with its SHA-256 (20 MB; PDF, JPEG or PNG by content)."""
    exigir_papel(ator, "fiscal", "protocolo", acao="anexar arquivos ao auto")
    nome, tipo = validar_conteudo(nome_arquivo, conteudo)
    with uow:
        s = uow.session
        auto_para_ato(s, auto_id, "anexar arquivos")
        anexo = novo_anexo(ator, nome, tipo, conteudo, auto_id=auto_id)
        s.add(anexo)
        s.flush()
        auditoria.registrar(
            s, ator, "anexar_evidencia", "anexo", anexo.id, None, imagem(anexo, auto_id=auto_id)
        )
        uow.commit()
        return ResumoAnexo(anexo.id, anexo.nome_arquivo, anexo.tipo_mime, anexo.tamanho, anexo.sha256)


@dataclass(frozen=True)
class ArquivoAnexo:
    nome_arquivo: str
    tipo_mime: str
    conteudo: bytes
    sha256: str
    integro: bool
    """False when the bytes no longer match the SHA-256 stored when the file was attached."""


def abrir_anexo(sessao: so.Session, anexo_id: int) -> ArquivoAnexo:
    """The attached file's bytes, checked against the SHA-256 stored with it."""
    anexo = obter(sessao, Anexo, anexo_id, "Anexo")
    conteudo = bytes(anexo.conteudo)
    return ArquivoAnexo(
        nome_arquivo=anexo.nome_arquivo,
        tipo_mime=anexo.tipo_mime,
        conteudo=conteudo,
        sha256=anexo.sha256,
        integro=hashlib.sha256(conteudo).hexdigest() == anexo.sha256,
    )


# --- cancelling --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PedidoCancelamento:
    """What `cancelar_auto` and `conferir_cancelamento` are asked: which auto, and why."""

    auto_id: int
    motivo: str
    versao: int | None = None


def _conferir_cancelamento(
    s: so.Session, ator: Ator, pedido: PedidoCancelamento, *, travar: bool = True
) -> tuple[AutoInfracao, str]:
    """Every check of `cancelar_auto`, in its order, writing nothing."""
    exigir_papel(ator, "autoridade", "secretario", acao="cancelar autos de infração")
    motivo_limpo = texto_obrigatorio(pedido.motivo, "motivo", "o motivo do cancelamento")
    auto = auto_para_ato(s, pedido.auto_id, "cancelá-lo novamente", travar=travar)
    verificar_versao(auto, pedido.versao, f"O auto nº {auto.numero_formatado}")
    decisao = s.scalar(sa.select(Decisao.data).where(Decisao.auto_id == auto.id))
    if decisao is not None:
        raise ErroDominio(
            f"O auto nº {auto.numero_formatado} já foi decidido em {formatar_data(decisao)}: não pode mais "
            "ser cancelado; a decisão só se altera pelo recurso ao Prefeito (art. 15).",
            "auto_id",
        )
    return auto, motivo_limpo


def conferir_cancelamento(sessao: so.Session, ator: Ator, pedido: PedidoCancelamento) -> None:
    """The refusals `cancelar_auto` would raise (an auto already decided or cancelled), from a read
    session and writing nothing: what the screen runs before asking to confirm."""
    _conferir_cancelamento(sessao, ator, pedido, travar=False)


@retentavel
def cancelar_auto(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoCancelamento) -> None:
    """Cancel an auto with reasons (never delete it). Refused once the Secretary has decided it: from then
    on the decision stands until the appeal (art. 15) changes it, and the decision must stay on record.
    The checks are `conferir_cancelamento`'s, run again inside this unit of work."""
    with uow:
        s = uow.session
        auto, motivo_limpo = _conferir_cancelamento(s, ator, pedido)
        antes = imagem(auto)
        auto.fase = "cancelado"
        auto.cancelado_em = relogio.agora()
        auto.cancelado_por = ator.login
        auto.motivo_cancelamento = motivo_limpo
        auto.penalidade_anulada = True
        auto.alterado_por = ator.login
        s.flush()
        auditoria.registrar(s, ator, "cancelar_auto", "auto_infracao", auto.id, antes, imagem(auto))
        # Every act that annuls a penalty feeds the review list (Lei 9.784/1999, art. 65); an auto is
        # cancelled only before any decision, so it never counted as recidivism and nothing is listed.
        from secretaria.services.revisao_sancao import sinalizar

        sinalizar(s, ator, auto, "foi cancelado")
        uow.commit()
