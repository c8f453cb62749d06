"""The one-shot evaluation of the import: a set of files shaped like an office's
(`tests.helpers.avaliacao_livros`), imported through the service, and every row compared value by value
with the truth the generator kept: nothing wrongly accepted (a row that should be refused, or one stored
otherwise than the book says) and nothing wrongly refused, on both databases. The counts are printed for
the closing note. The same set goes through the command line (`tests/test_cli_importar.py`) and the window
(`tests/ui/test_importacao.py`)."""

from __future__ import annotations

import pytest

from secretaria import relogio
from secretaria.db import Banco
from secretaria.services.base import Ator
from tests.helpers import avaliacao_livros
from tests.helpers.fabrica import popular

ADMIN = Ator("ana", "Ana Administradora", frozenset({"administrador"}))


def test_arquivos_do_orgao_nada_aceito_nem_recusado_indevidamente(
    banco: Banco, capsys: pytest.CaptureFixture[str]
) -> None:
    popular(banco)
    conjunto = avaliacao_livros.gerar(relogio.hoje())
    contagens = avaliacao_livros.avaliar(banco, conjunto, avaliacao_livros.pelo_servico(banco, ADMIN))
    resumo = avaliacao_livros.conferir(contagens, conjunto)
    with capsys.disabled():
        print(f"\n[{banco.engine.dialect.name}, serviço]\n{resumo}")
