"""Engine, unit of work and schema migrations at start-up.

One URL names the database: a SQLite file (the embedded default, one PC) or a PostgreSQL server (several
PCs). Opening a database runs the pending Alembic migrations, after a backup copy on SQLite, and refuses a
file that is not a Secretaria database or whose schema is newer than this program.

One job per module: `url` (the URL and the default file), `motor` (the engine), `sqlite` (SQLite's settings
and its BEGIN), `texto` (text no database can store), `falhas` (the refusals), `retentativas` (retries of a
busy or aborted transaction), `espera` (how long a window's transactions wait for a lock), `unidade` (the
unit of work), `arquivos` (the SQLite files open in this process),
`rede` (SQLite on a network share), `copia` (copying a live SQLite file), `banco` (opening a database).
Everything the rest of the program uses is imported from here.
"""

from __future__ import annotations

from secretaria.db.arquivos import eh_arquivo_de_banco_aberto
from secretaria.db.banco import CHAVE_ORIGEM, Banco, Observador, Origem, abrir_banco, banco_sobre_conexao
from secretaria.db.copia import copiar_sqlite
from secretaria.db.credenciais import conectar_como, credenciais_do_servidor
from secretaria.db.espera import (
    ESPERA_COM_AVISO,
    OPCAO_ESPERA,
    PoliticaDeEspera,
    definir_politica_de_espera,
    politica_de_espera,
)
from secretaria.db.falhas import (
    MENSAGEM_OCUPADO,
    BancoOcupado,
    ErroBanco,
    ValorRecusadoPeloBanco,
    recusa_do_banco,
)
from secretaria.db.motor import criar_engine
from secretaria.db.rede import VARIAVEL_REDE, conferir_pasta_local, pasta_de_rede
from secretaria.db.retentativas import (
    ESTATISTICAS,
    PAUSA_INICIAL,
    PAUSA_MAXIMA,
    TENTATIVAS,
    Estatisticas,
    com_retentativas,
    eh_transitorio,
    retentavel,
)
from secretaria.db.sqlite import SQLITE_AMOSTRA_ANALISE, SQLITE_ESPERA_MS
from secretaria.db.texto import TextoInvalido, texto_invalido
from secretaria.db.unidade import NOTA_DESFEITA, UnidadeDeTrabalho
from secretaria.db.url import (
    VARIAVEL_URL,
    analisar_url,
    arquivo_inexistente,
    arquivo_sqlite,
    eh_sqlite,
    mascarar_url,
    pasta_dados,
    resolver_url,
    uri_sqlite,
    url_padrao,
    url_sqlite,
)

__all__ = [
    "CHAVE_ORIGEM",
    "ESPERA_COM_AVISO",
    "ESTATISTICAS",
    "MENSAGEM_OCUPADO",
    "NOTA_DESFEITA",
    "OPCAO_ESPERA",
    "PAUSA_INICIAL",
    "PAUSA_MAXIMA",
    "SQLITE_AMOSTRA_ANALISE",
    "SQLITE_ESPERA_MS",
    "TENTATIVAS",
    "VARIAVEL_REDE",
    "VARIAVEL_URL",
    "Banco",
    "BancoOcupado",
    "ErroBanco",
    "Estatisticas",
    "Observador",
    "Origem",
    "PoliticaDeEspera",
    "TextoInvalido",
    "UnidadeDeTrabalho",
    "ValorRecusadoPeloBanco",
    "abrir_banco",
    "analisar_url",
    "arquivo_inexistente",
    "arquivo_sqlite",
    "banco_sobre_conexao",
    "com_retentativas",
    "conectar_como",
    "conferir_pasta_local",
    "copiar_sqlite",
    "credenciais_do_servidor",
    "criar_engine",
    "definir_politica_de_espera",
    "eh_arquivo_de_banco_aberto",
    "eh_sqlite",
    "eh_transitorio",
    "mascarar_url",
    "pasta_dados",
    "pasta_de_rede",
    "politica_de_espera",
    "recusa_do_banco",
    "resolver_url",
    "retentavel",
    "texto_invalido",
    "uri_sqlite",
    "url_padrao",
    "url_sqlite",
]
