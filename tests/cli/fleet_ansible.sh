#!/bin/sh
# fleet_ansible: fleet/playbook.yml run against this machine under two
# inventory names (the local connection), with this build's stubbench, a
# short sweep and no kernel run; each host's JSON is fetched, and
# stubbench report prints a row per host. SKIP (77) without ansible-playbook.
# usage: fleet_ansible.sh STUBBENCH SOURCE_DIR
set -u
sb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
if ! command -v ansible-playbook >/dev/null 2>&1; then
    echo "SKIP: ansible-playbook is not installed (apt-get install ansible; .ci/install-deps does)"
    exit 77
fi
d=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$d"' EXIT
. "$(dirname "$0")/../common/check.sh"
py=$(command -v python3)
# The CPU the runs are pinned to (stubbench_cpu): the last this process may use.
cpu=$("$py" -c 'import os; print(max(os.sched_getaffinity(0)))')
cat > "$d/inventory.ini" <<INV
[stubbench]
fleet-a ansible_connection=local ansible_python_interpreter=$py
fleet-b ansible_connection=local ansible_python_interpreter=$py
INV
cat > "$d/vars.json" <<VARS
{"stubbench_bin": "$sb", "stubbench_dir": "$d/hosts", "stubbench_results": "$d/results",
 "stubbench_cpu": $cpu, "stubbench_kernel": false, "stubbench_install_deps": false,
 "stubbench_sweep_args": ["--samples=2000", "--batch=512", "--processes=1", "--past-runs=none",
                          "--quiet-levels=none"]}
VARS
# One host after the other (-f 1): two names of one machine do not measure at once.
STUBBENCH_TEST_DISTURB_NONE=1 ANSIBLE_HOME="$d/ansible" ANSIBLE_LOCAL_TEMP="$d/ansible/tmp" ANSIBLE_NOCOLOR=1 \
    ansible-playbook -f 1 -i "$d/inventory.ini" -e "@$d/vars.json" "$src/fleet/playbook.yml" > "$d/log" 2>&1
rc=$?
tail -n 25 "$d/log"
ok test "$rc" -eq 0
ok test -s "$d/results/fleet-a-sweep.json"
ok test -s "$d/results/fleet-b-sweep.json"
"$sb" report "$d"/results/*.json > "$d/table" 2>&1
cat "$d/table"
ok grep -q "2 machines, 2 runs" "$d/table"
ok test "$(grep -c '^fleet-a: ' "$d/table")" -ge 1
ok test "$(grep -c '^fleet-b: ' "$d/table")" -ge 1
# --host named each run as its inventory name.
ok grep -q '"host": "fleet-a"' "$d/results/fleet-a-sweep.json"
ok grep -q "\"cpu\": $cpu," "$d/results/fleet-b-sweep.json"
checks_done fleet_ansible
