"""Test data for the case services: a small city inserted directly, one actor per role, and a script of acts.

Plain module (no pytest): `tests/services/conftest.py` turns it into fixtures (`cidade`, `roteiro`); tests
elsewhere may import it as `tests.helpers.fabrica` (run from the project root) or use those fixtures.

Usage in a test:  roteiro = Roteiro(banco, cidade, monkeypatch)  (or the `roteiro` fixture), then
`r = roteiro.lavrar(dispositivo="1-VI", data_infracao=date(2026, 2, 10))`, `roteiro.intimar(r.id, ...)`,
`roteiro.decidido(...)` for a whole applied case. "Today" is `roteiro.hoje` (the services' clock is patched).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import (
    PAPEIS,
    Auditoria,
    AutoInfracao,
    Decisao,
    Empregado,
    Fiscal,
    Linha,
    Operadora,
    Proposta,
    ValorURM,
    Veiculo,
)
from secretaria.services.autos import NovoAuto, ResumoAuto, lavrar_auto
from secretaria.services.base import Ator
from secretaria.services.tramitacao import (
    DecisaoCaso,
    PedidoDecisao,
    PedidoIntimacao,
    PedidoJulgamento,
    PedidoRecurso,
    decidir,
    julgar_recurso,
    registrar_intimacao,
    registrar_proposta,
    registrar_recurso,
)

HOJE = date(2026, 11, 30)
URM_2020 = Decimal("150.0000")
URM_2026 = Decimal("164.7400")

NOMES = {
    "administrador": "Ana Administradora",
    "fiscal": "Fábio Fiscal",
    "protocolo": "Paula do Protocolo",
    "autoridade": "Augusto Autoridade",
    "secretario": "Sérgio Secretário",
    "consulta": "Clara Consulta",
}
ATORES: dict[str, Ator] = {p: Ator(p, NOMES[p], frozenset({p})) for p in PAPEIS}
"""One actor per role, login = role name."""


@dataclass(frozen=True)
class Cidade:
    operadora_id: int
    """Concessionária "Viação Princesa do Sul"."""
    operadora2_id: int
    """Permissionária "Transportes Laranjal" (cassação applies to permissions)."""
    linha_id: int
    linha2_id: int
    veiculo_id: int
    veiculo2_id: int
    empregado_id: int
    empregado2_id: int
    fiscal_id: int


def popular(banco: Banco, *, urm: bool = True) -> Cidade:
    """Two operators with a line, a bus and a driver each, one SMSU inspector and (optionally) the URM table."""
    with banco.uow() as uow:
        s = uow.session
        op1 = Operadora(
            razao_social="Viação Princesa do Sul Ltda.",
            nome_fantasia="Princesa do Sul",
            cnpj="11222333000181",
            delegacao="concessao",
            logradouro="Rua Quinze de Novembro",
            numero_endereco="100",
            bairro="Centro",
            cep="96015000",
            representante_nome="Carlos Representante",
            representante_cpf="52998224725",
            alterado_por="teste",
        )
        op2 = Operadora(
            razao_social="Transportes Laranjal Ltda.",
            cnpj="11444777000161",
            delegacao="permissao",
            logradouro="Avenida Adolfo Fetter",
            numero_endereco="2000",
            representante_nome="Lúcia Laranjal",
            alterado_por="teste",
        )
        s.add_all([op1, op2])
        s.flush()
        l1 = Linha(codigo="L10", nome="Centro–Fragata", operadora_id=op1.id, alterado_por="teste")
        l2 = Linha(codigo="L20", nome="Centro–Laranjal", operadora_id=op2.id, alterado_por="teste")
        s.add_all([l1, l2])
        s.flush()
        v1 = Veiculo(
            prefixo="101",
            placa="IAB1C23",
            placa_chave="IAB1C23",
            renavam="00123456789",
            operadora_id=op1.id,
            linha_id=l1.id,
            vistoria_validade=date(2027, 6, 30),
            licenca_validade=date(2027, 3, 31),
            alterado_por="teste",
        )
        v2 = Veiculo(
            prefixo="201",
            placa="IXY9876",
            placa_chave="IXY9J76",
            renavam="00987654321",
            operadora_id=op2.id,
            linha_id=l2.id,
            vistoria_validade=date(2026, 10, 31),
            licenca_validade=date(2027, 3, 31),
            alterado_por="teste",
        )
        e1 = Empregado(nome="João Motorista", cpf="11144477735", operadora_id=op1.id, alterado_por="teste")
        e2 = Empregado(
            nome="Maria Cobradora",
            cpf="39053344705",
            funcao="cobrador",
            operadora_id=op2.id,
            alterado_por="teste",
        )
        f = Fiscal(nome="Fábio Fiscal", matricula="SMSU-001", alterado_por="teste")
        s.add_all([v1, v2, e1, e2, f])
        if urm:
            s.add_all(
                [
                    ValorURM(
                        vigencia=date(2020, 1, 1),
                        valor=URM_2020,
                        ato="Decreto nº 1/2020",
                        alterado_por="teste",
                    ),
                    ValorURM(
                        vigencia=date(2026, 1, 1),
                        valor=URM_2026,
                        ato="Decreto nº 1/2026",
                        alterado_por="teste",
                    ),
                ]
            )
        s.flush()
        cidade = Cidade(op1.id, op2.id, l1.id, l2.id, v1.id, v2.id, e1.id, e2.id, f.id)
        uow.commit()
    return cidade


def novo_auto(operadora_id: int, fiscal_id: int, dia: date, /, **campos: Any) -> NovoAuto:
    """A valid NovoAuto of an infraction on `dia`, drawn up the same day by the inspector `fiscal_id` (art. 1º,
    VI, the bus not clean); `campos` override any field."""
    padrao: dict[str, Any] = {
        "operadora_id": operadora_id,
        "dispositivo_codigo": "1-VI",
        "data_infracao": dia,
        "hora_infracao": time(8, 30),
        "local": "Praça Coronel Pedro Osório",
        "data_lavratura": dia,
        "hora_lavratura": time(9, 0),
        "local_lavratura": "Terminal central",
        "descricao_fatos": "Veículo em circulação sem condições de higiene.",
        "fiscal_id": fiscal_id,
    }
    padrao.update(campos)
    return NovoAuto(**padrao)


def contagens(banco: Banco) -> dict[str, int]:
    """Rows per table (audit included) and the sum of versions of editable tables, in one query: compare
    before/after a refused act to prove nothing was written."""
    from secretaria.models import Base

    tabelas = Base.metadata.sorted_tables
    colunas = [sa.select(sa.func.count()).select_from(t).scalar_subquery().label(t.name) for t in tabelas]
    # Sum of versions: an UPDATE that slipped through would show here even with the same row counts.
    colunas += [
        sa.select(sa.func.coalesce(sa.func.sum(t.c.versao), 0)).scalar_subquery().label(f"{t.name}.versao")
        for t in tabelas
        if "versao" in t.c
    ]
    consulta = sa.select(*colunas)
    with banco.leitura() as s:
        return dict(s.execute(consulta).one()._mapping)


def ultima_auditoria(banco: Banco) -> dict[str, Any] | None:
    """The last audit row as a dict (acao, usuario_login, entidade, entidade_id, antes, depois as JSON text)."""
    with banco.leitura() as s:
        reg = s.scalar(sa.select(Auditoria).order_by(Auditoria.id.desc()).limit(1))
        if reg is None:
            return None
        return {
            c: getattr(reg, c)
            for c in ("acao", "usuario_login", "entidade", "entidade_id", "antes", "depois")
        }


class Roteiro:
    """Drives a case act by act with sensible defaults; the services' clock reads `self.hoje`."""

    def __init__(
        self, banco: Banco, cidade: Cidade, monkeypatch: pytest.MonkeyPatch, hoje: date = HOJE
    ) -> None:
        self.banco = banco
        self.cidade = cidade
        self.hoje = hoje
        monkeypatch.setattr(relogio, "hoje", lambda: self.hoje)
        monkeypatch.setattr(relogio, "agora", lambda: datetime.combine(self.hoje, time(10, 0)))

    def uow(self) -> Any:
        return self.banco.uow()

    def novo_auto(self, **campos: Any) -> NovoAuto:
        if "dispositivo" in campos:
            campos["dispositivo_codigo"] = campos.pop("dispositivo")
        dia = campos.pop("data_infracao", self.hoje)
        return novo_auto(self.cidade.operadora_id, self.cidade.fiscal_id, dia, **campos)

    def lavrar(self, **campos: Any) -> ResumoAuto:
        return lavrar_auto(self.uow(), ATORES["fiscal"], self.novo_auto(**campos))

    def intimar(self, auto_id: int, data: date, *, objeto: str = "auto", resultado: str = "entregue") -> Any:
        return registrar_intimacao(
            self.uow(),
            ATORES["protocolo"],
            PedidoIntimacao(
                auto_id=auto_id,
                objeto=objeto,
                data=data,
                meio="pessoal",
                resultado=resultado,
                recebedor_nome="Carlos Representante" if resultado == "entregue" else "",
            ),
        )

    def decidir(
        self,
        auto_id: int,
        data: date,
        multa: str | Decimal | None = None,
        suspensao: int = 0,
        resultado: str = "aplicada",
        *,
        propor: bool = True,
    ) -> DecisaoCaso:
        """The Secretary's decision. A penalty needs the authority's proposal (art. 13): with `propor`, when
        none is on file yet, the same penalty is first proposed on the same day."""
        if propor and resultado == "aplicada" and not self.tem_proposta(auto_id):
            self.propor(auto_id, data, multa, suspensao)
        return decidir(
            self.uow(),
            ATORES["secretario"],
            PedidoDecisao(
                auto_id=auto_id,
                data=data,
                resultado=resultado,
                multa_ur=None if multa is None else Decimal(multa),
                suspensao_dias=suspensao,
                fundamentacao="Infração comprovada pelo auto e não afastada pela defesa.",
            ),
        )

    def decidido(
        self,
        *,
        data_infracao: date,
        multa: str,
        suspensao: int = 0,
        dispositivo: str = "1-VI",
        operadora_id: int | None = None,
        dias_ate_decisao: int = 20,
        notificar: bool = True,
    ) -> ResumoAuto:
        """A whole applied case: drawn up on the day, intimated next day, decided after the defence deadline,
        and (with `notificar`, when not after today) the decision intimated the day after it, so the penalty
        becomes final the day after the appeal deadline (REGRAS § 3 rule 1)."""
        r = self.lavrar(
            dispositivo=dispositivo,
            data_infracao=data_infracao,
            operadora_id=operadora_id or self.cidade.operadora_id,
        )
        self.intimar(r.id, data_infracao + timedelta(days=1))
        dia_decisao = data_infracao + timedelta(days=1 + dias_ate_decisao)
        self.decidir(r.id, dia_decisao, multa, suspensao)
        if notificar and dia_decisao + timedelta(days=1) <= self.hoje:
            self.intimar(r.id, dia_decisao + timedelta(days=1), objeto="decisao")
        return r

    def tem_proposta(self, auto_id: int) -> bool:
        with self.banco.leitura() as s:
            return (
                s.scalar(sa.select(sa.func.count(Proposta.id)).where(Proposta.auto_id == auto_id)) or 0
            ) > 0

    def propor(
        self,
        auto_id: int,
        data: date,
        multa: str | Decimal | None = None,
        suspensao: int = 0,
        acao: str = "aplicar",
    ) -> int:
        return registrar_proposta(
            self.uow(),
            ATORES["autoridade"],
            auto_id=auto_id,
            data=data,
            acao=acao,
            multa_ur=None if multa is None else Decimal(multa),
            suspensao_dias=suspensao,
            fundamentacao="Infração comprovada pelo auto.",
        )

    def recorrer(self, auto_id: int, data: date) -> Any:
        return registrar_recurso(
            self.uow(),
            ATORES["protocolo"],
            PedidoRecurso(auto_id=auto_id, protocolado_em=data, razoes="Razões."),
        )

    def julgar(self, auto_id: int, data: date, resultado: str, **campos: Any) -> None:
        julgar_recurso(
            self.uow(),
            ATORES["protocolo"],
            PedidoJulgamento(
                auto_id=auto_id, data=data, resultado=resultado, fundamentacao="Julgado.", **campos
            ),
        )


def inserir_auto(
    banco: Banco, *, data_decisao: date | None = None, codigo: str = "1-I", numero: int = 1
) -> int:
    """An auto (and its decision, when dated) inserted directly: only the dates matter here."""
    base = {"versao": 1, "criado_em": datetime(2026, 1, 1), "alterado_em": datetime(2026, 1, 1)}
    with banco.engine.begin() as c:
        if c.scalar(sa.select(sa.func.count()).select_from(Operadora)) == 0:
            c.execute(
                sa.insert(Operadora).values(id=1, razao_social="Viação Alfa", cnpj="11222333000181", **base)
            )
            c.execute(sa.insert(Fiscal).values(id=1, nome="Fábio", matricula="1", **base))
        auto_id = c.execute(
            sa.insert(AutoInfracao)
            .values(
                ano=2026,
                numero=numero,
                operadora_id=1,
                dispositivo_codigo=codigo,
                tipo="E",
                data_infracao=date(2025, 1, 2),
                local="Centro",
                data_lavratura=date(2025, 1, 2),
                hora_lavratura=time(10),
                local_lavratura="Centro",
                descricao_fatos="Fatos.",
                infrator_nome="X",
                fiscal_id=1,
                proxima_penalidade="",
                lavrado_por="fabio",
                **base,
            )
            .returning(AutoInfracao.id)
        ).scalar_one()
        if data_decisao is not None:
            c.execute(
                sa.insert(Decisao).values(
                    auto_id=auto_id,
                    data=data_decisao,
                    resultado="aplicada",
                    multa_ur=Decimal("0.5"),
                    valor_urm=Decimal("100"),
                    multa_reais=Decimal("50"),
                    fundamentacao="",
                    secretario="sec",
                    **base,
                )
            )
    return int(auto_id)
