#!/usr/bin/env bash
# Fetches the viewer's vendored JavaScript from the npm registry and rebuilds the files
# embedded by output/viewer.go (run by `go generate ./output/`, needs node and npm):
#
#   three.min.js       three@0.187.0 (MIT): the classes entry.js names and OrbitControls,
#                      bundled and minified by esbuild@0.28.2 into one script that sets the
#                      global THREE (three 0.187 ships ES modules only, no minified build)
#   uPlot.iife.min.js  uplot@1.6.32 (MIT): dist/uPlot.iife.min.js as published
#   uPlot.min.css      uplot@1.6.32: dist/uPlot.min.css as published
#   LICENSE-three, LICENSE-uplot: the packages' licences
#
# Pinned versions only: the viewer page must not change unless these lines do.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-save --no-audit --no-fund esbuild@0.28.2 three@0.187.0 uplot@1.6.32 >/dev/null
cp "$here/entry.js" .
node_modules/.bin/esbuild entry.js --bundle --minify --format=iife --global-name=THREE \
	--legal-comments=none --log-level=warning --outfile="$here/three.min.js"
cp node_modules/uplot/dist/uPlot.iife.min.js node_modules/uplot/dist/uPlot.min.css "$here/"
cp node_modules/three/LICENSE "$here/LICENSE-three"
cp node_modules/uplot/LICENSE "$here/LICENSE-uplot"
