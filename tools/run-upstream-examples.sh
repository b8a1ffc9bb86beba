#!/usr/bin/env bash
# Runs every Python design of a mlir-aie checkout's programming_examples, unchanged, through
# `npusim python`, and prints a table: example | passed / failed (the last error line) / unsupported
# (the NotImplementedError's call, or the module npusim does not serve), then the counts.
#
#   tools/run-upstream-examples.sh DIR [--npusim PATH] [--timeout SECONDS] [--filter REGEX]
#
# DIR is a mlir-aie checkout (programming_examples/ and aie_kernels/). Each design runs with its own
# folder as the working directory, so it finds its kernel sources where it references them (most
# through paths relative to __file__ or to DIR/aie_kernels). Its arguments are those of the first
# `%python %S/<file> ...` line of the folder's run_strix.lit (the npu2 run), else run.lit, else
# run_jit.lit, else none.
# A design with no run path of its own (run_design_cli without run_and_verify: it says so and exits;
# or one whose required options neither lit file gives: argparse says so, as packet_switch's --op)
# is run as its folder's Makefile runs it (`make -n devicename=npu2 DEVICE=npu2`, else with
# targetname=<file's stem>, prints the command; packet_switch's Makefile reads DEVICE): upstream compiles it there (`python3 FILE ARGS --xclbin-path=...
# --insts-path=...`) and a host program (test.cpp's executable, or test.py) runs the xclbin. npusim
# runs that compile command as it is: the design is built and resolved (a design npusim cannot build
# fails there, for its real reason), then npusim says it cannot compile; the row is then unsupported,
# naming the host that would run the xclbin.
# A design is a .py file under programming_examples that imports aie (lit.cfg.py excluded).
set -uo pipefail

usage() { echo "usage: $0 DIR [--npusim PATH] [--timeout SECONDS] [--filter REGEX]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
DIR=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: $1: no such directory" >&2; exit 2; }
shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
NPUSIM=${NPUSIM:-$HERE/build/tools/npusim}
TIMEOUT=60
FILTER=.
while [[ $# -gt 0 ]]; do
    case $1 in
        --npusim) NPUSIM=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --filter) FILTER=$2; shift 2 ;;
        *) usage ;;
    esac
done
[[ -d $DIR/programming_examples ]] || { echo "$0: $DIR has no programming_examples/" >&2; exit 2; }
[[ -x $NPUSIM ]] || { echo "$0: $NPUSIM is not an executable npusim (build it, or pass --npusim)" >&2; exit 2; }
NPUSIM=$(cd "$(dirname "$NPUSIM")" && pwd)/$(basename "$NPUSIM")

# The arguments lit gives the design (run_strix.lit first: npusim's default device is npu2).
lit_args() {
    local dir=$1 file=$2 lit line
    for lit in "$dir/run_strix.lit" "$dir/run.lit" "$dir/run_jit.lit"; do
        [[ -f $lit ]] || continue
        line=$(grep -m1 -E "%python %S/$file( |$)" "$lit") || continue
        line=${line#*"%S/$file"}
        line=${line%%|*}
        echo "${line//%S/$dir}"
        return
    done
}

# The arguments the folder's Makefile compiles FILE with ("make ARGS", the output redirect of an
# --emit-mlir step removed), or nothing when the Makefile does not run FILE.
make_args() {
    local dir=$1 file=$2 line vars
    [[ -f $dir/Makefile ]] || return
    for vars in "" "targetname=${file%.py}"; do
        # shellcheck disable=SC2086 # vars is one word or none
        line=$(cd "$dir" && timeout 20 make -n -f Makefile devicename=npu2 DEVICE=npu2 $vars 2>/dev/null |
               grep -m1 -E "^python3 ([^ ]*/)?$file( |$)") && break
    done
    [[ -n $line ]] || return
    line=${line#* }
    line=${line#* }
    echo "make ${line%%>*}"
}

# A file of a package (its folder holds an __init__.py) with package-relative imports runs as upstream
# runs it, `python3 -m PKG.MOD` from the folder above the package (ml/mobilenet's Makefile and
# run_e2e.sh: `cd $(srcdir)/.. && python3 -m mobilenet.aie2_iron_chain ...`): the folder to run from
# and the dotted name.
package_module() {
    local dir=$1 mod=${2%.py}
    while [[ -f $dir/__init__.py ]]; do mod="$(basename "$dir").$mod" dir=$(dirname "$dir"); done
    echo "$dir $mod"
}

# The arguments the folder's Makefile gives `python3 -m MODULE` (make -n, continuation lines joined),
# or nothing.
make_module_args() {
    local dir=$1 mod=$2 line
    [[ -f $dir/Makefile ]] || return
    line=$(cd "$dir" && timeout 20 make -n -f Makefile devicename=npu2 DEVICE=npu2 2>/dev/null |
           sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | grep -m1 -E "^python3 -m ${mod//./\\.}( |$)") || return
    line=${line#python3 -m "$mod"}
    echo "${line%%>*}"
}

# The host that runs what the Makefile compiled: its run_py target's test script, else a C++ host.
make_host() {
    local dir=$1 py
    py=$(grep -A3 -E "^run_py[a-z_]*:" "$dir/Makefile" | grep -o -m1 -E "test[a-z_0-9]*\.py|test_[^ ]*\.py")
    if [[ -n $py ]]; then echo "$py, a Python host of the compiled xclbin"; return; fi
    echo "its test.cpp, a C++ XRT host of the compiled xclbin"
}

# The verdict of one run from its exit status and output.
verdict() {
    local rc=$1 out=$2 line
    if [[ $rc -eq 0 ]]; then echo "passed|"; return; fi
    if [[ $rc -eq 124 ]]; then echo "failed|timeout after ${TIMEOUT} s"; return; fi
    # a test.py-style host driver takes the xclbin a compile produced (add_runtime_args' --xclbin)
    if grep -q -E "the following arguments are required: .*--xclbin" "$out"; then
        echo "unsupported|a host driver of a compiled xclbin (--xclbin): npusim runs designs from their source"
        return
    fi
    line=$(grep -E "NotImplementedError" "$out" | tail -1)
    if [[ -n $line ]]; then echo "unsupported|${line#*NotImplementedError: }"; return; fi
    line=$(grep -E "^(ModuleNotFoundError|ImportError): " "$out" | tail -1)
    # npusim's refusal of an aie module lists every module it serves: the name is enough here.
    if [[ -n $line ]]; then line=${line#*Error: }; echo "unsupported|${line% (npusim serves:*}"; return; fi
    line=$(grep -v -E '^\s*$' "$out" | tail -1)
    echo "failed|${line:-exit status $rc}"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=()
passed=0 failed=0 unsupported=0
while IFS= read -r path; do
    rel=${path#"$DIR/programming_examples/"}
    [[ $rel =~ $FILTER ]] || continue
    dir=$(dirname "$path") file=$(basename "$path")
    read -r -a args <<<"$(lit_args "$dir" "$file")"
    viamake=
    (cd "$dir" && timeout "$TIMEOUT" "$NPUSIM" python "$file" "${args[@]}") >"$tmp/out" 2>&1 </dev/null
    rc=$?
    asmodule=
    if [[ $rc -ne 0 ]] && grep -q "attempted relative import with no known parent package" "$tmp/out"; then
        read -r root mod <<<"$(package_module "$dir" "$file")"
        read -r -a margs <<<"$(make_module_args "$dir" "$mod")"
        [[ ${#margs[@]} -gt 0 ]] && viamake=1
        (cd "$root" && timeout "$TIMEOUT" "$NPUSIM" python -m "$mod" "${margs[@]}") >"$tmp/out" 2>&1 </dev/null
        rc=$? asmodule=1 args=(-m "$mod" "${margs[@]}")
    fi
    # a design with no run path of its own (run_design_cli without run_and_verify), or one lit gives
    # no required option, runs as its Makefile runs it
    if [[ $rc -ne 0 && -z $asmodule ]] && { grep -q "no run_and_verify callback was provided" "$tmp/out" ||
        { grep -q "the following arguments are required: " "$tmp/out" && ! grep -q -E "required: .*--xclbin" "$tmp/out"; }; }; then
        read -r -a margs <<<"$(make_args "$dir" "$file")"
        if [[ ${#margs[@]} -gt 0 ]]; then
            viamake=1 args=("${margs[@]}")
            (cd "$dir" && timeout "$TIMEOUT" "$NPUSIM" python "$file" "${args[@]:1}") >/dev/null 2>"$tmp/out" </dev/null
            rc=$?
        fi
    fi
    IFS='|' read -r kind why <<<"$(verdict $rc "$tmp/out")"
    # the compile step ran to npusim's "cannot compile" (or, for an --emit-mlir step, printed the MLIR)
    if [[ -n $viamake ]] && { [[ $kind == passed ]] || grep -q "the design builds and resolves; compiling" "$tmp/out"; }; then
        kind=unsupported why="compiled by its Makefile (npusim builds and resolves it), run by $(make_host "$dir")"
    fi
    # a package module whose required options only its folder's scripts give (run_e2e.sh)
    if [[ -n $asmodule && -z $viamake && $kind == failed ]] && grep -q "the following arguments are required: " "$tmp/out"; then
        kind=unsupported why="runs as python3 -m ${mod} with the arguments a script of its folder gives (no lit or Makefile line): $why"
    fi
    case $kind in passed) ((passed++)) ;; failed) ((failed++)) ;; *) ((unsupported++)) ;; esac
    shown=()
    skip=
    for a in "${args[@]}"; do  # the Makefile's output paths (--x-path=P, or --x-path P) are left out
        if [[ -n $skip ]]; then skip=; continue; fi
        [[ $a == --*-path ]] && { skip=1; continue; }
        [[ $a == --*-path=* ]] || shown+=("$a")
    done
    rows+=("$rel|${shown[*]:-}|$kind|${why:0:160}")
done < <(find "$DIR/programming_examples" -name '*.py' ! -name 'lit.cfg.py' -print0 |
         xargs -0 grep -l -E '^\s*(from|import) aie' | sort)

w1=7 w2=4
for r in "${rows[@]}"; do
    IFS='|' read -r ex a _ _ <<<"$r"
    ((${#ex} > w1)) && w1=${#ex}
    ((${#a} > w2)) && w2=${#a}
done
printf "%-${w1}s  %-${w2}s  %-11s  %s\n" example args result reason
for r in "${rows[@]}"; do
    IFS='|' read -r ex a kind why <<<"$r"
    printf "%-${w1}s  %-${w2}s  %-11s  %s\n" "$ex" "$a" "$kind" "$why"
done
echo
echo "passed $passed, failed $failed, unsupported $unsupported, of $((passed + failed + unsupported))"
