#!/usr/bin/env bash
# Builds the fuzz targets for a machine without clang (x86-64, glibc >= 2.36) and packs
# them with their corpora, dictionaries and runner into fuzzbundle/ at the repository root:
#   bash tests/fuzz/make_device_bundle.sh      then, there:   OUT=dir fuzzbundle/run.sh SECONDS
# The sanitizer runtimes are static under clang; ISA-L (a shared library not installed
# there) is left out, so gzip inflates through zlib, linked statically, as is libstdc++.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUILD=build/fuzz-device
BUNDLE=fuzzbundle

cmake --preset fuzz -B "$BUILD" \
  -DSOLLENS_ISAL_INCLUDE=IGNORE -DSOLLENS_ISAL_LIB=IGNORE \
  -DZLIB_LIBRARY=/usr/lib/x86_64-linux-gnu/libz.a \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined -static-libstdc++ -static-libgcc"
cmake --build "$BUILD" --target sollens_fuzz_targets -j "${JOBS:-2}"

rm -rf "$BUNDLE"
mkdir -p "$BUNDLE/bin"
allowed='^(linux-vdso|libc|libm|libstdc\+\+|libz|libpthread|libdl|librt|libgcc_s|ld-linux-x86-64)\.'
while read -r target _; do
  [[ $target == \#* || -z $target ]] && continue
  # No llvm-symbolizer there: stacks come back as offsets, symbolized here with the
  # unstripped binaries in $BUILD. Stripped and xz-compressed (run.sh unpacks them; the device call carries at most 64 MiB), the
  # bundle stays under 60 MB.
  strip --strip-debug -o "$BUNDLE/bin/$target" "$BUILD/$target"
  xz -9e -T2 "$BUNDLE/bin/$target"
  if extra=$(ldd "$BUILD/$target" | awk '{print $1}' | xargs -n1 basename | grep -Ev "$allowed"); then
    echo "make_device_bundle: $target needs $extra" >&2
    exit 1
  fi
done <tests/fuzz/targets.txt
cp -r tests/fuzz/corpus tests/fuzz/*.dict tests/fuzz/targets.txt "$BUNDLE/"
if [[ -d tests/fuzz/regressions ]]; then cp -r tests/fuzz/regressions "$BUNDLE/"; fi
cp tests/fuzz/device_run.sh "$BUNDLE/run.sh"
chmod +x "$BUNDLE/run.sh"
grep -qx '/fuzzbundle/' .git/info/exclude 2>/dev/null || echo '/fuzzbundle/' >>.git/info/exclude
du -sh "$BUNDLE"
