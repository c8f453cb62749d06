"""The "termo de verificação da auditoria": a signed paper that anchors the audit chain outside the computer.

It states the day, how many audit rows were verified, and the number and SHA-256 of the last one, and is
signed by the Secretário and a witness. Whoever later rewrites the audit (even re-chaining every hash after
the change) cannot make row N have the hash printed here: `secretaria auditoria verificar --ancora N:HASH`
checks a term by hand, and the program checks every term it issued (each is recorded in the audit).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from secretaria.reports.dados import Timbre
from secretaria.reports.pdf_base import DocumentoPdf, texto

__all__ = ["DadosTermoAuditoria", "TermoAuditoriaPdf"]


@dataclass(frozen=True)
class DadosTermoAuditoria:
    timbre: Timbre
    numero_termo: int
    emitido_em: datetime
    emitido_por: str
    registros: int
    ultimo_id: int
    ultimo_hash: str
    registros_conferidos: int
    anexos: int
    documentos: int
    ancoras: int
    chaves: tuple[tuple[str, str, str, str], ...] = ()
    """SQLite: each active user's signing key (login, name, fingerprint or "", how it was certified)."""


def _hash_em_grupos(valor: str) -> str:
    """The 64 hex digits in groups of 8, so two people can read them aloud and compare."""
    return " ".join(valor[i : i + 8] for i in range(0, len(valor), 8))


class TermoAuditoriaPdf(DocumentoPdf[DadosTermoAuditoria]):
    TITULO = "Termo de verificação da auditoria"

    def timbre_de(self, dados: DadosTermoAuditoria) -> Timbre:
        return dados.timbre

    def data_de(self, dados: DadosTermoAuditoria) -> tuple[date, time | None]:
        return dados.emitido_em.date(), dados.emitido_em.time()

    def identificacao_de(self, dados: DadosTermoAuditoria) -> str:
        return f"Termo de verificação da auditoria nº {dados.numero_termo}"

    def historia(self, dados: DadosTermoAuditoria) -> list[Flowable]:
        t = dados.timbre
        f: list[Flowable] = [
            *self.cabecalho(
                f"TERMO DE VERIFICAÇÃO DA AUDITORIA Nº {dados.numero_termo}",
                "Registro de auditoria do sistema Secretaria – Lei Municipal nº 2.413/1978",
            ),
            self.p(
                f"Aos {dados.emitido_em:%d/%m/%Y}, às {dados.emitido_em:%H:%M}, o sistema Secretaria verificou "
                f"o registro de auditoria da {texto(t.secretaria)} e o encontrou <b>íntegro</b>: a cadeia de "
                "hashes de todos os registros, cada registro de cadastro e de processo comparado com a última "
                "imagem que a auditoria gravou dele, os anexos de prova e os documentos emitidos conferidos "
                "pelo seu SHA-256, a proteção do banco contra alteração da auditoria e os termos anteriores.",
                "Justificado",
            ),
            Spacer(1, 4 * mm),
            self.campos(
                [
                    ("Registros de auditoria", f"<b>{dados.registros}</b>"),
                    ("Último registro", f"<b>nº {dados.ultimo_id}</b>"),
                    ("Hash do último registro (SHA-256)", f"<b>{_hash_em_grupos(dados.ultimo_hash)}</b>"),
                    ("Registros conferidos", str(dados.registros_conferidos)),
                    ("Anexos conferidos", str(dados.anexos)),
                    ("Documentos conferidos", str(dados.documentos)),
                    ("Termos anteriores conferidos", str(dados.ancoras)),
                    ("Emitido por", texto(dados.emitido_por)),
                ],
                largura_rotulo=52 * mm,
            ),
            *self._chaves(dados),
            Spacer(1, 4 * mm),
            self.p(
                "Guarde este termo assinado fora do computador. Para conferir a auditoria contra ele, em "
                "qualquer data futura, execute:",
                "Justificado",
            ),
            Spacer(1, 1 * mm),
            self.p(
                f"<b>secretaria auditoria verificar --ancora {dados.ultimo_id}:{dados.ultimo_hash}</b>",
                "Pequeno",
            ),
            Spacer(1, 2 * mm),
            self.p(
                "Se algum registro até o nº indicado for alterado ou apagado, ainda que a cadeia seja "
                "recalculada, o hash desse registro deixará de ser o impresso acima e a verificação o apontará.",
                "Nota",
            ),
            Spacer(1, 8 * mm),
            KeepTogether(
                [
                    self.local_e_data(t, dados.emitido_em.date()),
                    self.assinaturas(
                        [
                            [f"<b>{texto(t.secretario_nome or ' ')}</b>", texto(t.secretario_cargo)],
                            ["<b>Testemunha</b>", "Nome e matrícula: ____________________"],
                        ]
                    ),
                ]
            ),
        ]
        return f

    def _chaves(self, dados: DadosTermoAuditoria) -> list[Flowable]:
        """The fingerprints of the users' signing keys: whoever signs the term recognises their own, and a
        later term showing another one for the same user reveals a key put in the file from outside."""
        if not dados.chaves:
            return []
        return [
            Spacer(1, 4 * mm),
            self.p(
                "Cada ato gravado no banco é assinado pelo usuário que o praticou, com a sua chave de "
                "assinatura. Impressões digitais das chaves dos usuários ativos:",
                "Justificado",
            ),
            Spacer(1, 1 * mm),
            self.campos(
                [
                    (
                        f"{texto(nome)} ({texto(login)})",
                        f"<b>{impressao}</b><br/>{texto(certificacao)}" if impressao else texto(certificacao),
                    )
                    for login, nome, impressao, certificacao in dados.chaves
                ],
                largura_rotulo=52 * mm,
            ),
        ]
