# sb_require_pkg(PREFIX MODULE PACKAGE [WHY]): finds MODULE with pkg-config
# (results in PREFIX_*) or stops with one line naming the Debian package.
# A macro, so that PREFIX_* land in the caller's scope.
macro(sb_require_pkg prefix module package)
  pkg_check_modules(${prefix} ${module})
  if(NOT ${prefix}_FOUND)
    if(${ARGC} GREATER 3)
      message(FATAL_ERROR "${module} not found (${ARGV3}): install it with 'apt-get install ${package}'")
    else()
      message(FATAL_ERROR "${module} not found: install it with 'apt-get install ${package}'")
    endif()
  endif()
endmacro()

# sb_part_off(PART WHY): switches the optional part PART (STUBBENCH_KERNEL,
# STUBBENCH_GBENCH, STUBBENCH_COUNTERS) off for this configure, with one
# line saying why. A plain variable shadows the cache option, so the next
# configure looks again (after the package is installed).
macro(sb_part_off part why)
  message(STATUS "${part} off: ${why}")
  set(${part} OFF)
endmacro()
