"""The command line and the GUI entry point (`secretaria`, `python -m secretaria`).

Heavy libraries (Qt, ReportLab, openpyxl) are imported only by the sub-command that needs them, so a
scheduled `secretaria relatorio …` or `secretaria backup …` starts quickly.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from pathlib import Path

SAIDA_ERRO = 2


class ErroLinhaDeComando(Exception):
    """Bad input on the command line: printed as one message, exit code 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="secretaria",
        description="Secretaria — fiscalização do transporte coletivo de Pelotas (Lei nº 2.413/1978).",
    )
    p.add_argument(
        "--db", help="banco de dados: arquivo SQLite ou postgresql+psycopg://usuario@servidor/banco"
    )
    sub = p.add_subparsers(dest="comando")

    demo = sub.add_parser("demo", help="cria (se preciso) e abre o banco de demonstração")
    demo.add_argument(
        "--db", dest="db_sub", help="banco de demonstração (padrão: demo.sqlite na pasta de dados)"
    )
    demo.add_argument("--abrir", action="store_true", help="abre o programa no banco de demonstração")
    demo.add_argument(
        "--recriar", action="store_true", help="apaga e recria o banco de demonstração (SQLite)"
    )

    backup = sub.add_parser("backup", help="cópia de segurança do banco")
    backup.add_argument("destino", help="arquivo de destino da cópia")
    backup.add_argument("--db", dest="db_sub")

    usuario = sub.add_parser("usuario", help="administração de usuários")
    usub = usuario.add_subparsers(dest="acao_usuario", required=True)
    criar = usub.add_parser("criar", help="cria um usuário (a senha é pedida no terminal ou lida da entrada)")
    criar.add_argument("login")
    criar.add_argument("--nome", help="nome completo (padrão: o login)")
    criar.add_argument("--papel", action="append", required=True, help="papel (pode repetir)")
    criar.add_argument("--db", dest="db_sub")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    url = getattr(args, "db_sub", None) or args.db
    from secretaria.db import ErroBanco
    from secretaria.services.base import ErroDominio

    try:
        if args.comando is None:
            return _abrir_programa(url, demo=False)
        if args.comando == "demo":
            return _demo(url, abrir=args.abrir, recriar=args.recriar)
        if args.comando == "backup":
            return _backup(url, Path(args.destino))
        if args.comando == "usuario":
            return _usuario_criar(url, args.login, args.nome or args.login, args.papel)
    except (ErroBanco, ErroDominio, ErroLinhaDeComando) as exc:
        print(f"secretaria: {exc}", file=sys.stderr)
        return SAIDA_ERRO
    return 0


def url_demo() -> str:
    from secretaria.db import pasta_dados

    return f"sqlite:///{pasta_dados() / 'demo.sqlite'}"


def _abrir_programa(url: str | None, *, demo: bool) -> int:
    from secretaria.db import abrir_banco

    banco = abrir_banco(url)
    from secretaria.ui.app import executar

    return executar(banco, demo=demo)


def _demo(url: str | None, *, abrir: bool, recriar: bool) -> int:
    from secretaria.db import abrir_banco, arquivo_sqlite, pasta_dados
    from secretaria.services.demo import popular_demo

    alvo = url or url_demo()
    arquivo = arquivo_sqlite(alvo)
    if arquivo is not None and url is None:
        pasta_dados().mkdir(parents=True, exist_ok=True)
    if recriar and arquivo is not None:
        for sufixo in ("", "-wal", "-shm"):
            Path(f"{arquivo}{sufixo}").unlink(missing_ok=True)
    banco = abrir_banco(alvo)
    try:
        criado = popular_demo(banco, progresso=_progresso_terminal)
        if criado:
            print(f"Banco de demonstração criado em {banco.url_exibicao}.")
        else:
            print(f"Banco de demonstração: {banco.url_exibicao} (já existente).")
    finally:
        if not abrir:
            banco.fechar()
    if not abrir:
        return 0
    from secretaria.ui.app import executar

    return executar(banco, demo=True)


def _progresso_terminal(feito: int, total: int, etapa: str) -> None:
    if sys.stderr.isatty():
        print(f"\r{etapa}: {feito}/{total}", end="" if feito < total else "\n", file=sys.stderr, flush=True)


def _backup(url: str | None, destino: Path) -> int:
    from secretaria.services.backup import fazer_backup

    mensagem = fazer_backup(url, destino)
    print(mensagem)
    return 0


def _ler_senha() -> str:
    if sys.stdin.isatty():
        senha = getpass.getpass("Senha: ")
        if getpass.getpass("Repita a senha: ") != senha:
            raise ErroLinhaDeComando("As senhas não conferem; nada foi gravado.")
        return senha
    return sys.stdin.readline().rstrip("\n")


def _usuario_criar(url: str | None, login: str, nome: str, papeis: list[str]) -> int:
    from secretaria.db import abrir_banco
    from secretaria.services.base import SISTEMA
    from secretaria.services.contas import criar_usuario

    senha = _ler_senha()
    banco = abrir_banco(url)
    try:
        criar_usuario(banco.uow(), SISTEMA, login=login, nome=nome, senha=senha, papeis=papeis)
    finally:
        banco.fechar()
    print(f"Usuário {login.strip().lower()} criado com os papéis: {', '.join(sorted(set(papeis)))}.")
    return 0
