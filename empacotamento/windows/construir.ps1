# Saved as UTF-8 with a BOM: Windows PowerShell 5.1 reads a file without one as ANSI (the accents break).
# Builds the Windows installer of Secretaria, for the office's IT (README: "Instalar nos computadores do órgão").
#
#   powershell -ExecutionPolicy Bypass -File empacotamento\windows\construir.ps1
#
# Needs, on the Windows build machine: Python 3.11 (64-bit, from python.org, with the "py" launcher) and Inno
# Setup 6 (https://jrsoftware.org/isinfo.php). Run it from a copy of the repository (any folder).
# Result: dist\Secretaria\ (the program folder: Secretaria.exe windowed, secretaria-cli.exe for the command
# line) and dist\Secretaria-<versão>-instalar.exe (the installer to hand to each computer).
#
# The same steps as `make dist` on Linux: a virtualenv of its own (.venv-dist), the versions of
# constraints.txt, PyInstaller with empacotamento\secretaria.spec; then Inno Setup with secretaria.iss.

$ErrorActionPreference = "Stop"
Set-StrictMode -Version Latest
$Raiz = (Resolve-Path (Join-Path $PSScriptRoot "..\..")).Path
Set-Location $Raiz

function Rodar([string]$Programa, [string[]]$Argumentos) {
    # Stops at the first step that fails (PowerShell does not stop on a native program's exit code).
    & $Programa @Argumentos
    if ($LASTEXITCODE -ne 0) { throw "Falhou (código $LASTEXITCODE): $Programa $($Argumentos -join ' ')" }
}

# 1. The build's virtualenv, with the pinned versions.
$Python = Join-Path $Raiz ".venv-dist\Scripts\python.exe"
if (-not (Test-Path $Python)) { Rodar "py" @("-3.11", "-m", "venv", ".venv-dist") }
Rodar $Python @("-m", "pip", "install", "--quiet", "--upgrade", "pip")
Rodar $Python @("-m", "pip", "install", "--quiet", "-c", "constraints.txt", "-e", ".[dist]")

# 2. The program folder.
Rodar $Python @("-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath", "dist",
    "--workpath", "build\pyinstaller", "empacotamento\secretaria.spec")

# 3. A quick check before packing: the console executable answers with its version.
$Versao = (& "dist\Secretaria\secretaria-cli.exe" --versao) -replace "^Secretaria ", ""
if ($LASTEXITCODE -ne 0 -or -not $Versao) { throw "dist\Secretaria\secretaria-cli.exe --versao falhou" }
Write-Host "Secretaria $Versao montada em dist\Secretaria"

# 4. The installer (Inno Setup's command-line compiler, in its default folder unless ISCC is on the PATH).
$Comando = Get-Command "ISCC.exe" -ErrorAction SilentlyContinue
if ($Comando) { $Iscc = $Comando.Source } else { $Iscc = Join-Path ${env:ProgramFiles(x86)} "Inno Setup 6\ISCC.exe" }
if (-not (Test-Path $Iscc)) { throw "Inno Setup 6 não encontrado (ISCC.exe). Instale-o de https://jrsoftware.org/isinfo.php" }
Rodar $Iscc @("/Qp", "/DVersao=$Versao", "/DPasta=$Raiz\dist\Secretaria", "/O$Raiz\dist",
    "empacotamento\windows\secretaria.iss")
Write-Host "Instalador: dist\Secretaria-$Versao-instalar.exe"
