# The installed package's dependencies: find_package(smtlm COMPONENTS tlm) needs SystemC only,
# so it works where GoogleTest cannot be found; `testing` brings the regression kit and needs it.
#   cmake -DBUILD=<build dir> -DCONSUMER=<package_consumer dir> -DWORK=<scratch dir> -P package_check.cmake
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed")
endif()
# Both floors of platform/ install their headers as smtlm/<name>.h, beside the kernels' headers.
foreach(h smtlm/trace.h smtlm/engine_config.h smtlm/smsim.h smtlm/progress.h smtlm/sm.h)
  if(NOT EXISTS ${WORK}/prefix/include/${h})
    message(FATAL_ERROR "cmake --install did not install include/${h}")
  endif()
endforeach()
# SystemC 3 deprecates SC_HAS_PROCESS (it finds a module's type itself): an installed header that
# uses it warns in every file of the platform's that includes it, unless it is kept for older
# SystemC only.
file(GLOB_RECURSE headers ${WORK}/prefix/include/smtlm/*.h)
foreach(h ${headers})
  file(STRINGS ${h} lines)
  set(prev "")
  foreach(line IN LISTS lines)
    if(line MATCHES "SC_HAS_PROCESS\\(" AND NOT prev MATCHES "^#if SC_VERSION_MAJOR < 3")
      message(FATAL_ERROR "${h}: SC_HAS_PROCESS outside '#if SC_VERSION_MAJOR < 3' (SystemC 3 warns on it): ${line}")
    endif()
    set(prev "${line}")
  endforeach()
endforeach()
function(consume name components gtest expect_ok targets no_targets)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/${name} -DCMAKE_PREFIX_PATH=${WORK}/prefix
                          "-DSMTLM_COMPONENTS=${components}" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=${gtest}
                          "-DEXPECT_TARGETS=${targets}" "-DEXPECT_NO_TARGETS=${no_targets}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_ok AND rc)
    message(FATAL_ERROR "${name}: find_package(smtlm COMPONENTS ${components}) failed:\n${out}\n${err}")
  elseif(NOT expect_ok AND NOT rc)
    message(FATAL_ERROR "${name}: find_package(smtlm COMPONENTS ${components}) succeeded without GoogleTest")
  endif()
  message(STATUS "${name}: as expected")
endfunction()
consume(tlm_without_gtest tlm ON TRUE "smtlm::tlm;smtlm::platform;smtlm::smsim" "smtlm::testing;GTest::gtest")
if(HAS_TESTING)
  consume(testing_with_gtest "tlm;testing" OFF TRUE "smtlm::tlm;smtlm::testing;smtlm::testing_main" "")
  consume(testing_without_gtest "tlm;testing" ON FALSE "" "")
endif()
