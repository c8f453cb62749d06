"""The command line and the GUI entry point (`secretaria`, `python -m secretaria`).

Heavy libraries (Qt, ReportLab, openpyxl) are imported only by the sub-command that needs them, so a
scheduled `secretaria relatorio …` or `secretaria backup …` starts quickly.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from secretaria.argumentos import ParserPt
    from secretaria.db import Banco
    from secretaria.services.assinatura import Certificado
    from secretaria.services.base import Ator

SAIDA_ERRO = 2
SAIDA_AUDITORIA_ROMPIDA = 1


_AJUDA_DB = "banco de dados (como --db antes do comando)"
_AJUDA_SAIDA = "arquivo a gravar"


class ErroLinhaDeComando(Exception):
    """Bad input on the command line: printed as one message, exit code 2."""


class _Versao(argparse.Action):
    """--versao: the version read from the package metadata only when asked (not at every start)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from secretaria.distribuicao import versao

        print(f"Secretaria {versao()}")
        parser.exit()


def _parser() -> ParserPt:
    from secretaria.argumentos import ParserPt
    from secretaria.codigos import Papel

    p = ParserPt(
        prog="secretaria",
        description="Secretaria — fiscalização do transporte coletivo de Pelotas (Lei nº 2.413/1978).",
    )
    p.add_argument(
        "--db",
        metavar="URL",
        help="banco de dados: arquivo SQLite ou postgresql+psycopg://usuario@servidor/banco",
    )
    p.add_argument(
        "--criar",
        action="store_true",
        help="cria um banco novo se o arquivo SQLite de --db não existir (ao abrir o programa ou em "
        "usuario criar); sem esta opção, um arquivo que não existe é recusado",
    )
    p.add_argument("--versao", action=_Versao, nargs=0, help="mostra a versão do programa e sai")
    sub = p.add_subparsers(dest="comando", metavar="COMANDO")

    demo = sub.add_parser("demo", help="cria (se preciso) e abre o banco de demonstração")
    demo.add_argument(
        "--db",
        dest="db_sub",
        metavar="URL",
        help="banco de demonstração (padrão: demo.sqlite na pasta de dados)",
    )
    demo.add_argument("--abrir", action="store_true", help="abre o programa no banco de demonstração")
    demo.add_argument(
        "--recriar", action="store_true", help="apaga e recria o banco de demonstração (SQLite)"
    )

    backup = sub.add_parser(
        "backup",
        help="cópia de segurança do banco",
        description="Cópia de segurança consistente do banco (SQLite: mesmo com o programa aberto; "
        "PostgreSQL: pg_dump). Sem DESTINO, grava na pasta backups ao lado do banco.",
    )
    backup.add_argument(
        "destino", nargs="?", metavar="DESTINO", help="arquivo de destino da cópia (não é sobrescrito)"
    )
    backup.add_argument(
        "--diaria",
        action="store_true",
        help="faz a cópia diária (se ainda não feita hoje) e apaga as antigas",
    )
    backup.add_argument(
        "--manter",
        type=_inteiro,
        metavar="N",
        help="quantas cópias diárias manter (grava a configuração; pede o login de um administrador)",
    )
    backup.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)

    restaurar = sub.add_parser(
        "restaurar",
        help="restaura uma cópia de segurança (SQLite)",
        description="Confere a cópia (integridade, esquema completo, referências entre registros e tudo o que "
        "“auditoria verificar” confere, também numa cópia de versão anterior; cada termo de verificação do "
        "banco atual e cada --ancora), guarda o banco atual com outro nome, coloca a cópia no lugar e registra a restauração "
        "na auditoria. Recusa enquanto o banco estiver aberto em outro computador ou programa. Pede o login "
        "e a senha de um administrador do banco atual (se ele tiver um).",
    )
    restaurar.add_argument("origem", metavar="ORIGEM", help="arquivo da cópia de segurança")
    restaurar.add_argument("--sim", action="store_true", help="não pergunta a confirmação")
    restaurar.add_argument(
        "--ancora",
        action="append",
        default=[],
        metavar="N:HASH",
        help="número e hash de um registro anotados antes (ex.: de um termo assinado) que a cópia deve ter; "
        "pode repetir",
    )
    restaurar.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)

    aud = sub.add_parser("auditoria", help="registro de auditoria")
    asub = aud.add_subparsers(dest="acao_auditoria", metavar="COMANDO", required=True)
    verificar = asub.add_parser(
        "verificar",
        help="confere a cadeia de auditoria e aponta o primeiro elo rompido (saída 1 se rompida)",
    )
    verificar.add_argument(
        "--ancora",
        action="append",
        default=[],
        metavar="N:HASH",
        help="número e hash de um registro anotados antes (ex.: de um termo assinado); pode repetir",
    )
    verificar.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    termo = asub.add_parser(
        "termo",
        help="verifica a auditoria e grava o termo de verificação (PDF) para assinar e guardar",
        description="Verifica tudo e, se íntegra, registra e grava o termo de verificação da auditoria "
        "(data, número de registros, último número e hash, assinaturas do Secretário e de uma testemunha). "
        "Pede o login e a senha de um administrador ou do Secretário.",
    )
    termo.add_argument("saida", metavar="ARQUIVO.pdf", help="onde gravar o termo (PDF)")
    termo.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)

    servidor = sub.add_parser("servidor", help="preparação de um servidor PostgreSQL")
    ssub = servidor.add_subparsers(dest="acao_servidor", metavar="COMANDO", required=True)
    preparar = ssub.add_parser(
        "preparar",
        help="cria o usuário dono do esquema e o usuário do programa (que não pode alterar a auditoria)",
        description="Com o endereço de um superusuário (--db postgresql+psycopg://postgres@servidor/banco), "
        "cria ou atualiza o banco, o usuário dono do esquema (só para criar e atualizar) e o usuário do "
        "programa (lê e grava os cadastros e processos; na auditoria só inclui). Os endereços completos, com "
        "as senhas, são gravados no ARQUIVO (legível só por você); na tela as senhas aparecem mascaradas.",
    )
    preparar.add_argument(
        "--db",
        dest="db_sub",
        metavar="URL",
        required=True,
        help="endereço de um superusuário: postgresql+psycopg://postgres@servidor/banco",
    )
    preparar.add_argument(
        "--saida",
        metavar="ARQUIVO",
        default="secretaria-servidor.txt",
        help="onde gravar os dois endereços com as senhas (padrão: secretaria-servidor.txt; não é sobrescrito)",
    )

    usuario = sub.add_parser("usuario", help="administração de usuários")
    usub = usuario.add_subparsers(dest="acao_usuario", metavar="COMANDO", required=True)
    criar = usub.add_parser(
        "criar",
        help="cria um usuário (a senha é pedida no terminal ou lida da entrada)",
        description="Cria um usuário. Se o banco já tem um administrador ativo, pede antes o login e a senha "
        "de um administrador, em nome de quem a criação fica na auditoria (fora de um terminal: uma linha "
        "com o login, outra com a senha, e então a senha do novo usuário). O primeiro administrador de um "
        "banco vazio não precisa de login.",
    )
    criar.add_argument("login", metavar="LOGIN", help="login do novo usuário")
    criar.add_argument("--nome", metavar="NOME", help="nome completo (padrão: o login)")
    criar.add_argument(
        "--papel",
        action="append",
        required=True,
        metavar="PAPEL",
        help=f"papel ({', '.join(Papel)}); pode repetir",
    )
    criar.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    criar.add_argument(
        "--criar", dest="criar_sub", action="store_true", help="cria o banco se o arquivo SQLite não existir"
    )
    _parser_relatorios(sub)
    _parser_importar(sub)
    return p


def _parser_relatorios(sub: argparse._SubParsersAction[ParserPt]) -> None:
    """`relatorio mensal` and `documento …`: files a scheduled task or a clerk can make."""
    rel = sub.add_parser("relatorio", help="relatórios em planilha (Excel)")
    rsub = rel.add_subparsers(dest="tipo_relatorio", metavar="COMANDO", required=True)
    mensal = rsub.add_parser(
        "mensal",
        help="planilha do mês: autos, resumo por operadora, penalidades, prazos e pagamentos",
        description="Grava a planilha mensal (.xlsx) do mês AAAA-MM, por exemplo 2026-11.",
    )
    mensal.add_argument("mes", metavar="AAAA-MM", help="o mês, por exemplo 2026-11")
    mensal.add_argument("-o", "--saida", required=True, metavar="ARQUIVO.xlsx", help=_AJUDA_SAIDA)
    mensal.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    anual = rsub.add_parser(
        "anual",
        help="relatório anual (PDF ou planilha) para a Câmara e o Portal da Transparência",
        description="Grava o relatório anual do ANO: autos, penalidades e valores por operadora e tipo, com os "
        "gráficos, sem dados pessoais. A extensão da saída escolhe o formato: .pdf ou .xlsx.",
    )
    anual.add_argument("ano", metavar="ANO", type=int, help="o ano, por exemplo 2026")
    anual.add_argument("-o", "--saida", required=True, metavar="ARQUIVO.pdf|.xlsx", help=_AJUDA_SAIDA)
    anual.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)

    doc = sub.add_parser(
        "documento",
        help="documentos oficiais em PDF",
        description="Emite o documento (guardado no banco com o SHA-256: emitir de novo dá os mesmos bytes) "
        "e grava o PDF. Pede o login e a senha de um usuário do banco, em nome de quem a emissão fica na "
        "auditoria (fora de um terminal: uma linha com o login, outra com a senha).",
    )
    dsub = doc.add_subparsers(dest="tipo_documento", metavar="COMANDO", required=True)
    for nome, ajuda in (
        ("auto", "auto de infração (1ª e 2ª vias)"),
        ("intimacao", "intimação do auto (depois de uma retificação de substância: a já emitida, guardada)"),
        (
            "intimacao-termo",
            "intimação do termo de retificação de substância (o último, ou o de --termo), com a cópia do "
            "auto retificado",
        ),
        ("decisao", "notificação da decisão"),
        ("julgamento", "notificação do julgamento do recurso"),
        ("revisao", "último termo de revisão da sanção (art. 65 da Lei 9.784/1999)"),
        (
            "processo",
            "cópia integral do processo: capa, índice com SHA-256, peças com folhas numeradas e provas",
        ),
    ):
        p = dsub.add_parser(nome, help=ajuda)
        p.add_argument("numero", metavar="NNNN/AAAA", help="número do auto de infração")
        if nome in ("intimacao", "intimacao-termo"):
            p.add_argument("--entrega", metavar="DD/MM/AAAA", help="dia previsto da entrega (padrão: hoje)")
        if nome == "intimacao-termo":
            p.add_argument(
                "--termo",
                metavar="NNNN/AAAA",
                help="o termo a intimar, quando mais de um aguarda intimação (padrão: o último)",
            )
        p.add_argument("-o", "--saida", required=True, metavar="ARQUIVO.pdf", help=_AJUDA_SAIDA)
        p.add_argument("--certificado", metavar="ARQUIVO.pfx", help=_AJUDA_CERTIFICADO)
        p.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    assinar = dsub.add_parser(
        "assinar",
        help="assina um documento emitido sem assinatura digital (nova versão; a primeira é mantida)",
        description="Assina com o certificado A1 o documento emitido nº N e grava a versão assinada.",
    )
    assinar.add_argument("documento", metavar="N", type=int, help="número do documento emitido")
    assinar.add_argument("--certificado", required=True, metavar="ARQUIVO.pfx", help=_AJUDA_CERTIFICADO)
    assinar.add_argument("-o", "--saida", required=True, metavar="ARQUIVO.pdf", help=_AJUDA_SAIDA)
    assinar.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    verificar = dsub.add_parser(
        "verificar",
        help="diz se um PDF é documento desta Secretaria, de qual processo, quem assinou e se está íntegro",
        description="Confere um PDF qualquer: se é documento emitido por esta Secretaria (pelo SHA-256 ou pelo "
        "identificador na assinatura), de qual processo, quem o assinou, se a assinatura é válida e os bytes "
        "não mudaram, e se o certificado se encadeia às raízes de confiança instaladas. Saída 0: documento "
        "desta Secretaria, idêntico ao emitido e com assinatura válida; 1: qualquer outro caso.",
    )
    verificar.add_argument("arquivo", metavar="ARQUIVO.pdf", help="o PDF a conferir")
    verificar.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    ficha = dsub.add_parser("ficha", help="ficha da operadora (dados e todos os processos)")
    ficha.add_argument("cnpj", metavar="CNPJ", help="CNPJ da operadora")
    ficha.add_argument("-o", "--saida", required=True, metavar="ARQUIVO.pdf", help=_AJUDA_SAIDA)
    ficha.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)
    lote = dsub.add_parser(
        "intimacoes", help="lote de intimações dos autos lavrados num período, com a relação de entrega"
    )
    lote.add_argument("inicio", metavar="DD/MM/AAAA", help="primeiro dia do período")
    lote.add_argument("fim", metavar="DD/MM/AAAA", help="último dia do período")
    lote.add_argument("--entrega", metavar="DD/MM/AAAA", help="dia previsto da entrega (padrão: hoje)")
    lote.add_argument("-o", "--saida", required=True, metavar="ARQUIVO.pdf", help=_AJUDA_SAIDA)
    lote.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)


_AJUDA_CERTIFICADO = (
    "assina com o certificado A1 (.pfx/.p12) deste arquivo, ou com o token A3 cujo módulo PKCS#11 (.so/.dll) "
    "é este; pede o login e a senha de quem assina e depois a senha do certificado ou o PIN (sem terminal: "
    "três linhas na entrada)"
)
_TIPOS_IMPORTACAO = ("operadoras", "linhas", "veiculos", "empregados", "fiscais", "autos")
SAIDA_LINHAS_RECUSADAS = 1
SAIDA_NAO_VALIDO = 1
"""`documento verificar`: the PDF is not a valid, unchanged, signed document of this office."""


def _parser_importar(sub: argparse._SubParsersAction[ParserPt]) -> None:
    """`importar TIPO ARQUIVO`: the office's spreadsheets brought in, or the template written."""
    imp = sub.add_parser(
        "importar",
        help="importa cadastros de uma planilha (.xlsx ou .csv) ou grava o modelo",
        description="Confere todas as linhas e importa numa só transação. Saída 0: todas as linhas "
        "importadas (com --simular: seriam); 1: linhas recusadas, cada uma mostrada como “linha N: motivo” "
        "e nada gravado (salvo com --so-validas); 2: arquivo ou argumentos inutilizáveis. Importar de novo "
        "o mesmo arquivo não muda nada; um arquivo corrigido atualiza os registros pela chave (CNPJ, placa "
        "ou RENAVAM, CPF, código da linha, matrícula). Para gravar, pede o login e a senha de um administrador "
        "(fora de um terminal: uma linha com o login, outra com a senha).",
    )
    imp.add_argument(
        "tipo", choices=_TIPOS_IMPORTACAO, metavar="TIPO", help=f"{', '.join(_TIPOS_IMPORTACAO)}"
    )
    imp.add_argument("arquivo", nargs="?", metavar="ARQUIVO", help="planilha .xlsx ou .csv a importar")
    imp.add_argument("--modelo", metavar="ARQUIVO.xlsx", help="grava o modelo de planilha do TIPO e sai")
    imp.add_argument("--aba", metavar="NOME", help="aba da planilha .xlsx (padrão: a primeira visível)")
    imp.add_argument("--simular", action="store_true", help="só confere e mostra o que faria; nada é gravado")
    imp.add_argument(
        "--so-validas", action="store_true", help="importa as linhas válidas mesmo havendo linhas recusadas"
    )
    imp.add_argument(
        "--recusadas", metavar="ARQUIVO.xlsx", help="grava as linhas recusadas, com o motivo, para corrigir"
    )
    imp.add_argument(
        "--coluna",
        action="append",
        default=[],
        metavar="TÍTULO=CAMPO",
        help="indica o campo de qualquer coluna, reconhecida ou não (CAMPO vazio: ignorar); pode repetir",
    )
    imp.add_argument(
        "--limpar-vazias",
        action="store_true",
        help="uma célula em branco apaga o valor do registro (sem esta opção, o valor atual é mantido)",
    )
    imp.add_argument(
        "--presumir-definitiva",
        type=_inteiro,
        metavar="DIAS",
        help="autos: a penalidade sem data definitiva no livro (e sem recurso) torna-se definitiva DIAS "
        "depois da decisão (no mínimo 30), para contar na reincidência; registrado em cada auto",
    )
    imp.add_argument("--db", dest="db_sub", metavar="URL", help=_AJUDA_DB)


def _inteiro(texto: str) -> int:
    try:
        return int(texto)
    except ValueError:
        raise argparse.ArgumentTypeError(f"“{texto}” não é um número inteiro") from None


def main(argv: Sequence[str] | None = None, *, janela: bool = False) -> int:
    """The `secretaria` command. `janela` (the GUI entry point, `main_janela`) says the user sees no console
    even if one exists: a refusal before the window then appears in a message box. Without any console
    (pythonw, the windowed frozen build: sys.stderr is None) it does so as well."""
    argumentos = list(sys.argv[1:] if argv is None else argv)
    if argumentos[:1] == ["--auxiliar"]:  # a frozen program started as one of its own helpers
        return _auxiliar(argumentos[1:])
    sem_console = janela or sys.stderr is None
    args = _ler_argumentos(argumentos, sem_console=sem_console)
    if isinstance(args, int):
        return args
    url = getattr(args, "db_sub", None) or args.db
    from secretaria.db import ErroBanco
    from secretaria.services.base import ErroDominio

    abre_janela = args.comando is None or (args.comando == "demo" and args.abrir)
    try:
        _conferir_banco_existe(url, args)
        return _executar(args, url)
    except (ErroBanco, ErroDominio, ErroLinhaDeComando) as exc:
        return _recusar(str(exc), janela=abre_janela, sem_console=sem_console)
    except Exception:
        if not sem_console:
            raise
        # Nobody would read the traceback: it goes to the log, and the user is told where.
        from secretaria.ui.sem_console import relatar_falha

        relatar_falha(mostrar=abre_janela)
        return SAIDA_ERRO


def _executar(args: argparse.Namespace, url: str | None) -> int:
    """Run the command the arguments name."""
    if args.comando is None:
        return _abrir_programa(url, demo=False)
    if args.comando == "demo":
        return _demo(url, abrir=args.abrir, recriar=args.recriar)
    if args.comando == "backup":
        return _backup(url, args.destino, diaria=args.diaria, manter=args.manter)
    if args.comando == "restaurar":
        return _restaurar(
            url, Path(args.origem), confirmado=args.sim, ancoras=[_ler_ancora(a) for a in args.ancora]
        )
    if args.comando == "auditoria" and args.acao_auditoria == "termo":
        return _auditoria_termo(url, Path(args.saida))
    if args.comando == "auditoria":
        return _auditoria_verificar(url, [_ler_ancora(a) for a in args.ancora])
    if args.comando == "servidor":
        return _servidor_preparar(url, Path(args.saida))
    if args.comando == "usuario":
        return _usuario_criar(url, args.login, args.nome or args.login, args.papel)
    if args.comando == "relatorio" and args.tipo_relatorio == "anual":
        return _relatorio_anual(url, args.ano, Path(args.saida))
    if args.comando == "relatorio":
        return _relatorio_mensal(url, args.mes, Path(args.saida))
    if args.comando == "documento":
        return _documento(url, args)
    if args.comando == "importar":
        return _importar(url, args)
    return 0


def main_janela() -> int:
    """The GUI entry point (`secretaria-janela`, pyproject's gui-scripts): `secretaria` without a console."""
    return main(janela=True)


def _ler_argumentos(argv: Sequence[str] | None, *, sem_console: bool) -> argparse.Namespace | int:
    """The parsed command line; or, when it only printed (--ajuda, --versao) or was refused, the exit code.
    Without a console, what argparse would print is caught and shown in a message box instead."""
    if not sem_console:
        return _parser().parse_args(argv)
    import io

    saida, erro = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = texto = io.StringIO()
    try:
        return _parser().parse_args(argv)
    except SystemExit as fim:
        codigo = fim.code if isinstance(fim.code, int) else SAIDA_ERRO
        from secretaria.ui.sem_console import mostrar_mensagem

        mostrar_mensagem(texto.getvalue().strip(), erro=codigo != 0)
        return codigo
    finally:
        sys.stdout, sys.stderr = saida, erro


def _recusar(mensagem: str, *, janela: bool, sem_console: bool) -> int:
    """A refusal: on standard error when there is one. When nobody sees a console, in the log too, and in a
    message box if it kept the window from opening (a command run without a console, a scheduled task, must
    not wait on a box nobody may be there to close)."""
    if sys.stderr is not None:
        print(f"secretaria: {mensagem}", file=sys.stderr)
    if sem_console:
        from secretaria.ui.sem_console import registrar_recusa

        registrar_recusa(mensagem, mostrar=janela)
    return SAIDA_ERRO


def _auxiliar(argumentos: list[str]) -> int:
    """Run a helper process's module (`secretaria.auxiliares`): only those of its list, each imported here by
    name so that a frozen build collects it. Nothing else is loaded first (the helpers start fast)."""
    from secretaria import auxiliares

    modulo = argumentos[0] if argumentos else ""
    if modulo == auxiliares.DESENHISTA:
        from secretaria.reports import desenhista

        return desenhista.main(argumentos[1:])
    if modulo == auxiliares.SELETOR_ARQUIVO:
        from secretaria.ui import seletor_arquivo

        return seletor_arquivo.main(argumentos[1:])
    print(f"secretaria: --auxiliar: “{modulo}” não é um processo auxiliar do programa", file=sys.stderr)
    return SAIDA_ERRO


# Sub-commands that may create the database they are pointed at: the window (it then asks for the first
# administrator) and `usuario criar`, only with --criar (or, for the window, on the default file);
# `demo` creates its own; `restaurar` puts a copy in place. The others only make sense on an existing one.
_PODEM_CRIAR = frozenset({None, "usuario"})
_NAO_CONFEREM = frozenset({"demo", "restaurar"})


def _conferir_banco_existe(url: str | None, args: argparse.Namespace) -> None:
    """Refuse a SQLite file that does not exist (a typo in --db or SECRETARIA_DB would otherwise create a
    new empty database and carry on in it) unless the user asked for a new one."""
    from secretaria.db import VARIAVEL_URL, arquivo_inexistente

    criar = bool(args.criar or getattr(args, "criar_sub", False))
    if criar and args.comando not in _PODEM_CRIAR:
        raise ErroLinhaDeComando(
            "--criar só vale ao abrir o programa ou em “usuario criar”; nada foi criado."
        )
    if args.comando in _NAO_CONFEREM or (args.comando == "importar" and args.modelo):
        return
    arquivo = arquivo_inexistente(url)
    if arquivo is None or criar:
        return
    if url is None and not os.environ.get(VARIAVEL_URL):
        if args.comando is None:
            return  # the program's first start: it creates the default file and asks for the administrator
        origem = "(o banco padrão ainda não foi criado: abra o programa uma vez)"
    elif url is None:
        origem = f"(indicado na variável {VARIAVEL_URL})"
    else:
        origem = "(indicado em --db)"
    dica = (
        "\nPara criar um banco novo nesse arquivo, acrescente --criar."
        if args.comando in _PODEM_CRIAR
        else ""
    )
    raise ErroLinhaDeComando(
        f"O banco de dados {arquivo} não existe {origem}; nada foi criado.\n"
        f"Confira o caminho do arquivo.{dica}"
    )


def url_demo() -> str:
    from secretaria.db import pasta_dados, url_sqlite

    return url_sqlite(pasta_dados() / "demo.sqlite")


def _conferir_bibliotecas_graficas() -> None:
    """Before Qt starts (and before any database is opened or created): on Linux without the libraries
    of Qt's xcb plugin, say which packages to install instead of letting Qt abort."""
    from secretaria.ui.requisitos import conferir_bibliotecas_graficas

    mensagem = conferir_bibliotecas_graficas()
    if mensagem is not None:
        raise ErroLinhaDeComando(mensagem)


def _abrir_programa(url: str | None, *, demo: bool) -> int:
    from secretaria.db import abrir_banco

    _conferir_bibliotecas_graficas()
    # Created or upgraded (a SQLite file is copied first) before any window. Seeding the law's catalogue
    # waits for the login (`app.executar`): it needs the ORM models, a fifth of the start, and the login
    # reads none of what it writes.
    banco = abrir_banco(url)
    from secretaria.ui import app

    if demo:
        return app.executar(banco, demo=demo)
    # The day's first copy of a large file takes seconds: it runs beside the login window (its own sqlite3
    # connections; the backup API copies a live WAL database safely) and the main window's status bar says
    # when it is done or why it failed. It starts once the login is on screen (`app.entrar`), so its
    # imports and queries do not delay that window, and at the latest here; those imports (the ORM and the
    # models, on PostgreSQL too) are then ready before the user has typed the password. Closing the program
    # waits for it: no half copy is left behind.
    copia = CopiaDiaria(banco)
    app.acompanhar_copia_diaria(copia)
    try:
        return app.executar(banco, demo=demo)
    finally:
        copia.iniciar()
        copia.join()


def _demo(url: str | None, *, abrir: bool, recriar: bool) -> int:
    from secretaria.db import abrir_banco, arquivo_sqlite, pasta_dados
    from secretaria.services.primeiro_acesso import existe_usuario

    if abrir:
        _conferir_bibliotecas_graficas()
    alvo = url or url_demo()
    arquivo = arquivo_sqlite(alvo)
    if arquivo is not None and url is None:
        pasta_dados().mkdir(parents=True, exist_ok=True)
    if recriar and arquivo is not None:
        for sufixo in ("", "-wal", "-shm"):
            Path(f"{arquivo}{sufixo}").unlink(missing_ok=True)
    banco = abrir_banco(alvo)
    try:
        # A demo that is already there opens as the program does (`_abrir_programa`): the generator, the ORM
        # and the law's catalogue load after the login (`app.executar` seeds it), not before the window.
        if existe_usuario(banco):
            if not abrir:
                _semear(banco)
            print(f"Banco de demonstração: {banco.url_exibicao} (já existente).")
        else:
            from secretaria.demo.popular import popular_demo

            _semear(banco)
            popular_demo(banco, progresso=_progresso_terminal)
            print(f"Banco de demonstração criado em {banco.url_exibicao}.")
    finally:
        if not abrir:
            banco.fechar()
    if not abrir:
        return 0
    from secretaria.ui.app import executar

    return executar(banco, demo=True)


def _semear(banco: Banco) -> None:
    from secretaria.services.semente import semear_basico

    semear_basico(banco)


def _milhar(n: int) -> str:
    """1234 → "1.234": counts printed for a reader (pt-BR thousands separator; no import at start-up)."""
    return f"{n:,}".replace(",", ".")


def _terminal(fluxo: IO[str] | None) -> bool:
    """Whether a standard stream is a terminal; a program without a console (pythonw, the windowed build)
    has None for each."""
    return fluxo is not None and fluxo.isatty()


def _ler_linha() -> str:
    """One line of standard input, the newline dropped; without any input, a refusal instead of a crash."""
    if sys.stdin is None:
        raise ErroLinhaDeComando(
            "Este comando precisa de um terminal (ou de uma entrada); nada foi alterado."
        )
    return sys.stdin.readline().rstrip("\n")


def _progresso_terminal(feito: int, total: int, etapa: str) -> None:
    if _terminal(sys.stderr):
        print(f"\r{etapa}: {feito}/{total}", end="" if feito < total else "\n", file=sys.stderr, flush=True)


class CopiaDiaria(threading.Thread):
    """The automatic daily copy at start-up, in a thread: a failure is reported but never keeps the program
    from opening. After `join()`, `copia` is the file made today (None if already made) or `erro` says why not."""

    def __init__(self, banco: Banco) -> None:
        super().__init__(name="copia-diaria")
        self.banco = banco
        self.copia: Path | None = None
        self.erro: str | None = None

    def iniciar(self) -> None:
        """Start the copy unless it has started already (the login window, then the end of the program)."""
        if self.ident is None:
            self.start()

    def run(self) -> None:
        from secretaria.db import ErroBanco
        from secretaria.services.backup import copia_diaria, remover_parciais_abandonadas

        try:
            remover_parciais_abandonadas(self.banco)
            self.copia = copia_diaria(self.banco).copia
        except (ErroBanco, OSError, sqlite3.Error) as exc:
            self.erro = str(exc)
            print(f"secretaria: aviso: a cópia de segurança diária não foi feita: {exc}", file=sys.stderr)


def _backup(url: str | None, destino: str | None, *, diaria: bool, manter: int | None) -> int:
    from secretaria.services.backup import (
        copia_diaria,
        definir_copias_mantidas,
        fazer_backup,
        remover_parciais_abandonadas,
    )
    from secretaria.services.contas import registrar_saida
    from secretaria.services.semente import abrir_e_semear

    if destino is None and not diaria and manter is None:
        print(fazer_backup(url))
        return 0
    if destino is not None:
        print(fazer_backup(url, Path(destino)))
    if manter is not None or diaria:
        banco = abrir_e_semear(url)
        try:
            if manter is not None:
                # Changing the setting is an act (the scheduled --diaria alone stays free).
                ator = _quem_age(banco, "administrador", acao="configurar as cópias de segurança")
                try:
                    definir_copias_mantidas(banco.uow(), ator, quantidade=manter)
                finally:
                    registrar_saida(banco.uow(), ator)
                print(f"Serão mantidas as últimas {manter} cópias diárias.")
            if diaria:
                if not banco.eh_sqlite:
                    raise ErroLinhaDeComando(
                        "A cópia diária automática é só para bancos SQLite; no PostgreSQL use o pg_dump."
                    )
                remover_parciais_abandonadas(banco)  # a scheduled copy cut short by a shutdown
                print(copia_diaria(banco).mensagem)
        finally:
            banco.fechar()
    return 0


def _restaurar(url: str | None, origem: Path, *, confirmado: bool, ancoras: list[tuple[int, str]]) -> int:
    from secretaria.services.backup import preparar_restauracao, restaurar
    from secretaria.services.base import SISTEMA

    # An administrator of the database about to be replaced; the system when it has none (or is damaged).
    ator = _administrador_do_banco_atual(url, acao="restaurar uma cópia de segurança") or SISTEMA
    # every check first (the copy as completely as `auditoria verificar`): nothing changed yet
    preparacao = preparar_restauracao(origem, url, ator=ator, ancoras=ancoras)
    if not confirmado:
        if not _terminal(sys.stdin):
            raise ErroLinhaDeComando("Confirme a restauração com --sim; nada foi alterado.")
        resposta = input(f"{preparacao.descricao()}\nContinuar? [s/N] ")
        if resposta.strip().lower() not in {"s", "sim"}:
            print("Restauração cancelada; nada foi alterado.")
            return 0
    print(restaurar(origem, url, ator=ator, verificada=preparacao.copia))
    return 0


def _ler_ancora(texto: str) -> tuple[int, str]:
    numero, _sep, valor = texto.strip().partition(":")
    valor = valor.replace(" ", "").lower()
    if not numero.isdigit() or len(valor) != 64 or any(c not in "0123456789abcdef" for c in valor):
        raise ErroLinhaDeComando(
            f"Âncora inválida: “{texto}”. Use o número e o hash do registro, por exemplo 1520:3fa4…(64 dígitos)."
        )
    return int(numero), valor


def _abrir_para_verificar(url: str | None) -> Banco:
    from secretaria.db import ErroBanco, abrir_banco, arquivo_sqlite, resolver_url

    url = resolver_url(url)
    arquivo = arquivo_sqlite(url)
    if arquivo is not None and not arquivo.is_file():
        raise ErroBanco(f"O arquivo do banco {arquivo} não existe; nada foi verificado.")
    return abrir_banco(url, migrar=False)  # reads only: never migrates or seeds


def _auditoria_verificar(url: str | None, ancoras: list[tuple[int, str]]) -> int:
    import sqlalchemy as sa

    from secretaria.db import ErroBanco, mascarar_url
    from secretaria.services.verificacao import verificar_tudo

    banco = _abrir_para_verificar(url)
    try:
        with banco.leitura() as sessao:
            relatorio = verificar_tudo(sessao, ancoras)
    except sa.exc.DatabaseError as exc:
        raise ErroBanco(
            f"Não foi possível ler a auditoria do banco {mascarar_url(banco.url)}: "
            f"{str(getattr(exc, 'orig', exc)).splitlines()[0]}."
        ) from exc
    finally:
        banco.fechar()
    resultado = relatorio.cadeia
    print(f"Banco {banco.url_exibicao}: {resultado.mensagem}")
    print(
        f"Registros conferidos com a auditoria: {relatorio.registros}; documentos emitidos: "
        f"{relatorio.documentos}; anexos: {relatorio.anexos}; âncoras e termos: {relatorio.ancoras}."
    )
    if relatorio.protecao:
        print(f"Proteção da auditoria: {relatorio.protecao}.")
    if relatorio.assinaturas:
        print(f"Assinaturas: {relatorio.assinaturas}.")
    for achado in relatorio.achados:
        print(f"  {achado}")
    for linha in relatorio.resumo_excedentes:
        print(f"  {linha}")
    if relatorio.integro and resultado.ultimo_hash:
        print(
            f"Último registro: nº {resultado.ultimo_id}, hash {resultado.ultimo_hash}. Anote-o fora do "
            "computador (ou emita o termo: secretaria auditoria termo ARQUIVO.pdf): numa verificação futura, "
            f"--ancora {resultado.ultimo_id}:{resultado.ultimo_hash} mostra se algo até ele foi alterado."
        )
    if not relatorio.integro:
        print("Houve alteração fora do programa. Guarde este resultado e avise o administrador.")
    return 0 if relatorio.integro else SAIDA_AUDITORIA_ROMPIDA


def _auditoria_termo(url: str | None, saida: Path) -> int:
    from secretaria.services.contas import registrar_saida
    from secretaria.services.semente import abrir_e_semear
    from secretaria.services.verificacao import emitir_termo

    _conferir_saida(saida)
    banco = abrir_e_semear(url)
    try:
        ator = _autenticar_no_terminal(banco, "administrador", "secretario", acao="emitir o termo")
        try:
            termo = emitir_termo(banco, ator)
        finally:
            registrar_saida(banco.uow(), ator)
    finally:
        banco.fechar()
    _gravar_arquivo(saida, termo.pdf)
    print(
        f"Termo de verificação nº {termo.numero} gravado em {saida}: {_milhar(termo.registros)} registros, último "
        f"nº {termo.ultimo_id}, hash {termo.ultimo_hash}. Imprima, assine com uma testemunha e guarde-o."
    )
    return 0


def _gravar_arquivo(saida: Path, conteudo: bytes) -> None:
    temporario = saida.with_name(f".{saida.name}.parcial")
    try:
        temporario.write_bytes(conteudo)
        temporario.replace(saida)
    except OSError as exc:
        temporario.unlink(missing_ok=True)
        raise ErroLinhaDeComando(f"Não foi possível gravar {saida}: {exc.strerror or exc}.") from exc


def _administrador_do_banco_atual(url: str | None, *, acao: str) -> Ator | None:
    """Before a restore: an administrator of the database about to be replaced logs in (the terminal asks).
    None when there is nobody to ask for: no such file, a file that does not open as a Secretaria database
    (a damaged one is what a restore is for), or no active administrator in it. The database is closed
    again before returning, so the restore finds nobody holding it open."""
    import sqlalchemy as sa

    from secretaria.db import ErroBanco, abrir_banco, arquivo_sqlite, resolver_url
    from secretaria.services.contas import existe_administrador_ativo

    arquivo = arquivo_sqlite(resolver_url(url))
    if arquivo is None or not arquivo.is_file():  # a server (refused by the restore) or no database yet
        return None
    try:
        banco = abrir_banco(url, migrar=False)
    except ErroBanco:
        return None
    try:
        try:
            if not existe_administrador_ativo(banco.uow(somente_leitura=True)):
                return None
        except sa.exc.DatabaseError:  # damaged, or an older schema: nothing to log in against
            return None
        return _autenticar_no_terminal(banco, "administrador", acao=acao)
    finally:
        banco.fechar()


def _autenticar_no_terminal(banco: Banco, *papeis: str, acao: str) -> Ator:
    """Ask for the login and password of a user holding one of `papeis` (stdin lines when not a terminal:
    login, then password) and return that user, so the act is audited in their name."""
    from secretaria.services.base import exigir_papel
    from secretaria.services.contas import autenticar

    if _terminal(sys.stdin):
        login = input(f"Para {acao}, login de um usuário autorizado: ")
        senha = getpass.getpass("Senha desse usuário: ")
    else:
        login = _ler_linha()
        senha = _ler_linha()
    ator = autenticar(banco.uow(), login, senha)
    exigir_papel(ator, *papeis, acao=acao)
    return ator


def _quem_age(banco: Banco, *papeis: str, acao: str) -> Ator:
    """Who a command that writes or issues acts as: a user holding one of `papeis`, who logs in at the
    terminal (as the window requires), so the act is audited in their name. The system acts only on a
    database without any account, where there is nobody to log in as (and nobody's name to borrow)."""
    from secretaria.services.base import SISTEMA
    from secretaria.services.contas import existe_usuario

    if not existe_usuario(banco.uow(somente_leitura=True)):
        return SISTEMA
    return _autenticar_no_terminal(banco, *papeis, acao=acao)


def _servidor_preparar(url: str | None, saida: Path) -> int:
    from secretaria.servidor import preparar

    _conferir_saida(saida)
    if saida.exists():
        raise ErroLinhaDeComando(f"{saida} já existe; indique outro arquivo com --saida. Nada foi alterado.")
    assert url is not None  # --db is required
    preparado = preparar(url)
    descritor = os.open(saida, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # ignored by Windows
    with os.fdopen(descritor, "w", encoding="utf-8") as arquivo:
        arquivo.write(
            "# Secretaria: endereços do banco preparado. Guarde em local seguro e apague este arquivo.\n"
            f"# Dono do esquema (só para criar e atualizar o banco):\n{preparado.url_dono}\n"
            f"# Programa (SECRETARIA_DB ou --db em todos os computadores):\n{preparado.url_app}\n"
        )
    print(preparado.mensagem)
    print(f"Os endereços completos, com as senhas, foram gravados em {saida} {_quem_pode_ler()}.")
    return 0


def _quem_pode_ler() -> str:
    """Who can read the file `servidor preparar` wrote. POSIX: its mode is 0600. Windows ignores that mode:
    the file takes the folder's permissions, which the program does not change, so it says so."""
    if sys.platform == "win32":
        return (
            "(no Windows, quem pode lê-lo depende das permissões da pasta: guarde-o numa pasta só sua e "
            "apague-o depois de usar)"
        )
    return "(só você pode lê-lo)"


def _ler_senha() -> str:
    if _terminal(sys.stdin):
        senha = getpass.getpass("Senha: ")
        if getpass.getpass("Repita a senha: ") != senha:
            raise ErroLinhaDeComando("As senhas não conferem; nada foi gravado.")
        return senha
    return _ler_linha()


def _usuario_criar(url: str | None, login: str, nome: str, papeis: list[str]) -> int:
    """Create a user. On a database that already has an active administrator, one of them logs in first
    and the creation is audited in their name; the first administrator of a database without any user needs
    none (refused if another one was created meanwhile) and is audited in their own name."""
    from secretaria.services.contas import (
        criar_primeiro_administrador,
        criar_usuario,
        existe_administrador_ativo,
        registrar_saida,
    )
    from secretaria.services.semente import abrir_e_semear

    banco = abrir_e_semear(url)
    temporaria = False  # the first administrator chose their own password
    try:
        if not existe_administrador_ativo(banco.uow(somente_leitura=True)):
            criar_primeiro_administrador(
                banco.uow(), login=login, nome=nome, senha=_ler_senha(), papeis=papeis
            )
        else:
            ator = _autenticar_no_terminal(banco, "administrador", acao="criar usuários")
            temporaria = True
            try:
                senha = _ler_senha()
                # An administrator chose this password: its user replaces it at the first login.
                criar_usuario(
                    banco.uow(), ator, login=login, nome=nome, senha=senha, papeis=papeis, temporaria=True
                )
            finally:
                registrar_saida(banco.uow(), ator)
    finally:
        banco.fechar()
    print(f"Usuário {login.strip().lower()} criado com os papéis: {', '.join(sorted(set(papeis)))}.")
    if temporaria:
        print("A senha é provisória: o usuário deve trocá-la no primeiro acesso.")
    return 0


# --- relatorio mensal / documento ---------------------------------------------------------------------------


def _relatorio_mensal(url: str | None, mes: str, saida: Path) -> int:
    from secretaria.services.relatorios import gerar_relatorio_mensal, ler_mes
    from secretaria.services.semente import abrir_e_semear

    ano, numero_mes = ler_mes(mes)  # refused before opening the database
    _conferir_saida(saida)
    banco = abrir_e_semear(url)
    try:
        resumo = gerar_relatorio_mensal(banco, ano, numero_mes, saida, progresso=_progresso_planilha())
    except OSError as exc:
        raise ErroLinhaDeComando(f"Não foi possível gravar {saida}: {exc.strerror or exc}.") from exc
    finally:
        banco.fechar()
    print(resumo.mensagem)
    return 0


def _relatorio_anual(url: str | None, ano: int, saida: Path) -> int:
    from secretaria.services.painel import gerar_relatorio_anual
    from secretaria.services.semente import abrir_e_semear

    if saida.suffix.lower() not in (".pdf", ".xlsx"):
        raise ErroLinhaDeComando("O relatório anual é gravado em PDF (.pdf) ou planilha (.xlsx).")
    _conferir_saida(saida)
    banco = abrir_e_semear(url)
    try:
        mensagem = gerar_relatorio_anual(banco, ano, saida)
    except OSError as exc:
        raise ErroLinhaDeComando(f"Não foi possível gravar {saida}: {exc.strerror or exc}.") from exc
    finally:
        banco.fechar()
    print(mensagem)
    return 0


def _progresso_planilha(minimo: int = 5_000) -> Callable[[int, int], None]:
    """The progress line of a long run on stderr: rewritten in place on a terminal, one line per tenth in a
    log (a scheduled task), nothing for a small month."""
    ultimo = [-1]

    def mostrar(feitas: int, total: int) -> None:
        if total < minimo:
            return
        if _terminal(sys.stderr):
            fim = "\n" if feitas >= total else ""
            print(
                f"\rPlanilha: {_milhar(feitas)}/{_milhar(total)} linhas", end=fim, file=sys.stderr, flush=True
            )
            return
        decimo = feitas * 10 // total
        if decimo > ultimo[0]:
            ultimo[0] = decimo
            print(f"Planilha: {_milhar(feitas)}/{_milhar(total)} linhas", file=sys.stderr, flush=True)

    return mostrar


def _ler_data(texto: str | None) -> date | None:
    if texto is None:
        return None
    for formato in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(texto.strip(), formato).date()
        except ValueError:
            continue
    raise ErroLinhaDeComando(f"Data inválida: “{texto}”. Use DD/MM/AAAA, por exemplo 30/11/2026.")


def _conferir_saida(saida: Path) -> None:
    if not saida.parent.is_dir():
        raise ErroLinhaDeComando(f"A pasta {saida.parent} não existe; nada foi gravado.")
    if saida.is_dir():
        raise ErroLinhaDeComando(f"{saida} é uma pasta: informe o nome do arquivo a gravar.")


_TIPOS_CLI = {"intimacoes": "lote_intimacoes", "intimacao-termo": "intimacao_termo"}
"""`documento` subcommands whose document kind (`TIPOS_DOCUMENTO`) is spelt differently."""


def _documento(url: str | None, args: argparse.Namespace) -> int:
    from secretaria.codigos import Papel
    from secretaria.services.contas import registrar_saida
    from secretaria.services.documentos import (
        emitir_documento,
        localizar_auto,
        localizar_operadora,
        localizar_termo,
        obter_documento,
    )
    from secretaria.services.semente import abrir_e_semear

    tipo: str = args.tipo_documento
    if tipo == "verificar":
        return _documento_verificar(url, Path(args.arquivo))
    if tipo == "assinar":
        return _documento_assinar(url, args)
    saida = Path(args.saida)
    entrega = _ler_data(getattr(args, "entrega", None))
    periodo = None
    if tipo == "intimacoes":
        inicio, fim = _ler_data(args.inicio), _ler_data(args.fim)
        assert inicio is not None and fim is not None
        periodo = (inicio, fim)
    _conferir_saida(saida)
    banco = abrir_e_semear(url)
    try:
        with banco.leitura() as sessao:
            auto_id = (
                localizar_auto(sessao, args.numero)
                if tipo
                in ("auto", "intimacao", "intimacao-termo", "decisao", "julgamento", "revisao", "processo")
                else None
            )
            operadora_id = localizar_operadora(sessao, args.cnpj) if tipo == "ficha" else None
            termo = getattr(args, "termo", None)
            retificacao_id = (
                localizar_termo(sessao, auto_id, termo) if termo and auto_id is not None else None
            )
        arquivo_certificado = getattr(args, "certificado", None)
        certificado = None
        if arquivo_certificado:
            ator, certificado = _certificado_no_terminal(banco, Path(arquivo_certificado))
        else:
            ator = _quem_age(banco, *Papel, acao="emitir documentos")
        try:
            info = emitir_documento(
                banco.uow(),
                ator,
                tipo=_TIPOS_CLI.get(tipo, tipo),
                auto_id=auto_id,
                operadora_id=operadora_id,
                periodo=periodo,
                data_entrega=entrega,
                certificado=certificado,
                retificacao_id=retificacao_id,
            )
        finally:
            registrar_saida(banco.uow(), ator)
        with banco.leitura() as sessao:
            conteudo = obter_documento(sessao, info.id)
    finally:
        banco.fechar()
    _gravar_arquivo(saida, conteudo)
    situacao = "emitido agora" if info.novo else f"já emitido em {info.emitido_em:%d/%m/%Y %H:%M}"
    print(
        f"{info.descricao} ({situacao}, documento nº {info.id}, {info.situacao_assinatura}) gravado em "
        f"{saida}.\nSHA-256: {info.sha256}"
    )
    return 0


def _sair(banco: Banco, ator: Ator) -> None:
    from secretaria.services.contas import registrar_saida

    registrar_saida(banco.uow(), ator)


def _certificado_no_terminal(banco: Banco, arquivo: Path) -> tuple[Ator, Certificado]:
    """Who signs (login and password, like `importar`) and their A1 certificate (its password asked last)."""
    from secretaria.codigos import Papel
    from secretaria.services.assinatura import MODULOS_PKCS11, carregar_certificado

    if not arquivo.is_file():
        raise ErroLinhaDeComando(f"O certificado {arquivo} não existe; nada foi emitido.")
    ator = _autenticar_no_terminal(banco, *Papel, acao="assinar documentos")
    pergunta = "PIN do token A3: " if arquivo.suffix.lower() in MODULOS_PKCS11 else "Senha do certificado: "
    try:
        senha = getpass.getpass(pergunta) if _terminal(sys.stdin) else _ler_linha()
        return ator, carregar_certificado(arquivo, senha)
    except BaseException:
        _sair(banco, ator)
        raise


def _documento_assinar(url: str | None, args: argparse.Namespace) -> int:
    from secretaria.services.documentos import assinar_documento, obter_documento
    from secretaria.services.semente import abrir_e_semear

    saida = Path(args.saida)
    _conferir_saida(saida)
    banco = abrir_e_semear(url)
    try:
        ator, certificado = _certificado_no_terminal(banco, Path(args.certificado))
        try:
            info = assinar_documento(banco.uow(), ator, documento_id=args.documento, certificado=certificado)
        finally:
            _sair(banco, ator)
        with banco.leitura() as sessao:
            conteudo = obter_documento(sessao, info.id)
    finally:
        banco.fechar()
    _gravar_arquivo(saida, conteudo)
    print(
        f"{info.descricao}: versão assinada (documento nº {info.id}, do documento nº {info.versao_de_id}, que "
        f"é mantido), {info.situacao_assinatura}, gravada em {saida}.\nSHA-256: {info.sha256}"
    )
    return 0


def _documento_verificar(url: str | None, arquivo: Path) -> int:
    from secretaria.services.semente import abrir_e_semear
    from secretaria.services.verificacao_pdf import verificar_pdf

    try:
        conteudo = arquivo.read_bytes()
    except OSError as exc:
        raise ErroLinhaDeComando(f"Não foi possível ler {arquivo}: {exc.strerror or exc}.") from exc
    banco = abrir_e_semear(url)
    try:
        with banco.leitura() as sessao:
            relatorio = verificar_pdf(sessao, conteudo)
    finally:
        banco.fechar()
    print(f"{arquivo.name} (SHA-256 {relatorio.sha256})")
    for linha in relatorio.linhas:
        print(linha)
    return 0 if relatorio.valido else SAIDA_NAO_VALIDO


# --- importar ---------------------------------------------------------------------------------------------


def _importar(url: str | None, args: argparse.Namespace) -> int:
    from secretaria.services.contas import registrar_saida
    from secretaria.services.importacao import arquivos
    from secretaria.services.importacao.leitura import ler_arquivo
    from secretaria.services.importacao.servico import importar, previa
    from secretaria.services.semente import abrir_e_semear

    if args.modelo:
        if args.arquivo or args.simular or args.so_validas:
            raise ErroLinhaDeComando("Com --modelo, informe só o arquivo do modelo a gravar.")
        saida = Path(args.modelo)
        _conferir_saida(saida)
        _gravar_arquivo(saida, arquivos.modelo(args.tipo))
        print(f"Modelo de planilha de {args.tipo} gravado em {saida}.")
        return 0
    if not args.arquivo:
        raise ErroLinhaDeComando("Informe o ARQUIVO a importar (ou --modelo ARQUIVO.xlsx para o modelo).")
    mapeamento = dict(_ler_coluna(c) for c in args.coluna)
    recusadas_em = Path(args.recusadas) if args.recusadas else None
    if recusadas_em is not None:
        _conferir_saida(recusadas_em)
    planilha = ler_arquivo(Path(args.arquivo), args.aba)  # refused (exit 2) before opening the database
    banco = abrir_e_semear(url)
    try:
        with banco.leitura() as sessao:
            avaliacao = previa(
                sessao,
                args.tipo,
                planilha,
                mapeamento=mapeamento,
                progresso=_progresso_importacao(),
                presumir_definitiva=args.presumir_definitiva,
                limpar_vazias=args.limpar_vazias,
            )
        for aviso in avaliacao.avisos:
            print(f"Aviso: {aviso}")
        for linha in avaliacao.recusadas:
            print(f"linha {linha.numero}: {' '.join(linha.problemas)}")
        for linha in avaliacao.linhas:
            if linha.limpas:
                print(f"linha {linha.numero}: a célula em branco apaga o valor de {', '.join(linha.limpas)}")
        if recusadas_em is not None and avaliacao.recusadas:
            _gravar_arquivo(recusadas_em, arquivos.recusadas(avaliacao.cabecalhos, avaliacao.recusadas))
            print(f"Linhas recusadas gravadas em {recusadas_em}, com o motivo na última coluna.")
        saida_codigo = SAIDA_LINHAS_RECUSADAS if avaliacao.recusadas else 0
        if args.simular:
            print(f"Simulação ({planilha.nome_arquivo}): {avaliacao.resumo}. Nada foi gravado.")
            return saida_codigo
        if avaliacao.recusadas and not args.so_validas:
            print(
                f"{planilha.nome_arquivo}: {avaliacao.resumo}. Nada foi gravado: corrija as linhas recusadas ou "
                "use --so-validas para importar só as válidas."
            )
            return saida_codigo
        ator = _quem_age(banco, "administrador", acao="importar planilhas")
        try:
            resultado = importar(
                banco.uow(),
                ator,
                args.tipo,
                planilha,
                somente_validas=args.so_validas,
                mapeamento=mapeamento,
                progresso=_progresso_importacao(),
                presumir_definitiva=args.presumir_definitiva,
                limpar_vazias=args.limpar_vazias,
            )
        finally:
            registrar_saida(banco.uow(), ator)
    finally:
        banco.fechar()
    print(resultado.mensagem)
    return SAIDA_LINHAS_RECUSADAS if resultado.recusadas else 0


def _ler_coluna(texto: str) -> tuple[str, str]:
    titulo, sep, campo = texto.partition("=")
    if not sep or not titulo.strip():
        raise ErroLinhaDeComando(f"--coluna “{texto}”: use TÍTULO=CAMPO, por exemplo “Nº frota=prefixo”.")
    return titulo.strip(), campo.strip()


def _progresso_importacao() -> Callable[[int, int, str], None]:
    def mostrar(feitas: int, total: int, etapa: str) -> None:
        if total >= 2_000 and _terminal(sys.stderr):
            print(f"\r{etapa}: {feitas}/{total}", end="", file=sys.stderr, flush=True)

    return mostrar
