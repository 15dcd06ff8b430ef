#!/usr/bin/env bash
# Renders one path per format over a sample, for docs/navigation.md: the largest island's
# first and last cell, joined by `navkit render --path`. Run from the repository root:
#   scripts/render-paths.sh [NAVKIT_BINARY]
set -euo pipefail
navkit="${1:-target/release/navkit}"
out=docs/images
mkdir -p "$out"
render() {
  local name=$1 file=$2
  local ends
  ends=$("$navkit" islands "$file" --json | python3 -c '
import json, sys
island = json.load(sys.stdin)["islands"][0]["cells"]
print(island[0], island[-1])')
  # shellcheck disable=SC2086
  "$navkit" render "$file" -o "$out/path-$name.png" --size 512 --path $ends
  echo "$out/path-$name.png: $file, path $ends"
}
render quake samples/quake/room_nav3_v6.nav
render source samples/source/cs_v16_1.nav
render source2 samples/source2/room_v35.nav
render mgsv samples/mgsv/crossing.nav2
render skyrim samples/skyrim/navkit_room.esp
render silkroad samples/silkroad/nv_61a8_town.nvm
