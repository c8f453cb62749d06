#!/usr/bin/env bash
# Smoke test of the built folder (dist/Secretaria, `make dist`), run by .ci/run: every command runs with an
# empty environment whose PATH holds no Python, from a temporary folder, with its data in a temporary folder,
# so anything the build forgot to carry fails here rather than on the office's computers.
#   empacotamento/testar_pasta.sh [PASTA]      (default: dist/Secretaria)
set -euo pipefail
PASTA="$(cd "${1:-dist/Secretaria}" && pwd)"
PROGRAMA="$PASTA/secretaria"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/casa" "$TMP/dados" "$TMP/saida"
cd "$TMP"

# No Python on the PATH: a frozen program that still needed one would fail here.
ambiente=(env -i PATH=/usr/bin:/bin HOME="$TMP/casa" XDG_DATA_HOME="$TMP/dados" LANG=C.UTF-8)
if "${ambiente[@]}" sh -c 'command -v python3 || command -v python' >/dev/null; then
    ambiente=(env -i PATH="$TMP/vazio" HOME="$TMP/casa" XDG_DATA_HOME="$TMP/dados" LANG=C.UTF-8)
fi
rodar() { echo "+ secretaria $*"; "${ambiente[@]}" "$PROGRAMA" "$@"; }

echo "Pasta: $PASTA ($(du -sh "$PASTA" | cut -f1))"
rodar --versao | tee "$TMP/versao.txt"
grep -Eq '^Secretaria [0-9]' "$TMP/versao.txt"
test -s "$PASTA/licencas/LEIA-ME.txt"
# ReportLab's C accelerator, imported inside exec() (a hidden import of the spec): without it every PDF is slower.
compgen -G "$PASTA/_internal/_rl_accel*" >/dev/null || { echo "Falta o acelerador do ReportLab (_rl_accel)."; exit 1; }

BANCO="$TMP/demo.sqlite"
rodar demo --db "sqlite:///$BANCO"

# The demo starts three years back: its first auto is 0001 of that year (or the next one, started in December).
ano=$(date +%Y)
# Issuing a document is an act in someone's name: the login and password go in on standard input.
login_demo() { printf 'fiscal\ndemo1234\n'; }
login_demo | rodar documento auto -o "$TMP/saida/auto.pdf" --db "sqlite:///$BANCO" "0001/$((ano - 3))" \
    || login_demo | rodar documento auto -o "$TMP/saida/auto.pdf" --db "sqlite:///$BANCO" "0001/$((ano - 2))"
head -c 5 "$TMP/saida/auto.pdf" | grep -q '%PDF-'

# The signature checker (pyHanko and its validator, loaded only here) in the frozen program: the auto just
# issued is named as this office's document, unsigned, so not a valid signed one (exit 1, not a crash).
set +e
rodar documento verificar --db "sqlite:///$BANCO" "$TMP/saida/auto.pdf" > "$TMP/verificar.txt"
codigo=$?
set -e
cat "$TMP/verificar.txt"
test "$codigo" -eq 1
grep -q "Documento desta Secretaria" "$TMP/verificar.txt"
grep -q "não tem assinatura digital" "$TMP/verificar.txt"

rodar relatorio mensal -o "$TMP/saida/mensal.xlsx" --db "sqlite:///$BANCO" "$(date -d '-1 month' +%Y-%m)"
head -c 2 "$TMP/saida/mensal.xlsx" | grep -q 'PK'

rodar importar veiculos --modelo "$TMP/saida/modelo.xlsx"
head -c 2 "$TMP/saida/modelo.xlsx" | grep -q 'PK'

# The window, offscreen: SECRETARIA_FUMACA (secretaria/ui/fumaca.py) enters as the demo's first user, waits
# for the Painel's charts from the helper processes, answers one file dialog (its child process, answered by
# SECRETARIA_SELETOR_TESTE: the start folder itself) and exits 0 when all of that held.
mkdir -p "$TMP/casa/Documents"
inicio=$(date +%s.%N)
"${ambiente[@]}" QT_QPA_PLATFORM=offscreen SECRETARIA_FUMACA="$TMP/fumaca.json" \
    SECRETARIA_SELETOR_TESTE='{"nomes": []}' \
    "$PROGRAMA" demo --abrir --db "sqlite:///$BANCO" || { cat "$TMP/fumaca.json" 2>/dev/null; exit 1; }
cat "$TMP/fumaca.json"; echo
login=$(grep -o '"login_pintado": [0-9.]*' "$TMP/fumaca.json" | cut -d' ' -f2)
awk -v a="$inicio" -v b="$login" 'BEGIN { printf "Tempo até a janela de login (programa montado): %.2f s\n", b - a }'
echo "Pasta montada testada: tudo certo."
