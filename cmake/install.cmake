# install.cmake: what `cmake --install` puts under the prefix: the programs,
# libstubbench.a (the replicas, the harness, the JIT tools) with its headers
# and pkg-config file, the man page and the bash completion.
add_library(stubbench_lib STATIC $<TARGET_OBJECTS:stubbench_asm> $<TARGET_OBJECTS:stubbench_core>
  $<TARGET_OBJECTS:stubbench_jit>)
set_target_properties(stubbench_lib PROPERTIES OUTPUT_NAME stubbench)
configure_file(${CMAKE_SOURCE_DIR}/share/stubbench.pc.in ${CMAKE_BINARY_DIR}/stubbench.pc @ONLY)

install(TARGETS stubbench RUNTIME DESTINATION bin)
if(STUBBENCH_GBENCH)
  install(TARGETS stubbench-gbench RUNTIME DESTINATION bin)
endif()
install(TARGETS stubbench_lib ARCHIVE DESTINATION lib)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/stubbench DESTINATION include)
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
  add_test(NAME install_tree COMMAND sh ${CMAKE_SOURCE_DIR}/tests/install_tree.sh ${CMAKE_COMMAND}
    ${CMAKE_BINARY_DIR} ${CMAKE_C_COMPILER})
  set_tests_properties(install_tree PROPERTIES SKIP_RETURN_CODE 77)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_install_add_tests)
