"""The licences the built program carries (`make dist` writes them with `gravar_licencas`), and its version."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest

from secretaria import cli, distribuicao

TEXTOS = Path(__file__).resolve().parent.parent / "empacotamento" / "licencas"


def test_componentes_sao_as_dependencias_do_programa_e_nao_as_de_teste() -> None:
    nomes = {c.nome.lower().replace("_", "-") for c in distribuicao.componentes()}
    # The run-time dependencies, with psycopg's "binary" extra, and theirs (numpy comes through matplotlib).
    assert {"pyside6-essentials", "shiboken6", "psycopg", "psycopg-binary", "num2words", "numpy"} <= nomes
    assert not nomes & {"pytest", "mypy", "ruff", "hypothesis", "pyinstaller", "secretaria"}


def test_pasta_de_licencas_tem_o_indice_e_os_textos(tmp_path: Path) -> None:
    indice = distribuicao.gravar_licencas(tmp_path / "licencas", textos_extras=TEXTOS)
    texto = indice.read_text(encoding="utf-8")
    for componente in distribuicao.componentes():
        assert f"{componente.nome} {componente.versao} — " in texto
        assert (tmp_path / "licencas" / componente.nome).is_dir()
    # The Qt bindings' wheels carry no licence file: the LGPL and GPL texts are put beside them.
    pyside = tmp_path / "licencas" / "PySide6_Essentials"
    assert (pyside / "LGPL-3.0.txt").read_text(encoding="utf-8") == (TEXTOS / "LGPL-3.0.txt").read_text(
        encoding="utf-8"
    )
    assert any((tmp_path / "licencas" / "psycopg").iterdir())
    assert "podem ser substituídas" in texto  # the LGPL's replaceability, said in the index


def test_versao_vem_dos_metadados() -> None:
    assert distribuicao.versao() == version("secretaria")
    assert distribuicao.pasta_licencas() is None  # not frozen


def test_opcao_versao(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as fim:
        cli.main(["--versao"])
    assert fim.value.code == 0
    assert capsys.readouterr().out == f"Secretaria {version('secretaria')}\n"
