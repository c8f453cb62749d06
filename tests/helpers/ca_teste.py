"""A test certification authority made with `cryptography`, for the digital signature tests.

Like ICP-Brasil in shape: a root, an intermediate that issues the users' certificates, user certificates whose
CN is "NAME:CPF", delivered as `.p12` files with a password; plus a foreign root with its own user (a chain
the office never installed), and a revocation list. No internet: nothing here names a URL.

Dates are fixed around the tests' pinned clock (30/11/2026): the valid user certificate runs through 2027,
the expired one ended in 2025, the early one starts in 2027. Keys are made once per test process (RSA 2048,
as ICP-Brasil's A1).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

SENHA = "senha-do-teste"
CPF = "12345678909"
NOME_SECRETARIO = "SERGIO SECRETARIO"
"""The CN of the tests' Secretary ("Sérgio Secretário" in `fabrica.NOMES`: compared without accents/case)."""

INICIO_RAIZ = datetime(2020, 1, 1, tzinfo=UTC)
FIM_RAIZ = datetime(2040, 1, 1, tzinfo=UTC)
INICIO_VALIDO = datetime(2026, 1, 1, tzinfo=UTC)
FIM_VALIDO = datetime(2027, 12, 31, tzinfo=UTC)


@functools.cache
def _chave(nome: str) -> rsa.RSAPrivateKey:
    """One key per role in the CA (`nome` only tells them apart), made once per process."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _nome(cn: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "ICP-Teste"),
            x509.NameAttribute(NameOID.COMMON_NAME, cn),
        ]
    )


def _emitir(
    cn: str,
    chave: rsa.RSAPrivateKey,
    emissor: x509.Name,
    chave_emissor: rsa.RSAPrivateKey,
    *,
    autoridade: bool,
    inicio: datetime,
    fim: datetime,
    serie: int,
) -> x509.Certificate:
    construtor = (
        x509.CertificateBuilder()
        .subject_name(_nome(cn))
        .issuer_name(emissor)
        .public_key(chave.public_key())
        .serial_number(serie)
        .not_valid_before(inicio)
        .not_valid_after(fim)
        .add_extension(x509.BasicConstraints(ca=autoridade, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(chave.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(chave_emissor.public_key()), critical=False
        )
    )
    if not autoridade:
        # Like ICP-Brasil's: where the issuer's revocation list is published (a name that never resolves:
        # the tests install the list instead).
        construtor = construtor.add_extension(
            x509.CRLDistributionPoints(
                [
                    x509.DistributionPoint(
                        [x509.UniformResourceIdentifier("http://lcr.ac-teste.invalid/intermediaria.crl")],
                        None,
                        None,
                        None,
                    )
                ]
            ),
            critical=False,
        )
    if autoridade:
        uso = x509.KeyUsage(False, False, False, False, False, True, True, False, False)
    else:
        uso = x509.KeyUsage(True, True, False, False, False, False, False, False, False)
    return construtor.add_extension(uso, critical=True).sign(chave_emissor, hashes.SHA256())


@dataclass(frozen=True)
class Cadeia:
    raiz: x509.Certificate
    intermediaria: x509.Certificate
    chave_intermediaria: rsa.RSAPrivateKey


@functools.cache
def cadeia(nome: str = "AC Raiz de Teste") -> Cadeia:
    """A root and its intermediate ("AC Raiz de Teste" is the office's; any other name is a foreign one)."""
    kr, ki = _chave(f"{nome}-raiz"), _chave(f"{nome}-intermediaria")
    raiz = _emitir(nome, kr, _nome(nome), kr, autoridade=True, inicio=INICIO_RAIZ, fim=FIM_RAIZ, serie=1)
    inter = _emitir(
        f"{nome} – Intermediária",
        ki,
        raiz.subject,
        kr,
        autoridade=True,
        inicio=INICIO_RAIZ,
        fim=FIM_RAIZ,
        serie=2,
    )
    return Cadeia(raiz, inter, ki)


def raiz_pem(nome: str = "AC Raiz de Teste") -> bytes:
    return cadeia(nome).raiz.public_bytes(serialization.Encoding.PEM)


def intermediaria_pem(nome: str = "AC Raiz de Teste") -> bytes:
    return cadeia(nome).intermediaria.public_bytes(serialization.Encoding.PEM)


def certificado_usuario(
    titular: str = NOME_SECRETARIO,
    *,
    inicio: datetime = INICIO_VALIDO,
    fim: datetime = FIM_VALIDO,
    ac: str = "AC Raiz de Teste",
    serie: int = 1001,
) -> x509.Certificate:
    c = cadeia(ac)
    return _emitir(
        f"{titular}:{CPF}",
        _chave(f"usuario-{titular}"),
        c.intermediaria.subject,
        c.chave_intermediaria,
        autoridade=False,
        inicio=inicio,
        fim=fim,
        serie=serie,
    )


def p12(
    titular: str = NOME_SECRETARIO,
    *,
    senha: str = SENHA,
    inicio: datetime = INICIO_VALIDO,
    fim: datetime = FIM_VALIDO,
    ac: str = "AC Raiz de Teste",
    serie: int = 1001,
) -> bytes:
    """A user's A1 file (.p12): key, certificate and the intermediate, protected by `senha`."""
    cert = certificado_usuario(titular, inicio=inicio, fim=fim, ac=ac, serie=serie)
    return pkcs12.serialize_key_and_certificates(
        titular.encode(),
        _chave(f"usuario-{titular}"),
        cert,
        [cadeia(ac).intermediaria],
        serialization.BestAvailableEncryption(senha.encode()),
    )


def lcr_revogando(*series: int, ac: str = "AC Raiz de Teste") -> bytes:
    """The intermediate's revocation list (PEM) naming the certificates of `series` as revoked."""
    c = cadeia(ac)
    agora = datetime(2026, 11, 1, tzinfo=UTC)
    construtor = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(c.intermediaria.subject)
        .last_update(agora)
        .next_update(datetime(2027, 12, 1, tzinfo=UTC))
    )
    for serie in series:
        construtor = construtor.add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(serie).revocation_date(agora).build()
        )
    return construtor.sign(c.chave_intermediaria, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


MODULO_SOFTHSM = Path("/usr/lib/softhsm/libsofthsm2.so")
PIN = "1234"


def token_softhsm(pasta: Path, titular: str = NOME_SECRETARIO) -> Path | None:
    """An A3 token played by SoftHSM (Debian `softhsm2`): `titular`'s key and certificate on a token kept in
    `pasta`; returns the PKCS#11 module, or None when SoftHSM is not installed. The caller sets
    SOFTHSM2_CONF to `pasta / "softhsm2.conf"` for the whole process (the module reads it once)."""
    import pkcs11
    from pkcs11 import Attribute, CertificateType, ObjectClass

    utilitario = shutil.which("softhsm2-util")
    if utilitario is None or not MODULO_SOFTHSM.exists():
        return None
    (pasta / "tokens").mkdir(parents=True, exist_ok=True)
    conf = pasta / "softhsm2.conf"
    conf.write_text(
        f"directories.tokendir = {pasta / 'tokens'}\nobjectstore.backend = file\nlog.level = ERROR\n"
    )
    ambiente = {**os.environ, "SOFTHSM2_CONF": str(conf)}

    def rodar(*argumentos: str) -> None:
        subprocess.run([utilitario, *argumentos], check=True, capture_output=True, env=ambiente)

    rodar("--init-token", "--free", "--label", "teste", "--pin", PIN, "--so-pin", "87654321")
    chave = pasta / "chave.pem"
    chave.write_bytes(
        _chave(f"usuario-{titular}").private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    rodar("--import", str(chave), "--token", "teste", "--label", "titular", "--id", "01", "--pin", PIN)
    chave.unlink()
    certificados = (
        (certificado_usuario(titular), b"\x01", "titular"),
        (cadeia().intermediaria, b"\x02", "ac"),
    )
    with pkcs11.lib(str(MODULO_SOFTHSM)).get_token(token_label="teste").open(rw=True, user_pin=PIN) as sessao:
        for cert, identificador, rotulo in certificados:  # the holder's first: the program signs with it
            sessao.create_object(
                {
                    Attribute.CLASS: ObjectClass.CERTIFICATE,
                    Attribute.CERTIFICATE_TYPE: CertificateType.X_509,
                    Attribute.VALUE: cert.public_bytes(serialization.Encoding.DER),
                    Attribute.SUBJECT: cert.subject.public_bytes(),
                    Attribute.ID: identificador,
                    Attribute.LABEL: rotulo,
                    Attribute.TOKEN: True,
                }
            )
    return MODULO_SOFTHSM


def carimbador() -> Any:
    """A timestamp authority of the test CA answering in-process (pyHanko's DummyTimeStamper), at a fixed
    moment of the tests' day: the RFC 3161 path without a server."""
    from pyhanko.keys.internal import (
        translate_pyca_cryptography_cert_to_asn1,
        translate_pyca_cryptography_key_to_asn1,
    )
    from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    c = cadeia()
    chave = _chave("carimbo-do-tempo")
    cert = (
        x509.CertificateBuilder()
        .subject_name(_nome("Carimbo do Tempo de Teste"))
        .issuer_name(c.intermediaria.subject)
        .public_key(chave.public_key())
        .serial_number(7001)
        .not_valid_before(INICIO_VALIDO)
        .not_valid_after(FIM_VALIDO)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .sign(c.chave_intermediaria, hashes.SHA256())
    )
    return DummyTimeStamper(
        tsa_cert=translate_pyca_cryptography_cert_to_asn1(cert),
        tsa_key=translate_pyca_cryptography_key_to_asn1(chave),
        certs_to_embed=SimpleCertificateStore.from_certs(
            [translate_pyca_cryptography_cert_to_asn1(c.intermediaria)]
        ),
        fixed_dt=datetime(2026, 11, 30, 13, 0, tzinfo=UTC),
    )
