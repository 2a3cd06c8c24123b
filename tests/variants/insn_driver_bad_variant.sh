#!/bin/sh
# insn_driver_bad_variant: the driver the insn_count_<variant> tests count
# under callgrind refuses a name that is no variant (status 2, one line
# naming it) instead of counting nothing.
# usage: insn_driver_bad_variant.sh INSN_DRIVER
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"
refused -x 2 "insn_driver: 'nope' is not a variant" nope 1 1
checks_done insn_driver_bad_variant
