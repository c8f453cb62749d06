"""The columns each kind of spreadsheet may have, found by header whatever the case, accents and common
synonyms ("Placa", "PLACA", "placa do veículo"; "Razão social"; "CPF do motorista")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from secretaria.codigos import ROTULOS_DELEGACAO, ROTULOS_FUNCAO, ROTULOS_RECURSO, ROTULOS_VEICULO
from secretaria.erros import ErroDominio

__all__ = ["COLUNAS", "ROTULOS_TIPOS", "TIPOS", "Coluna", "Mapeamento", "mapear", "normalizar"]

TIPOS = ("operadoras", "linhas", "veiculos", "empregados", "fiscais", "autos")
ROTULOS_TIPOS = {
    "operadoras": "Operadoras",
    "linhas": "Linhas",
    "veiculos": "Veículos",
    "empregados": "Empregados e agentes",
    "fiscais": "Fiscais da SMSU",
    "autos": "Histórico de autos de infração",
}

_PALAVRAS_VAZIAS = frozenset({"do", "da", "de", "dos", "das", "n", "no", "na", "nº", "o", "a", "e"})


def normalizar(texto: str) -> str:
    """ "Razão  Social" → "razao social"; "Nº do CPF" → "cpf": casefold, no accents, no punctuation,
    without the little words ("do", "da", "nº") that vary from one office's sheet to the next."""
    semacento = unicodedata.normalize("NFKD", texto.replace("º", " ").replace("ª", " "))
    semacento = "".join(c for c in semacento if not unicodedata.combining(c)).casefold()
    palavras = re.sub(r"[^0-9a-z]+", " ", semacento).split()
    return " ".join(p for p in palavras if p not in _PALAVRAS_VAZIAS)


@dataclass(frozen=True)
class Coluna:
    campo: str
    titulo: str
    """The header the template writes."""
    tipo: str = "texto"
    """texto, documento, data, inteiro, booleano, opcao."""
    obrigatoria: bool = False
    sinonimos: tuple[str, ...] = ()
    opcoes: Mapping[str, str] | None = None
    """Code → label, for `opcao` columns (the label or the code is accepted)."""
    digitos: int = 0
    """For a document read as a number (Excel drops the leading zeros): pad to this many digits."""
    exemplo: str = ""
    nota: str = ""


_CNPJ_OPERADORA = Coluna(
    "operadora_cnpj",
    "CNPJ da operadora",
    "documento",
    True,
    ("cnpj", "cnpj empresa", "operadora", "empresa", "cnpj operadora"),
    digitos=14,
    exemplo="11.222.333/0001-81",
    nota="A operadora já cadastrada no programa (ou importada antes), pelo CNPJ.",
)

COLUNAS: dict[str, tuple[Coluna, ...]] = {
    "operadoras": (
        Coluna("razao_social", "Razão social", obrigatoria=True, sinonimos=("nome empresarial", "empresa", "nome"),
               exemplo="Viação Exemplo Ltda."),
        Coluna("cnpj", "CNPJ", "documento", True, ("cnpj empresa", "cnpj operadora"), digitos=14,
               exemplo="11.222.333/0001-81"),
        Coluna("nome_fantasia", "Nome fantasia", sinonimos=("fantasia",), exemplo="Exemplo"),
        Coluna("delegacao", "Delegação", "opcao", sinonimos=("tipo delegacao", "forma delegacao", "regime"),
               opcoes=ROTULOS_DELEGACAO, exemplo="Concessão", nota="Concessão ou Permissão."),
        Coluna("logradouro", "Logradouro", obrigatoria=True,
               sinonimos=("endereco", "rua", "endereco intimacoes"), exemplo="Rua Quinze de Novembro"),
        Coluna("numero_endereco", "Número", sinonimos=("numero", "num", "nro"), exemplo="100"),
        Coluna("complemento", "Complemento", sinonimos=("compl",)),
        Coluna("bairro", "Bairro", exemplo="Centro"),
        Coluna("cidade", "Cidade", sinonimos=("municipio",), exemplo="Pelotas"),
        Coluna("uf", "UF", sinonimos=("estado",), exemplo="RS"),
        Coluna("cep", "CEP", "documento", digitos=8, exemplo="96015-000"),
        Coluna("telefone", "Telefone", sinonimos=("fone", "tel", "telefones")),
        Coluna("email", "E-mail", sinonimos=("email", "correio eletronico")),
        Coluna("representante_nome", "Representante legal", sinonimos=("representante", "nome representante",
               "representante nome"), exemplo="Carlos Representante"),
        Coluna("representante_cpf", "CPF do representante", "documento",
               sinonimos=("cpf representante legal", "representante cpf"), digitos=11, exemplo="529.982.247-25"),
        Coluna("contrato_numero", "Contrato ou termo de permissão", sinonimos=("contrato", "numero contrato",
               "termo permissao")),
        Coluna("contrato_inicio", "Início do contrato", "data", sinonimos=("inicio contrato", "inicio"),
               exemplo="01/01/2020"),
        Coluna("contrato_fim", "Fim do contrato", "data", sinonimos=("fim contrato", "termino contrato",
               "fim"), exemplo="31/12/2035"),
    ),
    "linhas": (
        Coluna("codigo", "Código", obrigatoria=True, sinonimos=("linha", "codigo linha", "numero linha"),
               exemplo="L10"),
        Coluna("nome", "Nome", obrigatoria=True, sinonimos=("nome linha", "denominacao", "descricao"),
               exemplo="Centro–Fragata"),
        _CNPJ_OPERADORA,
        Coluna("itinerario", "Itinerário", sinonimos=("trajeto", "percurso")),
        Coluna("ativa", "Ativa", "booleano", sinonimos=("situacao", "em operacao"), exemplo="Sim",
               nota="Sim ou Não (em branco: Sim)."),
    ),
    "veiculos": (
        Coluna("prefixo", "Prefixo", obrigatoria=True, sinonimos=("numero frota", "frota", "prefixo veiculo",
               "carro"), exemplo="101"),
        Coluna("placa", "Placa", "documento", True, ("placa veiculo", "placa carro"), exemplo="IAB1C23",
               nota="Antiga (ABC-1234) ou Mercosul (ABC1D23): as duas formas são o mesmo veículo."),
        Coluna("renavam", "RENAVAM", "documento", True, ("codigo renavam", "renavan"), digitos=11,
               exemplo="00123456789"),
        _CNPJ_OPERADORA,
        Coluna("linha_codigo", "Linha", sinonimos=("codigo linha", "linha codigo"), exemplo="L10",
               nota="Código de uma linha da mesma operadora (em branco: sem linha)."),
        Coluna("marca_modelo", "Marca/modelo", sinonimos=("marca modelo", "modelo", "marca", "chassi modelo"),
               exemplo="Marcopolo Torino"),
        Coluna("ano_fabricacao", "Ano de fabricação", "inteiro", sinonimos=("ano", "ano fabricacao",
               "fabricacao"), exemplo="2019"),
        Coluna("lugares_sentados", "Lugares sentados", "inteiro", sinonimos=("sentados", "assentos"),
               exemplo="40"),
        Coluna("lugares_em_pe", "Lugares em pé", "inteiro", sinonimos=("em pe", "lugares pe"), exemplo="30"),
        Coluna("vistoria_validade", "Validade da vistoria", "data", sinonimos=("vistoria",
               "vencimento vistoria", "vistoria ate"), exemplo="30/06/2027"),
        Coluna("licenca_validade", "Validade da licença", "data", sinonimos=("licenca", "vencimento licenca",
               "licenca ate"), exemplo="31/03/2027"),
        Coluna("situacao", "Situação", "opcao", sinonimos=("status",), opcoes=ROTULOS_VEICULO, exemplo="Ativo",
               nota="Ativo, Reserva ou Baixado (em branco: Ativo)."),
    ),
    "empregados": (
        Coluna("nome", "Nome", obrigatoria=True, sinonimos=("nome completo", "nome empregado", "motorista",
               "nome motorista", "funcionario"), exemplo="João da Silva"),
        Coluna("cpf", "CPF", "documento", True, ("cpf motorista", "cpf empregado", "cpf funcionario"),
               digitos=11, exemplo="111.444.777-35"),
        _CNPJ_OPERADORA,
        Coluna("funcao", "Função", "opcao", sinonimos=("cargo", "funcao empregado"), opcoes=ROTULOS_FUNCAO,
               exemplo="Motorista", nota="Motorista, Cobrador, Fiscal da empresa ou Outro (em branco: Motorista)."),
        Coluna("carteira_cadastro", "Carteira de cadastro", sinonimos=("carteira", "numero carteira",
               "registro", "matricula"), exemplo="12345"),
        Coluna("admissao", "Admissão", "data", sinonimos=("data admissao",), exemplo="02/05/2018"),
        Coluna("demissao", "Demissão", "data", sinonimos=("data demissao", "desligamento")),
    ),
    "fiscais": (
        Coluna("nome", "Nome", obrigatoria=True, sinonimos=("nome fiscal", "fiscal"), exemplo="Fábio Fiscal"),
        Coluna("matricula", "Matrícula", obrigatoria=True, sinonimos=("matricula fiscal", "registro"),
               exemplo="SMSU-001"),
        Coluna("ativo", "Ativo", "booleano", sinonimos=("situacao",), exemplo="Sim",
               nota="Sim ou Não (em branco: Sim)."),
    ),
    "autos": (
        Coluna("numero", "Número do auto", obrigatoria=True, sinonimos=("numero", "auto", "ai", "numero ai",
               "auto infracao", "n auto"), exemplo="0012/2024",
               nota="Como no livro: 12 ou 0012/2024 (com o ano, a coluna Ano pode ficar em branco)."),
        Coluna("ano", "Ano", "inteiro", sinonimos=("ano auto",), exemplo="2024"),
        _CNPJ_OPERADORA,
        Coluna("dispositivo", "Dispositivo", obrigatoria=True, sinonimos=("dispositivo infringido", "artigo",
               "infracao", "enquadramento"), exemplo="Art. 1º, XVI", nota="Como “1-XVI” ou “Art. 1º, XVI”."),
        Coluna("data_infracao", "Data da infração", "data", True, ("data fato", "dia infracao", "data"),
               exemplo="10/02/2024"),
        Coluna("data_lavratura", "Data da lavratura", "data", sinonimos=("lavratura", "lavrado em"),
               exemplo="10/02/2024", nota="Em branco: o dia da infração."),
        Coluna("local", "Local", sinonimos=("local infracao", "endereco"), exemplo="Praça Coronel Pedro Osório"),
        Coluna("descricao_fatos", "Fatos", sinonimos=("descricao", "historico", "descricao fatos"),
               exemplo="Ônibus circulando com a porta aberta."),
        Coluna("fiscal_matricula", "Matrícula do fiscal", obrigatoria=True, sinonimos=("fiscal",
               "matricula fiscal", "matricula"), exemplo="SMSU-001",
               nota="Fiscal já cadastrado (os que já saíram, importe como inativos)."),
        Coluna("resultado", "Decisão", "opcao", sinonimos=("resultado", "decisao secretario"),
               opcoes={"aplicada": "Penalidade aplicada", "arquivado": "Arquivado"}, exemplo="Penalidade aplicada",
               nota="Em branco: pelo que houver — com data da decisão e multa ou suspensão, penalidade aplicada; "
               "sem decisão, auto ainda sem decisão."),
        Coluna("data_decisao", "Data da decisão", "data", sinonimos=("decidido em", "decisao em"),
               exemplo="20/03/2024"),
        Coluna("multa_ur", "Multa (URM)", sinonimos=("multa", "multa urm", "valor multa urm"), exemplo="0,30"),
        Coluna("suspensao_dias", "Suspensão (dias)", "inteiro", sinonimos=("suspensao", "dias suspensao"),
               exemplo="0"),
        Coluna("data_definitiva", "Definitiva em", "data", sinonimos=("data definitiva", "transito julgado",
               "definitiva"), exemplo="08/04/2024",
               nota="O dia em que a penalidade se tornou definitiva (sem recurso no prazo, ou recurso julgado). "
               "Em branco: ainda não definitiva — e não conta para a reincidência."),
        Coluna("recurso", "Recurso", "opcao", sinonimos=("resultado recurso",), opcoes=ROTULOS_RECURSO,
               nota="Em branco: sem recurso. Provido anula a penalidade; provido em parte: informe a multa "
               "e a suspensão já reduzidas."),
        Coluna("recurso_julgado_em", "Recurso julgado em", "data", sinonimos=("julgamento recurso",
               "data julgamento")),
        Coluna("pago_em", "Pago em", "data", sinonimos=("data pagamento", "pagamento")),
        Coluna("valor_pago", "Valor pago (R$)", sinonimos=("valor pago",)),
    ),
}  # fmt: skip


@dataclass(frozen=True)
class Mapeamento:
    """Which file column (index) feeds which field, and what could not be matched."""

    colunas: dict[str, int]
    """campo → column index."""
    nao_reconhecidas: tuple[str, ...]
    faltando: tuple[str, ...]
    """Titles of required columns not found."""
    repetidas: tuple[str, ...] = ()
    """Fields two file columns claimed (the first one is used)."""


def mapear(tipo: str, cabecalhos: Sequence[str], manual: Mapping[str, str] | None = None) -> Mapeamento:
    """Match the headers to the kind's fields. `manual` maps a header (as in the file) to a field, or to ""
    to ignore it: the window's mapping step."""
    colunas = COLUNAS[tipo]
    campos = {c.campo for c in colunas}
    for titulo, campo in (manual or {}).items():
        if campo and campo not in campos:
            raise ErroDominio(
                f"A coluna “{titulo}” foi indicada para o campo “{campo}”, que não existe na importação de "
                f"{ROTULOS_TIPOS[tipo].lower()}. Campos: {', '.join(c.campo for c in colunas)}.",
                "colunas",
            )
    por_nome: dict[str, str] = {}
    for c in colunas:
        for nome in (c.campo.replace("_", " "), c.titulo, *c.sinonimos):
            por_nome.setdefault(normalizar(nome), c.campo)
    manual_norm = {normalizar(k): v for k, v in (manual or {}).items()}
    achadas: dict[str, int] = {}
    nao: list[str] = []
    repetidas: list[str] = []
    for i, titulo in enumerate(cabecalhos):
        chave = normalizar(titulo)
        campo = manual_norm[chave] if chave in manual_norm else por_nome.get(chave, "")
        if not campo:
            if chave not in manual_norm:
                nao.append(titulo)
            continue
        if campo in achadas:
            repetidas.append(titulo)
            continue
        achadas[campo] = i
    faltando = tuple(c.titulo for c in colunas if c.obrigatoria and c.campo not in achadas)
    return Mapeamento(achadas, tuple(nao), faltando, tuple(repetidas))
