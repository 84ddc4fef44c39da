# What `cmake --install` (and so the .deb of cmake/Package.cmake) puts where, and the CMake
# and pkg-config packages that let other projects use benchguard (docs/packaging.md):
#   bin/benchguard
#   include/benchguard/*.hpp                  the header-only client (benchguard::client)
#   include/benchguard/internal/...           the library's headers (benchguard::benchguard)
#   lib/libbenchguard_lib.a                   the library
#   lib/benchguard/libbenchguard_count.so     per-iteration instruction counts for Python
#   lib/cmake/benchguard/                     find_package(benchguard CONFIG)
#   share/pkgconfig/benchguard.pc             pkg-config: the client
#   lib/pkgconfig/benchguard-library.pc       pkg-config: the library
#   share/man/man1/benchguard*.1.gz           man pages, written from --help
#   share/bash-completion/completions/benchguard, share/zsh/vendor-completions/_benchguard
# (lib is lib/<multiarch> when configured with the prefix /usr.)

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BENCHGUARD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/benchguard)
set(BENCHGUARD_INTERNAL_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR}/benchguard/internal)

# The header-only client: include/benchguard (client.hpp, barrier.hpp, benchguard.hpp, and
# gtest.hpp for GoogleTest programs), which needs C++20 and the C library only.
add_library(benchguard_client INTERFACE)
add_library(benchguard::client ALIAS benchguard_client)
set_target_properties(benchguard_client PROPERTIES EXPORT_NAME client)
target_include_directories(benchguard_client INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(benchguard_client INTERFACE cxx_std_20)

# The library, exported as benchguard::benchguard: installed, its headers are those of src/
# and generated/ in include/benchguard/internal, beside the client's.
add_library(benchguard::benchguard ALIAS benchguard_lib)
set_target_properties(benchguard_lib PROPERTIES EXPORT_NAME benchguard)
target_include_directories(benchguard_lib PUBLIC
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  $<INSTALL_INTERFACE:${BENCHGUARD_INTERNAL_INCLUDE_DIR}>)
target_compile_features(benchguard_lib INTERFACE $<INSTALL_INTERFACE:cxx_std_20>)

install(TARGETS benchguard RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS benchguard_count LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/benchguard)
install(TARGETS benchguard_client EXPORT benchguardClientTargets)
install(TARGETS benchguard_lib EXPORT benchguardLibraryTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# A stripped install (`cmake --install --strip`, the .deb) strips the library of its debug
# information too, keeping its symbols: RelWithDebInfo makes it hundreds of MB.
if(CMAKE_STRIP)
  install(CODE "
    if(CMAKE_INSTALL_DO_STRIP)
      execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
        \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:benchguard_lib>\"
        COMMAND_ERROR_IS_FATAL ANY)
    endif()")
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/benchguard
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/ DESTINATION ${BENCHGUARD_INTERNAL_INCLUDE_DIR}
  FILES_MATCHING PATTERN "*.hpp" PATTERN "migrations" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/generated/core/version.hpp
  DESTINATION ${BENCHGUARD_INTERNAL_INCLUDE_DIR}/core)

install(EXPORT benchguardClientTargets NAMESPACE benchguard:: DESTINATION ${BENCHGUARD_CMAKE_DIR})
install(EXPORT benchguardLibraryTargets NAMESPACE benchguard:: DESTINATION ${BENCHGUARD_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/benchguardConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/benchguardConfig.cmake
  INSTALL_DESTINATION ${BENCHGUARD_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/benchguardConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/benchguardConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/benchguardConfigVersion.cmake
  DESTINATION ${BENCHGUARD_CMAKE_DIR})

# The pkg-config files name the prefix installed to, which `cmake --install --prefix` and CPack
# choose after configuring: they are written at install time. benchguard.pc (the client) is
# the same on every architecture; benchguard-library.pc names the library's directory.
install(CODE "
  set(BENCHGUARD_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(BENCHGUARD_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(BENCHGUARD_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(BENCHGUARD_PC_LIBRARY \"$<TARGET_FILE_BASE_NAME:benchguard_lib>\")
  set(BENCHGUARD_PC_VERSION \"${PROJECT_VERSION}\")
  foreach(_bg_pc \"benchguard;${CMAKE_INSTALL_DATADIR}\"
                 \"benchguard-library;${CMAKE_INSTALL_LIBDIR}\")
    list(GET _bg_pc 0 _bg_name)
    list(GET _bg_pc 1 _bg_dir)
    set(_bg_file \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/\${_bg_dir}/pkgconfig/\${_bg_name}.pc\")
    message(STATUS \"Installing: \${_bg_file}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/cmake/\${_bg_name}.pc.in\" \"\${_bg_file}\" @ONLY)
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_bg_file}\")
  endforeach()")

# Man pages and completions, written from the --help output of the benchguard just built
# (packaging/gen-cli-docs.sh).
if(NOT CMAKE_CROSSCOMPILING)
  set(BENCHGUARD_CLI_DOCS_DIR ${PROJECT_BINARY_DIR}/cli-docs)
  file(GLOB BENCHGUARD_CLI_DOCS_SCRIPTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/packaging/*)
  add_custom_command(OUTPUT ${BENCHGUARD_CLI_DOCS_DIR}/stamp
    COMMAND bash ${PROJECT_SOURCE_DIR}/packaging/gen-cli-docs.sh $<TARGET_FILE:benchguard>
      ${BENCHGUARD_CLI_DOCS_DIR}
    COMMAND ${CMAKE_COMMAND} -E touch ${BENCHGUARD_CLI_DOCS_DIR}/stamp
    DEPENDS benchguard ${BENCHGUARD_CLI_DOCS_SCRIPTS}
    COMMENT "Writing man pages and shell completions from benchguard --help"
    VERBATIM)
  add_custom_target(benchguard_cli_docs ALL DEPENDS ${BENCHGUARD_CLI_DOCS_DIR}/stamp)

  install(DIRECTORY ${BENCHGUARD_CLI_DOCS_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${BENCHGUARD_CLI_DOCS_DIR}/completions/benchguard
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${BENCHGUARD_CLI_DOCS_DIR}/completions/_benchguard
    DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
endif()
