#!/bin/sh
# install_tree.sh CMAKE BUILD_DIR CC SOURCE_DIR: `cmake --install` into a
# temporary prefix puts the programs, libstubbench.a and the headers of its
# public API (stubbench.h and what it includes, nothing else), stubbench.pc,
# the man page and the bash completion (when built) there; a program built
# with `pkg-config --cflags --libs stubbench` alone links and finds the
# variants, and examples/measure_one.c, built the same way, measures one
# cell the CLI's way (re-rolled states, fresh processes) and gives its
# figures. Its figures and the CLI's are printed side by side, not judged
# (timings).
cmake=$1 build=$2 cc=$3 src=$4
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
         include/stubbench/stubbench.h include/stubbench/registry.h include/stubbench/results.h \
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

# The installed headers are the closure of stubbench.h's includes, and
# each compiles on its own.
want=$(cd "$prefix/include" && { echo stubbench/stubbench.h; grep -ho '#include "stubbench/[^"]*"' stubbench/*.h |
	sed 's/#include "//; s/"$//'; } | sort -u)
have=$(cd "$prefix/include" && ls stubbench/* | sort)
[ "$want" = "$have" ] || { echo "installed headers are not stubbench.h's closure:"; echo "want: $want"; echo "have: $have"; fail=1; }
for h in $have; do
	echo "#include \"$h\"" | "$cc" -fsyntax-only -x c -I"$prefix/include" - ||
		{ echo "$h does not compile on its own"; fail=1; }
done

# The example, built against the installed tree alone, and the CLI: one
# cell, one seed, the same rounds.
# shellcheck disable=SC2086
"$cc" -Wall -Wextra -Werror "$src/examples/measure_one.c" -o "$tmp/measure_one" $flags ||
	{ echo "examples/measure_one.c does not build against the installed tree"; exit 1; }
export XDG_STATE_HOME="$tmp/state"
# A batch that is not a number: one line naming it, status 2.
"$tmp/measure_one" private none 2>"$tmp/bad.err"
[ $? -eq 2 ] && grep -q "BATCH: 'none' is not a whole number" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; echo "measure_one took a batch of 'none'"; fail=1; }
lib=$("$tmp/measure_one" private 512 3 4000 2>"$tmp/lib.err") || { cat "$tmp/lib.err"; echo "measure_one failed"; exit 1; }
echo "library: $lib"
case $lib in
*" cycles="*" delta="*) ;;
*) echo "the example gave no cycles and delta"; fail=1 ;;
esac
# Re-rolled states and fresh processes, as the CLI measures (not 1 and 1).
states=$(printf '%s\n' "$lib" | sed -n 's/.* states=\([0-9]*\) processes=\([0-9]*\).*/\1/p')
procs=$(printf '%s\n' "$lib" | sed -n 's/.* states=\([0-9]*\) processes=\([0-9]*\).*/\2/p')
[ "${states:-0}" -gt 1 ] && [ "${procs:-0}" -gt 1 ] ||
	{ echo "the library did not measure in re-rolled states and fresh processes"; fail=1; }
"$prefix/bin/stubbench" --variant=private --batch=512 --seed=3 --samples=4000 --past-runs=none --format=csv \
	2>"$tmp/cli.err" | grep '^private,' | sed 's/^/CLI (csv): /' || { cat "$tmp/cli.err"; echo "the CLI failed"; fail=1; }
exit $fail
