# kernel_skip.sh: whether a `stubbench kernel` run could not measure here,
# for the tests that run one (sourced:
#   . "$(dirname "$0")/../common/kernel_skip.sh").

# bpf_unavailable STATUS [WHY]: true, with a SKIP line, when the run exited
# STATUS because BPF cannot run its programs here: 3 no CAP_BPF or
# CAP_SYS_ADMIN, 4 no JIT, 5 no test run, 6 no private stack here. A test
# then skips (exit 77), or the part that needed the run does.
bpf_unavailable() {
    [ "$1" -ge 3 ] && [ "$1" -le 6 ] || return 1
    echo "SKIP: stubbench kernel exited $1 (3 no CAP_BPF, 4 no JIT, 5 no test run, 6 no private stack here)${2:+: $2}"
}
