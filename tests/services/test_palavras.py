"""The Portuguese of the messages: contractions, gender agreement, real plurals, accented audit labels."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from secretaria.db import Banco
from secretaria.models import Linha, Operadora
from secretaria.services import cadastros
from secretaria.services.backup import ResultadoDiaria
from secretaria.services.base import ErroDominio, NaoEncontrado, mensagem_nao_encontrado
from secretaria.services.processo_base import obter, urm_valida
from secretaria.services.rotulos import com_preposicao, invalido, rotulo_acao, rotulo_entidade


@pytest.mark.parametrize(
    ("preposicao", "frase", "esperado"),
    [
        ("em", "a validade da vistoria", "na validade da vistoria"),
        ("em", "o início do contrato", "no início do contrato"),
        ("em", "as datas", "nas datas"),
        ("de", "o contrato", "do contrato"),
        ("de", "a licença", "da licença"),
        ("a", "a operadora", "à operadora"),
        ("por", "o fiscal", "pelo fiscal"),
        ("em", "Admissão", "em Admissão"),
        ("em", "hora da infração", "em hora da infração"),
    ],
)
def test_preposicao_contrai_com_o_artigo(preposicao: str, frase: str, esperado: str) -> None:
    assert com_preposicao(preposicao, frase) == esperado


def test_concordancia_de_invalido() -> None:
    assert invalido("O início do contrato") == "inválido"
    assert invalido("A validade da licença") == "inválida"


def test_data_invalida_concorda_com_o_rotulo() -> None:
    with pytest.raises(ErroDominio) as erro:
        cadastros._data_opcional("31/02/2026", "contrato_inicio", "O início do contrato")  # type: ignore[arg-type]
    assert erro.value.mensagem == "O início do contrato é inválido: use dd/mm/aaaa."
    with pytest.raises(ErroDominio) as erro:
        urm_valida("abc", "multa_ur", "o valor da multa")
    assert "é inválido" in erro.value.mensagem


def test_nao_encontrado_com_genero_e_sem_numero_none() -> None:
    assert mensagem_nao_encontrado("Linha", None) == (
        "Linha não encontrada. Talvez tenha sido removida por outro usuário."
    )
    assert mensagem_nao_encontrado("Veículo", 7) == (
        "Veículo não encontrado (nº 7). Talvez tenha sido removido por outro usuário."
    )
    assert "None" not in mensagem_nao_encontrado("Operadora", None)


def test_obter_sem_identificador_nao_diz_none(banco: Banco) -> None:
    with banco.leitura() as sessao:
        with pytest.raises(NaoEncontrado) as erro:
            obter(sessao, Linha, None, "Linha", "linha_id")
        assert erro.value.mensagem == "Linha não encontrada. Talvez tenha sido removida por outro usuário."
        with pytest.raises(NaoEncontrado) as erro:
            cadastros._obter(sessao, Operadora, 999_999, "Operadora")
        assert erro.value.mensagem.startswith("Operadora não encontrada (nº 999999).")
        assert "(a)" not in erro.value.mensagem


def test_acoes_e_entidades_da_auditoria_em_portugues() -> None:
    assert rotulo_acao("criar_usuario") == "Criar usuário"
    assert rotulo_acao("adicionar_dia_nao_util") == "Cadastrar dia sem expediente"
    assert rotulo_acao("registrar_intimacao") == "Registrar intimação"
    assert rotulo_acao("editar_dados_orgao") == "Editar os dados do órgão"
    assert rotulo_entidade("documento_emitido") == "Documento emitido"
    assert rotulo_entidade("dia_nao_util") == "Dia sem expediente"
    assert "_" not in rotulo_entidade("tabela_nova")


def test_copia_diaria_com_plural_de_verdade(tmp_path: Path) -> None:
    copia = tmp_path / "c.sqlite"
    assert ResultadoDiaria(copia, (tmp_path / "a",)).mensagem.endswith("(1 cópia antiga removida).")
    duas = ResultadoDiaria(copia, (tmp_path / "a", tmp_path / "b")).mensagem
    assert duas.endswith("(2 cópias antigas removidas).")
    assert "(s)" not in duas


@pytest.mark.parametrize(
    ("descricao", "esperado"),
    [
        (
            "O auto nº 0001/2026",
            "O auto nº 0001/2026 foi alterado por ana em 30/11/2026 às 10:05 depois que você o abriu.",
        ),
        (
            "A representação nº 0002/2026",
            "A representação nº 0002/2026 foi alterada por ana em 30/11/2026 às 10:05 depois que você a abriu.",
        ),
        (
            "Os dados do órgão",
            "Os dados do órgão foram alterados por ana em 30/11/2026 às 10:05 depois que você os abriu.",
        ),
    ],
)
def test_conflito_de_edicao_concorda_com_o_artigo(descricao: str, esperado: str) -> None:
    from dataclasses import dataclass
    from datetime import datetime

    from secretaria.erros import ConflitoEdicao, verificar_versao

    @dataclass
    class Registro:
        versao: int = 3
        alterado_por: str | None = "ana"
        alterado_em: datetime = datetime(2026, 11, 30, 10, 5)

    with pytest.raises(ConflitoEdicao) as erro:
        verificar_versao(Registro(), 2, descricao)
    assert erro.value.mensagem.startswith(esperado)


def test_linha_do_tempo_sem_ponto_dobrado(banco: Banco, roteiro: Any) -> None:
    """A place, a reason or a note typed with its own period ("… esq. c/ Rua XV, obs.") ends its sentence
    once on the timeline: never "obs..", never ".:"."""
    from secretaria.services.caso import obter_caso

    auto = roteiro.lavrar(local="Av. Bento Gonçalves, 100, em frente ao nº 5, obs.")
    with banco.leitura() as s:
        caso = obter_caso(s, int(auto.id))
    textos = [f"{e.titulo} {e.descricao}" for e in caso.linha_do_tempo]
    assert "Av. Bento Gonçalves, 100, em frente ao nº 5, obs." in textos[0]
    assert not [t for t in textos if re.search(r"(?<!\.)\.\.(?!\.)|\.:|::", t)], textos
