# `cpack` (or `ninja package`) in the build directory: a .deb of what cmake/Install.cmake
# installs, under /usr (the default of the DEB generator), stripped (docs/packaging.md).

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME benchguard)
set(CPACK_PACKAGE_VENDOR benchguard)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "statistically rigorous performance-regression testing")
# The long description of the .deb, in lines of less than 80 characters.
set(CPACK_PACKAGE_DESCRIPTION "\
benchguard runs benchmarks (any command, or C++ code through a small client),\n\
keeps every measurement in a database and tells with statistics whether a\n\
change made things slower, by how much, and how many runs it takes to know.\n\
This package holds the benchguard program with its man pages and bash and zsh\n\
completions, the header-only client, and the benchguard library with its CMake\n\
and pkg-config files.")
set(CPACK_PACKAGE_CONTACT "benchguard maintainers <maintainers@benchguard.invalid>")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Runtime dependencies come from the shared libraries the program links (dpkg-shlibdeps, of
# dpkg-dev); without it the package would declare none, so configuring says so.
find_program(BENCHGUARD_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(BENCHGUARD_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "dpkg-shlibdeps not found (Debian package dpkg-dev): a .deb built by cpack "
                 "would declare no dependencies")
endif()
# What building against benchguard::benchguard needs; the client needs none of it.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libcli11-dev, libyaml-cpp-dev, nlohmann-json3-dev, \
libsimdjson-dev, libfmt-dev, libsqlite3-dev, libboost-dev, libtbb-dev, pkg-config")

# `ninja package_source`: the sources, without build directories and databases.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/[.]git/" "/build[^/]*/" "[.]db(-wal|-shm)?$")

include(CPack)
