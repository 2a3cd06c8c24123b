# check.sh: the few checks the shell tests share, as check.h is the C
# tests': each counted, a failure said in a FAIL line, the count at the end.
# Sourced by a test, with the program under test in $sb:
#   . "$(dirname "$0")/../common/check.sh"
passes=0 fails=0

# ok CMD...: passes when CMD does.
ok() {
    if "$@"; then pass; else no "$*"; fi
}

# pass: a check that passed.
pass() {
    passes=$((passes + 1))
}

# no WHAT: a check that failed, said.
no() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# refused [-x] STATUS TEXT ARGS...: "$sb" ARGS exits STATUS with nothing
# on stdout and one line on stderr that holds TEXT (with -x: that is TEXT
# whole): bad input, said in one line.
refused() {
    whole=
    [ "$1" = -x ] && whole=x && shift
    want=$1 text=$2
    shift 2
    stdout=$(mktemp)
    err=$("$sb" "$@" 2>&1 >"$stdout")
    got=$?
    out=$(cat "$stdout")
    rm -f "$stdout"
    if [ "$got" -eq "$want" ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$err" | grep -qF$whole -- "$text"; then
        pass
    else
        no "${sb##*/} $* -> status $got (want $want), stdout '$out', stderr '$err' (want one line with '$text')"
    fi
}

# answers PATTERN ARGS...: "$sb" ARGS exits 0 and prints a line matching
# PATTERN (grep) on stdout or stderr (--help, --version, --list).
answers() {
    pattern=$1
    shift
    out=$("$sb" "$@" 2>&1)
    got=$?
    if [ "$got" -eq 0 ] && printf '%s\n' "$out" | grep -q -- "$pattern"; then
        pass
    else
        no "${sb##*/} $* -> status $got, output: $out (want a line matching '$pattern')"
    fi
}

# checks_done NAME: prints the count; fails (status 1) when a check did.
checks_done() {
    echo "$1: $passes passed, $fails failed"
    [ "$fails" -eq 0 ]
}
