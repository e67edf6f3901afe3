# `cmake --install`: topocheck as a library for other projects (docs/using.md, "Using topocheck from C++").
#
# Installed: the judges, the topologies, the users'-artefact checkers and the RapidCheck generators,
# as the CMake package `topocheck` (find_package(topocheck CONFIG): targets topocheck::core,
# topocheck::hypercube, topocheck::metacube, topocheck::itm, topocheck::aapc, topocheck::check and
# topocheck::gen) and the pkg-config module `topocheck` (everything but the generators, which are
# header-only and need RapidCheck, which Debian ships without a pkg-config file).
# Headers go to <prefix>/include/topocheck/<folder>/, and both <prefix>/include and
# <prefix>/include/topocheck are on the include path: a project writes
# #include <topocheck/core/checks.h>, and the headers find each other as "core/...", as in the tree.
# Only the public headers below are installed, with the headers they include (the closure is
# checked by tests/install: every installed header compiles on its own against the installed tree).
# network and wormhole are installed as libraries only: check's routing judge links them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_tc_public_headers
    core/checks.h core/core_gen.h core/graph.h core/node.h core/path.h core/status.h core/subcube.h
    core/topology.h core/sweep/path_block.h
    hypercube/hypercube.h hypercube/hypercube_checks.h hypercube/hypercube_gen.h
    metacube/metacube.h metacube/routing.h metacube/disjoint.h metacube/metacube_checks.h
    metacube/metacube_gen.h
    itm/itm.h itm/itm_checks.h itm/itm_oracle.h itm/itm_gen.h
    aapc/aapc.h aapc/aapc_gen.h
    check/report.h check/paths.h check/schedule.h check/routing.h check/itm.h)

# target:name pairs: the library and its name in the package (and its file: libtopocheck_<name>.a).
set(_tc_installed_libraries tc_core:core tc_hypercube:hypercube tc_metacube:metacube tc_itm:itm
    tc_aapc:aapc tc_network:network tc_wormhole:wormhole tc_check:check)
set(_tc_install_targets)
set(_tc_pc_libs)
foreach(pair ${_tc_installed_libraries})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 target)
  list(GET pair 1 name)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME topocheck_${name})
  list(APPEND _tc_install_targets ${target})
  # Static libraries: a library before the ones it needs.
  string(PREPEND _tc_pc_libs "-ltopocheck_${name} ")
endforeach()
# The installed tree's include directories travel with core (every library links it publicly).
target_include_directories(tc_core INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
                                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/topocheck>)
# An ASan/UBSan build's libraries need the sanitizers' runtime in whatever links them.
if(TOPOCHECK_SANITIZE)
  target_link_options(tc_core INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
  set(_tc_pc_sanitize "-fsanitize=address,undefined")
endif()

# The generators: header-only, on RapidCheck and the families whose inputs they draw.
add_library(tc_gen INTERFACE)
target_link_libraries(tc_gen INTERFACE tc_core tc_hypercube tc_metacube tc_itm tc_aapc rapidcheck)
set_target_properties(tc_gen PROPERTIES EXPORT_NAME gen)
list(APPEND _tc_install_targets tc_gen)

install(TARGETS ${_tc_install_targets} EXPORT topocheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(header ${_tc_public_headers})
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES src/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/topocheck/${folder})
endforeach()

set(_tc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/topocheck)
install(EXPORT topocheckTargets NAMESPACE topocheck:: DESTINATION ${_tc_cmake_dir})
configure_package_config_file(cmake/topocheckConfig.cmake.in ${CMAKE_BINARY_DIR}/topocheckConfig.cmake
                              INSTALL_DESTINATION ${_tc_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/topocheckConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/topocheckConfig.cmake ${CMAKE_BINARY_DIR}/topocheckConfigVersion.cmake
        DESTINATION ${_tc_cmake_dir})

# pkg-config: relocatable (the prefix is found from the .pc file's own place), so that
# `cmake --install --prefix P` works for any P.
file(RELATIVE_PATH _tc_pc_up /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
configure_file(cmake/topocheck.pc.in ${CMAKE_BINARY_DIR}/topocheck.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/topocheck.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
