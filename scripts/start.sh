#!/bin/sh
# Runs the built server (npm start). On glibc systems sharp's image threads leave freed memory in
# per-thread arenas; jemalloc returns it (docs/performance.md, Memory: ~200 MB less after a burst of
# uploads). It is preloaded when the machine has it (Debian: apt-get install libjemalloc2) and the
# caller has not chosen a preload of their own; background_thread with short decay times returns freed
# pages within about a second instead of waiting for the next allocations.
if [ -z "${LD_PRELOAD:-}" ]; then
  for lib in /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2; do
    if [ -e "$lib" ]; then
      export LD_PRELOAD="$lib"
      export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0}"
      break
    fi
  done
fi
exec node apps/server/dist/server.js "$@"
