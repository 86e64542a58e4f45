#!/usr/bin/env sh
# Builds the guide (docs/, an mdBook) into a folder of the page's site, so it
# is served, cached for offline use by the service worker, and linked from
# the page like any other file of the build.
#
# Usage: sh scripts/book-build.sh DEST   (the page build passes
# "$TRUNK_STAGING_DIR/book"; `mdbook serve docs` previews it while writing).
set -eu
dest="${1:?usage: scripts/book-build.sh DEST}"
root="$(cd "$(dirname "$0")/.." && pwd)"
RUST_LOG=warn mdbook build "$root/docs" --dest-dir "$dest"
# The icon font's older formats: every browser the page runs in takes WOFF2,
# and the service worker caches every file of the build, so they would only
# cost each student's first visit about 900 KB.
find "$dest/FontAwesome/fonts" -type f ! -name '*.woff2' -delete
