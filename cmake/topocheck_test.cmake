# The one way to declare a test target.
#
#   tc_add_test(NAME [SOURCES file.cc...] [LIBS target...] [ARGS arg...] [LABELS label...]
#               [ENVIRONMENT VAR=value...] [TIMEOUT seconds] [NO_TEST] [SOURCE_DIR])
#     Builds the GoogleTest binary NAME (sources default to NAME.cc beside the CMakeLists.txt),
#     linked with LIBS, GoogleMock and gtest_main, and registers it with ctest as NAME running ARGS.
#     NO_TEST builds the binary only (for binaries whose ctest entries are all tc_add_test_entry).
#     SOURCE_DIR compiles it with TOPOCHECK_SOURCE_DIR (the tree's path, for tests reading it).
#   tc_add_test_entry(NAME BINARY binary [ARGS arg...] [LABELS...] [ENVIRONMENT...] [TIMEOUT s])
#     A further ctest entry of an existing test binary, usually a --gtest_filter of its suites.
#   tc_add_bench(NAME [SOURCES...] [LIBS...] [SMOKE_ARGS arg...])
#     A Google Benchmark binary and its `bench`-labelled smoke test (ARGS default
#     --benchmark_min_time=0.01): the smoke test only checks that it runs.
#
# Labels: `deep` tests are opt-in (`./topocheck test-deep`), `fuzz_long` ones too (fuzz/README.md); the
# gating suite is `ctest -LE 'deep|fuzz_long'`.
# Every test sees TOPOCHECK_CORPUS pointing at the source tree's corpus. A TIMEOUT is four times
# longer in the ASan/UBSan build (TOPOCHECK_SANITIZE).

function(_tc_test_properties test)
  cmake_parse_arguments(P "" "TIMEOUT" "LABELS;ENVIRONMENT" ${ARGN})
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "TOPOCHECK_CORPUS=${CMAKE_SOURCE_DIR}/corpus;${P_ENVIRONMENT}")
  if(P_LABELS)
    set_tests_properties(${test} PROPERTIES LABELS "${P_LABELS}")
  endif()
  if(P_TIMEOUT)
    # A time budget, not a check: under ASan/UBSan everything runs several times slower (the
    # plan-class cross-check: about 7 min in the release build, over 30 under the sanitizers).
    if(TOPOCHECK_SANITIZE)
      math(EXPR P_TIMEOUT "${P_TIMEOUT} * 4")
    endif()
    set_tests_properties(${test} PROPERTIES TIMEOUT ${P_TIMEOUT})
  endif()
endfunction()

function(tc_add_test name)
  cmake_parse_arguments(T "NO_TEST;SOURCE_DIR" "TIMEOUT" "SOURCES;LIBS;ARGS;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT T_SOURCES)
    set(T_SOURCES ${name}.cc)
  endif()
  # The test's own objects are a library of their own, so that the mutation tool's twin of the
  # test (tools/mutate) links the same objects against the mutant schemata without recompiling them.
  add_library(${name}_objects OBJECT ${T_SOURCES})
  target_link_libraries(${name}_objects PRIVATE ${T_LIBS} GTest::gmock GTest::gtest_main)
  if(T_SOURCE_DIR)
    target_compile_definitions(${name}_objects PRIVATE ${TC_SOURCE_DIR_DEFINITION})
  endif()
  add_executable(${name} $<TARGET_OBJECTS:${name}_objects>)
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gmock GTest::gtest_main)
  set_property(GLOBAL APPEND PROPERTY TC_TEST_BINARIES ${name})
  if(NOT T_NO_TEST)
    add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
    _tc_test_properties(${name} LABELS ${T_LABELS} ENVIRONMENT ${T_ENVIRONMENT} TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()

function(tc_add_test_entry name)
  cmake_parse_arguments(T "" "BINARY;TIMEOUT" "ARGS;LABELS;ENVIRONMENT" ${ARGN})
  add_test(NAME ${name} COMMAND ${T_BINARY} ${T_ARGS})
  _tc_test_properties(${name} LABELS ${T_LABELS} ENVIRONMENT ${T_ENVIRONMENT} TIMEOUT ${T_TIMEOUT})
endfunction()

function(tc_add_bench name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;SMOKE_ARGS" ${ARGN})
  if(NOT T_SOURCES)
    set(T_SOURCES ${name}.cc)
  endif()
  if(NOT T_SMOKE_ARGS)
    set(T_SMOKE_ARGS --benchmark_min_time=0.01)
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} benchmark::benchmark)
  add_test(NAME ${name}_smoke COMMAND ${name} ${T_SMOKE_ARGS})
  _tc_test_properties(${name}_smoke LABELS bench)
endfunction()
