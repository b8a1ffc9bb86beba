#!/usr/bin/env bash
# Fails when a registered test has none of the labels unit, integration, docs, external
# (tests/CMakeLists.txt; `tools/test.sh --quick` selects by label). Arguments: ctest, build dir.
set -u
ctest=$1 build=$2
all=$("$ctest" --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p')
labelled=$("$ctest" --test-dir "$build" -N -L '^(unit|integration|docs|external)$' | sed -n 's/^ *Test *#[0-9]*: //p')
missing=$(comm -23 <(sort <<<"$all") <(sort <<<"$labelled"))
if [ -z "$all" ]; then
    echo "ctest -N listed no test"
    exit 1
fi
if [ -n "$missing" ]; then
    echo "these tests have no label (unit, integration, docs or external):"
    echo "$missing" | sed 's/^/  /'
    exit 1
fi
echo "$(wc -l <<<"$all") tests, each labelled"
