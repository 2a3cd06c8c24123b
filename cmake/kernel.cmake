# kernel.cmake: the kernel-side confirmation run: the BPF programs (clang
# -target bpf, embedded with a bpftool skeleton), their loader and JIT
# reader/comparator (libbpf, capstone), `stubbench kernel`, the lookup of
# the twins (replicas of this machine's JITed code, in asm/ with the
# others), and the tests.

# The kernel part (STUBBENCH_KERNEL, on by default): switched off with one
# line when a tool or library it needs is missing; `stubbench kernel` then
# says it was not built.
if(STUBBENCH_KERNEL)
  find_program(SB_BPF_CLANG NAMES clang clang-16 clang-15 clang-14)
  find_program(SB_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin)
  pkg_check_modules(LIBBPF QUIET libbpf)
  if(NOT SB_BPF_CLANG)
    sb_part_off(STUBBENCH_KERNEL "clang not found (it compiles the BPF programs): apt-get install clang")
  elseif(NOT SB_BPFTOOL)
    sb_part_off(STUBBENCH_KERNEL "bpftool not found (it generates the BPF skeleton): apt-get install bpftool")
  elseif(NOT LIBBPF_FOUND)
    sb_part_off(STUBBENCH_KERNEL "libbpf not found (it loads the BPF programs): apt-get install libbpf-dev")
  endif()
endif()
if(NOT STUBBENCH_KERNEL)
  return()
endif()

# BPF objects and skeletons. Only UAPI and libbpf headers: no kernel BTF needed.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-multiarch
  OUTPUT_VARIABLE SB_MULTIARCH OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT SB_MULTIARCH)
  set(SB_MULTIARCH x86_64-linux-gnu)
endif()
# One way to compile a BPF C source into an object: the project's programs
# and the test object of kernel_obj.cmake alike.
function(sb_bpf_object src obj)
  get_filename_component(dir ${obj} DIRECTORY)
  get_filename_component(name ${obj} NAME)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${SB_BPF_CLANG} -O2 -g -target bpf -Wall -Werror
            -I/usr/include/${SB_MULTIARCH} -c ${src} -o ${obj}
    DEPENDS ${src} ${CMAKE_SOURCE_DIR}/bench/bpf/touch_stack.h
    COMMENT "clang -target bpf: ${name}")
endfunction()

set(SB_BPF_SKELETONS)
foreach(name private_stack_shapes fentry_shape htab_shape kernel_text private_stack_probe
    stack_offset_probe)
  set(src ${CMAKE_SOURCE_DIR}/bench/bpf/${name}.bpf.c)
  set(obj ${CMAKE_BINARY_DIR}/bpf/${name}.bpf.o)
  set(skel ${CMAKE_BINARY_DIR}/bpf/${name}.skel.h)
  sb_bpf_object(${src} ${obj})
  add_custom_command(
    OUTPUT ${skel}
    COMMAND ${SB_BPFTOOL} gen skeleton ${obj} name ${name} > ${skel}
    DEPENDS ${obj}
    COMMENT "bpftool gen skeleton: ${name}.skel.h")
  list(APPEND SB_BPF_SKELETONS ${skel})
endforeach()
add_custom_target(sb_bpf_skeleton DEPENDS ${SB_BPF_SKELETONS})


# JIT reading, decoding, flavour, comparison, dumps (no BPF needed to
# decode and compare recorded dumps).

# Loader, test runs, arms, JIT check, htab shape, twin placement.
file(GLOB SB_KERNEL_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/kernel/*.c)
add_library(stubbench_kernel STATIC ${SB_KERNEL_SOURCES})
add_dependencies(stubbench_kernel sb_bpf_skeleton)
target_include_directories(stubbench_kernel PUBLIC ${CMAKE_SOURCE_DIR}/include
  PRIVATE ${CMAKE_BINARY_DIR}/bpf ${LIBBPF_INCLUDE_DIRS})
target_link_libraries(stubbench_kernel PUBLIC stubbench_jit stubbench_core ${LIBBPF_LIBRARIES} m)

# The commands of the kernel run (src/kernel_commands/kernel_run.h): the
# built-in shapes, --shape=htab and --probe, each from the run
# configuration to its exit status. Listed, not globbed: the other
# kernel --obj commands of src/kernel_commands build in their own part.
add_library(stubbench_kernel_commands STATIC
  src/kernel_commands/kernel_run.c
  src/kernel_commands/kernel_run_common.c
  src/kernel_commands/kernel_plan.c
  src/kernel_commands/kernel_load.c
  src/kernel_commands/kernel_measure.c
  src/kernel_commands/kernel_findings.c
  src/kernel_commands/kernel_load_figures.c
  src/kernel_commands/kernel_htab_run.c
  src/kernel_commands/kernel_probe_run.c)
target_include_directories(stubbench_kernel_commands PUBLIC ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(stubbench_kernel_commands PUBLIC stubbench_kernel stubbench_session)

# `stubbench kernel`: its entry is in the main program's subcommand table
# as a weak reference (bench/stubbench.c), present only in this part.
target_sources(stubbench PRIVATE ${CMAKE_SOURCE_DIR}/bench/kernel_command.c)
target_link_libraries(stubbench PRIVATE stubbench_kernel_commands)

# Tests. BUILD_TESTING is defined by include(CTest), which the top-level
# CMakeLists.txt runs after this file: add them once it has.
function(sb_kernel_add_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  add_executable(test_jit_compare ${CMAKE_SOURCE_DIR}/tests/jit/test_jit_compare.c)
  target_include_directories(test_jit_compare PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_jit_compare PRIVATE stubbench_jit)
  add_test(NAME jit_compare COMMAND test_jit_compare ${CMAKE_SOURCE_DIR}/tests/data)

  # Why a kernel gives no private stack, said from what the probe found, on
  # made-up findings; the recorded JIT of such a kernel.
  add_executable(test_private_stack_reason ${CMAKE_SOURCE_DIR}/tests/kernel/test_private_stack_reason.c)
  target_include_directories(test_private_stack_reason PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_private_stack_reason PRIVATE stubbench_kernel)
  add_test(NAME private_stack_reason COMMAND test_private_stack_reason ${CMAKE_SOURCE_DIR}/tests/data)
  # The kernel stack's page offset read from a probe program's slot address,
  # on made-up instructions and addresses, and the embedded program's slot.
  add_executable(test_stack_offset_probe ${CMAKE_SOURCE_DIR}/tests/kernel/test_stack_offset_probe.c)
  target_include_directories(test_stack_offset_probe PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_stack_offset_probe PRIVATE stubbench_kernel)
  add_test(NAME stack_offset_probe COMMAND test_stack_offset_probe)
  # The placed twins' rbp frame at the page offset asked for, through the
  # sampler's call (a stub with the twins' prologue in a twin's place).
  add_executable(test_placed_stack ${CMAKE_SOURCE_DIR}/tests/kernel/test_placed_stack.c)
  target_include_directories(test_placed_stack PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_placed_stack PRIVATE stubbench_kernel)
  add_test(NAME placed_stack COMMAND test_placed_stack)
  # Kernel, htab and --obj carry on where the kernel gives no private stack
  # (the test hook makes one of any kernel); SKIP (77) without BPF.
  add_test(NAME kernel_no_private_stack COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/kernel/kernel_no_private_stack.py
    $<TARGET_FILE:stubbench> ${CMAKE_BINARY_DIR}/tests/user_prog.bpf.o)
  set_tests_properties(kernel_no_private_stack PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs)

  # Need root/CAP_BPF, JIT, test runs, private stack: SKIP (77) otherwise.
  foreach(t kernel_run kernel_sigint)
    add_executable(test_${t} ${CMAKE_SOURCE_DIR}/tests/kernel/test_${t}.c)
    target_include_directories(test_${t} PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
    target_link_libraries(test_${t} PRIVATE stubbench_kernel)
  endforeach()
  add_test(NAME kernel_run COMMAND test_kernel_run)
  add_test(NAME kernel_sigint COMMAND test_kernel_sigint $<TARGET_FILE:stubbench>)
  set_tests_properties(kernel_run kernel_sigint PROPERTIES SKIP_RETURN_CODE 77)
  # Both load BPF programs and the second measures: not beside each other.
  set_tests_properties(kernel_run kernel_sigint PROPERTIES RESOURCE_LOCK bpf_programs)

  # Output formats of a short real run (SKIP, 77, where BPF is missing: the
  # command's statuses 3-6). JSON: one document with every arm of both
  # shapes; seed: one naming scheme, "<variant>-<shape>[-twin[@loads]]-<batch>".
  set(sb_kernel_skip [=[rc=$?; if [ $rc -ge 3 ] && [ $rc -le 6 ]; then echo "SKIP: stubbench kernel exited $rc (3 no CAP_BPF, 4 no JIT, 5 no test run, 6 no private stack here)"; exit 77; fi; [ $rc -eq 0 ] || exit 1]=])
  add_test(NAME kernel_output_json COMMAND sh -c
    "out=$($<TARGET_FILE:stubbench> kernel --format=json --samples=64 --batch=8,64 --loads=2 2>/dev/null); ${sb_kernel_skip}; printf '%s' \"$out\" | python3 -c \"import json,sys; d=json.load(sys.stdin); names=[r['variant'] for r in d['results']]; v=['baseline','private','hybrid']; want=[p+'-'+s+x for s in ['per-run','in-loop'] for p in v for x in ['','-twin','-twin@loads']]; missing=[w for w in want if names.count(w)!=2]; print('missing or not once per batch:', missing); k=d['kernel_run']; progs=k['programs']; found=bool(k['jit_flavour']) and any('same as its twin' in l for l in k['jit_check']) and len(progs)==24 and all(p['id']>0 for p in progs) and any(l.startswith('private ') for l in k['side_by_side']) and len(k['verdicts'])==12 and all(x['verdict'] in ('agree','differ','inconclusive',None) and x['variant'] in ('baseline','private','hybrid') and ((x['absolute_verdict'] and x['absolute_verdict']['verdict'] in ('agree','differ','inconclusive')) or x['kernel_resolved'] is False) for x in k['verdicts']) and any(x['kernel'] and x['twin'] for x in k['verdicts']) and d['config']['batches']==[8,64] and 'this one run' in (d['ci_scope'] or '') and d['config']['processes']==8 and 'kernel_stack_page_offset' in k and (k['kernel_stack_page_offset'] is None or 0 <= k['kernel_stack_page_offset'] < 4096) and (k['kernel_stack_probe'] or '').startswith('kernel stack (') and all(x is None or (k['kernel_stack_page_offset'] - x) % 4096 in (0, 8) for x in k['placed_twin_stack_page_offset'].values()) and len(k['placed_twin_stack_page_offset']) == 2; print('kernel_run:', 'ok' if found else k); sys.exit(1 if missing or len(names)!=36 or not found else 0)\"")
  add_test(NAME kernel_output_seed COMMAND sh -c
    "out=$($<TARGET_FILE:stubbench> kernel --format=seed --samples=64 --batch=8 2>/dev/null); ${sb_kernel_skip}; for n in no-private-stack-per-run-8 private-stack-per-run-8 hybrid-per-run-8 no-private-stack-in-loop-8 private-stack-in-loop-8 hybrid-in-loop-8 no-private-stack-per-run-twin-8 hybrid-in-loop-twin-8 private-stack-per-run-twin@loads-8 hybrid-in-loop-twin@loads-8; do printf '%s\\n' \"$out\" | grep -q \"^$n: .*M/s (drops\" || { echo \"no line for $n\"; exit 1; }; done")
  # --dump-jit: raw bytes and a listing per JITed function (15 functions
  # of the six programs and the empty driver), the private ones with r9 setup.
  add_test(NAME kernel_dump_jit COMMAND sh -c
    "d=$(mktemp -d); $<TARGET_FILE:stubbench> kernel --dump-jit=$d/dump --samples=8 --batch=8 >/dev/null 2>&1; ${sb_kernel_skip}; nb=$(ls $d/dump/*.bin | wc -l); nl=$(ls $d/dump/*.lst | wc -l); echo \"$nb raw, $nl listings\"; ok=1; [ $nb -eq 16 ] && [ $nl -eq 16 ] || ok=0; grep -q 'add r9, qword ptr gs:' $d/dump/loop_private.loop_private.lst || ok=0; grep -q 'r9' $d/dump/loop_baseline.loop_baseline.lst && ok=0; [ $(stat -c %s $d/dump/run_private.sub_big.bin) -eq 45 ] || ok=0; rm -rf $d; [ $ok -eq 1 ]")
  # --shape=htab: seed lines of both variants, and the r9 frame (r9 setup)
  # in exactly the functions with a private stack (the body with helpers,
  # whose calls alone are wrapped in push/pop r9, and the one without).
  add_test(NAME kernel_htab_seed COMMAND sh -c
    "out=$($<TARGET_FILE:stubbench> kernel --shape=htab --format=seed --samples=64 --batch=4 2>/dev/null); ${sb_kernel_skip}; for n in no-private-stack-4-htab private-stack-4-htab; do printf '%s\\n' \"$out\" | grep -q \"^$n: .*M/s (drops\" || { echo \"no line for $n\"; exit 1; }; done")
  add_test(NAME kernel_htab_dump_jit COMMAND sh -c
    "d=$(mktemp -d); $<TARGET_FILE:stubbench> kernel --shape=htab --dump-jit=$d/dump --samples=32 --batch=2 >/dev/null 2>&1; ${sb_kernel_skip}; cd $d/dump; nl=$(ls *.lst | wc -l); r9=$(grep -l 'add r9, qword ptr gs:' *.lst | tr '\\n' ' '); push=$(grep -l 'push r9' *.lst | tr '\\n' ' '); echo \"$nl listings; r9 setup: $r9; push r9: $push\"; grep -q 'sub rsp, 0x60' htab_baseline.htab_body.lst || { echo 'no rbp frame in the baseline body'; exit 1; }; cd /; rm -rf $d; [ $nl -eq 8 ] && [ \"$r9\" = 'htab_nohelp.htab_body_nohelp.lst htab_private.htab_body.lst ' ] && [ \"$push\" = 'htab_private.htab_body.lst ' ]")
  # The thunk the JIT's returns reach, named through kallsyms, and every
  # thunk replica the same as the kernel's own code (or one line saying why
  # it could not be read).
  add_test(NAME kernel_return_thunk COMMAND ${CMAKE_SOURCE_DIR}/tests/kernel/kernel_return_thunk.sh
    $<TARGET_FILE:stubbench>)
  # --plot: the kernel and twin deltas drawn (a panel per shape and codegen, a line per side),
  # script and data beside the image.
  add_test(NAME kernel_plot COMMAND sh -c
    "command -v gnuplot >/dev/null || { echo 'SKIP: no gnuplot'; exit 77; }; d=$(mktemp -d); $<TARGET_FILE:stubbench> kernel --plot=$d/k.svg --samples=64 --batch=64 --shape=in-loop >/dev/null 2>$d/err; ${sb_kernel_skip}; ok=1; grep -q 'in-loop, private' $d/k.svg || ok=0; grep -q 'placed twin' $d/k.svg || ok=0; grep -q 'private-in-loop-twin@loads' $d/k.dat || ok=0; [ -s $d/k.gp ] || ok=0; grep -q 'plot written to' $d/err || ok=0; rm -rf $d; [ $ok -eq 1 ]")
  # These check what a run writes, not its statistics: every block is kept
  # (STUBBENCH_TEST_DISTURB_NONE), so that a short run on a loaded machine
  # does not end with no usable samples (status 1).
  set_tests_properties(kernel_return_thunk kernel_output_json kernel_output_seed kernel_dump_jit
    kernel_htab_seed kernel_htab_dump_jit kernel_plot PROPERTIES
    SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1)

  # Without capabilities: status 3 and one line naming them. Needs root to
  # drop to nobody with setpriv (util-linux); SKIP otherwise.
  add_test(NAME kernel_no_caps COMMAND sh -c
    "if [ \"$(id -u)\" != 0 ] || ! command -v setpriv >/dev/null; then echo 'SKIP: needs root and setpriv'; exit 77; fi; out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all $<TARGET_FILE:stubbench> kernel --samples=1 --batch=1 2>&1); rc=$?; echo \"$out\"; [ $rc -eq 3 ] && [ $(printf '%s\\n' \"$out\" | wc -l) -eq 1 ] && printf '%s' \"$out\" | grep -q 'no CAP_BPF or CAP_SYS_ADMIN'")
  add_test(NAME kernel_htab_no_caps COMMAND sh -c
    "if [ \"$(id -u)\" != 0 ] || ! command -v setpriv >/dev/null; then echo 'SKIP: needs root and setpriv'; exit 77; fi; out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all $<TARGET_FILE:stubbench> kernel --shape=htab --samples=1 --batch=1 2>&1); rc=$?; echo \"$out\"; [ $rc -eq 3 ] && [ $(printf '%s\\n' \"$out\" | wc -l) -eq 1 ] && printf '%s' \"$out\" | grep -q 'no CAP_BPF or CAP_SYS_ADMIN'")
  set_tests_properties(kernel_no_caps kernel_htab_no_caps PROPERTIES SKIP_RETURN_CODE 77)

  # Bad input: exit status 2 and a message naming the input, before any
  # BPF is touched (so these run anywhere).
  foreach(spec "shape;--shape=nope;unknown shape 'nope' .per-run, in-loop, all, htab."
               "variant;--variant=private,nope;unknown variant 'nope'"
               "htab_loads;--shape=htab --loads=2;--shape=htab takes no --loads"
               "batch;--batch=0;--batch"
               "format;--format=xml;unknown format 'xml'"
               "cpu;--cpu=abc;--cpu"
               "option;--frobnicate;unknown option '--frobnicate'"
               "thunk;--thunk=nope;unknown return thunk 'nope'"
               "time_and_samples;--time=1 --samples=3;exclude each other")
    list(GET spec 0 name)
    list(GET spec 1 args)
    list(GET spec 2 msg)
    add_test(NAME kernel_cli_bad_${name}
      COMMAND sh -c "$<TARGET_FILE:stubbench> kernel ${args} 2>&1; echo \"exit=$?\"")
    set_tests_properties(kernel_cli_bad_${name} PROPERTIES
      PASS_REGULAR_EXPRESSION "${msg}.*exit=2")
  endforeach()
  # --help and --version answer with status 0.
  add_test(NAME kernel_cli_help
    COMMAND sh -c "$<TARGET_FILE:stubbench> kernel --help; echo \"exit=$?\"")
  set_tests_properties(kernel_cli_help PROPERTIES
    PASS_REGULAR_EXPRESSION "usage: stubbench kernel .*--dump-jit=DIR.*exit status: 0 ok.*exit=0")
  add_test(NAME kernel_cli_version
    COMMAND sh -c "$<TARGET_FILE:stubbench> kernel --version; echo \"exit=$?\"")
  set_tests_properties(kernel_cli_version PROPERTIES
    PASS_REGULAR_EXPRESSION "^stubbench [0-9]+\\.[0-9]+\\.[0-9]+\nexit=0")
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_kernel_add_tests)
