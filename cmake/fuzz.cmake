# fuzz.cmake: -DSTUBBENCH_FUZZ=ON (with CC=clang and CXX=clang++) builds
# libFuzzer targets of the readers of files the tool is handed (saved runs,
# blocks logs, records, listings: tests/fuzz/), everything instrumented with
# ASan and UBSan, and ctest runs each for STUBBENCH_FUZZ_SECONDS from a
# corpus of tests/data (label fuzz; docs/hostile-inputs.md). Build them alone:
#   cmake --build build-fuzz --target stubbench_fuzz
option(STUBBENCH_FUZZ "build the readers' libFuzzer targets (needs clang)" OFF)
set(STUBBENCH_FUZZ_SECONDS 20 CACHE STRING "seconds each fuzz test runs its target")
if(STUBBENCH_FUZZ AND NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(STATUS "STUBBENCH_FUZZ: off: libFuzzer needs clang as the C compiler (CC=clang), "
    "not ${CMAKE_C_COMPILER_ID}")
  set(STUBBENCH_FUZZ OFF)
endif()
if(STUBBENCH_FUZZ)
  foreach(flag -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
    add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:${flag}>)
  endforeach()
  add_link_options(-fsanitize=address,undefined)
endif()

# sb_fuzz_targets(): the targets and their tests (after the libraries).
function(sb_fuzz_targets)
  if(NOT STUBBENCH_FUZZ)
    return()
  endif()
  add_custom_target(stubbench_fuzz)
  foreach(name run_file blocks_log records listing)
    add_executable(fuzz_${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${name}.c)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(fuzz_${name} PRIVATE stubbench_report stubbench_core stubbench_jit)
    add_dependencies(stubbench_fuzz fuzz_${name})
    add_test(NAME fuzz_${name} COMMAND sh ${CMAKE_SOURCE_DIR}/tests/fuzz/run_fuzz.sh $<TARGET_FILE:fuzz_${name}>
      ${name} ${STUBBENCH_FUZZ_SECONDS} ${CMAKE_SOURCE_DIR}/tests ${CMAKE_CURRENT_BINARY_DIR}/fuzz-${name})
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz)
  endforeach()
endfunction()
