# Runs COMMAND (a ;-list) and passes only if it fails (non-zero exit) and its output matches
# every regular expression of EXPECT (a ;-list): a deliberate change must be caught, and shown.
#   cmake -DCOMMAND=... -DEXPECT=... -P expect_failure.cmake
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a failure, the command passed")
endif()
foreach(re IN LISTS EXPECT)
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "the output lacks: ${re}")
  endif()
endforeach()
message("failed as expected (exit ${rc}) with every expected line")
