# lab.cmake: the codegen lab (issue 6): alternative private-stack sequences,
# their registry family "lab", the gnuplot writer, and their tests.

set(SB_LAB_ASM
  ${CMAKE_SOURCE_DIR}/asm/lab_alternatives.asm
  ${CMAKE_SOURCE_DIR}/asm/lab_return_thunks.asm
)
set_source_files_properties(${SB_LAB_ASM} PROPERTIES
  OBJECT_DEPENDS ${CMAKE_SOURCE_DIR}/asm/jit_macros.inc)
target_sources(stubbench_core PRIVATE
  ${SB_LAB_ASM}
  ${CMAKE_SOURCE_DIR}/src/lab_variants.c
)

find_package(PkgConfig REQUIRED)

# The tests. This file is included before include(CTest), so on the first
# configure BUILD_TESTING is not defined yet: add them at the end of the
# top-level directory (cmake_language(DEFER)).
function(sb_lab_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  set(SB_LAB_TESTS ${CMAKE_SOURCE_DIR}/tests)
  pkg_check_modules(SB_LAB_LIBELF libelf)

  # Golden bytes against the hand-written listings tests/data/lab_*.lst.
  add_executable(test_lab_golden ${SB_LAB_TESTS}/test_lab_golden.c ${SB_LAB_TESTS}/elf_symbols.c)
  target_include_directories(test_lab_golden PRIVATE ${SB_LAB_TESTS} ${SB_LAB_LIBELF_INCLUDE_DIRS})
  target_link_libraries(test_lab_golden PRIVATE stubbench_core ${SB_LAB_LIBELF_LIBRARIES})
  add_test(NAME lab_golden_bytes COMMAND test_lab_golden ${SB_LAB_TESTS}/data)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_lab_tests)
