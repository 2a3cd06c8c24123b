# sanitize.cmake: -DSTUBBENCH_SANITIZE=ON builds everything with
# AddressSanitizer and UndefinedBehaviorSanitizer; any report ends the
# program with an error, so a test that triggers one fails. valgrind cannot
# run such programs: the tests that use it (LABELS valgrind) skip there.
option(STUBBENCH_SANITIZE "build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(STUBBENCH_SANITIZE)
  set(sb_sanitize_flags -fsanitize=address$<COMMA>undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
  foreach(flag IN LISTS sb_sanitize_flags)
    add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:${flag}>)
  endforeach()
  # GCC's manual: sanitizers raise the rate of false -Wmaybe-uninitialized
  # warnings. Under ASan GCC 12 warns inside libstdc++'s <regex>
  # (std::function, for gbench_shim.cpp): off for C++ in this build only.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  add_link_options(-fsanitize=address,undefined)
  # A sanitized libstubbench.a needs the runtimes where it is linked.
  set(SB_PC_SANITIZE "-fsanitize=address,undefined")
endif()

# sb_sanitize_tests(): in a sanitized build, every test of the calling
# directory runs with the sanitizers' options. A report (an ASan error, a
# leak at exit, undefined behaviour) ends the program with status 86, which
# no stubbench program uses. ASan's reports are written to
# build/sanitizer-reports/asan.<pid> instead of stderr, and the test
# sanitizer_reports runs after all others (a ctest fixture, so it runs with
# any selection, e.g. -L exact) and fails listing every one: an ASan report
# from a program whose status or stderr a script ignores still fails ctest.
# UBSan's go to stderr (GCC 12's runtime ignores log_path for them beside
# ASan): they fail the test by the status. The directory is world-writable:
# tests run stubbench as nobody (setpriv).
function(sb_sanitize_tests)
  if(NOT STUBBENCH_SANITIZE)
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/sanitizer-reports)
  get_property(tests DIRECTORY PROPERTY TESTS)
  list(REMOVE_ITEM tests sanitizer_reports_clear sanitizer_reports)
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT
      "ASAN_OPTIONS=exitcode=86:detect_leaks=1:log_path=${dir}/asan"
      "UBSAN_OPTIONS=exitcode=86:halt_on_error=1:print_stacktrace=1")
    set_property(TEST ${tests} APPEND PROPERTY FIXTURES_REQUIRED sanitizer_reports)
  endif()
  if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
    return()
  endif()
  add_test(NAME sanitizer_reports_clear COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/sanitizer_reports_clear.sh ${dir})
  add_test(NAME sanitizer_reports COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/sanitizer_reports.sh ${dir})
  set_tests_properties(sanitizer_reports_clear PROPERTIES FIXTURES_SETUP sanitizer_reports LABELS exact)
  set_tests_properties(sanitizer_reports PROPERTIES FIXTURES_CLEANUP sanitizer_reports LABELS exact)
endfunction()
