"""Opening the program reads the schema's standing without importing Alembic, the same as Alembic reads it."""

from __future__ import annotations

import subprocess
import sys

from alembic.script import ScriptDirectory

from secretaria import migracoes


def test_revisoes_lidas_dos_arquivos_iguais_as_do_alembic() -> None:
    roteiro = ScriptDirectory.from_config(migracoes.configuracao())
    conhecidas, head = migracoes._revisoes()
    assert conhecidas == {s.revision for s in roteiro.walk_revisions()}
    assert head == roteiro.get_current_head() == migracoes.revisao_head()


def test_abrir_um_banco_em_dia_nao_importa_o_alembic(tmp_path: object) -> None:
    codigo = (
        "import sys; from secretaria.services.semente import abrir_e_semear; "
        f"b = abrir_e_semear('sqlite:///{tmp_path}/a.sqlite'); b.fechar(); "  # creates it: Alembic is loaded
        "[sys.modules.pop(m) for m in list(sys.modules) if m.startswith('alembic')]; "
        f"b = abrir_e_semear('sqlite:///{tmp_path}/a.sqlite'); b.fechar(); "
        "print(sorted(m for m in sys.modules if m.startswith('alembic')))"
    )
    saida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True)
    assert saida.stdout.strip() == "[]"
