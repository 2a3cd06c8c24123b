# deprivatize.cmake: twins of JITed functions with the other frame (the
# STUBBENCH_DEPRIVATIZE part): a private-stack function re-encoded without its
# private stack, and the reverse (src/jit/deprivatize.c, code_layout.c,
# twin_listing.c). Zydis 4 decodes and encodes; without it the part is off,
# with one line saying so.

if(STUBBENCH_DEPRIVATIZE)
  find_package(zydis 4 CONFIG QUIET)
  if(NOT zydis_FOUND OR NOT TARGET Zydis::Zydis)
    sb_part_off(STUBBENCH_DEPRIVATIZE "Zydis 4 not found (it re-encodes JITed code): apt-get install libzydis-dev")
  endif()
endif()

if(STUBBENCH_DEPRIVATIZE)
  add_library(stubbench_twins STATIC src/jit/deprivatize.c src/jit/code_layout.c src/jit/twin_listing.c)
  target_include_directories(stubbench_twins PUBLIC ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(stubbench_twins PUBLIC stubbench_jit PRIVATE Zydis::Zydis)
endif()

# The tests, defined once BUILD_TESTING is (see counters.cmake).
function(sb_deprivatize_tests)
  if(BUILD_TESTING AND STUBBENCH_DEPRIVATIZE)
    set(SB_TESTS ${CMAKE_SOURCE_DIR}/tests)
    # The de-privatized twin of a private-stack function against the kernel's
    # own JIT of it without a private stack, and the reverse, on recorded dumps.
    add_executable(test_deprivatize ${SB_TESTS}/test_deprivatize.c)
    target_include_directories(test_deprivatize PRIVATE ${SB_TESTS})
    target_link_libraries(test_deprivatize PRIVATE stubbench_twins)
    add_test(NAME deprivatize_twins COMMAND test_deprivatize ${SB_TESTS}/data)
  endif()
endfunction()
cmake_language(DEFER CALL sb_deprivatize_tests)
