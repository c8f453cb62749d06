"""First day: a new installation is told what is still missing before documents can be issued
(URM value, letterhead, office hours, payment instructions, inspectors), one item less as each is done."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from secretaria.db import Banco
from secretaria.models import DadosOrgao, Fiscal, ValorURM
from secretaria.services.primeiro_dia import pendencias, texto_pendencias


def _chaves(banco: Banco) -> list[str]:
    with banco.leitura() as s:
        return [p.chave for p in pendencias(s)]


def test_lista_o_que_falta_ate_cada_item_ser_feito(banco: Banco) -> None:
    assert _chaves(banco) == ["urm", "timbre", "expediente", "pagamento", "fiscais"]
    with banco.leitura() as s:
        texto = texto_pendencias(pendencias(s))
    assert texto is not None and texto.startswith(
        "Antes de emitir documentos, falta cadastrar o valor da URM"
    )
    assert texto.endswith("; e os fiscais da SMSU (Cadastros › Fiscais, ou importe a planilha).")

    passos: list[tuple[str, object]] = [
        (
            "urm",
            ValorURM(vigencia=date(2026, 1, 1), valor=Decimal("164.74"), ato="Decreto", alterado_por="t"),
        ),
        ("fiscais", Fiscal(nome="Rosa", matricula="SMSU-1", alterado_por="t")),
    ]
    for chave, registro in passos:
        with banco.uow() as uow:
            uow.session.add(registro)
            uow.commit()
        assert chave not in _chaves(banco)
    for chave, campos in (
        ("timbre", {"secretario_nome": "Maria Secretária", "endereco": "Praça Coronel Pedro Osório, 101"}),
        ("expediente", {"horario_expediente": "de segunda a sexta-feira, das 8h às 14h"}),
        ("pagamento", {"pagamento_instrucoes": "Guia no protocolo da SMSU."}),
    ):
        with banco.uow() as uow:
            orgao = uow.session.get(DadosOrgao, 1)
            assert orgao is not None
            for nome, valor in campos.items():
                setattr(orgao, nome, valor)
            uow.commit()
        assert chave not in _chaves(banco)
    assert _chaves(banco) == []
    with banco.leitura() as s:
        assert texto_pendencias(pendencias(s)) is None


def test_fiscal_inativo_nao_basta(banco: Banco) -> None:
    with banco.uow() as uow:
        uow.session.add(Fiscal(nome="Paulo", matricula="SMSU-2", ativo=False, alterado_por="t"))
        uow.commit()
    assert "fiscais" in _chaves(banco)
