"""The home screen of a new installation says what is missing before documents can be issued."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models import DadosOrgao
from secretaria.ui.inicio import PaginaInicio
from tests.helpers import apoio_processo as ap
from tests.helpers.fabrica import popular


def test_inicio_lista_o_que_falta_e_some_quando_feito(qtbot: QtBot, banco: Banco) -> None:
    popular(banco)  # the URM table and an inspector: the letterhead's data are still missing
    pagina = ap.manter(PaginaInicio(ap.contexto(banco, "administrador")))
    qtbot.addWidget(pagina)
    pagina.show()
    assert not pagina.primeiro_dia.isHidden()
    texto = pagina.primeiro_dia.text()
    assert texto.startswith("Antes de emitir documentos, falta cadastrar o cabeçalho dos documentos")
    assert "URM" not in texto and "fiscais" not in texto
    pagina.resize(1366, 768)
    pagina.grab().save(str(Path("/tmp") / "h25-inicio-primeiro-dia.png"))
    with banco.uow() as uow:
        orgao = uow.session.get(DadosOrgao, 1)
        assert orgao is not None
        orgao.secretario_nome, orgao.endereco = "Maria", "Praça Coronel Pedro Osório, 101"
        orgao.horario_expediente, orgao.pagamento_instrucoes = "das 8h às 14h", "Guia no protocolo."
        uow.commit()
    pagina.recarregar()
    assert pagina.primeiro_dia.isHidden()
