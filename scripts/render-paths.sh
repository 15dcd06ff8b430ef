#!/usr/bin/env bash
# Renders one path per format over a sample, for docs/navigation.md: from the largest island's
# first cell to the last cell of that island a path reaches, drawn by `navkit render --path`. Run from the repository root:
#   scripts/render-paths.sh [NAVKIT_BINARY]
set -euo pipefail
navkit="${1:-target/release/navkit}"
out=docs/images
mkdir -p "$out"
render() {
  local name=$1 file=$2
  local ends
  # The largest island's first cell, and the furthest cell of that island (in island order)
  # that a directed path reaches from it.
  ends=$("$navkit" islands "$file" --json | python3 -c '
import json, subprocess, sys
navkit, file = sys.argv[1], sys.argv[2]
island = json.load(sys.stdin)["islands"][0]["cells"]
for last in reversed(island[1:]):
    out = subprocess.run([navkit, "path", file, str(island[0]), str(last), "--json"],
                         capture_output=True, text=True, check=True).stdout
    if json.loads(out)["reachable"]:
        print(island[0], last)
        break' "$navkit" "$file")
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
