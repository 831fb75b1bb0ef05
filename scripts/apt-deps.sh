#!/usr/bin/env bash
# Installs the Debian packages the real-VS-Code e2e run needs, only when one is missing:
# libkrb5-dev (code-server's native kerberos module builds against it), chromium (the headless browser that
# drives the workbench), fonts-dejavu-core (so screenshots have glyphs) and the toolchain node-gyp uses (g++, make,
# python3; usually there already). Needs root or sudo.
set -euo pipefail
packages=(libkrb5-dev chromium fonts-dejavu-core g++ make python3)
missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
sudo=''
if [ "$(id -u)" -ne 0 ]; then sudo='sudo'; fi
echo "apt: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
