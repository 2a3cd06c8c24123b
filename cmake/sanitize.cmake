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
  add_link_options(-fsanitize=address,undefined)
  # A sanitized libstubbench.a needs the runtimes where it is linked.
  set(SB_PC_SANITIZE "-fsanitize=address,undefined")
endif()
