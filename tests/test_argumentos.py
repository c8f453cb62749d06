"""The command line in Portuguese: every help of `secretaria` and of its sub-commands, and argparse's
errors (a missing argument, a bad choice, an unknown argument, a missing value), as a user reads them."""

from __future__ import annotations

import argparse
import re

import pytest

from secretaria import cli

# argparse's own words in English, and the internal names a help must not show.
_INGLES = re.compile(
    r"usage|options:|optional arguments|positional arguments|show this help|error:|required|"
    r"invalid choice|unrecognized|expected|argument |choose from|DB_SUB|CRIAR_SUB|db_sub",
)


def _subcomandos(parser: argparse.ArgumentParser, caminho: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    caminhos = [caminho]
    for acao in parser._actions:
        if isinstance(acao, argparse._SubParsersAction):
            for nome, sub in acao.choices.items():
                caminhos += _subcomandos(sub, (*caminho, nome))
    return caminhos


CAMINHOS = _subcomandos(cli._parser())


def _rodar(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as saida:
        cli.main(list(args))
    capturado = capsys.readouterr()
    return int(saida.value.code or 0), capturado.out, capturado.err


def test_ha_ajuda_de_todos_os_subcomandos() -> None:
    assert ("documento", "intimacoes") in CAMINHOS and ("auditoria", "termo") in CAMINHOS
    assert len(CAMINHOS) >= 18


@pytest.mark.parametrize("caminho", CAMINHOS, ids=lambda c: " ".join(c) or "secretaria")
@pytest.mark.parametrize("opcao", ["--ajuda", "-h", "--help"])
def test_ajuda_sem_ingles(capsys: pytest.CaptureFixture[str], caminho: tuple[str, ...], opcao: str) -> None:
    codigo, saida, erro = _rodar(capsys, *caminho, opcao)
    assert codigo == 0 and erro == ""
    assert saida.startswith("uso: secretaria") and "opções:" in saida
    assert "-h, --ajuda           mostra esta ajuda e sai" in saida or "mostra esta ajuda e sai" in saida
    assert _INGLES.search(saida) is None, _INGLES.search(saida)
    assert "--help" not in saida  # still accepted, not listed


def test_opcoes_com_valor_tem_nome_em_portugues(capsys: pytest.CaptureFixture[str]) -> None:
    _c, saida, _e = _rodar(capsys, "backup", "--ajuda")
    assert "--db URL" in saida and "--manter N" in saida and "[DESTINO]" in saida
    _c, saida, _e = _rodar(capsys, "usuario", "criar", "--ajuda")
    assert "--papel PAPEL" in saida and "--nome NOME" in saida and "LOGIN" in saida
    _c, saida, _e = _rodar(capsys, "--ajuda")
    assert "COMANDO" in saida and "demo" in saida


@pytest.mark.parametrize(
    ("args", "esperado"),
    [
        (("documento",), "secretaria documento: erro: faltam os argumentos obrigatórios: COMANDO"),
        (("usuario", "criar", "ana"), "faltam os argumentos obrigatórios: --papel"),
        (("bla",), "erro: argumento COMANDO: valor inválido: 'bla' (escolha entre 'demo', "),
        (("--xyz",), "secretaria: erro: argumentos não reconhecidos: --xyz"),
        (("backup", "--manter"), "erro: argumento --manter: espera um valor"),
        (("backup", "--manter", "dois"), "argumento --manter: “dois” não é um número inteiro"),
    ],
)
def test_erros_em_portugues(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], esperado: str) -> None:
    codigo, saida, erro = _rodar(capsys, *args)
    assert codigo == cli.SAIDA_ERRO and saida == ""
    assert erro.startswith("uso: secretaria")
    assert esperado in erro
    assert _INGLES.search(erro) is None, _INGLES.search(erro)


def test_outro_argparse_no_mesmo_processo_continua_em_ingles() -> None:
    cli._parser().format_help()
    assert "usage:" in argparse.ArgumentParser(prog="outro").format_usage()
