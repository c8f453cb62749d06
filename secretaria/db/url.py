"""The URL that names the database: the default SQLite file, `sqlite:` and `file:` forms of a path, the
password masked wherever a URL is shown."""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path

import sqlalchemy as sa

from secretaria.db.falhas import ErroBanco

VARIAVEL_URL = "SECRETARIA_DB"


def pasta_dados() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("Secretaria", appauthor=False))


def url_padrao() -> str:
    return url_sqlite(pasta_dados() / "secretaria.sqlite")


def url_sqlite(arquivo: Path) -> str:
    """The SQLAlchemy URL of the SQLite file `arquivo`. SQLAlchemy keeps "#", "%" and spaces of the path as
    they are, but reads a "?" as the start of the query: such a path is refused rather than silently
    naming another file."""
    url = sa.URL.create("sqlite", database=str(arquivo)).render_as_string(hide_password=False)
    if arquivo_sqlite(url) != Path(arquivo):
        raise ErroBanco(
            f"O caminho {arquivo} não pode ser usado para o banco de dados (tem “?” no nome); "
            "renomeie a pasta ou o arquivo."
        )
    return url


def uri_sqlite(arquivo: Path, **parametros: str) -> str:
    """The `file:` URI of `arquivo` for `sqlite3.connect(..., uri=True)`, with `parametros` as its query.

    Every character that means something in a URI is percent-encoded ("#" starts a fragment, "%" an escape,
    "?" the query): `f"file:{arquivo}?mode=ro"` of a database in "Fiscalização #2 100%" opened a new, empty
    "Fiscalização " beside that folder, read-write, and the backup copied that. Windows: "C:/…" becomes
    "file:///C:/…" and "\\\\servidor\\pasta\\…" "file:////servidor/pasta/…", the forms SQLite reads."""
    caminho = Path(os.path.abspath(arquivo)).as_posix()
    if not caminho.startswith("/"):
        caminho = "/" + caminho
    uri = "file://" + urllib.parse.quote_from_bytes(os.fsencode(caminho), safe="/:")
    return uri + ("?" + urllib.parse.urlencode(parametros) if parametros else "")


def resolver_url(url: str | None) -> str:
    """The URL given on the command line, else $SECRETARIA_DB, else the default SQLite file."""
    return url or os.environ.get(VARIAVEL_URL) or url_padrao()


_SENHA_NA_URL = re.compile(r"(//[^/@:]*:)[^@/]*@")


def mascarar_url(url: str | sa.URL) -> str:
    """The URL as it may be shown or logged: never with its password (even when it cannot be parsed)."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return _SENHA_NA_URL.sub(r"\1***@", str(url))


def analisar_url(url: str | sa.URL) -> sa.URL:
    """The parsed URL, or ErroBanco saying how to write one (the password masked)."""
    try:
        return sa.make_url(url)
    except (sa.exc.ArgumentError, ValueError) as exc:
        raise ErroBanco(
            f"Endereço de banco de dados inválido: {mascarar_url(url)}.\n"
            "Use um arquivo (sqlite:///caminho/secretaria.sqlite) ou um servidor "
            "(postgresql+psycopg://usuario@servidor/banco)."
        ) from exc


def eh_sqlite(url: str | sa.URL) -> bool:
    return analisar_url(url).get_backend_name() == "sqlite"


def arquivo_sqlite(url: str | sa.URL) -> Path | None:
    u = analisar_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def arquivo_inexistente(url: str | None) -> Path | None:
    """The SQLite file the (resolved) `url` names, when there is no such file; None for a server or a file
    that exists. Opening it would create a new empty database: the command line refuses that unless asked."""
    arquivo = arquivo_sqlite(resolver_url(url))
    return arquivo if arquivo is not None and not arquivo.exists() else None
