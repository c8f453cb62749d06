"""auditoria pelo servidor: on PostgreSQL the audit rows are written by the database itself

`secretaria_auditar(...)` (SECURITY DEFINER, owned by the schema's owner) is the only way a role a PC uses can
add an audit row: the server numbers the row, chains it (SHA-256 computed in SQL, the very rule of
`services.auditoria._calcular_hash`, so one verifier checks every row) and inserts it. For a role a PC uses the
moment is the server's clock, and for a user's own role (`servidor preparar`, `services.papeis_servidor`) the
login is the account that role belongs to, whatever the program claimed. The owner and superusers (who could
rewrite the table anyway) keep the moment and login the program gives, so the demo and the tests stay exact.

`secretaria_servidor()` says which roles are the PCs' (NULLs until `servidor preparar` replaces it); the
accounts' roles are `<prefixo>_u<id>`, members of the group role. SQLite: nothing (no server, no roles).

Revision ID: 0019
Revises: 0016
"""

from __future__ import annotations

from alembic import op

revision = "0019"
down_revision = "0016"
branch_labels = None
depends_on = None

CHAVE_TRAVA = 24131978  # services.auditoria._CHAVE_TRAVA_PG: the program's writers and these take one lock
_ARGS = "text, timestamp without time zone, text, text, text, text, text"

# The JSON text `json.dumps(linha, sort_keys=True, ensure_ascii=False, separators=(",", ":"))` gives: keys
# in order, no spaces, strings escaped as PostgreSQL's to_json escapes them (the same set of escapes).
_CANONICO = """
    '{"acao":' || to_json(p_acao)::text
    || ',"antes":' || coalesce(to_json(p_antes)::text, 'null')
    || ',"depois":' || coalesce(to_json(p_depois)::text, 'null')
    || ',"entidade":' || to_json(p_entidade)::text
    || ',"entidade_id":' || coalesce(to_json(p_entidade_id)::text, 'null')
    || ',"hash_anterior":' || to_json(v_anterior)::text
    || ',"id":' || v_id::text
    || ',"momento":' || to_json(v_iso)::text
    || ',"usuario_login":' || coalesce(to_json(p_login)::text, 'null')
    || '}'
"""

FUNCOES = [
    """
    CREATE OR REPLACE FUNCTION secretaria_servidor(OUT grupo text, OUT entrada text, OUT prefixo text)
    LANGUAGE sql STABLE SET search_path = public, pg_temp
    AS $$ SELECT NULL::text, NULL::text, NULL::text $$
    """,
    """
    CREATE OR REPLACE FUNCTION secretaria_membro(p_papel text, p_grupo text) RETURNS boolean
    LANGUAGE sql STABLE SET search_path = public, pg_temp
    AS $$
        SELECT p_grupo IS NOT NULL AND (p_papel = p_grupo OR EXISTS (
            SELECT 1 FROM pg_auth_members m
            JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
            WHERE g.rolname = p_grupo AND u.rolname = p_papel))
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION secretaria_conta_da_sessao() RETURNS integer
    LANGUAGE plpgsql STABLE SET search_path = public, pg_temp
    AS $$
    DECLARE c record; resto text;
    BEGIN
        SELECT * INTO c FROM secretaria_servidor();
        IF c.prefixo IS NULL OR NOT starts_with(session_user::text, c.prefixo || '_u') THEN
            RETURN NULL;
        END IF;
        resto := substr(session_user::text, length(c.prefixo) + 3);
        IF resto !~ '^[0-9]{1,9}$' OR NOT secretaria_membro(session_user::text, c.grupo) THEN
            RETURN NULL;
        END IF;
        RETURN resto::integer;
    END
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION secretaria_sessao_do_pc() RETURNS boolean
    LANGUAGE plpgsql STABLE SET search_path = public, pg_temp
    AS $$
    DECLARE c record;
    BEGIN
        SELECT * INTO c FROM secretaria_servidor();
        RETURN session_user::text = c.entrada OR secretaria_membro(session_user::text, c.grupo);
    END
    $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION secretaria_anexar(
        p_login text, p_momento timestamp, p_acao text, p_entidade text, p_entidade_id text,
        p_antes text, p_depois text
    ) RETURNS bigint
    LANGUAGE plpgsql SET search_path = public, pg_temp
    AS $$
    DECLARE v_id bigint; v_anterior text; v_iso text; v_hash text;
    BEGIN
        PERFORM pg_advisory_xact_lock({CHAVE_TRAVA});
        SELECT id, hash INTO v_id, v_anterior FROM auditoria ORDER BY id DESC LIMIT 1;
        v_id := coalesce(v_id, 0) + 1;
        v_anterior := coalesce(v_anterior, repeat('0', 64));
        v_iso := to_char(p_momento, 'YYYY-MM-DD"T"HH24:MI:SS')
            || CASE WHEN date_trunc('second', p_momento) = p_momento THEN ''
                    ELSE '.' || to_char(p_momento, 'US') END;
        v_hash := encode(sha256(convert_to({_CANONICO}, 'UTF8')), 'hex');
        INSERT INTO auditoria (id, momento, usuario_login, acao, entidade, entidade_id, antes, depois,
                               hash_anterior, hash)
        VALUES (v_id, p_momento, p_login, p_acao, p_entidade, p_entidade_id, p_antes, p_depois,
                v_anterior, v_hash);
        RETURN v_id;
    END
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION secretaria_auditar(
        p_login text, p_momento timestamp, p_acao text, p_entidade text, p_entidade_id text,
        p_antes text, p_depois text
    ) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET TimeZone FROM CURRENT
    AS $$
    DECLARE v_conta integer; v_login text := p_login; v_momento timestamp := p_momento;
    BEGIN
        v_conta := secretaria_conta_da_sessao();
        IF v_conta IS NOT NULL THEN
            SELECT login INTO v_login FROM usuario WHERE id = v_conta AND ativo;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'Conta inativa: nada foi gravado.' USING ERRCODE = 'insufficient_privilege';
            END IF;
            v_momento := date_trunc('second', clock_timestamp()::timestamp);
        ELSIF secretaria_sessao_do_pc() THEN
            IF session_user::text = (SELECT entrada FROM secretaria_servidor()) THEN
                RAISE EXCEPTION 'Só um usuário que entrou no programa grava na auditoria.'
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            v_momento := date_trunc('second', clock_timestamp()::timestamp);
        END IF;
        RETURN secretaria_anexar(v_login, coalesce(v_momento, date_trunc('second', clock_timestamp()::timestamp)),
                                 p_acao, p_entidade, p_entidade_id, p_antes, p_depois);
    END
    $$
    """,
]
NOMES = [
    "secretaria_auditar(" + _ARGS + ")",
    "secretaria_anexar(" + _ARGS + ")",
    "secretaria_sessao_do_pc()",
    "secretaria_conta_da_sessao()",
    "secretaria_membro(text, text)",
    "secretaria_servidor()",
]


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for funcao in FUNCOES:
        op.execute(funcao)
    for nome in NOMES:
        op.execute(f"REVOKE ALL ON FUNCTION {nome} FROM PUBLIC")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for nome in NOMES:
        op.execute(f"DROP FUNCTION IF EXISTS {nome}")
