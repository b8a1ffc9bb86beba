#!/usr/bin/env bash
# The memory estimate of `npusim run` uses the process's limits: under `ulimit -v` a run too large
# for it is refused at once, from its parameters, with the estimate and the limit named, instead of
# allocating gigabytes and ending in a bare std::bad_alloc.
# Usage: host_memory_limits.sh NPUSIM
set -uo pipefail
npusim="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. A 40960^3 matmul (12.5 GiB of arguments) under a 4 GiB address-space limit.
start=$(date +%s%N)
err=$(bash -c 'ulimit -v 4194304; exec "$0" run matmul_single_core --param M=40960 --param K=40960 --param N=40960 --param n=640' \
      "$npusim" 2>&1 >/dev/null)
code=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "exit $code after $ms ms: $err"
[ "$code" = 2 ] || fail "exit code $code, expected 2"
[[ "$err" == *"its runtime arguments take 12.5 GiB and a run needs about 3 times that (37.5 GiB), more than the "*" of host memory available (RLIMIT_AS, ulimit -v)"* ]] ||
  fail "no estimate naming RLIMIT_AS in: $err"
[ "$ms" -lt 3000 ] || fail "took $ms ms: the estimate must come before any large allocation"

# 2. A run that fits its estimate goes on under the same kind of limit.
out=$(bash -c 'ulimit -v 4194304; exec "$0" run passthrough_kernel' "$npusim" 2>&1) || fail "passthrough_kernel under ulimit -v: $out"
[[ "$out" == *"result: PASS"* ]] || fail "passthrough_kernel did not pass: $out"
echo "PASS"
