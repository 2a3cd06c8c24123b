# Writes OUT: the source revision every JSON document names, as
#   #define SB_GIT_REVISION "<12 hex digits>[-dirty]"   (or "unknown": no git)
# Run at every build (target git_revision), so the binary names the commit it
# was built from, not the one the build tree was configured at; OUT is only
# rewritten when the revision changes, so an unchanged tree rebuilds nothing.
# -dirty: tracked files differed from HEAD when it was built.
execute_process(COMMAND git -C ${SRC} rev-parse --short=12 HEAD
  OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT rev)
  set(rev unknown)
else()
  execute_process(COMMAND git -C ${SRC} diff --quiet HEAD -- RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty EQUAL 1)
    string(APPEND rev "-dirty")
  endif()
endif()
file(WRITE ${OUT}.tmp "#define SB_GIT_REVISION \"${rev}\"\n")
configure_file(${OUT}.tmp ${OUT} COPYONLY)
file(REMOVE ${OUT}.tmp)
