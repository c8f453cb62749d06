; Saved as UTF-8 with a BOM, which Inno Setup needs to read the accents.
; Inno Setup 6 (6.3 or newer) script of the Secretaria installer; compiled by construir.ps1 (which passes Versao and Pasta):
;   ISCC.exe /DVersao=0.1.0 /DPasta=C:\...\dist\Secretaria /OC:\...\dist secretaria.iss
;
; Per-user install, no administrator rights: the program goes to %LOCALAPPDATA%\Programs\Secretaria, with a
; Start-menu shortcut to the windowed Secretaria.exe. Uninstalling removes the program folder only: the data
; (the database, its copies, the log) live in %LOCALAPPDATA%\Secretaria, which this installer never touches.

#ifndef Versao
  #error "Passe a versão: /DVersao=0.1.0 (construir.ps1 faz isso)"
#endif
#ifndef Pasta
  #error "Passe a pasta montada pelo PyInstaller: /DPasta=...\dist\Secretaria"
#endif

[Setup]
; A fixed id: a newer installer upgrades the same installation instead of adding a second one.
AppId={{6C1F3E52-8B0A-4F5D-9C7E-2A4D5B8E9F13}
AppName=Secretaria
AppVersion={#Versao}
AppPublisher=Secretaria Municipal de Serviços Urbanos de Pelotas
DefaultDirName={localappdata}\Programs\Secretaria
DefaultGroupName=Secretaria
DisableProgramGroupPage=yes
DisableDirPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputBaseFilename=Secretaria-{#Versao}-instalar
Compression=lzma2
SolidCompression=yes
UninstallDisplayIcon={app}\Secretaria.exe
; Closes a running Secretaria before replacing its files (the user is asked first).
CloseApplications=yes
WizardStyle=modern

[Languages]
Name: "ptbr"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[Files]
; The whole folder PyInstaller built. Files of an older version that a new one no longer has are removed by
; [InstallDelete] below, so an upgrade never mixes two versions' libraries.
Source: "{#Pasta}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
Type: filesandordirs; Name: "{app}\_internal"
Type: filesandordirs; Name: "{app}\licencas"

[Icons]
Name: "{autoprograms}\Secretaria"; Filename: "{app}\Secretaria.exe"; WorkingDir: "{app}"
Name: "{autoprograms}\Licenças da Secretaria"; Filename: "{app}\licencas\LEIA-ME.txt"

[Run]
Filename: "{app}\Secretaria.exe"; Description: "Abrir a Secretaria agora"; Flags: nowait postinstall skipifsilent

; No [UninstallDelete]: only what [Files] installed is removed; %LOCALAPPDATA%\Secretaria (the data) stays.
