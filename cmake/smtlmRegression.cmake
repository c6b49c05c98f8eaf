# smtlm_add_regression(<target> <source>... [GOLDEN_DIR <dir>] [TIMEOUT <seconds>]
#                      [TEST_PREFIX <prefix>] [LIBRARIES <library>...])
#
# A regression test binary on smtlm::testing: an executable of the sources with the kit's own
# main and sc_main (smtlm::testing_main), every test registered with ctest as a process of its
# own (gtest_discover_tests: a SystemC process elaborates once), golden files taken from
# GOLDEN_DIR (relative to the calling CMakeLists.txt), the package's configs as
# SMTLM_CONFIGS_DIR (project_config("qv100")), and a target <target>_update_goldens that runs
# the binary with --smtlm_update_goldens (cmake --build <dir> --target <target>_update_goldens).
# TIMEOUT: per test (default 300 s); TEST_PREFIX: put before every ctest name.
include_guard(GLOBAL)
include(GoogleTest)

function(smtlm_add_regression target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "GOLDEN_DIR;TIMEOUT;TEST_PREFIX" "LIBRARIES")
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "smtlm_add_regression(${target}): no source files")
  endif()
  add_executable(${target} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${target} PRIVATE smtlm::testing_main smtlm::testing ${ARG_LIBRARIES})
  if(ARG_GOLDEN_DIR)
    cmake_path(ABSOLUTE_PATH ARG_GOLDEN_DIR BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE
               OUTPUT_VARIABLE golden_dir)
    target_compile_definitions(${target} PRIVATE SMTLM_GOLDEN_DIR="${golden_dir}")
  endif()
  if(SMTLM_CONFIGS_DIR)
    target_compile_definitions(${target} PRIVATE SMTLM_CONFIGS_DIR="${SMTLM_CONFIGS_DIR}")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 NO_PRETTY_VALUES TEST_PREFIX "${ARG_TEST_PREFIX}"
                       PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  add_custom_target(${target}_update_goldens COMMAND ${target} --smtlm_update_goldens DEPENDS ${target}
                    COMMENT "rewriting the golden files of ${target}" VERBATIM)
endfunction()
