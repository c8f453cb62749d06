"""Developer tool: rewrite migration 0001 from the models (allowed only while no database is in the field).

Usage: .venv/bin/python scripts/regenerar_migracao_inicial.py
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from secretaria import migracoes

ALVO = migracoes.PASTA / "versions" / "0001_esquema_inicial.py"


def main() -> None:
    ALVO.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as pasta:
        engine = sa.create_engine(f"sqlite:///{Path(pasta) / 'vazio.sqlite'}")
        with engine.begin() as conn:
            command.revision(migracoes.configuracao(conn), message="esquema inicial", autogenerate=True, rev_id="0001")
        engine.dispose()
    subprocess.run([".venv/bin/ruff", "format", str(ALVO)], check=True)
    subprocess.run([".venv/bin/ruff", "check", "--fix", "--quiet", str(ALVO)], check=False)


if __name__ == "__main__":
    main()
