#!/bin/sh
# install_tree.sh CMAKE BUILD_DIR CC: `cmake --install` into a temporary
# prefix puts the programs, libstubbench.a and its headers, stubbench.pc,
# the man page and the bash completion (when built) there, and a program built with
# `pkg-config --cflags --libs stubbench` alone links and finds the variants.
cmake=$1 build=$2 cc=$3
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
fail=0
# stubbench-gbench where this build has it (STUBBENCH_GBENCH).
gbench=
[ -x "$build/stubbench-gbench" ] && gbench=bin/stubbench-gbench
# The man page and the completion where the build wrote them (python3,
# cmake/cli_docs.cmake); the completion under each program's name.
docs=
[ -s "$build/stubbench.1" ] && docs="share/man/man1/stubbench.1 share/bash-completion/completions/stubbench"
[ -n "$docs" ] && [ -n "$gbench" ] && docs="$docs share/bash-completion/completions/stubbench-gbench"
for f in bin/stubbench $gbench lib/libstubbench.a \
         include/stubbench/registry.h include/stubbench/harness.h include/stubbench/results.h \
         lib/pkgconfig/stubbench.pc $docs; do
    [ -s "$prefix/$f" ] || { echo "missing: $f"; fail=1; }
done
for f in bin/stubbench $gbench; do
    [ -x "$prefix/$f" ] || { echo "not executable: $f"; fail=1; }
done
# One man page for every subcommand (test cli_docs checks what it says).
if [ -n "$docs" ]; then
    for s in "stubbench lab" "stubbench kernel" "stubbench compare" "stubbench plot" stubbench-gbench; do
        grep -q "^\.B $s" "$prefix/share/man/man1/stubbench.1" || { echo "man page lacks $s"; fail=1; }
    done
    bash -n "$prefix/share/bash-completion/completions/stubbench" || { echo "completion is not bash"; fail=1; }
fi
"$prefix/bin/stubbench" --version | grep -q '^stubbench [0-9]' || { echo "installed stubbench --version"; fail=1; }
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs stubbench) || { echo "pkg-config --cflags --libs stubbench failed"; exit 1; }
echo "pkg-config: $flags"
case $flags in *"-I$prefix/lib/pkgconfig/../../include"*|*"-I$prefix/include"*) ;; *) echo "cflags do not name the prefix"; fail=1 ;; esac
cat >"$tmp/user.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "stubbench/registry.h"
int main(void)
{
	const struct sb_variant *v = sb_variant_find("private");
	printf("%zu variants, private: %s\n", sb_variant_count(), v ? v->seed_name : "missing");
	return v && strcmp(v->seed_name, "private-stack") == 0 ? 0 : 1;
}
C
# shellcheck disable=SC2086
"$cc" "$tmp/user.c" -o "$tmp/user" $flags || { echo "a program does not build against the installed tree"; exit 1; }
"$tmp/user" || fail=1
exit $fail
