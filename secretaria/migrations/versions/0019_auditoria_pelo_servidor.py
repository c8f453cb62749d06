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
down_revision = "0018"
branch_labels = None
depends_on = None

CHAVE_TRAVA = 24131978  # the lock every append of an audit row takes (the former program-side lock's key)
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
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
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

_LOGIN_SQL = """
    CREATE OR REPLACE FUNCTION secretaria_e_administrador() RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
    DECLARE v integer := secretaria_conta_da_sessao();
    BEGIN
        RETURN v IS NOT NULL AND EXISTS (
            SELECT 1 FROM usuario u JOIN usuario_papel p ON p.usuario_id = u.id
            WHERE u.id = v AND u.ativo AND p.papel = 'administrador');
    END
    $$
    ;;
    CREATE OR REPLACE FUNCTION secretaria_pode_contas() RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
    BEGIN
        RETURN NOT secretaria_sessao_do_pc() OR secretaria_e_administrador();
    END
    $$
    ;;
    CREATE OR REPLACE FUNCTION secretaria_papel_sincronizar(p_id integer, p_senha text) RETURNS text
    LANGUAGE plpgsql SET search_path = public, pg_temp SET TimeZone FROM CURRENT
    AS $$
    DECLARE c record; v_papel text; v_ativo boolean; v_bloq timestamp; v_hash text; v_entra boolean;
    BEGIN
        SELECT * INTO c FROM secretaria_servidor();
        IF c.prefixo IS NULL THEN
            RETURN NULL;
        END IF;
        v_papel := c.prefixo || '_u' || p_id;
        SELECT ativo, bloqueado_ate, senha_hash INTO v_ativo, v_bloq, v_hash FROM usuario WHERE id = p_id;
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = v_papel) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT', v_papel);
        END IF;
        IF NOT secretaria_membro(v_papel, c.grupo) THEN
            EXECUTE format('GRANT %I TO %I', c.grupo, v_papel);
        END IF;
        IF p_senha IS NOT NULL THEN
            EXECUTE format('ALTER ROLE %I PASSWORD %L', v_papel, p_senha);
        END IF;
        v_entra := coalesce(v_ativo, false) AND v_hash = 'servidor'
            AND (v_bloq IS NULL OR v_bloq <= clock_timestamp()::timestamp);
        EXECUTE format('ALTER ROLE %I %s', v_papel, CASE WHEN v_entra THEN 'LOGIN' ELSE 'NOLOGIN' END);
        RETURN v_papel;
    END
    $$
    ;;
    CREATE OR REPLACE FUNCTION secretaria_sincronizar_conta(p_id integer, p_senha text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
    BEGIN
        IF session_user::text = (SELECT entrada FROM secretaria_servidor())
           OR (p_senha IS NOT NULL AND NOT secretaria_pode_contas()
               AND p_id IS DISTINCT FROM secretaria_conta_da_sessao()) THEN
            RAISE EXCEPTION 'Só o administrador define a senha de outro usuário.'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN secretaria_papel_sincronizar(p_id, p_senha);
    END
    $$
    ;;
    CREATE OR REPLACE FUNCTION secretaria_entrada(
        p_login text, OUT situacao text, OUT papel text, OUT bloqueado_ate timestamp, OUT hash_antigo text
    )
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET TimeZone FROM CURRENT
    AS $$
    DECLARE
        c record; v_id integer; v_ativo boolean; v_bloq timestamp; v_hash text; v_motivo text;
        v_agora timestamp := date_trunc('second', clock_timestamp()::timestamp);
    BEGIN
        SELECT * INTO c FROM secretaria_servidor();
        IF c.entrada IS NULL OR session_user::text <> c.entrada THEN
            situacao := 'fora';
            RETURN;
        END IF;
        SELECT u.id, u.ativo, u.bloqueado_ate, u.senha_hash INTO v_id, v_ativo, v_bloq, v_hash
        FROM usuario u WHERE u.login = lower(p_login);
        IF v_id IS NULL OR NOT v_ativo OR (v_bloq IS NOT NULL AND v_bloq > v_agora) THEN
            v_motivo := CASE WHEN v_id IS NULL THEN 'conta inexistente'
                             WHEN NOT v_ativo THEN 'conta inativa' ELSE 'conta bloqueada' END;
            situacao := CASE WHEN v_motivo = 'conta bloqueada' THEN 'bloqueada' ELSE 'recusada' END;
            bloqueado_ate := v_bloq;
            PERFORM secretaria_anexar(left(p_login, 60), v_agora, 'recusa_entrada', 'acesso', NULL, NULL,
                '{"motivo": ' || to_json(v_motivo)::text || ', "usuario_id": ' || coalesce(v_id::text, 'null')
                || '}');
            RETURN;
        END IF;
        papel := secretaria_papel_sincronizar(v_id, NULL);  -- a lockout that is over lets the role in again
        IF v_hash IS DISTINCT FROM 'servidor' THEN
            situacao := 'migrar';  -- the old scrypt hash's parameters and salt, never its key
            hash_antigo := regexp_replace(v_hash, '[^$]*$', '');
        ELSE
            situacao := 'senha';
        END IF;
    END
    $$
    ;;
    CREATE OR REPLACE FUNCTION secretaria_falha_de_senha(p_login text, OUT falhas integer,
                                                         OUT bloqueado_ate timestamp)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET TimeZone FROM CURRENT
    AS $$
    DECLARE
        v_id integer; v_login text; v_bloq timestamp;
        v_agora timestamp := date_trunc('second', clock_timestamp()::timestamp);
    BEGIN
        IF session_user::text IS DISTINCT FROM (SELECT entrada FROM secretaria_servidor()) THEN
            RAISE EXCEPTION 'Só a tela de entrada conta falhas de senha.' USING ERRCODE = 'insufficient_privilege';
        END IF;
        UPDATE usuario SET falhas_login = falhas_login + 1 WHERE login = lower(p_login) AND ativo
        RETURNING id, login, falhas_login, usuario.bloqueado_ate INTO v_id, v_login, falhas, v_bloq;
        IF v_id IS NULL THEN
            RETURN;
        END IF;
        PERFORM secretaria_anexar(v_login, v_agora, 'falha_entrada', 'acesso', NULL, NULL,
            '{"falhas": ' || falhas || ', "usuario_id": ' || v_id || '}');
        -- services.contas: FALHAS_PARA_BLOQUEIO = 5, DURACAO_BLOQUEIO = 15 minutes
        IF falhas < 5 OR (v_bloq IS NOT NULL AND v_bloq > v_agora) THEN
            RETURN;
        END IF;
        bloqueado_ate := v_agora + interval '15 minutes';
        UPDATE usuario SET bloqueado_ate = secretaria_falha_de_senha.bloqueado_ate, falhas_login = 0
        WHERE id = v_id;
        PERFORM secretaria_anexar(v_login, v_agora, 'bloqueio', 'acesso', NULL, NULL,
            '{"bloqueado_ate": ' || to_json(to_char(bloqueado_ate, 'YYYY-MM-DD"T"HH24:MI:SS'))::text
            || ', "usuario_id": ' || v_id || '}');
        PERFORM secretaria_papel_sincronizar(v_id, NULL);
    END
    $$
    ;;
    CREATE OR REPLACE FUNCTION secretaria_migrar_conta(p_login text, p_chave text, p_senha text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET TimeZone FROM CURRENT
    AS $$
    DECLARE v_id integer; v_falha record;
    BEGIN
        IF session_user::text IS DISTINCT FROM (SELECT entrada FROM secretaria_servidor()) THEN
            RAISE EXCEPTION 'Só a tela de entrada migra uma conta.' USING ERRCODE = 'insufficient_privilege';
        END IF;
        -- p_chave: the scrypt key the program derived from the typed password with the salt it was given;
        -- the server compares it with the stored key, which nobody but the owner can read.
        UPDATE usuario SET senha_hash = 'servidor'
        WHERE login = lower(p_login) AND ativo AND senha_hash <> 'servidor'
          AND split_part(senha_hash, '$', 6) = p_chave AND length(p_chave) >= 32
          AND (bloqueado_ate IS NULL OR bloqueado_ate <= clock_timestamp()::timestamp)
        RETURNING id INTO v_id;
        IF v_id IS NULL THEN  -- a wrong password here is counted like any other (program or not)
            SELECT * INTO v_falha FROM secretaria_falha_de_senha(p_login);
            RETURN CASE WHEN v_falha.bloqueado_ate IS NOT NULL THEN 'bloqueada' END;
        END IF;
        RETURN secretaria_papel_sincronizar(v_id, p_senha);
    END
    $$
    ;;
    ALTER TABLE usuario ENABLE ROW LEVEL SECURITY
    ;;
    CREATE POLICY secretaria_ver ON usuario FOR SELECT USING (true)
    ;;
    CREATE POLICY secretaria_administrar ON usuario FOR ALL
        USING (secretaria_pode_contas()) WITH CHECK (secretaria_pode_contas())
    ;;
    CREATE POLICY secretaria_propria ON usuario FOR UPDATE
        USING (id = secretaria_conta_da_sessao()) WITH CHECK (id = secretaria_conta_da_sessao())
    ;;
    ALTER TABLE usuario_papel ENABLE ROW LEVEL SECURITY
    ;;
    CREATE POLICY secretaria_ver ON usuario_papel FOR SELECT USING (true)
    ;;
    CREATE POLICY secretaria_administrar ON usuario_papel FOR ALL
        USING (secretaria_pode_contas()) WITH CHECK (secretaria_pode_contas())
"""
NOMES_LOGIN = [
    "secretaria_migrar_conta(text, text, text)",
    "secretaria_falha_de_senha(text)",
    "secretaria_entrada(text)",
    "secretaria_sincronizar_conta(integer, text)",
    "secretaria_papel_sincronizar(integer, text)",
    "secretaria_pode_contas()",
    "secretaria_e_administrador()",
]
PUBLICAS = ["secretaria_pode_contas()", "secretaria_conta_da_sessao()"]
"""Called by the row-level policies of `usuario` and `usuario_papel`, as whichever role queries them."""

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
    for comando in _LOGIN_SQL.split(";;"):
        op.execute(comando)
    for nome in NOMES + NOMES_LOGIN:
        op.execute(f"REVOKE ALL ON FUNCTION {nome} FROM PUBLIC")
    for nome in PUBLICAS:
        op.execute(f"GRANT EXECUTE ON FUNCTION {nome} TO PUBLIC")
    # A server prepared before this revision: its application role goes on writing the audit (through the
    # function) until `servidor preparar` runs again and gives each user a role of their own.
    for (papel,) in op.get_bind().exec_driver_sql(
        "SELECT DISTINCT grantee FROM information_schema.role_table_grants "
        "WHERE table_name = 'auditoria' AND privilege_type = 'INSERT' AND grantee <> current_user"
    ):
        op.execute(f'GRANT EXECUTE ON FUNCTION {NOMES[0]} TO "{papel}"')


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for tabela in ("usuario", "usuario_papel"):
        op.execute(f"ALTER TABLE {tabela} DISABLE ROW LEVEL SECURITY")
        for politica in ("secretaria_ver", "secretaria_administrar", "secretaria_propria"):
            op.execute(f"DROP POLICY IF EXISTS {politica} ON {tabela}")
    for nome in NOMES_LOGIN + NOMES:
        op.execute(f"DROP FUNCTION IF EXISTS {nome}")
