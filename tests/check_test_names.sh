#!/usr/bin/env bash
# Fails when a Catch test name cannot be selected by the ctest entry catch_discover_tests makes for
# it: CatchAddTests splits the listed names at ';' (the two halves then select nothing), and Catch
# reads a leading '--' as an option. Arguments: the test suite executables.
set -u
bad=0
for exe in "$@"; do
    # (Catch v2 exits with the number of tests listed: only the output tells.)
    names=$("$exe" --list-test-names-only)
    if [ -z "$names" ]; then
        echo "$exe: --list-test-names-only listed nothing"
        bad=1
        continue
    fi
    while IFS= read -r name; do
        case "$name" in
        *\;*) echo "$(basename "$exe"): test name contains ';': $name"; bad=1 ;;
        --*) echo "$(basename "$exe"): test name starts with '--': $name"; bad=1 ;;
        esac
    done <<<"$names"
done
if [ "$bad" -ne 0 ]; then
    echo "rename these test cases (ctest would run nothing for them)"
    exit 1
fi
echo "$# suites: every test name is selectable"
