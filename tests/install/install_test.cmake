# `cmake --install` and the installed package, end to end (ctest install_package):
#  1. install the build BUILD into WORK/prefix;
#  2. the installed headers are exactly the public ones and their includes (internals absent), and
#     each compiles on its own against the installed tree (headers/);
#  3. the external example project (examples/external) configures with find_package(topocheck),
#     builds, and its property passes; its planted-bug twin's property fails, with RapidCheck's
#     shrunk counterexample and the judge's words;
#  4. a program built with `pkg-config --cflags --libs topocheck` alone links and runs.
# Usage: cmake -DBUILD=... -DSOURCE=... -DWORK=... -DCXX=... -DGENERATOR=... -P install_test.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var BUILD SOURCE WORK CXX GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_test.cmake: -D${var}= is missing")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
message(STATUS "installed into ${prefix}")

# 2. The public headers only.
file(GLOB_RECURSE installed RELATIVE ${prefix}/include/topocheck ${prefix}/include/topocheck/*.h)
list(LENGTH installed count)
message(STATUS "${count} headers installed")
foreach(public core/checks.h core/core_gen.h hypercube/hypercube_gen.h metacube/metacube_gen.h
               itm/itm_gen.h aapc/aapc_gen.h check/paths.h check/schedule.h check/routing.h check/itm.h)
  if(NOT public IN_LIST installed)
    message(FATAL_ERROR "public header ${public} was not installed")
  endif()
endforeach()
foreach(internal claims/claim.h catalog/catalog.h cli/app.h aapc/live_graph.h itm/small_graph.h
                 core/json_lines.h core/testing/property_harness.h wormhole/wormhole.h smt/metacube_symbolic.h)
  if(internal IN_LIST installed)
    message(FATAL_ERROR "internal header ${internal} was installed")
  endif()
endforeach()
file(GLOB libraries RELATIVE ${prefix} ${prefix}/lib*/libtopocheck_*.a ${prefix}/lib*/*/libtopocheck_*.a)
message(STATUS "libraries: ${libraries}")
foreach(internal registry catalog claims cli corpus)
  if(libraries MATCHES "libtopocheck_${internal}\\.a")
    message(FATAL_ERROR "internal library ${internal} was installed")
  endif()
endforeach()
set(configure_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
                   -DCMAKE_BUILD_TYPE=Release)
run("configure headers/" ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/headers -B ${WORK}/headers ${configure_args})
run("build headers/" ${CMAKE_COMMAND} --build ${WORK}/headers)
message(STATUS "every installed header compiles on its own")

# 3. The external project.
run("configure examples/external" ${CMAKE_COMMAND} -S ${SOURCE}/examples/external -B ${WORK}/external ${configure_args})
run("build examples/external" ${CMAKE_COMMAND} --build ${WORK}/external)
run("the example's property" ${WORK}/external/cube_paths_property)
message(STATUS "the example's property:\n${run_output}")
if(NOT run_output MATCHES "OK, passed 100 tests")
  message(FATAL_ERROR "the example's property did not report its passed tests:\n${run_output}")
endif()
execute_process(COMMAND ${WORK}/external/cube_paths_property_planted RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "the planted bug (exit ${rc}):\n${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "the planted bug was not caught: its property passed")
endif()
if(NOT "${out}${err}" MATCHES "Falsifiable" OR NOT "${out}${err}" MATCHES "share node")
  message(FATAL_ERROR "the planted bug's failure does not name a shared node")
endif()

# 4. pkg-config alone.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "")
file(GLOB_RECURSE pc_files ${prefix}/topocheck.pc)
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run("pkg-config" ${PKG_CONFIG} --cflags --libs topocheck)
string(STRIP "${run_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("pkg-config build" ${CXX} ${CMAKE_CURRENT_LIST_DIR}/pkgconfig_main.cc ${flags} -o ${WORK}/pkgconfig_main)
run("pkg-config program" ${WORK}/pkgconfig_main)
message(STATUS "pkg-config program: ${run_output}")
