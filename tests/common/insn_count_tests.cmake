# insn_count_tests.cmake: writes one ctest per registry variant,
# insn_count_<variant>, running count_insns.sh on it (run after the driver
# is built, like gtest_discover_tests: the variants are whatever the asm
# records declare).
# cmake -DDRIVER=insn_driver -DSCRIPT=count_insns.sh -DOUT=file -P insn_count_tests.cmake
execute_process(COMMAND ${DRIVER} --list OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DRIVER} --list failed (${rc})")
endif()
string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" names "${out}")
set(content "")
foreach(name IN LISTS names)
  string(APPEND content "add_test(insn_count_${name} \"${SCRIPT}\" \"${DRIVER}\" \"${name}\")\n"
    "set_tests_properties(insn_count_${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS valgrind)\n")
endforeach()
file(WRITE ${OUT} "${content}")
