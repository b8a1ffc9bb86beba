#!/usr/bin/env bash
# docs/README.md lists every page of docs/ (and docs/notes/) exactly once, and every page it links
# exists, and no page points outside the repository (the design spec and the reference notes the
# project started from are not in it). Argument: the source tree.
set -u
cd "$1/docs" || exit 1
bad=0
while IFS= read -r page; do
    n=$(grep -o "](${page})" README.md | wc -l)
    if [ "$n" -ne 1 ]; then echo "docs/README.md links docs/$page $n times (want 1)"; bad=1; fi
done < <(find . -name '*.md' ! -name README.md ! -path './deadlocks/*' | sed 's|^\./||' | sort)
while IFS= read -r link; do
    [ -e "$link" ] || { echo "docs/README.md links docs/$link, which does not exist"; bad=1; }
done < <(grep -o '](\([^)#]*\.md\))' README.md | sed 's/^](//; s/)$//')
if grep -rn --include='*.md' -e '\.\./shared/' -e 'DESIGN\.md' . ../README.md; then
    echo "the lines above point outside the repository"
    bad=1
fi
[ "$bad" -eq 0 ] && echo "docs/README.md lists every page once; no page points outside the repository"
exit "$bad"
