"""Representação (art. 12): any person's petition; then an auto drawn up from it, or filed away with reasons."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.catalogo import NOTA_ART12_PARAGRAFO2
from secretaria.lei.formato import formatar_data
from secretaria.models import Anexo, AutoInfracao, DispositivoCatalogo, Operadora, Representacao
from secretaria.services import auditoria
from secretaria.services.anexos import validar_conteudo
from secretaria.services.autos import ResumoAnexo, novo_anexo
from secretaria.services.base import (
    Ator,
    ErroDominio,
    exigir_papel,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)
from secretaria.services.numeracao import proximo_numero
from secretaria.services.processo_base import data_valida, imagem, obter


@dataclass(frozen=True)
class ResumoRepresentacao:
    id: int
    numero_formatado: str
    """"0001/2026" (shown as "REP nº 0001/2026")."""
    versao: int


@retentavel
def receber_representacao(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    recebida_em: date,
    peticionario_nome: str,
    peticionario_profissao: str,
    peticionario_endereco: str,
    fatos: str,
    meios_prova: str,
    peticionario_contato: str = "",
    operadora_id: int | None = None,
    dispositivo_codigo: str | None = None,
    data_fato: date | None = None,
    local_fato: str = "",
) -> ResumoRepresentacao:
    """Receive a petition: art. 12 § 1º asks the petitioner's name, profession and address, and the evidence
    or the means by which the infraction became known."""
    exigir_papel(ator, "fiscal", acao="receber representações")
    nome = texto_obrigatorio(peticionario_nome, "peticionario_nome", "o nome do autor da representação", 200)
    profissao = texto_obrigatorio(
        peticionario_profissao,
        "peticionario_profissao",
        "a profissão do autor da representação (art. 12, § 1º)",
        120,
    )
    endereco = texto_obrigatorio(
        peticionario_endereco,
        "peticionario_endereco",
        "o endereço do autor da representação (art. 12, § 1º)",
        300,
    )
    contato = texto_opcional(peticionario_contato, "peticionario_contato", "o contato", 200)
    fatos_limpos = texto_obrigatorio(fatos, "fatos", "os fatos representados")
    provas = texto_obrigatorio(
        meios_prova,
        "meios_prova",
        "as provas ou os meios pelos quais a infração se tornou conhecida (art. 12, § 1º)",
    )
    local = texto_opcional(local_fato, "local_fato", "o local do fato", 300)
    dia = data_valida(recebida_em, "recebida_em", "a data do recebimento")
    fato = None
    if data_fato is not None:
        fato = data_valida(data_fato, "data_fato", "a data do fato")
        if fato > dia:
            raise ErroDominio(
                f"A data do fato ({formatar_data(fato)}) é posterior ao recebimento ({formatar_data(dia)}).",
                "data_fato",
            )
    with uow:
        s = uow.session
        if operadora_id is not None:
            obter(s, Operadora, operadora_id, "Operadora", "operadora_id")
        codigo = None
        if dispositivo_codigo:
            codigo = dispositivo_codigo.strip().upper()
            if s.get(DispositivoCatalogo, codigo) is None:
                raise ErroDominio(
                    f"O dispositivo “{dispositivo_codigo}” não existe no catálogo.", "dispositivo_codigo"
                )
        numero = proximo_numero(s, "REP", dia.year)
        rep = Representacao(
            ano=dia.year,
            numero=numero,
            recebida_em=dia,
            peticionario_nome=nome,
            peticionario_profissao=profissao,
            peticionario_endereco=endereco,
            peticionario_contato=contato,
            fatos=fatos_limpos,
            meios_prova=provas,
            operadora_id=operadora_id,
            dispositivo_codigo=codigo,
            data_fato=fato,
            local_fato=local,
            situacao="recebida",
            recebida_por=ator.login,
            alterado_por=ator.login,
        )
        s.add(rep)
        s.flush()
        auditoria.registrar(s, ator, "receber_representacao", "representacao", rep.id, None, imagem(rep))
        uow.commit()
        return ResumoRepresentacao(rep.id, rep.numero_formatado, rep.versao)


@retentavel
def _conferir_arquivamento(
    s: so.Session,
    ator: Ator,
    *,
    representacao_id: int,
    motivo: str,
    data: date | None = None,
    versao: int | None = None,
    travar: bool = True,
) -> tuple[Representacao, str, date]:
    """Every check of `arquivar_representacao`, in its order, writing nothing: the petition, the reasons and
    the day."""
    exigir_papel(ator, "autoridade", "secretario", acao="arquivar representações")
    motivo_limpo = texto_obrigatorio(motivo, "motivo", "o motivo do arquivamento")
    consulta = sa.select(Representacao).where(Representacao.id == representacao_id)
    rep = s.scalar(consulta.with_for_update() if travar else consulta)
    if rep is None:
        raise ErroDominio("Representação não encontrada.", "representacao_id")
    verificar_versao(rep, versao, f"A representação nº {rep.numero_formatado}")
    if rep.situacao != "recebida":
        raise ErroDominio(
            f"A representação nº {rep.numero_formatado} já foi "
            f"{'autuada' if rep.situacao == 'autuada' else 'arquivada'}.",
            "representacao_id",
        )
    dia = data_valida(
        data or relogio.hoje(),
        "data",
        "a data do arquivamento",
        minimo=rep.recebida_em,
        rotulo_minimo="o recebimento",
    )
    return rep, motivo_limpo, dia


def conferir_arquivamento(
    sessao: so.Session,
    ator: Ator,
    *,
    representacao_id: int,
    motivo: str,
    data: date | None = None,
    versao: int | None = None,
) -> None:
    """The refusals `arquivar_representacao` would raise, from a read session and writing nothing: what the
    screen runs before asking to confirm the filing (which cannot be undone)."""
    _conferir_arquivamento(
        sessao, ator, representacao_id=representacao_id, motivo=motivo, data=data, versao=versao, travar=False
    )


@retentavel
def arquivar_representacao(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    representacao_id: int,
    motivo: str,
    data: date | None = None,
    versao: int | None = None,
) -> None:
    """File the petition away with reasons (art. 12 § 2º: the competent authority draws it up, or files it).

    Filing a citizen's petition is the authority's decision, not the inspector's: fiscal may receive it and
    draw up the auto, but only autoridade or secretário may file it away. The checks are
    `conferir_arquivamento`'s, run again inside this unit of work.
    """
    with uow:
        s = uow.session
        rep, motivo_limpo, dia = _conferir_arquivamento(
            s, ator, representacao_id=representacao_id, motivo=motivo, data=data, versao=versao
        )
        antes = imagem(rep)
        rep.situacao = "arquivada"
        rep.arquivada_em = dia
        rep.motivo_arquivamento = motivo_limpo
        rep.alterado_por = ator.login
        s.flush()
        auditoria.registrar(s, ator, "arquivar_representacao", "representacao", rep.id, antes, imagem(rep))
        uow.commit()


@retentavel
def anexar_prova_representacao(
    uow: UnidadeDeTrabalho, ator: Ator, *, representacao_id: int, nome_arquivo: str, conteudo: bytes
) -> ResumoAnexo:
    """Attach the petition's evidence (PDF, JPEG or PNG by content; 20 MB), stored with its SHA-256."""
    exigir_papel(ator, "fiscal", acao="anexar provas à representação")
    nome, tipo = validar_conteudo(nome_arquivo, conteudo)
    with uow:
        s = uow.session
        obter(s, Representacao, representacao_id, "Representação", "representacao_id")
        anexo = novo_anexo(ator, nome, tipo, conteudo, representacao_id=representacao_id)
        s.add(anexo)
        s.flush()
        auditoria.registrar(s, ator, "anexar_prova_representacao", "anexo", anexo.id, None, imagem(anexo))
        uow.commit()
        return ResumoAnexo(anexo.id, anexo.nome_arquivo, anexo.tipo_mime, anexo.tamanho, anexo.sha256)


@dataclass(frozen=True)
class PreenchimentoAuto:
    """What the auto form starts with when drawn up from a representação (the user completes the rest)."""

    representacao_id: int
    representacao_numero: str
    operadora_id: int | None
    dispositivo_codigo: str | None
    data_infracao: date | None
    local: str
    descricao_fatos: str
    circunstancias: str
    nota: str
    """Art. 12 § 2º cites art. 10 items IV, V and VI; the program applies IV and V (see the note)."""


def dados_auto_de_representacao(sessao: so.Session, representacao_id: int) -> PreenchimentoAuto:
    """Pre-fill for the auto form from a received representação; refused once it was drawn up or filed."""
    rep = obter(sessao, Representacao, representacao_id, "Representação", "representacao_id")
    if rep.situacao != "recebida":
        raise ErroDominio(
            f"A representação nº {rep.numero_formatado} já foi "
            f"{'autuada' if rep.situacao == 'autuada' else 'arquivada'}.",
            "representacao_id",
        )
    return PreenchimentoAuto(
        representacao_id=rep.id,
        representacao_numero=rep.numero_formatado,
        operadora_id=rep.operadora_id,
        dispositivo_codigo=rep.dispositivo_codigo,
        data_infracao=rep.data_fato,
        local=rep.local_fato,
        descricao_fatos=rep.fatos,
        circunstancias=(
            f"Conforme a representação nº {rep.numero_formatado}, recebida em {formatar_data(rep.recebida_em)}, "
            f"de {rep.peticionario_nome} ({rep.peticionario_profissao}). Provas/meios: {rep.meios_prova}"
        ),
        nota=NOTA_ART12_PARAGRAFO2,
    )


SITUACOES_REPRESENTACAO = {"recebida": "Recebida", "autuada": "Autuada", "arquivada": "Arquivada"}


@dataclass(frozen=True)
class AnexoRepresentacao:
    id: int
    nome_arquivo: str
    tipo_mime: str
    tamanho: int
    sha256: str
    anexado_em: datetime
    anexado_por: str


@dataclass(frozen=True)
class RepresentacaoDetalhe:
    """Everything about a representação, as its screen shows it."""

    id: int
    numero_formatado: str
    versao: int
    situacao: str
    """ "recebida", "autuada" or "arquivada"."""
    situacao_rotulo: str
    recebida_em: date
    recebida_por: str
    peticionario_nome: str
    peticionario_profissao: str
    peticionario_endereco: str
    peticionario_contato: str
    fatos: str
    meios_prova: str
    operadora_id: int | None
    operadora_nome: str | None
    dispositivo_codigo: str | None
    dispositivo_rotulo: str | None
    dispositivo_texto: str | None
    data_fato: date | None
    local_fato: str
    arquivada_em: date | None
    motivo_arquivamento: str | None
    anexos: tuple[AnexoRepresentacao, ...]
    auto_id: int | None
    """The auto drawn up from it (art. 12 § 2º), if any."""
    auto_numero: str | None
    """ "0007/2026"."""
    auto_fase: str | None
    alterado_em: datetime
    alterado_por: str | None


def obter_representacao(sessao: so.Session, representacao_id: int) -> RepresentacaoDetalhe:
    """The whole representação: petitioner, facts, evidence and its files, status, the filing reasons and
    date, and the auto drawn up from it with its number."""
    rep = obter(sessao, Representacao, representacao_id, "Representação", "representacao_id")
    operadora_nome = (
        sessao.scalar(sa.select(Operadora.razao_social).where(Operadora.id == rep.operadora_id))
        if rep.operadora_id is not None
        else None
    )
    dispositivo = sessao.get(DispositivoCatalogo, rep.dispositivo_codigo) if rep.dispositivo_codigo else None
    anexos = tuple(
        AnexoRepresentacao(
            a.id, a.nome_arquivo, a.tipo_mime, a.tamanho, a.sha256, a.anexado_em, a.anexado_por
        )
        for a in sessao.execute(
            sa.select(
                Anexo.id,
                Anexo.nome_arquivo,
                Anexo.tipo_mime,
                Anexo.tamanho,
                Anexo.sha256,
                Anexo.anexado_em,
                Anexo.anexado_por,
            )
            .where(Anexo.representacao_id == rep.id)
            .order_by(Anexo.id)
        )
    )
    auto = sessao.execute(
        sa.select(AutoInfracao.id, AutoInfracao.numero, AutoInfracao.ano, AutoInfracao.fase)
        .where(AutoInfracao.representacao_id == rep.id)
        .order_by(AutoInfracao.id)
        .limit(1)
    ).first()
    return RepresentacaoDetalhe(
        id=rep.id,
        numero_formatado=rep.numero_formatado,
        versao=rep.versao,
        situacao=rep.situacao,
        situacao_rotulo=SITUACOES_REPRESENTACAO.get(rep.situacao, rep.situacao),
        recebida_em=rep.recebida_em,
        recebida_por=rep.recebida_por,
        peticionario_nome=rep.peticionario_nome,
        peticionario_profissao=rep.peticionario_profissao,
        peticionario_endereco=rep.peticionario_endereco,
        peticionario_contato=rep.peticionario_contato or "",
        fatos=rep.fatos,
        meios_prova=rep.meios_prova or "",
        operadora_id=rep.operadora_id,
        operadora_nome=operadora_nome,
        dispositivo_codigo=rep.dispositivo_codigo,
        dispositivo_rotulo=dispositivo.rotulo if dispositivo is not None else rep.dispositivo_codigo,
        dispositivo_texto=dispositivo.texto if dispositivo is not None else None,
        data_fato=rep.data_fato,
        local_fato=rep.local_fato or "",
        arquivada_em=rep.arquivada_em,
        motivo_arquivamento=rep.motivo_arquivamento,
        anexos=anexos,
        auto_id=auto.id if auto is not None else None,
        auto_numero=f"{auto.numero:04d}/{auto.ano}" if auto is not None else None,
        auto_fase=auto.fase if auto is not None else None,
        alterado_em=rep.alterado_em,
        alterado_por=rep.alterado_por,
    )
