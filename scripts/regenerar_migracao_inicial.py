"""Developer tool: rewrite migration 0001 from the models (allowed only while no database is in the field).

Usage: .venv/bin/python scripts/regenerar_migracao_inicial.py
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from secretaria import migracoes

ALVO = migracoes.PASTA / "versions" / "0001_esquema_inicial.py"


def main() -> None:
    ALVO.unlink(missing_ok=True)
    # Later hand-written revisions (0002_…: triggers) revise 0001: set them aside while 0001 is rewritten,
    # or Alembic refuses a history whose base is missing.
    posteriores = [p for p in ALVO.parent.glob("0*.py") if p.name != ALVO.name]
    with tempfile.TemporaryDirectory() as pasta, tempfile.TemporaryDirectory() as guarda:
        for p in posteriores:
            shutil.move(p, Path(guarda) / p.name)
        try:
            engine = sa.create_engine(f"sqlite:///{Path(pasta) / 'vazio.sqlite'}")
            with engine.begin() as conn:
                command.revision(
                    migracoes.configuracao(conn), message="esquema inicial", autogenerate=True, rev_id="0001"
                )
            engine.dispose()
        finally:
            for p in posteriores:
                shutil.move(Path(guarda) / p.name, p)
    subprocess.run([".venv/bin/ruff", "format", str(ALVO)], check=True)
    subprocess.run([".venv/bin/ruff", "check", "--fix", "--quiet", str(ALVO)], check=False)


if __name__ == "__main__":
    main()
