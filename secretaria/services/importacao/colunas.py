"""The columns each kind of spreadsheet may have, found by header whatever the case, accents and common
synonyms ("Placa", "PLACA", "placa do veículo"; "Razão social"; "CPF do motorista")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from secretaria.codigos import ROTULOS_DELEGACAO, ROTULOS_FUNCAO, ROTULOS_RECURSO, ROTULOS_VEICULO
from secretaria.erros import ErroDominio

__all__ = [
    "COLUNAS",
    "ROTULOS_TIPOS",
    "TIPOS",
    "Coluna",
    "Mapeamento",
    "mapear",
    "normalizar",
    "rotulo_campo",
]

TIPOS = ("operadoras", "linhas", "veiculos", "empregados", "fiscais", "autos")
ROTULOS_TIPOS = {
    "operadoras": "Operadoras",
    "linhas": "Linhas",
    "veiculos": "Veículos",
    "empregados": "Empregados e agentes",
    "fiscais": "Fiscais da SMSU",
    "autos": "Histórico de autos de infração",
}

_PALAVRAS_VAZIAS = frozenset({"do", "da", "de", "dos", "das", "n", "no", "na", "nº", "o", "a", "e", "em"})
_NUMERO = re.compile(r"\b(?:n[º°o]|num|nro|n\.)(?=\s|\W|$)", re.IGNORECASE)


def normalizar(texto: str) -> str:
    """ "Razão  Social" → "razao social"; "Nº do CPF" → "cpf": casefold, no accents, no punctuation,
    without the little words ("do", "da", "nº") that vary from one office's sheet to the next."""
    semacento = unicodedata.normalize("NFKD", texto.replace("º", " ").replace("ª", " "))
    semacento = "".join(c for c in semacento if not unicodedata.combining(c)).casefold()
    palavras = re.sub(r"[^0-9a-z]+", " ", semacento).split()
    return " ".join(p for p in palavras if p not in _PALAVRAS_VAZIAS)


def _com_numero(texto: str) -> str:
    """ "Nº/Ano" → "numero ano", "Nº de Ordem" → "numero ordem": the "Nº" kept as a word, so a number
    column is not read as the year (the plain key drops it: "Nº do CPF" is the CPF)."""
    return normalizar(_NUMERO.sub(" numero ", texto))


@dataclass(frozen=True)
class Coluna:
    campo: str
    titulo: str
    """The header the template writes."""
    tipo: str = "texto"
    """texto, documento, data, inteiro, decimal, booleano, opcao."""
    obrigatoria: bool = False
    sinonimos: tuple[str, ...] = ()
    opcoes: Mapping[str, str] | None = None
    """Code → label, for `opcao` columns (the label, the code or one of the office's words is accepted)."""
    digitos: int = 0
    """For a document read as a number (Excel drops the leading zeros): pad to this many digits."""
    exemplo: str = ""
    nota: str = ""
    prazo: bool = False
    """A due date (near today, either side): how a two-digit year is read. Else a day already past."""
    lista: str | None = None
    """The code list's name in `vocabulario.SINONIMOS` (the office's words for its codes)."""
    nunca: tuple[str, ...] = ()
    """Words that keep a title from being taken for this field by resemblance ("R$" is not URM)."""
    ou: str | None = None
    """Required, unless this other field's column is there (a CNPJ, or the operator's name)."""


_CNPJ_OPERADORA = Coluna(
    "operadora_cnpj",
    "CNPJ da operadora",
    "documento",
    True,
    ("cnpj", "cnpj empresa", "cnpj operadora", "cnpj cpf", "cnpj permissionaria", "cnpj concessionaria"),
    digitos=14,
    exemplo="11.222.333/0001-81",
    nota="A operadora já cadastrada no programa (ou importada antes), pelo CNPJ; ou use a coluna Operadora, "
    "pelo nome.",
    ou="operadora_nome",
)
_NOME_OPERADORA = Coluna(
    "operadora_nome",
    "Operadora",
    sinonimos=("empresa", "operadora", "nome empresa", "razao social", "nome operadora", "permissionaria",
               "concessionaria", "empresa operadora", "transportadora"),
    exemplo="Viação Exemplo Ltda.",
    nota="O nome (razão social ou nome fantasia) de uma operadora cadastrada, quando não há o CNPJ.",
)  # fmt: skip

COLUNAS: dict[str, tuple[Coluna, ...]] = {
    "operadoras": (
        Coluna("razao_social", "Razão social", obrigatoria=True,
               sinonimos=("nome empresarial", "empresa", "nome", "operadora", "nome empresa", "permissionaria",
                          "concessionaria", "razao"), exemplo="Viação Exemplo Ltda."),
        Coluna("cnpj", "CNPJ", "documento", True, ("cnpj empresa", "cnpj operadora", "cnpj cpf", "numero cnpj"),
               digitos=14, exemplo="11.222.333/0001-81"),
        Coluna("nome_fantasia", "Nome fantasia", sinonimos=("fantasia",), exemplo="Exemplo"),
        Coluna("delegacao", "Delegação", "opcao", sinonimos=("tipo delegacao", "forma delegacao", "regime",
               "modalidade", "tipo", "outorga"), opcoes=ROTULOS_DELEGACAO, lista="delegacao",
               exemplo="Concessão", nota="Concessão ou Permissão (ou Concessionária, Permissionária)."),
        Coluna("logradouro", "Logradouro", obrigatoria=True,
               sinonimos=("endereco", "rua", "endereco intimacoes", "endereco completo", "sede"),
               exemplo="Rua Quinze de Novembro"),
        Coluna("numero_endereco", "Número", sinonimos=("numero", "num", "nro", "numero endereco"), exemplo="100"),
        Coluna("complemento", "Complemento", sinonimos=("compl",)),
        Coluna("bairro", "Bairro", exemplo="Centro"),
        Coluna("cidade", "Cidade", sinonimos=("municipio",), exemplo="Pelotas"),
        Coluna("uf", "UF", sinonimos=("estado",), exemplo="RS"),
        Coluna("cep", "CEP", "documento", digitos=8, exemplo="96015-000"),
        Coluna("telefone", "Telefone", sinonimos=("fone", "tel", "telefones", "contato")),
        Coluna("email", "E-mail", sinonimos=("email", "correio eletronico")),
        Coluna("representante_nome", "Representante legal", sinonimos=("representante", "nome representante",
               "representante nome", "responsavel", "socio", "diretor"), exemplo="Carlos Representante"),
        Coluna("representante_cpf", "CPF do representante", "documento",
               sinonimos=("cpf representante legal", "representante cpf", "cpf representante", "cpf responsavel"),
               digitos=11, exemplo="529.982.247-25"),
        Coluna("contrato_numero", "Contrato ou termo de permissão", sinonimos=("contrato", "numero contrato",
               "termo permissao", "numero termo", "termo")),
        Coluna("contrato_inicio", "Início do contrato", "data", sinonimos=("inicio contrato", "inicio",
               "vigencia inicio", "data contrato", "assinatura"), exemplo="01/01/2020", prazo=True),
        Coluna("contrato_fim", "Fim do contrato", "data", sinonimos=("fim contrato", "termino contrato",
               "fim", "vencimento", "venc contrato", "vencimento contrato", "validade contrato", "validade",
               "termino", "vigencia ate", "vigencia fim"), exemplo="31/12/2035", prazo=True),
    ),
    "linhas": (
        Coluna("codigo", "Código", obrigatoria=True, sinonimos=("linha", "codigo linha", "numero linha",
               "numero", "cod", "cod linha"), exemplo="L10"),
        Coluna("nome", "Nome", obrigatoria=True, sinonimos=("nome linha", "denominacao", "descricao", "trecho"),
               exemplo="Centro–Fragata"),
        _CNPJ_OPERADORA,
        _NOME_OPERADORA,
        Coluna("itinerario", "Itinerário", sinonimos=("trajeto", "percurso")),
        Coluna("ativa", "Ativa", "booleano", sinonimos=("situacao", "em operacao", "status"), exemplo="Sim",
               nota="Sim ou Não, Em operação ou Desativada (em branco: Sim)."),
    ),
    "veiculos": (
        Coluna("prefixo", "Prefixo", obrigatoria=True, sinonimos=("numero frota", "frota", "prefixo veiculo",
               "carro", "numero ordem", "ordem", "numero carro", "numero veiculo", "numero"), exemplo="101"),
        Coluna("placa", "Placa", "documento", True, ("placa veiculo", "placa carro", "placas"), exemplo="IAB1C23",
               nota="Antiga (ABC-1234) ou Mercosul (ABC1D23): as duas formas são o mesmo veículo."),
        Coluna("renavam", "RENAVAM", "documento", True, ("codigo renavam", "renavan", "numero renavam"),
               digitos=11, exemplo="00123456789"),
        _CNPJ_OPERADORA,
        _NOME_OPERADORA,
        Coluna("linha_codigo", "Linha", sinonimos=("codigo linha", "linha codigo", "linha operada"),
               exemplo="L10", nota="Código de uma linha da mesma operadora (em branco: sem linha)."),
        Coluna("marca_modelo", "Marca/modelo", sinonimos=("marca modelo", "modelo", "marca", "chassi modelo",
               "carroceria", "chassi"), exemplo="Marcopolo Torino"),
        Coluna("ano_fabricacao", "Ano de fabricação", "inteiro", sinonimos=("ano", "ano fabricacao",
               "fabricacao", "ano fab", "ano fabr", "ano fab mod", "ano modelo"), exemplo="2019"),
        Coluna("lugares_sentados", "Lugares sentados", "inteiro", sinonimos=("sentados", "assentos",
               "lotacao sentados", "capacidade sentados"), exemplo="40"),
        Coluna("lugares_em_pe", "Lugares em pé", "inteiro", sinonimos=("em pe", "lugares pe", "lotacao pe",
               "capacidade pe"), exemplo="30"),
        Coluna("vistoria_validade", "Validade da vistoria", "data", sinonimos=("vistoria",
               "vencimento vistoria", "vistoria ate", "venc vistoria", "validade vistoria", "proxima vistoria",
               "vistoria valida ate"), exemplo="30/06/2027", prazo=True),
        Coluna("licenca_validade", "Validade da licença", "data", sinonimos=("licenca", "vencimento licenca",
               "licenca ate", "venc licenca", "validade licenca", "licenca valida ate", "alvara",
               "venc alvara"), exemplo="31/03/2027", prazo=True),
        Coluna("situacao", "Situação", "opcao", sinonimos=("status",), opcoes=ROTULOS_VEICULO,
               lista="situacao_veiculo", exemplo="Ativo",
               nota="Ativo, Reserva ou Baixado (ou Em operação, Desativado; em branco: Ativo)."),
    ),
    "empregados": (
        Coluna("nome", "Nome", obrigatoria=True, sinonimos=("nome completo", "nome empregado", "motorista",
               "nome motorista", "funcionario", "nome funcionario", "empregado", "colaborador"),
               exemplo="João da Silva"),
        Coluna("cpf", "CPF", "documento", True, ("cpf motorista", "cpf empregado", "cpf funcionario",
               "numero cpf"), digitos=11, exemplo="111.444.777-35"),
        _CNPJ_OPERADORA,
        _NOME_OPERADORA,
        Coluna("funcao", "Função", "opcao", sinonimos=("cargo", "funcao empregado", "ocupacao"),
               opcoes=ROTULOS_FUNCAO, lista="funcao", exemplo="Motorista",
               nota="Motorista, Cobrador, Fiscal da empresa ou Outro (em branco: Motorista)."),
        Coluna("carteira_cadastro", "Carteira de cadastro", sinonimos=("carteira", "numero carteira",
               "registro", "matricula"), exemplo="12345"),
        Coluna("admissao", "Admissão", "data", sinonimos=("data admissao", "admitido"), exemplo="02/05/2018"),
        Coluna("demissao", "Demissão", "data", sinonimos=("data demissao", "desligamento", "demitido")),
    ),
    "fiscais": (
        Coluna("nome", "Nome", obrigatoria=True, sinonimos=("nome fiscal", "fiscal", "agente", "servidor"),
               exemplo="Fábio Fiscal"),
        Coluna("matricula", "Matrícula", obrigatoria=True, sinonimos=("matricula fiscal", "registro",
               "numero matricula", "mat"), exemplo="SMSU-001"),
        Coluna("ativo", "Ativo", "booleano", sinonimos=("situacao", "status"), exemplo="Sim",
               nota="Sim ou Não (ou Ativo, Aposentado, Exonerado; em branco: Sim)."),
    ),
    "autos": (
        Coluna("numero", "Número do auto", obrigatoria=True, sinonimos=("numero", "auto", "ai", "numero ai",
               "auto infracao", "n auto", "numero ano", "numero auto", "numero ordem"), exemplo="0012/2024",
               nota="Como no livro: 12 ou 0012/2024 (com o ano, a coluna Ano pode ficar em branco)."),
        Coluna("ano", "Ano", "inteiro", sinonimos=("ano auto",), exemplo="2024"),
        _CNPJ_OPERADORA,
        _NOME_OPERADORA,
        Coluna("dispositivo", "Dispositivo", obrigatoria=True, sinonimos=("dispositivo infringido", "artigo",
               "infracao", "enquadramento", "dispositivo legal", "capitulacao"), exemplo="Art. 1º, XVI",
               nota="Como “1-XVI” ou “Art. 1º, XVI”."),
        Coluna("data_infracao", "Data da infração", "data", True, ("data fato", "dia infracao", "data",
               "data auto", "data ocorrencia"), exemplo="10/02/2024"),
        Coluna("data_lavratura", "Data da lavratura", "data", sinonimos=("lavratura", "lavrado"),
               exemplo="10/02/2024", nota="Em branco: o dia da infração."),
        Coluna("local", "Local", sinonimos=("local infracao", "endereco"), exemplo="Praça Coronel Pedro Osório"),
        Coluna("descricao_fatos", "Fatos", sinonimos=("descricao", "historico", "descricao fatos",
               "observacao", "observacoes", "obs")),
        Coluna("veiculo", "Veículo", sinonimos=("placa", "prefixo", "carro", "placa prefixo", "prefixo placa",
               "onibus"), exemplo="IAB1C23",
               nota="A placa ou o prefixo de um veículo cadastrado da operadora (em branco: sem veículo)."),
        Coluna("fiscal_matricula", "Matrícula do fiscal", obrigatoria=True, sinonimos=("matricula fiscal",
               "matricula"), exemplo="SMSU-001", ou="fiscal_nome",
               nota="Fiscal já cadastrado (os que já saíram, importe como inativos); ou use a coluna Fiscal, "
               "pelo nome."),
        Coluna("fiscal_nome", "Fiscal", sinonimos=("fiscal", "nome fiscal", "agente", "autuante",
               "fiscal autuante"), nota="O nome de um fiscal cadastrado, quando não há a matrícula."),
        Coluna("resultado", "Decisão", "opcao", sinonimos=("resultado", "decisao secretario", "julgamento"),
               opcoes={"aplicada": "Penalidade aplicada", "arquivado": "Arquivado"}, lista="resultado",
               exemplo="Penalidade aplicada",
               nota="Em branco: pelo que houver — com data da decisão e multa ou suspensão, penalidade aplicada; "
               "sem decisão, auto ainda sem decisão."),
        Coluna("data_decisao", "Data da decisão", "data", sinonimos=("decidido", "decisao em", "data julgamento "
               "1 instancia"), exemplo="20/03/2024"),
        Coluna("multa_ur", "Multa (URM)", "decimal", sinonimos=("multa", "multa urm", "valor multa urm",
               "multa aplicada urm", "multa aplicada", "urm", "penalidade urm", "multa ur"), exemplo="0,30",
               nunca=("r", "reais", "pago", "paga", "pagamento")),
        Coluna("multa_reais", "Multa (R$)", "decimal", sinonimos=("multa r", "multa reais", "valor multa",
               "valor multa r", "valor multa reais", "multa aplicada r", "multa aplicada reais",
               "valor multa aplicada", "multa em reais"), exemplo="49,42",
               nunca=("urm", "ur", "pago", "paga", "pagamento", "recolhido"),
               nota="A multa em reais, como o livro a escreve: convertida em URM pelo valor da URM no dia da "
               "decisão (a URM é o que o programa guarda); recusada se não corresponder a uma quantidade de "
               "URM com duas casas. Com a coluna Multa (URM), as duas devem conferir."),
        Coluna("suspensao_dias", "Suspensão (dias)", "inteiro", sinonimos=("suspensao", "dias suspensao"),
               exemplo="0"),
        Coluna("data_definitiva", "Definitiva em", "data", sinonimos=("data definitiva", "transito julgado",
               "definitiva", "transitado julgado"), exemplo="08/04/2024",
               nota="O dia em que a penalidade se tornou definitiva (sem recurso no prazo, ou recurso julgado). "
               "Em branco: ainda não definitiva — e não conta para a reincidência, salvo se a importação "
               "presumir a data (veja a nota da prévia)."),
        Coluna("recurso", "Recurso", "opcao", sinonimos=("resultado recurso",), opcoes=ROTULOS_RECURSO,
               lista="recurso",
               nota="Em branco: sem recurso. Provido anula a penalidade; provido em parte: informe a multa "
               "e a suspensão já reduzidas."),
        Coluna("recurso_julgado_em", "Recurso julgado em", "data", sinonimos=("julgamento recurso",
               "data julgamento recurso", "recurso julgado")),
        Coluna("pago", "Pago", "booleano", sinonimos=("pago sim nao", "quitado", "pagamento efetuado"),
               exemplo="Sim", nota="Sim ou Não (em branco: pelo dia do pagamento)."),
        Coluna("pago_em", "Pago em", "data", sinonimos=("data pagamento", "pagamento", "dia pagamento")),
        Coluna("valor_pago", "Valor pago (R$)", "decimal", sinonimos=("valor pago", "valor pago r",
               "pago r", "valor recolhido")),
        Coluna("encerramento", "Encerrado no livro", "opcao", sinonimos=("encerrado", "situacao", "situacao "
               "final", "baixa"), opcoes={"pago": "Pago", "divida_ativa": "Dívida ativa",
               "arquivado": "Arquivado"}, lista="encerramento",
               nota="Caso encerrado no livro (pago, inscrito em dívida ativa, arquivado): não aparece nas filas "
               "da tela inicial."),
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
    """Columns a field already taken also claimed (the first one is used)."""
    parecidas: tuple[tuple[str, str], ...] = ()
    """(title, field) taken by resemblance ("Multa Aplicada (URM)" → multa_ur): the preview says so."""
    duvidosas: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(title, candidate fields): a column that looks like more than one field; the user must say which."""

    def campo_da_coluna(self, indice: int) -> str:
        return next((c for c, i in self.colunas.items() if i == indice), "")


def _candidatos(colunas: Sequence[Coluna], titulo: str) -> list[str]:
    """The field whose title or synonym lies wholly inside `titulo`'s words (the longest such match); more
    than one when another field's words are in the title too ("Data da decisão do recurso": the decision's
    date or the appeal's?), for the user to choose."""
    palavras = set(_com_numero(titulo).split()) | set(normalizar(titulo).split())
    achados: dict[str, frozenset[str]] = {}
    for c in colunas:
        if palavras & set(c.nunca):
            continue
        for nome in (c.titulo, *c.sinonimos):
            chave = frozenset(normalizar(nome).split())
            if chave and chave <= palavras and len(chave) > len(achados.get(c.campo, ())):
                achados[c.campo] = chave
    if not achados:
        return []
    melhor = max(achados, key=lambda c: len(achados[c]))
    outros = [c for c, chave in achados.items() if c != melhor and not chave <= achados[melhor]]
    return [melhor, *outros]


def mapear(tipo: str, cabecalhos: Sequence[str], manual: Mapping[str, str] | None = None) -> Mapeamento:
    """Match the headers to the kind's fields. `manual` maps a header (as in the file) to a field, or to ""
    to ignore it: the window's mapping step and `--coluna`.

    Order: what the user said; the template's title or a synonym, with "Nº" read as "número" first
    ("Nº/Ano" is the auto's number, not its year) and then without it ("Nº do CPF" is the CPF); last, a
    title holding a field's words ("Multa Aplicada (URM)"), said in the preview, or asked about when it
    holds several fields' words."""
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
    escolhas: list[tuple[int, str, int]] = []  # (column, field, strength: 2 user, 1 name, 0 resemblance)
    nao: list[str] = []
    duvidosas: list[tuple[str, tuple[str, ...]]] = []
    for i, titulo in enumerate(cabecalhos):
        chave = normalizar(titulo)
        if chave in manual_norm:
            if manual_norm[chave]:
                escolhas.append((i, manual_norm[chave], 2))
            continue
        achado = por_nome.get(_com_numero(titulo)) or por_nome.get(chave)
        if achado:
            escolhas.append((i, achado, 1))
            continue
        candidatos = _candidatos(colunas, titulo)
        if len(candidatos) == 1:
            escolhas.append((i, candidatos[0], 0))
        elif candidatos:
            duvidosas.append((titulo, tuple(candidatos)))
        else:
            nao.append(titulo)
    achadas: dict[str, int] = {}
    forca: dict[str, int] = {}
    repetidas: list[str] = []
    for i, campo, n in sorted(escolhas, key=lambda e: (-e[2], e[0])):
        if campo in achadas:
            repetidas.append(cabecalhos[i])
            continue
        achadas[campo], forca[campo] = i, n
    parecidas = tuple((cabecalhos[i], c) for c, i in achadas.items() if forca[c] == 0)
    faltando = tuple(
        c.titulo for c in colunas if c.obrigatoria and c.campo not in achadas and (c.ou or "") not in achadas
    )
    repetidas.sort(key=list(cabecalhos).index)
    return Mapeamento(achadas, tuple(nao), faltando, tuple(repetidas), parecidas, tuple(duvidosas))


def rotulo_campo(tipo: str, campo: str) -> str:
    """The template's title of a field ("multa_ur" → "Multa (URM)")."""
    return next((c.titulo for c in COLUNAS[tipo] if c.campo == campo), campo)
