# install.cmake: what `cmake --install` puts under the prefix: the programs,
# libstubbench.a (the replicas, the harness, the JIT tools, the counters,
# the reports and the session: everything stubbench.h offers) with the
# headers of its public API and the pkg-config file, the man page and the
# bash completion.
add_library(stubbench_lib STATIC $<TARGET_OBJECTS:stubbench_asm> $<TARGET_OBJECTS:stubbench_core>
  $<TARGET_OBJECTS:stubbench_jit> $<TARGET_OBJECTS:stubbench_counters> $<TARGET_OBJECTS:stubbench_report>
  $<TARGET_OBJECTS:stubbench_session>)
# The public API (docs/library.md): stubbench.h and what it includes; a
# test checks that the list is that header's closure (install_tree.sh).
set(SB_PUBLIC_HEADERS stubbench.h cell_key.h config.h estimate.h format.h parse.h registry.h results.h sibling_names.h stats.h timer.h)
list(TRANSFORM SB_PUBLIC_HEADERS PREPEND ${CMAKE_SOURCE_DIR}/include/stubbench/)
# Libraries of the counters part, which have no pkg-config file.
set(SB_PC_LIBS "")
if(STUBBENCH_COUNTERS)
  string(APPEND SB_PC_LIBS " -lpfm")
endif()
if(STUBBENCH_LIKWID)
  string(APPEND SB_PC_LIBS " -llikwid")
endif()
set_target_properties(stubbench_lib PROPERTIES OUTPUT_NAME stubbench)
configure_file(${CMAKE_SOURCE_DIR}/share/stubbench.pc.in ${CMAKE_BINARY_DIR}/stubbench.pc @ONLY)

install(TARGETS stubbench RUNTIME DESTINATION bin)
if(STUBBENCH_GBENCH)
  install(TARGETS stubbench-gbench RUNTIME DESTINATION bin)
endif()
install(TARGETS stubbench_lib ARCHIVE DESTINATION lib)
install(FILES ${SB_PUBLIC_HEADERS} DESTINATION include/stubbench)
install(FILES ${CMAKE_BINARY_DIR}/stubbench.pc DESTINATION lib/pkgconfig)
# Both written by the build (cmake/cli_docs.cmake); bash-completion loads
# a program's completion by the program's name, so the one file is
# installed under both.
if(SB_CLI_DOCS)
  install(FILES ${SB_MAN_PAGE} DESTINATION share/man/man1)
  install(FILES ${SB_COMPLETION} DESTINATION share/bash-completion/completions RENAME stubbench)
  if(STUBBENCH_GBENCH)
    install(FILES ${SB_COMPLETION} DESTINATION share/bash-completion/completions RENAME stubbench-gbench)
  endif()
endif()

function(sb_install_add_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  # Installs into a fresh prefix and builds a program against it with
  # pkg-config alone.
  add_test(NAME install_tree COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/install_tree.sh ${CMAKE_COMMAND}
    ${CMAKE_BINARY_DIR} ${CMAKE_C_COMPILER} ${CMAKE_SOURCE_DIR})
  set_tests_properties(install_tree PROPERTIES SKIP_RETURN_CODE 77)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_install_add_tests)
